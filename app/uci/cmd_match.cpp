// cmd_match.cpp - `mktb match`: games between two UCI engines from a file of start positions
// (Makruk's or Xiangqi's, told by the FEN), at a fixed time per move, adjudicated by the game's
// rules (uci/referee.hpp: for Makruk as Fairy-Stockfish scores them, with the count in comments;
// for Xiangqi with the perpetual-check rule), written as PGN. The first engine plays the side to
// move of every start position, so a file of "won within the count" positions tests it as the
// attacker, one of "drawn under the count" positions as the defender; with --both-colours it plays
// each position from both sides (a match from balanced positions), and the summary gives its score
// as an Elo difference.
#include <array>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "cli.hpp"
#include "engine_process.hpp"
#include "uci/elo.hpp"
#include "uci/referee.hpp"

namespace mktb::cli {

namespace {

std::vector<std::string> split(const std::string& text) {
    std::istringstream in(text);
    std::vector<std::string> words;
    for (std::string w; in >> w;) words.push_back(w);
    return words;
}

struct Player {
    std::string name;
    std::unique_ptr<EngineProcess> engine;
};

struct Game {
    std::string result = "*", termination;
    int plies = 0;
    std::string movetext;
};

// Starts an engine for `variant` with `options` ("NAME=VALUE": setoption after UCI_Variant);
// throws std::runtime_error naming what failed.
Player start(const std::string& command, const std::vector<std::string>& options,
    const std::string& variant) {
    Player p { command, std::make_unique<EngineProcess>(split(command)) };
    std::vector<std::string> lines;
    p.engine->send("uci");
    if (!p.engine->wait_for("uciok", std::chrono::seconds(20), &lines))
        throw std::runtime_error("'" + command + "' did not answer uci");
    for (const std::string& l : lines)
        if (l.starts_with("id name ")) p.name = l.substr(8);
    p.engine->send("setoption name UCI_Variant value " + variant);
    for (const std::string& o : options) {
        const std::size_t eq = o.find('=');
        p.engine->send("setoption name " + o.substr(0, eq)
            + (eq == std::string::npos ? "" : " value " + o.substr(eq + 1)));
    }
    p.engine->send("isready");
    if (!p.engine->wait_for("readyok", std::chrono::seconds(20)))
        throw std::runtime_error("'" + command + "' did not answer isready");
    return p;
}

// One game from `fen`; players[c] plays colour c.
Game play(const std::string& fen, Player* players[COLOR_NB], int movetime, int max_plies,
    const CountRules& rules) {
    Game g;
    const std::unique_ptr<Referee> board = Referee::of(fen, rules);
    std::string moves;
    int number = board->fullmove();
    for (Player* p : { players[WHITE], players[BLACK] }) p->engine->send("ucinewgame");
    for (;;) {
        const Color stm = board->side_to_move();
        std::optional<GameEnd> end = board->ended();
        if (!end && g.plies >= max_plies) end = GameEnd { "1/2-1/2", "move limit" };
        if (end) {
            g.result = end->result;
            g.termination = end->termination;
            return g;
        }
        Player& p = *players[stm];
        p.engine->send("position fen " + fen + (moves.empty() ? "" : " moves" + moves));
        p.engine->send("go movetime " + std::to_string(movetime));
        const std::optional<std::string> answer
            = p.engine->wait_for("bestmove", std::chrono::milliseconds(10 * movetime + 10000));
        const std::vector<std::string> words
            = answer ? split(*answer) : std::vector<std::string> {};
        const std::optional<std::string> text
            = words.size() > 1 ? board->play(words[1]) : std::nullopt;
        if (!text) {
            g.result = stm == WHITE ? "0-1" : "1-0";
            g.termination
                = p.name + (answer ? " played an illegal move: " + *answer : " did not answer");
            return g;
        }
        if (stm == WHITE || g.plies == 0)
            g.movetext += std::to_string(number) + (stm == WHITE ? ". " : "... ");
        g.movetext += *text + " ";
        if (stm == BLACK) ++number;
        moves += " " + words[1];
        ++g.plies;
    }
}

int match_command(const Args& args) {
    const std::string first = args.text("--first"), second = args.text("--second");
    const std::string positions = args.text("--positions"), pgn = args.text("--pgn");
    const int movetime = int(args.number("--movetime", 100));
    const int maxPlies = int(args.number("--max-plies", 600));
    const CountRules& rules = args.rules();
    if (first.empty() || second.empty() || positions.empty())
        return usage_error(args, "give --first, --second and --positions");
    // The start positions: a FEN per line, '#' lines and blank lines skipped, ';' a comment.
    std::ifstream in(positions);
    if (!in) {
        std::fprintf(stderr, "mktb match: cannot read %s\n", positions.c_str());
        return kExitBadInput;
    }
    std::vector<std::pair<std::string, std::string>> starts; // FEN, comment
    std::string variant; // the game of the first position, and of every one
    std::string line;
    for (int n = 1; std::getline(in, line); ++n) {
        const std::size_t semi = line.find(';');
        std::string fen = line.substr(0, semi),
                    comment = semi == std::string::npos ? "" : line.substr(semi + 1);
        while (!fen.empty() && std::isspace(static_cast<unsigned char>(fen.back()))) fen.pop_back();
        if (fen.empty() || fen[0] == '#') continue;
        try {
            const std::string game = Referee::of(fen, rules)->variant();
            if (variant.empty()) variant = game;
            if (game != variant) {
                std::fprintf(stderr,
                    "mktb match: %s line %d: a %s position among %s ones: one game per match\n",
                    positions.c_str(), n, game.c_str(), variant.c_str());
                return kExitBadInput;
            }
        } catch (const FenError& e) {
            std::fprintf(
                stderr, "mktb match: %s line %d: bad FEN: %s\n", positions.c_str(), n, e.what());
            return kExitBadInput;
        }
        while (!comment.empty() && comment.front() == ' ') comment.erase(0, 1);
        starts.push_back({ fen, comment });
    }
    if (starts.empty()) {
        std::fprintf(stderr, "mktb match: %s holds no position\n", positions.c_str());
        return kExitBadInput;
    }
    std::ofstream out;
    if (!pgn.empty()) {
        out.open(pgn);
        if (!out) {
            std::fprintf(stderr, "mktb match: cannot write %s\n", pgn.c_str());
            return kExitBadInput;
        }
    }
    // One pair of engines per job, each job taking the next game until none is left; the
    // games are printed as they end and written to the PGN in order.
    const int jobs = int(args.number("--jobs", 1));
    std::vector<std::array<Player, 2>> pairs(static_cast<std::size_t>(jobs));
    try {
        for (auto& [a, b] : pairs) {
            a = start(first, args.texts("--first-option"), variant);
            b = start(second, args.texts("--second-option"), variant);
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "mktb match: %s\n", e.what());
        return kExitFailure;
    }
    int wins = 0, draws = 0, losses = 0;
    const bool both = args.flag("--both-colours");
    const std::size_t games = starts.size() * (both ? 2 : 1);
    std::vector<std::string> records(games); // PGN, per game
    std::atomic<std::size_t> next { 0 };
    std::mutex lock; // the counts, stdout
    auto job = [&](std::array<Player, 2>& pair) {
        for (std::size_t i; (i = next++) < games;) {
            const auto& [fen, comment] = starts[both ? i / 2 : i];
            // The first engine's colour: the side to move, or (every other game) the other.
            const Color stm = Referee::of(fen, rules)->side_to_move();
            const Color mine = both && i % 2 ? ~stm : stm;
            Player* players[COLOR_NB];
            players[mine] = &pair[0];
            players[~mine] = &pair[1];
            const Game g = play(fen, players, movetime, maxPlies, rules);
            const bool draw = g.result == "1/2-1/2";
            const bool firstWon = !draw && (g.result == "1-0") == (mine == WHITE);
            std::ostringstream pgnText;
            pgnText << "[Event \"mktb match\"]\n[Site \"?\"]\n[Round \"" << i + 1
                    << "\"]\n[White \"" << players[WHITE]->name << "\"]\n[Black \""
                    << players[BLACK]->name << "\"]\n[Result \"" << g.result << "\"]\n[Variant \""
                    << variant << "\"]\n[SetUp \"1\"]\n[FEN \"" << fen << "\"]\n[TimeControl \""
                    << movetime / 1000.0 << "\"]\n[Termination \"" << g.termination << "\"]\n\n";
            if (!comment.empty()) pgnText << "{" << comment << "} ";
            pgnText << g.movetext << g.result << "\n\n";
            records[i] = pgnText.str();
            const std::lock_guard<std::mutex> hold(lock);
            (draw ? draws : firstWon ? wins : losses)++;
            std::printf("game %zu: %s: %s %s (%s, %d plies)%s%s\n", i + 1, fen.c_str(),
                draw           ? "draw"
                    : firstWon ? "first engine wins"
                               : "first engine loses",
                g.result.c_str(), g.termination.c_str(), g.plies, comment.empty() ? "" : "; ",
                comment.c_str());
            std::fflush(stdout);
        }
    };
    {
        std::vector<std::jthread> threads;
        for (std::size_t j = 1; j < pairs.size(); ++j)
            threads.emplace_back(job, std::ref(pairs[j]));
        job(pairs[0]);
    }
    if (out)
        for (const std::string& r : records) out << r;
    const Player& a = pairs[0][0];
    const Player& b = pairs[0][1];
    std::printf("first engine (%s) against %s: %d wins, %d draws, %d losses in %d games; %s\n",
        a.name.c_str(), b.name.c_str(), wins, draws, losses, wins + draws + losses,
        elo_text(wins, draws, losses).c_str());
    if (out && !out.flush()) {
        std::fprintf(stderr, "mktb match: cannot write %s\n", pgn.c_str());
        return kExitFailure;
    }
    return kExitOk;
}

} // namespace

const Command kMatchCommand {
    .name = "match",
    .usage = "--first \"CMD\" --second \"CMD\" --positions FILE [--movetime MS]\n"
             "  [--pgn FILE] [--max-plies N] [--both-colours] [--jobs N]\n"
             "  [--first-option NAME=VALUE]... [--second-option NAME=VALUE]... [RULES]",
    .summary = "games between two UCI engines from the\n"
               "positions (the first plays the side to move),\n"
               "adjudicated by the rules, written as PGN",
    .options = { { "--first", "\"CMD [ARGS]\"", "the engine that plays the side to move" },
        { "--second", "\"CMD [ARGS]\"", "its opponent" },
        { "--positions", "FILE", "start positions, a FEN per line ('#' and ';' comments)" },
        { "--movetime", "MS", "milliseconds per move (default 100)", Option::Kind::Number, 1,
            600000 },
        { "--pgn", "FILE", "where the games are written" },
        { "--max-plies", "N", "plies before a game is adjudicated (default 600)",
            Option::Kind::Number, 1, 100000 },
        { "--both-colours", "", "each position twice, the first engine on each side",
            Option::Kind::Flag },
        { "--jobs", "N", "games played at once, a pair of engines each (default 1)",
            Option::Kind::Number, 1, 256 },
        { "--first-option", "NAME=VALUE", "a UCI option of the first engine (repeatable)",
            Option::Kind::Text, 0, 0, true },
        { "--second-option", "NAME=VALUE", "a UCI option of its opponent (repeatable)",
            Option::Kind::Text, 0, 0, true } },
    .run = match_command,
    .rules = true,
};

} // namespace mktb::cli

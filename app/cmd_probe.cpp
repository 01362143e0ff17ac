// cmd_probe.cpp - `mktb probe "<FEN>"` and `mktb probe --epd FILE`: the pure game value of a
// position (distance to mate, no count), the answer under the count, and every legal move with
// both values, best first. It reads tables only through the public probing API (mktb/probe.hpp).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "answer.hpp"
#include "cli.hpp"
#include "mktb/counting.hpp"
#include "mktb/movegen.hpp"
#include "mktb/probe.hpp"
#include "notation.hpp"
#include "words.hpp"
#include "xiangqi_answer.hpp"
#include "xiangqi_commands.hpp"

namespace mktb::cli {

namespace {

// "White mates in 23", "Black is checkmated", "draw".
std::string sentence(Color stm, Value v) {
    if (v.is_draw()) return "draw";
    if (v.plies == 0) return std::string(kColorName[stm]) + " is checkmated";
    const int n = v.mate_in_moves();
    return n > 0 ? std::string(kColorName[stm]) + " mates in " + std::to_string(n)
                 : std::string(kColorName[~stm]) + " mates in " + std::to_string(-n);
}

// An error of the command: plain text on stderr, or with --json one JSON object there
// ({"error": ...}), so that a program reading JSON reads its errors too. Returns `code`.
int fail(bool json, int code, const std::string& message) {
    if (json)
        std::fprintf(stderr, "%s\n", dump(Json { { "error", message }, { "exit", code } }).c_str());
    else
        std::fprintf(stderr, "mktb probe: %s\n", printable(message).c_str());
    return code;
}

// The line, one move per row, with the count the losing side announces after each of its moves.
void print_line(Position pos, CountState count, const CountRules& rules,
    const std::vector<Move>& pv, CountedValue::Result result) {
    if (result == CountedValue::Result::Draw || pv.empty()) {
        std::printf("line: none (no win within the count)\n");
        return;
    }
    const Color loser
        = result == CountedValue::Result::Win ? ~pos.side_to_move() : pos.side_to_move();
    std::printf("line (the losing side announces its count):\n");
    // Numbered as a game score from the FEN's move number: "1. Rd1", "1... Kc5".
    const int first = pos.fullmove(), blackFirst = pos.side_to_move() == BLACK;
    for (std::size_t i = 0; i < pv.size(); ++i) {
        const Color mover = pos.side_to_move();
        const std::string move = san(pos, pv[i]);
        Position next = pos;
        next.do_move(pv[i]);
        count = count_after_move(pos, next, count, rules);
        pos = next;
        std::printf("  %3d%s%-7s", first + int(i + blackFirst) / 2, mover == WHITE ? ". " : "... ",
            move.c_str());
        if (mover == loser && count.limit)
            std::printf(" counts %d (of %d)", (count.ply + 1) / 2, count.limit / 2);
        std::printf("\n");
    }
    std::printf("  %s\n", is_checkmate(pos) ? "checkmate" : "(line cut short)");
}

// Prints the answers for one position (a person's text, or one JSON object); an exit code.
int answer(const Prober& prober, const Position& pos, CountState count, bool json, bool line) {
    const CountPhase phase = count_phase(pos);
    const CountRules& rules = prober.options().rules;
    const std::string& dir = prober.dir();
    try {
        const std::optional<Value> value = prober.dtm(pos);
        const std::optional<std::vector<RankedMove>> moves = prober.rank_root(pos, count);
        if (!value || !moves) {
            const Material material = Material::of(pos).canonical();
            const std::string m = material.name(), why = material.beyond_tables();
            return fail(json, kExitNoTable,
                "no table for " + m + " or an ending it converts into in " + dir
                    + (why.empty() ? " (generate them: mktb gen " + m + ")"
                                   : " (and none can be made: " + why + ")"));
        }
        if (json) {
            std::printf("%s\n", dump(*answer_json(prober, pos, count, line)).c_str());
            return kExitOk;
        }
        const CountedValue here = *prober.counted(pos, count); // every phase has one
        const Color stm = pos.side_to_move();
        const std::vector<Move> pv = line ? prober.line(pos, count) : std::vector<Move> {};
        std::printf("%s\n%s to move: %s\n", pos.fen().c_str(), kColorName[stm],
            sentence(stm, *value).c_str());
        if (phase == CountPhase::NoCount) {
            std::printf("count: none while a Bia is on the board; under the count its conversion "
                        "starts:\n");
            if (here.result == CountedValue::Result::Draw)
                std::printf("draw under the count\n");
            else
                std::printf("%s, %d moves to mate or to a winning conversion\n",
                    here.result == CountedValue::Result::Win ? "won" : "lost", here.moves_needed);
        } else if (phase == CountPhase::BoardHonour && rules.has(RuleOption::BoardHonourOff)) {
            std::printf("count: none while both sides have men (board_honour = off); baring the "
                        "defender starts pieces' honour:\n%s\n",
                here.result == CountedValue::Result::Draw      ? "draw under the count"
                    : here.result == CountedValue::Result::Win ? "won under the count"
                                                               : "lost under the count");
        } else if (phase != CountPhase::BareKings) {
            const int left = std::max(here.moves_available, 0);
            if (phase == CountPhase::PiecesHonour)
                std::printf("count: pieces' honour, limit %d, %d attacker move%s left\n",
                    count.limit / 2, left, left == 1 ? "" : "s");
            else
                std::printf("count: board's honour, %d of %d moves counted, %d moves left to the "
                            "side that would win\n",
                    (count.ply + 1) / 2, count.limit / 2, left);
            if (here.result != CountedValue::Result::Draw)
                std::printf("%s\n", verdict(prober, pos, *value, here, count).c_str());
            else if (here.moves_needed > 0)
                std::printf(
                    "but only %d moves remain in the count (%d needed): draw under the count\n",
                    left, here.moves_needed);
            else if (value->is_win() && rules.has(RuleOption::CounterMateDraws)
                && Material::of(pos).weaker_side() == stm)
                std::printf("a mate by the counting side only draws (counter_mate = draw): draw "
                            "under the count\n");
            else if (!value->is_draw())
                std::printf(
                    "no mate or winning capture can be forced in time: draw under the count\n");
        }
        if (!moves->empty())
            std::printf("moves (SAN, UCI; best first, * keeps the best result):\n");
        for (const RankedMove& m : *moves) {
            const RankedMove& top = moves->front();
            const bool best = m.pure == top.pure && m.counted.result == top.counted.result;
            // The counted result with its distance (RankedMove's view: the winner's moves to
            // mate or to a winning conversion, of those the count leaves it, this move included
            // when the mover wins).
            std::printf("  %c %-7s %-6s %-22s counted: %s\n", best ? '*' : ' ',
                san(pos, m.move).c_str(), move_to_uci(m.move).c_str(),
                sentence(stm, m.pure).c_str(),
                move_counted(prober, pos, m.move, m.counted, count).text.c_str());
        }
        if (line) print_line(pos, count, rules, pv, here.result);
        return kExitOk;
    } catch (const TableError& e) {
        return fail(json, kExitFailure, e.what());
    }
}

// A line of an EPD or FEN file as a FEN: "BOARD SIDE - - bm Ke2; ...; c2 \"L P\";" (EPD, as
// mktb teach writes it: the count in c2) becomes "BOARD SIDE - L P" (Xiangqi's, which has no
// count: "BOARD SIDE - -"); a FEN line is kept,
// less a ';' comment. Throws FenError for a c2 that is not two numbers.
std::string fen_of_line(std::string text) {
    std::istringstream fields(text);
    std::string field;
    for (int n = 0; n < 5 && fields >> field; ++n)
        if (n == 4 && std::isalpha(static_cast<unsigned char>(field[0]))) {
            // EPD: four fields, then operations "opcode operands;".
            std::istringstream in(text);
            std::string board, side, castling, passant;
            in >> board >> side >> castling >> passant;
            if (xq::Position::is_xiangqi_fen(board)) // no count: the EPD's four fields
                return board + " " + side + " " + castling + " " + passant;
            // Makruk FENs have no en passant field: their fields 4-5 are the count.
            std::string fen = board, count;
            fen.append(" ").append(side).append(" ").append(castling);
            const std::size_t c2 = text.find(" c2 \"");
            if (c2 != std::string::npos) {
                count = text.substr(c2 + 5, text.find('"', c2 + 5) - c2 - 5);
                std::istringstream numbers(count);
                int limit = -1, ply = -1;
                if (!(numbers >> limit >> ply) || !(numbers >> std::ws).eof())
                    throw FenError("c2 is \"" + count + "\", expected \"LIMIT PLY\" (the count)");
                if (limit)
                    fen.append(" ")
                        .append(std::to_string(limit))
                        .append(" ")
                        .append(std::to_string(ply));
            }
            return fen;
        }
    return text.substr(0, text.find(';'));
}

// One answer per line of `path` (a FEN or an EPD record per line; blank lines and lines
// starting with '#' are skipped): the pure value, the counted answer under the line's count (or
// the fresh one) and the best move, as text or as one JSON object per line. A line that cannot
// be answered (not UTF-8, longer than kLongestLine, not a position, no table) gets its own
// error and the rest go on; the exit code is the worst of them. A NUL byte ends the reading:
// the file is not text.
int answer_file(const Prober& prober, const std::string& path, bool json) {
    static constexpr std::size_t kLongestLine = 4096;
    std::ifstream in(path);
    if (!in) return fail(json, kExitBadInput, "cannot read " + path);
    int worst = kExitOk;
    for (int number = 1;; ++number) {
        // getline with a bound: a longer line is read on only to its end, never stored.
        std::string text;
        bool tooLong = false, binary = false;
        int c;
        while ((c = in.get()) != EOF && c != '\n') {
            binary |= c == '\0';
            if (text.size() < kLongestLine)
                text.push_back(char(c));
            else
                tooLong = true;
            if (binary) break;
        }
        if (c == EOF && text.empty() && !tooLong) break;
        auto failed = [&](int code, const std::string& why) {
            worst = std::max(worst, code);
            if (json)
                std::printf("%s\n",
                    dump(Json { { "line", number }, { "fen", text }, { "error", why } }).c_str());
            else if (text.empty())
                std::printf("%d: error: %s\n", number, printable(why).c_str());
            else
                std::printf(
                    "%d: %s: error: %s\n", number, printable(text).c_str(), printable(why).c_str());
        };
        if (binary) {
            text.clear();
            failed(kExitBadInput, "a NUL byte: " + path + " is not a text file; reading stopped");
            break;
        }
        if (tooLong) {
            text.clear();
            failed(kExitBadInput, "longer than " + std::to_string(kLongestLine) + " bytes");
            continue;
        }
        if (!valid_utf8(text)) {
            text.clear();
            failed(kExitBadInput, "not valid UTF-8");
            continue;
        }
        while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
            text.pop_back();
        if (text.find_first_not_of(" \t\r") == std::string::npos || text[0] == '#') continue;
        try {
            if (xq::Position::is_xiangqi_fen(text)) {
                const xq::Position pos = xq::Position::from_fen(fen_of_line(text));
                const std::optional<XAnswer> a = xiangqi_answer(prober, pos);
                if (!a) {
                    failed(kExitNoTable,
                        "no Xiangqi table for " + xq::Material::of(pos).canonical().name());
                    continue;
                }
                const std::string move
                    = a->moves.empty() ? "none" : xq::move_to_uci(a->moves.front().move);
                if (json) {
                    Json j { { "line", number } };
                    j.update(xiangqi_json(prober, pos, *a, false));
                    j.erase("moves");
                    j["best"] = move;
                    std::printf("%s\n", dump(j).c_str());
                } else
                    std::printf("%d: %s: %s%s (Xiangqi); best %s\n", number, pos.fen().c_str(),
                        describe(a->value).c_str(),
                        a->by_rule() ? (a->result > 0 ? ", won under the perpetual-check rule"
                                                      : ", lost under the perpetual-check rule")
                                     : "",
                        move.c_str());
                std::fflush(stdout);
                continue;
            }
            const Position pos = Position::from_fen(fen_of_line(text));
            const std::optional<Value> pure = prober.dtm(pos);
            const std::optional<CountedValue> counted = prober.counted(pos);
            const std::optional<std::vector<Move>> best = prober.best_moves(pos, View::Counted);
            if (!pure || !counted || !best) {
                failed(kExitNoTable, "no table for " + Material::of(pos).canonical().name());
                continue;
            }
            const std::string move = best->empty() ? "none" : move_to_uci(best->front());
            if (json) {
                // The API's answer (docs/api.md) without the move list, with the line number
                // and the best move under the count.
                Json j { { "line", number } };
                j.update(*answer_json(prober, pos, prober.count_of(pos), false));
                j.erase("moves");
                j["best"] = move;
                std::printf("%s\n", dump(j).c_str());
            } else
                std::printf("%d: %s: %s%s; best %s\n", number, pos.fen().c_str(),
                    pure->is_draw() ? "" : (sentence(pos.side_to_move(), *pure) + "; ").c_str(),
                    verdict(prober, pos, *pure, *counted, prober.count_of(pos)).c_str(),
                    move.c_str());
        } catch (const FenError& e) {
            failed(kExitBadInput, std::string("bad FEN: ") + e.what());
        } catch (const TableError& e) {
            failed(kExitFailure, e.what());
        }
        std::fflush(stdout); // each answer as soon as it is known
    }
    return worst;
}

// One directory, read under the counting options asked: not through open_tables() (serve, uci),
// which picks a directory by the options its tables were built with, since a pieces' honour
// table (distance to mate alone) answers under any options, and a board's honour or Bia-phase
// table built with others refuses by name, table by table.
int probe_command(const Args& a) {
    const bool json = a.flag("--json"), line = a.flag("--line");
    const std::string epd = a.text("--epd"), dir = a.tables(), countText = a.text("--count");
    static const std::string kNoFen;
    const std::string& fen = a.operands().empty() ? kNoFen : a.operands()[0];
    const CountRules& rules = a.rules();
    xq::RuleSet xiangqiRules = xq::kDefaultRuleSet;
    if (const std::string e = read_rule_set(a, &xiangqiRules); !e.empty())
        return fail(json, kExitBadInput, e);
    if (fen.empty() == epd.empty()) {
        if (json) return fail(json, kExitBadInput, "give one FEN or --epd FILE");
        return usage_error(a, "give one FEN or --epd FILE");
    }
    if (std::error_code ec; !std::filesystem::is_directory(dir, ec))
        return fail(json, kExitFailure,
            "the tables directory " + dir
                + " does not exist (give --tables DIR, or make tables "
                  "there: mktb gen --men 4 --tables "
                + dir + ")");
    if (!epd.empty()) {
        if (!countText.empty() || line)
            return fail(json, kExitBadInput, "--count and --line answer one FEN, not --epd");
        return answer_file(
            Prober(dir, { .rules = rules, .xiangqi_rules = xiangqiRules }), epd, json);
    }
    if (xq::Position::is_xiangqi_fen(fen)) { // ten ranks: a Xiangqi position
        if (!countText.empty())
            return fail(json, kExitBadInput, "--count is Makruk's: Xiangqi has no count");
        return xiangqi_probe(dir, xiangqiRules, fen, json, line, fail);
    }
    if (a.has("--rules"))
        return fail(json, kExitBadInput,
            "--rules names Xiangqi's repetition rules; a Makruk position's counting options "
            "are RULES");
    Position pos;
    try {
        pos = Position::from_fen(fen);
    } catch (const FenError& e) {
        return fail(json, kExitBadInput, std::string("bad FEN: ") + e.what());
    }
    // The count: from --count, else from FEN fields 4-5, else the one the position starts now.
    CountState count;
    if (const std::string error = count_to_follow(countText, pos, rules, count); !error.empty())
        return fail(json, kExitBadInput, "--count: " + error);
    const Prober prober(dir, { .rules = rules });
    return answer(prober, pos, count, json, line);
}

} // namespace

const Command kProbeCommand {
    .name = "probe",
    .usage = "\"<FEN>\" [--json] [--line] [--count pieces:C|board:C] [--tables DIR] [RULES]\n"
             "\"<Xiangqi FEN>\" [--json] [--line] [--rules NAME] [--tables DIR]\n"
             "--epd FILE [--json] [--tables DIR] [RULES] [--rules NAME]",
    .summary = "distance to mate of a position, the answer\n"
               "under the count (FEN fields 4-5, --count, or\n"
               "a fresh count), every move with its values;\n"
               "with --epd, one answer per line of FILE: FENs,\n"
               "or EPD as mktb teach writes it (the count in\n"
               "c2); a bad line gets its own error, the rest\n"
               "go on",
    .options = { { "--json", "", "the answer (and any error) as JSON", Option::Kind::Flag },
        { "--line", "", "the winning line, move by move, with the count", Option::Kind::Flag },
        { "--count", "pieces:C|board:C", "the count the game runs (else FEN fields 4-5)" },
        { "--epd", "FILE", "answer every line of FILE" }, kTablesOption, kXiangqiRulesOption },
    .run = probe_command,
    .rules = true,
    .operands = 1,
    .operand = "quote the FEN",
    .jsonErrors = true,
};

} // namespace mktb::cli

// cmd_probe.cpp - `mktb probe "<FEN>"` and `mktb probe --epd FILE`: the pure game value of a
// position (distance to mate, no count), the answer under the count, and every legal move with
// both values, best first. It reads tables only through the public probing API (mktb/probe.hpp).
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "answer.hpp"
#include "cli.hpp"
#include "mktb/counting.hpp"
#include "mktb/movegen.hpp"
#include "mktb/probe.hpp"

namespace mktb::cli {

namespace {

const char* kColorName[] = { "White", "Black" };

// "White mates in 23", "Black is checkmated", "draw".
std::string sentence(Color stm, Value v) {
    if (v.is_draw()) return "draw";
    if (v.plies == 0) return std::string(kColorName[stm]) + " is checkmated";
    const int n = v.mate_in_moves();
    return n > 0 ? std::string(kColorName[stm]) + " mates in " + std::to_string(n)
                 : std::string(kColorName[~stm]) + " mates in " + std::to_string(-n);
}

const char* result_name(CountedValue::Result r) {
    return r == CountedValue::Result::Win ? "win"
        : r == CountedValue::Result::Loss ? "loss"
                                          : "draw";
}

// "12 of 13 moves", "12 moves, no count yet", "no forced mate".
std::string moves_text(const CountedValue& c) {
    if (c.moves_needed < 0) return "no forced mate";
    if (c.moves_available < 0) return std::to_string(c.moves_needed) + " moves, no count yet";
    return std::to_string(c.moves_needed) + " of " + std::to_string(c.moves_available) + " moves";
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
    for (std::size_t i = 0; i < pv.size(); ++i) {
        const Color mover = pos.side_to_move();
        Position next = pos;
        next.do_move(pv[i]);
        count = count_after_move(pos, next, count, rules);
        pos = next;
        std::printf("  %3zu. %-6s", i / 2 + 1, move_to_uci(pv[i]).c_str());
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
    const std::string& dir = prober.tables().dir();
    try {
        const std::optional<Value> value = prober.dtm(pos);
        const std::optional<std::vector<RankedMove>> moves = prober.rank_root(pos, count);
        if (!value || !moves) {
            const Material m = Material::of(pos).canonical();
            std::fprintf(stderr,
                "mktb probe: no table for %s or an ending it converts into in %s (generate "
                "them: mktb gen %s)\n",
                m.name().c_str(), dir.c_str(), m.name().c_str());
            return kExitNoTable;
        }
        if (json) {
            std::printf("%s\n", answer_json(prober, pos, count, line)->dump().c_str());
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
                std::printf(
                    "count: board's honour, %d plies of %d played, %d moves left to the side that "
                    "would win\n",
                    count.ply, count.limit, left);
            if (here.result == CountedValue::Result::Win)
                std::printf(
                    "won within the count: %d of %d moves needed\n", here.moves_needed, left);
            else if (here.result == CountedValue::Result::Loss)
                std::printf("lost within the count: the opponent needs %d of %d moves\n",
                    here.moves_needed, left);
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
        if (!moves->empty()) std::printf("moves (best first, * keeps the best result):\n");
        for (const RankedMove& m : *moves) {
            const RankedMove& top = moves->front();
            const bool best = m.pure == top.pure && m.counted.result == top.counted.result;
            std::printf("  %c %-6s %-22s counted: %s\n", best ? '*' : ' ',
                move_to_uci(m.move).c_str(), sentence(stm, m.pure).c_str(),
                result_name(m.counted.result));
        }
        if (line) print_line(pos, count, rules, pv, here.result);
        return kExitOk;
    } catch (const TableError& e) {
        std::fprintf(stderr, "mktb probe: %s\n", e.what());
        return kExitFailure;
    }
}

// One line per position of `path` (a FEN per line; blank lines and lines starting with '#'
// are skipped, and ';' starts a comment): the pure value, the counted answer under the FEN's
// count (or the fresh one) and the best move, as text or as one JSON object per line. Every
// line is answered; the exit code is the worst of them.
int answer_file(const Prober& prober, const std::string& path, bool json) {
    std::ifstream in(path);
    if (!in) {
        std::fprintf(stderr, "mktb probe: cannot read %s\n", path.c_str());
        return kExitBadInput;
    }
    int worst = kExitOk;
    std::string text;
    for (int number = 1; std::getline(in, text); ++number) {
        text = text.substr(0, text.find(';'));
        while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
            text.pop_back();
        if (text.find_first_not_of(" \t\r") == std::string::npos || text[0] == '#') continue;
        auto failed = [&](int code, const std::string& why) {
            worst = std::max(worst, code);
            if (json)
                std::printf("%s\n",
                    Json({ { "line", number }, { "fen", text }, { "error", why } }).dump().c_str());
            else
                std::printf("%d: %s: error: %s\n", number, text.c_str(), why.c_str());
        };
        try {
            const Position pos = Position::from_fen(text);
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
                std::printf("%s\n", j.dump().c_str());
            } else
                std::printf("%d: %s: %s; counted %s (%s); best %s\n", number, pos.fen().c_str(),
                    sentence(pos.side_to_move(), *pure).c_str(), result_name(counted->result),
                    moves_text(*counted).c_str(), move.c_str());
        } catch (const FenError& e) {
            failed(kExitBadInput, std::string("bad FEN: ") + e.what());
        } catch (const TableError& e) {
            failed(kExitFailure, e.what());
        }
    }
    return worst;
}

} // namespace

int probe_command(std::span<const std::string_view> args) {
    std::string fen, dir, epd;
    std::string_view countText;
    bool json = false, line = false;
    CountRules rules;
    dir = default_tables_dir();
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--json") {
            json = true;
        } else if (args[i] == "--line") {
            line = true;
        } else if (args[i] == "--tables" && i + 1 < args.size()) {
            dir = std::string(args[++i]);
        } else if (args[i] == "--count" && i + 1 < args.size()) {
            countText = args[++i];
        } else if (args[i] == "--epd" && i + 1 < args.size()) {
            epd = std::string(args[++i]);
        } else if (is_rule_option(args[i])) {
            try {
                apply_rule_option(args[i], i + 1 < args.size() ? args[i + 1] : "", rules);
                ++i;
            } catch (const std::invalid_argument& e) {
                std::fprintf(stderr, "mktb probe: %s\n", e.what());
                return kExitBadInput;
            }
        } else if (args[i].starts_with("--")) {
            std::fprintf(stderr, "mktb probe: unknown option '%s'\n", std::string(args[i]).c_str());
            return kExitBadInput;
        } else if (fen.empty()) {
            fen = std::string(args[i]);
        } else {
            std::fprintf(stderr, "mktb probe: unexpected argument '%s' (quote the FEN)\n",
                std::string(args[i]).c_str());
            return kExitBadInput;
        }
    }
    if (fen.empty() == epd.empty()) {
        std::fprintf(stderr,
            "usage: mktb probe \"<FEN>\" [--json] [--line] [--count pieces:C|board:C] [--tables "
            "DIR]\n       mktb probe --epd FILE [--json] [--tables DIR]\n       %s\n",
            rule_options_usage().c_str());
        return kExitBadInput;
    }
    if (!epd.empty()) {
        if (!countText.empty() || line) {
            std::fputs("mktb probe: --count and --line answer one FEN, not --epd\n", stderr);
            return kExitBadInput;
        }
        return answer_file(Prober(dir, { Tablebase::kDefaultCacheBytes, rules }), epd, json);
    }
    Position pos;
    try {
        pos = Position::from_fen(fen);
    } catch (const FenError& e) {
        std::fprintf(stderr, "mktb probe: bad FEN: %s\n", e.what());
        return kExitBadInput;
    }
    // The count: from --count, else from FEN fields 4-5, else the one the position starts now.
    CountState count;
    if (const std::string error = count_to_follow(countText, pos, rules, count); !error.empty()) {
        std::fprintf(stderr, "mktb probe: --count: %s\n", error.c_str());
        return kExitBadInput;
    }
    const Prober prober(dir, { Tablebase::kDefaultCacheBytes, rules });
    return answer(prober, pos, count, json, line);
}

} // namespace mktb::cli

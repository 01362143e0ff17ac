// cmd_probe.cpp - `mktb probe "<FEN>"`: the pure game value of a position (distance to mate, no
// count) and every legal move with its value, best first. Counting-rule answers come with the
// counting tables (see the README's status).
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"
#include "mktb/movegen.hpp"
#include "mktb/tablefile.hpp"

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

std::string json_value(Value v) {
    const char* result = v.is_win() ? "win" : v.is_loss() ? "loss" : "draw";
    return std::string("{\"result\": \"") + result
        + "\", \"mate_in\": " + (v.is_draw() ? "null" : std::to_string(v.mate_in_moves())) + "}";
}

} // namespace

int probe_command(std::span<const std::string_view> args) {
    std::string fen, dir;
    bool json = false;
    if (const char* env = std::getenv("MKTB_TABLES"); env && *env)
        dir = env;
    else
        dir = "tables";
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (args[i] == "--json") {
            json = true;
        } else if (args[i] == "--tables" && i + 1 < args.size()) {
            dir = std::string(args[++i]);
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
    if (fen.empty()) {
        std::fputs("usage: mktb probe \"<FEN>\" [--json] [--tables DIR]\n", stderr);
        return kExitBadInput;
    }
    Position pos;
    try {
        pos = Position::from_fen(fen);
    } catch (const FenError& e) {
        std::fprintf(stderr, "mktb probe: bad FEN: %s\n", e.what());
        return kExitBadInput;
    }
    const Tablebase tables(dir);
    try {
        const std::optional<Value> value = tables.probe(pos);
        if (!value) {
            const Material m = Material::of(pos);
            std::fprintf(stderr, "mktb probe: no table for %s in %s (generate it: mktb gen %s)\n",
                m.canonical().name().c_str(), dir.c_str(), m.canonical().name().c_str());
            return kExitNoTable;
        }
        struct Scored {
            Move move;
            Value value; // for the side that moves
        };
        std::vector<Scored> moves;
        for (Move m : legal_moves(pos)) {
            Position next = pos;
            next.do_move(m);
            const std::optional<Value> v = tables.probe(next);
            if (!v) {
                const Material mm = Material::of(next).canonical();
                std::fprintf(stderr, "mktb probe: no table for %s (after %s) in %s\n",
                    mm.name().c_str(), move_to_uci(m).c_str(), dir.c_str());
                return kExitNoTable;
            }
            moves.push_back({ m, v->parent() });
        }
        std::stable_sort(moves.begin(), moves.end(),
            [](const Scored& a, const Scored& b) { return better(a.value, b.value); });
        const Color stm = pos.side_to_move();
        if (json) {
            std::printf("{\"fen\": \"%s\", \"pure\": %s, \"moves\": [", pos.fen().c_str(),
                json_value(*value).c_str());
            for (std::size_t i = 0; i < moves.size(); ++i)
                std::printf("%s{\"uci\": \"%s\", \"pure\": %s}", i ? ", " : "",
                    move_to_uci(moves[i].move).c_str(), json_value(moves[i].value).c_str());
            std::printf("]}\n");
            return kExitOk;
        }
        std::printf("%s\n%s to move: %s\n", pos.fen().c_str(), kColorName[stm],
            sentence(stm, *value).c_str());
        if (!moves.empty()) std::printf("moves (best first, * keeps the result):\n");
        for (const Scored& s : moves)
            std::printf("  %c %-6s %s\n", s.value == moves[0].value ? '*' : ' ',
                move_to_uci(s.move).c_str(), sentence(stm, s.value).c_str());
        return kExitOk;
    } catch (const TableError& e) {
        std::fprintf(stderr, "mktb probe: %s\n", e.what());
        return kExitFailure;
    }
}

} // namespace mktb::cli

// test_oracle_perft.cpp - our perft against Debian's fairy-stockfish on the same random legal
// positions (playouts from the start, and 3-6 men placements with Bia next to promotion, Khons of
// both colours, checks, mates and stalemates). On a mismatch the FEN and the divide difference are
// printed. The engine is required: scripts/setup installs it.
#include <catch2/catch.hpp>

#include <sstream>

#include "mktb/movegen.hpp"
#include "support/engine.hpp"
#include "support/random_positions.hpp"

using namespace mktb;

namespace {

std::string divide_difference(Position pos, int depth, const test::Engine::Perft& theirs) {
    std::ostringstream os;
    std::map<std::string, std::uint64_t> ours;
    for (Move m : legal_moves(pos)) {
        const auto u = pos.do_move(m);
        ours[move_to_uci(m)] = perft(pos, depth - 1);
        pos.undo_move(m, u);
    }
    for (const auto& [move, n] : ours)
        if (!theirs.divide.contains(move) || theirs.divide.at(move) != n)
            os << "  " << move << ": ours " << n << ", fairy-stockfish "
               << (theirs.divide.contains(move) ? std::to_string(theirs.divide.at(move)) : "absent")
               << "\n";
    for (const auto& [move, n] : theirs.divide)
        if (!ours.contains(move))
            os << "  " << move << ": ours absent, fairy-stockfish " << n << "\n";
    return os.str();
}

} // namespace

TEST_CASE("Perft matches fairy-stockfish on at least 300 random positions", "[oracle][rules]") {
    test::Engine engine(test::engine_path());
    test::Rng rng(1234);
    struct Case {
        Position pos;
        int depth;
    };
    std::vector<Case> cases;
    for (int i = 0; i < 120; ++i) cases.push_back({ test::random_playout(rng, 2 + i % 70), 3 });
    for (int i = 0; i < 160; ++i) cases.push_back({ test::random_placement(rng, 3 + i % 4), 4 });
    // Positions of each special kind, found by sampling placements.
    int checks = 0, mates = 0, stalemates = 0;
    while (checks < 20 || mates < 10 || stalemates < 10) {
        const Position p = test::random_placement(rng, 3 + int(rng() % 4));
        if (is_checkmate(p)       ? mates++ < 10
                : is_stalemate(p) ? stalemates++ < 10
                                  : p.in_check() && checks++ < 20)
            cases.push_back({ p, 4 });
    }
    REQUIRE(cases.size() >= 300);
    for (auto& [pos, depth] : cases) {
        const std::string fen = pos.fen();
        const auto theirs = engine.perft(fen, depth);
        const std::uint64_t ours = perft(pos, depth);
        INFO("FEN " << fen << " depth " << depth << "\n"
                    << (ours != theirs.nodes ? divide_difference(pos, depth, theirs) : ""));
        REQUIRE(ours == theirs.nodes);
    }
}

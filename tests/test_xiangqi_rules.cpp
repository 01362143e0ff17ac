// test_xiangqi_rules.cpp - Xiangqi's rules (docs/rules-xiangqi.md): the published perft of the
// start position, and our perft against Debian's fairy-stockfish (UCI_Variant xiangqi) on
// positions written by hand for each rule (checks, the flying general's pin, blocked legs and
// eyes, cannon screens of either colour, soldiers before and after the river, mate and
// stalemate), random middle games and random endings. FEN errors name the fault.
#include <catch2/catch.hpp>

#include "mktb/xiangqi/position.hpp"
#include "support/engine.hpp"
#include "support/random_xiangqi.hpp"

namespace xq = mktb::xq;
using mktb::FenError;
namespace test = mktb::test;
using xq::Position, xq::Move, xq::kStartFen, xq::has_legal_move, xq::legal_moves, xq::perft;

TEST_CASE("Xiangqi perft of the start position equals the published counts", "[xiangqi][rules]") {
    // chessprogramming.org, "Chinese Chess Perft Results" (also Fairy-Stockfish's).
    Position pos = Position::from_fen(kStartFen);
    const std::uint64_t published[] = { 1, 44, 1920, 79666, 3290240 };
    for (int d = 0; d <= 4; ++d) CHECK(perft(pos, d) == published[d]);
    CHECK(pos.fen() == kStartFen);
}

TEST_CASE("Xiangqi FEN errors name what is wrong", "[xiangqi][fen]") {
    auto error = [](const char* fen) {
        try {
            Position::from_fen(fen);
        } catch (const FenError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK(
        error("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1") == "the kings face each other on an open file");
    CHECK(
        error("4k4/9/9/9/9/9/9/9/4R4/3K5 w - - 0 1") == "Black is in check but it is not its move");
    CHECK(error("3k5/9/9/9/9/9/9/9/9/5A3/4K4 w") == "more than 10 ranks");
    CHECK(error("3k5/9/9/9/9/9/9/9/5A3/4K4 w").find("a point it can never reach")
        != std::string::npos);
    CHECK(error("3k5/9/9/9/9/9/9/4P4/9/4K4 w").find("Red soldier on e3") == 0);
    CHECK(error("3k5/9/9/9/9/9/9/9/9/2K6 w").find("Red king on c1") == 0);
    CHECK(error("3k5/9/9/9/9/9/9/9/9/4K4 x").find("side to move") != std::string::npos);
    CHECK(error("3k5/9/9/9/9/9/9/9/9/4K3 w").find("rank 1 has 8 points") == 0);
    CHECK(error("3k5/9/9/9/9/9/9/9/9/4KQ3 w").find("'Q' is not a Xiangqi man") == 0);
    CHECK(error("3k5/9/9/9/9/9/9/9/9/4K4 w - - 0 1") == "accepted");
    CHECK(Position::is_xiangqi_fen("3k5/9/9/9/9/9/9/9/9/4K4 w"));
    CHECK(!Position::is_xiangqi_fen("8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1"));
}

TEST_CASE("Xiangqi perft matches fairy-stockfish", "[xiangqi][oracle][rules]") {
    test::Engine engine(test::engine_path(), "xiangqi");
    struct Case {
        std::string fen;
        int depth;
    };
    std::vector<Case> cases = {
        { std::string(kStartFen), 3 },
        { "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C1N2/9/RNBAKAB1R w - - 2 3", 3 },
        { "r1bakabr1/9/1cn4cn/p1p1p3p/6p2/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 6", 3 },
        { "4k4/9/9/9/9/9/9/9/4R4/3K5 b - - 0 1", 4 }, // chariot check
        { "4k4/9/9/9/9/4N4/9/9/9/4K4 w - - 0 1", 4 }, // the horse pinned by the flying general
        { "3k5/9/9/9/3n5/4N4/9/9/9/4K4 w - - 0 1", 4 }, // legs blocking one horse, not the other
        { "4k4/4a4/9/9/9/9/9/4B4/3K5/2B6 w - - 0 1", 4 }, // the king on an elephant's eye
        { "3ak4/9/4c4/9/4p4/9/9/9/4A4/3K5 w - - 0 1", 4 }, // black cannon over a black screen
        { "4k4/9/9/4P4/9/4C4/9/4c4/9/3K5 b - - 0 1", 4 }, // cannons facing over a soldier
        { "3k5/9/2P3P2/9/4P4/6p2/9/4p4/9/4K4 w - - 0 1", 4 }, // soldiers either side of the river
        { "3k5/9/2P3P2/9/4P4/6p2/9/4p4/9/4K4 b - - 0 1", 4 },
        { "4k4/4P4/3R5/9/9/9/9/9/9/3K5 b - - 0 1", 4 },
        { "3k5/9/9/9/9/9/9/9/3r5/4K4 w - - 0 1", 4 },
        { "2bak4/4a4/4b4/9/9/9/9/4C4/4A4/3AK4 w - - 0 1", 3 }, // cannon over its own advisor
        { "4ka3/4a4/9/9/2c6/9/9/3R5/4A4/3AK1B2 b - - 0 1", 3 },
        { "3k5/4P4/4R4/9/9/9/9/9/9/4K4 b - - 0 1", 1 }, // checkmate: no move
        { "3k5/3P5/4P4/9/9/9/9/9/9/4K4 b - - 0 1", 2 }, // no move, not in check: lost too
    };
    std::mt19937_64 rng(43);
    for (int i = 0; i < 40; ++i)
        cases.push_back({ test::random_xiangqi_playout(rng, 4 + 3 * i).fen(), 3 });
    const char* endings[] = { "R", "N", "C", "P", "Raabb", "Naa", "Cab", "Pbb", "RAab", "NBa",
        "CAp", "Pn", "Rc", "Cc", "RPr", "NNa", "CCaa", "PPPab", "Rn", "Np" };
    for (int i = 0; i < 160; ++i)
        cases.push_back({ test::random_xiangqi_placement(rng, endings[i % 20]).fen(), 3 });
    int mates = 0, stalemates = 0;
    for (const auto& [fen, depth] : cases) {
        Position pos = Position::from_fen(fen);
        if (!has_legal_move(pos)) (pos.in_check() ? mates : stalemates)++;
        const auto theirs = engine.perft(fen, depth);
        INFO(fen << " depth " << depth);
        REQUIRE(perft(pos, depth) == theirs.nodes);
        if (depth >= 1) {
            REQUIRE(legal_moves(pos).size == int(theirs.divide.size()));
            for (Move m : legal_moves(pos)) REQUIRE(theirs.divide.contains(move_to_uci(m)));
        }
    }
    CHECK(mates >= 1);
    CHECK(stalemates >= 1);
}

TEST_CASE("Xiangqi: what a move chases (docs/rules-xiangqi.md §5b), positions checked by hand",
    "[xiangqi][rules]") {
    const auto chased = [](const char* fen, const char* move) {
        const xq::Position pos = xq::Position::from_fen(fen);
        const xq::Move m = xq::parse_uci_move(pos, move);
        REQUIRE(m != xq::MOVE_NONE);
        return xq::chased_kinds(pos, m);
    };
    const unsigned horse = 1u << xq::HORSE, chariot = 1u << xq::CHARIOT,
                   soldier = 1u << xq::SOLDIER;
    // A chariot comes to attack a horse no black man guards: a chase.
    CHECK(chased("3k5/9/9/9/9/2n6/9/9/9/R3K4 w - - 0 1", "a1a5") == horse);
    // The horse guarded by its king (Kd10xd9 would take back): no chase.
    CHECK(chased("3k5/3n5/9/9/9/9/9/9/9/R3K4 w - - 0 1", "a1a9") == 0);
    // ... and by a chariot on its file: no chase either.
    CHECK(chased("3k5/2r6/9/9/9/2n6/9/9/9/R3K4 w - - 0 1", "a1a5") == 0);
    // A horse on a chariot chases it even though the king guards it.
    CHECK(chased("3k5/3r5/9/9/6N2/9/9/9/9/4K4 w - - 0 1", "g6e7") == chariot);
    // A soldier on its own side of the river is no target; across it, it is.
    CHECK(chased("3k5/9/9/2p6/9/9/9/9/9/R3K4 w - - 0 1", "a1a7") == 0);
    CHECK(chased("3k5/9/9/9/9/9/2p6/9/9/R3K4 w - - 0 1", "a1a4") == soldier);
    // An attack that stood before the move is not one the move makes.
    CHECK(chased("3k5/9/9/9/9/R1n6/9/9/9/4K4 w - - 0 1", "e1e2") == 0);
    // One the move uncovers is: the horse leaves the chariot's rank (the horse's own attack on
    // the horse d5 is none: that horse could take back).
    CHECK(chased("3k5/9/9/9/9/RN1n5/9/9/9/4K4 w - - 0 1", "b5c7") == horse);
    // Two chariots: the one attacked takes back, so no chase.
    CHECK(chased("3k5/9/9/9/9/4r4/9/9/9/R4K3 w - - 0 1", "a1a5") == 0);
    // A capture chases nothing.
    CHECK(chased("3k5/9/9/9/9/R1n6/9/9/9/4K4 w - - 0 1", "a5c5") == 0);
}

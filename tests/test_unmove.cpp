// test_unmove.cpp - un-moves invert moves: on the tables (every square, colour and kind) and on
// positions (every legal move of many random positions is found again among the un-moves of its
// result, and every un-move leads to a legal position with a legal move back).
#include <catch2/catch.hpp>

#include <algorithm>

#include "mktb/movegen.hpp"
#include "support/random_positions.hpp"
#include "support/unmove.hpp"

using namespace mktb;

TEST_CASE("Un-move tables are the inverse of the move tables", "[unmove]") {
    test::Rng rng(7);
    for (Color c : { WHITE, BLACK })
        for (PieceType pt : { KHUN, MET, KHON, MA, RUEA, BIA })
            for (int i = 0; i < 8; ++i) {
                const Bitboard occ = rng() & rng(); // random blockers for the Ruea
                for (int from = 0; from < 64; ++from)
                    for (int to = 0; to < 64; ++to) {
                        const Bitboard occFT
                            = occ & ~square_bb(Square(from)) & ~square_bb(Square(to));
                        const bool moves = (pt == RUEA ? rook_attacks(Square(from), occFT)
                                                       : quiets_bb(c, pt, Square(from)))
                                >> to
                            & 1;
                        const bool captures = attacks_bb(c, pt, Square(from), occFT) >> to & 1;
                        REQUIRE(
                            moves == bool(retro_quiets_bb(c, pt, Square(to), occFT) >> from & 1));
                        REQUIRE(captures
                            == bool(retro_captures_bb(c, pt, Square(to), occFT) >> from & 1));
                    }
            }
}

namespace {

void check_inversion(const Position& pos) {
    for (Move m : legal_moves(pos)) {
        Position after = pos;
        after.do_move(m);
        const UnMoveList back = unmoves(after, kAllUncaptures);
        const bool found = std::any_of(back.begin(), back.end(), [&](const UnMove& u) {
            Position p = apply_unmove(after, u);
            return p == pos;
        });
        INFO(pos.fen() << "  move " << move_to_uci(m));
        REQUIRE(found);
    }
    for (const UnMove& u : unmoves(pos, kAllUncaptures)) {
        const Position prev = apply_unmove(pos, u);
        INFO(pos.fen() << "  predecessor " << prev.fen());
        REQUIRE(prev.validity_error().empty());
        const MoveList moves = legal_moves(prev);
        const bool back = std::any_of(moves.begin(), moves.end(), [&](Move m) {
            Position p = prev;
            p.do_move(m);
            return p == pos;
        });
        REQUIRE(back);
    }
}

} // namespace

TEST_CASE("Moves and un-moves invert each other on random positions", "[unmove]") {
    test::Rng rng(42);
    for (int i = 0; i < 300; ++i) check_inversion(test::random_placement(rng, 3 + i % 4));
    for (int i = 0; i < 100; ++i) check_inversion(test::random_playout(rng, 10 + i));
    // Hand-made: promotion by a step and by a capture, Khons of both colours, a Ruea un-capture.
    for (const char* fen : { "3rk3/8/3M4/8/8/8/8/4K3 b - - 0 1", "4k3/2M5/8/8/8/3m4/8/K7 w - - 0 1",
             "4k3/8/2s5/8/8/5S2/8/K7 w - - 0 1", "4k3/8/8/8/8/8/8/R3K3 b - - 0 1" })
        check_inversion(Position::from_fen(fen));
}

TEST_CASE("Un-moves restore only the kinds asked for", "[unmove]") {
    // White's Ruea on a8 just moved; only quiet un-moves without un-captures.
    const Position pos = Position::from_fen("R3k3/8/8/8/8/8/8/4K3 b - - 0 1");
    for (const UnMove& u : unmoves(pos, kNoUncaptures)) CHECK(u.uncaptured == NO_PIECE_TYPE);
    const UnMoveList withMa = unmoves(pos, kind_bit(MA));
    CHECK(std::any_of(
        withMa.begin(), withMa.end(), [](const UnMove& u) { return u.uncaptured == MA; }));
    CHECK(std::none_of(withMa.begin(), withMa.end(),
        [](const UnMove& u) { return u.uncaptured != MA && u.uncaptured != NO_PIECE_TYPE; }));
}

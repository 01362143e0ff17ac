// test_rules.cpp - the rules core against hand-checked facts of docs/rules.md §1 and the published perft.
#include <catch2/catch.hpp>

#include "mktb/movegen.hpp"

using namespace mktb;

namespace {

Bitboard bb(std::initializer_list<Square> squares) {
    Bitboard b = 0;
    for (Square s : squares) b |= square_bb(s);
    return b;
}

} // namespace

TEST_CASE("Step-vector tables match the moves of docs/rules.md section 1", "[rules]") {
    CHECK(attacks_bb(WHITE, KHON, SQ_D4) == bb({ SQ_C5, SQ_D5, SQ_E5, SQ_C3, SQ_E3 }));
    CHECK(attacks_bb(BLACK, KHON, SQ_D4) == bb({ SQ_C3, SQ_D3, SQ_E3, SQ_C5, SQ_E5 }));
    CHECK(attacks_bb(WHITE, MET, SQ_A1) == bb({ SQ_B2 }));
    CHECK(attacks_bb(BLACK, MET, SQ_E5) == bb({ SQ_D4, SQ_F4, SQ_D6, SQ_F6 }));
    CHECK(attacks_bb(WHITE, MA, SQ_A1) == bb({ SQ_B3, SQ_C2 }));
    CHECK(attacks_bb(WHITE, KHUN, SQ_H8) == bb({ SQ_G8, SQ_G7, SQ_H7 }));
    CHECK(attacks_bb(WHITE, BIA, SQ_D4) == bb({ SQ_C5, SQ_E5 }));
    CHECK(quiets_bb(WHITE, BIA, SQ_D4) == bb({ SQ_D5 }));
    CHECK(attacks_bb(BLACK, BIA, SQ_D5) == bb({ SQ_C4, SQ_E4 }));
    CHECK(quiets_bb(BLACK, BIA, SQ_D5) == bb({ SQ_D4 }));
    // A Bia never stands on its ranks 1, 2, 6, 7, 8, so it has no moves there.
    CHECK(quiets_bb(WHITE, BIA, SQ_D2) == 0);
    CHECK(quiets_bb(BLACK, BIA, SQ_D7) == 0);
    CHECK(rook_attacks(SQ_A1, bb({ SQ_A4, SQ_C1 })) == bb({ SQ_A2, SQ_A3, SQ_A4, SQ_B1, SQ_C1 }));
    CHECK(popcount(rook_attacks(SQ_D4, 0)) == 14);
    CHECK(kBiaSquares[WHITE] == 0x000000FFFFFF0000ULL);
    CHECK(kBiaSquares[BLACK] == 0x0000FFFFFF000000ULL);
}

TEST_CASE("A Ruea's attacks are the squares a walk along each line reaches", "[rules]") {
    // The walk: square by square from s, up to and including the first occupied square.
    auto walk = [](Square s, Bitboard occ) {
        Bitboard a = 0;
        for (const auto& [df, dr] : { std::pair { 0, 1 }, { 1, 0 }, { 0, -1 }, { -1, 0 } })
            for (int f = file_of(s) + df, r = rank_of(s) + dr; f >= 0 && f < 8 && r >= 0 && r < 8;
                 f += df, r += dr) {
                a |= square_bb(make_square(f, r));
                if (occ & square_bb(make_square(f, r))) break;
            }
        return a;
    };
    // Every square, on sparse and dense random boards, and with the corners a1 and h8 (where
    // the lookup puts its sentinels) occupied and empty.
    std::uint64_t x = 0x9E3779B97F4A7C15ULL;
    auto next = [&] { return x ^= x << 13, x ^= x >> 7, x ^= x << 17; };
    for (int s = 0; s < SQUARE_NB; ++s)
        for (int t = 0; t < 400; ++t) {
            Bitboard occ = t % 4 == 0 ? next() : t % 4 == 1 ? next() & next() & next() : 0;
            if (t % 4 == 3) occ = (next() & next()) | 0x8000000000000001ULL;
            occ &= ~square_bb(Square(s));
            CHECK(rook_attacks(Square(s), occ) == walk(Square(s), occ));
        }
}

TEST_CASE("Perft of the start position, depths 1-4 (docs/rules.md section 1)", "[rules]") {
    Position pos = Position::from_fen(kStartFen);
    CHECK(perft(pos, 1) == 23);
    CHECK(perft(pos, 2) == 529);
    CHECK(perft(pos, 3) == 12012);
    CHECK(perft(pos, 4) == 273026);
}

TEST_CASE("Checkmate and stalemate, hand-checked", "[rules]") {
    // Ruea mate in the corner: a7 and b7 covered by the king on b6, the back rank by the Ruea.
    const Position mate = Position::from_fen("k6R/8/1K6/8/8/8/8/8 b - - 0 1");
    CHECK(mate.in_check());
    CHECK(is_checkmate(mate));
    // The king on c7 covers b7 and b8, the Ma on c6 covers a7 without giving check: stalemate,
    // which is a draw in Makruk. (With a Ruea on b1 instead it is not: the king on b6 would
    // block the b-file and leave b8 free.)
    const Position stale = Position::from_fen("k7/2K5/2N5/8/8/8/8/8 b - - 0 1");
    CHECK_FALSE(is_stalemate(Position::from_fen("k7/8/1K6/8/8/8/8/1R6 b - - 0 1")));
    CHECK_FALSE(stale.in_check());
    CHECK(is_stalemate(stale));
    CHECK_FALSE(is_checkmate(stale));
    // The Khon checks straight forward: a white Khon on e7 attacks e8, d8 and f8; the king on e6
    // protects it and covers d7 and f7, so it is mate.
    const Position khonMate = Position::from_fen("4k3/4S3/4K3/8/8/8/8/8 b - - 0 1");
    CHECK(khonMate.in_check());
    CHECK(is_checkmate(khonMate));
    // A black Khon on e2 does not attack e3 (its forward is down), so White is not in check.
    const Position noCheck = Position::from_fen("8/8/8/8/8/4K3/4s3/k7 w - - 0 1");
    CHECK_FALSE(noCheck.in_check());
}

TEST_CASE("Promotion is forced on the 6th rank and written with the suffix m", "[rules]") {
    Position pos = Position::from_fen("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1");
    const Move m = parse_uci_move(pos, "d5d6m");
    REQUIRE(m != MOVE_NONE);
    CHECK(parse_uci_move(pos, "d5d6") == MOVE_NONE);
    pos.do_move(m);
    CHECK(pos.piece_on(SQ_D6) == make_piece(WHITE, MET));
    // Black promotes on its 6th rank, rank 3, also by a capture.
    Position b = Position::from_fen("4k3/8/8/8/4p3/3N4/8/K7 b - - 0 1");
    CHECK(parse_uci_move(b, "e4d3m") != MOVE_NONE);
    CHECK(parse_uci_move(b, "e4e3m") != MOVE_NONE);
}

TEST_CASE("Make and unmake restore the position along a perft walk", "[rules]") {
    for (const char* fen : { kStartFen.data(), "r3k3/4m3/2p5/3P4/8/8/1s6/R3K2N w - - 0 1" }) {
        Position pos = Position::from_fen(fen);
        const Position root = pos;
        for (Move m : legal_moves(pos)) {
            const auto u = pos.do_move(m);
            for (Move m2 : legal_moves(pos)) {
                const auto u2 = pos.do_move(m2);
                pos.undo_move(m2, u2);
            }
            pos.undo_move(m, u);
            REQUIRE(pos == root);
            REQUIRE(pos.fen() == root.fen());
        }
    }
}

// mktb/types.hpp - the vocabulary shared by every part of mktb: colours, piece kinds, squares,
// bitboards and moves, with Stockfish's names where they fit and Makruk's names for the men.
//
// Fairy-Stockfish aliases, for reading both code bases side by side:
//   KHUN = KING, MET = FERS, KHON = SILVER, MA = KNIGHT, RUEA = ROOK, BIA = PAWN.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>

namespace mktb {

using Bitboard = std::uint64_t;

enum Color : std::uint8_t { WHITE, BLACK, COLOR_NB = 2 };

constexpr Color operator~(Color c) { return Color(c ^ 1); }

// Piece kinds. A promoted Bia ("Bia ngai") is a MET in every rule, so it has no kind of its own.
enum PieceType : std::uint8_t {
    NO_PIECE_TYPE,
    KHUN, // king
    MET, // one step diagonally
    KHON, // one step diagonally or straight forward
    MA, // knight
    RUEA, // rook
    BIA, // pawn: one step forward, captures diagonally forward, promotes to MET on its 6th rank
    PIECE_TYPE_NB
};

// Piece = colour * 8 + kind, so that colour and kind are one shift or mask away.
enum Piece : std::uint8_t { NO_PIECE = 0, PIECE_NB = 16 };

constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 3) | pt); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }

enum Square : std::int8_t {
    // clang-format off
    SQ_A1, SQ_B1, SQ_C1, SQ_D1, SQ_E1, SQ_F1, SQ_G1, SQ_H1,
    SQ_A2, SQ_B2, SQ_C2, SQ_D2, SQ_E2, SQ_F2, SQ_G2, SQ_H2,
    SQ_A3, SQ_B3, SQ_C3, SQ_D3, SQ_E3, SQ_F3, SQ_G3, SQ_H3,
    SQ_A4, SQ_B4, SQ_C4, SQ_D4, SQ_E4, SQ_F4, SQ_G4, SQ_H4,
    SQ_A5, SQ_B5, SQ_C5, SQ_D5, SQ_E5, SQ_F5, SQ_G5, SQ_H5,
    SQ_A6, SQ_B6, SQ_C6, SQ_D6, SQ_E6, SQ_F6, SQ_G6, SQ_H6,
    SQ_A7, SQ_B7, SQ_C7, SQ_D7, SQ_E7, SQ_F7, SQ_G7, SQ_H7,
    SQ_A8, SQ_B8, SQ_C8, SQ_D8, SQ_E8, SQ_F8, SQ_G8, SQ_H8,
    // clang-format on
    SQ_NONE,
    SQUARE_NB = 64
};

constexpr int file_of(Square s) { return s & 7; }
constexpr int rank_of(Square s) { return s >> 3; }
constexpr Square make_square(int file, int rank) { return Square(rank * 8 + file); }
constexpr bool is_ok(Square s) { return s >= SQ_A1 && s <= SQ_H8; }
constexpr Bitboard square_bb(Square s) { return Bitboard(1) << s; }
// The colour-swap symmetry: flip ranks (a1 <-> a8).
constexpr Square flip_rank(Square s) { return Square(s ^ 56); }
// The a<->h mirror.
constexpr Square flip_file(Square s) { return Square(s ^ 7); }
// Rank as seen from colour c (rank 0 = c's first rank).
constexpr int relative_rank(Color c, int rank) { return c == WHITE ? rank : 7 - rank; }

inline Square lsb(Bitboard b) { return Square(std::countr_zero(b)); }
inline Square msb(Bitboard b) { return Square(63 - std::countl_zero(b)); }
inline Square pop_lsb(Bitboard& b) {
    Square s = lsb(b);
    b &= b - 1;
    return s;
}
inline int popcount(Bitboard b) { return std::popcount(b); }
constexpr bool more_than_one(Bitboard b) { return b & (b - 1); }

// A move, 16 bits: bits 0-5 from, 6-11 to, bit 12 set when a Bia promotes. Promotion is forced
// and always to a Met, so the flag is only a convenience for printing (UCI suffix "m").
enum Move : std::uint16_t { MOVE_NONE = 0 };

constexpr Move make_move(Square from, Square to, bool promotion = false) {
    return Move(from | (to << 6) | (promotion << 12));
}
// A list of moves of either game (Makruk's Move, Xiangqi's xq::Move): no position of either
// has 256 legal moves (Makruk's most are near 100; Xiangqi's start has 44, its endings fewer).
template<class M>
struct BasicMoveList {
    std::array<M, 256> moves;
    int size = 0;

    const M* begin() const { return moves.data(); }
    const M* end() const { return moves.data() + size; }
    void push(M m) { moves[size++] = m; }
    bool contains(M m) const { return std::find(begin(), end(), m) != end(); }
};

constexpr Square from_sq(Move m) { return Square(m & 63); }
constexpr Square to_sq(Move m) { return Square((m >> 6) & 63); }
constexpr bool is_promotion(Move m) { return m >> 12; }

} // namespace mktb

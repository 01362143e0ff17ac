// mktb/rules.hpp - the Makruk men as data (one table of step vectors per kind, docs/rules.md §1) and every
// attack, move and un-move table derived from that data at compile time.
//
// Why one table: moves, attacks and un-moves of the generator must agree exactly; deriving all
// of them from the same vectors makes a disagreement impossible by construction. Black's vectors
// are White's with the rank delta negated (a vertical flip), which only matters for the two
// kinds that know where "forward" is: the Khon and the Bia.
#pragma once

#include <array>
#include <string_view>

#include "mktb/types.hpp"

namespace mktb {

struct Step {
    int df, dr; // file and rank delta, for White
};

struct PieceRule {
    PieceType type;
    char letter; // Fairy-Stockfish FEN letter, upper case (White)
    std::string_view name;
    std::array<Step, 8> captures; // squares attacked (and moved to when capturing)
    int ncaptures;
    std::array<Step, 8> quiets; // squares moved to without capturing
    int nquiets;
    bool slides; // a slider repeats its steps until blocked (the Ruea)
};

// clang-format off
inline constexpr Step kKingSteps[8]   = {{1,0},{-1,0},{0,1},{0,-1},{1,1},{1,-1},{-1,1},{-1,-1}};
inline constexpr Step kMetSteps[4]    = {{1,1},{1,-1},{-1,1},{-1,-1}};
inline constexpr Step kKhonSteps[5]   = {{1,1},{1,-1},{-1,1},{-1,-1},{0,1}};
inline constexpr Step kMaSteps[8]     = {{1,2},{2,1},{2,-1},{1,-2},{-1,-2},{-2,-1},{-2,1},{-1,2}};
inline constexpr Step kRueaSteps[4]   = {{1,0},{-1,0},{0,1},{0,-1}};
inline constexpr Step kBiaCaptures[2] = {{1,1},{-1,1}};
inline constexpr Step kBiaPush[1]     = {{0,1}};
// clang-format on

template<std::size_t N>
constexpr std::array<Step, 8> steps(const Step (&s)[N]) {
    std::array<Step, 8> a {};
    for (std::size_t i = 0; i < N; ++i) a[i] = s[i];
    return a;
}

template<std::size_t N, std::size_t M>
constexpr PieceRule rule(PieceType pt, char letter, std::string_view name, const Step (&cap)[N],
    const Step (&quiet)[M], bool slides) {
    return { pt, letter, name, steps(cap), int(N), steps(quiet), int(M), slides };
}

// The rules table, docs/rules.md §1. Index by PieceType.
inline constexpr std::array<PieceRule, PIECE_TYPE_NB> kRules = {
    PieceRule {},
    rule(KHUN, 'K', "khun", kKingSteps, kKingSteps, false),
    rule(MET, 'M', "met", kMetSteps, kMetSteps, false),
    rule(KHON, 'S', "khon", kKhonSteps, kKhonSteps, false),
    rule(MA, 'N', "ma", kMaSteps, kMaSteps, false),
    rule(RUEA, 'R', "ruea", kRueaSteps, kRueaSteps, true),
    rule(BIA, 'P', "bia", kBiaCaptures, kBiaPush, false),
};

// A Bia promotes on its 6th rank (index 5 from its own side) and so only ever stands on its
// ranks 3-5 (indices 2-4): White on ranks 3-5, Black on ranks 6-4.
inline constexpr int kPromotionRank = 5;

// The start position's men per side, the ceiling a legal position must respect (a promoted Bia is
// a Met, so Met + Bia <= 1 + 8).
inline constexpr std::array<int, PIECE_TYPE_NB> kStartCount = { 0, 1, 1, 2, 2, 2, 8 };

namespace detail {

constexpr bool on_board(int f, int r) { return f >= 0 && f < 8 && r >= 0 && r < 8; }

// Targets of the leaper steps (or the slider's first steps on an empty board when `slide`).
constexpr Bitboard step_targets(
    const std::array<Step, 8>& v, int n, Color c, Square s, bool slide) {
    Bitboard b = 0;
    for (int i = 0; i < n; ++i) {
        int f = file_of(s), r = rank_of(s);
        const int dr = c == WHITE ? v[i].dr : -v[i].dr;
        do {
            f += v[i].df;
            r += dr;
            if (!on_board(f, r)) break;
            b |= square_bb(make_square(f, r));
        } while (slide);
    }
    return b;
}

constexpr Bitboard rank_bb(int r) { return Bitboard(0xFF) << (8 * r); }

constexpr Bitboard bia_squares(Color c) {
    Bitboard b = 0;
    for (int r = 2; r <= 4; ++r) b |= rank_bb(relative_rank(c, r));
    return b;
}

struct Tables {
    // [colour][kind][square]: empty-board captures and quiet moves.
    Bitboard attacks[COLOR_NB][PIECE_TYPE_NB][SQUARE_NB] {};
    Bitboard quiets[COLOR_NB][PIECE_TYPE_NB][SQUARE_NB] {};
    // Un-move tables, the inverse relations: squares a man of that kind and colour can have
    // come from to reach `to`, by a quiet move or by a capture. Derived by inverting the
    // forward tables, never written by hand. Bia origins are restricted to Bia squares.
    Bitboard retro_quiets[COLOR_NB][PIECE_TYPE_NB][SQUARE_NB] {};
    Bitboard retro_captures[COLOR_NB][PIECE_TYPE_NB][SQUARE_NB] {};
    // Rook rays per direction (N, E, S, W) for the classical slider lookup.
    Bitboard rays[4][SQUARE_NB] {};
    // Squares strictly between two squares on a common line (rank, file, diagonal), and the
    // whole line through both; 0 when not aligned.
    Bitboard between[SQUARE_NB][SQUARE_NB] {};
    Bitboard line[SQUARE_NB][SQUARE_NB] {};
};

constexpr Tables make_tables() {
    Tables t {};
    for (int c = 0; c < COLOR_NB; ++c)
        for (int pt = KHUN; pt < PIECE_TYPE_NB; ++pt)
            for (int s = 0; s < SQUARE_NB; ++s) {
                const PieceRule& r = kRules[pt];
                const bool can_stand = pt != BIA || (bia_squares(Color(c)) >> s & 1);
                if (!can_stand) continue;
                t.attacks[c][pt][s]
                    = step_targets(r.captures, r.ncaptures, Color(c), Square(s), r.slides);
                t.quiets[c][pt][s]
                    = step_targets(r.quiets, r.nquiets, Color(c), Square(s), r.slides);
            }
    for (int c = 0; c < COLOR_NB; ++c)
        for (int pt = KHUN; pt < PIECE_TYPE_NB; ++pt)
            for (int from = 0; from < SQUARE_NB; ++from)
                for (int to = 0; to < SQUARE_NB; ++to) {
                    if (t.quiets[c][pt][from] >> to & 1)
                        t.retro_quiets[c][pt][to] |= square_bb(Square(from));
                    if (t.attacks[c][pt][from] >> to & 1)
                        t.retro_captures[c][pt][to] |= square_bb(Square(from));
                }
    constexpr Step dirs[4] = { { 0, 1 }, { 1, 0 }, { 0, -1 }, { -1, 0 } };
    for (int d = 0; d < 4; ++d)
        for (int s = 0; s < SQUARE_NB; ++s) {
            std::array<Step, 8> v {};
            v[0] = dirs[d];
            t.rays[d][s] = step_targets(v, 1, WHITE, Square(s), true);
        }
    constexpr Step lines[8]
        = { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 }, { 1, 1 }, { 1, -1 }, { -1, 1 }, { -1, -1 } };
    for (int a = 0; a < SQUARE_NB; ++a)
        for (const Step& d : lines) {
            Bitboard walked = 0;
            int f = file_of(Square(a)) + d.df, r = rank_of(Square(a)) + d.dr;
            for (; on_board(f, r); f += d.df, r += d.dr) {
                const Square b = make_square(f, r);
                t.between[a][b] = walked;
                walked |= square_bb(b);
            }
            std::array<Step, 8> v {};
            v[0] = d;
            v[1] = { -d.df, -d.dr };
            const Bitboard full = step_targets(v, 2, WHITE, Square(a), true) | square_bb(Square(a));
            for (Bitboard w = step_targets(v, 1, WHITE, Square(a), true); w; w &= w - 1)
                t.line[a][std::countr_zero(w)] = full;
        }
    return t;
}

inline constexpr Tables kTables = make_tables();

} // namespace detail

inline constexpr Bitboard kBiaSquares[COLOR_NB]
    = { detail::bia_squares(WHITE), detail::bia_squares(BLACK) };
inline constexpr Bitboard kPromotionRankBB[COLOR_NB]
    = { detail::rank_bb(kPromotionRank), detail::rank_bb(7 - kPromotionRank) };

// Empty-board captures of a leaper of colour c on s (for the Ruea: its rays, unblocked).
inline Bitboard attacks_bb(Color c, PieceType pt, Square s) {
    return detail::kTables.attacks[c][pt][s];
}
inline Bitboard quiets_bb(Color c, PieceType pt, Square s) {
    return detail::kTables.quiets[c][pt][s];
}

// Each ray cut behind its nearest blocker, without a branch on whether there is one: a sentinel
// on the corner a ray runs towards (h8 for north and east, a1 for south and west), whose own
// ray in that direction is empty, stands in for "no blocker"; a real blocker there cuts nothing
// either.
inline Bitboard rook_attacks(Square s, Bitboard occ) {
    const auto& rays = detail::kTables.rays;
    const Bitboard n = rays[0][s], e = rays[1][s], so = rays[2][s], w = rays[3][s];
    constexpr Bitboard kH8 = Bitboard(1) << 63, kA1 = 1;
    return (n ^ rays[0][lsb((n & occ) | kH8)]) | (e ^ rays[1][lsb((e & occ) | kH8)])
        | (so ^ rays[2][msb((so & occ) | kA1)]) | (w ^ rays[3][msb((w & occ) | kA1)]);
}

// Squares attacked by a man of colour c and kind pt on s, given the occupancy.
inline Bitboard attacks_bb(Color c, PieceType pt, Square s, Bitboard occ) {
    return pt == RUEA ? rook_attacks(s, occ) : attacks_bb(c, pt, s);
}

// Squares a man of colour c and kind pt can have come from to stand on `to` (un-moves). The Ruea
// moves along symmetric lines, so its un-moves are its moves on the same occupancy.
inline Bitboard retro_quiets_bb(Color c, PieceType pt, Square to, Bitboard occ) {
    return pt == RUEA ? rook_attacks(to, occ) : detail::kTables.retro_quiets[c][pt][to];
}
inline Bitboard retro_captures_bb(Color c, PieceType pt, Square to, Bitboard occ) {
    return pt == RUEA ? rook_attacks(to, occ) : detail::kTables.retro_captures[c][pt][to];
}

inline Bitboard between_bb(Square a, Square b) { return detail::kTables.between[a][b]; }
inline Bitboard line_bb(Square a, Square b) { return detail::kTables.line[a][b]; }

// FEN letter <-> kind.
constexpr PieceType piece_type_from_letter(char upper) {
    for (int pt = KHUN; pt < PIECE_TYPE_NB; ++pt)
        if (kRules[pt].letter == upper) return PieceType(pt);
    return NO_PIECE_TYPE;
}

} // namespace mktb

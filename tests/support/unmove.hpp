// unmove.hpp - retro moves on boards: every position from which the side that just moved could
// have reached this one. The generator un-moves on its index (gen/generator.cpp); this board
// version is the tests' independent statement of the same rule.
//
// Un-moves use the inverse tables of mktb/rules.hpp, derived from the same step vectors as the
// moves, so the two cannot disagree (a property test checks that they invert each other).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "mktb/position.hpp"

namespace mktb {

// One predecessor: the man on `to` goes back to `from`; `uncaptured` (or NO_PIECE_TYPE) is the
// opponent's kind restored on `to`; `unpromote` turns a Met on its promotion rank back into a Bia.
struct UnMove {
    Square from, to;
    PieceType uncaptured;
    bool unpromote;
    bool operator==(const UnMove&) const = default;
};

// A list of un-moves; a vector because un-captures of every kind on a full board have no small
// fixed bound.
using UnMoveList = std::vector<UnMove>;

// Which of the opponent's kinds the caller wants restored by un-captures: a bit per PieceType.
// A table generator asks for exactly the kinds its larger signature has.
using KindSet = std::uint8_t;
constexpr KindSet kind_bit(PieceType pt) { return KindSet(1u << pt); }
inline constexpr KindSet kNoUncaptures = 0;
inline constexpr KindSet kAllUncaptures
    = kind_bit(MET) | kind_bit(KHON) | kind_bit(MA) | kind_bit(RUEA) | kind_bit(BIA);

// The predecessor reached by `u` (side to move becomes the side that moved).
Position apply_unmove(const Position& pos, UnMove u);
void apply_unmove_in_place(Position& pos, UnMove u);
void revert_unmove_in_place(Position& pos, UnMove u);

// Calls f(pos, u) for every un-move u of the side that just moved (~pos.side_to_move()) whose
// predecessor is a legal position (the side not to move there is not in check, a restored man
// stays within the start position's men and a restored Bia on a Bia square), with `pos` turned
// into that predecessor for the call and restored afterwards. Quiet un-moves are always
// included; un-captures restore each kind in `uncapture`; un-promotions (by a step, and by a
// capture for the kinds in `uncapture`) only when `unpromotions`. With CheckLegal false the
// predecessors are not checked for legality (the generator looks them up in a table that marks
// illegal positions anyway).
template<bool CheckLegal = true, class F>
void for_each_unmove(Position& pos, KindSet uncapture, bool unpromotions, F&& f) {
    const Color them = pos.side_to_move(), us = ~them;
    const Bitboard occ = pos.pieces();

    // Kinds the opponent may get back without exceeding the start position's men.
    KindSet restorable = 0;
    for (PieceType pt : { MET, KHON, MA, RUEA, BIA }) {
        const bool room = pt == MET || pt == BIA
            ? pos.count(them, MET) + pos.count(them, BIA) < kStartCount[MET] + kStartCount[BIA]
            : pos.count(them, pt) < kStartCount[pt];
        if (room && (uncapture & kind_bit(pt))) restorable |= kind_bit(pt);
    }
    auto visit = [&](UnMove u) {
        apply_unmove_in_place(pos, u);
        // The predecessor must be legal: the side not to move there (them) is not in check.
        if (!CheckLegal || !pos.attacked_by(us, pos.king_square(them), pos.pieces())) f(pos, u);
        revert_unmove_in_place(pos, u);
    };
    auto visit_all = [&](Square to, Bitboard quietFrom, Bitboard captureFrom, bool unpromote) {
        for (Bitboard b = quietFrom & ~occ; b;) visit({ pop_lsb(b), to, NO_PIECE_TYPE, unpromote });
        if (!restorable) return;
        for (Bitboard b = captureFrom & ~occ; b;) {
            const Square from = pop_lsb(b);
            for (PieceType pt : { MET, KHON, MA, RUEA, BIA }) {
                if (!(restorable & kind_bit(pt))) continue;
                if (pt == BIA && !(kBiaSquares[them] & square_bb(to))) continue;
                visit({ from, to, pt, unpromote });
            }
        }
    };
    for (Bitboard b = pos.pieces(us); b;) {
        const Square to = pop_lsb(b);
        const PieceType pt = type_of(pos.piece_on(to));
        visit_all(to, retro_quiets_bb(us, pt, to, occ), retro_captures_bb(us, pt, to, occ), false);
        if (unpromotions && pt == MET && (kPromotionRankBB[us] & square_bb(to)))
            visit_all(
                to, retro_quiets_bb(us, BIA, to, occ), retro_captures_bb(us, BIA, to, occ), true);
    }
}

// Every un-move, as a list (see for_each_unmove; un-promotions included).
UnMoveList unmoves(const Position& pos, KindSet uncapture);

} // namespace mktb

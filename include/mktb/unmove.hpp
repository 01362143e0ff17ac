// mktb/unmove.hpp - retro moves: every position from which the side that just moved could have
// reached this one, for the retrograde generator.
//
// Un-moves use the inverse tables of mktb/rules.hpp, derived from the same step vectors as the
// moves, so the two cannot disagree (a property test checks that they invert each other).
#pragma once

#include <array>
#include <cstdint>

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

struct UnMoveList {
    std::array<UnMove, 1024> items;
    int size = 0;
    const UnMove* begin() const { return items.data(); }
    const UnMove* end() const { return items.data() + size; }
    void push(UnMove u) { items[size++] = u; }
};

// Which of the opponent's kinds the caller wants restored by un-captures: a bit per PieceType.
// A table generator asks for exactly the kinds its larger signature has.
using KindSet = std::uint8_t;
constexpr KindSet kind_bit(PieceType pt) { return KindSet(1u << pt); }
inline constexpr KindSet kNoUncaptures = 0;
inline constexpr KindSet kAllUncaptures
    = kind_bit(MET) | kind_bit(KHON) | kind_bit(MA) | kind_bit(RUEA) | kind_bit(BIA);

// Every un-move of the side that just moved (~pos.side_to_move()) whose predecessor is a legal
// position (the side not to move there is not in check, a restored Bia stands on a Bia square).
// Quiet un-moves and un-promotions by a step are always included; un-captures (including
// un-promotions by capture) restore each kind in `uncapture`.
UnMoveList unmoves(const Position& pos, KindSet uncapture);

// The predecessor reached by `u` (side to move becomes the side that moved).
Position apply_unmove(const Position& pos, UnMove u);

} // namespace mktb

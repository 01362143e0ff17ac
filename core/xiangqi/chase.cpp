// chase.cpp - what a Xiangqi move chases (docs/rules-xiangqi.md §5b): the attacks a quiet move
// creates on men its side could take and that the rules count as a chase. The perpetual-chase
// rule (the rule set asian) reads it move by move; the rule pass decides the endless lines.
#include "mktb/xiangqi/position.hpp"

#include <bit>

namespace mktb::xq {

namespace {

// Calls f(point) for each point of a set.
template<class F>
void for_each_point(Points set, F&& f) {
    for (std::uint64_t lo = std::uint64_t(set); lo; lo &= lo - 1) f(std::countr_zero(lo));
    for (std::uint64_t hi = std::uint64_t(set >> 64); hi; hi &= hi - 1)
        f(64 + std::countr_zero(hi));
}

// Whether a man of colour c and kind pt on `a` reaches `t` by its kind's moves over the men on
// `occupied` (a capture's geometry: what stands on `t` aside).
bool reaches(Color c, PieceType pt, int a, int t, Points occupied) {
    switch (pt) {
    case CHARIOT:
        return aligned(a, t) && !(between(a, t) & occupied);
    case CANNON:
        return aligned(a, t) && popcount(between(a, t) & occupied) == 1;
    default: {
        const auto& l = leaps(c, pt, a);
        for (int i = 0; i < l.n; ++i)
            if (l.leaps[i].to == t
                && (l.leaps[i].block < 0 || !has_point(occupied, l.leaps[i].block)))
                return true;
        return false;
    }
    }
}

// Whether the man on `a` could take the man on `t` by its kind's moves (the side to move and its
// king's safety aside).
bool can_take(const Position& pos, int a, int t) {
    const Piece pc = pos.piece_on(a), victim = pos.piece_on(t);
    if (pc == NO_PIECE || victim == NO_PIECE || color_of(pc) == color_of(victim)) return false;
    return reaches(color_of(pc), type_of(pc), a, t, pos.occupied());
}

// Whether the quiet move from `from` to `to` of the side to move makes a new attack by a man that
// may chase on a man that may be chased: on the board's sets alone, no position made (most moves
// make none, and the rule pass asks of every move).
bool attacks_anew(const Position& pos, int from, int to) {
    const Color us = pos.side_to_move(), them = ~us;
    const Points before = pos.occupied(), after = (before & ~point_bit(from)) | point_bit(to);
    Points targets = 0;
    for (int pt = ADVISOR; pt < PIECE_TYPE_NB; ++pt)
        targets |= pos.pieces(make_piece(them, PieceType(pt)));
    bool found = false;
    for (int pt = ADVISOR; pt < SOLDIER && !found; ++pt) // the men that chase
        for_each_point(pos.pieces(make_piece(us, PieceType(pt))), [&](int was) {
            const int a = was == from ? to : was;
            for_each_point(targets, [&](int t) {
                found = found
                    || (reaches(us, PieceType(pt), a, t, after)
                        && !reaches(us, PieceType(pt), was, t, before));
            });
        });
    return found;
}

// Whether the side to move of `pos` may legally take with the man on `a` the man on `t`.
bool may_take(const Position& pos, int a, int t) {
    return can_take(pos, a, t) && color_of(pos.piece_on(a)) == pos.side_to_move()
        && pos.legal_after(a, t);
}

} // namespace

unsigned chased_kinds(const Position& pos, Move m) {
    const Color us = pos.side_to_move(), them = ~us;
    const int from = from_pt(m), to = to_pt(m);
    if (!pos.empty(to) || !attacks_anew(pos, from, to)) return 0; // a capture ends any cycle
    Position after = pos;
    after.do_move(m); // them to move
    Position ours = after; // as if we were to move again: what we could take
    ours.set_side_to_move(us);
    unsigned out = 0;
    for_each_point(after.occupied(), [&](int a) {
        const Piece attacker = after.piece_on(a);
        if (color_of(attacker) != us) return;
        const PieceType at = type_of(attacker);
        if (at == KING || at == SOLDIER) return; // they never chase
        const int before = a == to ? from : a;
        for_each_point(after.occupied(), [&](int t) {
            const Piece target = after.piece_on(t);
            if (color_of(target) != them) return;
            const PieceType tt = type_of(target);
            if (tt == KING || (out >> tt & 1)) return; // a king attacked is in check
            if (tt == SOLDIER && xq::relative_rank(them, t) < 5) return; // not across the river
            // Only an attack the move creates: by the man moved or uncovered by it.
            if (!may_take(ours, a, t) || can_take(pos, before, t)) return;
            // Two men of one kind: no chase where the one attacked can take back.
            if (at == tt && may_take(after, t, a)) return;
            // A horse or cannon on a chariot chases it even when it is protected; every other
            // attack only a man the other side cannot take back on its point.
            bool chase = (at == HORSE || at == CANNON) && tt == CHARIOT;
            if (!chase) {
                Position taken = ours;
                taken.do_move(make_move(a, t));
                chase = true;
                for (Move reply : legal_moves(taken))
                    if (to_pt(reply) == t) chase = false;
            }
            if (chase) out |= 1u << tt;
        });
    });
    return out;
}

} // namespace mktb::xq

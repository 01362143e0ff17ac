// moves.hpp - the generator's moves on placements: the legal moves of a side (the full legality
// test only where a move can change it) and the un-moves that lead into a position. Init, the
// levels and the perpetual-check pass share them; the verifier does not (it uses the core's
// legal moves, which perft checks against Fairy-Stockfish). The board those passes carry from slot
// to slot is follower.hpp's.
#pragma once

#include <cstdint>

#include "follower.hpp"
#include "mktb/xiangqi/index.hpp"
#include "mktb/xiangqi/position.hpp"

namespace mktb::xq {

inline constexpr std::uint8_t kNone = 0xFF; // no position, or illegal with this side to move

// Calls f(parentSlot, mirrored, parentSymmetric) for every un-move of `mover`'s men in the
// position of `slot` (whose men are `pl`, on `occupied`): the parent's slot, whether the mirror
// was applied to reach it, whether the parent is its own mirror. `at` is the slot's Mover.
template<class F>
void for_each_unmove(const Index& index, const Index::Mover& at, const Placement& pl,
    Points occupied, Color mover, F&& f) {
    const auto empty = [&](int p) { return !has_point(occupied, p); };
    for (int j = 0; j < index.men(); ++j) {
        const Piece pc = index.piece(j);
        if (color_of(pc) != mover) continue;
        const PieceType pt = type_of(pc);
        const int to = pl.at[j];
        auto emit = [&](int from) {
            bool mirrored, symmetric;
            const std::uint64_t q = at.moved(j, from, &mirrored, &symmetric);
            f(q, mirrored, symmetric);
        };
        if (pt == CHARIOT || pt == CANNON) { // quiet moves of both run along open lines
            for (int d = 0; d < 4; ++d) {
                const std::int8_t* r = ray(d, to);
                for (int i = 0, n = ray_length(d, to); i < n && empty(r[i]); ++i) emit(r[i]);
            }
            continue;
        }
        const auto& from = unleaps(mover, pt, to);
        for (int i = 0; i < from.n; ++i) {
            const auto [o, block] = from.leaps[i];
            if (empty(o) && (block < 0 || empty(block))) emit(o);
        }
    }
}

// Calls f(man, to, victim) for every legal move of side s in `pos` (whose men are `pl`): the
// man moved (its number in the index), where to, and the man it captures (-1: none).
// The full legality test (the mover's king not attacked, the kings not facing) runs only where
// the move can change it: a king move, a move out of check, or a man leaving or entering one of
// Position::exposing_points(). kCaptures: the captures alone (a lost cell's captures valued
// again, in the level loop), the quiet moves passed over untested.
template<bool kCaptures = false, class F>
void for_each_legal(
    const Index& index, const Placement& pl, const Position& pos, Color s, bool inCheck, F&& f) {
    const Points danger = pos.exposing_points(s);
    auto exposing = [&](int p) { return has_point(danger, p); };
    auto tryMove = [&](int j, int to, bool test) {
        if (test && !pos.legal_after(pl.at[j], to)) return;
        int victim = -1;
        if (!pos.empty(to))
            for (int v = 0; v < index.men(); ++v)
                if (pl.at[v] == to) victim = v;
        f(j, to, victim);
    };
    for (int j = 0; j < index.men(); ++j) {
        const Piece pc = index.piece(j);
        if (color_of(pc) != s) continue;
        const PieceType pt = type_of(pc);
        const int from = pl.at[j];
        const bool fromTest = pt == KING || inCheck || exposing(from);
        if (pt == CHARIOT || pt == CANNON) {
            for (int d = 0; d < 4; ++d) {
                const std::int8_t* r = ray(d, from);
                const int n = ray_length(d, from);
                int i = 0;
                for (; i < n && pos.empty(r[i]); ++i)
                    if constexpr (!kCaptures) tryMove(j, r[i], fromTest || exposing(r[i]));
                if (i == n) continue;
                if (pt == CANNON)
                    for (++i; i < n && pos.empty(r[i]);) ++i;
                if (i < n && color_of(pos.piece_on(r[i])) != s)
                    tryMove(j, r[i], fromTest || exposing(r[i]));
            }
            continue;
        }
        const auto& to = leaps(s, pt, from);
        for (int i = 0; i < to.n; ++i) {
            const auto [t, block] = to.leaps[i];
            const Piece target = pos.piece_on(t);
            if ((kCaptures ? target != NO_PIECE && color_of(target) != s
                           : target == NO_PIECE || color_of(target) != s)
                && (block < 0 || pos.empty(block)))
                tryMove(j, t, fromTest || exposing(t));
        }
    }
}

} // namespace mktb::xq

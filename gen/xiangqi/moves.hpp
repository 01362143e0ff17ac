// moves.hpp - the generator's moves on placements: the legal moves of a side (the full legality
// test only where a move can change it) and the un-moves that lead into a position. Init, the
// levels and the perpetual-check pass share them; the verifier does not (it uses the core's
// legal moves). The board those passes carry from slot to slot is follower.hpp's.
#pragma once

#include <bit>
#include <cstdint>

#include "mktb/xiangqi/index.hpp"
#include "mktb/xiangqi/position.hpp"
#include "follower.hpp"

namespace mktb::xq {

inline constexpr std::uint8_t kNone = 0xFF; // no position, or illegal with this side to move

// Calls f(parentPlacement, parentSlot, mirrored) for every un-move of `mover`'s men in `pos`
// (whose men are `pl`, at `slot`).
template<class F>
void for_each_unmove(const Index& index, std::uint64_t slot, const Placement& pl, Points occupied,
    Color mover, F&& f) {
    const auto empty = [&](int p) { return !(occupied & point_bit(p)); };
    for (int j = 0; j < index.men(); ++j) {
        const Piece pc = index.piece(j);
        if (color_of(pc) != mover) continue;
        const PieceType pt = type_of(pc);
        const int to = pl.at[j];
        Placement parent = pl;
        auto emit = [&](int from) {
            bool mirrored = false;
            const std::uint64_t q = index.moved(slot, pl, j, from, &mirrored);
            parent.at[j] = std::int8_t(from);
            f(parent, q, mirrored);
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

// The points of each ray from each point (the ray's first point next to it).
struct RayPoints {
    Points of[4][POINT_NB] {};
    constexpr RayPoints() {
        for (int d = 0; d < 4; ++d)
            for (int p = 0; p < POINT_NB; ++p)
                for (int i = 0; i < detail::kTables.rayLength[d][p]; ++i)
                    of[d][p] |= point_bit(detail::kTables.ray[d][p][i]);
    }
};
inline constexpr RayPoints kRayPoints;

// Where a man of side s leaving or arriving may leave its king attacked: the rays from the king
// that hold an enemy chariot, cannon or the enemy king (a line opened, a cannon's screen made or
// taken away, the kings' file opened) and the legs of the enemy horses that aim at the king.
// Elsewhere a move cannot change the king's safety: soldiers attack through no other point.
inline Points exposing_points(const Position& pos, Color s) {
    const Color them = ~s;
    const int k = pos.king_point(s);
    const Points lines = pos.pieces(make_piece(them, CHARIOT)) | pos.pieces(make_piece(them, CANNON))
        | point_bit(pos.king_point(them));
    Points danger = 0;
    for (int d = 0; d < 4; ++d)
        if (kRayPoints.of[d][k] & lines) danger |= kRayPoints.of[d][k];
    const Points horses = pos.pieces(make_piece(them, HORSE)) & detail::kLines.horseFrom[k];
    for (Points h = horses; h; h &= h - 1) {
        const auto low = std::uint64_t(h);
        const int p = low ? std::countr_zero(low) : 64 + std::countr_zero(std::uint64_t(h >> 64));
        danger |= point_bit(detail::kLines.horseLeg[p][k]);
    }
    return danger;
}

// Calls f(man, to, victim) for every legal move of side s in `pos` (whose men are `pl`): the
// man moved (its number in the index), where to, and the man it captures (-1: none).
// The full legality test (the mover's king not attacked, the kings not facing) runs only where
// the move can change it: a king move, a move out of check, or a man leaving or entering one of
// exposing_points().
template<class F>
void for_each_legal(
    const Index& index, const Placement& pl, const Position& pos, Color s, bool inCheck, F&& f) {
    const Points danger = exposing_points(pos, s);
    auto exposing = [&](int p) { return bool(danger & point_bit(p)); };
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
                for (; i < n && pos.empty(r[i]); ++i) tryMove(j, r[i], fromTest || exposing(r[i]));
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
            if ((target == NO_PIECE || color_of(target) != s) && (block < 0 || pos.empty(block)))
                tryMove(j, t, fromTest || exposing(t));
        }
    }
}

} // namespace mktb::xq

// moves.hpp - the generator's moves on placements: the legal moves of a side (the full legality
// test only where a move can change it), the un-moves that lead into a position, and the board
// carried from slot to slot. Init, the levels and the perpetual-check pass share them; the
// verifier does not (it uses the core's legal moves).
#pragma once

#include <cstdint>

#include "mktb/xiangqi/index.hpp"
#include "mktb/xiangqi/position.hpp"

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

// Points on a king's file or rank or diagonally next to it: where a man leaving or arriving may
// change the king's safety.
struct Near {
    bool near[POINT_NB][POINT_NB] {};
    constexpr Near() {
        for (int k = 0; k < POINT_NB; ++k)
            for (int p = 0; p < POINT_NB; ++p) {
                const int df = file_of(p) - file_of(k), dr = rank_of(p) - rank_of(k);
                near[k][p] = !df || !dr || ((df == 1 || df == -1) && (dr == 1 || dr == -1));
            }
    }
};
constexpr Near kNear;

// Calls f(man, to, victim) for every legal move of side s in `pos` (whose men are `pl`): the
// man moved (its number in the index), where to, and the man it captures (-1: none).
// The full legality test (the mover's king not attacked, the kings not facing) runs only where
// the move can change it: a king move, a move out of check, a man leaving or entering a line of
// the king (a chariot's or cannon's line opened, a cannon's screen made, the kings' file opened)
// or leaving a point diagonally next to it (a horse's leg).
template<class F>
void for_each_legal(
    const Index& index, const Placement& pl, const Position& pos, Color s, bool inCheck, F&& f) {
    const int k = pos.king_point(s);
    const bool enemyArmed = pos.armed(~s); // else only the kings' file can make a move illegal
    const auto& near = kNear.near[k];
    auto nearKing = [&](int p) { return near[p]; };
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
        const bool fromTest
            = pt == KING || (enemyArmed ? inCheck || nearKing(from) : file_of(from) == file_of(k));
        if (pt == CHARIOT || pt == CANNON) {
            for (int d = 0; d < 4; ++d) {
                const std::int8_t* r = ray(d, from);
                const int n = ray_length(d, from);
                int i = 0;
                for (; i < n && pos.empty(r[i]); ++i)
                    tryMove(j, r[i], fromTest || (enemyArmed && nearKing(r[i])));
                if (i == n) continue;
                if (pt == CANNON)
                    for (++i; i < n && pos.empty(r[i]);) ++i;
                if (i < n && color_of(pos.piece_on(r[i])) != s)
                    tryMove(j, r[i], fromTest || (enemyArmed && nearKing(r[i])));
            }
            continue;
        }
        const auto& to = leaps(s, pt, from);
        for (int i = 0; i < to.n; ++i) {
            const auto [t, block] = to.leaps[i];
            const Piece target = pos.piece_on(t);
            if ((target == NO_PIECE || color_of(target) != s) && (block < 0 || pos.empty(block)))
                tryMove(j, t, fromTest || (enemyArmed && nearKing(t)));
        }
    }
}

// The board of the slots a loop walks in order: consecutive slots differ in a man or two (the
// innermost group's), so only those are lifted and put down again.
class BoardFollower {
public:
    explicit BoardFollower(const Index& index)
        : index_(index) { }
    const Position& follow(const Placement& pl) {
        if (!built_)
            pos_ = index_.position(pl, RED), built_ = true;
        else {
            for (int j = 0; j < index_.men(); ++j)
                if (pl.at[j] != prev_.at[j]) pos_.remove_piece(prev_.at[j]);
            for (int j = 0; j < index_.men(); ++j)
                if (pl.at[j] != prev_.at[j]) pos_.put_piece(index_.piece(j), pl.at[j]);
        }
        prev_ = pl;
        return pos_;
    }
    Position& position() { return pos_; }

private:
    const Index& index_;
    Position pos_;
    Placement prev_;
    bool built_ = false;
};

} // namespace mktb::xq

// unmove.cpp - retro move generation (see mktb/unmove.hpp).
#include "mktb/unmove.hpp"

namespace mktb {

Position apply_unmove(const Position& pos, UnMove u) {
    Position p = pos;
    const Color us = ~pos.side_to_move();
    p.move_piece(u.to, u.from);
    if (u.unpromote) {
        p.remove_piece(u.from);
        p.put_piece(make_piece(us, BIA), u.from);
    }
    if (u.uncaptured != NO_PIECE_TYPE) p.put_piece(make_piece(~us, u.uncaptured), u.to);
    p.set_side_to_move(us);
    return p;
}

UnMoveList unmoves(const Position& pos, KindSet uncapture) {
    UnMoveList list;
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

    auto add = [&](UnMove u) {
        // The predecessor must be legal: the side not to move there (them) is not in check.
        const Position p = apply_unmove(pos, u);
        if (!p.attacked_by(us, p.king_square(them), p.pieces())) list.push(u);
    };
    auto add_all = [&](Square to, Bitboard quietFrom, Bitboard captureFrom, bool unpromote) {
        for (Bitboard b = quietFrom & ~occ; b;) add({ pop_lsb(b), to, NO_PIECE_TYPE, unpromote });
        for (Bitboard b = captureFrom & ~occ; b;) {
            const Square from = pop_lsb(b);
            for (PieceType pt : { MET, KHON, MA, RUEA, BIA }) {
                if (!(restorable & kind_bit(pt))) continue;
                if (pt == BIA && !(kBiaSquares[them] & square_bb(to))) continue;
                add({ from, to, pt, unpromote });
            }
        }
    };

    for (Bitboard b = pos.pieces(us); b;) {
        const Square to = pop_lsb(b);
        const PieceType pt = type_of(pos.piece_on(to));
        add_all(to, retro_quiets_bb(us, pt, to, occ),
            retro_captures_bb(us, pt, to, occ), false);
        if (pt == MET && (kPromotionRankBB[us] & square_bb(to)))
            add_all(to, retro_quiets_bb(us, BIA, to, occ), retro_captures_bb(us, BIA, to, occ), true);
    }
    return list;
}

} // namespace mktb

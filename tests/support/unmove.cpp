// unmove.cpp - retro move application (see unmove.hpp).
#include "unmove.hpp"

namespace mktb {

void apply_unmove_in_place(Position& pos, UnMove u) {
    const Color us = ~pos.side_to_move();
    pos.move_piece(u.to, u.from);
    if (u.unpromote) {
        pos.remove_piece(u.from);
        pos.put_piece(make_piece(us, BIA), u.from);
    }
    if (u.uncaptured != NO_PIECE_TYPE) pos.put_piece(make_piece(~us, u.uncaptured), u.to);
    pos.set_side_to_move(us);
}

void revert_unmove_in_place(Position& pos, UnMove u) {
    const Color us = pos.side_to_move();
    pos.set_side_to_move(~us);
    if (u.uncaptured != NO_PIECE_TYPE) pos.remove_piece(u.to);
    if (u.unpromote) {
        pos.remove_piece(u.from);
        pos.put_piece(make_piece(us, MET), u.from);
    }
    pos.move_piece(u.from, u.to);
}

Position apply_unmove(const Position& pos, UnMove u) {
    Position p = pos;
    apply_unmove_in_place(p, u);
    return p;
}

UnMoveList unmoves(const Position& pos, KindSet uncapture) {
    UnMoveList list;
    Position p = pos;
    for_each_unmove(p, uncapture, true, [&](const Position&, UnMove u) { list.push_back(u); });
    return list;
}

} // namespace mktb

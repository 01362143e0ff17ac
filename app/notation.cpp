// notation.cpp - standard algebraic notation for Makruk (see notation.hpp).
#include "notation.hpp"

#include "mktb/movegen.hpp"

namespace mktb::cli {

std::string san(const Position& pos, Move m) {
    const Square from = from_sq(m), to = to_sq(m);
    const PieceType pt = type_of(pos.piece_on(from));
    const bool capture = !pos.empty(to);
    std::string text;
    if (pt == BIA) {
        if (capture) text += char('a' + file_of(from));
    } else {
        text += "?KMSNR"[pt];
        // Another man of the same kind reaching `to`: the file, else the rank, else both.
        bool sameFile = false, sameRank = false, other = false;
        for (Move o : legal_moves(pos))
            if (o != m && to_sq(o) == to && type_of(pos.piece_on(from_sq(o))) == pt) {
                other = true;
                sameFile |= file_of(from_sq(o)) == file_of(from);
                sameRank |= rank_of(from_sq(o)) == rank_of(from);
            }
        if (other && (!sameFile || sameRank)) text += char('a' + file_of(from));
        if (other && sameFile) text += char('1' + rank_of(from));
    }
    if (capture) text += 'x';
    text += square_name(to);
    if (is_promotion(m)) text += "=M";
    Position next = pos;
    next.do_move(m);
    if (is_checkmate(next))
        text += '#';
    else if (next.in_check())
        text += '+';
    return text;
}

} // namespace mktb::cli

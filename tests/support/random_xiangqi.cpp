// random_xiangqi.cpp - random Xiangqi playouts and placements (see random_xiangqi.hpp).
#include "random_xiangqi.hpp"

namespace mktb::test {

using xq::Position, xq::MoveList, xq::Piece, xq::POINT_NB, xq::RED, xq::KING, xq::kStartFen,
    xq::legal_moves, xq::can_stand, xq::make_piece, xq::piece_type_from_letter;

Position random_xiangqi_playout(std::mt19937_64& rng, int plies) {
    Position pos = Position::from_fen(kStartFen);
    for (int i = 0; i < plies; ++i) {
        const MoveList moves = legal_moves(pos);
        if (!moves.size) break;
        pos.do_move(moves.moves[rng() % unsigned(moves.size)]);
    }
    return pos;
}

Position random_xiangqi_placement(std::mt19937_64& rng, std::string_view men) {
    for (;;) {
        Position pos;
        auto place = [&](Piece pc) {
            for (;;) {
                const int p = int(rng() % POINT_NB);
                if (pos.empty(p) && can_stand(color_of(pc), type_of(pc), p)) {
                    pos.put_piece(pc, p);
                    return;
                }
            }
        };
        place(make_piece(RED, KING));
        place(make_piece(BLACK, KING));
        for (char ch : men) {
            const bool red = ch >= 'A' && ch <= 'Z';
            place(make_piece(red ? RED : BLACK, piece_type_from_letter(red ? ch : char(ch - 32))));
        }
        pos.set_side_to_move(rng() & 1 ? BLACK : RED);
        if (pos.validity_error().empty()) return pos;
    }
}

} // namespace mktb::test

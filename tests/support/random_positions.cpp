// random_positions.cpp - see random_positions.hpp.
#include "random_positions.hpp"

#include "mktb/movegen.hpp"

namespace mktb::test {

Position random_playout(Rng& rng, int plies) {
    Position pos = Position::from_fen(kStartFen);
    for (int i = 0; i < plies; ++i) {
        const MoveList moves = legal_moves(pos);
        if (moves.size == 0) break;
        pos.do_move(moves.moves[std::uniform_int_distribution<int>(0, moves.size - 1)(rng)]);
    }
    return pos;
}

Position random_placement(Rng& rng, int men) {
    std::uniform_int_distribution<int> square(0, 63), coin(0, 1), kind(MET, BIA);
    for (;;) {
        Position pos;
        pos.put_piece(make_piece(WHITE, KHUN), Square(square(rng)));
        Square bk = Square(square(rng));
        if (!pos.empty(bk)) continue;
        pos.put_piece(make_piece(BLACK, KHUN), bk);
        for (int i = 2; i < men; ++i) {
            const Color c = Color(coin(rng));
            const PieceType pt = PieceType(kind(rng));
            Square s = Square(square(rng));
            if (pt == BIA && coin(rng)) // next to promotion: White's rank 5, Black's rank 4
                s = make_square(file_of(s), c == WHITE ? 4 : 3);
            if (pos.empty(s)) pos.put_piece(make_piece(c, pt), s);
        }
        pos.set_side_to_move(Color(coin(rng)));
        if (pos.validity_error().empty()) return pos;
    }
}

Position random_position_of(Rng& rng, const Index& index) {
    for (;;) {
        Position pos;
        if (!index.decode(rng() % index.size(), pos)) continue;
        pos.set_side_to_move(Color(rng() & 1));
        if (pos.validity_error().empty() && legal_moves(pos).size > 0) return pos;
    }
}

} // namespace mktb::test

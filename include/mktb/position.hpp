// mktb/position.hpp - a Makruk position: the board, the side to move and the count state of FEN
// fields 4-5; FEN reading (with precise errors) and writing; make/unmake; check detection.
//
// The position is plain data (about 150 bytes) so that callers may copy it freely; the generator
// builds positions square by square through put_piece/remove_piece and validates with
// validity_error(), the same checks FEN input goes through.
#pragma once

#include <array>
#include <stdexcept>
#include <string>
#include <string_view>

#include "mktb/rules.hpp"
#include "mktb/types.hpp"

namespace mktb {

// Bad FEN, with a message that names what is wrong.
class FenError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

// The count as Fairy-Stockfish and pychess write it (docs/rules.md §3.4): `limit` in plies (2L for pieces'
// honour, 128 for board's honour), `ply` the plies played in the count; limit 0 = no count.
struct CountState {
    int limit = 0;
    int ply = 0;
    bool operator==(const CountState&) const = default;
};

inline constexpr std::string_view kStartFen
    = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1";

class Position {
public:
    Position() = default;

    // Parses a Makruk FEN; throws FenError naming the problem. The position is fully validated
    // (see validity_error), so a parsed position is always one that can occur in a game.
    static Position from_fen(std::string_view fen);
    std::string fen() const;

    Color side_to_move() const { return stm_; }
    Piece piece_on(Square s) const { return board_[s]; }
    bool empty(Square s) const { return board_[s] == NO_PIECE; }
    Bitboard pieces() const { return byColor_[WHITE] | byColor_[BLACK]; }
    Bitboard pieces(Color c) const { return byColor_[c]; }
    Bitboard pieces(PieceType pt) const { return byType_[pt]; }
    Bitboard pieces(Color c, PieceType pt) const { return byColor_[c] & byType_[pt]; }
    int count(Color c, PieceType pt) const { return popcount(pieces(c, pt)); }
    Square king_square(Color c) const { return lsb(pieces(c, KHUN)); }
    const CountState& count_state() const { return count_; }
    int fullmove() const { return fullmove_; }

    // Men of either colour attacking s, given an occupancy (used with the king lifted off).
    Bitboard attackers_to(Square s, Bitboard occ) const;
    // Men of colour c attacking s.
    Bitboard attackers_to(Color c, Square s, Bitboard occ) const;
    bool attacked_by(Color c, Square s, Bitboard occ) const { return attackers_to(c, s, occ); }
    Bitboard checkers() const { return attackers_to(~stm_, king_square(stm_), pieces()); }
    bool in_check() const { return checkers() != 0; }
    // Our men that shield our king from an enemy Ruea (the only slider, so pins run along ranks
    // and files only).
    Bitboard pinned(Color c) const;

    // Make/unmake. The count state is carried unchanged: keeping it is the job of the counting
    // layer, which knows the rule options; move generation never depends on it.
    struct Undo {
        Piece captured;
    };
    Undo do_move(Move m);
    void undo_move(Move m, Undo u);

    // Low-level edits, for the un-move generator, the tablebase index and tests.
    void put_piece(Piece p, Square s);
    void remove_piece(Square s);
    void move_piece(Square from, Square to);
    void set_side_to_move(Color c) { stm_ = c; }
    void set_count_state(CountState c) { count_ = c; }

    // Empty when the position could occur in a game: one king per side, kings apart, side not to
    // move not in check, every Bia on a square it can stand on, no more men than the start allows,
    // a count only without Bia. Otherwise a sentence naming what is wrong.
    std::string validity_error() const;

    // Equal boards and side to move (the count state is compared too).
    bool operator==(const Position& o) const {
        return board_ == o.board_ && stm_ == o.stm_ && count_ == o.count_;
    }

private:
    std::array<Piece, SQUARE_NB> board_ {};
    Bitboard byType_[PIECE_TYPE_NB] {};
    Bitboard byColor_[COLOR_NB] {};
    Color stm_ = WHITE;
    CountState count_ {};
    int fullmove_ = 1;
};

// "a1".."h8"; UCI move text ("e3e4", a promotion gets the suffix "m" as Fairy-Stockfish writes it).
std::string square_name(Square s);
std::string move_to_uci(Move m);
char piece_char(Piece p);

} // namespace mktb

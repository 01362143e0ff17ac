// mktb/xiangqi/position.hpp - a Xiangqi position (docs/rules-xiangqi.md): the 90 points, the side
// to move; Fairy-Stockfish's Xiangqi FEN read (with precise errors) and written; check, the flying
// general, legal moves, make/unmake, perft and UCI move text.
//
// A mailbox of 90 points, not a bitboard: the endings have at most a dozen men, and a board the
// generator fills point by point and asks "what stands there" is what its index and un-moves need.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "mktb/position.hpp" // FenError
#include "mktb/xiangqi/rules.hpp"

namespace mktb::xq {

// A move, 16 bits: bits 0-6 from, 7-13 to.
enum Move : std::uint16_t { MOVE_NONE = 0 };
constexpr Move make_move(int from, int to) { return Move(from | (to << 7)); }
constexpr int from_pt(Move m) { return m & 127; }
constexpr int to_pt(Move m) { return (m >> 7) & 127; }

using MoveList = BasicMoveList<Move>;

class Position {
public:
    Position() = default;

    // Parses a Xiangqi FEN (ten ranks; 'E'/'H' accepted for elephant/horse); throws FenError
    // naming the problem. The position is validated as validity_error() says.
    static Position from_fen(std::string_view fen);
    std::string fen() const;
    // Whether a FEN has ten ranks (a Xiangqi FEN): how the program tells the games apart.
    static bool is_xiangqi_fen(std::string_view fen);

    Color side_to_move() const { return stm_; }
    Piece piece_on(int p) const { return board_[p]; }
    Points occupied() const { return occupied_; }
    Points pieces(Piece pc) const { return byPiece_[pc]; }
    bool empty(int p) const { return board_[p] == NO_PIECE; }
    int king_point(Color c) const { return king_[c]; }
    int count(Color c, PieceType pt) const { return pieceCount_[make_piece(c, pt)]; }

    // Whether colour c's king is attacked (by a chariot, cannon over one screen, horse with its
    // leg free or soldier).
    bool in_check(Color c) const;
    bool in_check() const { return in_check(stm_); }
    // The two kings on one file with no man between them (never legal).
    bool kings_facing() const;

    // Whether moving the side to move's man from `from` to `to` (a pseudo-legal move) leaves its
    // king out of check and the kings not facing: answered on the sets of points, the position
    // unchanged.
    bool legal_after(int from, int to) const;
    // Where a man of colour c leaving or arriving may leave c's king attacked: the rays from the
    // king that hold an enemy chariot, cannon or the enemy king (a line opened, a cannon's screen
    // made or taken away, the kings' file opened) and the legs of the enemy horses that aim at
    // the king. Elsewhere a move of a man other than the king cannot change the king's safety
    // (soldiers attack through no other point), so when c is not in check only moves from or
    // to these points need legal_after().
    Points exposing_points(Color c) const;

    struct Undo {
        Piece captured;
    };
    Undo do_move(Move m);
    void undo_move(Move m, Undo u);

    void put_piece(Piece pc, int p);
    void remove_piece(int p);
    void move_piece(int from, int to);
    void set_side_to_move(Color c) { stm_ = c; }
    void clear() { *this = Position(); }

    // Empty when the position could occur in a game: one king per side in its palace, every man
    // on a point it can reach, no more men of a kind than the start has, the kings not facing,
    // the side not to move not in check. Otherwise a sentence naming what is wrong.
    std::string validity_error() const;

    // The position with Red and Black exchanged (ranks mirrored, side to move swapped), and its
    // left-right mirror.
    Position colour_swapped() const;
    Position mirrored() const;

    bool operator==(const Position& o) const { return board_ == o.board_ && stm_ == o.stm_; }
    // Whether colour c has a man that can ever give check (chariot, cannon, horse or soldier).
    bool armed(Color c) const {
        return count(c, CHARIOT) | count(c, CANNON) | count(c, HORSE) | count(c, SOLDIER);
    }

private:
    std::array<Piece, POINT_NB> board_ {};
    std::array<std::uint8_t, PIECE_NB> pieceCount_ {}; // men of each piece on the board
    // The same men as sets of points: check and the flying general are line tests on them.
    Points occupied_ = 0;
    std::array<Points, PIECE_NB> byPiece_ {};
    std::int8_t king_[COLOR_NB] = { -1, -1 };
    Color stm_ = RED;
    int fullmove_ = 1;
};

// Pseudo-legal moves (every move of the men's rules) and legal ones (the mover's king not left
// in check, the kings not left facing).
MoveList pseudo_moves(const Position& pos);
MoveList legal_moves(const Position& pos);
// The same, for a caller that knows already whether the side to move is in check (in_check()).
MoveList legal_moves(const Position& pos, bool in_check);
bool has_legal_move(const Position& pos);
// Xiangqi has no draw by stalemate: no legal move loses, in check or not.
std::uint64_t perft(Position& pos, int depth);

// Perpetual chase (docs/rules-xiangqi.md §5b): the kinds of the opponent's men (bit pt set)
// that the side to move's quiet move `m` chases: an attack the move creates (by the man moved, or
// one it uncovers: a line opened, a screen made, a leg freed) with a man that chases (not the
// king, not a soldier) on a man it could legally take that is not the king, a soldier only once
// across the river: a chariot attacked by a horse or cannon always, two men of one kind only
// where the one attacked cannot take back, every other man only where the other side has no
// legal recapture on its point. 0 for a capture.
unsigned chased_kinds(const Position& pos, Move m);

// "a1".."i10"; UCI move text as Fairy-Stockfish writes it ("h3e3", "a10a9").
std::string point_name(int p);
std::string move_to_uci(Move m);
// A UCI move of pos's legal moves; MOVE_NONE when none matches.
Move parse_uci_move(const Position& pos, std::string_view text);
char piece_char(Piece pc);

} // namespace mktb::xq

// position.cpp - FEN reading and writing, validity checks, make/unmake and attack queries of
// mktb::Position (see mktb/position.hpp).
#include "mktb/position.hpp"

#include "mktb/counting.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>
#include <vector>

namespace mktb {

namespace {

std::vector<std::string_view> split_fields(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
        const std::size_t start = i;
        while (i < s.size() && s[i] != ' ' && s[i] != '\t') ++i;
        if (i > start) out.push_back(s.substr(start, i - start));
    }
    return out;
}

// A non-negative decimal integer of at most 6 digits; -1 when malformed.
int parse_uint(std::string_view s) {
    if (s.empty() || s.size() > 6) return -1;
    int v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    return ec == std::errc() && p == s.data() + s.size() && v >= 0 ? v : -1;
}

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

} // namespace

std::string square_name(Square s) { return { char('a' + file_of(s)), char('1' + rank_of(s)) }; }

std::string move_to_uci(Move m) {
    return square_name(from_sq(m)) + square_name(to_sq(m)) + (is_promotion(m) ? "m" : "");
}

char piece_char(Piece p) {
    const char c = kRules[type_of(p)].letter;
    return color_of(p) == WHITE ? c : char(c - 'A' + 'a');
}

void Position::put_piece(Piece p, Square s) {
    board_[s] = p;
    byType_[type_of(p)] |= square_bb(s);
    byColor_[color_of(p)] |= square_bb(s);
}

void Position::remove_piece(Square s) {
    const Piece p = board_[s];
    byType_[type_of(p)] &= ~square_bb(s);
    byColor_[color_of(p)] &= ~square_bb(s);
    board_[s] = NO_PIECE;
}

void Position::move_piece(Square from, Square to) {
    const Piece p = board_[from];
    const Bitboard fromTo = square_bb(from) | square_bb(to);
    byType_[type_of(p)] ^= fromTo;
    byColor_[color_of(p)] ^= fromTo;
    board_[from] = NO_PIECE;
    board_[to] = p;
}

Bitboard Position::attackers_to(Square s, Bitboard occ) const {
    return attackers_to(WHITE, s, occ) | attackers_to(BLACK, s, occ);
}

Bitboard Position::attackers_to(Color c, Square s, Bitboard occ) const {
    // A man of colour c attacks s iff a man of the same kind and the other colour on s would
    // attack it back (Black's vectors are White's flipped), the trick Stockfish uses for pawns,
    // here needed for the Khon and the Bia as well. Kinds c does not have are skipped: endings
    // have few men.
    Bitboard a = 0;
    if (const Bitboard r = pieces(c, RUEA)) a |= rook_attacks(s, occ) & r;
    for (PieceType pt : { KHUN, MET, KHON, MA, BIA })
        if (const Bitboard p = pieces(c, pt)) a |= attacks_bb(~c, pt, s) & p;
    return a;
}

Bitboard Position::pinned(Color c) const {
    const Square ksq = king_square(c);
    Bitboard result = 0;
    Bitboard snipers = rook_attacks(ksq, 0) & pieces(~c, RUEA);
    const Bitboard occ = pieces();
    while (snipers) {
        const Bitboard b = between_bb(ksq, pop_lsb(snipers)) & occ;
        if (b && !more_than_one(b)) result |= b & pieces(c);
    }
    return result;
}

Position::Undo Position::do_move(Move m) {
    const Square from = from_sq(m), to = to_sq(m);
    const Undo u { board_[to] };
    if (u.captured != NO_PIECE) remove_piece(to);
    move_piece(from, to);
    if (is_promotion(m)) {
        remove_piece(to);
        put_piece(make_piece(stm_, MET), to);
    }
    if (stm_ == BLACK) ++fullmove_;
    stm_ = ~stm_;
    return u;
}

void Position::undo_move(Move m, Undo u) {
    stm_ = ~stm_;
    if (stm_ == BLACK) --fullmove_;
    const Square from = from_sq(m), to = to_sq(m);
    if (is_promotion(m)) {
        remove_piece(to);
        put_piece(make_piece(stm_, BIA), to);
    }
    move_piece(to, from);
    if (u.captured != NO_PIECE) put_piece(u.captured, to);
}

std::string Position::validity_error() const {
    static constexpr const char* kColorName[] = { "White", "Black" };
    for (Color c : { WHITE, BLACK }) {
        const int kings = count(c, KHUN);
        if (kings != 1)
            return std::string(kColorName[c]) + " has " + std::to_string(kings)
                + " kings (exactly one is required)";
    }
    for (Color c : { WHITE, BLACK }) {
        if (Bitboard bad = pieces(c, BIA) & ~kBiaSquares[c])
            return std::string(kColorName[c]) + " Bia on " + square_name(lsb(bad))
                + ", a square it can never occupy (" + (c == WHITE ? "ranks 3-5" : "ranks 6-4")
                + " only)";
        for (PieceType pt : { KHON, MA, RUEA })
            if (count(c, pt) > kStartCount[pt])
                return std::string(kColorName[c]) + " has " + std::to_string(count(c, pt)) + " "
                    + std::string(kRules[pt].name) + ", more than the start position allows ("
                    + std::to_string(kStartCount[pt]) + ")";
        if (count(c, BIA) + count(c, MET) > kStartCount[BIA] + kStartCount[MET])
            return std::string(kColorName[c]) + " has " + std::to_string(count(c, BIA))
                + " bia and " + std::to_string(count(c, MET))
                + " met, more than the start position allows (bia + met <= 9)";
    }
    if (attacks_bb(WHITE, KHUN, king_square(WHITE)) & pieces(BLACK, KHUN))
        return "the kings stand next to each other";
    if (attacked_by(stm_, king_square(~stm_), pieces()))
        return std::string("the side not to move (") + kColorName[~stm_] + ") is in check";
    return count_error(*this, count_);
}

Position Position::from_fen(std::string_view fen) {
    const auto f = split_fields(fen);
    if (f.empty()) throw FenError("empty FEN");
    if (f.size() < 2) throw FenError("FEN has no side-to-move field");
    if (f.size() > 6)
        throw FenError("FEN has " + std::to_string(f.size()) + " fields, at most 6 are allowed");

    Position pos;
    int rank = 7, file = 0;
    const std::string_view board = f[0];
    for (std::size_t i = 0; i < board.size(); ++i) {
        const char ch = board[i];
        if (ch == '/') {
            if (file != 8)
                throw FenError("rank " + std::to_string(rank + 1) + " has " + std::to_string(file)
                    + " squares, not 8");
            if (--rank < 0) throw FenError("board has more than 8 ranks");
            file = 0;
        } else if (ch >= '1' && ch <= '8') {
            file += ch - '0';
            if (file > 8)
                throw FenError("rank " + std::to_string(rank + 1) + " is longer than 8 squares");
        } else if (ch == '~') {
            // Fairy-Stockfish marks a promoted Bia as "M~": accepted after a Met only.
            if (i == 0 || (board[i - 1] != 'M' && board[i - 1] != 'm'))
                throw FenError("'~' (promoted Bia) must follow a Met letter M or m");
        } else {
            const bool white = ch >= 'A' && ch <= 'Z';
            const PieceType pt = piece_type_from_letter(white ? ch : char(ch - 'a' + 'A'));
            if (pt == NO_PIECE_TYPE || !((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z')))
                throw FenError(std::string("unknown piece letter '") + ch
                    + "' (Makruk uses K M S N R P, lower case for Black)");
            if (file >= 8)
                throw FenError("rank " + std::to_string(rank + 1) + " is longer than 8 squares");
            pos.put_piece(make_piece(white ? WHITE : BLACK, pt), make_square(file, rank));
            ++file;
        }
    }
    if (file != 8)
        throw FenError("rank " + std::to_string(rank + 1) + " has " + std::to_string(file)
            + " squares, not 8");
    if (rank != 0) throw FenError("board has " + std::to_string(8 - rank) + " ranks, not 8");

    if (f[1] == "w")
        pos.stm_ = WHITE;
    else if (f[1] == "b")
        pos.stm_ = BLACK;
    else
        throw FenError("side to move is " + quoted(f[1]) + ", expected 'w' or 'b'");

    if (f.size() > 2 && f[2] != "-")
        throw FenError("castling field is " + quoted(f[2]) + ", Makruk has no castling: use '-'");

    // Fields 4-5: the count (docs/rules.md §3.4). '-' or '0' for no count.
    const std::string_view limitText = f.size() > 3 ? f[3] : "-";
    const std::string_view plyText = f.size() > 4 ? f[4] : "0";
    const int limit = limitText == "-" ? 0 : parse_uint(limitText);
    const int ply = plyText == "-" ? 0 : parse_uint(plyText);
    if (limit < 0)
        throw FenError("count limit (field 4) is " + quoted(limitText)
            + ", expected '-' or a number of plies");
    if (ply < 0)
        throw FenError("count ply (field 5) is " + quoted(plyText) + ", expected a number");
    // The count's own rule (count_error) is checked with the rest of the position below.
    pos.count_ = { limit, ply };

    if (f.size() > 5) {
        const int n = parse_uint(f[5]);
        if (n < 1) throw FenError("move number (field 6) is " + quoted(f[5]) + ", expected >= 1");
        pos.fullmove_ = n;
    }

    if (std::string e = pos.validity_error(); !e.empty()) throw FenError(e);
    return pos;
}

std::string Position::fen() const {
    std::ostringstream os;
    for (int r = 7; r >= 0; --r) {
        int empties = 0;
        for (int f = 0; f < 8; ++f) {
            const Piece p = board_[make_square(f, r)];
            if (p == NO_PIECE) {
                ++empties;
                continue;
            }
            if (empties) os << empties;
            empties = 0;
            os << piece_char(p);
        }
        if (empties) os << empties;
        if (r) os << '/';
    }
    os << (stm_ == WHITE ? " w - " : " b - ");
    if (count_.limit)
        os << count_.limit << ' ' << count_.ply;
    else
        os << "- 0";
    os << ' ' << fullmove_;
    return os.str();
}

} // namespace mktb

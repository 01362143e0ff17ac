// position.cpp - the Xiangqi position: FEN, check and the flying general, moves and perft (see
// mktb/xiangqi/position.hpp).
#include "mktb/xiangqi/position.hpp"

#include <algorithm>
#include <charconv>

namespace mktb::xq {

namespace {

std::string man_name(Piece pc) {
    return std::string(color_of(pc) == RED ? "Red " : "Black ")
        + std::string(kRules[type_of(pc)].name);
}

} // namespace

char piece_char(Piece pc) {
    const char c = kRules[type_of(pc)].letter;
    return color_of(pc) == RED ? c : char(c - 'A' + 'a');
}

std::string point_name(int p) {
    return std::string(1, char('a' + file_of(p))) + std::to_string(rank_of(p) + 1);
}

std::string move_to_uci(Move m) { return point_name(from_pt(m)) + point_name(to_pt(m)); }

void Position::put_piece(Piece pc, int p) {
    if (board_[p] != NO_PIECE) --pieceCount_[board_[p]], byPiece_[board_[p]] &= ~point_bit(p);
    board_[p] = pc;
    ++pieceCount_[pc];
    byPiece_[pc] |= point_bit(p);
    occupied_ |= point_bit(p);
    if (type_of(pc) == KING) king_[color_of(pc)] = std::int8_t(p);
}

void Position::remove_piece(int p) {
    const Piece pc = board_[p];
    if (pc == NO_PIECE) return;
    if (type_of(pc) == KING && king_[color_of(pc)] == p) king_[color_of(pc)] = -1;
    --pieceCount_[pc];
    byPiece_[pc] &= ~point_bit(p);
    occupied_ &= ~point_bit(p);
    board_[p] = NO_PIECE;
}

void Position::move_piece(int from, int to) {
    const Piece pc = board_[from];
    board_[from] = NO_PIECE;
    --pieceCount_[pc];
    byPiece_[pc] &= ~point_bit(from);
    occupied_ &= ~point_bit(from);
    put_piece(pc, to);
}

bool Position::kings_facing() const {
    const int a = king_[RED], b = king_[BLACK];
    return a >= 0 && b >= 0 && file_of(a) == file_of(b) && !(between(a, b) & occupied_);
}

namespace {

// Calls f(point) for each point of a set until f returns true; whether one did.
template<class F>
bool any_point(Points set, F&& f) {
    for (std::uint64_t lo = std::uint64_t(set); lo; lo &= lo - 1)
        if (f(std::countr_zero(lo))) return true;
    for (std::uint64_t hi = std::uint64_t(set >> 64); hi; hi &= hi - 1)
        if (f(64 + std::countr_zero(hi))) return true;
    return false;
}

} // namespace

bool Position::in_check(Color c) const {
    // Each enemy man that can give check, tested against the king: a chariot on its line with
    // nothing between, a cannon with one man between, a horse whose leg is free, a soldier
    // next to it (from the points a soldier attacks it from).
    const int k = king_[c];
    const Color them = ~c;
    const auto line = [&](int between_men) {
        return [&, between_men](int p) {
            return aligned(p, k) && popcount(between(p, k) & occupied_) == between_men;
        };
    };
    if (any_point(byPiece_[make_piece(them, CHARIOT)], line(0))) return true;
    if (any_point(byPiece_[make_piece(them, CANNON)], line(1))) return true;
    if (any_point(byPiece_[make_piece(them, HORSE)] & detail::kLines.horseFrom[k],
            [&](int h) { return board_[detail::kLines.horseLeg[h][k]] == NO_PIECE; }))
        return true;
    if (count(them, SOLDIER)) {
        const auto& from = unleaps(them, SOLDIER, k);
        for (int i = 0; i < from.n; ++i)
            if (board_[from.leaps[i].to] == make_piece(them, SOLDIER)) return true;
    }
    return false;
}

bool Position::legal_after(int from, int to) const {
    const Color us = stm_, them = ~us;
    const Points occ = (occupied_ & ~point_bit(from)) | point_bit(to);
    const Points gone = ~point_bit(to); // a man captured on `to` attacks no more
    const int k = type_of(board_[from]) == KING ? to : king_[us];
    const int ek = king_[them];
    if (file_of(k) == file_of(ek) && !(between(k, ek) & occ)) return false;
    auto line = [&](Points men, int screens) {
        return any_point(men & gone,
            [&](int p) { return aligned(p, k) && popcount(between(p, k) & occ) == screens; });
    };
    if (line(byPiece_[make_piece(them, CHARIOT)], 0) || line(byPiece_[make_piece(them, CANNON)], 1))
        return false;
    if (any_point(byPiece_[make_piece(them, HORSE)] & gone & detail::kLines.horseFrom[k],
            [&](int h) { return !has_point(occ, detail::kLines.horseLeg[h][k]); }))
        return false;
    if (count(them, SOLDIER)) {
        const auto& from_ = unleaps(them, SOLDIER, k);
        for (int i = 0; i < from_.n; ++i)
            if (from_.leaps[i].to != to && board_[from_.leaps[i].to] == make_piece(them, SOLDIER))
                return false;
    }
    return true;
}

Position::Undo Position::do_move(Move m) {
    const int from = from_pt(m), to = to_pt(m);
    const Undo u { board_[to] };
    move_piece(from, to);
    if (stm_ == BLACK) ++fullmove_;
    stm_ = ~stm_;
    return u;
}

void Position::undo_move(Move m, Undo u) {
    const int from = from_pt(m), to = to_pt(m);
    stm_ = ~stm_;
    if (stm_ == BLACK) --fullmove_;
    move_piece(to, from);
    if (u.captured != NO_PIECE) put_piece(u.captured, to);
}

Points Position::exposing_points(Color c) const {
    const Color them = ~c;
    const int k = king_[c];
    const Points lines = byPiece_[make_piece(them, CHARIOT)] | byPiece_[make_piece(them, CANNON)]
        | point_bit(king_[them]);
    Points danger = 0;
    for (int d = 0; d < 4; ++d)
        if (detail::kLines.ray[d][k] & lines) danger |= detail::kLines.ray[d][k];
    any_point(byPiece_[make_piece(them, HORSE)] & detail::kLines.horseFrom[k], [&](int h) {
        danger |= point_bit(detail::kLines.horseLeg[h][k]);
        return false;
    });
    return danger;
}

namespace {

// Calls f(from, to) for each pseudo-legal move of the side to move, our men taken kind by kind
// from the sets of points (not a walk over the 90 points), until f returns true; whether one did.
template<class F>
bool any_pseudo_move(const Position& pos, F&& f) {
    const Color us = pos.side_to_move();
    for (int pt = KING; pt < PIECE_TYPE_NB; ++pt)
        if (any_point(pos.pieces(make_piece(us, PieceType(pt))), [&](int from) {
                if (pt == CHARIOT || pt == CANNON) {
                    for (int d = 0; d < 4; ++d) {
                        const std::int8_t* r = ray(d, from);
                        const int n = ray_length(d, from);
                        int i = 0;
                        for (; i < n && pos.empty(r[i]); ++i)
                            if (f(from, int(r[i]))) return true;
                        if (i == n) continue;
                        if (pt == CANNON) // over the screen to the next man
                            for (++i; i < n && pos.empty(r[i]);) ++i;
                        if (i < n && color_of(pos.piece_on(r[i])) != us && f(from, int(r[i])))
                            return true;
                    }
                    return false;
                }
                const auto& to = leaps(us, PieceType(pt), from);
                for (int i = 0; i < to.n; ++i) {
                    const auto [t, block] = to.leaps[i];
                    const Piece target = pos.piece_on(t);
                    if ((target == NO_PIECE || color_of(target) != us)
                        && (block < 0 || pos.empty(block)) && f(from, int(t)))
                        return true;
                }
                return false;
            }))
            return true;
    return false;
}

// Calls f(from, to) for each legal move until f returns true; whether one did. The full test
// (legal_after) runs only where a move can change the king's safety: every move in check, a
// king's move, a man leaving or entering one of exposing_points().
template<class F>
bool any_legal_move(const Position& pos, bool in_check, F&& f) {
    const Color us = pos.side_to_move();
    const Points test
        = in_check ? ~Points(0) : pos.exposing_points(us) | pos.pieces(make_piece(us, KING));
    return any_pseudo_move(pos, [&](int from, int to) {
        return (!(has_point(test, from) || has_point(test, to)) || pos.legal_after(from, to))
            && f(from, to);
    });
}

} // namespace

MoveList pseudo_moves(const Position& pos) {
    MoveList list;
    any_pseudo_move(pos, [&](int from, int to) {
        list.push(make_move(from, to));
        return false;
    });
    return list;
}

MoveList legal_moves(const Position& pos, bool in_check) {
    MoveList legal;
    any_legal_move(pos, in_check, [&](int from, int to) {
        legal.push(make_move(from, to));
        return false;
    });
    return legal;
}

MoveList legal_moves(const Position& pos) { return legal_moves(pos, pos.in_check()); }

bool has_legal_move(const Position& pos) {
    return any_legal_move(pos, pos.in_check(), [](int, int) { return true; });
}

std::uint64_t perft(Position& pos, int depth) {
    if (depth == 0) return 1;
    const MoveList moves = legal_moves(pos);
    if (depth == 1) return std::uint64_t(moves.size);
    std::uint64_t n = 0;
    for (Move m : moves) {
        const auto u = pos.do_move(m);
        n += perft(pos, depth - 1);
        pos.undo_move(m, u);
    }
    return n;
}

Move parse_uci_move(const Position& pos, std::string_view text) {
    for (Move m : legal_moves(pos))
        if (move_to_uci(m) == text) return m;
    return MOVE_NONE;
}

bool Position::is_xiangqi_fen(std::string_view fen) {
    const std::string_view board = fen.substr(0, fen.find(' '));
    return std::count(board.begin(), board.end(), '/') == RANK_NB - 1;
}

Position Position::from_fen(std::string_view fen) {
    Position pos;
    const std::size_t space = fen.find(' ');
    const std::string_view board = fen.substr(0, space);
    int rank = RANK_NB - 1, file = 0;
    for (std::size_t i = 0; i < board.size(); ++i) {
        const char ch = board[i];
        if (ch == '/') {
            if (file != FILE_NB)
                throw FenError("rank " + std::to_string(rank + 1) + " has " + std::to_string(file)
                    + " points, not 9");
            if (--rank < 0) throw FenError("more than 10 ranks");
            file = 0;
        } else if (ch >= '1' && ch <= '9') {
            file += ch - '0';
            if (file > FILE_NB)
                throw FenError("rank " + std::to_string(rank + 1) + " has more than 9 points");
        } else {
            const bool red = ch >= 'A' && ch <= 'Z';
            const PieceType pt = piece_type_from_letter(red ? ch : char(ch - 'a' + 'A'));
            if (pt == NO_PIECE_TYPE)
                throw FenError(std::string("'") + ch + "' is not a Xiangqi man (K A B N R C P)");
            if (file >= FILE_NB)
                throw FenError("rank " + std::to_string(rank + 1) + " has more than 9 points");
            const Color c = red ? RED : BLACK;
            if (pt == KING && pos.king_[c] >= 0)
                throw FenError(std::string(c == RED ? "Red" : "Black") + " has two kings");
            pos.put_piece(make_piece(c, pt), make_point(file, rank));
            ++file;
        }
    }
    if (rank != 0)
        throw FenError("the board must have 10 ranks of 9 points (a Xiangqi FEN), this one has "
            + std::to_string(RANK_NB - rank));
    if (file != FILE_NB) throw FenError("rank 1 has " + std::to_string(file) + " points, not 9");
    std::string_view rest = space == std::string_view::npos ? "" : fen.substr(space + 1);
    while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
    if (rest.empty()) throw FenError("the side to move is missing (w or b)");
    const std::string_view side = rest.substr(0, rest.find(' '));
    if (side == "w" || side == "r")
        pos.stm_ = RED;
    else if (side == "b")
        pos.stm_ = BLACK;
    else
        throw FenError("side to move '" + std::string(side) + "' is not w or b");
    // Fields 3-6 (castling, en passant: always '-'; the move clocks) are read, not needed.
    std::string_view fields[4];
    int nfields = 0;
    rest.remove_prefix(side.size());
    while (!rest.empty()) {
        while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
        if (rest.empty()) break;
        const std::size_t end = std::min(rest.find(' '), rest.size());
        if (nfields == 4) throw FenError("too many fields");
        fields[nfields++] = rest.substr(0, end);
        rest.remove_prefix(end);
    }
    for (int i = 0; i < std::min(nfields, 2); ++i)
        if (fields[i] != "-")
            throw FenError("field " + std::to_string(i + 3) + " must be '-' in Xiangqi");
    if (nfields == 4) {
        int full = 0;
        const auto [p, ec]
            = std::from_chars(fields[3].data(), fields[3].data() + fields[3].size(), full);
        if (ec != std::errc() || p != fields[3].data() + fields[3].size() || full < 1)
            throw FenError("move number '" + std::string(fields[3]) + "' is not a number from 1");
        pos.fullmove_ = full;
    }
    if (const std::string why = pos.validity_error(); !why.empty()) throw FenError(why);
    return pos;
}

std::string Position::fen() const {
    std::string s;
    for (int r = RANK_NB - 1; r >= 0; --r) {
        int gap = 0;
        for (int f = 0; f < FILE_NB; ++f) {
            const Piece pc = board_[make_point(f, r)];
            if (pc == NO_PIECE) {
                ++gap;
                continue;
            }
            if (gap) s += char('0' + gap), gap = 0;
            s += piece_char(pc);
        }
        if (gap) s += char('0' + gap);
        if (r) s += '/';
    }
    s += stm_ == RED ? " w - - 0 " : " b - - 0 ";
    return s + std::to_string(fullmove_);
}

std::string Position::validity_error() const {
    for (Color c : { RED, BLACK }) {
        const std::string side = c == RED ? "Red" : "Black";
        if (king_[c] < 0) return side + " has no king";
        for (int pt = KING; pt < PIECE_TYPE_NB; ++pt)
            if (count(c, PieceType(pt)) > kStartCount[pt])
                return side + " has " + std::to_string(count(c, PieceType(pt))) + " "
                    + std::string(kRules[pt].name) + "s, more than the "
                    + std::to_string(kStartCount[pt]) + " of the start position";
    }
    for (int p = 0; p < POINT_NB; ++p) {
        const Piece pc = board_[p];
        if (pc != NO_PIECE && !can_stand(color_of(pc), type_of(pc), p))
            return man_name(pc) + " on " + point_name(p) + ": a point it can never reach";
    }
    if (kings_facing()) return "the kings face each other on an open file";
    if (in_check(~stm_))
        return std::string(stm_ == RED ? "Black" : "Red") + " is in check but it is not its move";
    return "";
}

Position Position::colour_swapped() const {
    Position o;
    for (int p = 0; p < POINT_NB; ++p)
        if (board_[p] != NO_PIECE)
            o.put_piece(make_piece(~color_of(board_[p]), type_of(board_[p])), flip_rank(p));
    o.stm_ = ~stm_;
    o.fullmove_ = fullmove_;
    return o;
}

Position Position::mirrored() const {
    Position o;
    for (int p = 0; p < POINT_NB; ++p)
        if (board_[p] != NO_PIECE) o.put_piece(board_[p], mirror(p));
    o.stm_ = stm_;
    o.fullmove_ = fullmove_;
    return o;
}

} // namespace mktb::xq

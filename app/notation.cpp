// notation.cpp - standard algebraic notation for Makruk (see notation.hpp).
#include "notation.hpp"

#include "mktb/movegen.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

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

namespace mktb::cli {

namespace {

// What both notations say of a Xiangqi move: the man, its file and the file it reaches
// counted from the mover's right, the men of its kind on its file and its place among them
// from the front, the ranks it moves forward (negative: back), whether it moves straight.
struct XiangqiMove {
    Color us;
    xq::PieceType pt;
    int file, toFile, tandem, at, forward;
    bool straight;
};

XiangqiMove parts_of(const xq::Position& pos, xq::Move m) {
    using xq::file_of, xq::rank_of, xq::make_point, xq::FILE_NB, xq::RANK_NB, xq::RED;
    const int from = xq::from_pt(m), to = xq::to_pt(m);
    const xq::Piece pc = pos.piece_on(from);
    const Color us = xq::color_of(pc);
    const xq::PieceType pt = xq::type_of(pc);
    // Files from the mover's right; "forward" towards the other side.
    const auto fileNumber
        = [&](int p) { return us == RED ? FILE_NB - file_of(p) : file_of(p) + 1; };
    const int ahead = us == RED ? 1 : -1;
    // The men of this kind on the mover's file, foremost first.
    std::vector<int> tandem;
    for (int r = 0; r < RANK_NB; ++r)
        if (const int p = make_point(file_of(from), r); pos.piece_on(p) == pc) tandem.push_back(p);
    std::sort(tandem.begin(), tandem.end(),
        [&](int a, int b) { return ahead * (rank_of(a) - rank_of(b)) > 0; });
    return { us, pt, fileNumber(from), fileNumber(to), int(tandem.size()),
        int(std::find(tandem.begin(), tandem.end(), from) - tandem.begin()),
        (rank_of(to) - rank_of(from)) * ahead,
        pt == xq::KING || pt == xq::CHARIOT || pt == xq::CANNON || pt == xq::SOLDIER };
}

} // namespace

std::string wxf(const xq::Position& pos, xq::Move m) {
    using xq::file_of, xq::make_point, xq::FILE_NB, xq::RANK_NB;
    static constexpr char kLetter[] = { '?', 'K', 'A', 'E', 'H', 'R', 'C', 'P' };
    const XiangqiMove x = parts_of(pos, m);
    const int n = x.tandem, at = x.at;
    std::string out(1, kLetter[x.pt]);
    if (n == 1) {
        out += char('0' + x.file);
    } else {
        // Soldiers: another file with two or more of them names the file in place of the letter.
        const int from = xq::from_pt(m);
        const xq::Piece pc = pos.piece_on(from);
        bool twoFiles = false;
        if (x.pt == xq::SOLDIER)
            for (int f = 0; f < FILE_NB && !twoFiles; ++f) {
                if (f == file_of(from)) continue;
                int k = 0;
                for (int r = 0; r < RANK_NB; ++r) k += pos.piece_on(make_point(f, r)) == pc;
                twoFiles = k >= 2;
            }
        const bool foremost = at == 0, rearmost = at == n - 1;
        char where = foremost ? '+' : rearmost ? '-' : char('0' + x.file);
        if (n >= 4 && (foremost || rearmost)) // "++", "--": the letter gives way
            out = std::string(1, where);
        else if (n >= 4 && at == 1)
            where = '+';
        else if (n >= 4 && at == n - 2)
            where = '-';
        if (twoFiles) out = std::string(1, char('0' + x.file));
        out += where;
    }
    out += x.forward > 0 ? '+' : x.forward < 0 ? '-' : '=';
    out += char('0' + (x.straight && x.forward != 0 ? std::abs(x.forward) : x.toFile));
    return out;
}

std::string chinese(const xq::Position& pos, xq::Move m) {
    static constexpr const char* kMen[2][8] = { { "", "帥", "仕", "相", "傌", "俥", "炮", "兵" },
        { "", "將", "士", "象", "馬", "車", "砲", "卒" } };
    static constexpr const char* kNumerals[2][10]
        = { { "", "一", "二", "三", "四", "五", "六", "七", "八", "九" },
              { "", "１", "２", "３", "４", "５", "６", "７", "８", "９" } };
    const XiangqiMove x = parts_of(pos, m);
    const int side = x.us == xq::RED ? 0 : 1;
    std::string out;
    if (x.tandem == 1)
        out = std::string(kMen[side][x.pt]) + kNumerals[side][x.file];
    else if (x.tandem == 2)
        out = std::string(x.at == 0 ? "前" : "後") + kMen[side][x.pt];
    else if (x.tandem == 3)
        out = std::string(x.at == 0 ? "前" : x.at == 1 ? "中" : "後") + kMen[side][x.pt];
    else
        out = std::string(kNumerals[side][x.at + 1]) + kMen[side][x.pt];
    out += x.forward > 0 ? "進" : x.forward < 0 ? "退" : "平";
    out += kNumerals[side][x.straight && x.forward != 0 ? std::abs(x.forward) : x.toFile];
    return out;
}

} // namespace mktb::cli

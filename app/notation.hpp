// notation.hpp - moves as Makruk players write them (standard algebraic notation: K M S N R for
// Khun, Met, Khon, Ma, Ruea, no letter for a Bia, "=M" for a promotion, + and # for check and
// mate), for PGN and EPD files; Xiangqi moves as its players write them (WXF).
#pragma once

#include <string>

#include "mktb/position.hpp"
#include "mktb/xiangqi/position.hpp"

namespace mktb::cli {

// `m` must be legal in `pos`.
std::string san(const Position& pos, Move m);

// The World Xiangqi Federation's notation of `m`, legal in `pos`: the man (K A E H R C P), the
// file it stands on counted from its side's right (1-9), then + forward, - backward, = along the
// rank, then for a straight mover the ranks moved forward or back or the file it goes to, for
// a horse, advisor or elephant the file it goes to: "C2=5", "H8+7", "R1-2". Two men of a kind
// on one file are told apart by + (the front one) and - (the rear one) in place of the file
// ("R+=3"); soldiers three to five on a file as the WXF's tandem rules say ("P3=4" the middle
// one, "++=4" the foremost of four or five), with the file for the letter where two files hold
// tandem soldiers ("3+=4").
std::string wxf(const xq::Position& pos, xq::Move m);

// The same move as Chinese players write it (UTF-8): the man's character (Red 帥仕相傌俥炮兵,
// Black 將士象馬車砲卒), its file from the mover's right (Red in Chinese numerals 一-九, Black in
// full-width digits １-９), 進 forward, 退 back or 平 along the rank, then the ranks moved or the
// file reached as in WXF: "俥五進七", "炮２平５". Two men of a kind on a file are 前 and 後 in
// place of the file ("前俥平四"), three soldiers 前, 中, 後, more of them counted from the
// front in the mover's numerals ("二兵平六").
std::string chinese(const xq::Position& pos, xq::Move m);

} // namespace mktb::cli

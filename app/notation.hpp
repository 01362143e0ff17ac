// notation.hpp - moves as Makruk players write them (standard algebraic notation: K M S N R for
// Khun, Met, Khon, Ma, Ruea, no letter for a Bia, "=M" for a promotion, + and # for check and
// mate), for PGN and EPD files.
#pragma once

#include <string>

#include "mktb/position.hpp"

namespace mktb::cli {

// `m` must be legal in `pos`.
std::string san(const Position& pos, Move m);

} // namespace mktb::cli

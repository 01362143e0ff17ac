// random_xiangqi.hpp - reproducible random legal Xiangqi positions for the oracle tests.
#pragma once

#include <random>
#include <string_view>

#include "mktb/xiangqi/position.hpp"

namespace mktb::test {

// Up to `plies` random legal moves from the start (stops where the side to move has none).
xq::Position random_xiangqi_playout(std::mt19937_64& rng, int plies);

// Two kings plus the men of `men` (FEN letters, Red upper case, Black lower case, e.g. "Rab"),
// each on a random point it can reach, redrawn until the position is legal; random side to move.
xq::Position random_xiangqi_placement(std::mt19937_64& rng, std::string_view men);

} // namespace mktb::test

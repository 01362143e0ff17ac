// random_positions.hpp - reproducible random legal positions for property and oracle tests.
#pragma once

#include <random>

#include "mktb/index.hpp"

namespace mktb::test {

using Rng = std::mt19937_64;

// Plays up to `plies` random legal moves from the start position (stops at mate or stalemate).
Position random_playout(Rng& rng, int plies);

// Two kings plus `men - 2` random men (kinds M S N R P, random colours), redrawn until the
// position is legal. Bias are put next to promotion more often than uniform placement would.
Position random_placement(Rng& rng, int men);

// A random legal position of an index's material (random side to move) that has a legal move.
Position random_position_of(Rng& rng, const Index& index);

} // namespace mktb::test

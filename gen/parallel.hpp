// parallel.hpp - the one parallel loop of the generator and the verifier: [0, n) cut into blocks of
// slots, spread over oneTBB's threads, with progress reported per block.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "progress.hpp"

namespace mktb {

inline constexpr int kBlockShift = 12; // slots per unit of parallel work (and per level mask)
inline constexpr std::uint64_t kBlock = std::uint64_t(1) << kBlockShift;

// Runs fn(block, begin, end) over every block of [0, n), in parallel, as phase `phase`.
template<class Fn>
void parallel_blocks(std::uint64_t n, Progress* progress, const std::string& phase, Fn&& fn) {
    if (progress) progress->phase(phase, n);
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, (n + kBlock - 1) / kBlock),
        [&](const tbb::blocked_range<std::uint64_t>& r) {
            for (std::uint64_t b = r.begin(); b != r.end(); ++b) {
                const std::uint64_t end = std::min(n, (b + 1) * kBlock);
                fn(b, b * kBlock, end);
                if (progress) progress->advance(end - b * kBlock);
            }
        });
}

} // namespace mktb

// parallel.hpp - the one parallel loop of the generator and the verifier: [0, n) cut into blocks of
// slots, spread over oneTBB's threads, with progress reported per block.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <utility>
#include <vector>

#include "progress.hpp"

namespace mktb {

inline constexpr int kBlockShift = 12; // slots per unit of parallel work (and per level mask)
inline constexpr std::uint64_t kBlock = std::uint64_t(1) << kBlockShift;

// Runs fn(block, begin, end) over every block of [first, last) (first a multiple of kBlock), in
// parallel, as part of the phase in progress.
template<class Fn>
void parallel_blocks_in(std::uint64_t first, std::uint64_t last, Progress* progress, Fn&& fn) {
    tbb::parallel_for(
        tbb::blocked_range<std::uint64_t>(first / kBlock, (last + kBlock - 1) / kBlock),
        [&](const tbb::blocked_range<std::uint64_t>& r) {
            for (std::uint64_t b = r.begin(); b != r.end(); ++b) {
                const std::uint64_t end = std::min(last, (b + 1) * kBlock);
                fn(b, b * kBlock, end);
                if (progress) progress->advance(end - b * kBlock);
            }
        });
}

// Runs fn(block, begin, end) over every block of the runs [first, last) (each first a multiple
// of kBlock), in parallel, as phase `phase`.
template<class Fn>
void parallel_blocks_of(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& runs,
    Progress* progress, const std::string& phase, Fn&& fn) {
    std::uint64_t n = 0;
    for (const auto& [first, last] : runs) n += last - first;
    if (progress) progress->phase(phase, n);
    for (const auto& [first, last] : runs) parallel_blocks_in(first, last, progress, fn);
}

// Runs fn(block, begin, end) over every block of [0, n), in parallel, as phase `phase`.
template<class Fn>
void parallel_blocks(std::uint64_t n, Progress* progress, const std::string& phase, Fn&& fn) {
    if (progress) progress->phase(phase, n);
    parallel_blocks_in(0, n, progress, fn);
}

} // namespace mktb

// bench_perft.cpp - perft speed (nodes per second) on the start position and on endgames.
// Depth 5 of the start position is the published 6223994 (docs/rules.md §1); a wrong count aborts.
#include <benchmark/benchmark.h>

#include "mktb/movegen.hpp"

namespace {

void run_perft(benchmark::State& state, const char* fen, int depth, std::uint64_t expected) {
    mktb::Position pos = mktb::Position::from_fen(fen);
    std::uint64_t nodes = 0;
    for (auto _ : state) {
        nodes = mktb::perft(pos, depth);
        benchmark::DoNotOptimize(nodes);
    }
    if (expected && nodes != expected) state.SkipWithError("perft count differs from expected");
    state.counters["nodes"] = double(nodes);
    state.counters["nps"] = benchmark::Counter(
        double(nodes) * double(state.iterations()), benchmark::Counter::kIsRate);
}

} // namespace

BENCHMARK_CAPTURE(
    run_perft, startpos_d5, "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1", 5, 6223994)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run_perft, KRSvKM_d6, "4k3/3m4/8/8/8/2S5/8/R3K3 w - - 0 1", 6, 0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(run_perft, KNPPvKS_d6, "8/4k3/2s5/8/3PP3/5N2/8/4K3 w - - 0 1", 6, 0)
    ->Unit(benchmark::kMillisecond);

// bench_probe.cpp - probing speed (Google Benchmark): random DTM probes per second on one and two
// threads with a warm block cache, and cold probes (each the first touch of its block), for the
// endings named in $MKTB_BENCH_ENDINGS (default "KRvKM KRRMvK") from $MKTB_TABLES (default
// ./tables). scripts/bench-probe generates the tables and runs it.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <sstream>

#include "mktb/material.hpp"
#include "mktb/probe.hpp"

namespace {

using namespace mktb;

std::string tables_dir() {
    const char* env = std::getenv("MKTB_TABLES");
    return env && *env ? env : "tables";
}

// Random legal positions of an ending (in its table's orientation), and the block each touches.
struct Sample {
    std::vector<Position> positions;
    std::vector<std::uint64_t> blocks;
};

Sample sample(const Material& m, std::size_t n, std::uint64_t seed) {
    const Index index(m);
    std::mt19937_64 rng(seed);
    Sample s;
    while (s.positions.size() < n) {
        const std::uint64_t slot = rng() % index.size();
        Position pos;
        if (!index.decode(slot, pos)) continue;
        pos.set_side_to_move(Color(rng() & 1));
        if (pos.attacked_by(pos.side_to_move(), pos.king_square(~pos.side_to_move()), pos.pieces()))
            continue;
        s.positions.push_back(pos);
        s.blocks.push_back(std::uint64_t(pos.side_to_move()) << 40 | slot / kBlockCells);
    }
    return s;
}

const Prober& shared_prober() {
    static const Prober prober(tables_dir(), { std::size_t(1) << 30, {} }); // holds every block
    return prober;
}

void warm(benchmark::State& state, Material m) {
    const Prober& prober = shared_prober();
    const Sample s = sample(m, 1 << 16, 7 + std::uint64_t(state.thread_index()));
    for (const Position& pos : s.positions)
        if (!prober.dtm(pos)) {
            state.SkipWithError(("no table for " + m.name() + " in " + tables_dir()).c_str());
            return;
        }
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(prober.dtm(s.positions[i]));
        i = (i + 1) & (s.positions.size() - 1);
    }
    state.SetItemsProcessed(state.iterations());
}

void cold(benchmark::State& state, Material m) {
    // One position per block, so that every timed probe decompresses its block; a fresh
    // Prober (empty cache) per round. The file stays in the operating system's page cache.
    const Sample all = sample(m, 1 << 16, 11);
    std::vector<Position> distinct;
    std::map<std::uint64_t, bool> seen;
    for (std::size_t k = 0; k < all.positions.size(); ++k)
        if (!seen[all.blocks[k]]) seen[all.blocks[k]] = true, distinct.push_back(all.positions[k]);
    std::unique_ptr<Prober> prober;
    std::size_t i = distinct.size();
    for (auto _ : state) {
        if (i == distinct.size()) {
            state.PauseTiming();
            prober = std::make_unique<Prober>(tables_dir());
            if (!prober->tables().table(m)) {
                state.SkipWithError(("no table for " + m.name()).c_str());
                return;
            }
            i = 0;
            state.ResumeTiming();
        }
        benchmark::DoNotOptimize(prober->dtm(distinct[i++]));
    }
    state.SetItemsProcessed(state.iterations());
}

// Probes of a material the directory has no table for (KRRSvKM: 6 men), as an engine probing
// beyond its tables does on every node: answered from the list made at open, with no lock.
void absent(benchmark::State& state) {
    static const Prober prober(tables_dir());
    const Position pos = Position::from_fen("4k3/8/8/3m4/8/8/8/RRS1K3 w - - 0 1");
    for (auto _ : state) benchmark::DoNotOptimize(prober.dtm(pos));
    state.SetItemsProcessed(state.iterations());
}

const bool registered = [] {
    benchmark::RegisterBenchmark("probe_absent/KRRSvKM", absent)
        ->Threads(1)
        ->Threads(2)
        ->UseRealTime();
    const char* env = std::getenv("MKTB_BENCH_ENDINGS");
    std::istringstream names(env && *env ? env : "KRvKM KRRMvK");
    for (std::string name; names >> name;) {
        const std::optional<Material> m = Material::parse(name);
        if (!m) continue;
        benchmark::RegisterBenchmark(("probe_warm/" + name).c_str(), warm, *m)
            ->Threads(1)
            ->Threads(2)
            ->UseRealTime();
        benchmark::RegisterBenchmark(("probe_cold/" + name).c_str(), cold, *m);
    }
    return true;
}();

} // namespace

BENCHMARK_MAIN();

// bench_probe.cpp - probing speed (Google Benchmark): random DTM probes per second on one and two
// threads with a warm block cache, and cold probes (each the first touch of its block), for the
// endings named in $MKTB_BENCH_ENDINGS (default "KRvKM KRRMvK") from $MKTB_TABLES (default
// ./tables); with $MKTB_PACKED_TABLES (mktb pack's output) the same on packed tables, over all
// positions and over the side a packed table lacks alone (each probe a one-ply search).
// scripts/bench-probe generates and packs the tables and runs it.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <sstream>

#include "mktb/material.hpp"
#include "mktb/probe.hpp"
#include "tablebase.hpp"

namespace {

using namespace mktb;

std::string tables_dir() {
    const char* env = std::getenv("MKTB_TABLES");
    return env && *env ? env : "tables";
}

std::string packed_dir() {
    const char* env = std::getenv("MKTB_PACKED_TABLES");
    return env && *env ? env : "";
}

// Which positions a benchmark probes: of a directory (full or packed), and of one side to move
// only (the side a packed table lacks) or both.
struct Source {
    bool packed = false;
    bool searched_only = false;
    std::string dir() const { return packed ? packed_dir() : tables_dir(); }
};

// Random legal positions of an ending (in its table's orientation), and the block each touches.
struct Sample {
    std::vector<Position> positions;
    std::vector<std::uint64_t> blocks;
};

Sample sample(const Material& m, std::size_t n, std::uint64_t seed, int side = -1 /* both */) {
    const Index index(m);
    std::mt19937_64 rng(seed);
    Sample s;
    while (s.positions.size() < n) {
        const std::uint64_t slot = rng() % index.size();
        Position pos;
        if (!index.decode(slot, pos)) continue;
        pos.set_side_to_move(side < 0 ? Color(rng() & 1) : Color(side));
        if (pos.attacked_by(pos.side_to_move(), pos.king_square(~pos.side_to_move()), pos.pieces()))
            continue;
        s.positions.push_back(pos);
        s.blocks.push_back(std::uint64_t(pos.side_to_move()) << 40 | slot / kBlockCells);
    }
    return s;
}

const Prober& shared_prober(bool packed) {
    // 1 GiB: holds every block.
    static const Prober full(tables_dir(), { std::size_t(1) << 30, {} });
    static const Prober pack(
        packed_dir().empty() ? tables_dir() : packed_dir(), { std::size_t(1) << 30, {} });
    return packed ? pack : full;
}

// The side to move a packed table lacks (in its own colours); -1 for both sides.
int side_of(const Material& m, const Source& from) {
    const Tablebase tables(from.dir());
    const Table* t = tables.table(m);
    if (!from.searched_only || !t) return -1;
    return t->stores(WHITE) ? BLACK : WHITE;
}

void warm(benchmark::State& state, Material m, Source from) {
    const Prober& prober = shared_prober(from.packed);
    const Sample s = sample(m, 1 << 16, 7 + std::uint64_t(state.thread_index()), side_of(m, from));
    for (const Position& pos : s.positions)
        if (!prober.dtm(pos)) {
            state.SkipWithError(("no table for " + m.name() + " in " + from.dir()).c_str());
            return;
        }
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(prober.dtm(s.positions[i]));
        i = (i + 1) & (s.positions.size() - 1);
    }
    state.SetItemsProcessed(state.iterations());
}

void cold(benchmark::State& state, Material m, Source from) {
    // One position per block, so that every timed probe decompresses its block; a fresh
    // Prober (empty cache) per round. The file stays in the operating system's page cache. On
    // packed tables a probe of the lacking side touches a block per move: a fresh Prober per
    // probe, with every table opened before the clock runs.
    std::unique_ptr<Prober> prober = std::make_unique<Prober>(from.dir());
    const Sample all = sample(m, 1 << 16, 11, side_of(m, from));
    std::vector<Position> distinct;
    std::map<std::uint64_t, bool> seen;
    for (std::size_t k = 0; k < all.positions.size(); ++k)
        if (!seen[all.blocks[k]]) seen[all.blocks[k]] = true, distinct.push_back(all.positions[k]);
    std::size_t i = distinct.size();
    for (auto _ : state) {
        if (i == distinct.size() || from.packed) {
            state.PauseTiming();
            prober = std::make_unique<Prober>(from.dir());
            prober->open_tables();
            if (!prober->available(m)) {
                state.SkipWithError(("no table for " + m.name() + " in " + from.dir()).c_str());
                return;
            }
            if (i == distinct.size()) i = 0;
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
        benchmark::RegisterBenchmark(("probe_warm/" + name).c_str(), warm, *m, Source {})
            ->Threads(1)
            ->Threads(2)
            ->UseRealTime();
        benchmark::RegisterBenchmark(("probe_cold/" + name).c_str(), cold, *m, Source {});
        if (packed_dir().empty()) continue;
        for (const bool searched : { false, true }) {
            const std::string kind = searched ? "_packed_searched/" : "_packed/";
            benchmark::RegisterBenchmark(
                ("probe_warm" + kind + name).c_str(), warm, *m, Source { true, searched })
                ->Threads(1)
                ->Threads(2)
                ->UseRealTime();
            benchmark::RegisterBenchmark(
                ("probe_cold" + kind + name).c_str(), cold, *m, Source { true, searched });
        }
    }
    return true;
}();

} // namespace

BENCHMARK_MAIN();

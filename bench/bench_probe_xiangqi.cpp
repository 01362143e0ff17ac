// bench_probe_xiangqi.cpp - Xiangqi probing speed (Google Benchmark) through the C++ API
// (Prober::dtm, a position in, its distance to mate out): warm probes (random positions
// of an ending whose blocks are in the cache) and cold ones (each the first touch of its block:
// its 64 Ki cells decompressed, into a fresh process's memory; "miss": into a full cache's), for
// the endings in $MKTB_BENCH_ENDINGS (default KRAABBvKAABB KNAABBvKAABB) of the Xiangqi tables
// in $MKTB_TABLES. Beside them, in the same run and through the same kind of Prober, warm
// probes of the Makruk endings in $MKTB_MAKRUK_ENDINGS (default KRvKM; tables in $MKTB_TABLES
// too): the two games' warm probes compared. scripts/bench-xiangqi runs it.
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <random>
#include <set>
#include <sstream>

#include "mktb/probe.hpp"
#include "xiangqi_tables.hpp"

namespace {

using namespace mktb;

std::string env(const char* name, const char* fallback) {
    const char* v = std::getenv(name);
    return v && *v ? v : fallback;
}

// Random legal positions of an ending, each in a block of its own when `distinct`, else from its
// first 128 blocks of each side (what a warm cache of 64 MiB holds).
std::vector<xq::Position> sample(
    const xq::Material& m, std::size_t n, std::uint64_t seed, bool distinct) {
    const xq::Index index(m);
    std::mt19937_64 rng(seed);
    std::vector<xq::Position> out;
    std::set<std::uint64_t> blocks;
    while (out.size() < n) {
        const std::uint64_t slot
            = rng() % (distinct ? index.size() : std::min<std::uint64_t>(index.size(), 128u << 16));
        xq::Placement pl;
        if (!index.decode(slot, pl)) continue;
        const Color stm = Color(rng() & 1);
        const xq::Position pos = index.position(pl, stm);
        if (!pos.validity_error().empty()) continue;
        if (distinct && !blocks.insert(std::uint64_t(stm) << 40 | slot >> 16).second) continue;
        out.push_back(pos);
    }
    return out;
}

void warm(benchmark::State& state, xq::Material m) {
    const Prober prober(env("MKTB_TABLES", "tables"));
    const auto positions = sample(m, 4096, 1, false);
    for (const auto& p : positions) prober.dtm(p); // the blocks into the cache
    std::size_t i = 0;
    for (auto _ : state) benchmark::DoNotOptimize(prober.dtm(positions[i++ & 4095]));
}

// Makruk's warm probe as `warm` measures Xiangqi's: 4,096 random legal positions, a Prober of
// the default cache, the blocks read once before the clock runs.
void makruk_warm(benchmark::State& state, Material m) {
    const Prober prober(env("MKTB_TABLES", "tables"));
    const Index index(m);
    std::mt19937_64 rng(1);
    std::vector<Position> positions;
    while (positions.size() < 4096) {
        Position pos;
        if (!index.decode(rng() % index.size(), pos)) continue;
        pos.set_side_to_move(Color(rng() & 1));
        if (!pos.attacked_by(
                pos.side_to_move(), pos.king_square(~pos.side_to_move()), pos.pieces()))
            positions.push_back(pos);
    }
    for (const auto& p : positions)
        if (!prober.dtm(p)) return state.SkipWithError(("no table for " + m.name()).c_str());
    std::size_t i = 0;
    for (auto _ : state) benchmark::DoNotOptimize(prober.dtm(positions[i++ & 4095]));
}

void cold(benchmark::State& state, xq::Material m) {
    const auto positions = sample(m, 1000, 2, true); // of the ~5,400 blocks of the largest
    std::size_t i = 0;
    std::unique_ptr<Prober> prober;
    for (auto _ : state) {
        if (i % positions.size() == 0) { // a fresh handle: every block cold again
            state.PauseTiming();
            prober = std::make_unique<Prober>(env("MKTB_TABLES", "tables"));
            prober->dtm(positions[0]); // the file mapped and its header read
            state.ResumeTiming();
            ++i;
        }
        benchmark::DoNotOptimize(prober->dtm(positions[i++ % positions.size()]));
    }
}

// Cold again, but as in an engine that has probed for a while: the cache (8 MiB here) already
// full of other blocks, so each miss evicts one and its memory is reused. `cold` above also pays
// the kernel for the process's fresh pages (zeroed on first touch: most of its time here).
void miss(benchmark::State& state, xq::Material m) {
    const auto positions = sample(m, 1512, 3, true);
    const std::vector<xq::Position> filler(positions.begin() + 1000, positions.end());
    ProbeOptions small;
    small.cache_bytes = 8u << 20;
    const Prober prober(env("MKTB_TABLES", "tables"), small);
    for (const auto& p : filler) prober.dtm(p); // 512 blocks through a cache of 128
    std::size_t i = 0;
    for (auto _ : state) benchmark::DoNotOptimize(prober.dtm(positions[i++]));
}

} // namespace

int main(int argc, char** argv) {
    std::istringstream endings(env("MKTB_BENCH_ENDINGS", "KRAABBvKAABB KNAABBvKAABB"));
    for (std::string name; endings >> name;) {
        const xq::Material m = xq::Material::parse(name)->canonical();
        benchmark::RegisterBenchmark(("xiangqi_warm/" + name).c_str(), warm, m);
        benchmark::RegisterBenchmark(("xiangqi_cold/" + name).c_str(), cold, m)->Iterations(1000);
        benchmark::RegisterBenchmark(("xiangqi_miss/" + name).c_str(), miss, m)->Iterations(1000);
    }
    std::istringstream makruk(env("MKTB_MAKRUK_ENDINGS", "KRvKM"));
    for (std::string name; makruk >> name;)
        benchmark::RegisterBenchmark(
            ("makruk_warm/" + name).c_str(), makruk_warm, Material::parse(name)->canonical());
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
}

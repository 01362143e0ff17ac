// bench_probe_xiangqi.cpp - Xiangqi probing speed (Google Benchmark) through the C++ API
// (Prober::xiangqi_dtm, a position in, its distance to mate out): warm probes (random positions
// of an ending whose blocks are in the cache) and cold ones (each the first touch of its block:
// its 64 Ki cells decompressed, into a fresh process's memory; "miss": into a full cache's), for
// the endings in $MKTB_BENCH_ENDINGS (default KRAABBvKAABB KNAABBvKAABB) of the Xiangqi tables
// in $MKTB_TABLES. scripts/bench-xiangqi runs it.
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
    for (const auto& p : positions) prober.xiangqi_dtm(p); // the blocks into the cache
    std::size_t i = 0;
    for (auto _ : state) benchmark::DoNotOptimize(prober.xiangqi_dtm(positions[i++ & 4095]));
}

void cold(benchmark::State& state, xq::Material m) {
    const auto positions = sample(m, 1000, 2, true); // of the ~5,400 blocks of the largest
    std::size_t i = 0;
    std::unique_ptr<Prober> prober;
    for (auto _ : state) {
        if (i % positions.size() == 0) { // a fresh handle: every block cold again
            state.PauseTiming();
            prober = std::make_unique<Prober>(env("MKTB_TABLES", "tables"));
            prober->xiangqi_dtm(positions[0]); // the file mapped and its header read
            state.ResumeTiming();
            ++i;
        }
        benchmark::DoNotOptimize(prober->xiangqi_dtm(positions[i++ % positions.size()]));
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
    for (const auto& p : filler) prober.xiangqi_dtm(p); // 512 blocks through a cache of 128
    std::size_t i = 0;
    for (auto _ : state) benchmark::DoNotOptimize(prober.xiangqi_dtm(positions[i++]));
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
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
}

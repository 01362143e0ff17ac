// dont_cares.cpp - mktb_dont_cares DIR ENDING... [--blocks N]: what Syzygy's "don't care" cells
// would save on our DTM tables, and what restoring them would cost a probe (issue 14).
//
// A position needs no stored DTM when a probe can restore it by a one-ply look: it has no legal
// move (mated or stalemated), or its best conversion (capture or promotion, valued from the
// smaller table) gives its value. Such a cell may hold any value no better than the true one:
// the probe answers the better of the stored value and the best conversion. This program fills
// those cells with the cell before them where that is allowed (as the writer fills slots of no
// position), compresses a sample of N blocks per side to move (64 unless given) as the writer
// does, and compares with the cells as they are. Then it times, on random legal positions, a
// warm DTM probe against the same probe plus the restoration's one-ply look (legal moves, the
// conversions' children probed): the price every probe would pay.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>
#include <vector>

#include "mktb/material.hpp"
#include "mktb/movegen.hpp"
#include "mktb/probe.hpp"
#include "table_writer.hpp"
#include "tablebase.hpp"

namespace {

using namespace mktb;

// The best conversion of a legal position from its side to move's view (nullopt: none), and
// whether it has any legal move.
std::optional<Value> best_conversion(const Prober& prober, const Position& pos, bool& anyMove) {
    const MoveList moves = legal_moves(pos);
    anyMove = moves.size > 0;
    std::optional<Value> best;
    for (const Move m : moves) {
        if (!is_promotion(m) && pos.empty(to_sq(m))) continue;
        Position next = pos;
        next.do_move(m);
        const Value v = prober.dtm(next)->parent();
        if (!best || better(v, *best)) best = v;
    }
    return best;
}

struct Sample {
    std::size_t positions = 0, dontCares = 0, bytes = 0, bytesFilled = 0;
    Sample operator+(const Sample& o) const {
        return { positions + o.positions, dontCares + o.dontCares, bytes + o.bytes,
            bytesFilled + o.bytesFilled };
    }
};

Sample sample(const Prober& prober, const Table& t, std::uint64_t blocks) {
    const Index& index = t.index();
    const std::uint64_t size = index.size();
    const std::uint64_t total = (size + kBlockCells - 1) / kBlockCells;
    const std::uint64_t step = std::max<std::uint64_t>(1, total / blocks);
    const std::uint64_t perSide = (total + step - 1) / step;
    const int width = t.cell_bytes(Metric::Dtm);
    return tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, 2 * perSide, 1), Sample {},
        [&](const tbb::blocked_range<std::uint64_t>& r, Sample s) {
            std::vector<std::uint8_t> plain, filled;
            for (std::uint64_t j = r.begin(); j != r.end(); ++j) {
                const Color c = Color(j / perSide);
                const std::uint64_t first = j % perSide * step * kBlockCells;
                plain.clear(), filled.clear();
                unsigned last = 0, lastFilled = 0;
                auto put = [&](std::vector<std::uint8_t>& block, unsigned v) {
                    for (int byte = 0; byte < width; ++byte)
                        block.push_back(std::uint8_t(v >> (8 * byte)));
                };
                for (std::uint64_t i = first; i < std::min(size, first + kBlockCells); ++i) {
                    Position pos;
                    bool legal = index.decode(i, pos);
                    if (legal) {
                        pos.set_side_to_move(c);
                        legal = !pos.attacked_by(c, pos.king_square(~c), pos.pieces());
                    }
                    if (legal) {
                        ++s.positions;
                        const Value value = t.value(Metric::Dtm, c, i);
                        last = value.cell();
                        bool anyMove = false;
                        const std::optional<Value> conv = best_conversion(prober, pos, anyMove);
                        const bool dontCare = !anyMove || (conv && *conv == value);
                        s.dontCares += dontCare;
                        if (!dontCare || (anyMove && better(Value::from_cell(lastFilled), value)))
                            lastFilled = last;
                    }
                    put(plain, last), put(filled, lastFilled);
                }
                s.bytes += TableWriter::compressed_size(plain);
                s.bytesFilled += TableWriter::compressed_size(filled);
            }
            return s;
        },
        std::plus<>());
}

// Nanoseconds per warm DTM probe, without and with the restoration's one-ply look, on random
// legal positions of the table (the second of two passes: blocks in the cache).
std::pair<double, double> probe_cost(const Prober& prober, const Table& t) {
    const Index& index = t.index();
    std::mt19937_64 rng(2026);
    std::vector<Position> positions;
    while (positions.size() < 100000) {
        Position pos;
        if (!index.decode(rng() % index.size(), pos)) continue;
        const Color c = Color(rng() & 1);
        pos.set_side_to_move(c);
        if (!pos.attacked_by(c, pos.king_square(~c), pos.pieces())) positions.push_back(pos);
    }
    volatile long sink = 0; // keeps the probes
    double plain = 0, restored = 0;
    for (int pass = 0; pass < 2; ++pass) {
        auto start = std::chrono::steady_clock::now();
        for (const Position& pos : positions) sink = sink + prober.dtm(pos)->plies;
        plain = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        start = std::chrono::steady_clock::now();
        for (const Position& pos : positions) {
            bool anyMove;
            sink
                = sink + prober.dtm(pos)->plies + best_conversion(prober, pos, anyMove).has_value();
        }
        restored = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }
    const double n = double(positions.size());
    return { plain / n * 1e9, restored / n * 1e9 };
}

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string> endings;
    std::uint64_t blocks = 64;
    for (int i = 2; i < argc; ++i)
        if (!std::strcmp(argv[i], "--blocks") && i + 1 < argc)
            blocks = std::strtoull(argv[++i], nullptr, 10);
        else
            endings.push_back(argv[i]);
    if (argc < 3 || endings.empty() || !blocks) {
        std::fputs("usage: mktb_dont_cares DIR ENDING... [--blocks N]\n", stderr);
        return 2;
    }
    // A cache that holds every block the timing touches: warm means warm.
    const Prober prober(argv[1], { std::size_t(4) << 30, {} });
    const Tablebase tables(argv[1], std::size_t(1) << 30, true); // the tables' cells, read whole
    std::printf("%-10s %10s %7s %12s %12s %6s %9s %9s\n", "ending", "positions", "dc %",
        "dtm_sample", "dc_filled", "ratio", "probe_ns", "+restore");
    Sample all;
    for (const std::string& name : endings) {
        std::string error;
        const std::optional<Material> m = Material::parse(name, &error);
        const Table* t = m ? tables.table(m->canonical()) : nullptr;
        if (!t) {
            std::fprintf(stderr, "%s\n", m ? ("no table of " + name).c_str() : error.c_str());
            return 1;
        }
        t->make_resident();
        const Sample s = sample(prober, *t, blocks);
        const auto [plain, restored] = probe_cost(prober, *t);
        all = all + s;
        std::printf("%-10s %10zu %6.1f%% %12zu %12zu %6.3f %9.0f %9.0f\n", name.c_str(),
            s.positions, 100.0 * double(s.dontCares) / double(s.positions), s.bytes, s.bytesFilled,
            double(s.bytesFilled) / double(s.bytes), plain, restored);
        std::fflush(stdout);
    }
    std::printf("all samples: %zu -> %zu bytes (%.3f)\n", all.bytes, all.bytesFilled,
        double(all.bytesFilled) / double(all.bytes));
}

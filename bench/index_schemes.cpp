// index_schemes.cpp - mktb_index_schemes DIR [BLOCKS]: for every table file in DIR, what its
// cells take compressed in each index scheme (docs/format.md: the order of the men's digits),
// measured on BLOCKS blocks of every metric and side spread over the table (64 unless given),
// laid out as the writer lays them out (slots of no position repeat the cell before) and
// compressed as it compresses them. Prints per ending the sample's bytes in scheme 1 and 2, the
// ratio of the smaller to the file's own scheme, and the file size that ratio gives: an estimate
// of the set's size once generated again (the generator makes the same choice on 16 blocks).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>
#include <vector>

#include "mktb/material.hpp"
#include "mktb/position.hpp"
#include "table_writer.hpp"
#include "tablebase.hpp"

namespace {

using namespace mktb;

// The sample's compressed bytes with the cells laid out in `scheme`.
std::size_t sample_bytes(const Table& t, int scheme, std::uint64_t blocks) {
    const Index ix(t.index().material(), scheme);
    const std::uint64_t size = ix.size(), cells = kBlockCells;
    const std::uint64_t total = (size + cells - 1) / cells;
    const std::uint64_t step = std::max<std::uint64_t>(1, total / blocks);
    std::vector<std::pair<Metric, Color>> parts;
    for (int k = 0; k < int(Metric::NB); ++k)
        if (t.cell_bytes(Metric(k)))
            for (Color c : { WHITE, BLACK }) parts.emplace_back(Metric(k), c);
    const std::uint64_t perPart = (total + step - 1) / step;
    return tbb::parallel_reduce(
        tbb::blocked_range<std::uint64_t>(0, parts.size() * perPart, 1), std::size_t(0),
        [&](const tbb::blocked_range<std::uint64_t>& r, std::size_t bytes) {
            std::vector<std::uint8_t> block;
            for (std::uint64_t j = r.begin(); j != r.end(); ++j) {
                const auto [m, c] = parts[j / perPart];
                const std::uint64_t b = j % perPart * step;
                const int width = t.cell_bytes(m);
                block.clear();
                unsigned last = 0;
                for (std::uint64_t i = b * cells; i < std::min(size, (b + 1) * cells); ++i) {
                    Position pos;
                    if (ix.decode(i, pos) && !pos.attacked_by(c, pos.king_square(~c), pos.pieces()))
                        last = t.value(m, c, t.index().encode(pos)).cell();
                    for (int byte = 0; byte < width; ++byte)
                        block.push_back(std::uint8_t(last >> (8 * byte)));
                }
                bytes += TableWriter::compressed_size(block);
            }
            return bytes;
        },
        std::plus<>());
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3) {
        std::fputs("usage: mktb_index_schemes DIR [BLOCKS]\n", stderr);
        return 2;
    }
    const std::uint64_t blocks = argc == 3 ? std::strtoull(argv[2], nullptr, 10) : 64;
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(argv[1]))
        if (e.path().extension() == ".mktb") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    std::printf("%-10s %6s %12s %12s %12s %6s %12s\n", "ending", "scheme", "file_bytes", "sample_1",
        "sample_2", "ratio", "estimate");
    double file = 0, estimate = 0;
    for (const auto& path : files) {
        const std::optional<Material> m = Material::parse(path.stem().string());
        const Tablebase tables(argv[1]); // one table's cells in memory at a time
        const Table* t = m ? tables.table(*m) : nullptr;
        if (!t) continue;
        t->make_resident();
        const std::size_t one = sample_bytes(*t, Index::kSchemeNameOrder, blocks);
        const std::size_t two = sample_bytes(*t, Index::kSchemeWeakerFirst, blocks);
        const double own = double(t->index().scheme() == Index::kSchemeNameOrder ? one : two);
        const double ratio = double(std::min(one, two)) / own;
        file += double(t->file_bytes());
        estimate += double(t->file_bytes()) * ratio;
        std::printf("%-10s %6d %12llu %12zu %12zu %6.3f %12.0f\n", m->name().c_str(),
            t->index().scheme(), (unsigned long long)t->file_bytes(), one, two, ratio,
            double(t->file_bytes()) * ratio);
        std::fflush(stdout);
    }
    std::printf("all %zu files: %.0f bytes, estimated %.0f in the smaller scheme (%.3f)\n",
        files.size(), file, estimate, estimate / file);
}

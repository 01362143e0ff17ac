// table_writer.cpp - the table writer (see table_writer.hpp): blocks compressed in parallel with
// oneTBB (the bytes do not depend on the thread count), header and block index checksummed, the
// file written to a temporary name and renamed.
#include "table_writer.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>
#include <zstd.h>

namespace mktb {

namespace {

// zstd level 6: measured on KRvKS, KSMvK and KRvKN (2 threads), level 12 writes files 9 %
// smaller but compresses 2.7 times slower, which made compression a third of the generation
// time (level 3: 17 % larger, 4 times faster). The format does not depend on the level.
constexpr int kZstdLevel = 6;

} // namespace

TableWriter::TableWriter(const Material& m, std::uint32_t rules) {
    const Index index(m);
    TableHeader& h = header_;
    std::memcpy(h.magic, kTableMagic, sizeof h.magic);
    h.version = kTableVersion;
    h.header_bytes = sizeof(TableHeader);
    const std::string name = m.name();
    std::memcpy(h.signature, name.data(), std::min(name.size(), sizeof h.signature - 1));
    h.index_scheme = kIndexScheme;
    h.rules = rules;
    h.block_cells = kBlockCells;
    h.index_size = index.size();
    h.blocks_per_side = (index.size() + kBlockCells - 1) / kBlockCells;
}

void TableWriter::add(Metric metric, int cell_bytes,
    const std::span<const std::uint8_t> cells[COLOR_NB], const std::span<const std::uint8_t>* dtm,
    int dtm_bytes) {
    TableHeader& h = header_;
    h.metrics |= 1u << int(metric);
    h.cell_bytes[int(metric)] = std::uint8_t(cell_bytes);
    h.coding[int(metric)] = std::uint8_t(dtm ? Coding::XorDtm : Coding::Plain);
    if (dtm && (metric == Metric::Dtm || dtm_bytes > cell_bytes))
        throw TableError(std::string(h.signature) + ": a metric coded against DTM needs cells "
            + "at least as wide as DTM's");
    auto& frames = frames_[int(metric)];
    const std::size_t nblocks = std::size_t(2 * h.blocks_per_side);
    frames.assign(nblocks, {});
    // Blocks are independent zstd frames (with zstd's own content checksum), compressed in
    // parallel; the result does not depend on the thread count.
    std::atomic<bool> failed { false };
    struct Compressor {
        std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx { nullptr, &ZSTD_freeCCtx };
        std::vector<std::uint8_t> scratch; // one block's worst case, so frames take no more
        std::vector<std::uint8_t> coded; // a block XOR its DTM cells
    };
    // The cells of block b.
    auto block_span = [&](std::size_t b) {
        const Color c = Color(b / h.blocks_per_side);
        const std::uint64_t first = (b % h.blocks_per_side) * kBlockCells;
        const std::uint64_t n = std::min<std::uint64_t>(kBlockCells, h.index_size - first);
        return cells[c].subspan(first * std::uint64_t(cell_bytes), n * std::uint64_t(cell_bytes));
    };
    tbb::combinable<Compressor> compressors;
    tbb::parallel_for(std::size_t(0), nblocks, [&](std::size_t b) {
        auto& [cctx, scratch, coded] = compressors.local();
        if (!cctx) {
            scratch.resize(ZSTD_compressBound(std::size_t(kBlockCells) * std::size_t(cell_bytes)));
            cctx.reset(ZSTD_createCCtx());
            ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, kZstdLevel);
            ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
        }
        std::span<const std::uint8_t> block = block_span(b);
        if (dtm) {
            const Color c = Color(b / h.blocks_per_side);
            const std::uint64_t first = (b % h.blocks_per_side) * kBlockCells;
            const std::uint8_t* base = dtm[c].data() + first * std::uint64_t(dtm_bytes);
            coded.assign(block.begin(), block.end());
            const std::size_t n = block.size() / std::size_t(cell_bytes);
            for (std::size_t i = 0; i < n; ++i)
                for (int k = 0; k < dtm_bytes; ++k)
                    coded[i * std::size_t(cell_bytes) + std::size_t(k)]
                        ^= base[i * std::size_t(dtm_bytes) + std::size_t(k)];
            block = coded;
        }
        const std::size_t z = ZSTD_compress2(
            cctx.get(), scratch.data(), scratch.size(), block.data(), block.size());
        if (ZSTD_isError(z))
            failed = true;
        else
            frames[b].assign(scratch.begin(), scratch.begin() + std::ptrdiff_t(z));
    });
    if (failed) throw TableError(std::string(h.signature) + ": zstd compression failed");
}

void TableWriter::write(const std::string& path) const {
    // Block order: metrics in increasing number, then White to move, then Black to move.
    std::vector<const std::vector<std::uint8_t>*> blocks;
    for (const auto& frames : frames_)
        for (const auto& f : frames) blocks.push_back(&f);
    std::vector<std::uint64_t> offsets(blocks.size() + 1);
    // The header and the block index are followed by their own checksum, so a reader can
    // trust them without reading the whole file.
    offsets[0]
        = sizeof(TableHeader) + offsets.size() * sizeof(std::uint64_t) + sizeof(std::uint64_t);
    for (std::size_t b = 0; b < blocks.size(); ++b) offsets[b + 1] = offsets[b] + blocks[b]->size();

    // Whole or not at all: stream into a temporary file beside the target, then rename it.
    const std::string tmp = path + ".tmp";
    {
        errno = 0;
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f)
            throw TableError(
                "cannot create " + tmp + ": " + (errno ? std::strerror(errno) : "unknown error"));
        std::uint64_t sum = checksum64({});
        auto put = [&](const void* data, std::size_t n) {
            const auto* bytes = static_cast<const std::uint8_t*>(data);
            sum = checksum64(std::span(bytes, n), sum);
            f.write(reinterpret_cast<const char*>(bytes), std::streamsize(n));
        };
        put(&header_, sizeof header_);
        put(offsets.data(), offsets.size() * sizeof(std::uint64_t));
        const std::uint64_t indexSum = sum;
        put(&indexSum, sizeof indexSum);
        for (const auto* frame : blocks) put(frame->data(), frame->size());
        f.write(reinterpret_cast<const char*>(&sum), sizeof sum);
        f.flush();
        const int error = errno;
        f.close();
        if (!f) {
            std::remove(tmp.c_str());
            throw TableError("cannot write " + tmp + ": "
                + (error ? std::strerror(error) : "write failed") + "; no table was written");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const int error = errno;
        std::remove(tmp.c_str());
        throw TableError("cannot rename " + tmp + " to " + path + ": " + std::strerror(error));
    }
}

} // namespace mktb

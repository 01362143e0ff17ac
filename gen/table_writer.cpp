// table_writer.cpp - the table writer (see table_writer.hpp): blocks compressed in parallel with
// oneTBB (the bytes do not depend on the thread count), header and block index checksummed, the
// file written to a temporary name and renamed.
#include "table_writer.hpp"

#include <algorithm>
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
    const std::span<const std::uint8_t> cells[COLOR_NB], const DontCare& dont_care,
    const std::span<const std::uint8_t>* dtm, int dtm_bytes) {
    TableHeader& h = header_;
    if (dtm && metric == Metric::Dtm)
        throw TableError(std::string(h.signature) + ": DTM cannot be coded against itself");
    h.metrics |= 1u << int(metric);
    const std::size_t nblocks = std::size_t(2 * h.blocks_per_side);
    const std::size_t width = std::size_t(cell_bytes), dtmWidth = std::size_t(dtm_bytes);
    // Cells coded against DTM are as wide as the wider of the two.
    auto width_of = [&](Coding coding) {
        return coding == Coding::XorDtm ? std::max(width, dtmWidth) : width;
    };
    auto is_dont_care = [&](Color c, std::uint64_t i) {
        return !dont_care[c].empty() && (dont_care[c][i >> 6] >> (i & 63) & 1);
    };
    // Block b's cells as stored under `coding` (little-endian). Plain: a don't-care slot repeats
    // the cell before it, which lengthens runs; XOR DTM: it stores 0 (the XOR of equal cells).
    auto code_block = [&](std::size_t b, Coding coding, std::vector<std::uint8_t>& out) {
        const Color c = Color(b / h.blocks_per_side);
        const std::uint64_t first = (b % h.blocks_per_side) * kBlockCells;
        const std::uint64_t n = std::min<std::uint64_t>(kBlockCells, h.index_size - first);
        const std::size_t w = width_of(coding);
        const std::uint8_t* in = cells[c].data() + first * width;
        const std::uint8_t* base
            = coding == Coding::XorDtm ? dtm[c].data() + first * dtmWidth : nullptr;
        out.assign(n * w, 0);
        for (std::uint64_t i = 0; i < n; ++i) {
            std::uint8_t* cell = out.data() + i * w;
            if (is_dont_care(c, first + i)) {
                if (!base && i > 0) std::copy_n(cell - w, w, cell);
                continue;
            }
            std::copy_n(in + i * width, width, cell);
            if (base)
                for (std::size_t k = 0; k < dtmWidth; ++k) cell[k] ^= base[i * dtmWidth + k];
        }
    };
    // Blocks are independent zstd frames (with zstd's own content checksum), compressed in
    // parallel; the result does not depend on the thread count.
    struct Compressor {
        std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx { nullptr, &ZSTD_freeCCtx };
        std::vector<std::uint8_t> scratch; // one block's worst case, so frames take no more
        std::vector<std::uint8_t> coded; // one block as stored
    };
    tbb::combinable<Compressor> compressors;
    // Compresses the blocks b with fn(b) true into frames[b] under `coding`; returns their bytes.
    auto compress = [&](Coding coding, std::vector<std::vector<std::uint8_t>>& frames, auto&& fn) {
        frames.resize(nblocks);
        std::atomic<bool> failed { false };
        std::atomic<std::uint64_t> bytes { 0 };
        tbb::parallel_for(std::size_t(0), nblocks, [&](std::size_t b) {
            if (!fn(b)) return;
            auto& [cctx, scratch, coded] = compressors.local();
            if (!cctx) {
                scratch.resize(ZSTD_compressBound(std::size_t(kBlockCells) * 2)); // widest
                cctx.reset(ZSTD_createCCtx());
                ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, kZstdLevel);
                ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
            }
            code_block(b, coding, coded);
            const std::size_t z = ZSTD_compress2(
                cctx.get(), scratch.data(), scratch.size(), coded.data(), coded.size());
            if (ZSTD_isError(z)) {
                failed = true;
                return;
            }
            frames[b].assign(scratch.begin(), scratch.begin() + std::ptrdiff_t(z));
            bytes += z;
        });
        if (failed) throw TableError(std::string(h.signature) + ": zstd compression failed");
        return bytes.load();
    };
    // With a DTM to code against, the coding that compresses a sample of the blocks smaller is
    // kept: the Bia-phase metric is DTM's almost everywhere when the Bia is the winner's (KSPvK:
    // XOR halves the file) but not when it is the defender's (KRvKP: XOR would make the file
    // 21 % larger). Every 4th block (all of a small table) chose as the whole table does on
    // every 4-men ending; every 16th chose wrong on two (KMPvK, KSvKP).
    auto& frames = frames_[int(metric)];
    frames.assign(nblocks, {});
    Coding coding = Coding::Plain;
    if (dtm) {
        const std::size_t stride = nblocks < 64 ? 1 : 4;
        auto sampled = [&](std::size_t b) { return b % stride == 0; };
        std::vector<std::vector<std::uint8_t>> xored;
        if (compress(Coding::XorDtm, xored, sampled) < compress(Coding::Plain, frames, sampled)) {
            frames = std::move(xored);
            coding = Coding::XorDtm;
        }
        compress(coding, frames, [&](std::size_t b) { return !sampled(b); });
    } else {
        compress(coding, frames, [](std::size_t) { return true; });
    }
    h.coding[int(metric)] = std::uint8_t(coding);
    h.cell_bytes[int(metric)] = std::uint8_t(width_of(coding));
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

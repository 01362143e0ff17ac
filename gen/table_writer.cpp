// table_writer.cpp - the table writer (see table_writer.hpp): blocks compressed in parallel with
// oneTBB (the bytes do not depend on the thread count) and streamed to a temporary file, header
// and block index written in front and checksummed at the end, the file renamed when whole.
#include "table_writer.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
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

// zstd level 1: the generated tables are the generator's and verifier's working files, written
// and read again at once; `mktb pack` makes the small ones to ship (level 12). A higher level
// here costs the output phase much more time than the few percent of size it saves
// (docs/measurements.md). The format does not depend on the level.
constexpr int kZstdLevel = 1;

// Ends a table file whose blocks are written after room for the header and block index: writes
// those at the front, their checksum after them, and at the end the checksum of every byte
// before it (the blocks read back, from the page cache as they were just written). put(data,
// n) writes at the file's position; fail(what) throws.
template<class Put, class Fail>
void finish_table_file(std::FILE* file, const TableHeader& header,
    const std::vector<std::uint64_t>& offsets, Put&& put, Fail&& fail) {
    errno = 0;
    if (std::fflush(file) != 0 || std::fseek(file, 0, SEEK_SET) != 0) fail("seek failed");
    std::uint64_t sum
        = checksum64(std::span(reinterpret_cast<const std::uint8_t*>(&header), sizeof header));
    sum = checksum64(std::span(reinterpret_cast<const std::uint8_t*>(offsets.data()),
                         offsets.size() * sizeof(std::uint64_t)),
        sum);
    const std::uint64_t indexSum = sum;
    sum = checksum64(
        std::span(reinterpret_cast<const std::uint8_t*>(&indexSum), sizeof indexSum), sum);
    put(&header, sizeof header);
    put(offsets.data(), offsets.size() * sizeof(std::uint64_t));
    put(&indexSum, sizeof indexSum);
    errno = 0;
    if (std::fflush(file) != 0) fail("flush failed"); // a stream turns from writing to reading
    std::vector<std::uint8_t> chunk(std::size_t(1) << 20);
    for (std::uint64_t at = offsets[0]; at < offsets.back();) {
        const auto n = std::size_t(std::min<std::uint64_t>(chunk.size(), offsets.back() - at));
        errno = 0;
        if (std::fread(chunk.data(), 1, n, file) != n) fail("read back failed");
        sum = checksum64(std::span(chunk.data(), n), sum);
        at += n;
    }
    errno = 0;
    if (std::fseek(file, 0, SEEK_END) != 0) fail("seek failed");
    put(&sum, sizeof sum);
}

} // namespace

TableWriter::TableWriter(
    const Material& m, std::uint32_t rules, std::string path, int metrics, bool writes)
    : TableWriter(
        [&] {
            const Index index(m);
            return TableKey { Game::Makruk, m.name(), index.size(), std::uint32_t(index.scheme()) };
        }(),
        rules, std::move(path), metrics, writes) { }

TableWriter::TableWriter(
    const TableKey& key, std::uint32_t rules, std::string path, int metrics, bool writes)
    : writes_(writes)
    , path_(std::move(path))
    , tmp_(path_ + ".tmp")
    , metrics_(metrics)
    , level_(kZstdLevel) {
    TableHeader& h = header_;
    std::memcpy(h.magic, kTableMagic, sizeof h.magic);
    h.version = kTableVersion;
    h.header_bytes = sizeof(TableHeader);
    h.sides = kBothSides;
    h.game = std::uint32_t(key.game);
    std::memcpy(h.signature, key.name.data(), std::min(key.name.size(), sizeof h.signature - 1));
    h.index_scheme = key.scheme;
    h.rules = rules;
    h.block_cells = key.block_cells;
    h.index_size = key.cells;
    h.blocks_per_side = (key.cells + key.block_cells - 1) / key.block_cells;
    // The header and the block index come first, followed by their own checksum (so a reader can
    // trust them without reading the whole file): room is kept for them, filled by commit().
    offsets_.assign(std::size_t(metrics) * 2 * h.blocks_per_side + 1, 0);
    offsets_[0]
        = sizeof(TableHeader) + offsets_.size() * sizeof(std::uint64_t) + sizeof(std::uint64_t);
    if (!writes_) return; // another rank writes the file
    errno = 0;
    file_ = std::fopen(tmp_.c_str(), "w+b");
    if (!file_)
        throw TableError(
            "cannot create " + tmp_ + ": " + (errno ? std::strerror(errno) : "unknown error"));
    const std::vector<std::uint8_t> room(offsets_[0], 0);
    put(room.data(), room.size());
}

std::size_t TableWriter::compressed_size(std::span<const std::uint8_t> block) {
    thread_local std::vector<std::uint8_t> out;
    out.resize(ZSTD_compressBound(block.size()));
    const std::size_t z
        = ZSTD_compress(out.data(), out.size(), block.data(), block.size(), kZstdLevel);
    if (ZSTD_isError(z)) throw TableError("zstd compression failed");
    return z;
}

TableWriter::~TableWriter() {
    if (!file_) return;
    std::fclose(file_); // not committed: no table
    std::remove(tmp_.c_str());
}

// Blocks first .. last - 1 of every rank into `frames` on rank 0, each rank sending its own as
// records of (block, bytes, frame).
void TableWriter::gather(
    std::vector<std::vector<std::uint8_t>>& frames, std::size_t first, std::size_t last) {
    std::vector<std::uint8_t> out;
    for (std::size_t b = first; b < last; ++b) {
        if (!mine(b)) continue;
        const std::uint64_t head[2] = { b, frames[b].size() };
        const auto* bytes = reinterpret_cast<const std::uint8_t*>(head);
        out.insert(out.end(), bytes, bytes + sizeof head);
        out.insert(out.end(), frames[b].begin(), frames[b].end());
    }
    std::vector<std::vector<std::uint8_t>> in = ranks_->gather(out);
    for (std::size_t r = 1; r < in.size(); ++r)
        for (std::size_t at = 0; at + 16 <= in[r].size();) {
            std::uint64_t head[2];
            std::memcpy(head, in[r].data() + at, sizeof head);
            at += sizeof head;
            frames[head[0]].assign(
                in[r].begin() + std::ptrdiff_t(at), in[r].begin() + std::ptrdiff_t(at + head[1]));
            at += head[1];
        }
}

void TableWriter::fail(const std::string& what) {
    const int error = errno;
    if (file_) std::fclose(file_), file_ = nullptr;
    std::remove(tmp_.c_str());
    throw TableError("cannot write " + tmp_ + ": " + (error ? std::strerror(error) : what)
        + "; no table was written");
}

bool TableWriter::mine(std::size_t block) const {
    return !mine_ || mine_((block % header_.blocks_per_side) * header_.block_cells);
}

void TableWriter::put(const void* data, std::size_t n) {
    errno = 0;
    if (n && std::fwrite(data, 1, n, file_) != n) fail("write failed");
}

void TableWriter::add(Metric metric, int cell_bytes,
    const std::span<const std::uint8_t> cells[COLOR_NB], const DontCare& dont_care,
    const std::span<const std::uint8_t>* dtm, int dtm_bytes) {
    add(
        metric, cell_bytes,
        [&](Color c, std::uint64_t first, std::size_t, std::uint8_t*) {
            return cells[c].data() + first * std::size_t(cell_bytes);
        },
        dont_care, dtm, dtm_bytes);
}

namespace {

// What a metric's blocks are coded from (TableWriter::add's arguments).
struct BlockSource {
    const TableHeader& h;
    const TableWriter::CellSource& cells;
    const TableWriter::DontCare& dontCare;
    const std::span<const std::uint8_t>* dtm; // DTM's cells, to code against (or nullptr)
    std::size_t width, dtmWidth; // bytes per cell of the metric and of DTM
};

// Block b's cells as stored under `coding`, `w` bytes each (little-endian). Plain: a don't-care
// slot repeats the cell before it, which lengthens runs; XOR DTM: it stores 0 (the XOR of equal
// cells). `raw` holds the block as the source gives it.
void code_block(const BlockSource& s, std::size_t b, Coding coding, std::size_t w,
    std::vector<std::uint8_t>& raw, std::vector<std::uint8_t>& out) {
    const TableHeader& h = s.h;
    const std::size_t width = s.width, dtmWidth = s.dtmWidth;
    const Color c = Color(b / h.blocks_per_side);
    const std::uint64_t first = (b % h.blocks_per_side) * h.block_cells;
    const std::uint64_t n = std::min<std::uint64_t>(h.block_cells, h.index_size - first);
    raw.resize(n * width);
    const std::uint8_t* in = s.cells(c, first, n, raw.data());
    const std::uint8_t* base
        = coding == Coding::XorDtm ? s.dtm[c].data() + first * dtmWidth : nullptr;
    out.assign(n * w, 0);
    // 64 slots (one word of the mask; a block is a whole number of words) at a time: the
    // words with no don't-care slot, nearly all, copied whole.
    static_assert(kBlockCells % 64 == 0); // and every block size a TableKey gives
    for (std::uint64_t i0 = 0; i0 < n; i0 += 64) {
        const std::uint64_t m = std::min<std::uint64_t>(64, n - i0);
        const std::uint64_t dc = s.dontCare[c].empty() ? 0 : s.dontCare[c][(first + i0) >> 6];
        if (!dc && w == width && (!base || dtmWidth == width)) {
            std::uint8_t* o = out.data() + i0 * w;
            std::copy_n(in + i0 * width, m * width, o);
            if (base)
                for (std::uint64_t t = 0; t < m * w; ++t) o[t] ^= base[i0 * w + t];
            continue;
        }
        for (std::uint64_t i = i0; i < i0 + m; ++i) {
            std::uint8_t* cell = out.data() + i * w;
            if (dc >> (i & 63) & 1) {
                if (!base && i > 0) std::copy_n(cell - w, w, cell);
                continue;
            }
            std::copy_n(in + i * width, width, cell);
            if (base)
                for (std::size_t k = 0; k < dtmWidth; ++k) cell[k] ^= base[i * dtmWidth + k];
        }
    }
}

} // namespace

void TableWriter::add(Metric metric, int cell_bytes, const CellSource& cells,
    const DontCare& dont_care, const std::span<const std::uint8_t>* dtm, int dtm_bytes) {
    TableHeader& h = header_;
    if ((writes_ && !file_) || added_ == metrics_ || h.metrics >> int(metric))
        throw TableError(std::string(h.signature) + ": " + std::to_string(metrics_)
            + " metrics are added once each, in increasing order, before commit()");
    if (dtm && metric == Metric::Dtm)
        throw TableError(std::string(h.signature) + ": DTM cannot be coded against itself");
    h.metrics |= 1u << int(metric);
    const std::size_t nblocks = std::size_t(2 * h.blocks_per_side);
    const std::size_t width = std::size_t(cell_bytes), dtmWidth = std::size_t(dtm_bytes);
    // Cells coded against DTM are as wide as the wider of the two.
    auto width_of = [&](Coding coding) {
        return coding == Coding::XorDtm ? std::max(width, dtmWidth) : width;
    };
    const BlockSource source { h, cells, dont_care, dtm, width, dtmWidth };
    auto code_block = [&](std::size_t b, Coding coding, std::vector<std::uint8_t>& raw,
                          std::vector<std::uint8_t>& out) {
        mktb::code_block(source, b, coding, width_of(coding), raw, out);
    };
    // Blocks are independent zstd frames (with zstd's own content checksum), compressed in
    // parallel; the result does not depend on the thread count.
    struct Compressor {
        std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx { nullptr, &ZSTD_freeCCtx };
        std::vector<std::uint8_t> scratch; // one block's worst case, so frames take no more
        std::vector<std::uint8_t> raw; // one block as the source gives it
        std::vector<std::uint8_t> coded; // one block as stored
    };
    tbb::combinable<Compressor> compressors;
    // Compresses the blocks first .. last - 1 with fn(b) true into frames[b] under `coding`;
    // returns their bytes.
    auto compress = [&](Coding coding, std::vector<std::vector<std::uint8_t>>& frames,
                        std::size_t first, std::size_t last, auto&& fn) {
        std::atomic<bool> failed { false };
        std::atomic<std::uint64_t> bytes { 0 };
        tbb::parallel_for(first, last, [&](std::size_t b) {
            if (!fn(b) || !mine(b)) return;
            auto& [cctx, scratch, raw, coded] = compressors.local();
            if (!cctx) {
                scratch.resize(ZSTD_compressBound(std::size_t(h.block_cells) * 2)); // widest
                cctx.reset(ZSTD_createCCtx());
                ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, level_);
                ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
            }
            code_block(b, coding, raw, coded);
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
    std::vector<std::vector<std::uint8_t>> frames(nblocks);
    Coding coding = Coding::Plain;
    std::size_t stride = 0; // every stride-th block is compressed already (0: none)
    if (dtm) {
        stride = nblocks < 64 ? 1 : 4;
        auto sampled = [&](std::size_t b) { return b % stride == 0; };
        std::vector<std::vector<std::uint8_t>> xored(nblocks);
        std::uint64_t sizes[2] = { compress(Coding::XorDtm, xored, 0, nblocks, sampled),
            compress(Coding::Plain, frames, 0, nblocks, sampled) };
        if (ranks_) ranks_->reduce(sizes, Ranks::Op::Sum); // every rank's blocks
        if (sizes[0] < sizes[1]) {
            frames = std::move(xored);
            coding = Coding::XorDtm;
        }
    }
    // The rest in runs of blocks, each run appended to the file in order and freed: the
    // compressed metric is never in memory whole.
    constexpr std::size_t kRun = 256;
    const std::size_t base = std::size_t(added_) * nblocks;
    for (std::size_t first = 0; first < nblocks; first += kRun) {
        const std::size_t last = std::min(nblocks, first + kRun);
        compress(coding, frames, first, last,
            [&](std::size_t b) { return stride == 0 || b % stride != 0; });
        if (ranks_ && ranks_->size() > 1) gather(frames, first, last);
        if (!writes_) { // another rank writes them
            for (std::size_t b = first; b < last; ++b) std::vector<std::uint8_t>().swap(frames[b]);
            continue;
        }
        for (std::size_t b = first; b < last; ++b) {
            put(frames[b].data(), frames[b].size());
            offsets_[base + b + 1] = offsets_[base + b] + frames[b].size();
            std::vector<std::uint8_t>().swap(frames[b]);
        }
    }
    ++added_;
    h.coding[int(metric)] = std::uint8_t(coding);
    h.cell_bytes[int(metric)] = std::uint8_t(width_of(coding));
}

void TableWriter::commit() {
    if (!writes_ && added_ == metrics_) return; // another rank writes the file
    if (!file_ || added_ != metrics_)
        throw TableError(std::string(header_.signature) + ": " + std::to_string(added_) + " of "
            + std::to_string(metrics_) + " metrics added at commit()");
    finish_table_file(
        file_, header_, offsets_, [&](const void* d, std::size_t n) { put(d, n); },
        [&](const char* what) { fail(what); });
    errno = 0;
    const int closed = std::fclose(file_);
    file_ = nullptr;
    if (closed != 0) fail("close failed");
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
        const int error = errno;
        std::remove(tmp_.c_str());
        throw TableError("cannot rename " + tmp_ + " to " + path_ + ": " + std::strerror(error));
    }
}

namespace {

// The whole file at `path`, its checksum checked.
std::vector<std::uint8_t> read_checked(const std::string& path) {
    std::vector<std::uint8_t> in;
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    in.resize(std::size_t(file.tellg()));
    file.seekg(0);
    if (!file.read(reinterpret_cast<char*>(in.data()), std::streamsize(in.size())))
        throw TableError(path + ": cannot be read");
    std::uint64_t stored;
    std::memcpy(&stored, in.data() + in.size() - sizeof stored, sizeof stored);
    if (checksum64(std::span(in.data(), in.size() - sizeof stored)) != stored)
        throw TableError(path + ": checksum mismatch: the file is damaged or truncated");
    return in;
}

} // namespace

namespace {
PackedTable pack_file(const std::string& from, const std::string& to, const Table& opened,
    const PackOptions& options);
} // namespace

PackedTable pack_table(
    const std::string& from, const std::string& to, const Material& m, const PackOptions& options) {
    // The reader's checks first (header, block index, their checksum), then the whole file's.
    return pack_file(from, to, *Table::open(from, m, nullptr, 0), options);
}

PackedTable pack_table(const std::string& from, const std::string& to, const TableKey& key,
    const PackOptions& options) {
    return pack_file(from, to, *Table::open(from, key, nullptr, 0), options);
}

namespace {

PackedTable pack_file(const std::string& from, const std::string& to, const Table& opened,
    const PackOptions& options) {
    if (opened.packed()) throw TableError(from + ": packed already (one side to move)");
    const std::vector<std::uint8_t> in = read_checked(from);
    TableHeader h {};
    std::memcpy(&h, in.data(), offsetof(TableHeader, coding));
    const std::size_t headerBytes = table_header_bytes(h.version);
    if (h.version > 3) std::memcpy(&h.coding, in.data() + offsetof(TableHeader, coding), 8);
    std::vector<int> widths; // the stored cells' bytes, metric by metric
    for (int k = 0; k < int(Metric::NB); ++k)
        if (h.metrics >> k & 1) widths.push_back(h.cell_bytes[k]);
    const std::uint64_t per = h.blocks_per_side;
    std::vector<std::uint64_t> offsets(widths.size() * 2 * per + 1);
    std::memcpy(offsets.data(), in.data() + headerBytes, offsets.size() * sizeof(std::uint64_t));
    // The side whose blocks are smaller: the other is found by a one-ply search.
    std::uint64_t bytes[COLOR_NB] = {};
    for (std::size_t k = 0; k < widths.size(); ++k)
        for (Color c : { WHITE, BLACK })
            bytes[c] += offsets[(2 * k + c + 1) * per] - offsets[(2 * k + c) * per];
    const Color kept = bytes[BLACK] < bytes[WHITE] ? BLACK : WHITE;

    // Smaller blocks: a probe of the side searched touches a block per king move, each
    // decompressed whole when cold. Each old block splits into whole new ones; the cells are
    // moved as stored (a metric coded XOR DTM stays so: both split alike).
    const std::uint32_t cells = options.block_cells;
    if (cells == 0 || h.block_cells % cells != 0)
        throw TableError(from + ": blocks of " + std::to_string(h.block_cells)
            + " cells do not split into blocks of " + std::to_string(cells));
    const std::uint64_t newPer = (h.index_size + cells - 1) / cells;
    const std::uint64_t split = h.block_cells / cells;
    h.version = kTableVersion;
    h.header_bytes = sizeof h;
    h.sides = 1u << kept;
    h.game = std::uint32_t(opened.game());
    h.block_cells = cells;
    h.blocks_per_side = newPer;
    std::vector<std::uint64_t> packed(widths.size() * newPer + 1);
    packed[0] = sizeof h + packed.size() * sizeof(std::uint64_t) + sizeof(std::uint64_t);

    // TO.tmp, removed unless renamed: whatever throws (a full disk, a damaged block) leaves
    // nothing behind.
    struct Output {
        std::string tmp;
        std::FILE* file = nullptr;
        bool renamed = false;
        ~Output() {
            if (file) std::fclose(file);
            if (!renamed) std::remove(tmp.c_str());
        }
    } output { to + ".tmp" };
    const std::string& tmp = output.tmp;
    errno = 0;
    std::FILE* const out = output.file = std::fopen(tmp.c_str(), "w+b");
    if (!out)
        throw TableError(
            "cannot create " + tmp + ": " + (errno ? std::strerror(errno) : "unknown error"));
    auto fail = [&](const std::string& what) {
        throw TableError("cannot write " + tmp + ": " + (errno ? std::strerror(errno) : what)
            + "; no table was written");
    };
    auto put = [&](const void* data, std::size_t n) {
        errno = 0;
        if (n && std::fwrite(data, 1, n, out) != n) fail("write failed");
    };
    std::vector<std::uint8_t> room(packed[0], 0); // header and block index, written last
    put(room.data(), room.size());
    // Old blocks in runs, decompressed and compressed again in parallel, appended in order.
    constexpr std::uint64_t kRun = 64;
    std::vector<std::vector<std::uint8_t>> frames(kRun * split);
    for (std::size_t k = 0; k < widths.size(); ++k) {
        const std::size_t width = std::size_t(widths[k]);
        for (std::uint64_t first = 0; first < per; first += kRun) {
            const std::uint64_t last = std::min(per, first + kRun);
            tbb::parallel_for(first, last, [&](std::uint64_t b) {
                const std::size_t src = (2 * k + kept) * per + b;
                const std::uint64_t n
                    = std::min<std::uint64_t>(h.index_size - b * (split * cells), split * cells);
                thread_local std::vector<std::uint8_t> raw;
                thread_local std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(
                    ZSTD_createDCtx(), &ZSTD_freeDCtx);
                thread_local std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(
                    ZSTD_createCCtx(), &ZSTD_freeCCtx);
                // Frames with zstd's content checksum, as the writer's: a reader checks each.
                ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, options.level);
                ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
                raw.resize(n * width);
                const std::size_t z = ZSTD_decompressDCtx(dctx.get(), raw.data(), raw.size(),
                    in.data() + offsets[src], offsets[src + 1] - offsets[src]);
                if (ZSTD_isError(z) || z != raw.size())
                    throw TableError(from + ": block " + std::to_string(src) + " is damaged");
                for (std::uint64_t j = 0; j * cells < n; ++j) {
                    const std::size_t at = std::size_t(j * cells) * width;
                    const std::size_t len
                        = std::size_t(std::min<std::uint64_t>(cells, n - j * cells)) * width;
                    std::vector<std::uint8_t>& f = frames[(b - first) * split + j];
                    f.resize(ZSTD_compressBound(len));
                    const std::size_t c
                        = ZSTD_compress2(cctx.get(), f.data(), f.size(), raw.data() + at, len);
                    if (ZSTD_isError(c)) throw TableError("zstd compression failed");
                    f.resize(c);
                }
            });
            for (std::uint64_t b = first; b < last; ++b)
                for (std::uint64_t j = 0; j < split && b * split + j < newPer; ++j) {
                    const std::uint64_t nb = k * newPer + b * split + j;
                    std::vector<std::uint8_t>& f = frames[(b - first) * split + j];
                    put(f.data(), f.size());
                    packed[nb + 1] = packed[nb] + f.size();
                }
        }
    }
    finish_table_file(out, h, packed, put, fail);
    errno = 0;
    output.file = nullptr;
    if (std::fclose(out) != 0) fail("close failed");
    if (std::rename(tmp.c_str(), to.c_str()) != 0)
        throw TableError("cannot rename " + tmp + " to " + to + ": " + std::strerror(errno));
    output.renamed = true;
    return { kept, in.size(), packed.back() + sizeof(std::uint64_t) };
}

} // namespace

} // namespace mktb

// tablefile.cpp - reading one table file (format in docs/format.md; see tablefile.hpp).
#include "tablefile.hpp"

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <zstd.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "block_cache.hpp"
#include "mktb/material.hpp"
#include "mktb/movegen.hpp"

namespace mktb {

namespace {

static_assert(std::endian::native == std::endian::little, "table files are little-endian");

} // namespace

std::uint64_t checksum64(std::span<const std::uint8_t> bytes, std::uint64_t h) {
    for (std::uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ULL;
    return h;
}

std::string table_path(const std::string& dir, const Material& m) {
    return (std::filesystem::path(dir) / (m.name() + ".mktb")).string();
}

const char* game_name(Game g) { return g == Game::Xiangqi ? "Xiangqi" : "Makruk"; }

std::string escaped(std::string_view bytes, bool ascii_only) {
    std::string out;
    for (const unsigned char c : bytes) {
        if (c >= 0x20 && c != 0x7F && !(ascii_only && (c > 0x7F || c == '\\'))) {
            out += char(c);
            continue;
        }
        char hex[5];
        std::snprintf(hex, sizeof hex, "\\x%02X", c);
        out += hex;
    }
    return out;
}

std::unique_ptr<Table> Table::open(
    const std::string& path, const Material& expected, BlockCache* cache, std::uint64_t id) {
    std::optional<Index> index;
    auto t = load(path, Game::Makruk, expected.name(), cache, id,
        [&](std::uint32_t version, std::uint32_t scheme) -> std::optional<std::uint64_t> {
            // Versions 3 and 4 knew scheme 1 only; 5 says which of the Index's schemes it is in.
            if (scheme != std::uint32_t(Index::kSchemeNameOrder)
                && (version < 5 || scheme != std::uint32_t(Index::kSchemeWeakerFirst)))
                return std::nullopt;
            index.emplace(expected, int(scheme));
            return index->size();
        });
    t->index_ = std::move(index);
    return t;
}

std::unique_ptr<Table> Table::open(
    const std::string& path, const TableKey& expected, BlockCache* cache, std::uint64_t id) {
    return load(path, expected.game, expected.name, cache, id,
        [&](std::uint32_t, std::uint32_t scheme) -> std::optional<std::uint64_t> {
            if (scheme != expected.scheme) return std::nullopt;
            return expected.cells;
        });
}

template<class SizeOf>
std::unique_ptr<Table> Table::load(const std::string& path, Game game,
    const std::string& expectedName, BlockCache* cache, std::uint64_t id, SizeOf size_of) {
    auto damaged = [&](const std::string& why) { return TableError(path + ": " + why); };
    // O_NONBLOCK: opening a FIFO (or a device) of a table's name must not wait for a writer;
    // only a regular file is read.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) throw damaged(std::string("cannot be opened: ") + std::strerror(errno));
    struct stat st { };
    if (::fstat(fd, &st) != 0) {
        ::close(fd);
        throw damaged("cannot be read");
    }
    if (!S_ISREG(st.st_mode)) {
        ::close(fd);
        throw damaged("not a regular file (a FIFO, a device or a directory): not a table");
    }
    const std::size_t size = std::size_t(st.st_size);
    std::unique_ptr<Table> t(new Table());
    t->fd_ = fd; // closed by ~Table
    t->size_ = size;
    t->changedSec_ = st.st_ctim.tv_sec, t->changedNsec_ = st.st_ctim.tv_nsec;
    t->path_ = path;
    t->cache_ = cache;
    t->id_ = id;
    static std::atomic<std::uint64_t> serials { 0 };
    t->serial_ = ++serials;
    // The header, then the block index it sizes, read into `head` (throws when the file is
    // shorter than it says).
    std::vector<std::uint8_t> head;
    auto read_head = [&](std::size_t bytes) {
        if (size < bytes) throw damaged("too short to be a table file (truncated?)");
        const std::size_t had = head.size();
        head.resize(bytes);
        t->read_at(had, std::span(head).subspan(had));
    };

    TableHeader h {};
    read_head(kTableHeaderBytesV3 + 3 * sizeof(std::uint64_t));
    std::memcpy(&h, head.data(), offsetof(TableHeader, coding));
    if (std::memcmp(h.magic, kTableMagic, sizeof h.magic) != 0)
        throw damaged("not an mktb table file");
    if (h.version < kOldestTableVersion || h.version > kTableVersion)
        throw damaged("format version " + std::to_string(h.version) + ", this reader knows "
            + std::to_string(kOldestTableVersion) + " to " + std::to_string(kTableVersion)
            + " (generate the table again)");
    const std::size_t headerBytes = table_header_bytes(h.version);
    read_head(std::max(head.size(), headerBytes + 3 * sizeof(std::uint64_t)));
    if (h.version > 3)
        std::memcpy(&h.coding, head.data() + offsetof(TableHeader, coding), sizeof h.coding);
    h.sides = kBothSides;
    if (h.version > 5)
        std::memcpy(&h.sides, head.data() + offsetof(TableHeader, sides), 2 * sizeof h.sides);
    const std::string name(h.signature, strnlen(h.signature, sizeof h.signature));
    h.game = h.version > 5 ? h.game : 0;
    if (h.game != std::uint32_t(game))
        throw damaged(std::string("a table of ")
            + (h.game <= 1 ? game_name(Game(h.game)) : "an unknown game") + ", not of "
            + game_name(game));
    if (name != expectedName)
        throw damaged("holds " + escaped(name) + ", expected " + expectedName);
    const std::optional<std::uint64_t> cells = size_of(h.version, h.index_scheme);
    t->game_ = game;
    t->cellsPerSide_ = cells.value_or(0);
    bool sane = h.header_bytes == headerBytes && cells && h.block_cells != 0
        && h.block_cells <= 0x10000 // a resident block's long list holds 16-bit offsets
        && h.index_size == *cells && (h.metrics & 1) && h.metrics < (1u << int(Metric::NB))
        && h.blocks_per_side == (h.index_size + h.block_cells - 1) / h.block_cells && h.sides >= 1
        && h.sides <= kBothSides;
    t->sides_ = h.sides;
    const std::size_t sides = h.sides == kBothSides ? 2 : 1;
    std::size_t nblocks = 0;
    for (int m = 0; m < int(Metric::NB) && sane; ++m)
        if (h.metrics >> m & 1) {
            sane = (h.cell_bytes[m] == 1 || h.cell_bytes[m] == 2)
                && h.coding[m] < int(Coding::NB)
                // a cell coded against DTM holds the XOR of both: at least DTM's width
                && (h.coding[m] == int(Coding::Plain)
                    || (m != int(Metric::Dtm) && h.cell_bytes[m] >= h.cell_bytes[0]));
            t->cell_bytes_[m] = h.cell_bytes[m];
            t->coding_[m] = Coding(h.coding[m]);
            t->firstBlock_[m] = nblocks;
            nblocks += sides * std::size_t(h.blocks_per_side);
        }
    const std::size_t indexEnd = headerBytes + (nblocks + 1) * sizeof(std::uint64_t);
    if (!sane || size < indexEnd + 2 * sizeof(std::uint64_t))
        throw damaged("header or block index damaged (or not a table this reader knows)");
    read_head(std::max(head.size(), indexEnd + sizeof(std::uint64_t)));
    std::uint64_t indexSum;
    std::memcpy(&indexSum, head.data() + indexEnd, sizeof indexSum);
    if (checksum64(std::span(head.data(), indexEnd)) != indexSum)
        throw damaged("checksum mismatch in the header or block index: the file is damaged");
    t->rules_ = h.rules;
    t->blockCells_ = h.block_cells;
    t->blocksPerSide_ = h.blocks_per_side;
    t->offsets_.resize(nblocks + 1);
    std::memcpy(
        t->offsets_.data(), head.data() + headerBytes, t->offsets_.size() * sizeof(std::uint64_t));
    for (std::size_t b = 0; b < nblocks; ++b)
        if (t->offsets_[b] < indexEnd + sizeof indexSum || t->offsets_[b + 1] < t->offsets_[b]
            || t->offsets_[b + 1] > size - sizeof(std::uint64_t))
            throw damaged("block " + std::to_string(b) + " lies outside the file");
    return t;
}

Table::~Table() {
    if (fd_ >= 0) ::close(fd_);
}

void Table::read_at(std::uint64_t offset, std::span<std::uint8_t> out) const {
    auto changed = [&](const std::string& how) {
        stale_.store(true, std::memory_order_relaxed);
        return TableError(path_ + ": " + how
            + " since it was opened (truncated, or rewritten in place): left out until a whole "
              "file is back");
    };
    std::size_t done = 0;
    while (done < out.size()) {
        const ssize_t n = ::pread(fd_, out.data() + done, out.size() - done, off_t(offset + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) throw TableError(path_ + ": cannot be read: " + std::strerror(errno));
        if (n == 0) throw changed("ends early: it has changed");
        done += std::size_t(n);
    }
    // The bytes read are this file's as opened only if it has not changed since: a change moves
    // its size or its change time (set by every write and truncation, and by no reader).
    struct stat st { };
    if (::fstat(fd_, &st) != 0) throw TableError(path_ + ": cannot be read");
    if (std::size_t(st.st_size) != size_ || st.st_ctim.tv_sec != changedSec_
        || st.st_ctim.tv_nsec != changedNsec_)
        throw changed("has changed");
}

int Table::metric_of(std::size_t block) const {
    int m = 0;
    for (int k = 0; k < int(Metric::NB); ++k)
        if (cell_bytes_[k] && block >= firstBlock_[k]) m = k;
    return m;
}

std::size_t Table::block_bytes(std::size_t block) const {
    // Which cells the block holds: its metric, side to move and first slot.
    const int m = metric_of(block);
    const std::uint64_t inSide = (block - firstBlock_[m]) % blocksPerSide_;
    const std::uint64_t first = inSide * blockCells_;
    return std::min<std::uint64_t>(blockCells_, cellsPerSide_ - first)
        * std::uint64_t(cell_bytes_[m]);
}

void Table::decompress_raw(std::size_t block, std::span<std::uint8_t> out) const {
    // One decompression context and one buffer of read bytes per thread, reused: creating a
    // context costs more than a block.
    thread_local std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(
        ZSTD_createDCtx(), &ZSTD_freeDCtx);
    thread_local std::vector<std::uint8_t> stored;
    stored.resize(offsets_[block + 1] - offsets_[block]);
    read_at(offsets_[block], stored);
    const std::size_t z
        = ZSTD_decompressDCtx(dctx.get(), out.data(), out.size(), stored.data(), stored.size());
    if (ZSTD_isError(z) || z != out.size())
        throw TableError(path_ + ": block " + std::to_string(block)
            + " is damaged: " + (ZSTD_isError(z) ? ZSTD_getErrorName(z) : "wrong size"));
}

namespace {

// Undoes Coding::XorDtm: `cells` (width `bytes`) ^= `dtm` (width `dtmBytes` <= bytes), both
// little-endian, so only the low byte of a wider cell meets a 1-byte DTM cell.
void xor_dtm(
    std::span<std::uint8_t> cells, int bytes, std::span<const std::uint8_t> dtm, int dtmBytes) {
    const std::size_t n = cells.size() / std::size_t(bytes);
    for (std::size_t i = 0; i < n; ++i)
        for (int b = 0; b < dtmBytes; ++b)
            cells[i * std::size_t(bytes) + std::size_t(b)]
                ^= dtm[i * std::size_t(dtmBytes) + std::size_t(b)];
}

} // namespace

void Table::decompress(std::size_t block, std::span<std::uint8_t> cells) const {
    decompress_raw(block, cells);
    const int m = metric_of(block);
    if (coding_[m] == Coding::XorDtm) {
        // The DTM block of the same cells, decompressed here rather than through the cache:
        // this runs inside a cache miss. Cold Bia-phase probes pay two blocks.
        const std::size_t dtmBlock = block - firstBlock_[m];
        std::vector<std::uint8_t> dtm(block_bytes(dtmBlock));
        decompress_raw(dtmBlock, dtm);
        xor_dtm(cells, cell_bytes_[m], dtm, cell_bytes_[int(Metric::Dtm)]);
    }
}

void Table::lacks(Color stm) const {
    throw TableError(path_ + ": a packed table, " + (stm == WHITE ? "Black" : "White")
        + " to move only: " + (stm == WHITE ? "White" : "Black")
        + " to move needs a one-ply search through its Tablebase, and generation and "
          "verification need the full table (mktb gen)");
}

// A block larger than a cache piece (Xiangqi's 64 Ki cells) is cached a piece of 16 Ki cells
// at a time: a cold probe writes 16 KiB of fresh memory, not 64 (in a fresh process the kernel's
// zeroing of those pages was most of a cold probe), and a cache of the same bytes holds four
// times as many pieces, each one probed. The block is decompressed whole into this thread's
// buffer, which keeps it: the next piece of the same block is a copy.
void Table::decompress_piece(
    std::size_t block, std::size_t piece, std::span<std::uint8_t> out) const {
    if (blockCells_ <= kBlockCells) return decompress(block, out); // the piece is the block
    struct Last {
        std::uint64_t table = 0; // a Table's serial_; 0: none
        std::size_t block = 0;
        std::vector<std::uint8_t> cells;
    };
    thread_local Last last;
    if (last.table != serial_ || last.block != block) {
        last.table = 0; // until the block is whole: a damaged one leaves nothing to copy
        last.cells.resize(block_bytes(block));
        decompress(block, last.cells);
        last.table = serial_, last.block = block;
    }
    const std::size_t width = std::size_t(cell_bytes_[metric_of(block)]);
    std::memcpy(out.data(), last.cells.data() + piece * piece_cells() * width, out.size());
}

std::size_t Table::piece_bytes(std::size_t block, std::size_t piece) const {
    const std::size_t full
        = std::size_t(piece_cells()) * std::size_t(cell_bytes_[metric_of(block)]);
    return std::min(full, block_bytes(block) - piece * full);
}

Table::CacheSpot Table::cache_spot(Metric m, Color stm, std::uint64_t slot) const {
    const std::size_t block = side_block(m, stm) + slot / blockCells_;
    const std::size_t inBlock = slot % blockCells_;
    const std::size_t width = std::size_t(cell_bytes_[int(m)]);
    // A block no larger than a piece (all of Makruk's) is its own piece: no piece arithmetic on
    // a warm probe's path (it cost Makruk's warm probe some 9 %).
    if (blockCells_ <= kBlockCells) return { block, 0, id_ << 32 | block, inBlock * width };
    const std::size_t piece = inBlock / kBlockCells;
    return { block, piece, id_ << 32 | (block * (blockCells_ / kBlockCells) + piece),
        inBlock % kBlockCells * width };
}

Value Table::cached_value(Metric m, Color stm, std::uint64_t slot) const {
    if (!cache_) throw TableError(path_ + ": opened without a block cache");
    if (!stores(stm)) lacks(stm);
    const int bytes = cell_bytes_[int(m)];
    const CacheSpot spot = cache_spot(m, stm, slot);
    return cache_->with_block(
        spot.key, [&] { return piece_bytes(spot.block, spot.piece); },
        [&](std::span<std::uint8_t> cells) { decompress_piece(spot.block, spot.piece, cells); },
        [&](std::span<const std::uint8_t> cells) {
            return Value::from_cell(
                bytes == 1 ? cells[spot.at] : unsigned(cells[spot.at] | cells[spot.at + 1] << 8));
        });
}

void Table::prefetch(Metric m, Color stm, std::uint64_t slot, bool set_near) const {
    if (resident_.load(std::memory_order_relaxed) & part(m, stm)) {
        if (!set_near) __builtin_prefetch(cells_[int(m)][stm].get() + slot);
    } else if (cache_ && stores(stm)) {
        const CacheSpot spot = cache_spot(m, stm, slot);
        if (set_near)
            cache_->prefetch(spot.key, spot.at);
        else
            cache_->prefetch(spot.key);
    }
}

Value Table::long_value(Metric m, Color stm, std::uint64_t slot) const {
    const std::vector<std::uint64_t>& start = longStart_[int(m)][stm];
    const std::vector<std::uint32_t>& cells = longCells_[int(m)][stm];
    const std::uint64_t b = slot / blockCells_;
    const std::uint32_t key = std::uint32_t(slot % blockCells_) << 16;
    const auto first = cells.begin() + std::ptrdiff_t(start[b]);
    const auto last = cells.begin() + std::ptrdiff_t(start[b + 1]);
    const auto it = std::lower_bound(first, last, key);
    if (it == last || (*it & 0xFFFF0000u) != key)
        throw TableError(path_ + ": a resident cell is missing from its long list");
    return Value::from_cell(*it & 0xFFFFu);
}

void Table::make_resident(unsigned parts) const {
    std::lock_guard lock(residentMutex_);
    if (!checked_) {
        // The whole file's checksum, a chunk at a time (the kernel reads ahead).
        std::vector<std::uint8_t> chunk(std::size_t(1) << 20);
        std::uint64_t sum = 0xcbf29ce484222325ULL, stored = 0;
        const std::size_t body = size_ - sizeof stored;
        for (std::size_t at = 0; at < body; at += chunk.size()) {
            const std::span<std::uint8_t> part(chunk.data(), std::min(chunk.size(), body - at));
            read_at(at, part);
            sum = checksum64(part, sum);
        }
        read_at(body, std::span(reinterpret_cast<std::uint8_t*>(&stored), sizeof stored));
        if (sum != stored)
            throw TableError(path_ + ": checksum mismatch: the file is damaged or truncated");
        checked_ = true;
    }
    unsigned have = resident_.load(std::memory_order_relaxed);
    for (int m = 0; m < int(Metric::NB); ++m) {
        if (!cell_bytes_[m]) continue;
        for (Color c : { WHITE, BLACK }) {
            const unsigned bit = part(Metric(m), c);
            if (!(parts & bit) || (have & bit)) continue;
            if (!stores(c)) lacks(c);
            HugeArray<std::uint8_t>& cells = cells_[m][c];
            std::vector<std::uint64_t>& longStart = longStart_[m][c];
            std::vector<std::uint32_t>& longCells = longCells_[m][c];
            if (!cells) cells = make_huge_array<std::uint8_t>(cellsPerSide_);
            // One block after the other (the probe library needs no thread pool), each with
            // its coding undone.
            for (std::uint64_t b = 0; b < blocksPerSide_; ++b) {
                const std::size_t at = side_block(Metric(m), c) + b;
                std::uint8_t* out = cells.get() + b * blockCells_;
                if (cell_bytes_[m] == 1) {
                    decompress(at, std::span(out, block_bytes(at)));
                    continue;
                }
                std::vector<std::uint8_t> block(block_bytes(at));
                decompress(at, block);
                longStart.push_back(longCells.size());
                for (std::size_t i = 0; i < block.size() / 2; ++i) {
                    const unsigned v = unsigned(block[2 * i] | block[2 * i + 1] << 8);
                    out[i] = std::uint8_t(std::min(v, 0xFFu));
                    if (v >= 0xFF) longCells.push_back(std::uint32_t(i << 16 | v));
                }
            }
            if (cell_bytes_[m] == 2) longStart.push_back(longCells.size());
            longCells.shrink_to_fit();
            have |= bit;
            resident_.store(have, std::memory_order_release);
        }
    }
}

Value Table::probe(Metric m, const Position& pos) const {
    if (Material::of(pos) == index_->material())
        return value(m, pos.side_to_move(), index_->encode(pos));
    const Position p = colour_swapped(pos);
    return value(m, p.side_to_move(), index_->encode(p));
}

} // namespace mktb

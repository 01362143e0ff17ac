// spill.hpp - where the level loop's cells go once decided below the window of levels that 8-bit
// cells can code (cell_store.hpp): per rollover a snapshot of those cells, compressed by chunks
// of kSpillChunk slots into a scratch file, read back by slot through a small cache per thread.
//
// Invariant: a snapshot's chunk holds, for each slot of the chunk, the cell's code of that
// rollover's window (decode with the snapshot's offset) or the filler kNone; every retired cell
// appears in exactly one snapshot, so a slot's retired distance is the first non-filler found.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>
#include <zstd.h>

#include "huge_array.hpp"
#include "tablebase.hpp"

namespace mktb {

inline constexpr int kMaxMetrics = 2; // DTM and one counted metric

// Cell arrays: vectors whose resize() leaves new elements uninitialized, so that memory written
// before it is read stays untouched, hence unallocated, until then; from 4 MiB up on huge pages
// (huge_array.hpp: the level loop and init write them at random).
template<class T>
struct Uninitialized : std::allocator<T> {
    using value_type = T;
    Uninitialized() = default;
    template<class U>
    Uninitialized(const Uninitialized<U>&) noexcept { }
    template<class U>
    struct rebind {
        using other = Uninitialized<U>;
    };
    T* allocate(std::size_t n) {
        std::size_t mapped = 0;
        return static_cast<T*>(huge_allocate(n * sizeof(T), &mapped));
    }
    // The size allocate() was given tells how the memory was taken.
    void deallocate(T* p, std::size_t n) noexcept {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < 2 * kHugePage)
            std::free(p);
        else
            ::munmap(p, (bytes + kHugePage - 1) / kHugePage * kHugePage);
    }
    template<class U, class... Args>
    void construct(U* p, Args&&... args) {
        if constexpr (sizeof...(Args) == 0)
            ::new (static_cast<void*>(p)) U;
        else
            ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};
template<class T>
using Cells = std::vector<T, Uninitialized<T>>;

// Gives the whole pages inside [p, p + bytes) back to the system: memory whose contents are
// not read again, in an array freed later.
void release_pages(const void* p, std::size_t bytes);

// A file without a name in a directory (created and unlinked at once, so that nothing is left
// behind however the process ends), written by several threads at once.
class ScratchFile {
public:
    ScratchFile(const std::string& dir, const std::string& what);
    ~ScratchFile();
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;

    // Appends `bytes`; returns their offset.
    std::uint64_t append(std::span<const std::uint8_t> bytes);
    void read(std::uint64_t at, std::span<std::uint8_t> out) const;

private:
    [[noreturn]] void fail(const char* verb) const;
    std::string what_;
    int fd_ = -1;
    std::atomic<std::uint64_t> end_ { 0 };
};

// zstd's compression of one buffer at level 1 with a context per thread; throws TableError
// naming `what` when zstd fails.
std::size_t compress_chunk(
    std::span<const std::uint8_t> in, std::vector<std::uint8_t>& out, const std::string& what);

template<class Cell>
class Spill {
public:
    static constexpr std::size_t kSpillChunk = kBlockCells;
    static constexpr Cell kNone = std::numeric_limits<Cell>::max(); // the filler

    // Reads retired cells back: per snapshot, metric and side, the chunks decompressed last,
    // direct-mapped (the storage order's blocks stay within a few chunks of the generation's).
    // One per thread.
    struct Cursor {
        static constexpr std::size_t kWays = 32;
        struct Chunk {
            std::size_t index = ~std::size_t(0);
            std::vector<Cell> cells;
        };
        std::vector<std::array<std::array<std::array<Chunk, kWays>, COLOR_NB>, kMaxMetrics>> at;
        std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx { nullptr, &ZSTD_freeDCtx };
        std::vector<std::uint8_t> compressed;
    };

    // `dir`: where the scratch file goes (created at the first snapshot); `what` names the
    // spill in errors.
    Spill(std::string dir, std::string what)
        : dir_(std::move(dir))
        , what_(std::move(what)) { }

    // Starts a snapshot of the cells coded in the window starting at `offset`, with `chunks`
    // chunks per metric and side.
    void begin_snapshot(int offset, int metrics, std::size_t chunks) {
        if (!file_) file_ = std::make_unique<ScratchFile>(dir_, what_);
        Snapshot& s = snapshots_.emplace_back();
        s.offset = offset;
        for (int k = 0; k < metrics; ++k)
            for (Color c : { WHITE, BLACK }) s.chunks[std::size_t(k)][c].resize(chunks);
    }
    // Stores chunk q of (k, c) of the current snapshot; any thread, one call per chunk.
    void store(int k, Color c, std::size_t q, std::span<const Cell> kept) {
        thread_local std::vector<std::uint8_t> z;
        const std::size_t size = compress_chunk(
            std::span(reinterpret_cast<const std::uint8_t*>(kept.data()), kept.size_bytes()), z,
            what_);
        snapshots_.back().chunks[std::size_t(k)][c][q]
            = { file_->append(std::span(z.data(), size)), size };
    }

    // The distance in plies of retired cell (k, c, i); `base` is the code of a window's first
    // level.
    int retired_plies(int k, Color c, std::uint64_t i, Cell base, Cursor& cursor) const {
        cursor.at.resize(snapshots_.size());
        const std::size_t q = std::size_t(i / kSpillChunk);
        for (std::size_t s = 0; s < snapshots_.size(); ++s) {
            auto& chunk = cursor.at[s][std::size_t(k)][c][q % Cursor::kWays];
            if (chunk.index != q) load(snapshots_[s].chunks[std::size_t(k)][c][q], chunk, cursor);
            chunk.index = q;
            const Cell x = chunk.cells[i % kSpillChunk];
            if (x != kNone) return snapshots_[s].offset + int(x) - int(base);
        }
        throw std::logic_error(what_ + ": a retired cell is in no snapshot");
    }

private:
    struct Snapshot {
        int offset = 0; // the window's first level when these cells were retired
        struct Chunk {
            std::uint64_t at = 0; // in the scratch file
            std::size_t bytes = 0;
        };
        std::array<std::array<std::vector<Chunk>, COLOR_NB>, kMaxMetrics> chunks;
    };
    void load(const typename Snapshot::Chunk& where, typename Cursor::Chunk& chunk,
        Cursor& cursor) const {
        std::vector<std::uint8_t>& z = cursor.compressed;
        z.resize(where.bytes);
        file_->read(where.at, z);
        chunk.cells.resize(kSpillChunk);
        if (!cursor.dctx) cursor.dctx.reset(ZSTD_createDCtx());
        const std::size_t n = ZSTD_decompressDCtx(
            cursor.dctx.get(), chunk.cells.data(), kSpillChunk * sizeof(Cell), z.data(), z.size());
        if (ZSTD_isError(n)) throw std::logic_error(what_ + ": a chunk does not decompress");
    }

    std::string dir_, what_;
    std::unique_ptr<ScratchFile> file_;
    std::vector<Snapshot> snapshots_;
};

} // namespace mktb

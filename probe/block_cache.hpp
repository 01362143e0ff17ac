// block_cache.hpp - the bounded cache of decompressed table blocks that every table of a reader
// shares: a Prober's one cache bounds both games' tables (private to the probe library).
//
// A hit takes no lock and writes nothing another thread reads, so warm probes scale with threads
// (an engine's search runs 8-64 of them): the cache is an array of 8-way sets, each a line of
// keys and a line of atomic block pointers; a reader finds the key's way, loads its pointer,
// publishes it as its hazard pointer (one per thread, in a process-wide array of
// cache-line-sized slots), checks that the set still holds it and that it is the block asked
// for, and reads. A miss decompresses outside any lock and swaps the block into its set (an
// empty way, else the oldest: ways are replaced in turn); the block it displaces is retired and
// freed once no thread's hazard pointer names it. The keys are a filter only (a key read while
// its way changes sends the reader to the block's own key, or to a miss): the block is the
// truth. Eight ways, not two: with two, a 5-men table's blocks collide in their sets often
// enough that a warm probe decompresses again now and then. A thread's hazard pointer stays on
// the block it read last, so a thread keeps at most one block alive beyond the bound. A hit
// writes nothing shared (no lock, no reference count): such writes go to lines the other
// threads read, and keep probes from scaling with threads (docs/measurements.md).
//
// Bound: sets * 8 blocks, sets = capacity / 16 KiB / 8 (16 KiB: a full table's block of 8-bit
// cells), plus at most kRetireBatch retired blocks waiting for their readers.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <new>
#include <span>
#include <vector>

#include <sys/mman.h>

namespace mktb {

class BlockCache {
public:
    explicit BlockCache(std::size_t capacity_bytes)
        : sets_(std::bit_floor(std::max<std::size_t>(capacity_bytes / kBlockBytes / kWays, 1)))
        , table_(map_sets(sets_), UnmapSets { sets_ * sizeof(Set) })
        , next_(sets_) { }
    BlockCache(const BlockCache&) = delete;
    BlockCache& operator=(const BlockCache&) = delete;
    // No reader may be inside with_block() any more.
    ~BlockCache() {
        for (std::size_t s = 0; s < sets_; ++s)
            for (auto& w : table_[s].nodes) Node::destroy(w.load(std::memory_order_relaxed));
        for (const Node* n : retired_) Node::destroy(n);
    }

    // Calls read(cells) on the block `key` (never 0; cells: a std::span of its bytes), taken
    // from the cache or else made by fill(cells) in the cache's own memory, `bytes()` bytes
    // (asked on a miss only: a hit needs the key alone; fill may throw, nothing is cached
    // then), and returns what read() returns. Thread-safe.
    template<class Bytes, class Fill, class Read>
    auto with_block(std::uint64_t key, Bytes&& bytes, Fill&& fill, Read&& read) {
        Set& set = set_of(key);
        // The hazard pointer stays on the block last read until another is: a thread probing
        // one block again and again publishes nothing.
        std::atomic<const Node*>& hazard = my_hazard().node;
        for (int w = 0; w < kWays; ++w) {
            if (set.keys[w].load(std::memory_order_relaxed) != key) continue;
            const Node* n = set.nodes[w].load(std::memory_order_acquire);
            if (!n) continue;
            if (n != hazard.load(std::memory_order_relaxed)) {
                // Published, then the set read again (both sequentially consistent), before the
                // block is touched: one retired after that second read is not freed while the
                // hazard names it, and one freed before it is not what the set holds.
                hazard.store(n, std::memory_order_seq_cst);
                if (set.nodes[w].load(std::memory_order_seq_cst) != n) continue;
            }
            if (n->key == key) return read(std::span(n->cells(), n->size));
        }
        // Filled where it will stay: a cold probe's block is written once, not copied.
        const std::size_t size = bytes();
        Node* made = Node::make(key, size);
        try {
            fill(std::span(made->cells(), size));
        } catch (...) {
            Node::destroy(made);
            throw;
        }
        const Node* fresh = made;
        misses_.fetch_add(1, std::memory_order_relaxed);
        hazard.store(fresh, std::memory_order_seq_cst);
        insert(set, fresh);
        return read(std::span(fresh->cells(), fresh->size));
    }

    // Starts loading the set of block `key` into the processor's cache. Thread-safe.
    void prefetch(std::uint64_t key) const {
        const Set& set = set_of(key);
        __builtin_prefetch(&set.keys);
        __builtin_prefetch(&set.nodes);
    }
    // Then, once the set is near: the block's node and its byte `at`, if the set holds it. The
    // node may be retired meanwhile; an address is computed from it, nothing read. Thread-safe.
    void prefetch(std::uint64_t key, std::size_t at) const {
        const Set& set = set_of(key);
        for (int w = 0; w < kWays; ++w)
            if (set.keys[w].load(std::memory_order_relaxed) == key) {
                if (const Node* n = set.nodes[w].load(std::memory_order_relaxed)) {
                    __builtin_prefetch(n);
                    __builtin_prefetch(reinterpret_cast<const std::uint8_t*>(n + 1) + at);
                }
                return;
            }
    }

    // Blocks decompressed so far (each cache miss). Thread-safe.
    std::uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }
    // A number for a table opened to read through this cache, never given before: the upper
    // half of its blocks' keys, so that the tables of every set sharing the cache (both games'
    // of one Prober) keep apart. Thread-safe.
    std::uint64_t new_table_id() { return tableIds_.fetch_add(1, std::memory_order_relaxed) + 1; }

private:
    static constexpr std::size_t kBlockBytes = 16 << 10;
    static constexpr int kWays = 8;
    static constexpr std::size_t kRetireBatch = 64; // retired blocks between hazard scans
    static constexpr std::size_t kHazards = 1024; // threads probing at once, at most

    // A block: its key and cells in one allocation, so that the address of any of its cells
    // is known from the node's (a prefetch reads nothing).
    struct Node {
        std::uint64_t key;
        std::size_t size;
        const std::uint8_t* cells() const {
            return reinterpret_cast<const std::uint8_t*>(this + 1);
        }
        std::uint8_t* cells() { return reinterpret_cast<std::uint8_t*>(this + 1); }
        static Node* make(std::uint64_t key, std::size_t bytes) { // its cells not yet written
            return new (::operator new(sizeof(Node) + bytes)) Node { key, bytes };
        }
        static void destroy(const Node* n) { ::operator delete(const_cast<Node*>(n)); }
    };
    // A set: its ways' keys (0: empty) in one line, their blocks in the next.
    struct alignas(64) Set {
        std::array<std::atomic<std::uint64_t>, kWays> keys {};
        std::array<std::atomic<const Node*>, kWays> nodes {};
    };
    Set& set_of(std::uint64_t key) const {
        return table_[(key * 0x9e3779b97f4a7c15ULL) >> 20 & (sets_ - 1)];
    }
    struct alignas(64) Hazard { // a line of its own: published without disturbing others
        std::atomic<const Node*> node { nullptr };
        std::atomic<bool> taken { false };
    };
    static std::array<Hazard, kHazards>& hazards() {
        static std::array<Hazard, kHazards> all;
        return all;
    }
    // This thread's hazard slot, taken on its first probe and given back when it ends.
    static Hazard& my_hazard() {
        struct Owner {
            Hazard* slot = nullptr;
            Owner() {
                for (;;) // more than kHazards threads probing at once wait for one to end
                    for (Hazard& h : hazards()) {
                        bool expected = false;
                        if (h.taken.compare_exchange_strong(expected, true)) {
                            slot = &h;
                            return;
                        }
                    }
            }
            ~Owner() {
                slot->node.store(nullptr, std::memory_order_release);
                slot->taken.store(false, std::memory_order_release);
            }
        };
        thread_local Owner owner;
        return *owner.slot;
    }

    // Puts `fresh` in its set; when another thread put the same block there meanwhile, `fresh`
    // is retired instead (both are equal; readers of either are safe).
    void insert(Set& set, const Node* fresh) {
        std::lock_guard lock(writers_); // misses only: a decompression costs far more
        int w = -1;
        for (int k = 0; k < kWays; ++k) {
            const Node* n = set.nodes[k].load(std::memory_order_relaxed);
            if (n && n->key == fresh->key) {
                retire(fresh);
                return;
            }
            if (!n && w < 0) w = k;
        }
        std::uint8_t& next = next_[std::size_t(&set - table_.get())];
        if (w < 0) w = next, next = std::uint8_t((next + 1) % kWays); // the oldest
        set.keys[w].store(fresh->key, std::memory_order_relaxed);
        if (const Node* old = set.nodes[w].exchange(fresh, std::memory_order_seq_cst)) retire(old);
    }
    // Under writers_: keeps `n` until no hazard pointer names it.
    void retire(const Node* n) {
        retired_.push_back(n);
        if (retired_.size() < kRetireBatch) return;
        std::vector<const Node*> inUse;
        for (Hazard& h : hazards())
            if (const Node* x = h.node.load(std::memory_order_seq_cst)) inUse.push_back(x);
        std::erase_if(retired_, [&](const Node* r) {
            if (std::find(inUse.begin(), inUse.end(), r) != inUse.end()) return false;
            Node::destroy(r);
            return true;
        });
    }

    // The sets in fresh anonymous memory, zero (every key 0, every block pointer null: an empty
    // set) without being written, so that memory is spent as sets are used, not at open: a cache
    // of 1 TiB asked for costs nothing until blocks fill it.
    struct UnmapSets {
        std::size_t bytes;
        void operator()(Set* sets) const { ::munmap(sets, bytes); }
    };
    static Set* map_sets(std::size_t n) {
        void* p = ::mmap(nullptr, n * sizeof(Set), PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        return static_cast<Set*>(p);
    }

    std::size_t sets_;
    std::unique_ptr<Set[], UnmapSets> table_;
    std::vector<std::uint8_t> next_; // per set, the way replaced next (under writers_)
    std::mutex writers_;
    std::vector<const Node*> retired_; // under writers_
    std::atomic<std::uint64_t> misses_ { 0 };
    std::atomic<std::uint64_t> tableIds_ { 0 };
};

} // namespace mktb

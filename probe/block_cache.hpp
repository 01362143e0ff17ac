// block_cache.hpp - the bounded cache of decompressed table blocks that every table of one
// Tablebase shares (private to the probe library).
//
// A hit takes no lock and writes nothing another thread reads, so warm probes scale with threads
// (an engine's search runs 8-64 of them): the cache is an array of 2-way sets of atomic block
// pointers; a reader loads the pointer, publishes it as its hazard pointer (one per thread, in a
// process-wide array of cache-line-sized slots), checks that the set still holds it, and reads.
// A miss decompresses outside any lock and swaps the block into its set (an empty way, else the
// way a per-set toggle names: the older of the two); the block it displaces is retired and freed
// once no thread's hazard pointer names it. A thread's hazard pointer stays on the block it read
// last, so a thread keeps at most one block alive beyond the bound. An earlier design (sharded
// mutexes, CLOCK, shared_ptr blocks, a per-thread front of 64 blocks) scaled to 1.43x on two
// threads: every shared hit took a lock and a reference count, both writes to lines the other
// thread reads.
//
// Bound: sets * 2 blocks, sets = capacity / 16 KiB (the size of a block of 8-bit cells), plus
// at most kRetireBatch retired blocks waiting for their readers.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace mktb {

class BlockCache {
public:
    explicit BlockCache(std::size_t capacity_bytes)
        : sets_(std::bit_floor(std::max<std::size_t>(capacity_bytes / kBlockBytes, 2) / 2))
        , ways_(sets_ * 2) { }
    BlockCache(const BlockCache&) = delete;
    BlockCache& operator=(const BlockCache&) = delete;
    // No reader may be inside with_block() any more.
    ~BlockCache() {
        for (auto& w : ways_) delete w.load(std::memory_order_relaxed);
        for (const Node* n : retired_) delete n;
    }

    // Calls read(block) on the block `key`, taken from the cache or else from load() (which may
    // throw; nothing is cached then), and returns what read() returns. Thread-safe.
    template<class Load, class Read>
    auto with_block(std::uint64_t key, Load&& load, Read&& read) {
        const std::uint64_t h = key * 0x9e3779b97f4a7c15ULL;
        std::atomic<const Node*>* const set = &ways_[(h >> 20 & (sets_ - 1)) * 2];
        // The hazard pointer stays on the block last read until another is: a thread probing
        // one block again and again publishes nothing.
        std::atomic<const Node*>& hazard = my_hazard().node;
        for (int w = 0; w < 2; ++w) {
            const Node* n = set[w].load(std::memory_order_acquire);
            if (!n) continue;
            if (n != hazard.load(std::memory_order_relaxed)) {
                // Published, then the set read again (both sequentially consistent), before the
                // block is touched: one retired after that second read is not freed while the
                // hazard names it, and one freed before it is not what the set holds.
                hazard.store(n, std::memory_order_seq_cst);
                if (set[w].load(std::memory_order_seq_cst) != n) continue;
            }
            if (n->key == key) return read(n->cells);
        }
        auto* fresh = new Node { key, load() };
        misses_.fetch_add(1, std::memory_order_relaxed);
        hazard.store(fresh, std::memory_order_seq_cst);
        insert(set, h, fresh);
        return read(fresh->cells);
    }

    // Blocks decompressed so far (each cache miss). Thread-safe.
    std::uint64_t misses() const { return misses_.load(std::memory_order_relaxed); }

private:
    static constexpr std::size_t kBlockBytes = 16 << 10;
    static constexpr std::size_t kRetireBatch = 64; // retired blocks between hazard scans
    static constexpr std::size_t kHazards = 1024; // threads probing at once, at most

    struct Node {
        std::uint64_t key;
        std::vector<std::uint8_t> cells;
    };
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
    void insert(std::atomic<const Node*>* set, std::uint64_t h, const Node* fresh) {
        std::lock_guard lock(writers_); // misses only: a decompression costs far more
        for (int w = 0; w < 2; ++w)
            if (const Node* n = set[w].load(std::memory_order_relaxed); n && n->key == fresh->key) {
                retire(fresh);
                return;
            }
        int w = !set[0].load(std::memory_order_relaxed) ? 0
            : !set[1].load(std::memory_order_relaxed)   ? 1
                                                        : int(toggles_[h >> 20 & (sets_ - 1)]);
        toggles_[h >> 20 & (sets_ - 1)] = std::uint8_t(w ^ 1); // the other way is older now
        if (const Node* old = set[w].exchange(fresh, std::memory_order_seq_cst)) retire(old);
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
            delete r;
            return true;
        });
    }

    std::size_t sets_;
    std::vector<std::atomic<const Node*>> ways_; // sets_ sets of 2 ways
    std::vector<std::uint8_t> toggles_ = std::vector<std::uint8_t>(sets_); // under writers_
    std::mutex writers_;
    std::vector<const Node*> retired_; // under writers_
    std::atomic<std::uint64_t> misses_ { 0 };
};

} // namespace mktb

// block_cache.hpp - the bounded cache of decompressed table blocks that every table of one
// Tablebase shares (private to the probe library).
//
// Two levels. Each thread keeps its last blocks in a small direct-mapped table of its own
// (kLocalSlots entries): a hit there reads without writing, or even reading, anything another
// thread writes, so warm probes scale with threads (an engine's search runs 8-64 of them). Below
// it, the shared cache: sharded, each shard behind its own mutex; eviction follows the CLOCK
// algorithm (an approximation of least-recently-used): a hit only sets its entry's reference
// bit, and only when it is clear; a strict LRU list, reordered on every hit, halved the
// throughput of two threads. A block is decompressed outside the lock; when two threads load the
// same block at once, the first one inserted wins. Blocks are shared (shared_ptr), so eviction
// from the shared cache never pulls a block from under a reader; a thread's own table may keep up
// to kLocalSlots blocks alive beyond the shared cache's bound (kLocalSlots * 16 KiB per thread).
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace mktb {

class BlockCache {
public:
    explicit BlockCache(std::size_t capacity_bytes)
        : shardCapacity_(std::max<std::size_t>(capacity_bytes / kShards, 1))
        , id_(nextId().fetch_add(1, std::memory_order_relaxed)) { }

    // Calls read(block) on the block `key`, taken from the cache or else from load() (which may
    // throw; nothing is cached then), and returns what read() returns. Thread-safe.
    template<class Load, class Read>
    auto with_block(std::uint64_t key, Load&& load, Read&& read) {
        const std::uint64_t h = key * 0x9e3779b97f4a7c15ULL;
        LocalSlot& local = localSlots()[h >> 40 & (kLocalSlots - 1)];
        if (local.cache == id_ && local.key == key) return read(*local.block);
        Block block = shared(h, key, load);
        local = { id_, key, block };
        return read(*block);
    }

    // Blocks decompressed so far (each cache miss). Thread-safe.
    std::uint64_t misses() {
        std::uint64_t n = 0;
        for (Shard& s : shards_) {
            std::lock_guard lock(s.mutex);
            n += s.misses;
        }
        return n;
    }

private:
    using Block = std::shared_ptr<const std::vector<std::uint8_t>>;
    static constexpr std::size_t kShards = 16;
    static constexpr std::size_t kLocalSlots = 64;
    struct Entry {
        std::uint64_t key;
        Block block;
        bool referenced;
    };
    struct alignas(64) Shard { // one cache line of its own: no false sharing between shards
        std::mutex mutex;
        std::vector<Entry> entries;
        std::unordered_map<std::uint64_t, std::size_t> index; // key -> entries position
        std::size_t hand = 0; // the CLOCK hand
        std::size_t bytes = 0;
        std::uint64_t misses = 0;
    };
    // A thread's own recent block: which cache (id_, never reused) and key it belongs to.
    struct LocalSlot {
        std::uint64_t cache = 0, key = 0;
        Block block;
    };

    static std::atomic<std::uint64_t>& nextId() {
        static std::atomic<std::uint64_t> next { 1 };
        return next;
    }
    static std::array<LocalSlot, kLocalSlots>& localSlots() {
        thread_local std::array<LocalSlot, kLocalSlots> slots;
        return slots;
    }

    // The block from the shared cache, loaded into it on a miss.
    template<class Load>
    Block shared(std::uint64_t h, std::uint64_t key, Load&& load) {
        Shard& s = shards_[h >> 58 & (kShards - 1)];
        {
            std::lock_guard lock(s.mutex);
            if (auto it = s.index.find(key); it != s.index.end()) {
                Entry& e = s.entries[it->second];
                if (!e.referenced) e.referenced = true;
                return e.block;
            }
        }
        Block block = std::make_shared<const std::vector<std::uint8_t>>(load());
        std::lock_guard lock(s.mutex);
        ++s.misses;
        if (auto it = s.index.find(key); it != s.index.end()) return s.entries[it->second].block;
        s.bytes += block->size();
        evict(s);
        s.index.emplace(key, s.entries.size());
        s.entries.push_back({ key, block, true });
        return block;
    }

    // Frees entries until the shard (with the block about to enter) fits: the hand passes over
    // referenced entries once, clearing their bit, and evicts the first unreferenced one.
    void evict(Shard& s) {
        while (s.bytes > shardCapacity_ && !s.entries.empty()) {
            if (s.hand >= s.entries.size()) s.hand = 0;
            Entry& e = s.entries[s.hand];
            if (e.referenced) {
                e.referenced = false;
                ++s.hand;
                continue;
            }
            s.bytes -= e.block->size();
            s.index.erase(e.key);
            if (s.hand != s.entries.size() - 1) { // the last entry takes the freed place
                e = std::move(s.entries.back());
                s.index[e.key] = s.hand;
            }
            s.entries.pop_back();
        }
    }

    std::size_t shardCapacity_;
    std::uint64_t id_;
    std::array<Shard, kShards> shards_;
};

} // namespace mktb

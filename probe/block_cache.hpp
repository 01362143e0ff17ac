// block_cache.hpp - the bounded cache of decompressed table blocks that every table of one
// Tablebase shares (private to the probe library).
//
// Sharded, each shard behind its own mutex, so threads probing different blocks rarely meet.
// Eviction follows the CLOCK algorithm (an approximation of least-recently-used): a hit only
// sets its entry's reference bit, and only when it is clear, so repeated hits on a block write
// nothing that other threads' caches must fetch again; a strict LRU list, reordered on every
// hit, halved the throughput of two threads. A block is decompressed outside the lock; when
// two threads load the same block at once, the first one inserted wins. Readers look at a block
// under its shard's lock, so eviction never pulls a block from under a reader.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace mktb {

class BlockCache {
public:
    explicit BlockCache(std::size_t capacity_bytes)
        : shardCapacity_(std::max<std::size_t>(capacity_bytes / kShards, 1)) { }

    // Calls read(block) on the block `key`, taken from the cache or else from load() (which may
    // throw; nothing is cached then), and returns what read() returns. Thread-safe.
    template<class Load, class Read>
    auto with_block(std::uint64_t key, Load&& load, Read&& read) {
        Shard& s = shards_[(key * 0x9e3779b97f4a7c15ULL) >> 58 & (kShards - 1)];
        {
            std::lock_guard lock(s.mutex);
            if (auto it = s.index.find(key); it != s.index.end()) {
                Entry& e = s.entries[it->second];
                if (!e.referenced) e.referenced = true;
                return read(*e.block);
            }
        }
        auto block = std::make_unique<const std::vector<std::uint8_t>>(load());
        std::lock_guard lock(s.mutex);
        ++s.misses;
        if (auto it = s.index.find(key); it != s.index.end())
            return read(*s.entries[it->second].block);
        s.bytes += block->size();
        evict(s);
        s.index.emplace(key, s.entries.size());
        s.entries.push_back({ key, std::move(block), true });
        return read(*s.entries.back().block);
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
    static constexpr std::size_t kShards = 16;
    struct Entry {
        std::uint64_t key;
        std::unique_ptr<const std::vector<std::uint8_t>> block;
        bool referenced;
    };
    struct Shard {
        std::mutex mutex;
        std::vector<Entry> entries;
        std::unordered_map<std::uint64_t, std::size_t> index; // key -> entries position
        std::size_t hand = 0; // the CLOCK hand
        std::size_t bytes = 0;
        std::uint64_t misses = 0;
    };

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
    std::array<Shard, kShards> shards_;
};

} // namespace mktb

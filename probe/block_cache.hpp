// block_cache.hpp - the bounded cache of decompressed table blocks that every table of one
// Tablebase shares (private to the probe library).
//
// Sharded least-recently-used lists, each behind its own mutex, so threads probing different
// blocks rarely meet. A block is decompressed outside the lock; when two threads load the same
// block at once, the first one inserted wins and the other's copy is dropped. Readers look at a
// block under its shard's lock, so eviction never pulls a block from under a reader.
#pragma once

#include <array>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace mktb {

class BlockCache {
public:
    using Block = std::shared_ptr<const std::vector<std::uint8_t>>;

    explicit BlockCache(std::size_t capacity_bytes)
        : shardCapacity_(std::max<std::size_t>(capacity_bytes / kShards, 1)) { }

    // Calls read(block) on the block `key`, taken from the cache or else from load() (which may
    // throw; nothing is cached then), and returns what read() returns. read() runs under the
    // shard's lock, so a hit costs no reference counting. Thread-safe.
    template<class Load, class Read>
    auto with_block(std::uint64_t key, Load&& load, Read&& read) {
        Shard& s = shards_[(key * 0x9e3779b97f4a7c15ULL) >> 58 & (kShards - 1)];
        {
            std::lock_guard lock(s.mutex);
            if (auto it = s.map.find(key); it != s.map.end()) {
                s.lru.splice(s.lru.begin(), s.lru, it->second); // most recently used first
                ++s.hits;
                return read(*it->second->second);
            }
        }
        Block block = std::make_shared<const std::vector<std::uint8_t>>(load());
        std::lock_guard lock(s.mutex);
        ++s.misses;
        if (auto it = s.map.find(key); it != s.map.end()) return read(*it->second->second);
        s.lru.emplace_front(key, block);
        s.map.emplace(key, s.lru.begin());
        s.bytes += block->size();
        // Keep at least the block just loaded, however small the capacity.
        while (s.bytes > shardCapacity_ && s.lru.size() > 1) {
            s.bytes -= s.lru.back().second->size();
            s.map.erase(s.lru.back().first);
            s.lru.pop_back();
        }
        return read(*block);
    }

    std::uint64_t hits() { return sum(&Shard::hits); }
    std::uint64_t misses() { return sum(&Shard::misses); }

private:
    static constexpr std::size_t kShards = 16;
    struct Shard {
        std::mutex mutex;
        std::list<std::pair<std::uint64_t, Block>> lru;
        std::unordered_map<std::uint64_t, std::list<std::pair<std::uint64_t, Block>>::iterator> map;
        std::size_t bytes = 0;
        std::uint64_t hits = 0, misses = 0; // per shard: no counter shared by every thread
    };
    std::uint64_t sum(std::uint64_t Shard::*counter) {
        std::uint64_t n = 0;
        for (Shard& s : shards_) {
            std::lock_guard lock(s.mutex);
            n += s.*counter;
        }
        return n;
    }
    std::size_t shardCapacity_;
    std::array<Shard, kShards> shards_;
};

} // namespace mktb

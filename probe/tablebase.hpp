// tablebase.hpp - Tablebase: a directory of Makruk tables answering "what is this position
// worth?", plainly and under the count (the counted metrics, and a packed table's one-ply
// search). Private to the probe library and the tools built on it (the generator, the program,
// tests and benchmarks): engines use mktb/probe.h or mktb/probe.hpp.
//
// The generator writes through its TableWriter (gen/table_writer.hpp) and reads the smaller
// tables it converts into through a Tablebase, the same reader that serves probing.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "game_tables.hpp"
#include "mktb/counting.hpp"
#include "tablefile.hpp"

namespace mktb {

// How Makruk's tables are named and opened, for their GameTables.
struct MakrukFiles {
    using Material = mktb::Material;
    using Entry = Table; // its Index inside
    static constexpr std::string_view kSuffix = ".mktb";
    static std::unique_ptr<Table> open(
        const std::string& path, const Material& m, BlockCache* cache, std::uint64_t id) {
        return Table::open(path, m, cache, id);
    }
    static const Table& table(const Table& t) { return t; }
};

// A directory of Makruk tables, answering "what is this position worth?", plain and under the
// count. Tables are opened on first use; decompressed blocks are kept in one cache of bounded
// size, which may be shared with Xiangqi's tables (a Prober's). Any number of threads may call
// every const member at once.
class Tablebase {
public:
    static constexpr std::size_t kDefaultCacheBytes = std::size_t(64) << 20;

    // `fixed`: the tables on disk now are all there will be (a prober), so a material without
    // a table is answered without a lock or a look at the disk; otherwise (the generator, which
    // adds tables one by one) a table written later is found too.
    explicit Tablebase(
        std::string dir, std::size_t cache_bytes = kDefaultCacheBytes, bool fixed = false);
    Tablebase(std::string dir, std::shared_ptr<BlockCache> cache, bool fixed);
    ~Tablebase();

    const std::string& dir() const { return set_.dir(); }
    // The table of a canonical material, opened on first use; nullptr when its file is absent.
    // Throws TableError when the file is damaged.
    const Table* table(const Material& canonical) const { return set_.find(canonical); }
    // The value of a legal position; nullopt when its table is absent (both bare kings: draw).
    // Throws TableError when the table is damaged.
    std::optional<Value> probe(const Position& pos) const;
    // The answer under the count state `count` for a position without Bia (pieces' or board's
    // honour; bare kings: a draw); nullopt when its table is absent or a Bia is on the board.
    // Throws TableError when a board's honour table was built with other counting options.
    // With a Bia on the board no count runs yet: the answer is the value under the count that
    // the conversion out of the Bia phase starts (moves_available -1: no deadline now).
    std::optional<CountedValue> probe_counted(
        const Position& pos, CountState count, const CountRules& rules) const;

    // Whether a table of this canonical material was on disk when the Tablebase was made, and
    // the most men of any table then. Lock-free.
    bool available(const Material& canonical) const { return set_.available(canonical); }
    int largest_men() const { return set_.largest_men(); }

    // Blocks decompressed so far (cache misses), for tests and benchmarks.
    std::uint64_t cache_misses() const;
    // Opens every table that was on disk when the Tablebase was made. Throws TableError when
    // one is damaged.
    void open_all() const { set_.open_all(); }

private:
    // `metric`'s value of `pos` in `t` (its table), searched one ply deep where a packed t lacks
    // the side to move; nullopt when a table the search needs is absent.
    std::optional<Value> value_of(const Table& t, Metric metric, const Position& pos) const;
    std::optional<Value> restore(const Table& t, Metric metric, const Position& pos) const;
    // The value of `child` (reached by a conversion out of a table stored under `rules`) in
    // `metric`; nullopt when a table it needs is absent.
    std::optional<Value> after_conversion(
        Metric metric, const Position& child, const CountRules& rules) const;
    std::shared_ptr<BlockCache> cache_;
    GameTables<MakrukFiles> set_;
};

} // namespace mktb

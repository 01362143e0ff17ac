// table_writer.hpp - writes a table file (docs/format.md): the generator's side of the format,
// kept out of the probing library so that an engine links no compressor thread pool.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "ranks.hpp"
#include "tablebase.hpp"

namespace mktb {

// Writes a table file: add() each of `metrics` metrics in increasing order, then commit().
// cells[c] holds index_size cells of cell_bytes each for side to move c (or a CellSource gives
// them a block at a time); dont_care[c] (one bit per slot, or empty for none) marks the slots
// that are no position, whose cells the writer fills as compresses best. A metric added with
// `dtm` (the DTM cells already added, dtm_bytes each) is stored XOR those cells
// (Coding::XorDtm, in cells as wide as the wider of the two) when that makes it smaller. add()
// compresses the metric and appends its blocks to PATH.tmp at once, so neither the caller's
// cells nor the compressed blocks stay in memory; commit() writes the header and block index in
// front, the checksum at the end, and renames the file to PATH, so a table is whole or absent
// (a writer destroyed uncommitted removes PATH.tmp). Throws TableError on failure, naming the
// file and the cause (a full disk among them).
//
// Over several ranks (ranks.hpp), every rank makes a writer and calls add() together; each
// compresses the blocks of its own slots (set_slots) and rank 0, the only one with a file
// (`writes`), receives and writes them all in order.
class TableWriter {
public:
    TableWriter(
        const Material& m, std::uint32_t rules, std::string path, int metrics, bool writes = true);
    // A table of any game: `key` gives its game, name, cells per side and index scheme.
    TableWriter(const TableKey& key, std::uint32_t rules, std::string path, int metrics,
        bool writes = true);
    ~TableWriter();
    TableWriter(const TableWriter&) = delete;
    TableWriter& operator=(const TableWriter&) = delete;

    using DontCare = std::array<std::vector<std::uint64_t>, COLOR_NB>;
    // The n cells of side c from slot `first` on (cell_bytes each, little-endian): written to
    // `scratch` (room for n), or found in the source's own array; returns where they are.
    // Called from several threads at once, for disjoint ranges.
    using CellSource = std::function<const std::uint8_t*(
        Color c, std::uint64_t first, std::size_t n, std::uint8_t* scratch)>;
    void add(Metric metric, int cell_bytes, const CellSource& cells, const DontCare& dont_care,
        const std::span<const std::uint8_t>* dtm = nullptr, int dtm_bytes = 0);
    void add(Metric metric, int cell_bytes, const std::span<const std::uint8_t> cells[COLOR_NB],
        const DontCare& dont_care, const std::span<const std::uint8_t>* dtm = nullptr,
        int dtm_bytes = 0);
    void commit();
    // The index scheme the cells added are in (Index::scheme()); Index::kScheme unless told.
    void set_index_scheme(int scheme) { header_.index_scheme = std::uint32_t(scheme); }
    // zstd's level for the blocks added from now on (1 unless told: Makruk's working files).
    void set_level(int level) { level_ = level; }
    // Over several ranks: mine(slot) tells the blocks this rank's cells give (by their first
    // slot, of either side); the other ranks give the others. All of them unless told.
    void set_share(std::function<bool(std::uint64_t slot)> mine, Ranks& ranks) {
        mine_ = std::move(mine), ranks_ = &ranks;
    }
    // The bytes one block of these cells takes in a file (zstd as add() compresses it): what
    // the generator's choice of index scheme compares.
    static std::size_t compressed_size(std::span<const std::uint8_t> block);

private:
    [[noreturn]] void fail(const std::string& what);
    void put(const void* data, std::size_t n); // at the file's current position

    bool mine(std::size_t block) const; // is block (of either side) this rank's?
    void gather(
        std::vector<std::vector<std::uint8_t>>& frames, std::size_t first, std::size_t last);

    TableHeader header_ {};
    bool writes_ = true;
    std::function<bool(std::uint64_t)> mine_; // empty: every block is this rank's
    Ranks* ranks_ = nullptr;
    std::string path_, tmp_;
    int metrics_ = 0, added_ = 0;
    int level_;
    std::vector<std::uint64_t> offsets_; // block b spans offsets_[b] .. offsets_[b + 1]
    std::FILE* file_ = nullptr;
};

// Writes to `to` the table file `from` of ending `m` (a full one, its checksum checked first)
// with one side to move: the one whose blocks take fewer bytes, every metric together
// (docs/format.md, "Packed tables"), in blocks of `block_cells` (a divisor of the file's) at
// zstd `level`. Written to TO.tmp and renamed, so `to` is whole or absent. Returns the side
// kept and the bytes of both files. Throws TableError naming the file and the fault.
// The defaults, measured (docs/format.md, "Packed tables"): blocks of 4,096 cells keep a cold
// probe of the side searched, which decompresses a block per king move, near a full table's;
// level 12 wins back most of what the smaller blocks lose.
struct PackOptions {
    std::uint32_t block_cells = 4096;
    int level = 12;
};
struct PackedTable {
    Color kept = WHITE;
    std::uint64_t bytes_before = 0, bytes_after = 0;
};
PackedTable pack_table(const std::string& from, const std::string& to, const Material& m,
    const PackOptions& options = {});
// The same for a table of another game (Xiangqi's), whose name, cells and game `key` gives.
PackedTable pack_table(const std::string& from, const std::string& to, const TableKey& key,
    const PackOptions& options = {});

} // namespace mktb

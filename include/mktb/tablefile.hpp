// mktb/tablefile.hpp - the table file format (docs/format.md) and its one reader and writer,
// plus Tablebase: a directory of tables answering "what is this position worth?".
//
// The generator writes through write_table() and reads the smaller tables it converts into
// through Tablebase, the same reader that serves probing.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "mktb/index.hpp"
#include "mktb/value.hpp"

namespace mktb {

// A table file that is missing a part, damaged (checksum) or of another version or ending.
class TableError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

inline constexpr char kTableMagic[8] = { 'M', 'K', 'T', 'B', '\r', '\n', 0x1a, '\n' };
inline constexpr std::uint32_t kTableVersion = 1;
inline constexpr std::uint32_t kIndexScheme = 1; // king pairs + combinations, mktb/index.hpp
inline constexpr std::uint32_t kMetricDtm = 1; // cells as in mktb/value.hpp
inline constexpr std::uint32_t kBlockCells = 1u << 16;

// On-disk header, little-endian, at offset 0.
struct TableHeader {
    char magic[8];
    std::uint32_t version;
    std::uint32_t header_bytes; // sizeof(TableHeader)
    char signature[16]; // e.g. "KRSvKM", NUL-padded
    std::uint32_t index_scheme;
    std::uint32_t metric;
    std::uint32_t cell_bytes; // 1 or 2
    std::uint32_t block_cells; // cells per compressed block
    std::uint64_t index_size; // cells per side to move
    std::uint64_t blocks_per_side;
};
static_assert(sizeof(TableHeader) == 64, "the on-disk header layout is fixed");

std::string table_path(const std::string& dir, const Material& m); // DIR/KRvK.mktb

// Writes a table: cells[c] holds index_size cells of cell_bytes each for side to move c, with
// the "don't care" slots already filled. Written to a temporary file and renamed, so the file
// is whole or absent. Throws TableError on I/O failure.
void write_table(const std::string& path, const Material& m, int cell_bytes,
    const std::span<const std::uint8_t> cells[COLOR_NB]);

// A table read whole into memory, after its checksum and every block were verified.
class LoadedTable {
public:
    static LoadedTable load(const std::string& path, const Material& expected);

    const Index& index() const { return index_; }
    int cell_bytes() const { return cell_bytes_; }
    Value value(Color stm, std::uint64_t slot) const {
        const std::uint8_t* p = cells_[stm].data() + slot * std::size_t(cell_bytes_);
        return Value::from_cell(cell_bytes_ == 1 ? p[0] : unsigned(p[0] | p[1] << 8));
    }
    // The value of a position of this table's material in either colour orientation (a
    // position whose stronger side is Black is looked up as its colour-swapped twin).
    Value probe(const Position& pos) const;

private:
    explicit LoadedTable(const Material& m)
        : index_(m) { }
    Index index_;
    int cell_bytes_ = 1;
    std::vector<std::uint8_t> cells_[COLOR_NB];
};

// A directory of tables. Tables are loaded on first use; any number of threads may call probe()
// and table() at once.
class Tablebase {
public:
    explicit Tablebase(std::string dir)
        : dir_(std::move(dir)) { }

    const std::string& dir() const { return dir_; }
    // The table of a canonical material, loaded on first use; nullptr when its file is absent.
    // Throws TableError when the file is damaged.
    const LoadedTable* table(const Material& canonical) const;
    // The value of a legal position; nullopt when its table is absent (both bare kings: draw).
    // Throws TableError when the table is damaged.
    std::optional<Value> probe(const Position& pos) const;

private:
    std::string dir_;
    mutable std::mutex mutex_;
    mutable std::map<std::string, std::unique_ptr<LoadedTable>> tables_;
    mutable std::map<std::string, bool> missing_;
};

// FNV-1a 64 of a byte range: the per-file checksum.
std::uint64_t checksum64(
    std::span<const std::uint8_t> bytes, std::uint64_t seed = 0xcbf29ce484222325ULL);

} // namespace mktb

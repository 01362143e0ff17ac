// tablefile.hpp - the table file format of both games (docs/format.md) and its one reader, Table:
// one file. The sets of tables a directory holds are each game's (tablebase.hpp for Makruk,
// xiangqi_tables.hpp), over game_tables.hpp. Private to the probe library and the tools built on
// it (the generator, the program, tests and benchmarks): engines use mktb/probe.h or
// mktb/probe.hpp. The generator writes through its TableWriter (gen/table_writer.hpp).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "huge_array.hpp"
#include "mktb/counting.hpp"
#include "mktb/errors.hpp"
#include "mktb/index.hpp"
#include "mktb/value.hpp"

namespace mktb {

inline constexpr char kTableMagic[8] = { 'M', 'K', 'T', 'B', '\r', '\n', 0x1a, '\n' };
inline constexpr std::uint32_t kTableVersion = 6;
// Version 3 had no `coding` (every metric stored plain, header 72 bytes), versions 3 and 4 only
// index scheme 1 (White's men's digits first): both still read. A version 5 file names its
// scheme, 1 or 2 (Black's men's digits first), whichever compressed its ending smaller. Version
// 6 adds `sides`: a packed file (`mktb pack`) keeps one side to move, the other is found by a
// one-ply search (docs/format.md, "Packed tables"); versions 3 to 5 hold both.
inline constexpr std::uint32_t kOldestTableVersion = 3;
inline constexpr std::uint32_t kBlockCells = 1u << 14;

// How a metric's cells are stored (docs/format.md, "Coding").
enum class Coding : std::uint8_t {
    Plain = 0,
    // XOR the DTM cell of the same slot and side. Where the Bia is the winner's, the
    // Bia-phase value equals DTM on ~99 % of the positions (it differs only where a conversion
    // out of the Bia phase is counted), so the stored cells are nearly all 0: KSPvK's metric
    // shrinks from 1.5 MB to 73 kB, KRPvK's from 821 kB to 33 kB. The writer uses it where it
    // compresses smaller (not KRvKP's, the Bia being the defender's); board's honour is the
    // distance to the baring capture, not to mate, and gained nothing from it.
    XorDtm = 1,
    NB = 2
};

// The game whose rules a table follows: the header's `game` field (0 in every Makruk file, whose
// bytes were there before Xiangqi's tables and did not change).
enum class Game : std::uint32_t { Makruk = 0, Xiangqi = 1 };
const char* game_name(Game g); // "Makruk", "Xiangqi"

// What identifies a table file whatever its game: the game, the ending's name, its cells per side
// to move and the index scheme they are in (Makruk's Index::scheme(); 0 for Xiangqi's one).
struct TableKey {
    Game game = Game::Makruk;
    std::string name;
    std::uint64_t cells = 0;
    std::uint32_t scheme = 0;
    std::uint32_t block_cells = kBlockCells; // cells per compressed block (Xiangqi: 64 Ki)
};

// On-disk header, little-endian, at offset 0.
struct TableHeader {
    char magic[8];
    std::uint32_t version;
    std::uint32_t header_bytes; // sizeof(TableHeader)
    char signature[16]; // e.g. "KRSvKM", NUL-padded
    std::uint32_t index_scheme; // Index::scheme(): the order of the men's digits
    std::uint32_t metrics; // bit m set: Metric m stored
    std::uint32_t rules; // the counting options the counted metrics were built with
    std::uint32_t block_cells; // cells per compressed block
    std::uint64_t index_size; // cells per side to move
    std::uint64_t blocks_per_side;
    std::uint8_t cell_bytes[8]; // per Metric: 1 or 2, 0 when absent
    std::uint8_t coding[8]; // per Metric: a Coding (version 4 on)
    std::uint32_t sides; // bit c set: the cells of side c to move stored (version 6 on)
    std::uint32_t game; // a Game (0 before version 6: Makruk)
};
static_assert(sizeof(TableHeader) == 88, "the on-disk header layout is fixed");
inline constexpr std::uint32_t kTableHeaderBytesV3 = 72; // without `coding`
inline constexpr std::uint32_t kTableHeaderBytesV5 = 80; // without `sides`
inline constexpr std::uint32_t kBothSides = 3;
// The header's size in a file of `version`: what comes before the block offsets.
constexpr std::size_t table_header_bytes(std::uint32_t version) {
    return version == 3 ? kTableHeaderBytesV3
        : version < 6   ? kTableHeaderBytesV5
                        : sizeof(TableHeader);
}

std::string table_path(const std::string& dir, const Material& m); // DIR/KRvK.mktb

class BlockCache;

// One table file, kept open and read a block at a time (pread, not a memory map: a file truncated
// under a map kills its reader with SIGBUS, a read only comes back short). Opening checks the
// header and the block index against their own checksum; a block is read and decompressed on
// first use (through the Tablebase's bounded cache) and checked by zstd's frame checksum, so a
// damaged byte is reported, never answered. A file changed after it was opened (truncated,
// rewritten in place: its size or change time moved) makes every later read throw TableError
// and the Table stale(); its Tablebase then opens the file again, once it is whole.
// Every const member may be called from any number of threads at once.
class Table {
public:
    // Throws TableError naming the file and the fault.
    static std::unique_ptr<Table> open(
        const std::string& path, const Material& expected, BlockCache* cache, std::uint64_t id);
    // A table of another game (Xiangqi's), whose index the caller knows: `expected` names the
    // game, ending and cells the file must hold.
    static std::unique_ptr<Table> open(
        const std::string& path, const TableKey& expected, BlockCache* cache, std::uint64_t id);
    ~Table();
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;

    // Makruk's index (a Makruk table only).
    const Index& index() const { return *index_; }
    Game game() const { return game_; }
    std::uint64_t cells() const { return cellsPerSide_; } // per side to move
    std::uint32_t rules() const { return rules_; }
    bool has(Metric m) const { return cell_bytes_[int(m)] != 0; }
    int cell_bytes(Metric m) const { return cell_bytes_[int(m)]; } // 0 when absent
    Coding coding(Metric m) const { return coding_[int(m)]; }
    std::uint64_t file_bytes() const { return size_; }
    // Whether a read found the file changed since it was opened: this Table answers no more.
    bool stale() const { return stale_.load(std::memory_order_relaxed); }
    // Whether the cells of side `stm` (in this table's colours) are stored: both sides in a
    // full table, one in a packed one (the other is a one-ply search: Tablebase restores it).
    bool stores(Color stm) const { return sides_ >> stm & 1; }
    bool packed() const { return sides_ != kBothSides; }
    Value value(Metric m, Color stm, std::uint64_t slot) const {
        const int bytes = cell_bytes_[int(m)];
        if (resident_.load(std::memory_order_acquire) & part(m, stm)) {
            const std::uint8_t c = cells_[int(m)][stm][slot];
            return bytes == 1 || c != 0xFF ? Value::from_cell(c) : long_value(m, stm, slot);
        }
        return cached_value(m, stm, slot);
    }
    Value value(Color stm, std::uint64_t slot) const { return value(Metric::Dtm, stm, slot); }
    // The resident cells of metric m for side stm to move (nullptr before make_resident()), for
    // a reader of every cell (verify): 8 bits each, where 0xFF in a 16-bit part means "ask
    // value()". Read without the residency check value() makes on every call.
    const std::uint8_t* resident_cells(Metric m, Color stm) const {
        return resident_.load(std::memory_order_acquire) & part(m, stm) ? cells_[int(m)][stm].get()
                                                                        : nullptr;
    }
    // Asks for the memory value(m, stm, slot) will read, without waiting: first the block
    // cache's set, then (`set_near`, once that has arrived) the block's cells. A packed table's
    // one-ply search asks for all its moves' cells in two rounds, then reads them.
    void prefetch(Metric m, Color stm, std::uint64_t slot, bool set_near = false) const;
    // The value of a position of this table's material in either colour orientation (a
    // position whose stronger side is Black is looked up as its colour-swapped twin). value()
    // and probe() of a side a packed table lacks throw TableError: Tablebase::probe() answers.
    Value probe(Metric m, const Position& pos) const;
    Value probe(const Position& pos) const { return probe(Metric::Dtm, pos); }

    // The cells of one metric for one side to move, as make_resident() loads them.
    static constexpr unsigned part(Metric m, Color stm) { return 1u << (2 * int(m) + int(stm)); }
    static constexpr unsigned kAllParts = ~0u;
    // Checks the whole file's checksum and decompresses the blocks of `parts` (of those the
    // table has) into memory, so that value() there is a plain array read from then on: for
    // the generator, which reads a smaller table many million times, often one side to move
    // only. 16-bit cells are held in 8 bits, the few beyond (mates longer than 253 plies) in a
    // sorted list per block: KSMvKM's cells take 1.1 GB, not 1.9 (KSMvKP's generation reads
    // them). Cumulative and thread-safe; throws TableError when the file is damaged, or packed
    // and one of `parts` is of the side it lacks.
    void make_resident(unsigned parts = kAllParts) const;

private:
    Table() = default;
    // Reads and checks the header and block index; `size_of(version, scheme)` gives the cells
    // per side the file must hold in that index scheme (nullopt: a scheme unknown).
    template<class SizeOf>
    static std::unique_ptr<Table> load(const std::string& path, Game game, const std::string& name,
        BlockCache* cache, std::uint64_t id, SizeOf size_of);
    Value cached_value(Metric m, Color stm, std::uint64_t slot) const;
    [[noreturn]] void lacks(Color stm) const; // throws: a packed table lacks side `stm`
    // The first block of metric m's cells of side stm to move (a packed table stores one side).
    std::size_t side_block(Metric m, Color stm) const {
        return firstBlock_[int(m)] + (sides_ == kBothSides ? std::size_t(stm) * blocksPerSide_ : 0);
    }
    Value long_value(Metric m, Color stm, std::uint64_t slot) const; // a resident 16-bit cell
    // Reads out.size() bytes at `offset`; throws TableError (and marks the table stale) when the
    // file ends early or has changed since it was opened.
    void read_at(std::uint64_t offset, std::span<std::uint8_t> out) const;
    int metric_of(std::size_t block) const; // the metric whose cells block `block` holds
    // Block `block`'s size in bytes, its stored bytes, and its cells (a relative coding undone),
    // written into `out` of that size.
    std::size_t block_bytes(std::size_t block) const;
    void decompress_raw(std::size_t block, std::span<std::uint8_t> out) const;
    void decompress(std::size_t block, std::span<std::uint8_t> out) const;
    // The cells of a cached piece: a whole block of at most kBlockCells cells, or that many of a
    // larger block's.
    std::uint32_t piece_cells() const { return std::min(blockCells_, kBlockCells); }
    // Where the block cache keeps the cell of `slot`: the key of its piece and the byte within it.
    struct CacheSpot {
        std::size_t block, piece;
        std::uint64_t key;
        std::size_t at;
    };
    CacheSpot cache_spot(Metric m, Color stm, std::uint64_t slot) const;
    // Piece `piece` of block `block`: its size in bytes, and its cells (as decompress() gives
    // them) written into `out` of that size (a block no larger than a piece: decompress()).
    std::size_t piece_bytes(std::size_t block, std::size_t piece) const;
    void decompress_piece(std::size_t block, std::size_t piece, std::span<std::uint8_t> out) const;

    std::optional<Index> index_; // Makruk's
    Game game_ = Game::Makruk;
    std::uint64_t cellsPerSide_ = 0;
    std::string path_;
    int fd_ = -1;
    std::size_t size_ = 0;
    // What the file was when opened: a read that finds another size or change time is refused.
    std::int64_t changedSec_ = 0, changedNsec_ = 0;
    mutable std::atomic<bool> stale_ { false };
    BlockCache* cache_ = nullptr;
    std::uint64_t id_ = 0; // this table's part of the cache keys
    std::uint64_t serial_ = 0; // unique in the process: names it in a thread's last block
    std::uint32_t rules_ = 0;
    std::uint32_t blockCells_ = 0;
    std::uint64_t blocksPerSide_ = 0;
    std::uint32_t sides_ = kBothSides;
    int cell_bytes_[int(Metric::NB)] {};
    Coding coding_[int(Metric::NB)] {};
    std::size_t firstBlock_[int(Metric::NB)] {}; // block number of each metric's first block
    std::vector<std::uint64_t> offsets_;
    mutable std::mutex residentMutex_; // one make_resident() at a time
    mutable bool checked_ = false; // the whole file's checksum (under residentMutex_)
    mutable std::atomic<unsigned> resident_ { 0 }; // the parts loaded
    // Resident cells, 8 bits each (0xFF in a 16-bit part: look in the long list), and per
    // 16-bit part the cells beyond 8 bits: block b's are longCells_[longStart_[b] ..
    // longStart_[b + 1]), each (slot in the block << 16 | cell), in slot order.
    // (not zeroed when made: the decompression writes every one)
    mutable HugeArray<std::uint8_t> cells_[int(Metric::NB)][COLOR_NB];
    mutable std::vector<std::uint64_t> longStart_[int(Metric::NB)][COLOR_NB];
    mutable std::vector<std::uint32_t> longCells_[int(Metric::NB)][COLOR_NB];
};

// Bytes fit to print: control bytes as \xNN (an escape sequence from a file or an argument must
// not reach a terminal as one), and with `ascii_only` (a file's header: any bytes) every byte
// above ASCII and the backslash too; else letters of any script stay (Thai, Chinese).
std::string escaped(std::string_view bytes, bool ascii_only = true);

// FNV-1a 64 of a byte range: the per-file checksum.
std::uint64_t checksum64(
    std::span<const std::uint8_t> bytes, std::uint64_t seed = 0xcbf29ce484222325ULL);

} // namespace mktb

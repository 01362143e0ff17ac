// generator.cpp - retrograde analysis of one ending on the generation index (gen_index.hpp): the
// inner loops work on slots and squares, never on Positions or the storage Index.
//
// Pipeline, each phase a parallel loop over blocks of slots or king pairs (oneTBB):
//   setup    the smaller tables loaded whole, one conversion recipe per kind of capture or
//            promotion (where the men go in the child's index, which metric to read, and a
//            table turning the child's value into this metric's)
//   init     per slot and side to move: legality, mate and stalemate, every conversion probed
//            once, and a counter of the legal moves that stay in the table
//   iterate  levels n = 0, 1, 2, ... plies: every cell holding n is un-moved once; a loss makes
//            its predecessors won in n + 1, a win decrements their counters, and a counter that
//            reaches 0 is a loss in n + 1 plies (later when a losing conversion holds out longer).
//            Two passes a level, each king pair a slice with one task: the men's un-moves
//            (they stay in the slice; a chunk of 64 slots at a time, the squares of the lowest
//            man, 32 for a Bia), then the kings', by the slice they land in, from lists of the
//            cells that hold n
//   output   the storage Index's slots, statistics, compression
// Every metric (DTM and the ending's counted one) runs in the same level loop: one scan and one
// un-move generation per cell serve each metric whose cell holds the level.
//
// Cells: one per metric, side to move and slot, 8 bits (16 under GenOptions::wide_cells):
//   0 a draw, final; 1 .. base-1 undecided, counting the in-table moves not yet known to lose;
//   base + p - offset decided, mate in p plies (odd: the side to move mates) for p in the
//   window of levels offset .. offset + span; "far" (win or loss): decided beyond the window,
//   p kept in a list until the window reaches it; "retired": decided before the window, p in
//   the spill; all ones: no position. When the level loop outgrows the window, the window moves
//   on (rollover): the cells decided below the level are spilled, compressed, and retired, so a
//   mate of any length runs in 8-bit cells (KSMvKM, 353 plies: 1.9 GB of cells, not 3.8).
// One writer per cell in each pass (the task of the cell's king pair), and updates that commute
// (a win written once, decrements), so the bytes written do not depend on the thread count.
//
// Symmetry: a position whose board equals its reflection in a1-h8 (kings on the diagonal, the
// "residue") is reached by un-moves in mirrored pairs; such a cell un-moves only one of each
// pair, so every counter receives exactly one decrement per legal move. A symmetric position's
// own moves come in mirrored pairs too, each pair reaching one cell by one un-move: its counter
// counts the pairs (a move that is its own mirror, along a1-h8, counting as one).
#include "generator.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <functional>
#include <limits>
#include <optional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <sys/mman.h>
#include <tbb/combinable.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_reduce.h>
#include <type_traits>
#include <unistd.h>
#include <zstd.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "gen_index.hpp"
#include "parallel.hpp"
#include "table_writer.hpp"

namespace mktb {
namespace {

constexpr int kMaxMetrics = 2; // DTM and one counted metric

// estimate_memory()'s model: bytes per generation cell (one slot of one metric and side) at the
// peak, and what any run holds besides (the program, oneTBB's threads, the block cache). Both
// from measured peaks (docs/generator.md, "Memory"), rounded up.
constexpr double kGenerationBytesPerCell = 1.25;
constexpr std::uint64_t kFixedBytes = std::uint64_t(64) << 20;

// Cell arrays: vectors whose resize() leaves new elements uninitialized, so that memory written
// before it is read stays untouched, hence unallocated, until then.
template<class T>
struct Uninitialized : std::allocator<T> {
    template<class U>
    struct rebind {
        using other = Uninitialized<U>;
    };
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
void release_pages(const void* p, std::size_t bytes) {
    static const auto page = std::uintptr_t(sysconf(_SC_PAGESIZE));
    const std::uintptr_t begin = (std::uintptr_t(p) + page - 1) & ~(page - 1);
    const std::uintptr_t end = (std::uintptr_t(p) + bytes) & ~(page - 1);
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_DONTNEED);
}

// A file without a name in a directory (created and unlinked at once, so that nothing is left
// behind however the process ends): where the spill's chunks go, written by several threads at
// once and read back by the output.
class ScratchFile {
public:
    ScratchFile(const std::string& dir, const std::string& what)
        : what_(what + " (a scratch file in " + dir + ")") {
        const std::string path = dir + "/.mktb-scratch-" + std::to_string(getpid());
        fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
        if (fd_ < 0) fail("cannot create");
        ::unlink(path.c_str());
    }
    ~ScratchFile() { ::close(fd_); }
    ScratchFile(const ScratchFile&) = delete;
    ScratchFile& operator=(const ScratchFile&) = delete;

    // Appends `bytes`; returns their offset.
    std::uint64_t append(std::span<const std::uint8_t> bytes) {
        const std::uint64_t at = end_.fetch_add(bytes.size());
        for (std::size_t done = 0; done < bytes.size();) {
            errno = 0;
            const ssize_t n
                = ::pwrite(fd_, bytes.data() + done, bytes.size() - done, off_t(at + done));
            if (n <= 0) fail("cannot write");
            done += std::size_t(n);
        }
        return at;
    }
    void read(std::uint64_t at, std::span<std::uint8_t> out) const {
        for (std::size_t done = 0; done < out.size();) {
            errno = 0;
            const ssize_t n = ::pread(fd_, out.data() + done, out.size() - done, off_t(at + done));
            if (n <= 0) fail("cannot read");
            done += std::size_t(n);
        }
    }

private:
    [[noreturn]] void fail(const char* verb) const {
        const int error = errno;
        throw TableError(std::string(verb) + " " + what_ + ": "
            + (error ? std::strerror(error) : "end of file") + "; no table was written");
    }
    std::string what_;
    int fd_ = -1;
    std::atomic<std::uint64_t> end_ { 0 };
};

// A board of material m with side to move stm, men on arbitrary squares: what the counting
// functions read from a position (men, their kinds, the side to move) is all that it carries.
Position representative(const Material& m, Color stm) {
    Position pos;
    pos.put_piece(make_piece(WHITE, KHUN), SQ_A1);
    pos.put_piece(make_piece(BLACK, KHUN), SQ_H8);
    int next = SQ_C1;
    for (Color c : { WHITE, BLACK })
        for (PieceType pt : kNameOrder)
            for (int k = 0; k < m.count[c][pt]; ++k) {
                Square s;
                do s = Square(next++);
                while (!pos.empty(s) || (pt == BIA && !(kBiaSquares[c] & square_bb(s))));
                pos.put_piece(make_piece(c, pt), s);
            }
    pos.set_side_to_move(stm);
    return pos;
}

// A capture or promotion of one kind (which man is captured, which Bia promotes): the child
// table, where each man goes in the child's index, and for each metric generated the child's
// metric to read and the map from its cells to the value this metric gives the child.
struct Recipe {
    bool bareKings = false; // nothing left but the kings: a draw
    const Table* table = nullptr;
    bool swapped = false; // the child's stronger side is this table's Black
    std::array<std::int8_t, kMaxGenMen> dest {}; // child man slot of each man, -1 captured
    struct Read {
        Metric metric = Metric::Dtm;
        std::array<std::vector<Value>, COLOR_NB> value; // [child side to move][child cell]
        // The child's resident cells for its side to move (Table::resident_cells), read
        // without value()'s residency check; in a table of 16-bit cells 0xFF asks value().
        const std::uint8_t* cells = nullptr;
        bool wide = false;
    };
    std::array<Read, kMaxMetrics> read;
};

// The child's stored metric a conversion is valued from: its own counted metric while the
// count goes on (a Bia still on the board; a capture keeping men on both sides under board's
// honour), else its DTM, or its board's honour metric when the last Bia leaves men on both sides.
Metric metric_read(Metric metric, CountPhase child) {
    if (metric == Metric::Dtm || child == CountPhase::PiecesHonour) return Metric::Dtm;
    if (metric == Metric::Bia && child == CountPhase::NoCount) return Metric::Bia;
    return Metric::Board;
}

// The value a conversion gives a metric, for the child's side to move, from the child's stored
// value in metric_read() (docs/rules.md §3: the count a conversion starts values it).
Value conversion_value(
    Metric metric, const Material& child, Value stored, Color stm, const CountRules& rules) {
    const CountPhase phase = count_phase(child);
    if (metric == Metric::Dtm) return stored;
    const Position pos = representative(child, stm);
    if (metric == Metric::Bia) {
        // Still a Bia: its own Bia-phase value. The last Bia gone: the count starts now.
        if (phase == CountPhase::NoCount) return stored;
        if (phase == CountPhase::BoardHonour)
            return as_value(counted_board_honour(stored, fresh_count(pos, rules), rules));
        return as_value(counted_pieces_honour(pos, stored, fresh_count(pos, rules), rules));
    }
    // Board's honour: a capture keeping men on both sides continues the count; one baring the
    // defender succeeds when its fresh pieces' honour count still wins (or, under
    // switch_to_pieces = if_shorter, the mate itself must fit: the distance counts).
    if (phase == CountPhase::BoardHonour) return stored;
    const CountedValue c = counted_pieces_honour(pos, stored, fresh_count(pos, rules), rules);
    if (rules.has(RuleOption::SwitchIfShorter) && !rules.has(RuleOption::BoardHonourOff))
        return as_value(c);
    return c.result == CountedValue::Result::Loss ? Value::mate_in_plies(0) : Value::draw();
}

// Legal moves of one side, as the generator needs them: in-table moves counted (or visited),
// conversions valued.
struct MoveSummary {
    int inTable = 0; // legal moves that stay in this table
    int conversions = 0; // legal captures and promotions
    bool inCheck = false;
    std::array<Value, kMaxMetrics> best {}; // best conversion, from the mover's view
};

template<class Cell>
class Generation {
public:
    static constexpr Cell kInvalid = std::numeric_limits<Cell>::max();
    static constexpr Cell kRetired = kInvalid - 1; // decided below the window: see the spill
    static constexpr Cell kFarWin = kInvalid - 2; // decided (a win, or a win's bound) beyond it
    static constexpr Cell kFarLoss = kInvalid - 3; // decided (a loss) beyond it
    static constexpr Cell kDraw = 0;

    Generation(const Material& m, const Tablebase& tables, const GenOptions& options)
        : material_(m)
        , options_(options)
        , rules_(options.rules)
        , gi_(m)
        , index_(m) {
        metrics_ = stored_metrics(m);
        if (options.dtm_only) metrics_.resize(1);
        for (Color c : { WHITE, BLACK }) hasRuea_[c] = m.count[c][RUEA] > 0;
        bool triplets = false; // three identical men: a step may reorder them through encode()
        for (int j = 0; j < gi_.men(); ++j) triplets |= gi_.group_size(j) > 2;
        if (!triplets) low_ = gi_.low_field();
        int maxMoves = 0;
        for (Color c : { WHITE, BLACK }) {
            // An upper bound on the in-table moves of a side, + 1 for a drawing conversion.
            int n = 8;
            for (PieceType pt : kNameOrder) {
                const int each = pt == RUEA ? 14
                    : pt == MA              ? 8
                    : pt == KHON            ? 5
                    : pt == MET             ? 4
                                            : 1;
                n += each * (m.count[c][pt] + (pt == MET ? m.count[c][BIA] : 0));
            }
            maxMoves = std::max(maxMoves, n + 1);
        }
        base_ = Cell(maxMoves + 1);
        span_ = int(kFarLoss) - 1 - int(base_);
        // At least 2: a rollover at an odd level keeps the level before it in the window.
        if (options.window_plies > 0) span_ = std::min(span_, std::max(options.window_plies, 2));
        // The smaller tables are opened here, not read through the caller's: their resident
        // cells (up to 2 GB for KSMvKP, which reads two sides of KSMvKM's 16-bit cells) are
        // freed when the level loop is done, before the output needs memory of its own.
        dir_ = tables.dir();
        children_ = std::make_unique<Tablebase>(tables.dir());
        setup_recipes(*children_);
    }

    TableStats run(TableWriter& writer) {
        timed("init", [&] { init(); });
        timed("iterate", [&] { iterate(); });
        // No conversion is valued from here on: the smaller tables' cells go.
        for (auto& row : recipes_)
            for (auto& r : row) r.reset();
        children_.reset();
        timed("output", [&] { output(writer, stats_); });
        return std::move(stats_);
    }

private:
    template<class Phase>
    void timed(const char* name, Phase&& phase) {
        const auto start = std::chrono::steady_clock::now();
        phase();
        stats_.phase_seconds.emplace_back(
            name, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }

    // ---- cell codes ----
    static bool is_counter(Cell c, Cell base) { return c != kDraw && c < base; }
    bool is_counter(Cell c) const { return is_counter(c, base_); }
    bool in_window(Cell c) const { return c >= base_ && c < kFarLoss; }
    int plies(Cell c) const { return offset_ + int(c) - int(base_); } // a code in the window
    int top() const { return offset_ + span_; } // the last level the window holds
    Cell code(int p) const { return Cell(int(base_) + p - offset_); } // p in the window
    Cell& cell(int k, Color c, std::uint64_t i) { return cells_[k][c][i]; }

    // A decision in p plies for cell (k, c, i): its code, far beyond the window (p set aside
    // until a rollover brings the window there), and the level noted.
    Cell decided(int k, Color c, std::uint64_t i, int p) {
        note_level(p);
        if (p <= top()) {
            mark_block(k, c, i, p);
            return code(p);
        }
        farNew_.local().push_back({ i, p, std::int8_t(k), c });
        return p & 1 ? kFarWin : kFarLoss;
    }
    // The far decisions made in a parallel phase join the list.
    void gather_far() {
        farNew_.combine_each([&](std::vector<Far>& v) {
            far_.insert(far_.end(), v.begin(), v.end());
            v.clear();
        });
    }

    // ---- rollover and spill ----
    // The window's first level becomes `from` (even, so a code's parity is its distance's): every
    // cell decided below it is written to a new spill snapshot (zstd, a chunk at a time, every
    // other cell there the filler kInvalid) and retired; the cells in the window are coded anew;
    // far decisions the window now reaches take their codes.
    void rollover(int from) {
        if (!spillFile_)
            spillFile_ = std::make_unique<ScratchFile>(
                dir_, "the spill of " + material_.name() + "'s level loop");
        Snapshot& snap = spill_.emplace_back();
        snap.offset = offset_;
        const int metrics = int(metrics_.size());
        for (int k = 0; k < metrics; ++k)
            for (Color c : { WHITE, BLACK }) {
                Cells<Cell>& x = cells_[k][c];
                auto& chunks = snap.chunks[std::size_t(k)][c];
                chunks.resize((x.size() + kSpillChunk - 1) / kSpillChunk);
                tbb::combinable<int> highest([] { return -1; });
                tbb::parallel_for(std::size_t(0), chunks.size(), [&](std::size_t q) {
                    thread_local std::vector<Cell> kept;
                    thread_local std::vector<std::uint8_t> z;
                    const std::size_t first = q * kSpillChunk;
                    const std::size_t n = std::min<std::size_t>(kSpillChunk, x.size() - first);
                    kept.assign(n, kInvalid);
                    int& h = highest.local();
                    for (std::size_t t = 0; t < n; ++t) {
                        Cell& v = x[first + t];
                        if (!in_window(v)) continue;
                        const int p = plies(v);
                        if (p < from) {
                            kept[t] = v;
                            v = kRetired;
                            h = std::max(h, p);
                        } else
                            v = Cell(int(base_) + p - from);
                    }
                    const std::size_t bytes = n * sizeof(Cell);
                    z.resize(ZSTD_compressBound(bytes));
                    thread_local std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx {
                        ZSTD_createCCtx(), &ZSTD_freeCCtx
                    };
                    const std::size_t size
                        = ZSTD_compressCCtx(cctx.get(), z.data(), z.size(), kept.data(), bytes, 1);
                    if (ZSTD_isError(size))
                        throw std::runtime_error(material_.name() + ": spill compression failed");
                    chunks[q] = { spillFile_->append(std::span(z.data(), size)), size };
                });
                retiredTop_[std::size_t(k)] = std::max(retiredTop_[std::size_t(k)],
                    highest.combine([](int a, int b) { return std::max(a, b); }));
            }
        offset_ = from;
        std::erase_if(far_, [&](const Far& f) {
            if (f.plies > top()) return false;
            Cell& x = cell(f.metric, f.side, f.slot);
            if (x == kFarWin || x == kFarLoss) { // else a faster win took the cell since
                x = code(f.plies);
                mark_block(f.metric, f.side, f.slot, f.plies);
            }
            return true;
        });
    }

    // Reads retired cells back: per snapshot, metric and side, the chunks decompressed last,
    // direct-mapped (the storage order's blocks stay within a few chunks of the generation's).
    struct SpillCursor {
        static constexpr std::size_t kWays = 32;
        struct Chunk {
            std::size_t index = ~std::size_t(0);
            std::vector<Cell> cells;
        };
        std::vector<std::array<std::array<std::array<Chunk, kWays>, COLOR_NB>, kMaxMetrics>> at;
        std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx { nullptr, &ZSTD_freeDCtx };
        std::vector<std::uint8_t> compressed;
    };
    int retired_plies(int k, Color c, std::uint64_t i, SpillCursor& cursor) const {
        cursor.at.resize(spill_.size());
        const std::size_t q = std::size_t(i / kSpillChunk);
        for (std::size_t s = 0; s < spill_.size(); ++s) {
            auto& chunk = cursor.at[s][std::size_t(k)][c][q % SpillCursor::kWays];
            if (chunk.index != q) {
                const auto& where = spill_[s].chunks[std::size_t(k)][c][q];
                std::vector<std::uint8_t>& z = cursor.compressed;
                z.resize(where.bytes);
                spillFile_->read(where.at, z);
                chunk.cells.resize(kSpillChunk);
                if (!cursor.dctx) cursor.dctx.reset(ZSTD_createDCtx());
                const std::size_t n = ZSTD_decompressDCtx(cursor.dctx.get(), chunk.cells.data(),
                    kSpillChunk * sizeof(Cell), z.data(), z.size());
                if (ZSTD_isError(n))
                    throw std::logic_error(
                        material_.name() + ": a spill chunk does not decompress");
                chunk.index = q;
            }
            const Cell x = chunk.cells[i % kSpillChunk];
            if (x != kInvalid) return spill_[s].offset + int(x) - int(base_);
        }
        throw std::logic_error(material_.name() + ": a retired cell is in no spill snapshot");
    }
    // The final value of cell (k, c, i) holding x (a position): no far code is left by then.
    Value final_value(int k, Color c, std::uint64_t i, Cell x, SpillCursor& cursor) const {
        if (x == kRetired) return Value::mate_in_plies(retired_plies(k, c, i, cursor));
        if (x == kFarWin || x == kFarLoss)
            throw std::logic_error(material_.name() + ": a decision beyond the last level");
        return in_window(x) ? Value::mate_in_plies(plies(x)) : Value::draw();
    }

    // Level masks: per metric, side to move and run of kMaskSlots slots, bit p % 256 set when a
    // cell there may hold level p; the scan of level p reads only the runs of the arrays marked.
    // 8-bit cells hold fewer than 256 levels; 16-bit ones share each bit among the levels equal
    // modulo 256, which only adds runs to a scan (a run holding level p is always marked).
    static constexpr int kMaskShift = 10;
    static constexpr std::uint64_t kMaskSlots = std::uint64_t(1) << kMaskShift;
    static constexpr int kMaskWords = 4; // per run: 256 bits
    static_assert(kBlockShift >= kMaskShift);
    static std::size_t mask_word(std::uint64_t i, int p) {
        return std::size_t(i >> kMaskShift) * kMaskWords + std::size_t(p >> 6 & (kMaskWords - 1));
    }
    // A value written for level p: its run is scanned at level p.
    void mark_block(int k, Color c, std::uint64_t i, int p) {
        std::atomic_ref<std::uint64_t> a(levels_[std::size_t(k)][c][mask_word(i, p)]);
        const std::uint64_t bit = std::uint64_t(1) << (p & 63);
        if (!(a.load(std::memory_order_relaxed) & bit)) a.fetch_or(bit, std::memory_order_relaxed);
    }
    // May a cell of the run holding slot i hold level p?
    bool marked(int k, Color c, std::uint64_t i, int p) const {
        return levels_[std::size_t(k)][c][mask_word(i, p)] >> (p & 63) & 1;
    }
    void note_level(int p) {
        int cur = maxLevel_.load(std::memory_order_relaxed);
        while (cur < p && !maxLevel_.compare_exchange_weak(cur, p)) { }
    }

    // ---- setup ----
    void setup_recipes(const Tablebase& tables) {
        for (const Material& c : material_.children()) {
            const Table* t = tables.table(c);
            if (!t)
                throw TableError("the table of " + c.name() + " (which " + material_.name()
                    + " converts into) is missing from " + tables.dir() + ": generate it first");
        }
        for (int jc = -1; jc < gi_.men(); ++jc)
            for (int jp = -1; jp < gi_.men(); ++jp) {
                if (jp >= 0 && gi_.type(jp) != BIA) continue;
                if (jc >= 0 && jp >= 0 && gi_.color(jc) == gi_.color(jp)) continue;
                if (jc < 0 && jp < 0) continue;
                // Only the first man of a group is captured by kind; the others share it.
                if (jc >= 0 && gi_.group_first(jc) != jc) continue;
                if (jp >= 0 && gi_.group_first(jp) != jp) continue;
                recipes_[std::size_t(jc + 1)][std::size_t(jp + 1)] = make_recipe(tables, jc, jp);
            }
    }

    std::unique_ptr<Recipe> make_recipe(const Tablebase& tables, int jc, int jp) {
        auto r = std::make_unique<Recipe>();
        Material child = material_;
        if (jc >= 0) --child.count[gi_.color(jc)][gi_.type(jc)];
        if (jp >= 0) --child.count[gi_.color(jp)][BIA], ++child.count[gi_.color(jp)][MET];
        if (child.bare_kings()) {
            r->bareKings = true;
            return r;
        }
        r->swapped = !child.is_canonical();
        const Material canon = child.canonical();
        r->table = tables.table(canon);
        // Child men slots: its groups in name order, White's (this table's Black's when
        // swapped) first; identical men fill their group in any order (the encoder sorts).
        std::array<std::array<int, PIECE_TYPE_NB>, COLOR_NB> next {};
        int slot = 0;
        for (Color c : { WHITE, BLACK })
            for (PieceType pt : kNameOrder) next[c][pt] = slot, slot += canon.count[c][pt];
        for (int j = 0; j < gi_.men(); ++j) {
            if (j == jc) {
                r->dest[std::size_t(j)] = -1;
                continue;
            }
            const Color c = r->swapped ? ~gi_.color(j) : gi_.color(j);
            const PieceType pt = j == jp ? MET : gi_.type(j);
            r->dest[std::size_t(j)] = std::int8_t(next[c][pt]++);
        }
        // The side that converts, and the child's side to move after it in the child's colours.
        const Color mover = jp >= 0 ? gi_.color(jp) : ~gi_.color(jc);
        const Color childStm = r->swapped ? mover : ~mover;
        for (std::size_t k = 0; k < metrics_.size(); ++k) {
            Recipe::Read& read = r->read[k];
            const Metric m = read.metric = metric_read(metrics_[k], count_phase(canon));
            if (!r->table->has(m) || (m != Metric::Dtm && r->table->rules() != encode(rules_)))
                throw TableError("the table of " + canon.name() + " lacks the counted values "
                    + "for these counting options: generate it again");
            // Read many million times: plain arrays, no cache; only the side to move read.
            r->table->make_resident(Table::part(m, childStm));
            read.cells = r->table->resident_cells(m, childStm);
            read.wide = r->table->cell_bytes(m) > 1;
            const unsigned cells = 1u << (8 * r->table->cell_bytes(m));
            for (Color stm : { WHITE, BLACK }) {
                read.value[stm].resize(cells);
                for (unsigned v = 0; v < cells; ++v)
                    read.value[stm][v]
                        = conversion_value(metrics_[k], canon, Value::from_cell(v), stm, rules_);
            }
        }
        return r;
    }

    // ---- move generation on a GenBoard ----
    static Bitboard occupancy(const GenBoard& b, int men) {
        Bitboard occ = square_bb(b.king[WHITE]) | square_bb(b.king[BLACK]);
        for (int j = 0; j < men; ++j) occ |= square_bb(b.man[std::size_t(j)]);
        return occ;
    }
    Bitboard pieces(const GenBoard& b, Color c) const {
        Bitboard p = square_bb(b.king[c]);
        for (int j = 0; j < gi_.men(); ++j)
            if (gi_.color(j) == c) p |= square_bb(b.man[std::size_t(j)]);
        return p;
    }
    // Is s attacked by side `by`, on occupancy occ, man `skip` (captured) not counting?
    bool attacked(const GenBoard& b, Square s, Color by, Bitboard occ, int skip = -1) const {
        if (attacks_bb(by, KHUN, b.king[by]) & square_bb(s)) return true;
        for (int j = 0; j < gi_.men(); ++j)
            if (j != skip && gi_.color(j) == by
                && (attacks_bb(by, gi_.type(j), b.man[std::size_t(j)], occ) & square_bb(s)))
                return true;
        return false;
    }
    // Every square side `by` attacks on occupancy occ.
    Bitboard attacks_of(const GenBoard& b, Color by, Bitboard occ) const {
        Bitboard a = attacks_bb(by, KHUN, b.king[by]);
        for (int j = 0; j < gi_.men(); ++j)
            if (gi_.color(j) == by) a |= attacks_bb(by, gi_.type(j), b.man[std::size_t(j)], occ);
        return a;
    }
    int man_on(const GenBoard& b, Square s) const {
        for (int j = 0; j < gi_.men(); ++j)
            if (b.man[std::size_t(j)] == s) return j;
        return -1;
    }

    // Visits every legal move of side c: fn(j, to) for in-table moves (j = -1: the king),
    // conv(j, to, captured, promotes) for conversions. With `bulk` (only the number of in-table
    // moves is wanted), king moves and the moves of a man no Ruea can pin are counted into
    // *bulk instead of visited. With no InTable visitor (nullptr), only conversions are
    // generated (and inCheck is not set). `enemy`, when given, is attacks_of(b, ~c, occ).
    template<class InTable, class Conv>
    void moves(const GenBoard& b, Color c, Bitboard occ, bool& inCheck, InTable&& fn, Conv&& conv,
        int* bulk = nullptr, const Bitboard* enemy = nullptr) const {
        constexpr bool quiets = !std::is_same_v<std::decay_t<InTable>, std::nullptr_t>;
        const Bitboard theirs = pieces(b, ~c);
        const Square ksq = b.king[c];
        inCheck = quiets && (enemy ? bool(*enemy & square_bb(ksq)) : attacked(b, ksq, ~c, occ));
        // Men on a line between our king and an enemy Ruea may be pinned: checked one by one.
        Bitboard pinLines = 0;
        for (int j = 0; quiets && j < gi_.men(); ++j)
            if (gi_.color(j) == ~c && gi_.type(j) == RUEA) {
                const Square r = b.man[std::size_t(j)];
                if (file_of(r) == file_of(ksq) || rank_of(r) == rank_of(ksq))
                    pinLines |= between_bb(ksq, r);
            }
        // Squares the enemy attacks with our king lifted off: where it may step without capturing.
        auto danger = [&] {
            if (enemy && !hasRuea_[~c]) return *enemy; // no slider: our king hides nothing
            const Bitboard o = occ ^ square_bb(ksq);
            Bitboard d = attacks_bb(~c, KHUN, b.king[~c]);
            for (int j = 0; j < gi_.men(); ++j)
                if (gi_.color(j) == ~c) d |= attacks_bb(~c, gi_.type(j), b.man[std::size_t(j)], o);
            return d;
        };
        auto legal = [&](Square from, Square to, int captured) {
            const Bitboard o = (occ ^ square_bb(from)) | square_bb(to);
            GenBoard a = b;
            const bool king = from == ksq;
            if (king) a.king[c] = to;
            return !attacked(a, king ? to : ksq, ~c, o, captured);
        };
        for (int j = -1; j < gi_.men(); ++j) {
            if (j >= 0 && gi_.color(j) != c) continue;
            const PieceType pt = j < 0 ? KHUN : gi_.type(j);
            const Square s = j < 0 ? ksq : b.man[std::size_t(j)];
            const Bitboard att = attacks_bb(c, pt, s, occ);
            Bitboard quiet = (pt == RUEA ? att : quiets_bb(c, pt, s)) & ~occ;
            Bitboard capt = att & theirs & ~square_bb(b.king[~c]);
            Bitboard promo = 0;
            if (pt == BIA) promo = quiet & kPromotionRankBB[c], quiet &= ~promo;
            if constexpr (quiets) {
                if (bulk && j < 0)
                    *bulk += popcount(quiet & ~danger());
                else if (bulk && !inCheck && !(pinLines & square_bb(s)))
                    *bulk += popcount(quiet);
                else
                    for (Bitboard q = quiet; q;) {
                        const Square t = pop_lsb(q);
                        if (legal(s, t, -1)) fn(j, t);
                    }
            }
            for (Bitboard q = capt; q;) {
                const Square t = pop_lsb(q);
                const int jc = man_on(b, t);
                if (legal(s, t, jc))
                    conv(j, t, jc, pt == BIA && (kPromotionRankBB[c] & square_bb(t)));
            }
            for (Bitboard q = promo; q;) {
                const Square t = pop_lsb(q);
                if (legal(s, t, -1)) conv(j, t, -1, true);
            }
        }
    }

    // The value of a conversion for each metric, from the mover's view.
    void conversion(const GenBoard& b, Color c, int j, Square to, int jc, bool promotes,
        std::array<Value, kMaxMetrics>& v) const {
        const Recipe& r = *recipes_[std::size_t(jc < 0 ? 0 : gi_.group_first(jc) + 1)]
                                   [std::size_t(promotes ? gi_.group_first(j) + 1 : 0)];
        if (r.bareKings) {
            v.fill(Value::draw());
            return;
        }
        // The recipe was made for the first man of the captured (promoting) man's group; any
        // man of the group may be the one: it takes the first's slot, the others the rest.
        auto dest = [&](int m) {
            for (const int x : { jc, promotes ? j : -1 })
                if (x >= 0 && gi_.group_size(m) > 1 && gi_.group_first(m) == gi_.group_first(x)) {
                    if (m == x) return int(r.dest[std::size_t(gi_.group_first(x))]);
                    return int(r.dest[std::size_t(m < x ? m + 1 : m)]);
                }
            return int(r.dest[std::size_t(m)]);
        };
        Square men[kMaxGenMen];
        for (int m = 0; m < gi_.men(); ++m) {
            const int d = dest(m);
            if (d < 0) continue;
            const Square s = m == j ? to : b.man[std::size_t(m)];
            men[d] = r.swapped ? flip_rank(s) : s;
        }
        Square wk = b.king[WHITE], bk = b.king[BLACK];
        if (j < 0) (c == WHITE ? wk : bk) = to;
        if (r.swapped) std::swap(wk, bk), wk = flip_rank(wk), bk = flip_rank(bk);
        const std::uint64_t slot = r.table->index().encode(wk, bk, men);
        const Color stm = r.swapped ? c : ~c;
        for (std::size_t k = 0; k < metrics_.size(); ++k) {
            const Recipe::Read& read = r.read[k];
            unsigned x = read.cells[slot];
            if (read.wide && x == 0xFF) x = r.table->value(read.metric, stm, slot).cell();
            v[k] = read.value[stm][x].parent();
        }
    }

    // A board equal to its reflection in a1-h8 (`symmetric`) counts its in-table moves by
    // mirrored pairs (see the top): those are what its un-moves' decrements come in.
    MoveSummary summarize(
        const GenBoard& b, Color c, Bitboard occ, Bitboard enemy, bool symmetric) const {
        MoveSummary s;
        for (auto& v : s.best) v = Value::mate_in_plies(0); // worse than any real outcome
        moves(
            b, c, occ, s.inCheck,
            [&](int j, Square to) {
                // Symmetric: counted in halves, two for a move along a1-h8 (its own mirror).
                const Square from = j < 0 ? b.king[c] : b.man[std::size_t(j)];
                s.inTable += symmetric && transform(4, from) == from && transform(4, to) == to;
                ++s.inTable;
            },
            [&](int j, Square to, int jc, bool promotes) {
                ++s.conversions;
                std::array<Value, kMaxMetrics> v;
                conversion(b, c, j, to, jc, promotes, v);
                for (std::size_t k = 0; k < metrics_.size(); ++k)
                    if (better(v[k], s.best[k])) s.best[k] = v[k];
            },
            symmetric ? nullptr : &s.inTable, &enemy);
        if (symmetric) s.inTable /= 2; // every move visited: no bulk count
        return s;
    }

    // ---- init ----
    void init() {
        // The cells are written by the loop below, each block by its task (a serial fill before
        // it took KRMvKN's init about 0.3 s on one core, page faults included); the padding
        // to a whole number of 64-slot chunks here.
        const std::uint64_t padded = (gi_.size() + 63) & ~63ULL;
        for (std::size_t k = 0; k < metrics_.size(); ++k)
            for (Color c : { WHITE, BLACK }) {
                cells_[k][c].resize(padded);
                std::fill(cells_[k][c].begin() + std::ptrdiff_t(gi_.size()), cells_[k][c].end(),
                    kInvalid);
            }
        for (std::size_t k = 0; k < metrics_.size(); ++k)
            for (Color c : { WHITE, BLACK })
                levels_[k][c].assign(((gi_.size() + kMaskSlots - 1) >> kMaskShift) * kMaskWords, 0);
        parallel_blocks(gi_.size(), options_.progress, material_.name() + ": init",
            [&](std::uint64_t, std::uint64_t begin, std::uint64_t end) {
                for (std::uint64_t i = begin; i < end; ++i) {
                    GenBoard b;
                    if (!gi_.decode(i, b)) {
                        for (std::size_t k = 0; k < metrics_.size(); ++k)
                            for (Color c : { WHITE, BLACK }) cell(int(k), c, i) = kInvalid;
                        continue;
                    }
                    const Bitboard occ = occupancy(b, gi_.men());
                    const Bitboard att[COLOR_NB]
                        = { attacks_of(b, WHITE, occ), attacks_of(b, BLACK, occ) };
                    const bool symmetric = gi_.residue(i) && gi_.symmetric(b);
                    for (Color c : { WHITE, BLACK }) {
                        if (att[c] & square_bb(b.king[~c])) { // the mover left check
                            for (std::size_t k = 0; k < metrics_.size(); ++k)
                                cell(int(k), c, i) = kInvalid;
                            continue;
                        }
                        const MoveSummary s = summarize(b, c, occ, att[~c], symmetric);
                        for (std::size_t k = 0; k < metrics_.size(); ++k) {
                            const Value best = s.best[k];
                            Value v = best; // decided now (or bounded: a win)
                            if (s.inTable + s.conversions == 0)
                                v = s.inCheck ? mated_value(material_, metrics_[k], rules_, c)
                                              : Value::draw();
                            else if (s.inTable == 0)
                                ; // only conversions: the best of them
                            else if (s.conversions && best.is_win())
                                ; // a bound the iteration may still lower
                            else {
                                // Counting: a drawing conversion's + 1 never reaches 0.
                                cell(int(k), c, i)
                                    = Cell(s.inTable + (s.conversions && best.is_draw()));
                                continue;
                            }
                            cell(int(k), c, i)
                                = v.is_draw() ? kDraw : decided(int(k), c, i, v.plies);
                        }
                    }
                }
            });
        gather_far();
    }

    // ---- iterate ----
    // A predecessor: its slot.
    struct UnMove {
        std::uint64_t slot;
    };
    // Of each mirrored pair of un-moves of a board equal to its reflection, only one is made.
    static bool mirrored(bool symmetric, Square from, Square to) {
        if (!symmetric) return false;
        const Square mf = transform(4, from), mt = transform(4, to);
        return from > mf || (from == mf && to > mt);
    }
    // Calls fn(pred) for each predecessor of board b (slot i) by an un-move of a man of `mover`
    // (the side that made the last move). They stay in i's king pair.
    template<class Fn>
    void for_each_man_unmove(
        std::uint64_t i, const GenBoard& b, Color mover, bool symmetric, Fn&& fn) const {
        const Bitboard occ = occupancy(b, gi_.men());
        const bool offResidue = !gi_.residue(i); // then not symmetric either
        for (int j = 0; j < gi_.men(); ++j) {
            if (gi_.color(j) != mover) continue;
            const Square s = b.man[std::size_t(j)];
            Bitboard f = retro_quiets_bb(mover, gi_.type(j), s, occ) & ~occ;
            if (offResidue && gi_.group_size(j) == 1) { // one field replaced: the common case
                const std::uint64_t rest = gi_.without_field(i, j);
                for (; f;) {
                    const Square o = pop_lsb(f);
                    fn(UnMove { rest | gi_.field(j, o) });
                }
            }
            for (; f;) {
                const Square o = pop_lsb(f);
                if (!mirrored(symmetric, o, s)) fn(UnMove { gi_.with_man(i, b, j, o) });
            }
        }
    }
    // King un-moves as edges between king pairs: the king of `mover` steps back from `ks` to
    // `to` on every board of pair `from` where `to` is empty, into the pair the edge is listed
    // under, its fields following by step_fields() (`bitwise`) or through with_king().
    struct KingEdge {
        int from;
        Color mover;
        Square ks, to;
        int frame;
        bool bitwise;
        std::uint64_t on; // gi_.squares_fields(to): is a man on it?
    };
    void king_edges() {
        into_.assign(std::size_t(gi_.pairs()), {});
        for (int p = 0; p < gi_.pairs(); ++p) {
            const auto kings = gi_.kings(p);
            for (Color mover : { WHITE, BLACK }) {
                const Square ks = kings[mover], other = kings[~mover];
                for (Bitboard f = attacks_bb(mover, KHUN, ks) & ~square_bb(other)
                         & ~attacks_bb(mover, KHUN, other);
                     f;) {
                    const Square to = pop_lsb(f);
                    const auto step = gi_.king_step(kings, mover, to);
                    into_[std::size_t(step.pair)].push_back(
                        { p, mover, ks, to, step.frame, step.bitwise, gi_.squares_fields(to) });
                }
            }
        }
    }

    // The loss of a position all of whose in-table moves are known to reach opponent wins of
    // at most `level` plies, checked move by move over the cells; nullopt when it is not (yet)
    // lost. The counters' debug check.
    std::optional<int> forward_loss(const GenBoard& b, Color c, int k, int level) {
        const Bitboard occ = occupancy(b, gi_.men());
        int longest = -1;
        bool lost = true, inCheck;
        std::optional<Value> bestConv;
        SpillCursor& cursor = debugCursors_.local();
        moves(
            b, c, occ, inCheck,
            [&](int j, Square to) {
                GenBoard a = b;
                (j < 0 ? a.king[c] : a.man[std::size_t(j)]) = to;
                const std::uint64_t i = gi_.encode(a);
                const Cell x = cell(k, ~c, i);
                // A far decision lies beyond every level done: not (yet) a win within `level`.
                const Value v = x == kFarWin || x == kFarLoss ? Value::draw()
                                                              : final_value(k, ~c, i, x, cursor);
                if (!v.is_win() || v.plies > level)
                    lost = false;
                else
                    longest = std::max(longest, v.plies);
            },
            [&](int j, Square to, int jc, bool promotes) {
                std::array<Value, kMaxMetrics> v;
                conversion(b, c, j, to, jc, promotes, v);
                if (!bestConv || better(v[std::size_t(k)], *bestConv)) bestConv = v[std::size_t(k)];
            });
        if (!lost) return std::nullopt;
        if (bestConv) {
            if (!bestConv->is_loss()) return std::nullopt;
            longest = std::max(longest, bestConv->plies - 1);
        }
        if (longest < 0) return std::nullopt;
        return longest + 1;
    }

    // The loss a counter reaching 0 at level n gives: n + 1 plies, or a losing conversion's
    // distance when that holds out longer.
    int loss_plies(const GenBoard& b, Color c, int k, int n) const {
        int p = n + 1;
        bool inCheck;
        moves(b, c, occupancy(b, gi_.men()), inCheck, nullptr,
            [&](int j, Square to, int jc, bool promotes) {
                std::array<Value, kMaxMetrics> v;
                conversion(b, c, j, to, jc, promotes, v);
                p = std::max(p, v[std::size_t(k)].plies);
            });
        return p;
    }

    // Cells of one 64-slot chunk holding `want`: bit t set when cell i + t does (i a multiple of
    // 64; the cell arrays are padded to a multiple of 64 with "no position").
    static std::uint64_t match64(const Cell* x, Cell want) {
        std::uint64_t m = 0;
#if defined(__SSE2__)
        if constexpr (sizeof(Cell) == 1) {
            const __m128i pattern = _mm_set1_epi8(char(want));
            for (int q = 0; q < 4; ++q) {
                const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + 16 * q));
                m |= std::uint64_t(unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, pattern))))
                    << (16 * q);
            }
            return m;
        }
#endif
        for (int t = 0; t < 64; ++t) m |= std::uint64_t(x[t] == want) << t;
        return m;
    }

    // The level loop: levels 0, 1, ... up to the largest one written, the window rolled over
    // whenever the next level's writes would leave it. Each level runs in two passes over the
    // king pairs, each pair handled by one task (so no cell has two writers in a pass, and no
    // write needs an atomic read-modify-write):
    //   1. per pair: its cells holding the level are found (64 at a time, in the runs the
    //      level masks mark), their men's un-moves applied (they stay in the pair), and their
    //      fields listed, per metric and side to move;
    //   2. per pair q: the king un-moves landing in q, taken along each edge into q from the
    //      lists of its source pair, applied. The writes stay in q's cells, which the cache
    //      holds while q is done (applied as they came, they went all over the arrays).
    void iterate() {
        const int metrics = int(metrics_.size());
        const int pairs = gi_.pairs();
        const int bits = gi_.field_bits();
        if (bits > 32) // the lists hold a slot's fields in 32 bits: up to 5 men beside the kings
            throw std::logic_error(material_.name() + ": too many men for the level loop's lists");
        king_edges();
        auto unlist = [&] { // every list emptied
            for (int k = 0; k < metrics; ++k)
                for (Color c : { WHITE, BLACK }) listed_[k][c].assign(std::size_t(pairs), {});
            for (Arena& arena : arenas_)
                for (auto& byColor : arena)
                    for (auto& fields : byColor) fields.clear();
        };
        unlist();
        // Whole pairs per task, at least one block of slots (so runs and chunks align).
        const int perTask = std::max(1, int(kBlock >> std::min(bits, kBlockShift)));
        const int tasks = (pairs + perTask - 1) / perTask;
        auto over_pairs = [&](int first, int last, auto&& fn) { // tasks first .. last - 1
            tbb::parallel_for(
                tbb::blocked_range<int>(first, last), [&](const tbb::blocked_range<int>& r) {
                    for (int t = r.begin(); t != r.end(); ++t)
                        fn(t * perTask, std::min(pairs, (t + 1) * perTask));
                });
        };
        // The lists' memory is bounded: pass 1 runs over the pairs a part at a time, and once the
        // lists hold more than a slot per 64 slots, pass 2 takes them and they are emptied (the
        // order of the updates within a level changes no value). KRMvKN: 32 parts, a peak 19 MB
        // above the cells' (143 MB with one part), 0.4 s slower.
        const int parts = std::clamp(tasks / 8, 1, 32);
        const std::uint64_t budget = std::max<std::uint64_t>(1 << 20, gi_.size() / 64);
        for (int n = 0; n <= maxLevel_.load(); ++n) {
            if (n + 1 > top()) rollover(n & ~1);
            const Cell want = code(n);
            const bool lost = n % 2 == 0; // cells holding n plies: the side to move is mated
            const Cell win = lost ? code(n + 1) : Cell(0); // what a loss makes its predecessors
            if (options_.progress)
                options_.progress->phase(
                    material_.name() + ": iterate, mate distance " + std::to_string(n) + " plies",
                    gi_.size());
            std::atomic<bool> wroteWin { false };
            std::atomic<std::uint64_t> listed { 0 };
            // Pass 1: the cells holding n, their men's un-moves, the lists.
            auto pass1 = [&](int p0, int p1) {
                bool wrote = false;
                std::uint64_t hits = 0;
                Arena& arena = arenas_.local();
                const std::uint64_t begin = std::uint64_t(p0) << bits;
                const std::uint64_t end = std::uint64_t(p1) << bits;
                unsigned scan = 0; // bit 2k + c: array (k, c) is scanned in this run
                for (std::uint64_t i0 = begin; i0 < end; i0 += 64) {
                    // The arrays whose run holds the level, then their cells that do.
                    if (i0 % kMaskSlots == 0) {
                        scan = 0;
                        for (int k = 0; k < metrics; ++k)
                            for (Color c : { WHITE, BLACK })
                                if (marked(k, c, i0, n)) scan |= 1u << (2 * k + c);
                    }
                    if (!scan) {
                        i0 += kMaskSlots - 64;
                        continue;
                    }
                    Hits hit {};
                    std::uint64_t any = 0;
                    for (int k = 0; k < metrics; ++k)
                        for (Color c : { WHITE, BLACK })
                            if (scan >> (2 * k + c) & 1)
                                any |= hit[k][c] = match64(&cells_[k][c][i0], want);
                    // A chunk with one or two cells at the level is done cell by cell: the
                    // lanes' operations cost more than they save there.
                    if (low_.man >= 0 && std::popcount(any) > 2 && !gi_.residue(i0)) {
                        for (int k = 0; k < metrics; ++k) // the cells listed, as below
                            for (Color c : { WHITE, BLACK })
                                hits += std::uint64_t(std::popcount(hit[k][c]));
                        const int lanes = 1 << low_.bits;
                        for (int sub = 0; sub < 64; sub += lanes) {
                            Hits h {};
                            std::uint64_t here = 0;
                            for (int k = 0; k < metrics; ++k)
                                for (Color c : { WHITE, BLACK })
                                    here |= h[k][c] = hit[k][c] >> sub & (~0ULL >> (64 - lanes));
                            if (here)
                                wrote |= unmove_chunk(
                                    i0 + std::uint64_t(sub), h, lost, win, n, arena);
                        }
                        continue;
                    }
                    while (any) {
                        const int t = std::countr_zero(any);
                        any &= any - 1;
                        const std::uint64_t i = i0 + std::uint64_t(t);
                        GenBoard b;
                        gi_.decode_valid(i, b);
                        const bool symmetric = gi_.residue(i) && gi_.symmetric(b);
                        for (Color c : { WHITE, BLACK }) {
                            unsigned metricsHit = 0;
                            for (int k = 0; k < metrics; ++k)
                                metricsHit |= unsigned(hit[k][c] >> t & 1) << k;
                            if (!metricsHit) continue;
                            const Color them = ~c; // made the last move; to move before it
                            for (int k = 0; k < metrics; ++k) {
                                if (!(metricsHit >> k & 1)) continue;
                                list(arena, std::size_t(k), c, i);
                                ++hits;
                                Cell* const x = cells_[k][them].data();
                                std::uint64_t* const mask = levels_[std::size_t(k)][them].data();
                                const Cell base = base_;
                                if (lost)
                                    for_each_man_unmove(i, b, them, symmetric, [&](UnMove u) {
                                        wrote |= won(x, mask, base, u.slot, win, n + 1);
                                    });
                                else
                                    for_each_man_unmove(i, b, them, symmetric, [&](UnMove u) {
                                        lose_one_move(x, base, u.slot, them, k, n);
                                    });
                            }
                        }
                    }
                }
                if (wrote) wroteWin.store(true, std::memory_order_relaxed);
                listed += hits;
                if (options_.progress) options_.progress->advance(end - begin);
            };
            // Pass 2: the king un-moves, by the pair they land in.
            auto pass2 = [&](int q0, int q1) {
                bool wrote = false;
                for (int q = q0; q < q1; ++q)
                    for (const KingEdge& e : into_[std::size_t(q)]) {
                        const Color c = ~e.mover; // to move in the cells listed
                        const std::uint64_t from = std::uint64_t(e.from) << bits;
                        const bool residue = gi_.residue(from);
                        for (int k = 0; k < metrics; ++k) {
                            Cell* const x = cells_[k][e.mover].data();
                            std::uint64_t* const mask = levels_[std::size_t(k)][e.mover].data();
                            const Cell base = base_;
                            const Listed& l = listed_[std::size_t(k)][c][std::size_t(e.from)];
                            const std::uint32_t* fields = l.arena ? l.arena->data() : nullptr;
                            auto apply = [&](std::uint64_t slot) {
                                if (lost)
                                    wrote |= won(x, mask, base, slot, win, n + 1);
                                else
                                    lose_one_move(x, base, slot, e.mover, k, n);
                            };
                            if (residue || !e.bitwise) {
                                for (std::uint32_t u = l.begin; u < l.end; ++u) {
                                    const std::uint64_t i = from | fields[u];
                                    if (gi_.man_on(i, e.on)) continue;
                                    GenBoard b;
                                    gi_.decode_valid(i, b);
                                    if (residue && mirrored(gi_.symmetric(b), e.to, e.ks)) continue;
                                    apply(e.bitwise
                                            ? std::uint64_t(q) << bits | gi_.step_fields(i, e.frame)
                                            : gi_.with_king(i, b, e.mover, e.to));
                                }
                                continue;
                            }
                            // The predecessors' slots a batch at a time, their cells asked
                            // for before any is read: a transformed edge scatters them over
                            // q's cells, more than the nearest cache holds.
                            constexpr std::uint32_t kBatch = 32;
                            std::uint64_t dst[kBatch];
                            for (std::uint32_t u0 = l.begin; u0 < l.end; u0 += kBatch) {
                                int m = 0;
                                for (std::uint32_t u = u0; u < std::min(l.end, u0 + kBatch); ++u) {
                                    const std::uint64_t i = from | fields[u];
                                    dst[m] = std::uint64_t(q) << bits | gi_.step_fields(i, e.frame);
                                    __builtin_prefetch(&x[dst[m]], 1);
                                    m += !gi_.man_on(i, e.on);
                                }
                                for (int j = 0; j < m; ++j) apply(dst[j]);
                            }
                        }
                    }
                if (wrote) wroteWin.store(true, std::memory_order_relaxed);
            };
            for (int part = 0; part < parts; ++part) {
                over_pairs(tasks * part / parts, tasks * (part + 1) / parts, pass1);
                if (part + 1 < parts && listed < budget) continue;
                over_pairs(0, tasks, pass2);
                unlist();
                listed = 0;
            }
            if (wroteWin) note_level(n + 1);
            gather_far();
        }
        arenas_.clear();
        for (auto& byMetric : listed_)
            for (auto& lists : byMetric) std::vector<Listed>().swap(lists);
        std::vector<std::vector<KingEdge>>().swap(into_);
        if (options_.check_counters) check_undecided();
    }

    // Predecessor q of a lost cell: won in `level` plies unless won faster already. Its pair's
    // task is the one writer of the cell and of its run's level mask in this pass, so the update
    // is a plain load and store (atomic_ref, relaxed, compiles to plain moves and lets the debug
    // checks read along). The cells are bytes, which may alias anything: a member read after a
    // store to one is read again, so the level masks (`mask`, of metric and side) and base_
    // come as arguments (KRMvKN's level loop 1-7 % faster).
    static bool won(Cell* x, std::uint64_t* mask, Cell base, std::uint64_t q, Cell win, int level) {
        std::atomic_ref<Cell> a(x[q]);
        const Cell cur = a.load(std::memory_order_relaxed);
        const bool slowerWin
            = cur == kFarWin || (cur > win && cur < kFarLoss && ((cur - base) & 1));
        const bool take = is_counter(cur, base) | slowerWin;
        a.store(take ? win : cur, std::memory_order_relaxed);
        mask[mask_word(q, level)] |= std::uint64_t(take) << (level & 63);
        return take;
    }

    // Predecessor `pred` of a won cell (`them` to move in it): one move fewer not known to
    // lose; the decrement that reaches 0 writes the loss. One writer, base as above.
    void lose_one_move(Cell* x, Cell base, std::uint64_t pred, Color them, int k, int n) {
        std::atomic_ref<Cell> a(x[pred]);
        const Cell cur = a.load(std::memory_order_relaxed);
        a.store(Cell(cur - is_counter(cur, base)), std::memory_order_relaxed);
        if (cur == 1) lost(x, pred, them, k, n); // 1: a counter at its last move
    }
    // A counter that reached 0 at level n: the loss, in n + 1 plies or a losing conversion's
    // longer distance.
    void lost(Cell* x, std::uint64_t slot, Color them, int k, int n) {
        GenBoard p;
        gi_.decode_valid(slot, p);
        const int l = loss_plies(p, them, k, n);
        if (options_.check_counters) check_loss(p, them, k, n, l);
        std::atomic_ref<Cell>(x[slot]).store(decided(k, them, slot, l), std::memory_order_relaxed);
    }

    // ---- pass 1 a chunk at a time ----
    // Off the residue, with no three identical men (low_.man >= 0), the 2^low_.bits slots of an
    // aligned chunk are the squares (lanes: a square less low_.base) of the man of the lowest
    // field on one board of the others. A cell's un-moves by another man land, for every lane
    // at once, in one chunk per square o the man comes from, at the same lanes (less those
    // where the low man stands on o or blocks the way); the low man's own un-moves stay in the
    // chunk. So pass 1 un-moves the cells of a chunk holding the level together: one board
    // decoded, the un-moves' targets generated once, and each applied to a mask of lanes.
    using Hits = std::array<std::array<std::uint64_t, COLOR_NB>, kMaxMetrics>;
    bool unmove_chunk(
        std::uint64_t i0, const Hits& hit, bool lostLevel, Cell win, int n, auto& arena) {
        const int low = low_.man;
        const int base = low_.base; // lane l is square l + base
        const std::uint64_t all = ~0ULL >> (64 - (1 << low_.bits));
        auto lanes_of = [&](Bitboard squares) { return squares >> base & all; };
        GenBoard b;
        gi_.decode_valid(i0, b); // the low man on lane 0, not counted
        Bitboard occ = square_bb(b.king[WHITE]) | square_bb(b.king[BLACK]);
        for (int j = 0; j < gi_.men(); ++j)
            if (j != low) occ |= square_bb(b.man[std::size_t(j)]);
        bool wrote = false;
        for (std::size_t k = 0; k < metrics_.size(); ++k)
            for (Color c : { WHITE, BLACK }) {
                const std::uint64_t h = hit[k][c];
                if (!h) continue;
                for (std::uint64_t t = h; t; t &= t - 1)
                    list(arena, k, c, i0 + std::uint64_t(std::countr_zero(t)));
                const Color them = ~c; // made the last move; to move before it
                Cell* const x = cells_[k][them].data();
                std::uint64_t* const mask = levels_[k][them].data();
                auto apply = [&](std::uint64_t chunk, std::uint64_t lanes) {
                    if (lostLevel)
                        wrote |= won_lanes(x, mask, chunk, lanes, win, n + 1);
                    else
                        lose_lanes(x, chunk, lanes, them, int(k), n);
                };
                auto apply_one = [&](std::uint64_t slot) {
                    if (lostLevel)
                        wrote |= won(x, mask, base_, slot, win, n + 1);
                    else
                        lose_one_move(x, base_, slot, them, int(k), n);
                };
                for (int j = 0; j < gi_.men(); ++j) {
                    if (gi_.color(j) != them) continue;
                    const PieceType pt = gi_.type(j);
                    if (gi_.group_first(j) == gi_.group_first(low) && gi_.group_size(j) > 1) {
                        // The low man's twins: an un-move may reorder the two fields, so the
                        // predecessor's chunk depends on the lane: lane by lane.
                        for (std::uint64_t t = h; t; t &= t - 1) {
                            const std::uint64_t i = i0 + std::uint64_t(std::countr_zero(t));
                            GenBoard bt = b;
                            bt.man[std::size_t(low)] = Square(std::countr_zero(t) + base);
                            const Bitboard o = occ | square_bb(bt.man[std::size_t(low)]);
                            const Square s = bt.man[std::size_t(j)];
                            for (Bitboard f = retro_quiets_bb(them, pt, s, o) & ~o; f;)
                                apply_one(gi_.with_man(i, bt, j, pop_lsb(f)));
                        }
                        continue;
                    }
                    if (j == low) {
                        // Wins are idempotent: the union of every lane's un-moves, applied
                        // once; each decrement is one move: a lane's un-moves at a time.
                        std::uint64_t u = 0;
                        for (std::uint64_t t = h; t; t &= t - 1) {
                            const auto to = Square(std::countr_zero(t) + base);
                            const std::uint64_t from
                                = lanes_of(retro_quiets_bb(them, pt, to, occ) & ~occ);
                            if (lostLevel)
                                u |= from;
                            else
                                apply(i0, from);
                        }
                        if (lostLevel) apply(i0, u);
                        continue;
                    }
                    // Another man's un-move (a twin pair's written back in order: the lanes
                    // keep their field).
                    const Square s = b.man[std::size_t(j)];
                    for (Bitboard f = retro_quiets_bb(them, pt, s, occ) & ~occ; f;) {
                        const Square o = pop_lsb(f);
                        if (const std::uint64_t lanes
                            = h & ~lanes_of(square_bb(o) | between_bb(s, o)))
                            apply(gi_.with_man(i0, b, j, o), lanes);
                    }
                }
            }
        return wrote;
    }
    // won() on the lanes of the chunk at slot `chunk` (aligned): whether any was taken.
    // In bytes, 16 lanes per SSE2 operation; one lane at a time in 16-bit cells or under the
    // debug checks (which read the cells along, through atomic_ref).
    bool won_lanes(Cell* x, std::uint64_t* mask, std::uint64_t chunk, std::uint64_t lanes, Cell win,
        int level) const {
        bool taken = false;
#if defined(__SSE2__)
        if constexpr (sizeof(Cell) == 1)
            if (!options_.check_counters) {
                const __m128i one = _mm_set1_epi8(1), w = _mm_set1_epi8(char(win));
                const __m128i baseV = _mm_set1_epi8(char(base_));
                const __m128i counterTop = _mm_set1_epi8(char(base_ - 2));
                const __m128i windowTop = _mm_set1_epi8(char(kFarLoss - 1));
                const __m128i farWin = _mm_set1_epi8(char(kFarWin));
                int any = 0;
                for (int q = 0; q < 4; ++q) {
                    const unsigned bits = unsigned(lanes >> (16 * q)) & 0xFFFF;
                    if (!bits) continue;
                    auto* p = reinterpret_cast<__m128i*>(x + chunk + 16 * q);
                    const __m128i cur = _mm_loadu_si128(p);
                    // Unsigned a <= b as min(a, b) == a.
                    const __m128i c1 = _mm_sub_epi8(cur, one); // a counter: 1 <= cur < base
                    const __m128i counter = _mm_cmpeq_epi8(_mm_min_epu8(c1, counterTop), c1);
                    const __m128i notAbove = _mm_cmpeq_epi8(_mm_min_epu8(cur, w), cur);
                    const __m128i inWindow = _mm_cmpeq_epi8(_mm_min_epu8(cur, windowTop), cur);
                    const __m128i odd
                        = _mm_cmpeq_epi8(_mm_and_si128(_mm_sub_epi8(cur, baseV), one), one);
                    const __m128i slower = _mm_or_si128(_mm_cmpeq_epi8(cur, farWin),
                        _mm_andnot_si128(notAbove, _mm_and_si128(inWindow, odd)));
                    const __m128i take
                        = _mm_and_si128(_mm_or_si128(counter, slower), lane_bytes(bits));
                    _mm_storeu_si128(
                        p, _mm_or_si128(_mm_andnot_si128(take, cur), _mm_and_si128(take, w)));
                    any |= _mm_movemask_epi8(take);
                }
                taken = any != 0;
                mask[mask_word(chunk, level)] |= std::uint64_t(taken) << (level & 63);
                return taken;
            }
#endif
        for (; lanes; lanes &= lanes - 1)
            taken
                |= won(x, mask, base_, chunk + std::uint64_t(std::countr_zero(lanes)), win, level);
        return taken;
    }
    // lose_one_move() on the lanes of a chunk, as won_lanes().
    void lose_lanes(Cell* x, std::uint64_t chunk, std::uint64_t lanes, Color them, int k, int n) {
#if defined(__SSE2__)
        if constexpr (sizeof(Cell) == 1)
            if (!options_.check_counters) {
                const __m128i one = _mm_set1_epi8(1);
                const __m128i counterTop = _mm_set1_epi8(char(base_ - 2));
                for (int q = 0; q < 4; ++q) {
                    const unsigned bits = unsigned(lanes >> (16 * q)) & 0xFFFF;
                    if (!bits) continue;
                    auto* p = reinterpret_cast<__m128i*>(x + chunk + 16 * q);
                    const __m128i cur = _mm_loadu_si128(p);
                    const __m128i c1 = _mm_sub_epi8(cur, one);
                    const __m128i counter = _mm_and_si128(
                        _mm_cmpeq_epi8(_mm_min_epu8(c1, counterTop), c1), lane_bytes(bits));
                    _mm_storeu_si128(p, _mm_add_epi8(cur, counter)); // counter lanes: -1
                    // Counters at their last move: the losses.
                    for (unsigned z = unsigned(
                             _mm_movemask_epi8(_mm_and_si128(counter, _mm_cmpeq_epi8(cur, one))));
                         z; z &= z - 1)
                        lost(x, chunk + std::uint64_t(16 * q + std::countr_zero(z)), them, k, n);
                }
                return;
            }
#endif
        for (; lanes; lanes &= lanes - 1)
            lose_one_move(x, base_, chunk + std::uint64_t(std::countr_zero(lanes)), them, k, n);
    }
#if defined(__SSE2__)
    // Byte lanes of a 16-bit lane mask: 0xFF where its bit is set.
    static __m128i lane_bytes(unsigned bits) {
        static constexpr auto kBytes = [] {
            std::array<std::uint64_t, 256> t {};
            for (unsigned b = 0; b < 256; ++b)
                for (unsigned l = 0; l < 8; ++l)
                    if (b >> l & 1) t[b] |= std::uint64_t(0xFF) << (8 * l);
            return t;
        }();
        return _mm_set_epi64x(std::int64_t(kBytes[bits >> 8]), std::int64_t(kBytes[bits & 0xFF]));
    }
#endif
    // Lists cell i (metric k, side c) for pass 2: a pair's fields are listed together, in slot
    // order, in the arena of the pair's task.
    void list(auto& arena, std::size_t k, Color c, std::uint64_t i) {
        auto& fields = arena[k][c];
        Listed& l = listed_[k][c][std::size_t(i >> gi_.field_bits())];
        if (!l.arena) l = { &fields, std::uint32_t(fields.size()), 0 };
        fields.push_back(std::uint32_t(i & ((std::uint64_t(1) << gi_.field_bits()) - 1)));
        l.end = std::uint32_t(fields.size());
    }

    // ---- debug checks ----
    void check_loss(const GenBoard& b, Color c, int k, int n, int l) {
        const auto f = forward_loss(b, c, k, n);
        if (!f || *f != l)
            throw std::logic_error(material_.name() + ": a counter found a loss in "
                + std::to_string(l) + " plies at level " + std::to_string(n)
                + ", the forward check " + (f ? std::to_string(*f) : std::string("none")));
    }
    void check_undecided() {
        parallel_blocks(gi_.size(), options_.progress, material_.name() + ": check counters",
            [&](std::uint64_t, std::uint64_t begin, std::uint64_t end) {
                for (std::uint64_t i = begin; i < end; ++i) {
                    GenBoard b;
                    if (!gi_.decode(i, b)) continue;
                    for (std::size_t k = 0; k < metrics_.size(); ++k)
                        for (Color c : { WHITE, BLACK })
                            if (is_counter(cells_[k][c][i])
                                && forward_loss(b, c, int(k), std::numeric_limits<int>::max()))
                                throw std::logic_error(material_.name()
                                    + ": a position left undecided is lost by the forward check");
                }
            });
    }

    // ---- output ----
    // The index scheme whose cells compress smaller (docs/format.md), by trial on every
    // step-th block of every metric and side, cells of no position repeating the cell before
    // as the writer fills them; a tie keeps Index::kScheme, the generation index's field order.
    int choose_scheme() const {
        bool blackMen = false; // without them both schemes are one order
        for (PieceType pt : kNameOrder) blackMen |= material_.count[BLACK][pt] > 0;
        if (!blackMen) return Index::kScheme;
        constexpr std::uint64_t kSampleBlocks = 16; // per metric and side
        const std::uint64_t size = index_.size();
        const std::uint64_t blocks = (size + kBlockCells - 1) / kBlockCells;
        const std::uint64_t step = std::max<std::uint64_t>(1, blocks / kSampleBlocks);
        std::size_t best = 0;
        int chosen = Index::kScheme;
        const int width = sizeof(Cell) > 1 || maxLevel_ + 1 > 0xFE ? 2 : 1; // a stored cell's

        for (const int scheme : { Index::kScheme, Index::kSchemeNameOrder }) {
            const Index ix(material_, scheme);
            const std::size_t bytes = tbb::parallel_reduce(
                tbb::blocked_range<std::uint64_t>(0, (blocks + step - 1) / step, 1), std::size_t(0),
                [&](const tbb::blocked_range<std::uint64_t>& r, std::size_t sum) {
                    std::vector<std::uint8_t> block;
                    SpillCursor cursor;
                    for (std::uint64_t n = r.begin(); n != r.end(); ++n)
                        for (std::size_t k = 0; k < metrics_.size(); ++k)
                            for (Color c : { WHITE, BLACK }) {
                                const std::uint64_t first = n * step * kBlockCells;
                                block.clear();
                                unsigned v = 0; // the stored cell
                                for (std::uint64_t i = first;
                                     i < std::min(size, first + kBlockCells); ++i) {
                                    Position pos;
                                    if (ix.decode(i, pos)) {
                                        const std::uint64_t g = gi_.encode(board_of(pos));
                                        const Cell x = cells_[k][c][g];
                                        if (x != kInvalid)
                                            v = final_value(int(k), c, g, x, cursor).cell();
                                    }
                                    for (int byte = 0; byte < width; ++byte)
                                        block.push_back(std::uint8_t(v >> (8 * byte)));
                                }
                                sum += TableWriter::compressed_size(block);
                            }
                    return sum;
                },
                std::plus<>());
            if (scheme == Index::kScheme || bytes < best) best = bytes, chosen = scheme;
        }
        return chosen;
    }
    GenBoard board_of(const Position& pos) const {
        GenBoard b;
        b.king = { pos.king_square(WHITE), pos.king_square(BLACK) };
        int j = 0;
        for (Color c : { WHITE, BLACK })
            for (PieceType pt : kNameOrder)
                for (Bitboard m = pos.pieces(c, pt); m;) b.man[std::size_t(j++)] = pop_lsb(m);
        return b;
    }

    void output(TableWriter& writer, TableStats& stats) {
        const CountPhase phase = count_phase(material_);
        // The metric the counted statistics come from, and which of its values win or lose
        // within a fresh count, per side to move.
        const int countedMetric = metrics_.size() > 1 ? 1
            : phase == CountPhase::PiecesHonour       ? 0
                                                      : -1;
        std::array<std::vector<bool>, COLOR_NB> countedDecided;
        if (countedMetric >= 0)
            for (Color c : { WHITE, BLACK }) {
                const Position pos = representative(material_, c);
                const Metric m = metrics_[std::size_t(countedMetric)];
                countedDecided[c].resize(std::size_t(maxLevel_) + 1);
                for (int p = 0; p <= maxLevel_; ++p) {
                    const Value v = Value::mate_in_plies(p);
                    const CountedValue cv = m == Metric::Bia ? counted_bia_phase(v)
                        : m == Metric::Board
                        ? counted_board_honour(v, fresh_count(pos, rules_), rules_)
                        : counted_pieces_honour(pos, v, fresh_count(pos, rules_), rules_);
                    countedDecided[c][std::size_t(p)] = cv.result != CountedValue::Result::Draw;
                }
            }
        struct Local {
            std::array<SideStats, COLOR_NB> side;
            std::array<std::vector<std::uint64_t>, COLOR_NB> wins, losses; // by moves
            std::array<std::uint64_t, COLOR_NB> longestSlot { ~0ULL, ~0ULL };
        };
        tbb::combinable<Local> locals;
        const int scheme = choose_scheme();
        index_ = Index(material_, scheme);
        writer.set_index_scheme(scheme);
        // The generation cells are the stored ones in place when the slots are the storage
        // Index's (gen_index.hpp: no Bia, no identical men, and the scheme of its fields).
        const bool inPlace = gi_.storage_order() && scheme == Index::kScheme;
        // Single men in scheme 1: a storage slot is a generation slot with White's and Black's
        // fields swapped, off the residue (where the two schemes may name a board by different
        // reflections: the board is encoded again).
        const bool permuted = gi_.storage_order() && !inPlace;
        int whiteBits = 0, blackBits = 0;
        for (PieceType pt : kNameOrder)
            whiteBits += 6 * material_.count[WHITE][pt],
                blackBits += 6 * material_.count[BLACK][pt];
        const std::uint64_t fieldsMask = (std::uint64_t(1) << (whiteBits + blackBits)) - 1;
        constexpr std::uint64_t kNone = ~std::uint64_t(0);
        auto gen_slot = [&](std::uint64_t s) { // of storage slot s; kNone: no position
            if (inPlace) return s;
            if (!gi_.residue(s)) {
                const std::uint64_t low = s & fieldsMask;
                return (s & ~fieldsMask)
                    | (low & ((std::uint64_t(1) << blackBits) - 1)) << whiteBits | low >> blackBits;
            }
            Position pos;
            return index_.decode(s, pos) ? gi_.encode(board_of(pos)) : kNone;
        };
        // The longest mate's position: of those at that distance, the one with the smallest
        // slot in scheme 1 (the tables' first), so that the statistics do not follow the scheme.
        const Index names(material_, Index::kSchemeNameOrder);
        const std::uint64_t size = index_.size();
        // DTM's cells, kept for the Bia-phase metric (the writer may code it against them).
        std::array<Cells<std::uint8_t>, COLOR_NB> dtmStored;
        std::span<const std::uint8_t> dtmSpans[COLOR_NB];
        int dtmBytes = 0;
        TableWriter::DontCare dontCare; // bit per slot and side: no position
        for (std::size_t k = 0; k < metrics_.size(); ++k) {
            const bool relative = metrics_[k] == Metric::Bia;
            // The longest distance, or a bound on it that shows its cells fit in 8 bits: only
            // that is asked below. Every value written was a level noted (maxLevel_), so that
            // bound usually does; else the largest code in the window, or the longest retired.
            // The codes are rotated so that the four special ones (far, retired, no position)
            // come lowest: a plain unsigned maximum, which the compiler vectorizes (a select on
            // x < kFarLoss it did not).
            int maxCell = std::max(maxLevel_.load(), retiredTop_[std::size_t(k)]) + 1;
            if (maxCell >= 0xFF) {
                constexpr Cell kRotate = Cell(kInvalid - kFarLoss + 1);
                Cell top = 0;
                for (Color c : { WHITE, BLACK }) {
                    const Cell* x = cells_[k][c].data();
                    top = std::max(top,
                        tbb::parallel_reduce(
                            tbb::blocked_range<std::size_t>(0, cells_[k][c].size(), kBlock),
                            Cell(0),
                            [&](const tbb::blocked_range<std::size_t>& r, Cell m) {
                                for (std::size_t i = r.begin(); i != r.end(); ++i)
                                    m = std::max(m, Cell(x[i] + kRotate));
                                return m;
                            },
                            [](Cell a, Cell b) { return std::max(a, b); }));
                }
                top = top >= kRotate ? Cell(top - kRotate) : Cell(0);
                maxCell = std::max(top >= base_ ? plies(top) : -1, retiredTop_[std::size_t(k)]) + 1;
            }
            const int cellBytes = maxCell <= 0xFF ? 1 : 2;
            // Stored cells. In place, the generation cells become the stored ones ("no
            // position", all ones, the don't-care slots): no second array, no encoding; unless
            // 8-bit cells hold distances longer than 8-bit stored cells do: then the writer
            // reads the values from the cells as it goes (`fromCells`), since whole 16-bit
            // arrays beside them would double the memory; so it does for single men in scheme 1
            // (KSMvKR: 2.96 GB with a stored array).
            const bool fromCells = permuted || (inPlace && sizeof(Cell) == 1 && maxCell >= 0xFF);
            const bool wideStore = inPlace ? sizeof(Cell) > 1 || fromCells : maxCell >= 0xFF;
            // Otherwise the cells are scattered to their storage slots, into arrays left
            // untouched until written (the slots no position reaches never are): storage order
            // follows the generation's king pairs, so those arrays grow as the generation cells
            // read are given back, a chunk at a time, so the two never peak together.
            const bool scatter = !inPlace && !fromCells;
            std::array<Cells<std::uint16_t>, COLOR_NB> wide;
            std::array<Cells<std::uint8_t>, COLOR_NB> narrow;
            for (Color c : { WHITE, BLACK })
                if (!scatter)
                    continue;
                else if (wideStore)
                    wide[c].resize(size);
                else
                    narrow[c].resize(size);
            // The slots written, while the first metric scatters (the positions: the same for
            // every metric); their complement is the writer's don't-care mask.
            std::array<std::vector<std::uint64_t>, COLOR_NB> written;
            if (scatter && k == 0)
                for (Color c : { WHITE, BLACK }) written[c].assign((size + 63) / 64, 0);
            tbb::enumerable_thread_specific<SpillCursor> cursors;
            // The statistics: `weight` positions of side c to move with value v (a position's
            // orbit, its images under the symmetries; or many positions' at once).
            auto count = [&](Local& l, Color c, Value v, std::uint64_t weight) {
                if (int(k) == countedMetric && !v.is_draw()
                    && countedDecided[c][std::size_t(v.plies)])
                    (v.is_win() ? l.side[c].counted_wins : l.side[c].counted_losses) += weight;
                if (k != 0) return;
                SideStats& s = l.side[c];
                s.legal += weight;
                if (v.is_draw()) {
                    s.draws += weight;
                    return;
                }
                (v.is_win() ? s.wins : s.losses) += weight;
                auto& h = v.is_win() ? l.wins[c] : l.losses[c];
                const auto moves = std::size_t(std::abs(v.mate_in_moves()));
                if (h.size() <= moves) h.resize(moves + 1);
                h[moves] += weight;
            };
            auto longest = [&](Local& l, Color c, int plies, std::uint64_t i, GenBoard& b,
                               bool& decoded) {
                // The longest mate: the position with the smallest slot in names' scheme.
                SideStats& s = l.side[c];
                if (k != 0 || plies < 0 || plies < s.longest_plies) return;
                if (!decoded) gi_.decode_valid(i, b), decoded = true;
                const std::uint64_t name = names.encode(b.king[WHITE], b.king[BLACK], b.man.data());
                if (plies > s.longest_plies || name < l.longestSlot[c]) {
                    s.longest_plies = plies;
                    l.longestSlot[c] = name;
                }
            };
            // 8-bit cells off the residue, kept in place (or read by the writer): a cell's value
            // needs no board and its orbit is the ending's, so the cells are counted by code
            // (the statistics taken once per block) and stored through a table of codes.
            // A slot with a decision retired to the spill (or beyond the window) takes the
            // general way.
            constexpr int kCodes = sizeof(Cell) == 1 ? 256 : 1;
            std::array<std::uint16_t, kCodes> storedOf {}; // the stored cell of a code
            std::array<int, kCodes> pliesOf {}; // -1: a draw (a counter left undecided)
            std::array<bool, kCodes> slow {}; // retired or beyond the window: final_value()
            for (int x = 0; x < kCodes; ++x) {
                const auto cx = Cell(x);
                slow[std::size_t(x)] = cx == kRetired || cx == kFarWin || cx == kFarLoss;
                const Value v = in_window(cx) ? Value::mate_in_plies(plies(cx)) : Value::draw();
                storedOf[std::size_t(x)] = std::uint16_t(v.cell());
                pliesOf[std::size_t(x)] = v.is_draw() ? -1 : v.plies;
            }
            const bool byCode = sizeof(Cell) == 1 && !scatter;
            const bool storeInPlace = inPlace && !fromCells;
            const std::uint64_t plainOrbit = material_.symmetry() == Symmetry::MirrorOnly ? 2 : 8;
            auto pass = [&](std::uint64_t, std::uint64_t begin, std::uint64_t end) {
                Local& l = locals.local();
                SpillCursor& cursor = cursors.local();
                std::array<std::array<std::uint64_t, kCodes>, COLOR_NB> codes {};
                for (std::uint64_t i = begin; i < end; ++i) {
                    if (cells_[k][WHITE][i] == kInvalid && cells_[k][BLACK][i] == kInvalid)
                        continue;
                    const bool residue = gi_.residue(i);
                    GenBoard b;
                    if constexpr (sizeof(Cell) == 1)
                        if (byCode && !residue && !slow[cells_[k][WHITE][i]]
                            && !slow[cells_[k][BLACK][i]]) {
                            bool decoded = false;
                            for (Color c : { WHITE, BLACK }) {
                                const Cell x = cells_[k][c][i];
                                if (x == kInvalid) continue;
                                ++codes[c][x];
                                if (storeInPlace) cells_[k][c][i] = Cell(storedOf[x]);
                                longest(l, c, pliesOf[x], i, b, decoded);
                            }
                            continue;
                        }
                    // A cell holds a value: the slot is a position; its board is needed
                    // to encode it, or to tell a board equal to its reflection.
                    bool decoded = scatter || residue;
                    if (decoded) gi_.decode_valid(i, b);
                    const std::uint64_t slot
                        = scatter ? index_.encode(b.king[WHITE], b.king[BLACK], b.man.data()) : i;
                    const std::uint64_t orbit
                        = plainOrbit == 8 && residue && gi_.symmetric(b) ? 4 : plainOrbit;
                    for (Color c : { WHITE, BLACK }) {
                        const Cell x = cells_[k][c][i];
                        if (x == kInvalid) continue;
                        const Value v = final_value(int(k), c, i, x, cursor);
                        if (fromCells)
                            ;
                        else if (inPlace)
                            cells_[k][c][i] = Cell(v.cell());
                        else {
                            if (wideStore)
                                wide[c][slot] = std::uint16_t(v.cell());
                            else
                                narrow[c][slot] = std::uint8_t(v.cell());
                            if (k == 0)
                                std::atomic_ref(written[c][slot >> 6])
                                    .fetch_or(
                                        std::uint64_t(1) << (slot & 63), std::memory_order_relaxed);
                        }
                        count(l, c, v, orbit);
                        if (!v.is_draw()) longest(l, c, v.plies, i, b, decoded);
                    }
                }
                if (!byCode) return;
                for (Color c : { WHITE, BLACK })
                    for (int x = 0; x < kCodes; ++x)
                        if (codes[c][std::size_t(x)])
                            count(l, c,
                                pliesOf[std::size_t(x)] < 0
                                    ? Value::draw()
                                    : Value::mate_in_plies(pliesOf[std::size_t(x)]),
                                codes[c][std::size_t(x)] * plainOrbit);
            };
            const std::string phaseName = material_.name() + ": output";
            if (!scatter)
                parallel_blocks(gi_.size(), options_.progress, phaseName, pass);
            else {
                if (options_.progress) options_.progress->phase(phaseName, gi_.size());
                constexpr std::uint64_t kChunk = std::uint64_t(1) << 24;
                for (std::uint64_t first = 0; first < gi_.size(); first += kChunk) {
                    const std::uint64_t last = std::min(gi_.size(), first + kChunk);
                    parallel_blocks_in(first, last, options_.progress, pass);
                    for (Color c : { WHITE, BLACK })
                        release_pages(cells_[k][c].data() + first, (last - first) * sizeof(Cell));
                }
            }
            for (Color c : { WHITE, BLACK })
                if (inPlace && !fromCells) {
                    cells_[k][c].resize(size); // without the padding to 64 slots
                    if constexpr (sizeof(Cell) == 1)
                        narrow[c] = std::move(cells_[k][c]);
                    else
                        wide[c] = std::move(cells_[k][c]);
                }
            if (options_.progress) options_.progress->phase(material_.name() + ": compress", 0);
            // The slots no position reached are "don't care" (the same for every metric: found
            // once): the writer fills them. One word of 64 slots per task: one writer per word
            // (parallel: a sequential pass cost KRMvKN's output about a second).
            if (k == 0 && scatter)
                for (Color c : { WHITE, BLACK }) {
                    dontCare[c] = std::move(written[c]);
                    for (std::uint64_t& w : dontCare[c]) w = ~w;
                    if (size % 64) dontCare[c].back() &= (std::uint64_t(1) << (size % 64)) - 1;
                }
            else if (k == 0)
                for (Color c : { WHITE, BLACK }) {
                    dontCare[c].assign((size + 63) / 64, 0);
                    tbb::parallel_for(std::size_t(0), dontCare[c].size(), [&](std::size_t w) {
                        // One loop per case, so that the stored cells' compares vectorize.
                        const std::uint64_t first = w * 64,
                                            n = std::min<std::uint64_t>(64, size - first);
                        std::uint64_t bits = 0;
                        if (fromCells)
                            for (std::uint64_t t = 0; t < n; ++t) {
                                const std::uint64_t g = gen_slot(first + t);
                                bits |= std::uint64_t(g == kNone || cells_[k][c][g] == kInvalid)
                                    << t;
                            }
                        else if (wideStore)
                            for (std::uint64_t t = 0; t < n; ++t)
                                bits |= std::uint64_t(wide[c][first + t] == 0xFFFF) << t;
                        else
                            for (std::uint64_t t = 0; t < n; ++t)
                                bits |= std::uint64_t(narrow[c][first + t] == 0xFF) << t;
                        dontCare[c][w] = bits;
                    });
                }
            stats.cell_bytes = std::max(stats.cell_bytes, cellBytes);
            if (fromCells) { // stored cells block by block (no Bia: no DTM to code against)
                writer.add(
                    metrics_[k], cellBytes,
                    [&](Color c, std::uint64_t first, std::size_t n,
                        std::uint8_t* out) -> const std::uint8_t* {
                        SpillCursor& cursor = cursors.local();
                        for (std::size_t t = 0; t < n; ++t) {
                            const std::uint64_t g = gen_slot(first + t);
                            const Cell x = g == kNone ? kInvalid : cells_[k][c][g];
                            unsigned v;
                            if constexpr (sizeof(Cell) == 1)
                                v = x == kInvalid ? 0xFFFF
                                    : slow[x]     ? final_value(int(k), c, g, x, cursor).cell()
                                                  : storedOf[x];
                            else
                                v = x == kInvalid ? 0xFFFF
                                                  : final_value(int(k), c, g, x, cursor).cell();
                            out[t * std::size_t(cellBytes)] = std::uint8_t(v);
                            if (cellBytes == 2) out[2 * t + 1] = std::uint8_t(v >> 8);
                        }
                        return out;
                    },
                    dontCare);
                for (Color c : { WHITE, BLACK }) Cells<Cell>().swap(cells_[k][c]);
                continue;
            }
            // This metric's generation cells are not needed any more.
            for (Color c : { WHITE, BLACK }) Cells<Cell>().swap(cells_[k][c]);
            std::span<const std::uint8_t> spans[COLOR_NB];
            for (Color c : { WHITE, BLACK }) {
                if (wideStore && cellBytes == 1) {
                    narrow[c].assign(wide[c].begin(), wide[c].end());
                    Cells<std::uint16_t>().swap(wide[c]);
                }
                spans[c] = cellBytes == 1
                    ? std::span<const std::uint8_t>(narrow[c])
                    : std::span<const std::uint8_t>(
                        reinterpret_cast<const std::uint8_t*>(wide[c].data()), wide[c].size() * 2);
            }
            writer.add(
                metrics_[k], cellBytes, spans, dontCare, relative ? dtmSpans : nullptr, dtmBytes);
            // The Bia-phase metric may be coded against DTM's cells: they stay until then.
            if (metrics_[k] == Metric::Dtm
                && std::find(metrics_.begin(), metrics_.end(), Metric::Bia) != metrics_.end()) {
                dtmBytes = cellBytes;
                for (Color c : { WHITE, BLACK }) {
                    if (cellBytes == 1)
                        dtmStored[c] = std::move(narrow[c]);
                    else
                        dtmStored[c].assign(spans[c].begin(), spans[c].end());
                    dtmSpans[c] = dtmStored[c];
                }
            }
        }
        Local total;
        locals.combine_each([&](const Local& l) {
            for (Color c : { WHITE, BLACK }) {
                SideStats& t = total.side[c];
                const SideStats& s = l.side[c];
                t.legal += s.legal, t.wins += s.wins, t.draws += s.draws, t.losses += s.losses;
                t.counted_wins += s.counted_wins, t.counted_losses += s.counted_losses;
                for (std::size_t m = 0; m < l.wins[c].size(); ++m)
                    if (l.wins[c][m]) t.win_moves[int(m)] += l.wins[c][m];
                for (std::size_t m = 0; m < l.losses[c].size(); ++m)
                    if (l.losses[c][m]) t.loss_moves[int(m)] += l.losses[c][m];
                if (s.longest_plies > t.longest_plies
                    || (s.longest_plies == t.longest_plies
                        && l.longestSlot[c] < total.longestSlot[c])) {
                    t.longest_plies = s.longest_plies;
                    total.longestSlot[c] = l.longestSlot[c];
                }
            }
        });
        stats.name = material_.name();
        stats.index_size = size;
        stats.side = total.side;
        stats.counted = countedMetric >= 0;
        for (Color c : { WHITE, BLACK })
            if (total.side[c].longest_plies >= 0) {
                Position pos;
                names.decode(total.longestSlot[c], pos);
                pos.set_side_to_move(c);
                stats.side[c].longest_fen = pos.fen();
            }
    }

    const Material& material_;
    const GenOptions& options_;
    CountRules rules_;
    GenIndex gi_;
    Index index_; // the storage index the file is written in
    std::vector<Metric> metrics_;
    std::array<bool, COLOR_NB> hasRuea_ {}; // a side has a slider (its attacks depend on occupancy)
    GenIndex::LowField low_ { -1, 0, 0 }; // pass 1's chunks: their lanes' man (-1: none)
    Cell base_ = 0;
    int offset_ = 0; // the window's first level (even)
    int span_ = 0; // the window holds levels offset_ .. offset_ + span_
    std::array<std::array<Cells<Cell>, COLOR_NB>, kMaxMetrics> cells_;
    // Per metric and side: per run of kMaskSlots slots, bit p set = a cell may hold level p.
    std::array<std::array<std::vector<std::uint64_t>, COLOR_NB>, kMaxMetrics> levels_;
    std::atomic<int> maxLevel_ { 0 }; // the largest level written so far
    std::unique_ptr<const Tablebase> children_; // the tables the recipes read
    std::array<std::array<std::unique_ptr<Recipe>, kMaxGenMen + 1>, kMaxGenMen + 1> recipes_;
    TableStats stats_;
    // Decisions beyond the window: the list, and those a parallel phase is adding.
    struct Far {
        std::uint64_t slot;
        int plies;
        std::int8_t metric;
        Color side;
    };
    std::vector<Far> far_;
    tbb::combinable<std::vector<Far>> farNew_;
    // The level loop's king un-moves, per pair they land in.
    std::vector<std::vector<KingEdge>> into_;
    // Its lists of the cells holding the level, per metric and side to move: their fields, in
    // an arena per thread, and per pair the run of an arena that holds the pair's.
    using Arena = std::array<std::array<std::vector<std::uint32_t>, COLOR_NB>, kMaxMetrics>;
    struct Listed {
        const std::vector<std::uint32_t>* arena = nullptr;
        std::uint32_t begin = 0, end = 0;
    };
    tbb::enumerable_thread_specific<Arena> arenas_;
    std::array<std::array<std::vector<Listed>, COLOR_NB>, kMaxMetrics> listed_;
    // The spill: per rollover, the cells it retired (codes of the window then), by chunks in
    // a scratch file (KSMvKM: 558 MB, a third of its cells' memory).
    static constexpr std::size_t kSpillChunk = kBlockCells;
    struct Snapshot {
        int offset = 0; // the window's first level when these cells were retired
        struct Chunk {
            std::uint64_t at = 0; // in the scratch file
            std::size_t bytes = 0;
        };
        std::array<std::array<std::vector<Chunk>, COLOR_NB>, kMaxMetrics> chunks;
    };
    std::string dir_; // the tables' directory, where the scratch file goes
    std::unique_ptr<ScratchFile> spillFile_;
    std::vector<Snapshot> spill_;
    tbb::enumerable_thread_specific<SpillCursor> debugCursors_; // the debug checks' reads
    std::array<int, kMaxMetrics> retiredTop_ { -1, -1 }; // the longest distance retired, per metric
};

std::string json_escape(const std::string& s) {
    std::string o;
    for (char ch : s) {
        if (ch == '"' || ch == '\\') o += '\\';
        o += ch;
    }
    return o;
}

TableStats run_generation(
    const Material& m, const Tablebase& tables, TableWriter& writer, const GenOptions& options) {
    if (options.wide_cells) return Generation<std::uint16_t>(m, tables, options).run(writer);
    return Generation<std::uint8_t>(m, tables, options).run(writer);
}

} // namespace

std::vector<Metric> stored_metrics(const Material& m) {
    if (m.has(BIA)) return { Metric::Dtm, Metric::Bia };
    if (count_phase(m) == CountPhase::BoardHonour) return { Metric::Dtm, Metric::Board };
    return { Metric::Dtm };
}

MemoryEstimate estimate_memory(const Material& m) {
    MemoryEstimate e;
    const std::uint64_t slots = GenIndex(m).size();
    e.cells = slots * stored_metrics(m).size() * COLOR_NB;
    e.generation = std::uint64_t(double(e.cells) * kGenerationBytesPerCell) + kFixedBytes;
    for (const Material& c : m.children())
        e.children += Index(c.canonical()).size() * stored_metrics(c).size() * COLOR_NB;
    return e;
}

std::vector<Material> build_order(const std::vector<Material>& wanted) {
    std::vector<Material> order;
    std::set<std::string> seen;
    std::function<void(const Material&)> visit = [&](const Material& m) {
        if (!seen.insert(m.name()).second) return;
        for (const Material& c : m.children()) visit(c);
        order.push_back(m);
    };
    for (const Material& m : wanted) visit(m);
    return order;
}

TableStats generate(const Material& m, const Tablebase& tables, const GenOptions& options) {
    const auto start = std::chrono::steady_clock::now();
    const int metrics = options.dtm_only ? 1 : int(stored_metrics(m).size());
    TableWriter writer(m, encode(options.rules), table_path(tables.dir(), m), metrics);
    TableStats stats = run_generation(m, tables, writer, options);
    writer.commit();
    if (options.progress) options.progress->finish();
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::error_code ec;
    stats.file_bytes = std::filesystem::file_size(table_path(tables.dir(), m), ec);
    return stats;
}

std::string TableStats::to_json() const {
    std::ostringstream os;
    os << "{\n  \"ending\": \"" << name << "\",\n  \"index_size\": " << index_size
       << ",\n  \"cell_bytes\": " << cell_bytes << ",\n  \"file_bytes\": " << file_bytes
       << ",\n  \"seconds\": " << seconds << ",\n  \"phase_seconds\": {";
    for (std::size_t k = 0; k < phase_seconds.size(); ++k)
        os << (k ? ", " : "") << "\"" << phase_seconds[k].first
           << "\": " << phase_seconds[k].second;
    os << "},\n  \"sides\": {";
    for (Color c : { WHITE, BLACK }) {
        const SideStats& s = side[c];
        os << (c == WHITE ? "\n" : ",\n") << "    \"" << (c == WHITE ? "white" : "black")
           << "_to_move\": {\n      \"legal\": " << s.legal << ", \"wins\": " << s.wins
           << ", \"draws\": " << s.draws << ", \"losses\": " << s.losses
           << ",\n      \"longest_mate_plies\": " << s.longest_plies << ", \"longest_mate_fen\": \""
           << json_escape(s.longest_fen)
           << "\",\n      \"counted_wins\": " << (counted ? std::to_string(s.counted_wins) : "null")
           << ", \"counted_losses\": " << (counted ? std::to_string(s.counted_losses) : "null")
           << ",\n      \"win_in_moves\": {";
        bool first = true;
        for (auto [k, n] : s.win_moves)
            os << (first ? "" : ", ") << "\"" << k << "\": " << n, first = false;
        os << "},\n      \"loss_in_moves\": {";
        first = true;
        for (auto [k, n] : s.loss_moves)
            os << (first ? "" : ", ") << "\"" << k << "\": " << n, first = false;
        os << "}\n    }";
    }
    os << "\n  }\n}\n";
    return os.str();
}

} // namespace mktb

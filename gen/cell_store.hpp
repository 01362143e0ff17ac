// cell_store.hpp - the generation's cells: one per metric, side to move and slot, with the window
// of levels their codes hold, the level masks that say where a level may be found, and the
// decisions made beyond the window.
//
// Codes (8 bits, 16 under GenOptions::wide_cells):
//   0 a draw, final; 1 .. base-1 undecided, counting the in-table moves not yet known to lose;
//   base + p - offset decided, mate in p plies (odd: the side to move mates) for p in the
//   window of levels offset .. offset + span; "far" (win or loss): decided beyond the window,
//   p kept in a list until the window reaches it; "retired": decided before the window, p in
//   the spill (spill.hpp); all ones: no position. When the level loop outgrows the window, the
//   window moves on (rollover): the cells decided below the level are spilled and retired, so a
//   mate of any length runs in 8-bit cells.
// Invariant: a cell holding level p lies in a run of kMaskSlots slots whose mask bit p % 256
// is set (the scan of level p reads only those runs), and every decision beyond the window is
// in the far list until a rollover codes it.
#pragma once

#include <algorithm>
#include <atomic>
#include <limits>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include "parallel.hpp"
#include "ranks.hpp"
#include "spill.hpp"

namespace mktb {

template<class Cell>
class CellStore {
public:
    static constexpr Cell kInvalid = std::numeric_limits<Cell>::max(); // no position
    static constexpr Cell kRetired = kInvalid - 1; // decided below the window: see the spill
    static constexpr Cell kFarWin = kInvalid - 2; // decided (a win, or a win's bound) beyond it
    static constexpr Cell kFarLoss = kInvalid - 3; // decided (a loss) beyond it
    static constexpr Cell kDraw = 0;

    // Level masks: per run of kMaskSlots slots, 256 bits. 8-bit cells hold fewer than 256
    // levels; 16-bit ones share each bit among the levels equal modulo 256, which only adds
    // runs to a scan.
    static constexpr int kMaskShift = 10;
    static constexpr std::uint64_t kMaskSlots = std::uint64_t(1) << kMaskShift;
    static constexpr int kMaskWords = 4;
    static_assert(kBlockShift >= kMaskShift);
    using SpillCursor = typename Spill<Cell>::Cursor;

    // `base`: one more than any counter; `windowPlies` (0: as many as the codes allow) bounds
    // the window, at least 2 levels so that a rollover at an odd level keeps the one before.
    CellStore(int metrics, std::uint64_t slots, Cell base, int windowPlies, Spill<Cell>& spill)
        : metrics_(metrics)
        , slots_(slots)
        , base_(base)
        , spill_(spill) {
        span_ = int(kFarLoss) - 1 - int(base_);
        if (windowPlies > 0) span_ = std::min(span_, std::max(windowPlies, 2));
    }

    // The arrays, padded with "no position" to whole 64-slot chunks; the slots themselves are
    // left for init to write, each block by its task.
    void allocate() {
        const std::uint64_t padded = (slots_ + 63) & ~63ULL;
        for (int k = 0; k < metrics_; ++k)
            for (Color c : { WHITE, BLACK }) {
                auto& x = cells_[std::size_t(k)][c];
                x.resize(padded);
                std::fill(x.begin() + std::ptrdiff_t(slots_), x.end(), kInvalid);
                levels_[std::size_t(k)][c].assign(
                    ((slots_ + kMaskSlots - 1) >> kMaskShift) * kMaskWords, 0);
            }
    }

    // Over several ranks: this one's pairs (of `fieldBits` slots each; whole spill chunks), the
    // only ones its rollovers spill.
    void own(const PairShare& share, int fieldBits) {
        share_ = share;
        fieldBits_ = fieldBits;
    }
    // Every rank takes the largest level noted by any (after a phase that notes levels), so
    // that all run the same levels and roll the window over at the same ones.
    void agree(Ranks& ranks) {
        if (ranks.size() == 1) return;
        std::uint64_t v[1 + kMaxMetrics] = { std::uint64_t(maxLevel_.load()) };
        for (std::size_t k = 0; k < kMaxMetrics; ++k) v[k + 1] = std::uint64_t(retiredTop_[k] + 1);
        ranks.reduce(v, Ranks::Op::Max);
        maxLevel_ = int(v[0]);
        for (std::size_t k = 0; k < kMaxMetrics; ++k) retiredTop_[k] = int(v[k + 1]) - 1;
    }

    int metrics() const { return metrics_; }
    Cell base() const { return base_; }
    Cells<Cell>& array(int k, Color c) { return cells_[std::size_t(k)][c]; }
    Cell& cell(int k, Color c, std::uint64_t i) { return cells_[std::size_t(k)][c][i]; }
    Cell cell(int k, Color c, std::uint64_t i) const { return cells_[std::size_t(k)][c][i]; }
    std::uint64_t* masks(int k, Color c) { return levels_[std::size_t(k)][c].data(); }

    // ---- codes ----
    static bool is_counter(Cell c, Cell base) { return c != kDraw && c < base; }
    bool is_counter(Cell c) const { return is_counter(c, base_); }
    bool in_window(Cell c) const { return c >= base_ && c < kFarLoss; }
    int plies(Cell c) const { return offset_ + int(c) - int(base_); } // a code in the window
    int top() const { return offset_ + span_; } // the last level the window holds
    Cell code(int p) const { return Cell(int(base_) + p - offset_); } // p in the window

    // A decision in p plies for cell (k, c, i): its code, or far beyond the window (p set aside
    // until a rollover brings the window there); the level is noted either way.
    Cell decided(int k, Color c, std::uint64_t i, int p) {
        note_level(p);
        if (p <= top()) {
            mark(k, c, i, p);
            return code(p);
        }
        farNew_.local().push_back({ i, p, std::int8_t(k), c });
        return p & 1 ? kFarWin : kFarLoss;
    }
    // The far decisions made in a parallel phase join the list.
    void gather_far() {
        farNew_.combine_each([&](std::vector<FarDecision>& v) {
            far_.insert(far_.end(), v.begin(), v.end());
            v.clear();
        });
    }

    // ---- level masks ----
    static std::size_t mask_word(std::uint64_t i, int p) {
        return std::size_t(i >> kMaskShift) * kMaskWords + std::size_t(p >> 6 & (kMaskWords - 1));
    }
    // A value written for level p: its run is scanned at level p.
    void mark(int k, Color c, std::uint64_t i, int p) {
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
    int max_level() const { return maxLevel_.load(); }
    int retired_top(int k) const { return retiredTop_[std::size_t(k)]; }

    // ---- rollover ----
    // The window's first level becomes `from` (even, so a code's parity is its distance's):
    // every cell decided below it goes to a new spill snapshot and is retired; the cells in the
    // window are coded anew; far decisions the window now reaches take their codes.
    void rollover(int from) {
        const std::size_t chunks = (cells_[0][WHITE].size() + kChunk - 1) / kChunk;
        spill_.begin_snapshot(offset_, metrics_, chunks);
        for (int k = 0; k < metrics_; ++k)
            for (Color c : { WHITE, BLACK }) {
                Cells<Cell>& x = cells_[std::size_t(k)][c];
                tbb::combinable<int> highest([] { return -1; });
                tbb::parallel_for(std::size_t(0), chunks, [&](std::size_t q) {
                    if (!share_.owns(int((q * kChunk) >> fieldBits_))) return; // another rank's
                    thread_local std::vector<Cell> kept;
                    const std::size_t first = q * kChunk;
                    const std::size_t n = std::min<std::size_t>(kChunk, x.size() - first);
                    kept.assign(n, Spill<Cell>::kNone);
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
                    spill_.store(k, c, q, kept);
                });
                retiredTop_[std::size_t(k)] = std::max(retiredTop_[std::size_t(k)],
                    highest.combine([](int a, int b) { return std::max(a, b); }));
            }
        offset_ = from;
        std::erase_if(far_, [&](const FarDecision& f) {
            if (f.plies > top()) return false;
            Cell& x = cell(f.metric, f.side, f.slot);
            if (x == kFarWin || x == kFarLoss) { // else a faster win took the cell since
                x = code(f.plies);
                mark(f.metric, f.side, f.slot, f.plies);
            }
            return true;
        });
    }

    // The final value of cell (k, c, i) holding x (a position): no far code is left by then.
    Value final_value(int k, Color c, std::uint64_t i, Cell x, SpillCursor& cursor) const {
        if (x == kRetired)
            return Value::mate_in_plies(spill_.retired_plies(k, c, i, base_, cursor));
        if (x == kFarWin || x == kFarLoss)
            throw std::logic_error("a decision beyond the last level");
        return in_window(x) ? Value::mate_in_plies(plies(x)) : Value::draw();
    }

private:
    static constexpr std::size_t kChunk = Spill<Cell>::kSpillChunk;
    struct FarDecision { // a decision beyond the window
        std::uint64_t slot;
        int plies;
        std::int8_t metric;
        Color side;
    };

    int metrics_;
    std::uint64_t slots_;
    PairShare share_; // this rank's pairs
    int fieldBits_ = 0;
    Cell base_;
    int offset_ = 0; // the window's first level (even)
    int span_ = 0; // the window holds levels offset_ .. offset_ + span_
    Spill<Cell>& spill_;
    std::array<std::array<Cells<Cell>, COLOR_NB>, kMaxMetrics> cells_;
    // Per metric and side: per run of kMaskSlots slots, bit p set = a cell may hold level p.
    std::array<std::array<std::vector<std::uint64_t>, COLOR_NB>, kMaxMetrics> levels_;
    std::atomic<int> maxLevel_ { 0 }; // the largest level written so far
    std::array<int, kMaxMetrics> retiredTop_ { -1, -1 }; // the longest distance retired
    std::vector<FarDecision> far_;
    tbb::combinable<std::vector<FarDecision>> farNew_; // those a parallel phase is adding
};

} // namespace mktb

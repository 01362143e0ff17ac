// output.hpp - the output phase: the generation cells' final values written in the storage
// Index's order (the scheme that compresses smaller), the statistics counted on the way, and the
// table file handed to the writer one metric at a time.
//
// Each metric follows one OutputPlan, chosen from the layout of the two indexes and the longest
// distance the metric holds:
//   InPlace      the generation slots are the storage slots (no Bia, no identical men, the
//                generation index's scheme): the cells become the stored ones where they are;
//   ReadThrough  the writer reads the values from the generation cells as it goes (single men
//                stored in the other scheme, whose slots are the generation's with White's and
//                Black's fields swapped; or 8-bit cells holding distances 8-bit stored cells do
//                not), so that no second array of stored cells is needed;
//   Scatter      every other layout: the values are scattered to arrays in storage order, which
//                grow while the generation cells read are given back, a chunk at a time.
// Invariant: every storage slot of a position receives its cell's final value exactly once, and
// every other slot is "don't care" (the same for every metric), whatever the plan.
//
// Over several ranks each stores, counts and compresses the slots of its own king pairs (the
// storage order follows the generation's pairs, and the shares are cut at whole blocks of
// the file); the choices made from the whole table (scheme, widths, coding) are taken from
// sums and maxima over the ranks, and rank 0 writes every rank's blocks.
#pragma once

#include <optional>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_reduce.h>

#include "cell_store.hpp"
#include "gen_index.hpp"
#include "statistics.hpp"
#include "table_writer.hpp"

namespace mktb {

template<class Cell>
class Output {
public:
    using Store = CellStore<Cell>;
    Output(const GenIndex& index, Store& store, const std::vector<Metric>& metrics,
        const GenOptions& options, Ranks& ranks, const PairShare& share)
        : genIndex_(index)
        , store_(store)
        , metrics_(metrics)
        , options_(options)
        , ranks_(ranks)
        , share_(share)
        , material_(index.material())
        , storage_(material_)
        , names_(material_, Index::kSchemeNameOrder) {
        perPair_ = storage_.size() / std::uint64_t(index.pairs());
        genRuns_ = share.slot_runs(std::uint64_t(1) << index.field_bits(), index.size());
        runs_ = share.slot_runs(perPair_, storage_.size());
        // The codes' meanings, fixed once the level loop is done.
        for (int x = 0; x < kCodes; ++x) {
            const auto cx = Cell(x);
            slow_[std::size_t(x)]
                = cx == Store::kRetired || cx == Store::kFarWin || cx == Store::kFarLoss;
            const Value v
                = store_.in_window(cx) ? Value::mate_in_plies(store_.plies(cx)) : Value::draw();
            storedOf_[std::size_t(x)] = std::uint16_t(v.cell());
            pliesOf_[std::size_t(x)] = v.is_draw() ? -1 : v.plies;
        }
    }

    void run(TableWriter& writer, TableStats& stats);

private:
    struct Plan {
        enum class Source { InPlace, ReadThrough, Scatter } source;
        int cellBytes; // of the stored cells
        bool wideArrays; // the arrays the values go through hold 16 bits
        bool byCode; // 8-bit cells off the residue counted and stored through the code tables
    };
    // The stored arrays of one metric and side, in storage order.
    struct Arrays {
        std::array<Cells<std::uint16_t>, COLOR_NB> wide;
        std::array<Cells<std::uint8_t>, COLOR_NB> narrow;
        std::array<std::vector<std::uint64_t>, COLOR_NB> written; // Scatter, first metric
    };
    using SpillCursor = typename Spill<Cell>::Cursor;
    static constexpr int kCodes = sizeof(Cell) == 1 ? 256 : 1;
    static constexpr std::uint64_t kNone = ~std::uint64_t(0);

    int choose_scheme() const;
    GenBoard board_of(const Position& pos) const;
    int longest_stored(int k) const;
    Plan plan(int k) const;
    inline std::uint64_t gen_slot(std::uint64_t s) const;
    void store_block(int k, const Plan& plan, Arrays& arrays, std::uint64_t begin,
        std::uint64_t end, tbb::enumerable_thread_specific<SpillCursor>& cursors);
    void find_dont_care(int k, const Plan& plan, Arrays& arrays, TableWriter::DontCare& dontCare);
    void write_through(int k, const Plan& plan, TableWriter& writer,
        const TableWriter::DontCare& dontCare,
        tbb::enumerable_thread_specific<SpillCursor>& cursors);

    const GenIndex& genIndex_;
    Store& store_;
    const std::vector<Metric>& metrics_;
    const GenOptions& options_;
    Ranks& ranks_;
    const PairShare& share_;
    // This rank's runs of slots: generation slots (genRuns_) and storage slots (runs_, perPair_
    // a king pair) of the same king pairs.
    using Runs = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
    Runs genRuns_, runs_;
    std::uint64_t perPair_ = 1;
    const Material& material_;
    Index storage_; // the storage index the file is written in
    Index names_; // the first scheme's, which names the longest mates
    bool inPlace_ = false; // generation slots are storage slots
    bool permuted_ = false; // storage slots are generation slots with the sides' fields swapped
    int whiteBits_ = 0, blackBits_ = 0; // the men's field bits of each side
    std::uint64_t fieldsMask_ = 0; // all of them
    std::optional<StatsTally> tally_;
    std::uint64_t plainOrbit_ = 8; // boards a cell off the residue stands for
    std::array<std::uint16_t, kCodes> storedOf_ {}; // the stored cell of a code
    std::array<int, kCodes> pliesOf_ {}; // -1: a draw (a counter left undecided)
    std::array<bool, kCodes> slow_ {}; // retired or beyond the window: final_value()
};

} // namespace mktb

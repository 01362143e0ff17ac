// generator.cpp - retrograde analysis of one ending on the generation index (gen_index.hpp): the
// inner loops work on slots and squares, never on Positions or the storage Index.
//
// The pipeline, each phase a parallel loop over blocks of slots or king pairs (oneTBB), each
// part in its own file:
//   setup    the smaller tables loaded whole, one conversion recipe per kind of capture or
//            promotion (conversions.hpp); the cells (cell_store.hpp) sized
//   init     per slot and side to move: legality, mate and stalemate, every conversion valued
//            once, and a counter of the legal moves that stay in the table (gen_moves.hpp)
//   iterate  the level loop (level_loop.hpp, lane_kernels.hpp), rolling the window of codes
//            over into the spill (spill.hpp) as mates grow long; under the debug option every
//            counter's loss checked forward (counter_check.hpp)
//   output   the storage Index's slots, statistics, compression (output.hpp, statistics.hpp,
//            table_writer.hpp)
// Every metric (DTM and the ending's counted one) runs in the same level loop: one scan and one
// un-move generation per cell serve each metric whose cell holds the level.
//
// Symmetry: a position whose board equals its reflection in a1-h8 (kings on the diagonal, the
// "residue") is reached by un-moves in mirrored pairs; such a cell un-moves only one of each
// pair, so every counter receives exactly one decrement per legal move. A symmetric position's
// own moves come in mirrored pairs too, each pair reaching one cell by one un-move: its counter
// counts the pairs (a move that is its own mirror, along a1-h8, counting as one).
#include "generator.hpp"

#include <chrono>
#include <filesystem>
#include <functional>
#include <set>

#include "level_loop.hpp"
#include "output.hpp"

namespace mktb {
namespace {

// estimate_memory()'s model: bytes per generation cell (one slot of one metric and side) at the
// peak, and what any run holds besides (the program, oneTBB's threads, the block cache). Both
// from measured peaks (docs/generator.md, "Memory"), rounded up.
constexpr double kGenerationBytesPerCell = 1.25;
constexpr std::uint64_t kFixedBytes = std::uint64_t(64) << 20;

std::vector<Metric> generated_metrics(const Material& m, const GenOptions& options) {
    std::vector<Metric> metrics = stored_metrics(m);
    if (options.dtm_only) metrics.resize(1);
    return metrics;
}

// The king pairs rank r of n owns: cut where no unit of the generation or the file is shared.
PairShare share_of(const GenIndex& index, int r, int n) {
    return PairShare(index.pairs(), index.field_bits(),
        Index(index.material()).size() / std::uint64_t(index.pairs()), kBlockCells, r, n);
}

template<class Cell>
class Generation {
public:
    using Store = CellStore<Cell>;

    // Setup. The smaller tables are opened here, not read through the caller's: their resident
    // cells (up to 2 GB for KSMvKP, which reads two sides of KSMvKM's 16-bit cells) are freed
    // when the level loop is done, before the output needs memory of its own.
    Generation(const Material& m, const Tablebase& tables, const GenOptions& options)
        : material_(m)
        , options_(options)
        , index_(m)
        , ranks_(options.ranks ? *options.ranks : oneRank_)
        , share_(share_of(index_, ranks_.rank(), ranks_.size()))
        , mine_(share_.slot_runs(std::uint64_t(1) << index_.field_bits(), index_.size()))
        , metrics_(generated_metrics(m, options))
        , spill_(tables.dir(), "the spill of " + m.name() + "'s level loop")
        , store_(int(metrics_.size()), index_.size(), Cell(GenMoves::most_moves(m) + 1),
              options.window_plies, spill_)
        , conversions_(std::make_unique<Conversions>(index_, metrics_, options.rules, tables.dir()))
        , moves_(index_, conversions_.get(), int(metrics_.size())) {
        if (options.check_counters && ranks_.size() > 1)
            throw TableError(m.name() + ": the counter check reads every cell: one process only");
        store_.own(share_, index_.field_bits());
    }

    TableStats run(TableWriter& writer) {
        timed("init", [&] { init(); });
        timed("iterate", [&] { iterate(); });
        // No conversion is valued from here on: the smaller tables' cells go.
        moves_.drop_conversions();
        conversions_.reset();
        timed("output", [&] {
            Output<Cell>(index_, store_, metrics_, options_, ranks_, share_).run(writer, stats_);
        });
        stats_.ranks = ranks_.size();
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

    // Every cell's first state: no position, decided (mate, stalemate, only conversions, or a
    // winning conversion's bound), or a counter of its in-table moves.
    void init() {
        store_.allocate();
        const int metrics = int(metrics_.size());
        parallel_blocks_of(mine_, options_.progress, material_.name() + ": init",
            [&](std::uint64_t, std::uint64_t begin, std::uint64_t end) {
                for (std::uint64_t i = begin; i < end; ++i) {
                    GenBoard b;
                    if (!index_.decode(i, b)) {
                        for (int k = 0; k < metrics; ++k)
                            for (Color c : { WHITE, BLACK }) store_.cell(k, c, i) = Store::kInvalid;
                        continue;
                    }
                    const Bitboard occ = moves_.occupancy(b);
                    const Bitboard att[COLOR_NB]
                        = { moves_.attacks_of(b, WHITE, occ), moves_.attacks_of(b, BLACK, occ) };
                    const bool symmetric = index_.residue(i) && index_.symmetric(b);
                    for (Color c : { WHITE, BLACK }) {
                        if (att[c] & square_bb(b.king[~c])) { // the mover left check
                            for (int k = 0; k < metrics; ++k)
                                store_.cell(k, c, i) = Store::kInvalid;
                            continue;
                        }
                        const MoveSummary s = moves_.summarize(b, c, occ, att[~c], symmetric);
                        for (int k = 0; k < metrics; ++k)
                            store_.cell(k, c, i) = first_cell(s, k, c, i);
                    }
                }
            });
        store_.gather_far();
        store_.agree(ranks_);
    }
    Cell first_cell(const MoveSummary& s, int k, Color c, std::uint64_t i) {
        const Value best = s.best[std::size_t(k)];
        Value v = best; // decided now (or bounded: a win)
        if (s.inTable + s.conversions == 0)
            v = s.inCheck ? mated_value(material_, metrics_[std::size_t(k)], options_.rules, c)
                          : Value::draw();
        else if (s.inTable == 0)
            ; // only conversions: the best of them
        else if (s.conversions && best.is_win())
            ; // a bound the iteration may still lower
        else // counting: a drawing conversion's + 1 never reaches 0
            return Cell(s.inTable + (s.conversions && best.is_draw()));
        return v.is_draw() ? Store::kDraw : store_.decided(k, c, i, v.plies);
    }

    void iterate() {
        std::optional<CounterCheck<Cell>> check;
        if (options_.check_counters)
            check.emplace(index_, store_, moves_, material_.name(), options_.progress);
        auto traffic = LevelLoop<Cell>(index_, store_, moves_, check ? &*check : nullptr,
            material_.name(), options_.progress, ranks_, share_)
                           .run();
        stats_.levels = traffic.levels;
        stats_.listed = traffic.listed;
        stats_.listed_most = traffic.mostListed;
        if (ranks_.size() > 1) stats_.exchanged = std::move(traffic.exchanged);
    }

    const Material& material_;
    const GenOptions& options_;
    GenIndex index_;
    OneRank oneRank_;
    Ranks& ranks_;
    PairShare share_;
    // This rank's runs of generation slots: the only cells it writes or reads (the pages of the
    // others' are never touched, hence never resident).
    std::vector<std::pair<std::uint64_t, std::uint64_t>> mine_;
    std::vector<Metric> metrics_;
    Spill<Cell> spill_;
    Store store_;
    std::unique_ptr<Conversions> conversions_;
    GenMoves moves_;
    TableStats stats_;
};

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

MemoryEstimate estimate_memory(const Material& m, int ranks) {
    MemoryEstimate e;
    const GenIndex gi(m);
    // The largest share of slots a rank owns (PairShare deals whole blocks of pairs: the
    // shares differ by up to a block).
    std::uint64_t slots = 0;
    for (int r = 0; r < ranks; ++r) {
        slots = std::max(
            slots, std::uint64_t(share_of(gi, r, ranks).pairs_owned()) << gi.field_bits());
    }
    slots = std::min(slots, gi.size());
    e.cells = slots * stored_metrics(m).size() * COLOR_NB;
    e.generation = std::uint64_t(double(e.cells) * kGenerationBytesPerCell) + kFixedBytes;
    // The children's parts the conversions read, a byte per storage slot each (Table::
    // make_resident: 16-bit cells are held in 8 bits, the rare longer ones in a list beside).
    std::set<std::tuple<std::string, Metric, Color>> parts;
    for_each_conversion_kind(gi, [&](int jc, int jp) {
        const ChildRead r = child_read(gi, jc, jp);
        if (r.bareKings) return;
        for (const Metric metric : stored_metrics(m))
            if (parts.insert({ r.child.name(), metric_read(metric, count_phase(r.child)), r.stm })
                    .second)
                e.children += Index(r.child).size();
    });
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
    TableWriter writer(m, encode(options.rules), table_path(tables.dir(), m), metrics,
        !options.ranks || options.ranks->rank() == 0);
    TableStats stats = run_generation(m, tables, writer, options);
    writer.commit();
    if (options.progress) options.progress->finish();
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::error_code ec;
    stats.file_bytes = std::filesystem::file_size(table_path(tables.dir(), m), ec);
    return stats;
}

} // namespace mktb

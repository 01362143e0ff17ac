// output.cpp - the output phase (output.hpp), for 8- and 16-bit cells.
#include "output.hpp"

#include <algorithm>

namespace mktb {

// The index scheme whose cells compress smaller (docs/format.md), by trial on every step-th
// block of every metric and side, cells of no position repeating the cell before as the writer
// fills them; a tie keeps Index::kScheme, the generation index's field order. Each rank tries
// the blocks among its own slots: the sizes are summed over the ranks.
template<class Cell>
int Output<Cell>::choose_scheme() const {
    bool blackMen = false; // without them both schemes are one order
    for (PieceType pt : kNameOrder) blackMen |= material_.count[BLACK][pt] > 0;
    if (!blackMen) return Index::kScheme;
    constexpr std::uint64_t kSampleBlocks = 16; // per metric and side
    const std::uint64_t size = storage_.size();
    const std::uint64_t blocks = (size + kBlockCells - 1) / kBlockCells;
    const std::uint64_t step = std::max<std::uint64_t>(1, blocks / kSampleBlocks);
    std::size_t best = 0;
    int chosen = Index::kScheme;
    const int width = sizeof(Cell) > 1 || store_.max_level() + 1 > 0xFE ? 2 : 1; // stored cells'
    for (const int scheme : { Index::kScheme, Index::kSchemeNameOrder }) {
        const Index ix(material_, scheme);
        const std::size_t bytes = tbb::parallel_reduce(
            tbb::blocked_range<std::uint64_t>(0, (blocks + step - 1) / step, 1), std::size_t(0),
            [&](const tbb::blocked_range<std::uint64_t>& r, std::size_t sum) {
                std::vector<std::uint8_t> block;
                SpillCursor cursor;
                for (std::uint64_t n = r.begin(); n != r.end(); ++n)
                    for (int k = 0; k < store_.metrics(); ++k)
                        for (Color c : { WHITE, BLACK }) {
                            const std::uint64_t first = n * step * kBlockCells;
                            if (!share_.owns(int(first / perPair_))) continue; // another rank's
                            block.clear();
                            unsigned v = 0; // the stored cell
                            for (std::uint64_t i = first; i < std::min(size, first + kBlockCells);
                                 ++i) {
                                Position pos;
                                if (ix.decode(i, pos)) {
                                    const std::uint64_t g = genIndex_.encode(board_of(pos));
                                    const Cell x = store_.cell(k, c, g);
                                    if (x != Store::kInvalid)
                                        v = store_.final_value(k, c, g, x, cursor).cell();
                                }
                                for (int byte = 0; byte < width; ++byte)
                                    block.push_back(std::uint8_t(v >> (8 * byte)));
                            }
                            sum += TableWriter::compressed_size(block);
                        }
                return sum;
            },
            std::plus<>());
        const std::size_t all = ranks_.reduce(bytes, Ranks::Op::Sum);
        if (scheme == Index::kScheme || all < best) best = all, chosen = scheme;
    }
    return chosen;
}

template<class Cell>
GenBoard Output<Cell>::board_of(const Position& pos) const {
    GenBoard b;
    b.king = { pos.king_square(WHITE), pos.king_square(BLACK) };
    int j = 0;
    for (Color c : { WHITE, BLACK })
        for (PieceType pt : kNameOrder)
            for (Bitboard m = pos.pieces(c, pt); m;) b.man[std::size_t(j++)] = pop_lsb(m);
    return b;
}

// One more than the longest distance metric k holds, or a bound on it that shows its cells fit
// in 8 bits: only that is asked. Every value written was a level noted, so that bound usually
// does; else the largest code in the window, or the longest retired. The codes are rotated so
// that the four special ones (far, retired, no position) come lowest: a plain unsigned
// maximum, which the compiler vectorizes; each rank's over its own cells, then the ranks'.
template<class Cell>
int Output<Cell>::longest_stored(int k) const {
    const int bound = std::max(store_.max_level(), store_.retired_top(k)) + 1;
    if (bound < 0xFF) return bound;
    constexpr Cell kRotate = Cell(Store::kInvalid - Store::kFarLoss + 1);
    Cell top = 0;
    for (Color c : { WHITE, BLACK }) {
        const Cell* x = store_.array(k, c).data();
        for (const auto& [first, last] : genRuns_)
            top = std::max(top,
                tbb::parallel_reduce(
                    tbb::blocked_range<std::size_t>(first, last, kBlock), Cell(0),
                    [&](const tbb::blocked_range<std::size_t>& r, Cell m) {
                        for (std::size_t i = r.begin(); i != r.end(); ++i)
                            m = std::max(m, Cell(x[i] + kRotate));
                        return m;
                    },
                    [](Cell a, Cell b) { return std::max(a, b); }));
    }
    top = top >= kRotate ? Cell(top - kRotate) : Cell(0);
    const int mine = std::max(top >= store_.base() ? store_.plies(top) : -1, store_.retired_top(k));
    return int(ranks_.reduce(std::uint64_t(mine + 1), Ranks::Op::Max));
}

// In place, the generation cells become the stored ones (no second array, no encoding) unless
// 8-bit cells hold distances longer than 8-bit stored cells do: then whole 16-bit arrays beside
// them would double the memory, so the writer reads through; so it does for single men in the
// other scheme.
template<class Cell>
typename Output<Cell>::Plan Output<Cell>::plan(int k) const {
    const int longest = longest_stored(k);
    Plan p;
    p.cellBytes = longest <= 0xFF ? 1 : 2;
    const bool through = permuted_ || (inPlace_ && sizeof(Cell) == 1 && longest >= 0xFF);
    p.source = through ? Plan::Source::ReadThrough
        : inPlace_     ? Plan::Source::InPlace
                       : Plan::Source::Scatter;
    p.wideArrays = inPlace_ ? sizeof(Cell) > 1 || through : longest >= 0xFF;
    p.byCode = sizeof(Cell) == 1 && p.source != Plan::Source::Scatter;
    return p;
}

// The generation slot of storage slot s; kNone: no position. Off the residue, the other scheme
// swaps White's and Black's fields; on it the two schemes may name a board by different
// reflections: the board is encoded again.
template<class Cell>
inline std::uint64_t Output<Cell>::gen_slot(std::uint64_t s) const {
    if (inPlace_) return s;
    if (!genIndex_.residue(s)) {
        const std::uint64_t low = s & fieldsMask_;
        return (s & ~fieldsMask_) | (low & ((std::uint64_t(1) << blackBits_) - 1)) << whiteBits_
            | low >> blackBits_;
    }
    Position pos;
    return storage_.decode(s, pos) ? genIndex_.encode(board_of(pos)) : kNone;
}

// Generation slots begin .. end - 1 of metric k: their values stored as the plan says, and
// counted. 8-bit cells off the residue (byCode) need no board, and their orbit is the
// ending's: they are counted by code, the figures taken once per block.
template<class Cell>
void Output<Cell>::store_block(int k, const Plan& plan, Arrays& arrays, std::uint64_t begin,
    std::uint64_t end, tbb::enumerable_thread_specific<SpillCursor>& cursors) {
    using Source = typename Plan::Source;
    StatsTally::Local& l = tally_->local();
    SpillCursor& cursor = cursors.local();
    std::array<std::array<std::uint64_t, kCodes>, COLOR_NB> codes {};
    Cells<Cell>* cells[COLOR_NB] = { &store_.array(k, WHITE), &store_.array(k, BLACK) };
    for (std::uint64_t i = begin; i < end; ++i) {
        if ((*cells[WHITE])[i] == Store::kInvalid && (*cells[BLACK])[i] == Store::kInvalid)
            continue;
        const bool residue = genIndex_.residue(i);
        GenBoard b;
        bool decoded = false;
        auto name = [&] { // the slot in the first scheme, for the longest mate
            if (!decoded) genIndex_.decode_valid(i, b), decoded = true;
            return names_.encode(b.king[WHITE], b.king[BLACK], b.man.data());
        };
        if constexpr (sizeof(Cell) == 1)
            if (plan.byCode && !residue && !slow_[(*cells[WHITE])[i]]
                && !slow_[(*cells[BLACK])[i]]) {
                for (Color c : { WHITE, BLACK }) {
                    const Cell x = (*cells[c])[i];
                    if (x == Store::kInvalid) continue;
                    ++codes[c][x];
                    if (plan.source == Source::InPlace) (*cells[c])[i] = Cell(storedOf_[x]);
                    tally_->longest(l, k, c, pliesOf_[x], name);
                }
                continue;
            }
        // A cell holds a value: the slot is a position; its board is needed to encode it, or
        // to tell a board equal to its reflection.
        const bool scatter = plan.source == Source::Scatter;
        if (scatter || residue) genIndex_.decode_valid(i, b), decoded = true;
        const std::uint64_t slot
            = scatter ? storage_.encode(b.king[WHITE], b.king[BLACK], b.man.data()) : i;
        const std::uint64_t orbit
            = plainOrbit_ == 8 && residue && genIndex_.symmetric(b) ? 4 : plainOrbit_;
        for (Color c : { WHITE, BLACK }) {
            const Cell x = (*cells[c])[i];
            if (x == Store::kInvalid) continue;
            const Value v = store_.final_value(k, c, i, x, cursor);
            if (plan.source == Source::InPlace)
                (*cells[c])[i] = Cell(v.cell());
            else if (scatter) {
                if (plan.wideArrays)
                    arrays.wide[c][slot] = std::uint16_t(v.cell());
                else
                    arrays.narrow[c][slot] = std::uint8_t(v.cell());
                if (k == 0)
                    std::atomic_ref(arrays.written[c][slot >> 6])
                        .fetch_or(std::uint64_t(1) << (slot & 63), std::memory_order_relaxed);
            }
            tally_->count(l, k, c, v, orbit);
            if (!v.is_draw()) tally_->longest(l, k, c, v.plies, name);
        }
    }
    if (!plan.byCode) return;
    for (Color c : { WHITE, BLACK })
        for (int x = 0; x < kCodes; ++x)
            if (codes[c][std::size_t(x)])
                tally_->count(l, k, c,
                    pliesOf_[std::size_t(x)] < 0 ? Value::draw()
                                                 : Value::mate_in_plies(pliesOf_[std::size_t(x)]),
                    codes[c][std::size_t(x)] * plainOrbit_);
}

// The slots no position reached are "don't care" (the same for every metric: found once, from
// metric k = 0): the writer fills them. One word of 64 slots per task: one writer per word.
template<class Cell>
void Output<Cell>::find_dont_care(
    int k, const Plan& plan, Arrays& arrays, TableWriter::DontCare& dontCare) {
    const std::uint64_t size = storage_.size();
    if (plan.source == Plan::Source::Scatter) {
        for (Color c : { WHITE, BLACK }) {
            dontCare[c] = std::move(arrays.written[c]);
            for (std::uint64_t& w : dontCare[c]) w = ~w;
            if (size % 64) dontCare[c].back() &= (std::uint64_t(1) << (size % 64)) - 1;
        }
        return;
    }
    for (Color c : { WHITE, BLACK }) {
        dontCare[c].assign((size + 63) / 64, 0);
        const Cells<Cell>& cells = store_.array(k, c);
        for (const auto& [firstSlot, lastSlot] : runs_)
            tbb::parallel_for(
                std::size_t(firstSlot / 64), std::size_t((lastSlot + 63) / 64), [&](std::size_t w) {
                    // One loop per case, so that the stored cells' compares vectorize.
                    const std::uint64_t first = w * 64,
                                        n = std::min<std::uint64_t>(64, size - first);
                    std::uint64_t bits = 0;
                    if (plan.source == Plan::Source::ReadThrough)
                        for (std::uint64_t t = 0; t < n; ++t) {
                            const std::uint64_t g = gen_slot(first + t);
                            bits |= std::uint64_t(g == kNone || cells[g] == Store::kInvalid) << t;
                        }
                    else if (plan.wideArrays)
                        for (std::uint64_t t = 0; t < n; ++t)
                            bits |= std::uint64_t(arrays.wide[c][first + t] == 0xFFFF) << t;
                    else
                        for (std::uint64_t t = 0; t < n; ++t)
                            bits |= std::uint64_t(arrays.narrow[c][first + t] == 0xFF) << t;
                    dontCare[c][w] = bits;
                });
    }
}

// ReadThrough: the writer asks for the stored cells block by block (no Bia: no DTM to code
// against).
template<class Cell>
void Output<Cell>::write_through(int k, const Plan& plan, TableWriter& writer,
    const TableWriter::DontCare& dontCare, tbb::enumerable_thread_specific<SpillCursor>& cursors) {
    const Cells<Cell>* cells[COLOR_NB] = { &store_.array(k, WHITE), &store_.array(k, BLACK) };
    const int bytes = plan.cellBytes;
    writer.add(
        metrics_[std::size_t(k)], bytes,
        [&](Color c, std::uint64_t first, std::size_t n, std::uint8_t* out) -> const std::uint8_t* {
            SpillCursor& cursor = cursors.local();
            for (std::size_t t = 0; t < n; ++t) {
                const std::uint64_t g = gen_slot(first + t);
                const Cell x = g == kNone ? Store::kInvalid : (*cells[c])[g];
                unsigned v;
                if constexpr (sizeof(Cell) == 1)
                    v = x == Store::kInvalid ? 0xFFFF
                        : slow_[x]           ? store_.final_value(k, c, g, x, cursor).cell()
                                             : storedOf_[x];
                else
                    v = x == Store::kInvalid ? 0xFFFF
                                             : store_.final_value(k, c, g, x, cursor).cell();
                out[t * std::size_t(bytes)] = std::uint8_t(v);
                if (bytes == 2) out[2 * t + 1] = std::uint8_t(v >> 8);
            }
            return out;
        },
        dontCare);
}

template<class Cell>
void Output<Cell>::run(TableWriter& writer, TableStats& stats) {
    using Source = typename Plan::Source;
    tally_.emplace(material_, metrics_, options_.rules, store_.max_level());
    const int scheme = choose_scheme();
    storage_ = Index(material_, scheme);
    writer.set_index_scheme(scheme);
    inPlace_ = genIndex_.storage_order() && scheme == Index::kScheme;
    permuted_ = genIndex_.storage_order() && !inPlace_;
    for (PieceType pt : kNameOrder)
        whiteBits_ += 6 * material_.count[WHITE][pt], blackBits_ += 6 * material_.count[BLACK][pt];
    fieldsMask_ = (std::uint64_t(1) << (whiteBits_ + blackBits_)) - 1;
    plainOrbit_ = material_.symmetry() == Symmetry::MirrorOnly ? 2 : 8;
    const std::uint64_t size = storage_.size();
    writer.set_share([&](std::uint64_t slot) { return share_.owns(int(slot / perPair_)); }, ranks_);
    // DTM's cells, kept for the Bia-phase metric (the writer may code it against them).
    std::array<Cells<std::uint8_t>, COLOR_NB> dtmStored;
    std::span<const std::uint8_t> dtmSpans[COLOR_NB];
    int dtmBytes = 0;
    TableWriter::DontCare dontCare; // bit per slot and side: no position
    for (int k = 0; k < store_.metrics(); ++k) {
        const Plan p = plan(k);
        Arrays arrays;
        if (p.source == Source::Scatter)
            for (Color c : { WHITE, BLACK }) {
                if (p.wideArrays)
                    arrays.wide[c].resize(size);
                else
                    arrays.narrow[c].resize(size);
                if (k == 0) arrays.written[c].assign((size + 63) / 64, 0);
            }
        tbb::enumerable_thread_specific<SpillCursor> cursors;
        auto pass = [&](std::uint64_t, std::uint64_t begin, std::uint64_t end) {
            store_block(k, p, arrays, begin, end, cursors);
        };
        const std::string phaseName = material_.name() + ": output";
        if (p.source != Source::Scatter)
            parallel_blocks_of(genRuns_, options_.progress, phaseName, pass);
        else {
            // Storage order follows the generation's king pairs: the generation cells read are
            // given back a chunk at a time, so they and the stored arrays never peak together.
            Runs chunks;
            std::uint64_t slots = 0;
            constexpr std::uint64_t kChunk = std::uint64_t(1) << 24;
            for (const auto& [from, to] : genRuns_)
                for (std::uint64_t first = from; first < to; first += kChunk)
                    chunks.emplace_back(first, std::min(to, first + kChunk));
            for (const auto& [first, last] : chunks) slots += last - first;
            if (options_.progress) options_.progress->phase(phaseName, slots);
            for (const auto& [first, last] : chunks) {
                parallel_blocks_in(first, last, options_.progress, pass);
                for (Color c : { WHITE, BLACK })
                    release_pages(store_.array(k, c).data() + first, (last - first) * sizeof(Cell));
            }
        }
        if (p.source == Source::InPlace)
            for (Color c : { WHITE, BLACK }) {
                store_.array(k, c).resize(size); // without the padding to 64 slots
                if constexpr (sizeof(Cell) == 1)
                    arrays.narrow[c] = std::move(store_.array(k, c));
                else
                    arrays.wide[c] = std::move(store_.array(k, c));
            }
        if (options_.progress) options_.progress->phase(material_.name() + ": compress", 0);
        if (k == 0) find_dont_care(k, p, arrays, dontCare);
        stats.cell_bytes = std::max(stats.cell_bytes, p.cellBytes);
        if (p.source == Source::ReadThrough) {
            write_through(k, p, writer, dontCare, cursors);
            for (Color c : { WHITE, BLACK }) Cells<Cell>().swap(store_.array(k, c));
            continue;
        }
        // This metric's generation cells are not needed any more.
        for (Color c : { WHITE, BLACK }) Cells<Cell>().swap(store_.array(k, c));
        std::span<const std::uint8_t> spans[COLOR_NB];
        for (Color c : { WHITE, BLACK }) {
            if (p.wideArrays && p.cellBytes == 1) { // this rank's slots only
                arrays.narrow[c].resize(size);
                for (const auto& [first, last] : runs_)
                    std::copy(arrays.wide[c].begin() + std::ptrdiff_t(first),
                        arrays.wide[c].begin() + std::ptrdiff_t(last),
                        arrays.narrow[c].begin() + std::ptrdiff_t(first));
                Cells<std::uint16_t>().swap(arrays.wide[c]);
            }
            spans[c] = p.cellBytes == 1
                ? std::span<const std::uint8_t>(arrays.narrow[c])
                : std::span<const std::uint8_t>(
                    reinterpret_cast<const std::uint8_t*>(arrays.wide[c].data()),
                    arrays.wide[c].size() * 2);
        }
        const Metric metric = metrics_[std::size_t(k)];
        writer.add(metric, p.cellBytes, spans, dontCare, metric == Metric::Bia ? dtmSpans : nullptr,
            dtmBytes);
        // The Bia-phase metric may be coded against DTM's cells: they stay until then.
        if (metric == Metric::Dtm
            && std::find(metrics_.begin(), metrics_.end(), Metric::Bia) != metrics_.end()) {
            dtmBytes = p.cellBytes;
            for (Color c : { WHITE, BLACK }) {
                if (p.cellBytes == 1)
                    dtmStored[c] = std::move(arrays.narrow[c]);
                else { // this rank's slots only
                    dtmStored[c].resize(spans[c].size());
                    for (const auto& [first, last] : runs_)
                        std::copy(spans[c].begin() + std::ptrdiff_t(2 * first),
                            spans[c].begin() + std::ptrdiff_t(2 * last),
                            dtmStored[c].begin() + std::ptrdiff_t(2 * first));
                }
                dtmSpans[c] = dtmStored[c];
            }
        }
    }
    tally_->finish(stats, ranks_);
    stats.index_size = size;
}

template class Output<std::uint8_t>;
template class Output<std::uint16_t>;

} // namespace mktb

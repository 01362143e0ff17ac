// generator.cpp - retrograde analysis of one ending (see generator.hpp).
//
// Cells: one per slot and side to move, 0 = not (yet) decided, plies + 1 once decided (see
// mktb/value.hpp), kInvalid for slots that are no legal position. The iteration is level-
// synchronous over plies L = 1, 2, ...: the cells holding value L (decided at L - 1 plies) are
// scanned, and their in-table predecessors are
//   - won in L plies, when the scanned position is lost (L - 1 even): a monotone lowering of the
//     cell (it may hold a larger win found through a conversion);
//   - lost in L plies or more, when the scanned position is won: checked by a one-ply search
//     that needs every move to lead to a decided opponent win (conversions read from the
//     smaller tables); the loss distance is 1 + the longest of them.
// Every write either fills an undecided cell with the one value every thread would compute, or
// lowers a win, so the bytes written do not depend on the number of threads or their timing.
// The counted metrics run the same pipeline: only Children::probe, the value of a conversion,
// changes (a baring capture or the last Bia leaving the board is valued under the count it
// starts).
#include "generator.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <functional>
#include <limits>
#include <mutex>
#include <set>
#include <sstream>
#include <tbb/blocked_range.h>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>

#include "mktb/counting.hpp"
#include "mktb/movegen.hpp"
#include "mktb/unmove.hpp"

namespace mktb {

namespace {

constexpr std::uint64_t kBlock = 4096; // slots per unit of parallel work

// Runs fn(begin, end) over [0, n) cut in blocks of kBlock slots, in parallel, reporting
// progress; the one parallel loop every phase and the verifier use.
template<class Fn>
void parallel_blocks(std::uint64_t n, Progress* progress, const std::string& phase, Fn&& fn) {
    if (progress) progress->phase(phase, n);
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, (n + kBlock - 1) / kBlock),
        [&](const tbb::blocked_range<std::uint64_t>& r) {
            for (std::uint64_t b = r.begin(); b != r.end(); ++b) {
                const std::uint64_t end = std::min(n, (b + 1) * kBlock);
                fn(b * kBlock, end);
                if (progress) progress->advance(end - b * kBlock);
            }
        });
}

// A level beyond what the cell type holds: generate again with wider cells.
struct NeedWiderCells { };

// The smaller tables this ending converts into, looked up without locks, and the value of a
// conversion in the metric being generated.
class Children {
public:
    Children(const Material& m, const Tablebase& tables, Metric metric, const CountRules& rules)
        : metric_(metric)
        , rules_(rules) {
        for (const Material& c : m.children()) {
            const Table* t = tables.table(c);
            if (!t)
                throw TableError("the table of " + c.name() + " (which " + m.name()
                    + " converts into) is missing from " + tables.dir() + ": generate it first");
            t->make_resident(); // read many million times: plain arrays, no cache
            // The counted metrics read the smaller tables' own counted values.
            const Metric needed = c.has(BIA) ? Metric::Bia : Metric::Board;
            if (metric != Metric::Dtm && (c.has(BIA) || count_phase(c) == CountPhase::BoardHonour)
                && (!t->has(needed) || t->rules() != encode(rules)))
                throw TableError("the table of " + c.name() + " lacks the counted values "
                    + "for these counting options: generate it again");
            tables_.push_back({ c, t });
        }
    }
    // Value of a position reached by a conversion, for its side to move.
    Value probe(const Position& pos) const {
        const Material m = Material::of(pos);
        if (m.bare_kings()) return Value::draw();
        const Material canon = m.canonical();
        for (const auto& [mat, t] : tables_)
            if (mat == canon) {
                if (metric_ == Metric::Dtm) return t->probe(pos);
                if (metric_ == Metric::Bia) {
                    // Still a Bia: its own Bia-phase value. The last Bia gone: the count starts
                    // now (pieces' honour at N + 1, or board's honour at 0), valued as a distance.
                    if (count_phase(pos) == CountPhase::NoCount) return t->probe(Metric::Bia, pos);
                    const CountState fresh = fresh_count(pos, rules_);
                    if (count_phase(pos) == CountPhase::BoardHonour)
                        return as_value(
                            counted_board_honour(t->probe(Metric::Board, pos), fresh, rules_));
                    return as_value(counted_pieces_honour(pos, t->probe(pos), fresh, rules_));
                }
                // Board's honour: a capture that keeps men on both sides continues the count,
                // one that bares the defender succeeds when its fresh pieces' honour count
                // still wins (the defender, to move there, is then "mated" for this metric).
                // Under switch_to_pieces = if_shorter the board count keeps running after the
                // capture, so the mate itself must fit in it: the distance to it counts.
                if (count_phase(pos) == CountPhase::BoardHonour)
                    return t->probe(Metric::Board, pos);
                const CountedValue c
                    = counted_pieces_honour(pos, t->probe(pos), fresh_count(pos, rules_), rules_);
                if (rules_.has(RuleOption::SwitchIfShorter)
                    && !rules_.has(RuleOption::BoardHonourOff))
                    return as_value(c);
                return c.result == CountedValue::Result::Loss ? Value::mate_in_plies(0)
                                                              : Value::draw();
            }
        throw TableError("no table for " + canon.name());
    }

private:
    Metric metric_;
    CountRules rules_;
    std::vector<std::pair<Material, const Table*>> tables_;
};

// The value of a checkmated position: lost, except that under counter_mate = draw a mate by the
// counting (weaker) side during the board count is a draw.
Value mated_value(const Material& m, Metric metric, const CountRules& rules, Color mated) {
    const bool counterMates = metric == Metric::Board && rules.has(RuleOption::CounterMateDraws)
        && !rules.has(RuleOption::BoardHonourOff) && m.weaker_side() == ~mated;
    return counterMates ? Value::draw() : Value::mate_in_plies(0);
}

bool is_conversion(const Position& pos, Move m) { return is_promotion(m) || !pos.empty(to_sq(m)); }

template<class Cell>
struct Context {
    static constexpr Cell kInvalid = std::numeric_limits<Cell>::max();
    static constexpr unsigned kMaxValue = kInvalid - 1u; // largest plies + 1

    const Material& material;
    Metric metric;
    CountRules rules;
    Index index;
    const Children& children;
    Progress* progress;
    std::vector<Cell> cells[COLOR_NB];
    std::atomic<unsigned> maxPending { 0 }; // largest value written ahead of its level
    // Group of the index for each colour and kind (-1: kings), for incremental encoding.
    int groupOf[COLOR_NB][PIECE_TYPE_NB];
    // One bit per slot and side: loss-checked at the current level already. A position
    // whose several successors were won at the same level is checked once per level.
    std::vector<std::uint64_t> checked[COLOR_NB];

    Context(const Material& m, Metric mt, const CountRules& r, const Children& c, Progress* p)
        : material(m)
        , metric(mt)
        , rules(r)
        , index(m)
        , children(c)
        , progress(p) {
        for (auto& v : cells) v.assign(index.size(), 0);
        for (auto& v : checked) v.assign((index.size() + 63) / 64, 0);
        for (Color c : { WHITE, BLACK })
            for (int pt = 0; pt < PIECE_TYPE_NB; ++pt)
                groupOf[c][pt] = index.group_of(c, PieceType(pt));
    }

    // A board the generator moves from: its slot and, when its frame is the identity, the
    // digit of every group, so that a non-king move changes one digit without re-encoding.
    struct Origin {
        std::uint64_t slot;
        bool incremental;
        std::array<std::uint64_t, 8> rank;
    };
    Origin origin(std::uint64_t slot, const Position& pos) const {
        Origin o { slot, index.groups() <= 8 && index.frame_is_identity(pos), {} };
        if (o.incremental)
            for (int g = 0; g < int(index.groups()); ++g)
                o.rank[std::size_t(g)] = index.group_rank(pos, g);
        return o;
    }
    // The slot of `after`, reached from `o` by moving one man of colour c and kind pt. King
    // moves may change the frame: re-encode.
    std::uint64_t slot_after(const Origin& o, const Position& after, Color c, PieceType pt) const {
        if (!o.incremental || pt == KHUN) return index.encode(after);
        const int g = groupOf[c][pt];
        return o.slot + (index.group_rank(after, g) - o.rank[std::size_t(g)]) * index.stride(g);
    }

    // Marks the slot checked; false when it already was at this level.
    bool first_check(Color c, std::uint64_t i) {
        const std::uint64_t bit = std::uint64_t(1) << (i & 63);
        return !(std::atomic_ref<std::uint64_t>(checked[c][i >> 6])
                     .fetch_or(bit, std::memory_order_relaxed)
            & bit);
    }

    // Runs fn(slot, pos-with-board) over every slot with a board and a valid side, in
    // parallel blocks.
    template<class Fn>
    void for_each_board(const std::string& phase, Fn&& fn) {
        for_each_board(
            phase,
            [&](std::uint64_t i, std::uint64_t end) {
                while (i < end && cells[WHITE][i] == kInvalid && cells[BLACK][i] == kInvalid) ++i;
                return i;
            },
            fn);
    }
    // Runs fn(slot, pos, c) over every legal position: each board with each side to move
    // whose opponent is not in check (pos has c to move during the call).
    template<class Fn>
    void for_each_position(const std::string& phase, Fn&& fn) {
        for_each_board(phase, [&](std::uint64_t i, Position& pos) {
            for (Color c : { WHITE, BLACK }) {
                if (cells[c][i] == kInvalid) continue;
                pos.set_side_to_move(c);
                fn(i, pos, c);
            }
        });
    }
    // The first slot of [i, end) holding `value` on either side, or end: the scan of the
    // iteration, the one loop that runs over every slot at every level.
    std::uint64_t find_value(std::uint64_t i, std::uint64_t end, Cell value) const {
        if constexpr (sizeof(Cell) == 1) {
            // Eight cells at a time: a byte equal to `value` makes (x ^ pattern) hold a zero
            // byte, which the classic has-zero-byte test detects.
            constexpr std::uint64_t ones = 0x0101010101010101ULL, highs = 0x8080808080808080ULL;
            const std::uint64_t pattern = ones * value;
            while (i < end && (i & 7)) {
                if (cells[WHITE][i] == value || cells[BLACK][i] == value) return i;
                ++i;
            }
            for (; i + 8 <= end; i += 8) {
                std::uint64_t w, b;
                std::memcpy(&w, &cells[WHITE][i], 8);
                std::memcpy(&b, &cells[BLACK][i], 8);
                w ^= pattern, b ^= pattern;
                if (((w - ones) & ~w & highs) || ((b - ones) & ~b & highs)) break;
            }
        }
        for (; i < end; ++i)
            if (cells[WHITE][i] == value || cells[BLACK][i] == value) return i;
        return end;
    }
    // The same over the slots that next(i, end) selects (the first wanted slot at or after
    // i, or end), tested before the board is decoded.
    template<class Next, class Fn>
    void for_each_board(const std::string& phase, Next&& wanted, Fn&& fn) {
        parallel_blocks(index.size(), progress,
            material.name()
                + (metric == Metric::Board      ? " board's honour: "
                        : metric == Metric::Bia ? " counted Bia phase: "
                                                : ": ")
                + phase,
            [&](std::uint64_t begin, std::uint64_t end) {
                for (std::uint64_t i = wanted(begin, end); i < end; i = wanted(i + 1, end)) {
                    Position pos;
                    if (index.decode(i, pos)) fn(i, pos);
                }
            });
    }

    void note_pending(unsigned value) {
        if (value > kMaxValue) throw NeedWiderCells {};
        unsigned cur = maxPending.load(std::memory_order_relaxed);
        while (cur < value && !maxPending.compare_exchange_weak(cur, value)) { }
    }

    // Monotone writes: fill an undecided cell, or lower a win to a faster win.
    static void fill(Cell& cell, unsigned value) {
        Cell expected = 0;
        std::atomic_ref<Cell>(cell).compare_exchange_strong(expected, Cell(value));
    }
    static void lower_win(Cell& cell, unsigned value) {
        std::atomic_ref<Cell> a(cell);
        Cell cur = a.load(std::memory_order_relaxed);
        // A cell holding a loss (odd value) is never lowered: it cannot hold one here.
        while ((cur == 0 || (cur > value && !(cur & 1)))
            && !a.compare_exchange_weak(cur, Cell(value))) { }
    }
};

// Phase "invalid": slots that are no board, and boards whose side not to move is in check.
template<class Cell>
void phase_invalid(Context<Cell>& ctx) {
    parallel_blocks(ctx.index.size(), ctx.progress, ctx.material.name() + ": invalid",
        [&](std::uint64_t begin, std::uint64_t end) {
            for (std::uint64_t i = begin; i < end; ++i) {
                Position pos;
                const bool board = ctx.index.decode(i, pos);
                for (Color c : { WHITE, BLACK })
                    if (!board || pos.attacked_by(c, pos.king_square(~c), pos.pieces()))
                        ctx.cells[c][i] = Context<Cell>::kInvalid;
            }
        });
}

// Phase "conversions": captures and promotions, valued by the smaller tables. A position
// whose every move converts is decided outright; one with a winning conversion gets that
// win as a bound the iteration may still lower.
template<class Cell>
void phase_conversions(Context<Cell>& ctx) {
    ctx.for_each_position("conversions", [&](std::uint64_t i, Position& pos, Color c) {
        bool inTable = false, anyConversion = false;
        Value best = Value::mate_in_plies(0); // worse than any real outcome
        for (Move m : legal_moves(pos)) {
            if (!is_conversion(pos, m)) {
                inTable = true;
                continue;
            }
            anyConversion = true;
            const auto u = pos.do_move(m);
            const Value v = ctx.children.probe(pos).parent();
            pos.undo_move(m, u);
            if (better(v, best)) best = v;
        }
        // Only conversions: decided (a draw stays 0). With moves in the table too: a win
        // through a conversion is a bound; anything else the iteration decides.
        if (anyConversion && (inTable ? best.is_win() : !best.is_draw())) {
            ctx.note_pending(best.cell());
            ctx.cells[c][i] = Cell(best.cell());
        }
    });
}

// Phase "mates": the side to move is checkmated (stalemate stays a draw).
template<class Cell>
void phase_mates(Context<Cell>& ctx) {
    ctx.for_each_position("mates", [&](std::uint64_t i, Position& pos, Color c) {
        if (is_checkmate(pos))
            ctx.cells[c][i] = Cell(mated_value(ctx.material, ctx.metric, ctx.rules, c).cell());
    });
}

// The one-ply loss check of the iteration at level L: every move must reach an opponent
// win decided at L - 1 plies or fewer. Returns the loss value, or 0 when not (yet) lost.
template<class Cell>
unsigned loss_value(Context<Cell>& ctx, Position& pos, std::uint64_t slot, unsigned level) {
    const Color us = pos.side_to_move();
    const auto from = ctx.origin(slot, pos);
    int longest = -1;
    for (Move m : legal_moves(pos)) {
        const bool conversion = is_conversion(pos, m);
        const PieceType moved = type_of(pos.piece_on(from_sq(m)));
        const auto u = pos.do_move(m);
        Value v;
        if (conversion) {
            v = ctx.children.probe(pos);
        } else {
            const unsigned cell = ctx.cells[~us][ctx.slot_after(from, pos, us, moved)];
            // Only wins decided at L - 1 plies or fewer count; later values are not final.
            v = cell <= level ? Value::from_cell(cell) : Value::draw();
        }
        pos.undo_move(m, u);
        if (!v.is_win()) return 0;
        longest = std::max(longest, v.plies);
    }
    return Value::mate_in_plies(longest + 1).cell();
}

// Phase "iterate": level by level until no level is left to scan.
template<class Cell>
void phase_iterate(Context<Cell>& ctx) {
    for (unsigned level = 1;; ++level) {
        if (level + 1 > Context<Cell>::kMaxValue) throw NeedWiderCells {};
        std::atomic<std::uint64_t> scanned { 0 };
        if (level % 2 == 0)
            for (auto& v : ctx.checked) std::fill(v.begin(), v.end(), 0);
        const bool scannedLost = (level - 1) % 2 == 0; // cells of value L hold L - 1 plies
        ctx.for_each_board(
            "iterate, mate distance " + std::to_string(level) + " plies",
            [&](std::uint64_t i, std::uint64_t end) { return ctx.find_value(i, end, Cell(level)); },
            [&](std::uint64_t i, Position& pos) {
                for (Color c : { WHITE, BLACK }) {
                    if (ctx.cells[c][i] != level) continue;
                    scanned.fetch_add(1, std::memory_order_relaxed);
                    pos.set_side_to_move(c);
                    const auto from = ctx.origin(i, pos);
                    // Illegal predecessors are not filtered here: their cells are invalid.
                    for_each_unmove<false>(
                        pos, kNoUncaptures, false, [&](Position& pred, UnMove u) {
                            const PieceType moved = type_of(pred.piece_on(u.from));
                            // Kings side by side have no slot at all.
                            if (moved == KHUN
                                && (attacks_bb(WHITE, KHUN, pred.king_square(WHITE))
                                    & pred.pieces(BLACK, KHUN)))
                                return;
                            const std::uint64_t q = ctx.slot_after(from, pred, ~c, moved);
                            Cell& cell = ctx.cells[~c][q];
                            if (cell == Context<Cell>::kInvalid) return;
                            if (scannedLost) {
                                Context<Cell>::lower_win(cell, level + 1);
                            } else if (cell == 0 && ctx.first_check(~c, q)) {
                                if (const unsigned v = loss_value(ctx, pred, q, level)) {
                                    ctx.note_pending(v);
                                    Context<Cell>::fill(cell, v);
                                }
                            }
                        });
                }
            });
        if (scanned == 0 && level >= ctx.maxPending.load()) break;
    }
}

// Phase "statistics": per side to move, weighted by the boards each slot stands for.
template<class Cell>
TableStats phase_statistics(Context<Cell>& ctx) {
    struct Local {
        std::array<SideStats, COLOR_NB> side;
        std::array<std::uint64_t, COLOR_NB> longestSlot { ~0ULL, ~0ULL };
    };
    tbb::combinable<Local> locals;
    // The counted view, from a fresh count: pieces' honour from DTM, board's honour from its
    // own metric (64 attacker moves with the defender to move, 65 with the attacker to move).
    const CountPhase phase = count_phase(ctx.material);
    const bool counted = ctx.metric != Metric::Dtm || phase == CountPhase::PiecesHonour;
    ctx.for_each_board("statistics", [&](std::uint64_t i, Position& pos) {
        Local& l = locals.local();
        const int orbit = ctx.index.orbit_size(pos);
        for (Color c : { WHITE, BLACK }) {
            if (ctx.cells[c][i] == Context<Cell>::kInvalid) continue;
            SideStats& s = l.side[c];
            const Value v = Value::from_cell(ctx.cells[c][i]);
            pos.set_side_to_move(c);
            if (counted && !v.is_draw()) {
                const CountedValue cv = ctx.metric == Metric::Bia ? counted_bia_phase(v)
                    : ctx.metric == Metric::Board
                    ? counted_board_honour(v, fresh_count(pos, ctx.rules), ctx.rules)
                    : counted_pieces_honour(pos, v, fresh_count(pos, ctx.rules), ctx.rules);
                if (cv.result != CountedValue::Result::Draw)
                    (v.is_win() ? s.counted_wins : s.counted_losses) += orbit;
            }
            s.legal += orbit;
            if (v.is_draw()) {
                s.draws += orbit;
                continue;
            }
            (v.is_win() ? s.wins : s.losses) += orbit;
            (v.is_win() ? s.win_moves : s.loss_moves)[std::abs(v.mate_in_moves())] += orbit;
            if (v.plies > s.longest_plies || (v.plies == s.longest_plies && i < l.longestSlot[c])) {
                s.longest_plies = v.plies;
                l.longestSlot[c] = i;
            }
        }
    });
    Local total;
    locals.combine_each([&](const Local& l) {
        for (Color c : { WHITE, BLACK }) {
            SideStats& t = total.side[c];
            const SideStats& s = l.side[c];
            t.legal += s.legal, t.wins += s.wins, t.draws += s.draws, t.losses += s.losses;
            t.counted_wins += s.counted_wins, t.counted_losses += s.counted_losses;
            for (auto [k, n] : s.win_moves) t.win_moves[k] += n;
            for (auto [k, n] : s.loss_moves) t.loss_moves[k] += n;
            if (s.longest_plies > t.longest_plies
                || (s.longest_plies == t.longest_plies
                    && l.longestSlot[c] < total.longestSlot[c])) {
                t.longest_plies = s.longest_plies;
                total.longestSlot[c] = l.longestSlot[c];
            }
        }
    });
    TableStats stats;
    stats.name = ctx.material.name();
    stats.index_size = ctx.index.size();
    stats.side = total.side;
    stats.counted = counted;
    for (Color c : { WHITE, BLACK })
        if (total.side[c].longest_plies >= 0) {
            Position pos;
            ctx.index.decode(total.longestSlot[c], pos);
            pos.set_side_to_move(c);
            stats.side[c].longest_fen = pos.fen();
        }
    return stats;
}

// Phase "compress": don't-care slots take the value before them (runs compress well), the
// narrowest cell that holds every value is chosen, and the file is written. The cells are
// rewritten in place: the table is not needed in memory after this.
template<class Cell>
void phase_compress(Context<Cell>& ctx, TableWriter& writer, TableStats& stats) {
    if (ctx.progress) ctx.progress->phase(ctx.material.name() + ": compress", 0);
    unsigned maxValue = 0;
    for (auto& side : ctx.cells) {
        Cell last = 0;
        for (Cell& v : side) {
            if (v == Context<Cell>::kInvalid)
                v = last;
            else
                last = v;
            maxValue = std::max<unsigned>(maxValue, v);
        }
    }
    const int cellBytes = maxValue <= 0xFF ? 1 : 2;
    std::vector<std::uint8_t> narrow[COLOR_NB];
    std::span<const std::uint8_t> spans[COLOR_NB];
    for (Color c : { WHITE, BLACK }) {
        if (sizeof(Cell) == std::size_t(cellBytes)) { // little-endian cells are the file's bytes
            spans[c] = { reinterpret_cast<const std::uint8_t*>(ctx.cells[c].data()),
                ctx.cells[c].size() * sizeof(Cell) };
        } else {
            narrow[c].assign(ctx.cells[c].begin(), ctx.cells[c].end());
            std::vector<Cell>().swap(ctx.cells[c]);
            spans[c] = narrow[c];
        }
    }
    writer.add(ctx.metric, cellBytes, spans);
    stats.cell_bytes = std::max(stats.cell_bytes, cellBytes);
}

template<class Cell>
TableStats run(const Material& m, Metric metric, const Children& children, TableWriter& writer,
    const GenOptions& options) {
    Context<Cell> ctx(m, metric, options.rules, children, options.progress);
    std::vector<std::pair<std::string, double>> times;
    const std::string prefix = metric == Metric::Board ? "board "
        : metric == Metric::Bia                        ? "bia "
                                                       : "";
    auto timed = [&](const char* name, auto&& phase) {
        const auto start = std::chrono::steady_clock::now();
        phase();
        times.emplace_back(prefix + name,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    };
    TableStats stats;
    timed("invalid", [&] { phase_invalid(ctx); });
    timed("conversions", [&] { phase_conversions(ctx); });
    timed("mates", [&] { phase_mates(ctx); });
    timed("iterate", [&] { phase_iterate(ctx); });
    timed("statistics", [&] { stats = phase_statistics(ctx); });
    timed("compress", [&] { phase_compress(ctx, writer, stats); });
    stats.phase_seconds = times;
    return stats;
}

// One metric, in 8-bit cells unless a distance needs 16.
TableStats run_metric(const Material& m, Metric metric, const Tablebase& tables,
    TableWriter& writer, const GenOptions& options) {
    const Children children(m, tables, metric, options.rules);
    if (!options.wide_cells) {
        try {
            return run<std::uint8_t>(m, metric, children, writer, options);
        } catch (const NeedWiderCells&) {
            // a distance longer than 8-bit cells hold: start again with 16 bits
        }
    }
    return run<std::uint16_t>(m, metric, children, writer, options);
}

std::string json_escape(const std::string& s) {
    std::string o;
    for (char ch : s) {
        if (ch == '"' || ch == '\\') o += '\\';
        o += ch;
    }
    return o;
}

} // namespace

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
    TableWriter writer(m, encode(options.rules));
    TableStats stats = run_metric(m, Metric::Dtm, tables, writer, options);
    if (count_phase(m) == CountPhase::BoardHonour || m.has(BIA)) {
        // Board's honour or Bia-phase values beside DTM: the counted view comes from them.
        const Metric counted = m.has(BIA) ? Metric::Bia : Metric::Board;
        const TableStats board = run_metric(m, counted, tables, writer, options);
        for (Color c : { WHITE, BLACK }) {
            stats.side[c].counted_wins = board.side[c].counted_wins;
            stats.side[c].counted_losses = board.side[c].counted_losses;
        }
        stats.counted = true;
        stats.cell_bytes = std::max(stats.cell_bytes, board.cell_bytes);
        stats.phase_seconds.insert(
            stats.phase_seconds.end(), board.phase_seconds.begin(), board.phase_seconds.end());
    }
    writer.write(table_path(tables.dir(), m));
    if (options.progress) options.progress->finish();
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::error_code ec;
    stats.file_bytes = std::filesystem::file_size(table_path(tables.dir(), m), ec);
    return stats;
}

std::uint64_t verify(
    const Material& m, const Tablebase& tables, std::string* report, Progress* progress) {
    const Table* table = tables.table(m);
    if (!table) throw TableError("no table of " + m.name() + " in " + tables.dir());
    table->make_resident();
    const Index& index = table->index();
    std::atomic<std::uint64_t> bad { 0 };
    std::mutex reportMutex;
    for (Metric metric : { Metric::Dtm, Metric::Board, Metric::Bia }) {
        if (!table->has(metric)) continue;
        const Children children(m, tables, metric, decode_rules(table->rules()));
        parallel_blocks(index.size(), progress,
            m.name()
                + (metric == Metric::Board      ? ": verify board's honour"
                        : metric == Metric::Bia ? ": verify counted Bia phase"
                                                : ": verify"),
            [&](std::uint64_t begin, std::uint64_t end) {
                for (std::uint64_t i = begin; i < end; ++i) {
                    Position pos;
                    if (!index.decode(i, pos)) continue;
                    for (Color c : { WHITE, BLACK }) {
                        pos.set_side_to_move(c);
                        if (pos.attacked_by(c, pos.king_square(~c), pos.pieces())) continue;
                        // The value a one-ply search gives: mated or stalemated without moves, else
                        // the best successor seen from this side.
                        const MoveList moves = legal_moves(pos);
                        Value expected = pos.in_check()
                            ? mated_value(m, metric, decode_rules(table->rules()), c)
                            : Value::draw();
                        for (int k = 0; k < moves.size; ++k) {
                            const Move mv = moves.moves[std::size_t(k)];
                            const bool conversion = is_conversion(pos, mv);
                            const auto u = pos.do_move(mv);
                            // In-table successors are in the table's own orientation.
                            const Value v = (conversion
                                    ? children.probe(pos)
                                    : table->value(metric, pos.side_to_move(), index.encode(pos)))
                                                .parent();
                            pos.undo_move(mv, u);
                            if (k == 0 || better(v, expected)) expected = v;
                        }
                        const Value stored = table->value(metric, c, i);
                        if (stored == expected) continue;
                        if (bad.fetch_add(1) < 5 && report) {
                            std::lock_guard lock(reportMutex);
                            *report += pos.fen()
                                + (metric == Metric::Board      ? " (board's honour)"
                                        : metric == Metric::Bia ? " (counted Bia phase)"
                                                                : "")
                                + ": stored " + describe(stored) + ", successors give "
                                + describe(expected) + "\n";
                        }
                    }
                }
            });
    }
    if (progress) progress->finish();
    return bad;
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

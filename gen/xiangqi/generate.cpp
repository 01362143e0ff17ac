// generate.cpp - one Xiangqi ending, retrograde, as a pipeline of named phases, on the cells of
// Makruk's generator (cell_store.hpp: one cell per slot and side, its counter folded into its
// code, the window of levels rolled over into the spill as mates grow long):
//   init     every slot decoded once: no position, illegal for a side to move, or its legal
//            moves counted (those staying in the ending, plus one where a capture draws: such a
//            position is never lost) and its captures valued from the smaller tables: a capture
//            that wins decides the cell at once (a bound a faster win replaces), a position
//            whose every move is a losing capture is lost;
//   levels   level n takes every cell decided at n plies: a loss at n makes each parent not yet
//            won faster (found by un-moves) a win at n + 1; a win at n takes one from each
//            parent's counter, and the parent whose counter reaches 0 is lost at the longer of
//            n + 1 and its best capture's loss (its captures valued again, only where init
//            found one: a bit per slot and side);
//   final    the cells as the table stores them (0 draw, plies + 1; the spill read back);
//   rule     where both sides are armed, the perpetual-check pass (perpetual.hpp);
//   output   through the shared writer.
// Invariant: a cell goes from a counter to a decision once, and a decision only to a faster win
// (a capture's bound, at a level below it), so the bytes do not depend on the thread count or
// the order.
//
// Counting under the mirror: a parent counts its moves, and a move and its mirror image may lead
// to one child class. Un-moves from the child's one board find each (parent board, move) that
// reaches that board: where the child is its own mirror and the parent is not, a parent's two
// boards both reach it (so only the un-move to the parent's canonical board counts); where the
// parent is its own mirror and the child is not, each un-move stands for a move and its mirror
// image (so it counts twice).
#include "generate.hpp"

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>
#include <set>
#include <tbb/combinable.h>
#include <tbb/enumerable_thread_specific.h>

#include "captures.hpp"
#include "cell_store.hpp"
#include "moves.hpp"
#include "parallel.hpp"
#include "perpetual.hpp"
#include "table_writer.hpp"

namespace mktb::xq {

namespace {

constexpr int kMaxPlies = 253; // the stored 8-bit cells: plies + 1 <= 254

using Cell = std::uint8_t;
using Store = CellStore<Cell>;

// An upper bound on a side's moves that stay in the table, + 1 for a drawing capture: from the
// rules table, a slider's two lines across the board or a leaper's steps.
int most_moves(const Material& m) {
    int most = 0;
    for (Color c : { RED, BLACK }) {
        int n = 1 + kRules[KING].nsteps;
        for (int pt = ADVISOR; pt < PIECE_TYPE_NB; ++pt)
            n += m.count[c][pt]
                * (kRules[pt].slides ? FILE_NB - 1 + RANK_NB - 1 : kRules[pt].nsteps);
        most = std::max(most, n);
    }
    return most;
}

struct Work {
    Work(const Material& material, const Tablebase& tables, int windowPlies)
        : m(material)
        , index(material)
        , children(tables)
        , n(index.size())
        , spill(tables.dir(), "the spill of " + material.name() + "'s levels (Xiangqi)")
        , store(1, n, Cell(most_moves(material) + 1), windowPlies, spill)
        , captures(index, tables) { }
    const Material& m;
    const Index index;
    const Tablebase& children;
    std::uint64_t n;
    Spill<Cell> spill;
    Store store;
    const Captures captures;
    // The cells of each side as the table stores them once the levels are done (none, 0 draw,
    // plies + 1): in 8 bits, the store's own memory coded anew (val); in 16 where a mate is
    // longer than 8 bits hold (wide, the store's cells let go side by side).
    Cell* val[COLOR_NB] = {};
    Cells<std::uint16_t> wide[COLOR_NB];
    // Per side, a bit per slot: the position has a capture (init's; each block of kBlock slots
    // whole words, one writer each). A counter reaching 0 without one is lost in n + 1 plies,
    // no move generated to value its captures again.
    Cells<std::uint64_t> capturing[COLOR_NB];
    bool has_capture(Color s, std::uint64_t slot) const {
        return capturing[s][slot / 64] >> (slot % 64) & 1;
    }
};

void init(Work& w, Progress* progress) {
    Store& st = w.store;
    for (Color s : { RED, BLACK }) w.capturing[s].resize((w.n + 63) / 64);
    parallel_blocks(
        w.n, progress, "init", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
            BoardFollower board(w.index);
            for (Color s : { RED, BLACK })
                std::fill(w.capturing[s].begin() + std::ptrdiff_t(first / 64),
                    w.capturing[s].begin() + std::ptrdiff_t((last + 63) / 64), 0);
            for (Index::Cursor at(w.index, first); at.slot() < last; at.next()) {
                const std::uint64_t slot = at.slot();
                for (Color s : { RED, BLACK }) st.cell(0, s, slot) = Store::kInvalid;
                if (!at.is_position()) continue;
                const Placement& pl = at.placement();
                board.follow(pl);
                Position& pos = board.position();
                if (pos.kings_facing()) continue;
                const bool inCheck[COLOR_NB] = { pos.in_check(RED), pos.in_check(BLACK) };
                for (Color s : { RED, BLACK }) {
                    if (inCheck[~s]) continue;
                    pos.set_side_to_move(s);
                    int quiet = 0, legal = 0;
                    int best = 0; // preference of the best capture
                    bool anyCapture = false;
                    for_each_legal(
                        w.index, pl, pos, s, inCheck[s], [&](int man, int to, int victim) {
                            ++legal;
                            if (victim < 0) {
                                ++quiet;
                                return;
                            }
                            const int p
                                = preference(w.captures.value(pl, man, to, victim, s).parent());
                            if (!anyCapture || p > best) best = p;
                            anyCapture = true;
                        });
                    Cell& x = st.cell(0, s, slot);
                    if (!legal) { // mated or stalemated: lost either way
                        x = st.decided(0, s, slot, 0);
                        continue;
                    }
                    if (anyCapture) w.capturing[s][slot / 64] |= std::uint64_t(1) << (slot % 64);
                    const Value capture = anyCapture ? from_preference(best) : Value::draw();
                    if (capture.is_win())
                        x = st.decided(0, s, slot, capture.plies);
                    else if (const int count = quiet + (anyCapture && capture.is_draw()))
                        x = Cell(count);
                    else // every move a capture, each losing
                        x = st.decided(0, s, slot, capture.plies);
                }
            }
        });
    st.gather_far();
}

// The loss of a parent whose counter reached 0 at level n: n + 1 plies, or its best capture's
// loss where that holds out longer (every capture it has loses: one that draws or wins would
// have kept it from being a counter that reaches 0).
int loss_plies(const Work& w, std::uint64_t slot, Color s, int n) {
    Placement pl;
    w.index.decode(slot, pl);
    const Position pos = w.index.position(pl, s);
    int plies = n + 1;
    for_each_legal<true>(w.index, pl, pos, s, pos.in_check(s), [&](int man, int to, int victim) {
        plies = std::max(plies, w.captures.value(pl, man, to, victim, s).parent().plies);
    });
    return plies;
}

// Decides the parents of the cells lost or won at `level` plies; returns whether any cell held
// that level.
bool level(Work& w, int level, Progress* progress) {
    Store& st = w.store;
    const Cell code = st.code(level);
    const bool losses = level % 2 == 0;
    std::atomic<bool> wroteWin { false }, found { false };
    if (progress) progress->phase("level " + std::to_string(level), 2 * w.n);
    for (Color s : { RED, BLACK }) {
        const Color mover = ~s; // the side that moved into the cells of this level
        Cell* parents = st.array(0, mover).data();
        const Cell* cells = st.array(0, s).data();
        parallel_blocks_in(
            0, w.n, progress, [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
                // Noted once per block: a shared flag written per cell would bounce its cache
                // line between the cores.
                bool foundHere = false, wroteWinHere = false;
                for (std::uint64_t run = first; run < last; run += Store::kMaskSlots) {
                    if (!st.marked(0, s, run, level)) continue;
                    const Cell* end = cells + std::min(last, run + Store::kMaskSlots);
                    // memchr: the library's vector search finds the level's few cells.
                    for (const Cell* at = cells + run; (at = static_cast<const Cell*>(std::memchr(
                                                            at, code, std::size_t(end - at))));
                         ++at) {
                        const std::uint64_t slot = std::uint64_t(at - cells);
                        foundHere = true;
                        Placement pl;
                        Points occupied;
                        w.index.decode(slot, pl, &occupied);
                        const Index::Mover from(w.index, slot, pl);
                        const bool selfMirror = from.symmetric();
                        for_each_unmove(w.index, from, pl, occupied, mover,
                            [&](std::uint64_t q, bool mirrored, bool parentMirror) {
                                std::atomic_ref<Cell> x(parents[q]);
                                Cell v = x.load(std::memory_order_relaxed);
                                if (losses) {
                                    // A counter, or a capture's win slower than this one.
                                    const Cell win = st.code(level + 1);
                                    while (st.is_counter(v)
                                        || (st.in_window(v) && v > win && (v - win) % 2 == 0)
                                        || v == Store::kFarWin)
                                        if (x.compare_exchange_weak(v, win)) {
                                            st.mark(0, mover, q, level + 1);
                                            wroteWinHere = true;
                                            return;
                                        }
                                    return;
                                }
                                if (!st.is_counter(v)) return;
                                if (selfMirror && mirrored && !parentMirror) return;
                                const Cell step = parentMirror && !selfMirror ? 2 : 1;
                                const Cell before = x.fetch_sub(step);
                                if (before < step || !st.is_counter(before))
                                    throw std::logic_error(
                                        "xiangqi generator: a count went below 0");
                                if (before != step) return;
                                const int plies = w.has_capture(mover, q)
                                    ? loss_plies(w, q, mover, level)
                                    : level + 1;
                                x.store(st.decided(0, mover, q, plies), std::memory_order_relaxed);
                            });
                    }
                }
                if (foundHere) found.store(true, std::memory_order_relaxed);
                if (wroteWinHere) wroteWin.store(true, std::memory_order_relaxed);
            });
    }
    if (wroteWin) st.note_level(level + 1);
    st.gather_far();
    return found;
}

// The longest distance the levels decided (the spill's and the window's): what the stored
// cells must hold.
int longest(Work& w) {
    Store& st = w.store;
    tbb::combinable<int> most([&] { return st.retired_top(0); });
    for (Color s : { RED, BLACK }) {
        const Cell* x = st.array(0, s).data();
        parallel_blocks(
            w.n, nullptr, "", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
                int& m = most.local();
                for (std::uint64_t slot = first; slot < last; ++slot)
                    if (st.in_window(x[slot])) m = std::max(m, st.plies(x[slot]));
            });
    }
    return most.combine([](int a, int b) { return std::max(a, b); });
}

// The cells of side s recoded as the table stores them (none, 0 draw, plies + 1): in place in
// 8 bits, or into w.wide[s] in 16, the store's cells of s then let go.
void finish(Work& w, Color s, bool wide) {
    Store& st = w.store;
    Cells<Cell>& cells = st.array(0, s);
    Cell* x = cells.data();
    if (wide) w.wide[s].resize(cells.size());
    std::uint16_t* y = w.wide[s].data();
    tbb::enumerable_thread_specific<Store::SpillCursor> cursors;
    parallel_blocks(w.n, nullptr, "", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
        Store::SpillCursor& cursor = cursors.local();
        for (std::uint64_t slot = first; slot < last; ++slot) {
            const Cell c = x[slot];
            const Value v
                = c == Store::kInvalid ? Value::draw() : st.final_value(0, s, slot, c, cursor);
            const unsigned stored = c == Store::kInvalid ? ~0u : v.is_draw() ? 0 : v.plies + 1;
            if (wide)
                y[slot] = std::uint16_t(stored);
            else
                x[slot] = Cell(stored);
        }
    });
    if (wide)
        Cells<Cell>().swap(cells);
    else
        w.val[s] = x;
}

// The statistics of side s from its stored cells (T: 8 or 16 bits; all ones: no position).
template<class T>
SideStats side_stats(const Work& w, Color s, const T* cells) {
    struct Part {
        std::uint64_t legal = 0, wins = 0, draws = 0, losses = 0;
        int longest = -1;
        std::uint64_t slot = 0;
        std::vector<std::uint64_t> win, loss; // by moves to mate
    };
    // Per block, then merged in block order: the longest mate's slot is the first of the
    // longest, whatever the thread count.
    std::vector<Part> parts((w.n + kBlock - 1) / kBlock);
    parallel_blocks(
        w.n, nullptr, "", [&](std::uint64_t b, std::uint64_t first, std::uint64_t last) {
            Part& p = parts[b];
            auto count = [](std::vector<std::uint64_t>& h, std::size_t moves) {
                if (h.size() <= moves) h.resize(moves + 1);
                ++h[moves];
            };
            for (std::uint64_t slot = first; slot < last; ++slot) {
                const T v = cells[slot];
                if (v == T(~T(0))) continue;
                ++p.legal;
                if (v == 0) {
                    ++p.draws;
                } else if (const int plies = v - 1; plies % 2) {
                    ++p.wins;
                    count(p.win, std::size_t(plies + 1) / 2);
                    if (plies > p.longest) p.longest = plies, p.slot = slot;
                } else {
                    ++p.losses;
                    count(p.loss, std::size_t(plies) / 2);
                }
            }
        });
    SideStats st;
    std::uint64_t longestSlot = 0;
    for (const Part& p : parts) {
        st.legal += p.legal, st.wins += p.wins, st.draws += p.draws, st.losses += p.losses;
        if (p.longest > st.longest_plies) st.longest_plies = p.longest, longestSlot = p.slot;
        for (std::size_t k = 0; k < p.win.size(); ++k)
            if (p.win[k]) st.win_moves[int(k)] += p.win[k];
        for (std::size_t k = 0; k < p.loss.size(); ++k)
            if (p.loss[k]) st.loss_moves[int(k)] += p.loss[k];
    }
    if (st.longest_plies >= 0) {
        Placement pl;
        w.index.decode(longestSlot, pl);
        st.longest_fen = w.index.position(pl, s).fen();
    }
    return st;
}

} // namespace

std::uint64_t memory_needed(const Material& m) {
    // A cell per side; where both sides are armed, the rule's cell per side beside it; a bit per
    // slot and side (which positions have a capture, then the output's don't-care masks); the
    // level masks (4 words per side and 1,024 slots); the children's block cache and the rest.
    const bool rule = !m.armless(RED) && !m.armless(BLACK);
    const std::uint64_t n = Index(m).size();
    std::uint64_t bytes = (rule ? 4 : 2) * n + n / 4 + n / 16 + (std::uint64_t(128) << 20);
    // Each child's side to move after a capture (Captures loads no other), a byte per slot; one
    // with both sides armed is read with its rule's cells.
    std::set<std::pair<std::string, Color>> parts;
    for (Color c : { RED, BLACK })
        for (int pt = ADVISOR; pt < PIECE_TYPE_NB; ++pt) {
            if (!m.count[c][pt]) continue;
            Material child = m;
            --child.count[c][pt];
            const Color after = child.is_canonical() ? c : ~c;
            child = child.canonical();
            if (parts.insert({ child.name(), after }).second)
                bytes += (child.armless(RED) || child.armless(BLACK) ? 1 : 2) * Index(child).size();
        }
    // An upper bound: KCPABvKAABB peaked 3 % above the sum (the writer's buffers, the heap).
    return bytes + bytes / 20;
}

TableStats generate(const Material& m, const Tablebase& children, Progress* progress, int zstdLevel,
    int windowPlies, bool wideCells) {
    const auto start = std::chrono::steady_clock::now();
    Work w(m, children, windowPlies);
    w.store.allocate();
    auto since = [](auto t) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    };
    auto t = std::chrono::steady_clock::now();
    init(w, progress);
    TableStats stats;
    stats.game = "xiangqi";
    stats.phase_seconds.emplace_back("init", since(t));
    t = std::chrono::steady_clock::now();
    stats.name = m.name();
    stats.index_size = w.n;
    int lastLevel = -1; // the last level that held a cell
    for (int n = 0; n <= w.store.max_level(); ++n) {
        if (n + 1 > w.store.top()) w.store.rollover(n & ~1);
        if (level(w, n, progress)) lastLevel = n;
    }
    stats.levels = lastLevel + 1;
    for (Color s : { RED, BLACK }) Cells<std::uint64_t>().swap(w.capturing[s]);
    stats.phase_seconds.emplace_back("iterate", since(t));
    t = std::chrono::steady_clock::now();
    // No position's count may stay above 0 unless it is drawn: checked by verify, not here.
    // Both sides armed: the rule's results, in cells of their own (its pass reads 8-bit cells).
    const bool rulePass = !m.armless(RED) && !m.armless(BLACK);
    const int most = longest(w);
    const bool wide = wideCells || most > kMaxPlies;
    if (wide && rulePass)
        throw TableError(m.name() + " (Xiangqi): a mate of " + std::to_string(most)
            + " plies, longer than the perpetual-check pass's 8-bit cells hold ("
            + std::to_string(kMaxPlies) + ")");
    for (Color s : { RED, BLACK }) finish(w, s, wide);
    HugeArray<std::uint8_t> rule[COLOR_NB];
    if (rulePass) {
        for (Color s : { RED, BLACK }) rule[s] = make_huge_array<std::uint8_t>(w.n);
        const std::uint8_t* const plain[COLOR_NB] = { w.val[RED], w.val[BLACK] };
        std::uint8_t* const cells[COLOR_NB] = { rule[RED].get(), rule[BLACK].get() };
        const RuleCounts rc = perpetual_check(w.index, w.captures, plain, cells, progress);
        for (Color s : { RED, BLACK })
            stats.side[s].rule_wins = rc.won[s], stats.side[s].rule_losses = rc.lost[s];
        stats.rule_rounds = rc.rounds;
        stats.phase_seconds.emplace_back("perpetual_check", since(t));
    }
    t = std::chrono::steady_clock::now();

    TableWriter::DontCare dontCare;
    for (Color s : { RED, BLACK }) {
        dontCare[s].assign((w.n + 63) / 64, 0);
        // Blocks of kBlock slots are whole words of the mask: one writer per word.
        parallel_blocks(
            w.n, nullptr, "", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
                for (std::uint64_t slot = first; slot < last; ++slot)
                    if (wide ? w.wide[s][slot] == 0xFFFF : w.val[s][slot] == kNone)
                        dontCare[s][slot / 64] |= std::uint64_t(1) << (slot % 64);
            });
        const std::uint64_t ruleWins = stats.side[s].rule_wins,
                            ruleLosses = stats.side[s].rule_losses;
        stats.side[s] = wide ? side_stats(w, s, w.wide[s].data()) : side_stats(w, s, w.val[s]);
        stats.side[s].rule_wins = ruleWins, stats.side[s].rule_losses = ruleLosses;
    }
    if (progress) progress->phase("output", 0);
    TableWriter writer(table_key(m), rulePass ? kRulePerpetualCheck : kRulePlainArmless,
        table_path(children.dir(), m), rulePass ? 2 : 1);
    writer.set_level(zstdLevel);
    auto bytes = [&](Color s) {
        return wide ? std::span(reinterpret_cast<const std::uint8_t*>(w.wide[s].data()), 2 * w.n)
                    : std::span<const std::uint8_t>(w.val[s], w.n);
    };
    const std::span<const std::uint8_t> cells[COLOR_NB] = { bytes(RED), bytes(BLACK) };
    writer.add(Metric::Dtm, wide ? 2 : 1, cells, dontCare);
    if (rulePass) {
        const std::span<const std::uint8_t> rules[COLOR_NB]
            = { { rule[RED].get(), w.n }, { rule[BLACK].get(), w.n } };
        writer.add(kRuleResult, 1, rules, dontCare);
    }
    writer.commit();
    stats.rule = rulePass ? "perpetual check (chase not modelled)" : "plain: one side armless";
    stats.cell_bytes = wide ? 2 : 1;
    std::error_code ec;
    const std::uintmax_t size = std::filesystem::file_size(table_path(children.dir(), m), ec);
    stats.file_bytes = ec ? 0 : size;
    stats.phase_seconds.emplace_back("output", since(t));
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return stats;
}

} // namespace mktb::xq

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
// Over several ranks (ranks.hpp, mktb-mpi), each owns units of 64 Ki slots dealt round-robin
// (a block of the file each, so no block, spill chunk or level mask is shared) and reads and
// writes only their cells: the updates an un-move makes to another rank's cell are sent to it
// (a few times a level, when their sum reaches a budget), and each rank applies what it
// receives as its own. Every decision after a collective step is taken from its result alone,
// so the file is the one process's for any number of ranks. The perpetual-check pass reads
// every cell: an ending with both sides armed is made by one process (the command runs it on
// rank 0 alone).
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
#include <tbb/combinable.h>
#include <tbb/enumerable_thread_specific.h>

#include "captures.hpp"
#include "cell_store.hpp"
#include "moves.hpp"
#include "parallel.hpp"
#include "perpetual.hpp"
#include "ranks.hpp"
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

// The units of slots the ranks own: a block of the file each (no two ranks compress one).
constexpr int kUnitBits = 16;
constexpr std::uint64_t kUnit = std::uint64_t(1) << kUnitBits;

PairShare share_of(std::uint64_t n, int rank, int ranks) {
    static_assert(kUnit % Spill<Cell>::kSpillChunk == 0 && kUnit % kBlock == 0);
    return PairShare(int((n + kUnit - 1) / kUnit), kUnitBits, kUnit, kUnit, rank, ranks);
}

struct Work {
    Work(const Material& material, const Tablebase& tables, int windowPlies, Ranks& r)
        : m(material)
        , index(material)
        , children(tables)
        , n(index.size())
        , ranks(r)
        , share(share_of(n, r.rank(), r.size()))
        , mine(share.slot_runs(kUnit, n))
        , spill(tables.dir(), "the spill of " + material.name() + "'s levels (Xiangqi)")
        , store(1, n, Cell(most_moves(material) + 1), windowPlies, spill)
        , captures(index, tables) {
        store.own(share, kUnitBits);
    }
    const Material& m;
    const Index index;
    const Tablebase& children;
    std::uint64_t n;
    Ranks& ranks;
    const PairShare share;
    const std::vector<std::pair<std::uint64_t, std::uint64_t>> mine; // this rank's slots
    bool owns(std::uint64_t slot) const { return share.owns(int(slot >> kUnitBits)); }
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
    parallel_blocks_of(
        w.mine, progress, "init", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
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
    st.agree(w.ranks);
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

// An update an un-move makes to a parent's cell, sent to the rank that owns it: two words,
// the slot's low 32 bits, then its high bits with the side to move in the parent (bit 29) and
// `step` (bits 30-31: 0 a win at the level after, else the moves taken off its counter).
struct Update {
    static void put(Ranks::Words& to, std::uint64_t q, Color mover, unsigned step) {
        to.push_back(std::uint32_t(q));
        to.push_back(std::uint32_t(q >> 32) | std::uint32_t(mover) << 29 | step << 30);
    }
    static std::uint64_t slot(const std::uint32_t* u) {
        return u[0] | std::uint64_t(u[1] & 0x1FFFFFFF) << 32;
    }
    static Color mover(const std::uint32_t* u) { return Color(u[1] >> 29 & 1); }
    static unsigned step(const std::uint32_t* u) { return u[1] >> 30; }
};

// Decides the parents of the cells lost or won at `level` plies; returns whether any cell held
// that level (on any rank). `sent`: the bytes this rank sent other ranks.
bool level(Work& w, int level, Progress* progress, std::uint64_t& sent) {
    Store& st = w.store;
    const Cell code = st.code(level);
    const bool losses = level % 2 == 0;
    const bool alone = w.ranks.size() == 1;
    const std::size_t ranks = std::size_t(w.ranks.size());
    std::atomic<bool> wroteWin { false }, found { false };
    // Parent q (`mover` to move) takes an update: a win in level + 1 (step 0) where it is a
    // counter or a slower capture's win, or `step` moves off its counter (the loss where that
    // reaches 0). Returns whether a win was written.
    auto update = [&](std::uint64_t q, Color mover, unsigned step) {
        std::atomic_ref<Cell> x(st.array(0, mover)[q]);
        Cell v = x.load(std::memory_order_relaxed);
        if (step == 0) {
            const Cell win = st.code(level + 1);
            while (st.is_counter(v) || (st.in_window(v) && v > win && (v - win) % 2 == 0)
                || v == Store::kFarWin)
                if (x.compare_exchange_weak(v, win)) {
                    st.mark(0, mover, q, level + 1);
                    return true;
                }
            return false;
        }
        if (!st.is_counter(v)) return false;
        const Cell before = x.fetch_sub(Cell(step));
        if (before < step || !st.is_counter(before))
            throw std::logic_error("xiangqi generator: a count went below 0");
        if (before != step) return false;
        const int plies = w.has_capture(mover, q) ? loss_plies(w, q, mover, level) : level + 1;
        x.store(st.decided(0, mover, q, plies), std::memory_order_relaxed);
        return false;
    };
    // Per thread, the updates for each other rank.
    tbb::enumerable_thread_specific<std::vector<Ranks::Words>> outboxes(
        [&] { return std::vector<Ranks::Words>(ranks); });
    // The cells of side s in [first, last) holding the level, un-moved.
    auto scan = [&](Color s, std::uint64_t first, std::uint64_t last) {
        const Color mover = ~s; // the side that moved into the cells of this level
        const Cell* cells = st.array(0, s).data();
        std::vector<Ranks::Words>* out = alone ? nullptr : &outboxes.local();
        // Noted once per block: a shared flag written per cell would bounce its cache
        // line between the cores.
        bool foundHere = false, wroteWinHere = false;
        for (std::uint64_t run = first; run < last; run += Store::kMaskSlots) {
            if (!st.marked(0, s, run, level)) continue;
            const Cell* end = cells + std::min(last, run + Store::kMaskSlots);
            // memchr: the library's vector search finds the level's few cells.
            for (const Cell* at = cells + run;
                 (at = static_cast<const Cell*>(std::memchr(at, code, std::size_t(end - at))));
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
                        if (!losses && selfMirror && mirrored && !parentMirror) return;
                        const unsigned step = losses ? 0 : parentMirror && !selfMirror ? 2 : 1;
                        if (alone || w.owns(q))
                            wroteWinHere |= update(q, mover, step);
                        else
                            Update::put((*out)[std::size_t(w.share.owner(int(q >> kUnitBits)))], q,
                                mover, step);
                    });
            }
        }
        if (foundHere) found.store(true, std::memory_order_relaxed);
        if (wroteWinHere) wroteWin.store(true, std::memory_order_relaxed);
    };
    // The updates the others sent, applied as this rank's own.
    auto exchange = [&] {
        std::vector<Ranks::Words> out(ranks);
        for (std::vector<Ranks::Words>& box : outboxes)
            for (std::size_t r = 0; r < ranks; ++r) {
                out[r].insert(out[r].end(), box[r].begin(), box[r].end());
                Ranks::Words().swap(box[r]);
            }
        for (const Ranks::Words& words : out) sent += words.size() * sizeof(std::uint32_t);
        const std::vector<Ranks::Words> in = w.ranks.exchange(std::move(out));
        for (std::size_t r = 0; r < ranks; ++r) {
            if (int(r) == w.ranks.rank()) continue;
            const Ranks::Words& words = in[r];
            tbb::parallel_for(tbb::blocked_range<std::size_t>(0, words.size() / 2, 4096),
                [&](const tbb::blocked_range<std::size_t>& b) {
                    bool wrote = false;
                    for (std::size_t k = b.begin(); k != b.end(); ++k) {
                        const std::uint32_t* u = words.data() + 2 * k;
                        wrote |= update(Update::slot(u), Update::mover(u), Update::step(u));
                    }
                    if (wrote) wroteWin.store(true, std::memory_order_relaxed);
                });
        }
    };
    std::uint64_t mySlots = 0;
    for (const auto& [a, b] : w.mine) mySlots += b - a;
    if (progress) progress->phase("level " + std::to_string(level), 2 * mySlots);
    // Over ranks, the level in parts (as many on every rank), the updates exchanged once
    // their sum reaches a budget: the outboxes' memory stays bounded (the order of the updates
    // changes no value).
    const std::uint64_t mostUnits = ((w.n + kUnit - 1) / kUnit + ranks - 1) / ranks;
    const std::uint64_t parts = alone ? 1 : std::clamp<std::uint64_t>(mostUnits / 8, 1, 32);
    const std::uint64_t budget = std::max<std::uint64_t>(1 << 20, w.n / 32); // words, all ranks
    // Part k: this rank's slots from bound(k) to bound(k + 1), counted along its runs.
    auto bound = [&](std::uint64_t k) {
        return std::min(mySlots, (mySlots * k / parts + kUnit - 1) & ~(kUnit - 1));
    };
    for (std::uint64_t part = 0; part < parts; ++part) {
        const std::uint64_t from = bound(part), to = bound(part + 1);
        // Each side in turn: a side's cells are read while the other's are written.
        for (Color s : { RED, BLACK }) {
            std::uint64_t at = 0; // this rank's slots before the run
            for (const auto& [a, b] : w.mine) {
                const std::uint64_t lo = std::clamp(from, at, at + b - a),
                                    hi = std::clamp(to, at, at + b - a);
                if (lo < hi)
                    parallel_blocks_in(a + lo - at, a + hi - at, progress,
                        [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
                            scan(s, first, last);
                        });
                at += b - a;
            }
        }
        if (alone) continue;
        std::uint64_t words = 0;
        for (const std::vector<Ranks::Words>& box : outboxes)
            for (const Ranks::Words& x : box) words += x.size();
        if (part + 1 == parts || w.ranks.reduce(words, Ranks::Op::Sum) >= budget) exchange();
    }
    if (wroteWin) st.note_level(level + 1);
    st.gather_far();
    st.agree(w.ranks); // a win written on any rank lengthens every rank's loop
    return w.ranks.reduce(std::uint64_t(found.load()), Ranks::Op::Max) != 0;
}

// The longest distance the levels decided (the spill's and the window's, on every rank): what
// the stored cells must hold.
int longest(Work& w) {
    Store& st = w.store;
    tbb::combinable<int> most([&] { return st.retired_top(0); });
    for (Color s : { RED, BLACK }) {
        const Cell* x = st.array(0, s).data();
        parallel_blocks_of(
            w.mine, nullptr, "", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
                int& m = most.local();
                for (std::uint64_t slot = first; slot < last; ++slot)
                    if (st.in_window(x[slot])) m = std::max(m, st.plies(x[slot]));
            });
    }
    const int mine = most.combine([](int a, int b) { return std::max(a, b); });
    return int(w.ranks.reduce(std::uint64_t(mine + 1), Ranks::Op::Max)) - 1;
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
    parallel_blocks_of(
        w.mine, nullptr, "", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
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

// The statistics of one side from its stored cells (T: 8 or 16 bits; all ones: no position),
// over this rank's slots; `longestSlot`: the first of the longest mate's.
template<class T>
SideStats side_stats(const Work& w, const T* cells, std::uint64_t& longestSlot) {
    struct Part {
        std::uint64_t legal = 0, wins = 0, draws = 0, losses = 0;
        int longest = -1;
        std::uint64_t slot = 0;
        std::vector<std::uint64_t> win, loss; // by moves to mate
    };
    // Per block, then merged in block order: the longest mate's slot is the first of the
    // longest, whatever the thread count.
    std::vector<Part> parts((w.n + kBlock - 1) / kBlock);
    parallel_blocks_of(
        w.mine, nullptr, "", [&](std::uint64_t b, std::uint64_t first, std::uint64_t last) {
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
    longestSlot = 0;
    for (const Part& p : parts) {
        st.legal += p.legal, st.wins += p.wins, st.draws += p.draws, st.losses += p.losses;
        if (p.longest > st.longest_plies) st.longest_plies = p.longest, longestSlot = p.slot;
        for (std::size_t k = 0; k < p.win.size(); ++k)
            if (p.win[k]) st.win_moves[int(k)] += p.win[k];
        for (std::size_t k = 0; k < p.loss.size(); ++k)
            if (p.loss[k]) st.loss_moves[int(k)] += p.loss[k];
    }
    return st;
}

} // namespace

std::uint64_t memory_needed(const Material& m, int ranks, RuleSet rules) {
    // A cell per side of the rank's slots (the largest share); where both sides are armed, the
    // rule's cell per side beside it and its distance (2 bytes); a bit per slot and side (which
    // positions have a capture, then the output's don't-care masks, whole on every rank); the level
    // masks (4 words per side and 1,024 slots); over ranks, the updates held, sent and received
    // (their budget is an eighth of a byte per slot over all ranks; a quarter allows for a part's
    // overshoot and the copy sent); the children's block cache and the rest (the children are read
    // through the cache: captures.hpp).
    const bool rule = has_rule_cells(header_rule(m, rules));
    const std::uint64_t n = Index(m).size();
    const auto r = std::uint64_t(ranks);
    const std::uint64_t own = std::min(n, ((n + kUnit - 1) / kUnit + r - 1) / r * kUnit);
    const std::uint64_t bytes = (rule ? 8 : 2) * own + n / 4 + n / 16 + (ranks > 1 ? n / 4 : 0)
        + (std::uint64_t(128) << 20);
    // An upper bound: KCPABvKAABB peaked 1 % below it (4.07 GB; the writer's buffers, the heap).
    return bytes + bytes / 20;
}

TableStats generate(const Material& m, const Tablebase& children, Progress* progress, int zstdLevel,
    int windowPlies, bool wideCells, Ranks* over) {
    const auto start = std::chrono::steady_clock::now();
    // The children's rule set is the run's (a child of another is refused as it is read). Both
    // sides armed, under check: the rule's results, in cells of their own (its pass reads
    // 8-bit cells).
    const RuleSet rules = children.rules().value_or(kDefaultRuleSet);
    const std::uint32_t headerRule = header_rule(m, rules);
    const bool rulePass = has_rule_cells(headerRule);
    OneRank oneRank;
    Ranks& ranks = over ? *over : oneRank;
    if (rulePass && ranks.size() > 1)
        throw TableError(m.name() + " (Xiangqi): the perpetual-check pass reads every cell; "
            + "an ending with both sides armed is made by one process");
    Work w(m, children, windowPlies, ranks);
    if (rulePass && !w.captures.without_plies().empty())
        throw TableError("the Xiangqi table of " + w.captures.without_plies() + ", which "
            + m.name() + " converts into, holds the rule's results without their distances: "
            + "generate it again");
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
        std::uint64_t sent = 0;
        if (level(w, n, progress, sent)) lastLevel = n;
        if (ranks.size() > 1) stats.exchanged.push_back(ranks.reduce(sent, Ranks::Op::Sum));
    }
    stats.levels = lastLevel + 1;
    stats.exchanged.resize(std::size_t(ranks.size() > 1 ? stats.levels : 0));
    stats.ranks = ranks.size();
    for (Color s : { RED, BLACK }) Cells<std::uint64_t>().swap(w.capturing[s]);
    stats.phase_seconds.emplace_back("iterate", since(t));
    t = std::chrono::steady_clock::now();
    // No position's count may stay above 0 unless it is drawn: checked by verify, not here.
    const int most = longest(w);
    const bool wide = wideCells || most > kMaxPlies;
    if (wide && rulePass)
        throw TableError(m.name() + " (Xiangqi): a mate of " + std::to_string(most)
            + " plies, longer than the perpetual-check pass's 8-bit cells hold ("
            + std::to_string(kMaxPlies) + ")");
    for (Color s : { RED, BLACK }) finish(w, s, wide);
    HugeArray<std::uint8_t> rule[COLOR_NB];
    HugeArray<std::uint16_t> rulePlies[COLOR_NB];
    bool wideRule = false;
    if (rulePass) {
        for (Color s : { RED, BLACK }) {
            rule[s] = make_huge_array<std::uint8_t>(w.n);
            rulePlies[s] = make_huge_array<std::uint16_t>(w.n);
        }
        const std::uint8_t* const plain[COLOR_NB] = { w.val[RED], w.val[BLACK] };
        std::uint8_t* const cells[COLOR_NB] = { rule[RED].get(), rule[BLACK].get() };
        std::uint16_t* const plies[COLOR_NB] = { rulePlies[RED].get(), rulePlies[BLACK].get() };
        const RuleCounts rc = perpetual_check(
            w.index, w.captures, plain, cells, plies, progress, rules == RuleSet::Asian);
        for (Color s : { RED, BLACK })
            stats.side[s].rule_wins = rc.won[s], stats.side[s].rule_losses = rc.lost[s];
        stats.rule_rounds = rc.rounds;
        // The rule's cells: 0 where the plain value stands, else the distance plus one, in 16
        // bits where one is over 254 (the cells' 8 bits keep 255 for "read 16").
        wideRule = rc.longest + 1 > 254;
        // The longest distance of each side and the lowest slot that has it, as one key:
        // (plies + 1) above the slot's complement, the largest key the one wanted.
        constexpr unsigned kSlotBits = 40;
        const std::uint64_t slotMask = (std::uint64_t(1) << kSlotBits) - 1;
        for (Color s : { RED, BLACK }) {
            std::atomic<std::uint64_t> longest = 0;
            parallel_blocks(
                w.n, nullptr, "", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
                    std::uint64_t top = 0;
                    for (std::uint64_t slot = first; slot < last; ++slot) {
                        const unsigned c = rule[s][slot] == kRulePlain
                            ? 0
                            : (rulePlies[s][slot] & kNoPlies) + 1u;
                        top = std::max(top, std::uint64_t(c) << kSlotBits | (slotMask - slot));
                        if (wideRule)
                            rulePlies[s][slot] = std::uint16_t(c);
                        else
                            rule[s][slot] = std::uint8_t(c);
                    }
                    for (std::uint64_t l = longest.load();
                         top > l && !longest.compare_exchange_weak(l, top);) { }
                });
            const std::uint64_t key = longest;
            stats.side[s].rule_longest_plies = int(key >> kSlotBits) - 1;
            if (key >> kSlotBits) {
                Placement pl;
                w.index.decode(slotMask - (key & slotMask), pl);
                stats.side[s].rule_longest_fen = w.index.position(pl, s).fen();
            }
        }
        stats.phase_seconds.emplace_back("perpetual_check", since(t) - rc.distance_seconds);
        stats.phase_seconds.emplace_back("rule_distance", rc.distance_seconds);
    }
    t = std::chrono::steady_clock::now();

    TableWriter::DontCare dontCare;
    std::array<SideStats, COLOR_NB> sides;
    std::array<std::uint64_t, COLOR_NB> longestSlot {};
    for (Color s : { RED, BLACK }) {
        dontCare[s].assign((w.n + 63) / 64, 0);
        // Blocks of kBlock slots are whole words of the mask: one writer per word.
        parallel_blocks_of(
            w.mine, nullptr, "", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
                for (std::uint64_t slot = first; slot < last; ++slot)
                    if (wide ? w.wide[s][slot] == 0xFFFF : w.val[s][slot] == kNone)
                        dontCare[s][slot / 64] |= std::uint64_t(1) << (slot % 64);
            });
        sides[s] = wide ? side_stats(w, w.wide[s].data(), longestSlot[s])
                        : side_stats(w, w.val[s], longestSlot[s]);
    }
    if (ranks.size() > 1) merge_over_ranks(sides, longestSlot, ranks);
    for (Color s : { RED, BLACK }) {
        if (sides[s].longest_plies >= 0) {
            Placement pl;
            w.index.decode(longestSlot[s], pl);
            sides[s].longest_fen = w.index.position(pl, s).fen();
        }
        sides[s].rule_wins = stats.side[s].rule_wins;
        sides[s].rule_losses = stats.side[s].rule_losses;
        sides[s].rule_longest_plies = stats.side[s].rule_longest_plies;
        sides[s].rule_longest_fen = stats.side[s].rule_longest_fen;
        stats.side[s] = sides[s];
    }
    if (progress) progress->phase("output", 0);
    // Over ranks, each compresses the blocks of its own units; rank 0 writes them all.
    TableWriter writer(table_key(m), headerRule, table_path(children.dir(), m), rulePass ? 2 : 1,
        ranks.rank() == 0);
    if (ranks.size() > 1) writer.set_share([&](std::uint64_t slot) { return w.owns(slot); }, ranks);
    writer.set_level(zstdLevel);
    auto bytes = [&](Color s) {
        return wide ? std::span(reinterpret_cast<const std::uint8_t*>(w.wide[s].data()), 2 * w.n)
                    : std::span<const std::uint8_t>(w.val[s], w.n);
    };
    const std::span<const std::uint8_t> cells[COLOR_NB] = { bytes(RED), bytes(BLACK) };
    writer.add(Metric::Dtm, wide ? 2 : 1, cells, dontCare);
    if (rulePass) {
        const auto ruleBytes = [&](Color s) {
            return wideRule
                ? std::span(reinterpret_cast<const std::uint8_t*>(rulePlies[s].get()), 2 * w.n)
                : std::span<const std::uint8_t>(rule[s].get(), w.n);
        };
        const std::span<const std::uint8_t> ruleCells[COLOR_NB]
            = { ruleBytes(RED), ruleBytes(BLACK) };
        writer.add(kRuleResult, wideRule ? 2 : 1, ruleCells, dontCare);
    }
    writer.commit();
    stats.rule = headerRule == kRulePlainArmless
        ? "plain: one side armless"
        : std::string(rule_set(rules).name) + ": " + std::string(rule_set(rules).words);
    stats.cell_bytes = wide ? 2 : 1;
    std::error_code ec;
    const std::uintmax_t size
        = ranks.rank() == 0 ? std::filesystem::file_size(table_path(children.dir(), m), ec) : 0;
    stats.file_bytes = ec ? 0 : size;
    stats.phase_seconds.emplace_back("output", since(t));
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return stats;
}

} // namespace mktb::xq

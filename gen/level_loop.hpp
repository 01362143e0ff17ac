// level_loop.hpp - the level loop: levels n = 0, 1, 2, ... plies; every cell holding n is
// un-moved once: a loss makes its predecessors won in n + 1, a win takes one move off their
// counters, and a counter that reaches 0 is a loss in n + 1 plies (later when a losing
// conversion holds out longer). The window of codes is rolled over whenever the next level's
// writes would leave it.
//
// Each level runs in two passes over the king pairs, each pair handled by one task:
//   men_pass   per pair: its cells holding the level are found (64 at a time, in the runs the
//              level masks mark), their men's un-moves applied (they stay in the pair), and
//              their fields listed, per metric and side to move;
//   king_pass  per pair q: the king un-moves landing in q, taken along each edge into q from
//              the lists of its source pair. The writes stay in q's cells, which the cache holds
//              while q is done.
// Invariant: no cell has two writers in a pass (the task of its king pair), and the updates
// commute (a win taken once, decrements), so the bytes do not depend on the thread count.
//
// Over several ranks (ranks.hpp), each owns a share of the king pairs and runs both passes over
// its own; before each kings' pass the lists of its pairs go to the ranks owning a pair with an
// edge from them (exchange_lists), and three decisions are taken together: when the lists are
// handed over (their sum against the budget), the largest level (a maximum) and so the last.
#pragma once

#include <algorithm>
#include <atomic>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include "counter_check.hpp"
#include "lane_kernels.hpp"

namespace mktb {

template<class Cell>
class LevelLoop {
public:
    using Store = CellStore<Cell>;
    // `check`: the debug counter check, or nullptr.
    LevelLoop(const GenIndex& index, Store& store, const GenMoves& moves, CounterCheck<Cell>* check,
        std::string name, Progress* progress, Ranks& ranks, const PairShare& share)
        : index_(index)
        , store_(store)
        , moves_(moves)
        , check_(check)
        , name_(std::move(name))
        , progress_(progress)
        , ranks_(ranks)
        , share_(share) {
        // A ranked group's un-moves change its rank, not a lane's field: cell by cell.
        if (!index_.has_ranked()) laneMan_ = index_.low_field();
    }

    // The cells listed for the kings' pass (4 bytes each): what king-pair slices on several
    // machines would exchange once per level (docs/generator.md, "Slices").
    struct Traffic {
        int levels = 0;
        std::uint64_t listed = 0, mostListed = 0; // in all, at the busiest level
        std::vector<std::uint64_t> exchanged; // per level: bytes the ranks sent each other
    };

    Traffic run() {
        const int bits = index_.field_bits();
        if (bits > 32) // the lists hold a slot's fields in 32 bits: up to 5 men beside the kings
            throw std::logic_error(name_ + ": too many men for the level loop's lists");
        king_edges();
        unlist();
        const int pairs = index_.pairs();
        // Whole pairs per task, at least one block of slots (so runs and chunks align); this
        // rank's tasks (its share is dealt in whole tasks).
        const int perTask = std::max(1, int(kBlock >> std::min(bits, kBlockShift)));
        const int tasks = (pairs + perTask - 1) / perTask;
        std::vector<int> mine;
        for (int t = 0; t < tasks; ++t)
            if (share_.owns(t * perTask)) mine.push_back(t);
        const int ownTasks = int(mine.size());
        auto over_pairs = [&](int first, int last, auto&& pass) { // mine[first .. last - 1]
            tbb::parallel_for(
                tbb::blocked_range<int>(first, last), [&](const tbb::blocked_range<int>& r) {
                    for (int u = r.begin(); u != r.end(); ++u) {
                        const int t = mine[std::size_t(u)];
                        pass(t * perTask, std::min(pairs, (t + 1) * perTask));
                    }
                });
        };
        if (ranks_.size() > 1) find_receivers();
        // The lists' memory is bounded: the men's pass runs over the pairs a part at a time,
        // and once the lists hold more than a slot per 64 slots, the kings' pass takes them and
        // they are emptied (the order of the updates within a level changes no value).
        const int parts = std::clamp(tasks / 8, 1, 32);
        const std::uint64_t budget = std::max<std::uint64_t>(1 << 20, index_.size() / 64);
        const std::uint64_t mySlots = std::uint64_t(share_.pairs_owned()) << bits;
        Traffic traffic;
        for (int n = 0; n <= store_.max_level(); ++n) {
            std::uint64_t listed = 0, exchanged = 0;
            if (n + 1 > store_.top()) store_.rollover(n & ~1);
            Level level(n, store_);
            if (progress_)
                progress_->phase(name_ + ": iterate, mate distance " + std::to_string(n) + " plies",
                    std::min(mySlots, index_.size()));
            for (int part = 0; part < parts; ++part) { // a part of every rank's tasks at once
                over_pairs(ownTasks * part / parts, ownTasks * (part + 1) / parts,
                    [&](int p0, int p1) { men_pass(p0, p1, level); });
                const std::uint64_t all = ranks_.reduce(level.listed.load(), Ranks::Op::Sum);
                if (part + 1 < parts && all < budget) continue;
                if (ranks_.size() > 1) exchanged += exchange_lists();
                over_pairs(0, ownTasks, [&](int q0, int q1) { king_pass(q0, q1, level); });
                unlist();
                listed += all;
                level.listed = 0;
            }
            traffic.levels = n + 1;
            traffic.listed += listed;
            traffic.mostListed = std::max(traffic.mostListed, listed);
            if (ranks_.size() > 1)
                traffic.exchanged.push_back(ranks_.reduce(exchanged, Ranks::Op::Sum));
            if (level.wroteWin) store_.note_level(n + 1);
            store_.gather_far();
            store_.agree(ranks_); // a win written on any rank lengthens every rank's loop
        }
        fieldLists_.clear();
        received_.clear();
        for (auto& byMetric : runs_)
            for (auto& lists : byMetric) std::vector<ListRun>().swap(lists);
        std::vector<std::vector<KingEdge>>().swap(edgesInto_);
        if (check_) check_->check_undecided();
        return traffic;
    }

private:
    // The level being done: cells holding `want` (n plies) are un-moved.
    struct Level {
        Level(int level, const Store& store)
            : n(level)
            , want(store.code(level))
            , lost(level % 2 == 0)
            , win(lost ? store.code(level + 1) : Cell(0)) { }
        int n;
        Cell want;
        bool lost; // the side to move in the cells holding n is mated
        Cell win; // what a loss makes its predecessors
        std::atomic<bool> wroteWin { false };
        std::atomic<std::uint64_t> listed { 0 }; // cells listed for the kings' pass
    };
    // Per metric and side to move, a bit per slot of a 64-slot chunk: the cells holding the level.
    using LevelHits = std::array<std::array<std::uint64_t, COLOR_NB>, kMaxMetrics>;
    // The fields of the cells holding the level, per metric and side, as a task lists them.
    using FieldLists = std::array<std::array<std::vector<std::uint32_t>, COLOR_NB>, kMaxMetrics>;
    // Where one king pair's listed fields are: a run of one task's FieldLists.
    struct ListRun {
        const std::vector<std::uint32_t>* fields = nullptr;
        std::uint32_t begin = 0, end = 0;
    };
    // King un-moves as edges between king pairs: the king of `mover` steps back from `ks` to
    // `to` on every board of pair `from` where `to` is empty, into the pair the edge is listed
    // under, its fields following by step_fields() (`bitwise`) or through with_king().
    struct KingEdge {
        int from;
        Color mover;
        Square ks, to;
        int frame;
        bool bitwise;
        std::uint64_t on; // index_.squares_fields(to): is a man on it?
    };

    void king_edges() {
        edgesInto_.assign(std::size_t(index_.pairs()), {});
        for (int p = 0; p < index_.pairs(); ++p) {
            const auto kings = index_.kings(p);
            for (Color mover : { WHITE, BLACK }) {
                const Square ks = kings[mover], other = kings[~mover];
                for (Bitboard f = attacks_bb(mover, KHUN, ks) & ~square_bb(other)
                         & ~attacks_bb(mover, KHUN, other);
                     f;) {
                    const Square to = pop_lsb(f);
                    const auto step = index_.king_step(kings, mover, to);
                    edgesInto_[std::size_t(step.pair)].push_back(
                        { p, mover, ks, to, step.frame, step.bitwise, index_.squares_fields(to) });
                }
            }
        }
    }
    // For each of this rank's pairs, the other ranks owning a pair with an edge from it: where
    // its lists go.
    void find_receivers() {
        receivers_.assign(std::size_t(index_.pairs()), {});
        for (int q = 0; q < index_.pairs(); ++q) {
            const int owner = share_.owner(q);
            if (owner == share_.rank()) continue;
            for (const KingEdge& e : edgesInto_[std::size_t(q)]) {
                if (!share_.owns(e.from)) continue;
                auto& to = receivers_[std::size_t(e.from)];
                if (std::find(to.begin(), to.end(), owner) == to.end()) to.push_back(owner);
            }
        }
    }
    // Sends the lists of this rank's pairs to their receivers and points the runs of the
    // others' pairs into what they sent: records of (metric and side, pair, count, fields).
    // Returns the bytes this rank sent.
    std::uint64_t exchange_lists() {
        std::vector<Ranks::Words> out(std::size_t(ranks_.size()));
        for (int k = 0; k < store_.metrics(); ++k)
            for (Color c : { WHITE, BLACK })
                for (int p = 0; p < index_.pairs(); ++p) {
                    const ListRun& run = runs_[std::size_t(k)][c][std::size_t(p)];
                    if (!run.fields || run.end == run.begin || !share_.owns(p)) continue;
                    const std::uint32_t head[3]
                        = { std::uint32_t(2 * k + c), std::uint32_t(p), run.end - run.begin };
                    const std::uint32_t* fields = run.fields->data();
                    for (const int r : receivers_[std::size_t(p)]) {
                        Ranks::Words& to = out[std::size_t(r)];
                        to.insert(to.end(), head, head + 3);
                        to.insert(to.end(), fields + run.begin, fields + run.end);
                    }
                }
        std::uint64_t sent = 0;
        for (const Ranks::Words& w : out) sent += w.size() * sizeof(std::uint32_t);
        received_ = ranks_.exchange(std::move(out));
        for (std::size_t r = 0; r < received_.size(); ++r) {
            if (int(r) == share_.rank()) continue;
            const Ranks::Words& words = received_[r];
            for (std::size_t at = 0; at + 3 <= words.size();) {
                const std::uint32_t kc = words[at], p = words[at + 1], count = words[at + 2];
                at += 3;
                runs_[kc / 2][kc % 2][p] = { &words, std::uint32_t(at), std::uint32_t(at + count) };
                at += count;
            }
        }
        return sent;
    }
    // Every list emptied.
    void unlist() {
        for (int k = 0; k < store_.metrics(); ++k)
            for (Color c : { WHITE, BLACK })
                runs_[std::size_t(k)][c].assign(std::size_t(index_.pairs()), {});
        for (FieldLists& lists : fieldLists_)
            for (auto& byColor : lists)
                for (auto& fields : byColor) fields.clear();
    }
    // Lists cell i (metric k, side c) for the kings' pass: a pair's fields are listed together,
    // in slot order, in the lists of the pair's task.
    void list(FieldLists& lists, std::size_t k, Color c, std::uint64_t i) {
        auto& fields = lists[k][c];
        ListRun& run = runs_[k][c][std::size_t(i >> index_.field_bits())];
        if (!run.fields) run = { &fields, std::uint32_t(fields.size()), 0 };
        fields.push_back(std::uint32_t(i & ((std::uint64_t(1) << index_.field_bits()) - 1)));
        run.end = std::uint32_t(fields.size());
    }

    // Of each mirrored pair of un-moves of a board equal to its reflection, only one is made.
    static bool mirrored(bool symmetric, Square from, Square to) {
        if (!symmetric) return false;
        const Square mf = transform(4, from), mt = transform(4, to);
        return from > mf || (from == mf && to > mt);
    }
    // Calls fn(pred) for the slot of each predecessor of board b (slot i) by an un-move of a
    // man of `mover` (the side that made the last move). They stay in i's king pair.
    template<class Fn>
    void for_each_man_unmove(
        std::uint64_t i, const GenBoard& b, Color mover, bool symmetric, Fn&& fn) const {
        const Bitboard occ = GenMoves::occupancy(b, index_.men());
        const bool offResidue = !index_.residue(i); // then not symmetric either
        for (int j = 0; j < index_.men(); ++j) {
            if (index_.color(j) != mover) continue;
            const Square s = b.man[std::size_t(j)];
            Bitboard f = retro_quiets_bb(mover, index_.type(j), s, occ) & ~occ;
            if (offResidue && index_.group_size(j) == 1) { // one field replaced: the common case
                const std::uint64_t rest = index_.without_field(i, j);
                for (; f;) fn(rest | index_.field(j, pop_lsb(f)));
            }
            for (; f;) {
                const Square o = pop_lsb(f);
                if (!mirrored(symmetric, o, s)) fn(index_.with_man(i, b, j, o));
            }
        }
    }

    // A predecessor `pred` (metric k, `them` to move) of a won cell at level n: one move off.
    void take_one_move(Cell* x, std::uint64_t pred, Color them, int k, int n) {
        take_move(x, store_.base(), pred, [&](std::uint64_t slot) { lost(x, slot, them, k, n); });
    }
    // A counter that reached 0 at level n: the loss, in n + 1 plies or a losing conversion's
    // longer distance. Not inlined: rare beside the updates, and large (a move generation).
    [[gnu::noinline]] void lost(Cell* x, std::uint64_t slot, Color them, int k, int n) {
        GenBoard p;
        index_.decode_valid(slot, p);
        const int l = moves_.loss_plies(p, them, k, n);
        if (check_) check_->check_loss(p, them, k, n, l);
        std::atomic_ref<Cell>(x[slot]).store(
            store_.decided(k, them, slot, l), std::memory_order_relaxed);
    }

    void men_pass(int p0, int p1, Level& level);
    void unmove_cells(std::uint64_t i0, const LevelHits& hit, std::uint64_t any, Level& level,
        FieldLists& lists, bool& wrote);
    bool unmove_chunk(std::uint64_t i0, const LevelHits& hit, Level& level, FieldLists& lists);
    void king_pass(int q0, int q1, Level& level);

    const GenIndex& index_;
    Store& store_;
    const GenMoves& moves_;
    CounterCheck<Cell>* check_;
    std::string name_;
    Progress* progress_;
    Ranks& ranks_;
    const PairShare& share_;
    std::vector<std::vector<int>> receivers_; // per pair of this rank: the ranks its lists go to
    std::vector<Ranks::Words> received_; // per rank: the lists it sent at the last exchange
    GenIndex::LowField laneMan_ { -1, 0, 0 }; // the men's pass's chunks: their lanes' man
    std::vector<std::vector<KingEdge>> edgesInto_; // per pair the king un-moves land in
    tbb::enumerable_thread_specific<FieldLists> fieldLists_;
    std::array<std::array<std::vector<ListRun>, COLOR_NB>, kMaxMetrics> runs_; // [k][c][pair]
};

template<class Cell>
inline void LevelLoop<Cell>::men_pass(int p0, int p1, Level& level) {
    const int metrics = store_.metrics();
    const int bits = index_.field_bits();
    bool wrote = false;
    std::uint64_t listed = 0;
    FieldLists& lists = fieldLists_.local();
    const std::uint64_t begin = std::uint64_t(p0) << bits;
    const std::uint64_t end = std::uint64_t(p1) << bits;
    unsigned scan = 0; // bit 2k + c: array (k, c) is scanned in this run
    for (std::uint64_t i0 = begin; i0 < end; i0 += 64) {
        // The arrays whose run holds the level, then their cells that do.
        if (i0 % Store::kMaskSlots == 0) {
            scan = 0;
            for (int k = 0; k < metrics; ++k)
                for (Color c : { WHITE, BLACK })
                    if (store_.marked(k, c, i0, level.n)) scan |= 1u << (2 * k + c);
        }
        if (!scan) {
            i0 += Store::kMaskSlots - 64;
            continue;
        }
        LevelHits hit {};
        std::uint64_t any = 0;
        for (int k = 0; k < metrics; ++k)
            for (Color c : { WHITE, BLACK })
                if (scan >> (2 * k + c) & 1)
                    any |= hit[std::size_t(k)][c] = match64(&store_.cell(k, c, i0), level.want);
        for (int k = 0; k < metrics; ++k) // each is listed, by one way or the other below
            for (Color c : { WHITE, BLACK })
                listed += std::uint64_t(std::popcount(hit[std::size_t(k)][c]));
        // A chunk with one or two cells at the level is done cell by cell: the lanes'
        // operations cost more than they save there.
        if (laneMan_.man < 0 || std::popcount(any) <= 2 || index_.residue(i0)) {
            unmove_cells(i0, hit, any, level, lists, wrote);
            continue;
        }
        const int lanes = 1 << laneMan_.bits;
        for (int sub = 0; sub < 64; sub += lanes) {
            LevelHits h {};
            std::uint64_t here = 0;
            for (int k = 0; k < metrics; ++k)
                for (Color c : { WHITE, BLACK })
                    here |= h[std::size_t(k)][c]
                        = hit[std::size_t(k)][c] >> sub & (~0ULL >> (64 - lanes));
            if (here) wrote |= unmove_chunk(i0 + std::uint64_t(sub), h, level, lists);
        }
    }
    if (wrote) level.wroteWin.store(true, std::memory_order_relaxed);
    level.listed += listed;
    if (progress_) progress_->advance(end - begin);
}

// The cells of chunk i0 holding the level (`any`, per array in `hit`), one at a time.
template<class Cell>
inline void LevelLoop<Cell>::unmove_cells(std::uint64_t i0, const LevelHits& hit, std::uint64_t any,
    Level& level, FieldLists& lists, bool& wrote) {
    // The level in registers: the cells are bytes, whose stores may alias any memory read
    // through a reference.
    const int n = level.n;
    const bool lostLevel = level.lost;
    const Cell win = level.win;
    const int metrics = store_.metrics();
    while (any) {
        const int t = std::countr_zero(any);
        any &= any - 1;
        const std::uint64_t i = i0 + std::uint64_t(t);
        GenBoard b;
        index_.decode_valid(i, b);
        const bool symmetric = index_.residue(i) && index_.symmetric(b);
        for (Color c : { WHITE, BLACK }) {
            const Color them = ~c; // made the last move; to move before it
            for (int k = 0; k < metrics; ++k) {
                if (!(hit[std::size_t(k)][c] >> t & 1)) continue;
                list(lists, std::size_t(k), c, i);
                Cell* const x = store_.array(k, them).data();
                std::uint64_t* const mask = store_.masks(k, them);
                const Cell base = store_.base();
                if (lostLevel)
                    for_each_man_unmove(i, b, them, symmetric, [&](std::uint64_t pred) {
                        wrote |= take_win(x, mask, base, pred, win, n + 1);
                    });
                else
                    for_each_man_unmove(i, b, them, symmetric,
                        [&](std::uint64_t pred) { take_one_move(x, pred, them, k, n); });
            }
        }
    }
}

// The men's pass a chunk at a time. Off the residue, with no three identical men
// (laneMan_.man >= 0), the 2^laneMan_.bits slots of an aligned chunk are the squares (lanes: a
// square less laneMan_.base) of the man of the lowest field on one board of the others. A
// cell's un-moves by another man land, for every lane at once, in one chunk per square o the
// man comes from, at the same lanes (less those where the lane man stands on o or blocks the
// way); the lane man's own un-moves stay in the chunk. So the cells of a chunk holding the
// level are un-moved together: one board decoded, the un-moves' targets generated once, and
// each applied to a mask of lanes.
template<class Cell>
inline bool LevelLoop<Cell>::unmove_chunk(
    std::uint64_t i0, const LevelHits& hit, Level& level, FieldLists& lists) {
    // The level in registers: the cells are bytes, whose stores may alias any memory read
    // through a reference.
    const int n = level.n;
    const bool lostLevel = level.lost;
    const Cell win = level.win;
    const int low = laneMan_.man;
    const int base = laneMan_.base; // lane l is square l + base
    const std::uint64_t all = ~0ULL >> (64 - (1 << laneMan_.bits));
    const bool oneByOne = check_ != nullptr; // the debug check reads cells along
    auto lanes_of = [&](Bitboard squares) { return squares >> base & all; };
    GenBoard b;
    index_.decode_valid(i0, b); // the lane man on lane 0, not counted
    Bitboard occ = square_bb(b.king[WHITE]) | square_bb(b.king[BLACK]);
    for (int j = 0; j < index_.men(); ++j)
        if (j != low) occ |= square_bb(b.man[std::size_t(j)]);
    bool wrote = false;
    for (int k = 0; k < store_.metrics(); ++k)
        for (Color c : { WHITE, BLACK }) {
            const std::uint64_t h = hit[std::size_t(k)][c];
            if (!h) continue;
            for (std::uint64_t t = h; t; t &= t - 1)
                list(lists, std::size_t(k), c, i0 + std::uint64_t(std::countr_zero(t)));
            const Color them = ~c; // made the last move; to move before it
            Cell* const x = store_.array(k, them).data();
            std::uint64_t* const mask = store_.masks(k, them);
            const Cell cellBase = store_.base();
            auto apply = [&](std::uint64_t chunk, std::uint64_t lanes) {
                if (lostLevel)
                    wrote |= take_wins(x, mask, cellBase, chunk, lanes, win, n + 1, oneByOne);
                else
                    take_moves(x, cellBase, chunk, lanes, oneByOne,
                        [&](std::uint64_t slot) { lost(x, slot, them, k, n); });
            };
            auto apply_one = [&](std::uint64_t slot) {
                if (lostLevel)
                    wrote |= take_win(x, mask, cellBase, slot, win, n + 1);
                else
                    take_one_move(x, slot, them, k, n);
            };
            for (int j = 0; j < index_.men(); ++j) {
                if (index_.color(j) != them) continue;
                const PieceType pt = index_.type(j);
                if (index_.group_first(j) == index_.group_first(low) && index_.group_size(j) > 1) {
                    // The lane man's twins: an un-move may reorder the two fields, so the
                    // predecessor's chunk depends on the lane: lane by lane.
                    for (std::uint64_t t = h; t; t &= t - 1) {
                        const std::uint64_t i = i0 + std::uint64_t(std::countr_zero(t));
                        GenBoard bt = b;
                        bt.man[std::size_t(low)] = Square(std::countr_zero(t) + base);
                        const Bitboard o = occ | square_bb(bt.man[std::size_t(low)]);
                        const Square s = bt.man[std::size_t(j)];
                        for (Bitboard f = retro_quiets_bb(them, pt, s, o) & ~o; f;)
                            apply_one(index_.with_man(i, bt, j, pop_lsb(f)));
                    }
                    continue;
                }
                if (j == low) {
                    // Wins are idempotent: the union of every lane's un-moves, applied once;
                    // each decrement is one move: a lane's un-moves at a time.
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
                // Another man's un-move (a twin pair's written back in order: the lanes keep
                // their field).
                const Square s = b.man[std::size_t(j)];
                for (Bitboard f = retro_quiets_bb(them, pt, s, occ) & ~occ; f;) {
                    const Square o = pop_lsb(f);
                    if (const std::uint64_t lanes = h & ~lanes_of(square_bb(o) | between_bb(s, o)))
                        apply(index_.with_man(i0, b, j, o), lanes);
                }
            }
        }
    return wrote;
}

// The kings' pass over pairs q0 .. q1 - 1: the king un-moves landing there.
template<class Cell>
inline void LevelLoop<Cell>::king_pass(int q0, int q1, Level& level) {
    // The level in registers: the cells are bytes, whose stores may alias any memory read
    // through a reference.
    const int n = level.n;
    const bool lostLevel = level.lost;
    const Cell win = level.win;
    const int bits = index_.field_bits();
    const bool ranked = index_.has_ranked(); // a ranked group's men are not in the fields' test
    bool wrote = false;
    for (int q = q0; q < q1; ++q)
        for (const KingEdge& e : edgesInto_[std::size_t(q)]) {
            const Color c = ~e.mover; // to move in the cells listed
            const std::uint64_t from = std::uint64_t(e.from) << bits;
            const bool residue = index_.residue(from);
            for (int k = 0; k < store_.metrics(); ++k) {
                Cell* const x = store_.array(k, e.mover).data();
                std::uint64_t* const mask = store_.masks(k, e.mover);
                const Cell base = store_.base();
                const ListRun& run = runs_[std::size_t(k)][c][std::size_t(e.from)];
                const std::uint32_t* fields = run.fields ? run.fields->data() : nullptr;
                auto apply = [&](std::uint64_t slot) {
                    if (lostLevel)
                        wrote |= take_win(x, mask, base, slot, win, n + 1);
                    else
                        take_one_move(x, slot, e.mover, k, n);
                };
                if (residue || !e.bitwise) {
                    for (std::uint32_t u = run.begin; u < run.end; ++u) {
                        const std::uint64_t i = from | fields[u];
                        if (index_.man_on(i, e.on) || (ranked && index_.ranked_man_on(i, e.to)))
                            continue;
                        GenBoard b;
                        index_.decode_valid(i, b);
                        if (residue && mirrored(index_.symmetric(b), e.to, e.ks)) continue;
                        apply(e.bitwise ? std::uint64_t(q) << bits | index_.step_fields(i, e.frame)
                                        : index_.with_king(i, b, e.mover, e.to));
                    }
                    continue;
                }
                // The predecessors' slots a batch at a time, their cells asked for before any
                // is read: a transformed edge scatters them over q's cells, more than the
                // nearest cache holds.
                constexpr std::uint32_t kBatch = 32;
                std::uint64_t dst[kBatch];
                for (std::uint32_t u0 = run.begin; u0 < run.end; u0 += kBatch) {
                    int m = 0;
                    for (std::uint32_t u = u0; u < std::min(run.end, u0 + kBatch); ++u) {
                        const std::uint64_t i = from | fields[u];
                        dst[m] = std::uint64_t(q) << bits | index_.step_fields(i, e.frame);
                        __builtin_prefetch(&x[dst[m]], 1);
                        m += !(index_.man_on(i, e.on) || (ranked && index_.ranked_man_on(i, e.to)));
                    }
                    for (int j = 0; j < m; ++j) apply(dst[j]);
                }
            }
        }
    if (wrote) level.wroteWin.store(true, std::memory_order_relaxed);
}

} // namespace mktb

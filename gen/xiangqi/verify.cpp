// verify.cpp - the Xiangqi verifier: every position of a written table checked against its
// legal moves, forward (make the move, look the child up in this table or the smaller one a
// capture leads to, take the best for the mover). It shares the index and the reader with the
// generator, but none of its un-moves, counts or levels.
// A table under the perpetual-check rule has its results checked the same way, as won, drawn
// or lost: a position won under the rule has a move to one lost for the other side, one lost
// has every move to a position won for the other side (the checks a side must give forever
// lead to positions the other side wins), a draw neither; the rule's results only where the
// plain analysis draws. That is the rule's local consistency: which endless lines it decides
// (the fixed points of perpetual.cpp) is tested on hand-checked positions. The rule's distances
// likewise: a winner's is its least lost child's plus one, a loser's above 0 has a child won
// by the rule at one ply less (whether a loser's other moves stay in its cycle is the pass's
// to say, tested on drawn graphs).
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <limits>
#include <mutex>
#include <tuple>

#include "captures.hpp"
#include "follower.hpp"
#include "generate.hpp"
#include "parallel.hpp"
#include "preference.hpp"

namespace mktb::xq {

namespace {

// A legal move as the verifier reads it: the man that moves, the man it takes (-1: none) and,
// for a quiet move, the child's slot in this table.
struct Child {
    int man, victim;
    std::uint64_t slot;
};

} // namespace

std::uint64_t verify(
    const Material& m, const Tablebase& tables, std::string* report, Progress* progress) {
    const Tablebase::Entry* self = tables.table(m);
    if (!self) throw TableError(table_path(tables.dir(), m) + ": no such table");
    const bool rule = self->table->has(kRuleResult);
    const bool wide = self->table->cell_bytes(Metric::Dtm) == 2; // a cell of 0xFF: ask value()
    self->table->make_resident(Table::part(Metric::Dtm, RED) | Table::part(Metric::Dtm, BLACK)
        | (rule ? Table::part(kRuleResult, RED) | Table::part(kRuleResult, BLACK) : 0));
    const Index& index = self->index;
    const Captures captures(index, tables);
    std::atomic<std::uint64_t> bad { 0 };
    std::mutex reportMutex;
    parallel_blocks(index.size(), progress, "verify",
        [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
            BoardFollower board(index);
            // Which man stands on each point (-1: none), for both sides' moves: set for each
            // position's men, and cleared again after it.
            std::array<std::int8_t, POINT_NB> manAt;
            manAt.fill(-1);
            for (Index::Cursor at(index, first); at.slot() < last; at.next()) {
                if (!at.is_position()) continue;
                const std::uint64_t slot = at.slot();
                const Placement& pl = at.placement();
                board.follow(pl);
                Position& pos = board.position();
                if (pos.kings_facing()) continue;
                for (int j = 0; j < index.men(); ++j) manAt[std::size_t(pl.at[j])] = std::int8_t(j);
                const Index::Mover mover(index, slot, pl);
                // Each side's check, found once: it rules out the other side to move, and
                // tells the side to move's move generation which filter it needs.
                const bool check[COLOR_NB] = { pos.in_check(RED), pos.in_check(BLACK) };
                for (Color s : { RED, BLACK }) {
                    if (check[~s]) continue;
                    pos.set_side_to_move(s);
                    const Value stored = self->table->value(Metric::Dtm, s, slot);
                    // The best move's preference (better()'s order): quiet moves' children read
                    // as stored cells, captures' as values.
                    int best = std::numeric_limits<int>::min();
                    int bestResult = -1; // under the rule, for the side to move
                    // Where the rule decides it, its distance: a winner's least lost child's
                    // plus one; a loser's children won by the rule, one at one ply less.
                    const int plies
                        = rule && stored.is_draw() ? Tablebase::rule(*self, s, slot).plies : -1;
                    int leastLost = std::numeric_limits<int>::max();
                    bool reached = plies <= 0;
                    // First every move's child slot, its cell asked for (quiet moves: the
                    // children lie anywhere in this table, a cache miss each), then the values:
                    // the misses overlap instead of following one another.
                    const MoveList moves = legal_moves(pos, check[s]);
                    const std::uint8_t* cells = self->table->resident_cells(Metric::Dtm, ~s);
                    std::array<Child, std::tuple_size_v<decltype(MoveList::moves)>> children;
                    for (int i = 0; i < moves.size; ++i) {
                        const Move mv = moves.moves[std::size_t(i)];
                        Child& c = children[std::size_t(i)];
                        c.man = manAt[std::size_t(from_pt(mv))];
                        c.victim = manAt[std::size_t(to_pt(mv))];
                        if (c.victim >= 0) continue;
                        bool mirrored;
                        c.slot = mover.moved(c.man, to_pt(mv), &mirrored);
                        __builtin_prefetch(cells + c.slot);
                    }
                    for (int i = 0; i < moves.size; ++i) {
                        // A quiet move stays in this table; a capture leads to a smaller one.
                        const Child& c = children[std::size_t(i)];
                        const int to = to_pt(moves.moves[std::size_t(i)]);
                        best = std::max(best,
                            c.victim < 0
                                ? successor_preference(
                                    *self->table, Metric::Dtm, ~s, cells, wide, c.slot)
                                : preference(captures.value(pl, c.man, to, c.victim, s).parent()));
                        if (!rule) continue;
                        const auto [r, p] = c.victim < 0
                            ? Tablebase::rule(*self, ~s, c.slot)
                            : captures.rule(pl, c.man, to, c.victim, s);
                        bestResult = std::max(bestResult, -r);
                        if (plies < 0) continue;
                        if (r < 0) leastLost = std::min(leastLost, p < 0 ? 0 : p);
                        if (r > 0 && p == plies - 1) reached = true;
                    }
                    // No legal move: mated or stalemated, lost either way (spec §4).
                    const Value expected
                        = moves.size ? from_preference(best) : Value::mate_in_plies(0);
                    const int storedResult = rule ? Tablebase::result(*self, s, slot) : 0;
                    const bool pliesOk
                        = plies < 0 || (storedResult > 0 ? plies == leastLost + 1 : reached);
                    const bool ruleOk = !rule
                        || (stored.is_draw() ? storedResult == bestResult && pliesOk
                                             : storedResult == (stored.is_win() ? 1 : -1));
                    if (expected == stored && ruleOk) continue;
                    if (bad.fetch_add(1) < 5 && report) {
                        std::lock_guard lock(reportMutex);
                        *report += pos.fen()
                            + (expected != stored ? ": stored " + describe(stored)
                                        + ", its moves give " + describe(expected)
                                                  : ": stored " + std::to_string(storedResult)
                                        + (plies >= 0 ? " at " + std::to_string(plies) + " plies"
                                                      : std::string())
                                        + " under the rule, its moves give "
                                        + std::to_string(bestResult)
                                        + (plies >= 0 && storedResult > 0
                                                ? " at " + std::to_string(leastLost + 1)
                                                : std::string()))
                            + "\n";
                    }
                }
                for (int j = 0; j < index.men(); ++j) manAt[std::size_t(pl.at[j])] = -1;
            }
        });
    return bad;
}

std::string digest(const Material& m, const Tablebase& tables) {
    const Tablebase::Entry* self = tables.table(m);
    if (!self) throw TableError(table_path(tables.dir(), m) + ": no such table");
    const Table& t = *self->table;
    const Index& index = self->index;
    unsigned parts = 0;
    for (Metric metric : { Metric::Dtm, kRuleResult })
        for (Color s : { RED, BLACK })
            if (t.has(metric) && t.stores(s)) parts |= Table::part(metric, s);
    t.make_resident(parts);
    std::string out;
    for (Metric metric : { Metric::Dtm, kRuleResult }) {
        if (!t.has(metric)) continue;
        // Which cells are positions, found in parallel; then hashed in order (FNV-1a 64).
        std::vector<std::uint8_t> legal(index.size());
        parallel_blocks(
            index.size(), nullptr, "", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
                for (std::uint64_t slot = first; slot < last; ++slot) {
                    Placement pl;
                    if (!index.decode(slot, pl)) continue;
                    const Position pos = index.position(pl, RED);
                    if (pos.kings_facing()) continue;
                    for (Color s : { RED, BLACK })
                        if (!pos.in_check(~s)) legal[slot] |= std::uint8_t(1 << s);
                }
            });
        // The side a packed table lacks: its values as a probe finds them (a one-ply search).
        const auto cell = [&](Color s, std::uint64_t slot) -> unsigned {
            if (t.stores(s)) {
                const unsigned c = t.value(metric, s, slot).cell();
                if (metric == Metric::Dtm) return c;
                // The rule's result alone (the digests were recorded before its distances).
                const int r = rule_cell_result(c);
                return r > 0 ? kRuleWon : r < 0 ? kRuleLost : kRulePlain;
            }
            Placement pl;
            index.decode(slot, pl);
            const Position pos = index.position(pl, s);
            if (metric == Metric::Dtm) return tables.probe(pos)->cell();
            const Value plain = *tables.probe(pos);
            const int r = *tables.probe_result(pos);
            return !plain.is_draw() || !r ? kRulePlain : r > 0 ? kRuleWon : kRuleLost;
        };
        std::uint64_t h = 0xcbf29ce484222325ULL;
        for (Color s : { RED, BLACK })
            for (std::uint64_t slot = 0; slot < index.size(); ++slot)
                if (legal[slot] >> s & 1) h = (h ^ cell(s, slot)) * 0x100000001b3ULL;
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
        out += std::string(out.empty() ? "" : " ") + (metric == Metric::Dtm ? "dtm=" : "rule=")
            + hex;
    }
    return out;
}

} // namespace mktb::xq

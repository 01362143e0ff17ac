// perpetual.hpp - the perpetual-check pass of an ending where both sides are armed
// (docs/rules-xiangqi.md §5): which positions the plain analysis calls drawn are won or lost
// under the rule that an endless line in which one side checks on every move and the other does
// not is lost for the side that checks. The pass is written over any game graph (RulePass), so
// that its fixed points are tested on graphs drawn by hand as well as run on a table's cells.
//
// Rounds of two named phases over the cells the plain analysis left drawn:
//   propagate  a drawn cell with a move to a position lost for its side to move is won; one
//              whose every move leads to a position won for its side to move is lost (the plain
//              analysis's rule, with the rule's results): from every cell once, then from the
//              parents of each cell that changes;
//   perpetual  for each side V that might have to check forever, and its opponent O: the cells
//              from which O can force V's loss or an endless line in which V checks on every move
//              and O does not. As a game: O keeps V's every move a check (safety) and makes a
//              move that is no check infinitely often (Büchi). Its cells are the greatest fixed
//              point Z of the least fixed point Y of
//                O to move: a move that is no check into Z, or any move into Y;
//                V to move: every move leads to a position won for O, or checks into Y.
//              There V to move loses and O to move wins. In a mutual perpetual check (every move
//              of both a check) O has no move that is no check: it stays drawn.
// Under the rule set asian (perpetual chase forbidden too) V may also be a side that chases the
// same man (a kind of O's men, as Edge::chase reports it) on every move: one perpetual(v, T) per
// violation T (check, or chase of kind k), Z's cells being V's whose every move is of T or
// leads to a position won for O. O then must not break the rules itself: it makes infinitely
// often a move that is no check and, for each kind k of V's men, one that does not chase k (a
// generalised Büchi condition: Z is cut by each condition's Y in turn until none cuts it).
// Under check there is one T and one condition, the pass as above.
// A round that decides nothing ends the pass; the rounds are the outer least fixed point (V
// may first leave with a move that is no check, into a position decided in an earlier round).
// Z's first approximation (V's cells whose every move is a check or leads to a position won for
// O) only grows as cells are decided: a child's result goes from drawn to won or lost and never
// back, and a child lost for O decides its parent. So it is found by one sweep before the first
// round and after that only among the parents of the cells decided since (kZ0).
// After the rounds, where asked, one more phase:
//   distance   the rule's distance of each cell it decided (docs/rules-xiangqi.md §5c): in
//              plies, until the loser stands in a cycle it cannot leave but into a loss or by
//              breaking the rule again (0 there), the winner taking the shortest way, the loser
//              the longest. A cell of a perpetual(v, t)'s Y is in the cycle of t; a move of t
//              into a cell of a cycle of t stays in it, every other move into a position won for
//              the other side leaves it. Least values first (a bucket per distance): a winner's
//              cell takes its least lost child plus one, a loser's the most of its won children
//              plus one (moves that stay in its cycle not counted, moves into plain losses
//              neither: a loss by the rule ranks above a plain one), once all are known.
//              Every cell's children that decide it were decided before it, so every cell gets
//              a distance; a winner's is odd and a loser's even.
// Invariant: results are only added, and each phase computes a fixed point, which does not
// depend on the order the cells are visited in: the bytes do not depend on the thread count.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <vector>

#include "captures.hpp"
#include "parallel.hpp"
#include "progress.hpp"

namespace mktb::xq {

struct RuleCounts {
    std::uint64_t won[COLOR_NB] {}, lost[COLOR_NB] {}; // per side to move: decided by the rule
    int rounds = 0;
    int longest = -1; // the longest rule's distance in plies, -1 for none
    double distance_seconds = 0; // of the pass, the distance phase's
};

// A rule's distance while the pass works: the cycle's tag (0 none, else the violation's number
// plus one) in the top bits, the plies below, kNoPlies until known.
inline constexpr unsigned kPliesBits = 13;
inline constexpr std::uint16_t kNoPlies = (1u << kPliesBits) - 1;

// `plain[s]`: the plain cells (kNone, 0 draw, plies + 1) of `index`'s ending for side s to move,
// final. Writes `rule[s]` (n bytes each, any content before): a RuleCell per slot, kRulePlain
// wherever the plain value is not a draw. `captures` gives the rule's results of the children.
// `chase`: the rule set asian (perpetual chase forbidden too), else check. Writes `plies[s]`
// (n cells each, any content before): the rule's distance of each cell the rule decides, the
// others' kNoPlies.
RuleCounts perpetual_check(const Index& index, const Captures& captures,
    const std::uint8_t* const plain[COLOR_NB], std::uint8_t* const rule[COLOR_NB],
    std::uint16_t* const plies[COLOR_NB], Progress* progress, bool chase = false);

// A move's end as a game graph reports it: a cell of the graph (side ~s to move, `slot`), or a
// position outside it (a capture) with its result under the rule for its side to move.
struct Edge {
    bool inside;
    std::uint64_t slot; // inside
    int result; // outside: +1 won, 0 drawn, -1 lost
    std::uint8_t chase = 0; // inside, for a pass that asks: the kinds it chases (bit per kind)
    int plies = -1; // outside, a result the rule decided: its distance (else -1)
};

// The pass over a game graph G of two sides' cells, slots [0, g.size()):
//   g.size(), g.plain(s): the plain cells as above;
//   g.walker(): an object, one per thread, with in_check(s, slot) (the side to move is in check:
//     a move into that cell was a check) and edges(s, slot, f) calling f(Edge) for each legal
//     move of side s; a walker may assume its calls come in increasing slot order mostly;
//   g.parents(s, slot, f): f(q) for each cell (~s, q) with a move into (s, slot).
// `chaseable`: under asian, for each side the kinds of its men a move may chase (bit per kind;
// each edge's Edge::chase then says which it does); all 0 under check. `plies`: the rule's
// distances' cells (as perpetual_check's).
template<class G>
class RulePass {
public:
    RulePass(const G& g, std::uint8_t* const rule[COLOR_NB], std::uint16_t* const plies[COLOR_NB],
        std::array<std::uint8_t, COLOR_NB> chaseable = {})
        : g_(g)
        , n_(g.size())
        , rule_ { rule[RED], rule[BLACK] }
        , plies_ { plies[RED], plies[BLACK] }
        , chaseable_(chaseable) {
        for (Color s : { RED, BLACK }) plain_[s] = g.plain(s);
    }

    RuleCounts run(Progress* progress) {
        RuleCounts counts;
        init();
        // The captures' results first (a child's rule may decide a drawn parent), then rounds.
        propagate(sweep(
            3, [](Color, std::uint8_t) { return true; }, propagated, false));
        // Z's first approximation of each side, grown after each round from the cells decided.
        sweep(
            3, [](Color, std::uint8_t) { return true; }, z0, chases());
        for (;;) {
            ++counts.rounds;
            if (progress)
                progress->phase("perpetual check, round " + std::to_string(counts.rounds), 0);
            std::uint64_t decided = 0;
            for (Color v : { RED, BLACK }) {
                const std::vector<Violation> ts = violations(v);
                for (std::size_t i = 0; i < ts.size(); ++i) {
                    const Cells d = propagate(perpetual(v, ts[i], int(i)));
                    decided += d.size();
                    grow_z0(d); // before the next Z is taken, as a sweep would find it
                }
            }
            if (!decided) break;
        }
        const auto start = std::chrono::steady_clock::now();
        counts.longest = distances(progress);
        counts.distance_seconds
            = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        std::atomic<std::uint64_t> won[COLOR_NB] {}, lost[COLOR_NB] {};
        each_cell([&](Color s, std::uint64_t, std::uint8_t& c) {
            c &= kResult;
            if (c == kRuleWon) ++won[s];
            if (c == kRuleLost) ++lost[s];
        });
        for (Color s : { RED, BLACK }) counts.won[s] = won[s], counts.lost[s] = lost[s];
        return counts;
    }

private:
    // A rule cell while the pass works: its RuleCell in the low bits, then the working bits.
    // kZ0Chase: as kZ0 with "chases a man" for "checks" (under asian; the kind is asked later).
    static constexpr std::uint8_t kResult = 3, kInCheck = 4, kZ = 8, kY = 16, kZ0 = 32,
                                  kZ0Chase = 64;
    static constexpr int kMaxMoves = 192;
    using Cells = std::vector<std::uint64_t>; // slot * 2 + side to move

    struct Child {
        int result; // for the child's side to move: +1 won, 0 drawn, -1 lost
        std::uint8_t bits; // the child's rule cell (a move within the graph), 0 outside
        bool quiet; // a move within the graph (not a capture)
        std::uint8_t chase; // the kinds the move chases (asian)
    };

    // What a side breaks the rules with on every move: check (kind 0), or chasing a man of
    // kind `kind`; for the side that must not break them, what one of its moves must not be.
    struct Violation {
        std::uint8_t kind; // 0: check, else the bit of the kind chased
        bool of(const Child& c) const {
            return c.quiet && (kind ? (c.chase & kind) : (c.bits & kInCheck));
        }
    };
    // V's ways of breaking the rules: check, and under asian chasing each kind of O's men.
    std::vector<Violation> violations(Color v) const {
        std::vector<Violation> out { { 0 } };
        for (unsigned k = chaseable_[~v]; k; k &= k - 1) out.push_back({ std::uint8_t(k & -k) });
        return out;
    }

    // propagate: won with a move to a position lost for its side to move, lost when every
    // move leads to a position won for its side to move. (Closures, not functions, as the
    // rules: each evaluate() is then compiled with its rule inlined.)
    static constexpr auto propagated
        = [](Color, std::uint8_t, std::span<const Child> children) -> std::uint8_t {
        bool allWon = true;
        for (const Child& c : children) {
            if (c.result < 0) return kRuleWon;
            allWon &= c.result > 0;
        }
        return allWon ? kRuleLost : 0;
    };

    // Z's condition for a cell of V (its side to move): every move a check (into a cell, not a
    // capture) or into a position won for O; and (kZ0Chase) every move a chase or into one.
    static constexpr auto z0
        = [](Color, std::uint8_t, std::span<const Child> children) -> std::uint8_t {
        std::uint8_t out = kZ0 | kZ0Chase;
        for (const Child& c : children) {
            if (c.result > 0) continue;
            if (!(c.quiet && (c.bits & kInCheck))) out &= std::uint8_t(~kZ0);
            if (!(c.quiet && c.chase)) out &= std::uint8_t(~kZ0Chase);
        }
        return out;
    };
    bool chases() const { return chaseable_[RED] | chaseable_[BLACK]; }
    std::uint8_t z0Bits() const {
        return kZ0 | (chaseable_[RED] | chaseable_[BLACK] ? kZ0Chase : 0);
    }

    // Z's first approximation after the cells `decided` were: their undecided parents not in it
    // yet, evaluated again.
    void grow_z0(const Cells& decided) const {
        const std::uint8_t all = z0Bits();
        const auto out = [all](Color, std::uint8_t b) { return (b & all) != all; };
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, decided.size(), 256),
            [&](const tbb::blocked_range<std::size_t>& r) {
                auto w = g_.walker();
                for (std::size_t i = r.begin(); i != r.end(); ++i) {
                    const Color ps = ~Color(decided[i] & 1);
                    parents(decided[i], [&](std::uint64_t q) {
                        if (out(ps, bits(ps, q))) evaluate(w, ps, q, z0, chases());
                    });
                }
            });
    }

    std::uint8_t bits(Color s, std::uint64_t slot) const {
        return std::atomic_ref(rule_[s][slot]).load(std::memory_order_relaxed);
    }
    // Adds `add` to a cell; true for the one caller that added it.
    bool add(Color s, std::uint64_t slot, std::uint8_t add) const {
        return (std::atomic_ref(rule_[s][slot]).fetch_or(add, std::memory_order_relaxed) & add)
            != add;
    }
    bool undecided(Color s, std::uint64_t slot) const {
        return !plain_[s][slot] && !(bits(s, slot) & kResult);
    }
    int result(Color s, std::uint64_t slot, std::uint8_t b) const {
        if (const std::uint8_t v = plain_[s][slot]) return Value::from_cell(v).is_win() ? 1 : -1;
        const int r = b & kResult;
        return r == kRuleWon ? 1 : r == kRuleLost ? -1 : 0;
    }

    // Adds the bits decide(s, bits, children) gives to cell (s, slot); true when this call
    // added them.
    template<class Walker, class Decide>
    bool evaluate(Walker& w, Color s, std::uint64_t slot, Decide& decide, bool labels) const {
        Child children[kMaxMoves];
        int k = 0;
        w.edges(s, slot, labels, [&](const Edge& e) {
            if (k == kMaxMoves) throw std::logic_error("perpetual check: too many moves");
            if (!e.inside)
                children[k++] = { e.result, 0, false, 0 };
            else {
                const std::uint8_t cb = bits(~s, e.slot);
                children[k++] = { result(~s, e.slot, cb), cb, true, e.chase };
            }
        });
        const std::uint8_t a = decide(s, bits(s, slot), std::span<const Child>(children, k));
        return a && add(s, slot, a);
    }

    // Evaluates once every undecided cell of the sides in `sides` (a bit per side) that
    // want(s, bits) takes; returns those that changed.
    template<class Want, class Decide>
    Cells sweep(unsigned sides, Want want, Decide decide, bool labels) const {
        tbb::enumerable_thread_specific<Cells> changed;
        parallel_blocks(
            n_, nullptr, "", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
                auto w = g_.walker();
                Cells& out = changed.local();
                for (std::uint64_t slot = first; slot < last; ++slot)
                    for (Color s : { RED, BLACK })
                        if ((sides >> s & 1) && undecided(s, slot) && want(s, bits(s, slot))
                            && evaluate(w, s, slot, decide, labels))
                            out.push_back(slot * 2 + s);
            });
        return flatten(changed);
    }

    // Calls f(parent slot) for every undecided cell with a move into `cell` (its side ~s).
    template<class F>
    void parents(std::uint64_t cell, F&& f) const {
        const Color s = Color(cell & 1);
        g_.parents(s, cell >> 1, [&](std::uint64_t q) {
            if (undecided(~s, q)) f(q);
        });
    }

    // Breadth first from `frontier` until it is empty: step(cell, out) visits a cell that
    // changed and puts those it changes in turn into `out`; every cell visited is added to
    // `visited` (when given).
    template<class Step>
    void spread(Cells frontier, Step step, Cells* visited = nullptr) const {
        while (!frontier.empty()) {
            if (visited) visited->insert(visited->end(), frontier.begin(), frontier.end());
            tbb::enumerable_thread_specific<Cells> next;
            tbb::parallel_for(tbb::blocked_range<std::size_t>(0, frontier.size(), 256),
                [&](const tbb::blocked_range<std::size_t>& r) {
                    Cells& out = next.local();
                    for (std::size_t i = r.begin(); i != r.end(); ++i) step(frontier[i], out);
                });
            frontier = flatten(next);
        }
    }

    // Evaluates each parent of `cell` that want() takes; those that change go to `out`.
    template<class Want, class Decide>
    void reevaluate_parents(
        std::uint64_t cell, Cells& out, Want want, Decide decide, bool labels) const {
        auto w = g_.walker();
        const Color ps = ~Color(cell & 1);
        parents(cell, [&](std::uint64_t q) {
            if (want(ps, bits(ps, q)) && evaluate(w, ps, q, decide, labels))
                out.push_back(q * 2 + ps);
        });
    }

    static Cells flatten(tbb::enumerable_thread_specific<Cells>& parts) {
        Cells all;
        for (Cells& c : parts) all.insert(all.end(), c.begin(), c.end());
        return all;
    }

    // Applies f(side, slot, cell) to every cell, one writer per cell.
    template<class F>
    void each_cell(F f) const {
        parallel_blocks(
            n_, nullptr, "", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
                for (std::uint64_t slot = first; slot < last; ++slot)
                    for (Color s : { RED, BLACK }) f(s, slot, rule_[s][slot]);
            });
    }

    void init() const {
        parallel_blocks(
            n_, nullptr, "", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
                auto w = g_.walker();
                for (std::uint64_t slot = first; slot < last; ++slot)
                    for (Color s : { RED, BLACK }) {
                        rule_[s][slot] = !plain_[s][slot] && w.in_check(s, slot)
                            ? kInCheck
                            : std::uint8_t(kRulePlain);
                        plies_[s][slot] = kNoPlies;
                    }
            });
    }

    // distance: the rule's distance of every cell the rounds decided (see the top); returns
    // the longest.
    int distances(Progress* progress) const {
        if (progress) progress->phase("perpetual check, distances", 0);
        // A cell's plies and its cycle's tag (which never changes in this phase, but shares
        // the word other threads write).
        const auto word = [this](Color s, std::uint64_t slot) {
            return unsigned(std::atomic_ref(plies_[s][slot]).load(std::memory_order_relaxed));
        };
        const auto plies = [&](Color s, std::uint64_t slot) { return word(s, slot) & kNoPlies; };
        const auto tagOf = [&](Color s, std::uint64_t slot) { return word(s, slot) >> kPliesBits; };
        // A cell's distance from its children, those known being the ones of at most `known`
        // plies (-1: none yet); nullopt while one it needs is not known.
        const auto value
            = [&](auto& w, Color s, std::uint64_t slot, int known) -> std::optional<unsigned> {
            const bool won = (rule_[s][slot] & kResult) == kRuleWon;
            const unsigned tag = tagOf(s, slot);
            const Violation t = tag ? violations(s)[tag - 1] : Violation { 0 };
            unsigned best = won ? kNoPlies : 0;
            bool ready = true;
            w.edges(s, slot, !won && tag && t.kind, [&](const Edge& e) {
                // The children that count: for a winner a position lost for its side to move
                // (a plain loss at 0: it is left only into a loss), for a loser one won for it
                // by the rule.
                unsigned p;
                if (!e.inside) {
                    if (won ? e.result >= 0 : e.result <= 0 || e.plies < 0) return;
                    p = e.plies < 0 ? 0 : unsigned(e.plies);
                } else {
                    const std::uint8_t cb = bits(~s, e.slot);
                    const int r = result(~s, e.slot, cb);
                    if ((won ? r >= 0 : r <= 0) || plain_[~s][e.slot]) return;
                    if (!won && tag && tagOf(~s, e.slot) == tag && t.of({ r, cb, true, e.chase }))
                        return; // stays in the cycle
                    p = plies(~s, e.slot);
                    if (p == kNoPlies || int(p) > known) {
                        ready = false;
                        return;
                    }
                }
                best = won ? std::min(best, p + 1) : std::max(best, p + 1);
            });
            if (won) return best == kNoPlies ? std::nullopt : std::optional(best);
            return ready ? std::optional(best) : std::nullopt;
        };
        std::vector<Cells> bucket(1);
        // Puts cell (s, slot) at `p` plies when that is below what it holds; one caller wins.
        const auto offer = [&](Color s, std::uint64_t slot, unsigned p,
                               std::vector<std::pair<unsigned, std::uint64_t>>& out) {
            if (p >= kNoPlies)
                throw std::logic_error("perpetual check: a rule's distance over "
                    + std::to_string(kNoPlies - 1) + " plies");
            std::atomic_ref cell(plies_[s][slot]);
            std::uint16_t old = cell.load(std::memory_order_relaxed);
            while ((old & kNoPlies) > p)
                if (cell.compare_exchange_weak(
                        old, std::uint16_t((old & ~kNoPlies) | p), std::memory_order_relaxed)) {
                    out.emplace_back(p, slot * 2 + s);
                    return;
                }
        };
        const auto file
            = [&](tbb::enumerable_thread_specific<std::vector<std::pair<unsigned, std::uint64_t>>>&
                      parts) {
                  for (auto& part : parts)
                      for (const auto& [p, cell] : part) {
                          if (bucket.size() <= p) bucket.resize(p + 1);
                          bucket[p].push_back(cell);
                      }
              };
        // The cells known from their captures alone (a winner's capture into a loss, a loser
        // whose every counted move is a capture or none, in its cycle).
        {
            tbb::enumerable_thread_specific<std::vector<std::pair<unsigned, std::uint64_t>>> out;
            parallel_blocks(
                n_, nullptr, "", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
                    auto w = g_.walker();
                    auto& o = out.local();
                    for (std::uint64_t slot = first; slot < last; ++slot)
                        for (Color s : { RED, BLACK })
                            if (!plain_[s][slot] && (rule_[s][slot] & kResult) != kRulePlain)
                                if (const auto p = value(w, s, slot, -1)) offer(s, slot, *p, o);
                });
            file(out);
        }
        // Least distances first: a cell of p plies is final once bucket p is reached.
        for (unsigned p = 0; p < bucket.size(); ++p) {
            Cells cells = std::move(bucket[p]);
            tbb::enumerable_thread_specific<std::vector<std::pair<unsigned, std::uint64_t>>> out;
            tbb::parallel_for(tbb::blocked_range<std::size_t>(0, cells.size(), 256),
                [&](const tbb::blocked_range<std::size_t>& r) {
                    auto w = g_.walker();
                    auto& o = out.local();
                    for (std::size_t i = r.begin(); i != r.end(); ++i) {
                        const Color s = Color(cells[i] & 1);
                        if (plies(s, cells[i] >> 1) != p) continue; // since bettered
                        // A winner's parent of a loser's cell, or a loser's of a winner's.
                        const Color ps = ~s;
                        const std::uint8_t want = (rule_[s][cells[i] >> 1] & kResult) == kRuleLost
                            ? kRuleWon
                            : kRuleLost;
                        g_.parents(s, cells[i] >> 1, [&](std::uint64_t q) {
                            if (plain_[ps][q] || (rule_[ps][q] & kResult) != want
                                || plies(ps, q) <= p)
                                return;
                            if (want == kRuleWon)
                                offer(ps, q, p + 1, o);
                            else if (const auto v = value(w, ps, q, int(p)))
                                offer(ps, q, *v, o);
                        });
                    }
                });
            file(out);
        }
        std::atomic<std::uint64_t> missing = 0;
        std::atomic<int> longest = -1;
        each_cell([&](Color s, std::uint64_t slot, std::uint8_t& c) {
            if (plain_[s][slot] || (c & kResult) == kRulePlain) return;
            const int p = int(plies(s, slot));
            if (p == kNoPlies)
                ++missing;
            else
                for (int l = longest.load(); p > l && !longest.compare_exchange_weak(l, p);) { }
        });
        if (missing)
            throw std::logic_error("perpetual check: " + std::to_string(missing.load())
                + " cells decided by the rule without a distance");
        return longest.load();
    }

    // The rule's results spread from `changed` (cells just decided) to their ancestors;
    // returns every cell decided (`changed` with them).
    Cells propagate(Cells changed) const {
        const auto any = [](Color, std::uint8_t) { return true; };
        Cells decided;
        spread(
            std::move(changed),
            [&](std::uint64_t cell, Cells& out) {
                reevaluate_parents(cell, out, any, propagated, false);
            },
            &decided);
        return decided;
    }

    // The cells where V must break the rules by `t` (violations(v)[tag]) forever or lose,
    // decided and put in the cycle of t; returns them.
    Cells perpetual(Color v, Violation t, int tag) const {
        const Color o = ~v;
        // Z: V's undecided cells that cannot leave with a move that is not of t (or a capture)
        // to a position not won for O (kZ0, grown round by round; for a chase, the cells of
        // kZ0Chase that chase t's kind on every such move), as a list: the loop below visits Z
        // and Y, never every cell.
        const auto inZ = [t](Color, std::uint8_t, std::span<const Child> children) -> std::uint8_t {
            for (const Child& c : children)
                if (c.result <= 0 && !t.of(c)) return 0;
            return kZ;
        };
        tbb::enumerable_thread_specific<Cells> found;
        parallel_blocks(
            n_, nullptr, "", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
                auto w = g_.walker();
                Cells& out = found.local();
                for (std::uint64_t slot = first; slot < last; ++slot) {
                    std::uint8_t& c = rule_[v][slot];
                    if (!(c & (t.kind ? kZ0Chase : kZ0)) || !undecided(v, slot)) continue;
                    if (!t.kind)
                        c |= kZ;
                    else if (!evaluate(w, v, slot, inZ, true))
                        continue;
                    out.push_back(slot);
                }
            });
        Cells z = flatten(found), y;
        // V's cells in Z: every move leads to a position won for O, or is of t into Y.
        const auto vWant = [](Color, std::uint8_t b) { return (b & (kZ | kY)) == kZ; };
        const auto vDecide
            = [t](Color, std::uint8_t, std::span<const Child> children) -> std::uint8_t {
            for (const Child& c : children)
                if (c.result <= 0 && !(t.of(c) && (c.bits & kY))) return 0;
            return kY;
        };
        // O's conditions, taken in turn until none cuts Z: a move into Z that is no check, and
        // under asian for each kind of V's men one that does not chase it.
        std::vector<Violation> conditions { { 0 } };
        for (unsigned k = chaseable_[v]; k; k &= k - 1)
            conditions.push_back({ std::uint8_t(k & -k) });
        for (std::size_t j = 0, uncut = 0;; j = (j + 1) % conditions.size()) {
            const Violation innocent = conditions[j];
            // Y's seeds: O's cells with a move into Z that is not of the condition's kind.
            const auto seed
                = [innocent](Color, std::uint8_t, std::span<const Child> children) -> std::uint8_t {
                for (const Child& c : children)
                    if (c.quiet && (c.bits & kZ) && !innocent.of(c)) return kY;
                return 0;
            };
            tbb::enumerable_thread_specific<Cells> seeds;
            tbb::parallel_for(tbb::blocked_range<std::size_t>(0, z.size(), 256),
                [&](const tbb::blocked_range<std::size_t>& r) {
                    Cells& out = seeds.local();
                    auto w = g_.walker();
                    for (std::size_t i = r.begin(); i != r.end(); ++i) {
                        if (!innocent.kind) { // no check: a property of the cell entered
                            if (!(bits(v, z[i]) & kInCheck))
                                parents(z[i] * 2 + v, [&](std::uint64_t q) {
                                    if (add(o, q, kY)) out.push_back(q * 2 + o);
                                });
                        } else // no chase of a kind: of the move, so each parent is asked
                            parents(z[i] * 2 + v, [&](std::uint64_t q) {
                                if (!(bits(o, q) & kY) && evaluate(w, o, q, seed, true))
                                    out.push_back(q * 2 + o);
                            });
                    }
                });
            y.clear();
            spread(
                flatten(seeds),
                [&](std::uint64_t cell, Cells& out) {
                    if (Color(cell & 1) == v) // O's cells with a move into Y join it
                        parents(cell, [&](std::uint64_t q) {
                            if (add(o, q, kY)) out.push_back(q * 2 + o);
                        });
                    else
                        reevaluate_parents(cell, out, vWant, vDecide, t.kind != 0);
                },
                &y);
            // Z less its cells outside Y; until no condition cuts it, Y found again from the
            // rest.
            const std::size_t before = z.size();
            std::erase_if(z, [&](std::uint64_t slot) {
                std::uint8_t& c = rule_[v][slot];
                if (c & kY) return false;
                c &= std::uint8_t(~kZ);
                return true;
            });
            uncut = z.size() == before ? uncut + 1 : 0;
            if (uncut == conditions.size()) break;
            for (std::uint64_t cell : y) rule_[cell & 1][cell >> 1] &= std::uint8_t(~kY);
        }
        // Y (Z within it): lost for V to move, won for O to move.
        tbb::parallel_for(tbb::blocked_range<std::size_t>(0, y.size(), 4096),
            [&](const tbb::blocked_range<std::size_t>& r) {
                for (std::size_t i = r.begin(); i != r.end(); ++i) {
                    const Color s = Color(y[i] & 1);
                    std::uint8_t& c = rule_[s][y[i] >> 1];
                    c = std::uint8_t((c & ~(kZ | kY)) | (s == v ? kRuleLost : kRuleWon));
                    plies_[s][y[i] >> 1] = std::uint16_t((tag + 1) << kPliesBits | kNoPlies);
                }
            });
        // Cells Z lost along the way keep no kZ (cleared as they were cut).
        return y;
    }

    const G& g_;
    std::uint64_t n_;
    const std::uint8_t* plain_[COLOR_NB];
    std::uint8_t* rule_[COLOR_NB];
    std::uint16_t* plies_[COLOR_NB];
    std::array<std::uint8_t, COLOR_NB> chaseable_;
};

} // namespace mktb::xq

// counter_check.hpp - the debug check of the level loop's counters (GenOptions::check_counters):
// every loss a counter finds, and every position left undecided at the end, checked by forward
// move generation over the cells.
//
// Invariant: reads cells only, never writes one; a disagreement throws std::logic_error naming
// the level and both distances.
#pragma once

#include <limits>
#include <optional>
#include <tbb/enumerable_thread_specific.h>

#include "cell_store.hpp"
#include "gen_moves.hpp"

namespace mktb {

template<class Cell>
class CounterCheck {
public:
    using Store = CellStore<Cell>;
    CounterCheck(const GenIndex& index, const Store& store, const GenMoves& moves, std::string name,
        Progress* progress)
        : index_(index)
        , store_(store)
        , moves_(moves)
        , name_(std::move(name))
        , progress_(progress) { }

    // A counter of side c in metric k reached 0 at level n, giving a loss in l plies.
    void check_loss(const GenBoard& b, Color c, int k, int n, int l) {
        const auto f = forward_loss(b, c, k, n);
        if (!f || *f != l)
            throw std::logic_error(name_ + ": a counter found a loss in " + std::to_string(l)
                + " plies at level " + std::to_string(n) + ", the forward check "
                + (f ? std::to_string(*f) : std::string("none")));
    }

    // After the level loop: no position left undecided is lost.
    void check_undecided() {
        parallel_blocks(index_.size(), progress_, name_ + ": check counters",
            [&](std::uint64_t, std::uint64_t begin, std::uint64_t end) {
                for (std::uint64_t i = begin; i < end; ++i) {
                    GenBoard b;
                    if (!index_.decode(i, b)) continue;
                    for (int k = 0; k < store_.metrics(); ++k)
                        for (Color c : { WHITE, BLACK })
                            if (store_.is_counter(store_.cell(k, c, i))
                                && forward_loss(b, c, k, std::numeric_limits<int>::max()))
                                throw std::logic_error(name_
                                    + ": a position left undecided is lost by the forward check");
                }
            });
    }

private:
    // The loss of a position all of whose in-table moves are known to reach opponent wins of
    // at most `level` plies, checked move by move over the cells; nullopt when it is not (yet)
    // lost.
    std::optional<int> forward_loss(const GenBoard& b, Color c, int k, int level) {
        int longest = -1;
        bool lost = true, inCheck;
        std::optional<Value> bestConv;
        auto& cursor = cursors_.local();
        moves_.moves(
            b, c, moves_.occupancy(b), inCheck,
            [&](int j, Square to) {
                GenBoard a = b;
                (j < 0 ? a.king[c] : a.man[std::size_t(j)]) = to;
                const std::uint64_t i = index_.encode(a);
                const Cell x = store_.cell(k, ~c, i);
                // A far decision lies beyond every level done: not (yet) a win within `level`.
                const Value v = x == Store::kFarWin || x == Store::kFarLoss
                    ? Value::draw()
                    : store_.final_value(k, ~c, i, x, cursor);
                if (!v.is_win() || v.plies > level)
                    lost = false;
                else
                    longest = std::max(longest, v.plies);
            },
            [&](int j, Square to, int jc, bool promotes) {
                std::array<Value, kMaxMetrics> v;
                moves_.conversion(b, c, j, to, jc, promotes, v);
                if (!bestConv || better(v[std::size_t(k)], *bestConv)) bestConv = v[std::size_t(k)];
            });
        if (!lost) return std::nullopt;
        if (bestConv) {
            if (!bestConv->is_loss()) return std::nullopt;
            longest = std::max(longest, bestConv->plies - 1);
        }
        if (longest < 0) return std::nullopt;
        return longest + 1;
    }

    const GenIndex& index_;
    const Store& store_;
    const GenMoves& moves_;
    std::string name_;
    Progress* progress_;
    tbb::enumerable_thread_specific<typename Spill<Cell>::Cursor> cursors_;
};

} // namespace mktb

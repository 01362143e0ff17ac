// statistics.hpp - the figures the output phase counts while it stores the cells: per side to
// move, positions won, drawn and lost (by moves to mate), the longest mate and won or lost within
// a fresh count, over distinct boards (a cell stands for its orbit under the symmetries).
//
// Invariant: every tally is a sum or a minimum over cells, taken per thread and combined once,
// so the figures do not depend on the thread count or order; the longest mate's position is the
// one with the smallest slot in the storage Index's first scheme, whichever scheme is stored.
#pragma once

#include <tbb/combinable.h>

#include "generator.hpp"

namespace mktb {

class StatsTally {
public:
    // `counted`: the metric the counted figures come from (its index among the stored ones,
    // -1: none), under `rules`; `maxLevel`: the longest distance any cell holds.
    StatsTally(const Material& m, const std::vector<Metric>& metrics, const CountRules& rules,
        int maxLevel);

    struct Local {
        std::array<SideStats, COLOR_NB> side;
        std::array<std::vector<std::uint64_t>, COLOR_NB> wins, losses; // by moves
        std::array<std::uint64_t, COLOR_NB> longestSlot { ~0ULL, ~0ULL };
    };
    Local& local() { return locals_.local(); }

    // `weight` positions of side c to move with value v in metric k.
    void count(Local& l, int k, Color c, Value v, std::uint64_t weight) const {
        if (k == counted_ && !v.is_draw() && countedDecided_[c][std::size_t(v.plies)])
            (v.is_win() ? l.side[c].counted_wins : l.side[c].counted_losses) += weight;
        if (k != 0) return;
        SideStats& s = l.side[c];
        s.legal += weight;
        if (v.is_draw()) {
            s.draws += weight;
            return;
        }
        (v.is_win() ? s.wins : s.losses) += weight;
        auto& h = v.is_win() ? l.wins[c] : l.losses[c];
        const auto moves = std::size_t(std::abs(v.mate_in_moves()));
        if (h.size() <= moves) h.resize(moves + 1);
        h[moves] += weight;
    }
    // A mate in `plies` (metric k, side c to move) at the position whose slot in the first
    // scheme name() gives, asked only when it may be the longest.
    template<class Name>
    void longest(Local& l, int k, Color c, int plies, Name&& name) const {
        SideStats& s = l.side[c];
        if (k != 0 || plies < 0 || plies < s.longest_plies) return;
        const std::uint64_t slot = name();
        if (plies > s.longest_plies || slot < l.longestSlot[c]) {
            s.longest_plies = plies;
            l.longestSlot[c] = slot;
        }
    }

    // The figures of every thread and every rank, with the longest mates' FENs.
    void finish(TableStats& stats, Ranks& ranks);

private:
    const Material& material_;
    int counted_ = -1;
    // Per side to move and distance in plies: won or lost within a fresh count.
    std::array<std::vector<bool>, COLOR_NB> countedDecided_;
    tbb::combinable<Local> locals_;
};

} // namespace mktb

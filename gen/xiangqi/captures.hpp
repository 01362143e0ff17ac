// captures.hpp - where a capture leads: for each man of an ending that can be captured, the
// table of the smaller ending (opened once) and how the men that remain map onto its index
// (colours exchanged where its Red is this ending's Black). The generator values its positions'
// captures through it, the verifier every capture it checks.
//
// The children are read through the reader's block cache, not made resident: the captures of
// consecutive slots land in few blocks of a child, so the cache serves them nearly as fast as
// resident cells would, in a fixed amount of memory (docs/measurements.md has the figures).
#pragma once

#include <array>
#include <string>

#include "xiangqi_tables.hpp"

namespace mktb::xq {

class Captures {
public:
    // Throws TableError when a table `index`'s ending converts into is missing or damaged.
    Captures(const Index& index, const Tablebase& tables)
        : index_(index) {
        const Material& m = index.material();
        for (int victim = 2; victim < index.men(); ++victim) {
            const Piece captured = index.piece(victim);
            Material child = m;
            --child.count[color_of(captured)][type_of(captured)];
            const bool swap = !child.is_canonical();
            child = child.canonical();
            const Tablebase::Entry* e = tables.table(child);
            if (!e)
                throw TableError("the table of " + child.name() + " (Xiangqi), which " + m.name()
                    + " converts into, is missing: make it first (mktb gen --game xiangqi makes "
                      "every smaller ending an ending needs)");
            Victim& v = victims_[victim];
            v.entry = e, v.swap = swap;
            const std::uint32_t rule = e->table->rules();
            if (has_rule_cells(rule) && !has_rule_plies(rule)) without_plies_ = child.name();
            // Each remaining man's place in the child's index: the next free one of its piece.
            std::array<int, 16> used {};
            for (int j = 0; j < index.men(); ++j) {
                if (j == victim) continue;
                const Piece pc = swap
                    ? make_piece(~color_of(index.piece(j)), type_of(index.piece(j)))
                    : index.piece(j);
                int k = 0;
                while (e->index.piece(k) != pc || used[k]) ++k;
                used[k] = 1;
                v.to[j] = std::int8_t(k);
            }
        }
    }
    // The value, for its side to move, of the position reached when the side to move of `pl`
    // (`stm`) moves its man `mover` to `to`, capturing man `victim` there.
    Value value(const Placement& pl, int mover, int to, int victim, Color stm) const {
        const auto [e, slot, childStm] = locate(pl, mover, to, victim, stm);
        return e->table->value(Metric::Dtm, childStm, slot);
    }
    // The result of that position under the repetition rules, for its side to move (+1 won,
    // 0 drawn, -1 lost), and where only the rules decide it the rule's distance (else -1).
    Tablebase::Rule rule(const Placement& pl, int mover, int to, int victim, Color stm) const {
        const auto [e, slot, childStm] = locate(pl, mover, to, victim, stm);
        return Tablebase::rule(*e, childStm, slot);
    }
    // A child whose table holds the rule's results without their distances (made before
    // them), or "": a generator that needs the distances refuses it.
    const std::string& without_plies() const { return without_plies_; }

private:
    struct Place {
        const Tablebase::Entry* entry;
        std::uint64_t slot;
        Color stm;
    };
    Place locate(const Placement& pl, int mover, int to, int victim, Color stm) const {
        const Victim& v = victims_[victim];
        Placement child;
        for (int j = 0; j < index_.men(); ++j) {
            if (j == victim) continue;
            const int p = j == mover ? to : pl.at[j];
            child.at[v.to[j]] = std::int8_t(v.swap ? flip_rank(p) : p);
        }
        // After the move the other side is to move, in the child's colours.
        return { v.entry, v.entry->index.encode(child), v.swap ? stm : ~stm };
    }
    struct Victim {
        const Tablebase::Entry* entry = nullptr;
        bool swap = false;
        std::array<std::int8_t, 16> to {};
    };
    const Index& index_;
    std::array<Victim, 16> victims_ {};
    std::string without_plies_;
};

} // namespace mktb::xq

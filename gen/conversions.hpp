// conversions.hpp - the values captures and promotions give the generation: per kind of
// conversion (which man is captured, which Bia promotes) a recipe that places the men in the
// child's index and turns the child's stored cells into each generated metric's value.
//
// Invariant: a recipe's value table holds, for every cell value of the child's metric read,
// exactly what conversion_value() (mktb/tablefile.hpp) gives it; the child's cells are resident
// and read without locks, so value() may be called from any thread.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "gen_index.hpp"
#include "spill.hpp"
#include "tablebase.hpp"

namespace mktb {

// A board of material m with side to move stm, men on arbitrary squares: what the counting
// functions read from a position (men, their kinds, the side to move) is all that it carries.
Position representative(const Material& m, Color stm);

// What a conversion of one kind (man jc captured, -1 none; Bia jp promoted, -1 none) of the
// ending of `gi` reads: the child's canonical material, whether its colours are this table's
// swapped, and the child's side to move after it, in the child's colours. `bareKings`: nothing
// left to read (a draw).
struct ChildRead {
    Material child;
    bool swapped = false;
    Color stm = WHITE;
    bool bareKings = false;
};
ChildRead child_read(const GenIndex& gi, int jc, int jp);
// Calls fn(jc, jp) for each kind of conversion the ending of `gi` has: a man captured (the first
// of his group: the others share it), a Bia promoted, or both.
template<class Fn>
void for_each_conversion_kind(const GenIndex& gi, Fn&& fn) {
    for (int jc = -1; jc < gi.men(); ++jc)
        for (int jp = -1; jp < gi.men(); ++jp) {
            if (jp >= 0 && gi.type(jp) != BIA) continue;
            if (jc >= 0 && jp >= 0 && gi.color(jc) == gi.color(jp)) continue;
            if (jc < 0 && jp < 0) continue;
            if (jc >= 0 && gi.group_first(jc) != jc) continue;
            if (jp >= 0 && gi.group_first(jp) != jp) continue;
            fn(jc, jp);
        }
}
// The child's stored metric a conversion is valued from, for generated metric `metric`.
Metric metric_read(Metric metric, CountPhase child);

class Conversions {
public:
    // Opens the tables of every ending `m` converts into from `dir` (its own Tablebase, so that
    // their resident cells go with this object); throws TableError when one is missing or
    // lacks the counted values of `rules`.
    Conversions(const GenIndex& gi, const std::vector<Metric>& metrics, const CountRules& rules,
        const std::string& dir);
    ~Conversions();

    // The value, from the mover's view, for each metric, of side c's man j (-1: the king)
    // moving to `to`, capturing man jc (-1: none) and promoting or not.
    // Inline: init and the level loop call it for every conversion of every position.
    void value(const GenBoard& b, Color c, int j, Square to, int jc, bool promotes,
        std::array<Value, kMaxMetrics>& v) const;

private:
    // A capture or promotion of one kind (which man is captured, which Bia promotes): the child
    // table, where each man goes in the child's index, and for each metric generated the
    // child's metric to read and the map from its cells to the value this metric gives.
    struct Recipe {
        bool bareKings = false; // nothing left but the kings: a draw
        const Table* table = nullptr;
        bool swapped = false; // the child's stronger side is this table's Black
        std::array<std::int8_t, kMaxGenMen> dest {}; // child man slot of each man, -1 captured
        struct Read {
            Metric metric = Metric::Dtm;
            std::array<std::vector<Value>, COLOR_NB> value; // [child side to move][child cell]
            // The child's resident cells for its side to move (Table::resident_cells), read
            // without value()'s residency check; in a table of 16-bit cells 0xFF asks value().
            const std::uint8_t* cells = nullptr;
            bool wide = false;
        };
        std::array<Read, kMaxMetrics> read;
    };
    std::unique_ptr<Recipe> make_recipe(int jc, int jp) const;

    const GenIndex& index_;
    const Material& material_;
    std::vector<Metric> metrics_;
    CountRules rules_;
    std::unique_ptr<const Tablebase> children_;
    // [captured man's group first + 1][promoting man's group first + 1] (0: none).
    std::array<std::array<std::unique_ptr<Recipe>, kMaxGenMen + 1>, kMaxGenMen + 1> recipes_;
};

inline void Conversions::value(const GenBoard& b, Color c, int j, Square to, int jc, bool promotes,
    std::array<Value, kMaxMetrics>& v) const {
    const Recipe& r = *recipes_[std::size_t(jc < 0 ? 0 : index_.group_first(jc) + 1)]
                               [std::size_t(promotes ? index_.group_first(j) + 1 : 0)];
    if (r.bareKings) {
        v.fill(Value::draw());
        return;
    }
    // The recipe was made for the first man of the captured (promoting) man's group; any man
    // of the group may be the one: it takes the first's slot, the others the rest.
    auto dest = [&](int m) {
        for (const int x : { jc, promotes ? j : -1 })
            if (x >= 0 && index_.group_size(m) > 1
                && index_.group_first(m) == index_.group_first(x)) {
                if (m == x) return int(r.dest[std::size_t(index_.group_first(x))]);
                return int(r.dest[std::size_t(m < x ? m + 1 : m)]);
            }
        return int(r.dest[std::size_t(m)]);
    };
    Square men[kMaxGenMen];
    for (int m = 0; m < index_.men(); ++m) {
        const int d = dest(m);
        if (d < 0) continue;
        const Square s = m == j ? to : b.man[std::size_t(m)];
        men[d] = r.swapped ? flip_rank(s) : s;
    }
    Square wk = b.king[WHITE], bk = b.king[BLACK];
    if (j < 0) (c == WHITE ? wk : bk) = to;
    if (r.swapped) std::swap(wk, bk), wk = flip_rank(wk), bk = flip_rank(bk);
    const std::uint64_t slot = r.table->index().encode(wk, bk, men);
    const Color stm = r.swapped ? c : ~c;
    for (std::size_t k = 0; k < metrics_.size(); ++k) {
        const Recipe::Read& read = r.read[k];
        unsigned x = read.cells[slot];
        if (read.wide && x == 0xFF) x = r.table->value(read.metric, stm, slot).cell();
        v[k] = read.value[stm][x].parent();
    }
}

} // namespace mktb

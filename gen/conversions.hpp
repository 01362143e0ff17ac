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
#include "tablefile.hpp"
#include "spill.hpp"

namespace mktb {

// A board of material m with side to move stm, men on arbitrary squares: what the counting
// functions read from a position (men, their kinds, the side to move) is all that it carries.
Position representative(const Material& m, Color stm);

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
    void value(const GenBoard& b, Color c, int j, Square to, int jc, bool promotes,
        std::array<Value, kMaxMetrics>& v) const;

private:
    struct Recipe;
    std::unique_ptr<Recipe> make_recipe(int jc, int jp) const;

    const GenIndex& index_;
    const Material& material_;
    std::vector<Metric> metrics_;
    CountRules rules_;
    std::unique_ptr<const Tablebase> children_;
    // [captured man's group first + 1][promoting man's group first + 1] (0: none).
    std::array<std::array<std::unique_ptr<Recipe>, kMaxGenMen + 1>, kMaxGenMen + 1> recipes_;
};

} // namespace mktb

// preference.hpp - the verifiers' order of a successor's cell: the preference (better()'s order
// as an integer) of the position one ply before a successor, read from the successor's stored
// cell, so that a position's best move is a max over its successors' cells.
#pragma once

#include <array>
#include <cstdint>

#include "mktb/value.hpp"
#include "tablebase.hpp"

namespace mktb {

inline constexpr auto kSuccessorPreference = [] {
    std::array<int, 256> p {};
    for (unsigned cell = 0; cell < 256; ++cell)
        p[cell] = preference(Value::from_cell(cell).parent());
    return p;
}();

// The preference before the successor `slot` of table t (metric m, side stm to move), whose
// resident cells are `cells` (Table::resident_cells); `wide`: t's cells of m are 16 bits, where
// a resident 0xFF means a distance beyond 8 bits, asked of value().
inline int successor_preference(
    const Table& t, Metric m, Color stm, const std::uint8_t* cells, bool wide, std::uint64_t slot) {
    const std::uint8_t cell = cells[slot];
    return cell == 0xFF && wide ? preference(t.value(m, stm, slot).parent())
                                : kSuccessorPreference[cell];
}

} // namespace mktb

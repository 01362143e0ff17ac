// preference.hpp - the verifiers' order of a successor's cell: the preference (better()'s order
// as an integer) of the position one ply before a successor whose cell holds `cell`, so that a
// position's best move is a max over its successors' cells, read as they are stored.
#pragma once

#include <array>

#include "mktb/value.hpp"

namespace mktb {

inline constexpr auto kSuccessorPreference = [] {
    std::array<int, 256> p {};
    for (unsigned cell = 0; cell < 256; ++cell)
        p[cell] = preference(Value::from_cell(cell).parent());
    return p;
}();

} // namespace mktb

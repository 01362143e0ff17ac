// index_fast_paths.hpp - what the generator and the verifier read of the storage Index beyond its
// public API (mktb/index.hpp): its canonical king pairs, and slots moved by one man's or the
// kings' step without decoding. Private to this tree: not installed.
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include "mktb/index.hpp"

namespace mktb {

class IndexFastPaths {
public:
    // C(n, k) for n <= 64 and k <= 6 (a group of identical men: the storage index ranks its
    // squares as C(s_0, 1) + C(s_1, 2) + ..., and so does the generation index's ranked field).
    static constexpr auto kBinomial = [] {
        std::array<std::array<std::uint64_t, 7>, 65> b {};
        for (std::size_t n = 0; n <= 64; ++n)
            for (std::size_t k = 0; k <= 6; ++k)
                b[n][k] = k == 0 ? 1 : n == 0 ? 0 : b[n - 1][k - 1] + b[n - 1][k];
        return b;
    }();

    // The number of canonical king pairs of a symmetry (462 or 1806); the number of a canonical
    // pair (-1 when (wk, bk) is not canonical or the kings touch); the transform that brings a
    // pair to canonical form; the squares of pair p.
    static int king_pairs(Symmetry s);
    static int king_pair_index(Symmetry s, Square wk, Square bk);
    static int king_frame(Symmetry s, Square wk, Square bk);
    static std::pair<Square, Square> king_pair(Symmetry s, int p);

    // The stride of the digit of White's or Black's men of kind pt when that group holds one
    // man, else 0. On a board as decode() puts it whose kings do not both stand on a1-h8 under
    // the 8-fold group, that man stepping from s to t (no capture, no promotion) moves the
    // slot by (t - s) * stride: the king pair, hence the frame, stays, and only its digit
    // changes.
    static std::uint64_t single_man_stride(const Index& index, Color c, PieceType pt);
    // The slot of the board of slot i, whose kings stand on wk and bk as decode() puts it, with
    // the kings moved to toWk and toBk, when that pair is canonical as it stands and is not
    // both kings on a1-h8 under the 8-fold group: only the king pair changes, the men's digits
    // stay. Else Index::kNoSlot (encode instead).
    static std::uint64_t with_kings(
        const Index& index, std::uint64_t i, Square wk, Square bk, Square toWk, Square toBk);
};

} // namespace mktb

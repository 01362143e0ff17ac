// gen_index.hpp - the generator's own index of an ending: the canonical king pair of the storage
// Index (mktb/index.hpp) above one bit field per man (6 bits, 5 for a Bia), so that moving or
// un-moving a man replaces one field and needs no combination ranks.
//
// Layout, most significant first: king pair, then the men in the storage Index's group order
// (White's then Black's, R S N M P), the first man in the highest field. Identical men are kept
// in ascending square order; a slot whose men overlap, are out of order, or put a Bia beyond its
// 24 squares is "broken". Under the 8-fold group a board whose kings both stand on a1-h8 (the
// "residue") and its reflection in that diagonal have the same king pair: the one with the
// smaller fields names the position and the other slot is broken, so every position has exactly
// one slot. The storage Index is produced from this one when the table is written.
#pragma once

#include <array>
#include <cstdint>

#include "mktb/index.hpp"

namespace mktb {

inline constexpr int kMaxGenMen = 6; // non-king men a generation index holds

// A board as the generator handles it: the kings' squares and the men's, in field order.
struct GenBoard {
    std::array<Square, COLOR_NB> king;
    std::array<Square, kMaxGenMen> man;
};

class GenIndex {
public:
    explicit GenIndex(const Material& m); // canonical, not bare kings

    std::uint64_t size() const { return size_; }
    const Material& material() const { return material_; }
    int men() const { return men_; }
    Color color(int j) const { return color_[std::size_t(j)]; }
    PieceType type(int j) const { return type_[std::size_t(j)]; }
    // First man of j's group of identical men, and the group's size.
    int group_first(int j) const { return groupFirst_[std::size_t(j)]; }
    int group_size(int j) const { return groupSize_[std::size_t(j)]; }

    // The board of slot i; false when the slot is broken.
    bool decode(std::uint64_t i, GenBoard& b) const;
    // The slot of any board of this material, in any orientation: brought to its canonical
    // frame, identical men sorted, the residue reflected when that names it.
    std::uint64_t encode(GenBoard b) const;
    // The slot of board b (slot i, in canonical frame) with man j moved to `to`: one field
    // replaced when j has no identical twin and the kings are off the residue.
    std::uint64_t with_man(std::uint64_t i, const GenBoard& b, int j, Square to) const {
        if (groupSize_[std::size_t(j)] == 1 && !residue_[i >> fieldBits_]) {
            const int d = int(to) - int(b.man[std::size_t(j)]);
            return d >= 0 ? i + (std::uint64_t(d) << shift_[std::size_t(j)])
                          : i - (std::uint64_t(-d) << shift_[std::size_t(j)]);
        }
        GenBoard a = b;
        a.man[std::size_t(j)] = to;
        return encode(a);
    }
    // The slot of board b (slot i, in canonical frame) with king c moved to `to`: the pair
    // replaced when the new pair is canonical as it stands and off the residue.
    std::uint64_t with_king(std::uint64_t i, const GenBoard& b, Color c, Square to) const {
        const Square wk = c == WHITE ? to : b.king[WHITE], bk = c == BLACK ? to : b.king[BLACK];
        const int p = pairIndex_[std::size_t(wk)][std::size_t(bk)];
        if (p >= 0 && !residue_[std::size_t(p)])
            return std::uint64_t(p) << fieldBits_ | (i & ((std::uint64_t(1) << fieldBits_) - 1));
        GenBoard a = b;
        a.king[c] = to;
        return encode(a);
    }
    // Both kings on a1-h8 under the 8-fold group: the slot's board may equal its reflection.
    bool residue(std::uint64_t i) const { return residue_[i >> fieldBits_]; }
    // The board of a residue slot equals its reflection in a1-h8 (its orbit is 4, not 8).
    bool symmetric(const GenBoard& b) const;

private:
    std::uint64_t fields(GenBoard& b, int transform) const; // transformed, sorted, packed
    void sort_groups(GenBoard& b) const;

    Material material_;
    Symmetry symmetry_;
    int men_ = 0;
    int fieldBits_ = 0;
    std::uint64_t size_ = 0;
    std::array<Color, kMaxGenMen> color_ {};
    std::array<PieceType, kMaxGenMen> type_ {};
    std::array<int, kMaxGenMen> shift_ {}, limit_ {}, base_ {}, groupFirst_ {}, groupSize_ {};
    std::array<std::array<std::int16_t, 64>, 64> pairIndex_ {};
    std::array<std::array<std::uint8_t, 64>, 64> frame_ {};
    std::array<std::array<Square, 64>, 8> transform_ {};
    std::vector<std::pair<Square, Square>> pairs_;
    std::vector<std::uint8_t> residue_; // per king pair: both kings on a1-h8 (8-fold group)
};

} // namespace mktb

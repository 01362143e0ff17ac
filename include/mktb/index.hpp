// mktb/index.hpp - the one Index of a material signature: a bijection between the slots
// 0..size()-1 and the boards of that material, up to the symmetry the material allows.
//
// Layout, most significant first: the king pair (one of the canonical pairs of the symmetry:
// 462 for the full 8-fold group, 1806 for the mirror alone; kings never adjacent), then one
// digit per group of identical men, the group's squares ranked as a combination C(squares, k):
// 64 squares, 24 for a Bia. The order of the digits is the index's scheme (kept in the table
// file's header): scheme 1, White's groups then Black's, each in the order R S N M P; scheme 2,
// Black's groups (the weaker side's) then White's. Scheme 2 compresses most 5-men endings
// better: the cells of a run change less when the defender's man, which decides most values
// (can it be taken, can it take?), varies slowest (docs/index-schemes.txt: every table's size in
// both schemes). A slot
// whose men overlap, or that is the second name of a board fixed by the diagonal reflection
// (both kings on a1-h8 under the 8-fold group), is "no board": decode() returns false for it.
//
// The side to move is not part of the index: a table keeps one array per side to move.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "mktb/material.hpp"

namespace mktb {

class Index {
public:
    static constexpr int kSchemeNameOrder = 1; // the digits of White's groups first
    static constexpr int kSchemeWeakerFirst = 2; // the digits of Black's groups first
    // The generator's default (its own index's field order); it writes an ending in scheme 1
    // where that compresses smaller (docs/format.md).
    static constexpr int kScheme = kSchemeWeakerFirst;

    // `material` must be canonical (stronger side White) and not bare kings; `scheme` 1 or 2.
    explicit Index(const Material& material, int scheme = kScheme);

    std::uint64_t size() const { return size_; }
    Symmetry symmetry() const { return symmetry_; }
    const Material& material() const { return material_; }
    int scheme() const { return scheme_; }

    // The slot of a board of this material in the table's orientation (any side to move).
    std::uint64_t encode(const Position& pos) const;
    // The same from squares: the kings', then the men's listed group by group in group order
    // (any order within a group), in any orientation the symmetry allows. No Position is built.
    std::uint64_t encode(Square wk, Square bk, const Square* men) const;
    static constexpr std::uint64_t kNoSlot = ~std::uint64_t(0); // a slot no board has
    // Puts the board of slot i on an empty `pos` (side to move untouched). False when the slot
    // is no board; `pos` is then unspecified.
    bool decode(std::uint64_t i, Position& pos) const;
    // How many distinct boards the slot's board stands for (its orbit under the symmetry).
    int orbit_size(const Position& pos) const;

private:
    friend class IndexFastPaths; // core/index_fast_paths.hpp: the generator's and verifier's
    struct Group {
        Color color;
        PieceType type;
        int k; // identical men in the group
        int squares; // 64, or 24 for a Bia
        std::uint64_t size; // C(squares, k)
        std::uint64_t stride; // product of the sizes of the groups less significant than it
        int first; // its first man in the squares encode() takes (listed in name order)
    };
    std::uint64_t encode_in_frame(Square wk, Square bk, const Square* men, int transform) const;

public:
    struct KingTables; // canonical king pairs of both symmetries (index.cpp), built once

private:
    const KingTables* kings_;

    Material material_;
    Symmetry symmetry_;
    int scheme_;
    std::vector<Group> groups_; // most significant digit first
    std::uint64_t size_ = 0;
};

// The 8 symmetries of the square as transforms 0..7: bit 2 transposes (file <-> rank), then bit 0
// flips files, bit 1 flips ranks. The mirror-only group is {0, 1}.
Square transform(int t, Square s);

} // namespace mktb

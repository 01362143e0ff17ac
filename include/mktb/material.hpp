// mktb/material.hpp - material signatures ("KRSvKM"): naming, the colour-swap canonical form,
// the symmetry the material allows, and the smaller endings a signature converts into.
//
// A signature lists White's men then Black's, kings first, other men in the order R S N M P.
// The canonical orientation puts the stronger side first (as White); a position whose stronger
// side is Black is probed in its colour-swapped twin (colours swapped, ranks flipped, side to
// move swapped), so one table serves both.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mktb/position.hpp"

namespace mktb {

// Which board symmetries leave the rules of this material unchanged (docs/rules.md §5).
enum class Symmetry : std::uint8_t {
    Full8, // only K M N R: the 8 symmetries of the square
    MirrorOnly // a Khon or a Bia knows where forward is: only the a<->h mirror
};

// Order of kinds in a signature's name.
inline constexpr std::array<PieceType, 5> kNameOrder = { RUEA, KHON, MA, MET, BIA };

struct Material {
    // Men per colour and kind (kings included: always 1).
    std::array<std::array<std::uint8_t, PIECE_TYPE_NB>, COLOR_NB> count {};

    static Material of(const Position& pos);
    // Parses "KRSvKM"; nullopt with a message in *error when malformed.
    static std::optional<Material> parse(std::string_view name, std::string* error = nullptr);

    std::string name() const;
    int men() const;
    int men(Color c) const;
    bool has(PieceType pt) const { return count[WHITE][pt] + count[BLACK][pt] > 0; }
    Symmetry symmetry() const {
        return has(KHON) || has(BIA) ? Symmetry::MirrorOnly : Symmetry::Full8;
    }
    // The colour-swapped material.
    Material swapped() const;
    // True when this is the orientation tables are stored in (the stronger side is White).
    bool is_canonical() const;
    // The side with strictly less material by weight, the one that counts under board's
    // honour (docs/rules.md §3.2); nullopt when the sides are equal.
    std::optional<Color> weaker_side() const;
    Material canonical() const { return is_canonical() ? *this : swapped(); }
    // Both kings alone: always a draw, there is no table for it.
    bool bare_kings() const { return men() == 2; }
    // A side could not have this many men in a game (more than the start position's).
    bool reachable() const;
    // The most men of one kind and colour a table's index holds (a group's digit is a choice of
    // at most this many squares): five Met or five Bia can occur in a game, but have no table.
    static constexpr int kMaxIdentical = 4;
    // Why no table of this material can be made (a group beyond kMaxIdentical), or empty.
    std::string beyond_tables() const;

    // Endings one capture or promotion away (canonical, without duplicates, KvK excluded).
    std::vector<Material> children() const;

    // A number that identifies the material (4 bits per colour and kind), for hashing.
    std::uint64_t key() const {
        std::uint64_t k = 0;
        for (const auto& side : count)
            for (std::uint8_t n : side) k = k << 4 | n;
        return k;
    }

    bool operator==(const Material&) const = default;
};

// Every canonical, reachable signature with 3..men men, smallest first (a valid build order).
std::vector<Material> all_materials(int men);

// The colour-swapped twin of a position: colours swapped, ranks flipped, side to move swapped.
Position colour_swapped(const Position& pos);

} // namespace mktb

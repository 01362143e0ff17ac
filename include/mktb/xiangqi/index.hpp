// mktb/xiangqi/index.hpp - a Xiangqi ending's men (Material: "KRvKAABB") and its storage index:
// every position of the ending numbered without wasted slots (docs/generator-xiangqi.md, "Index").
//
// The slot is the kings' pair up to the left-right mirror (45 classes of the 81 pairs: Red's king
// on files d-e, and on e Black's on d-e), then each group of identical men (same colour and kind)
// as the combination rank of its points among those the kind can reach (king 9, advisor 5,
// elephant 7, soldier 55, the others 90), identical men together. Where both kings stand on the e
// file the mirror is a symmetry of the slot's men too: of a board and its mirror, the smaller
// slot is the position and the other is no position (as are slots where two men share a point).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mktb/xiangqi/position.hpp"

namespace mktb::xq {

// The men of both sides, Red's first as the name gives them.
struct Material {
    std::array<std::array<std::uint8_t, PIECE_TYPE_NB>, COLOR_NB> count {};

    // "KRvKAABB": men in any order, either side first (Red is the side written first), letters
    // K A B N R C P (E and H accepted). nullopt when malformed; parse_error() says why.
    static std::optional<Material> parse(std::string_view name);
    static std::string parse_error(std::string_view name);
    static Material of(const Position& pos);

    std::string name() const; // K, then R C N P A B of each side: "KRvKAABB"
    int men() const;
    int men(Color c) const;
    // Only king, advisors and elephants: a side that can never give check.
    bool armless(Color c) const;
    // Red and Black exchanged; the canonical one of the two (the stronger side Red; between
    // equals the smaller key) names the table.
    Material swapped() const;
    Material canonical() const;
    bool is_canonical() const { return *this == canonical(); }
    std::uint64_t key() const;
    bool operator==(const Material&) const = default;
};

// The endings each ending converts into by one capture (canonical, no repeats).
std::vector<Material> children(const Material& m);
// `m` and every ending it can reach by captures, smallest first (what `gen` builds first).
std::vector<Material> with_descendants(const Material& m);

// The men of a position of the Index's material in the Index's order: Red's king, Black's king,
// then each group's men (points ascending within a group).
struct Placement {
    std::array<std::int8_t, 16> at {};
};

class Index {
    struct Group; // (below)

public:
    explicit Index(const Material& m);

    const Material& material() const { return material_; }
    std::uint64_t size() const { return size_; }
    int men() const { return men_; }
    Piece piece(int man) const { return pieces_[man]; }
    int group_of(int man) const { return groupOf_[man]; }

    // The slot of a legal position of this material (Red = the material's first side), the
    // mirror applied where it gives the smaller slot.
    std::uint64_t encode(const Position& pos) const;
    std::uint64_t encode(const Placement& p) const { return encode(p, nullptr); }
    // Also says whether the placement was mirrored to reach the slot (false for a placement
    // that is its own mirror).
    std::uint64_t encode(const Placement& p, bool* mirrored) const;
    // The slots one move of a man away from `slot` (whose men are `p`; both outlive it): a man's
    // move changes its group's digit alone, a king's the pair's class alone, unless the mirror
    // is needed (a king leaving the canonical half, or both kings on the e file). The groups'
    // digits in the mirror's orientation are worked out once, the first time one is needed, not
    // once for each move.
    class Mover {
    public:
        Mover(const Index& index, std::uint64_t slot, const Placement& p)
            : index_(index)
            , p_(p)
            , slot_(slot)
            , rest_(slot % index.pairStride_)
            , symmetricPair_(file_of(p.at[0]) == 4 && file_of(p.at[1]) == 4) { }
        // The slot with man `man` moved to point `to`; *mirrored says whether the mirror was
        // applied to reach it (as encode() says), *selfMirror (when given) whether that position
        // is its own mirror.
        std::uint64_t moved(int man, int to, bool* mirrored, bool* selfMirror = nullptr) const {
            const std::uint64_t stride = index_.pairStride_;
            bool self = false;
            std::uint64_t q;
            if (const int g = index_.groupOf_[man]; g < 0) {
                const int rk = man == 0 ? to : p_.at[0], bk = man == 1 ? to : p_.at[1];
                const int cls = index_.pairClass_[rk][bk];
                if (cls >= 0 && !(file_of(rk) == 4 && file_of(bk) == 4)) {
                    *mirrored = false;
                    q = std::uint64_t(cls) * stride + rest_;
                } else if (cls < 0) {
                    *mirrored = true;
                    q = std::uint64_t(index_.pairClass_[mirror(rk)][mirror(bk)]) * stride
                        + mirrored_rest();
                } else { // both kings on the e file: the smaller of the two orientations
                    const std::uint64_t m = mirrored_rest();
                    *mirrored = m < rest_, self = m == rest_;
                    q = std::uint64_t(cls) * stride + std::min(m, rest_);
                }
            } else {
                const Group& gr = index_.groups_[std::size_t(g)];
                q = slot_
                    + (rank(gr, man, to, false) - rank(gr, man, p_.at[man], false)) * gr.stride;
                *mirrored = false;
                if (symmetricPair_) {
                    const std::uint64_t m = slot_ - rest_ + mirrored_rest()
                        + (rank(gr, man, to, true) - mirroredRank_[std::size_t(g)]) * gr.stride;
                    *mirrored = m < q, self = m == q;
                    q = std::min(m, q);
                }
            }
            if (selfMirror) *selfMirror = self;
            return q;
        }
        // Whether the slot's own placement is its own mirror (Index::symmetric()).
        bool symmetric() const { return symmetricPair_ && mirrored_rest() == rest_; }

    private:
        // Group gr's digit with man `man` on point `to` (the others where they stand), in the
        // mirror's orientation or not.
        std::uint64_t rank(const Group& gr, int man, int to, bool inMirror) const {
            const auto reach
                = [&](int point) { return gr.reach[inMirror ? mirror(point) : point]; };
            if (gr.size == 1) return std::uint64_t(reach(to));
            if (gr.size == 2) { // C(lo, 1) + C(hi, 2), as group_rank() gives it
                const std::uint64_t a
                    = std::uint64_t(reach(gr.first == man ? to : p_.at[gr.first])),
                    b = std::uint64_t(reach(gr.first + 1 == man ? to : p_.at[gr.first + 1]));
                const std::uint64_t lo = std::min(a, b), hi = std::max(a, b);
                return lo + hi * (hi - 1) / 2;
            }
            std::int8_t idx[5];
            for (int i = 0; i < gr.size; ++i)
                idx[i] = reach(gr.first + i == man ? to : int(p_.at[gr.first + i]));
            return group_rank(idx, gr.size);
        }
        std::uint64_t mirrored_rest() const; // the groups' part of the mirrored slot
        const Index& index_;
        const Placement& p_;
        std::uint64_t slot_, rest_;
        bool symmetricPair_;
        mutable bool mirrorKnown_ = false;
        mutable std::uint64_t mirroredRest_ = 0;
        // Not zeroed (written before read): a Mover is made for every position a pass visits.
        mutable std::array<std::uint64_t, 16> mirroredRank_;
    };
    // The men of `slot`; false when it is no position (two men on a point, or the mirror twin of
    // a smaller slot).
    // With `occupied`, also the points its men stand on.
    bool decode(std::uint64_t slot, Placement& p, Points* occupied = nullptr) const;
    // The slots from `first` on, in order, as decode() gives them: each group's digit is carried
    // from slot to slot (only the innermost group's men change, mostly), not divided out again.
    class Cursor {
    public:
        Cursor(const Index& index, std::uint64_t first);
        std::uint64_t slot() const { return slot_; }
        bool is_position() const { return position_; } // decode()'s answer
        const Placement& placement() const { return p_; }
        void next();

    private:
        void place(int g); // group g's men from its digit
        void check(); // position_ from the men's points and the mirror
        const Index& index_;
        std::uint64_t slot_;
        Placement p_;
        std::uint64_t cls_ = 0;
        std::array<std::uint64_t, 16> digit_ {};
        std::array<Points, 16> points_ {}; // per group
        Points kings_ = 0;
        bool position_ = false;
    };
    // The board of a placement, with `stm` to move.
    Position position(const Placement& p, Color stm) const;
    // Whether a placement is its own mirror (possible only with both kings on the e file).
    bool symmetric(const Placement& p) const;

private:
    struct Group {
        Piece piece;
        int first, size; // its men: first .. first + size - 1
        int points; // points the kind can reach
        std::uint64_t slots; // C(points, size)
        std::uint64_t stride;
        std::vector<std::int8_t> point; // reach index -> point
        std::array<std::int8_t, POINT_NB> reach {}; // point -> reach index, -1 when unreachable
        std::vector<std::int8_t> unrank; // slot -> `size` reach indices, ascending
    };
    std::uint64_t encode_oriented(const Placement& p, bool mirror) const;
    static std::uint64_t group_rank(std::int8_t* idx, int k); // sorts idx
    template<class Int>
    bool decode_as(std::uint64_t slot, Placement& p, Points* occupied) const;

    Material material_;
    int men_ = 0;
    std::array<Piece, 16> pieces_ {};
    std::array<std::int8_t, 16> groupOf_ {};
    std::vector<Group> groups_;
    std::uint64_t size_ = 0, pairStride_ = 0;
    std::array<std::array<std::int8_t, POINT_NB>, POINT_NB> pairClass_ {}; // -1: not canonical
    std::array<std::array<std::int8_t, 2>, 45> pairs_ {};
};

// The number of king-pair classes under the mirror: 9 x 9 pairs, 9 of them their own mirror.
inline constexpr int kKingPairClasses = 45;

} // namespace mktb::xq

// gen_index.hpp - the generator's own index of an ending: the canonical king pair of the storage
// Index (mktb/index.hpp) above one bit field per man (6 bits, 5 for a Bia), so that moving or
// un-moving a man replaces one field and needs no combination ranks; except a "ranked" group
// of identical men (three or more, or two beside three other men: six men and more), which
// has one field for the group, its squares' combination rank, as wide as the largest rank
// needs (C(64,3) = 41,664 in 16 bits where three 6-bit fields take 18; C(24,3) in 11 where
// three Bia take 15): a 6-men ending's cells would not fit one machine's memory otherwise.
//
// Layout, most significant first: king pair, then the men's fields in the storage Index's digit
// order (scheme 2: Black's men, then White's, each side in the order R S N M P), the first man
// of a group in the higher field. The men themselves are numbered in name order (White's first),
// as the storage Index's encode() takes their squares. Identical men are kept
// in ascending square order; a slot whose men overlap, are out of order, put a Bia beyond its
// 24 squares, or hold a rank beyond the group's combinations is "broken". Under the 8-fold group a
// board whose kings both stand on a1-h8 (the "residue") and its reflection in that diagonal have
// the same king pair: the one with the smaller fields names the position and the other slot is
// broken, so every position has exactly one slot. The storage Index is produced from this one when
// the table is written.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <vector>

#include "index_fast_paths.hpp"
#include "mktb/index.hpp"

namespace mktb {

inline constexpr int kMaxGenMen = 6; // non-king men a generation index holds
static_assert(IndexFastPaths::kBinomial[0].size() > kMaxGenMen); // a group's ranks

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

    // Has a group of identical men one field, its combination rank (see the top)?
    bool has_ranked() const { return !rankedGroups_.empty(); }

    // The board of slot i; false when the slot is broken.
    bool decode(std::uint64_t i, GenBoard& b) const;
    // The board of a slot known to hold a position (its cell is not "no position"): the fields
    // read back with none of decode()'s checks, for the generator's inner loop.
    void decode_valid(std::uint64_t i, GenBoard& b) const {
        const auto& [wk, bk] = pairs_[std::size_t(i >> fieldBits_)];
        b.king = { wk, bk };
        for (int j = 0; j < men_; ++j) {
            const auto u = std::size_t(j);
            b.man[u] = Square((int(i >> shift_[u]) & fieldMask_[u]) + base_[u]);
        }
        for (const RankedGroup& g : rankedGroups_) unrank(i, g, b);
    }
    // The slot of any board of this material, in any orientation: brought to its canonical
    // frame, identical men sorted, the residue reflected when that names it.
    std::uint64_t encode(GenBoard b) const;
    // Slot i with man j's field cleared, and the field of man j on square s: for a man with no
    // twin off the residue, the slot with j on s is their sum (the inner loop's fast path).
    std::uint64_t without_field(std::uint64_t i, int j) const {
        return i & ~(std::uint64_t(fieldMask_[std::size_t(j)]) << shift_[std::size_t(j)]);
    }
    std::uint64_t field(int j, Square s) const {
        return std::uint64_t(int(s) - base_[std::size_t(j)]) << shift_[std::size_t(j)];
    }
    // The slot of board b (slot i, in canonical frame) with man j moved to `to`: its field
    // replaced (with a twin's: both written in order), or a ranked group's rank computed anew
    // from its squares, when the kings are off the residue.
    std::uint64_t with_man(std::uint64_t i, const GenBoard& b, int j, Square to) const {
        const auto u = std::size_t(j);
        if (!residue_[i >> fieldBits_] && !ranked_[u]) {
            if (groupSize_[u] == 1) return with_field(i, j, to);
            const int first = groupFirst_[u], other = first + (j == first);
            const Square twin = b.man[std::size_t(other)];
            return with_field(
                with_field(i, first, std::min(to, twin)), first + 1, std::max(to, twin));
        }
        GenBoard a = b;
        a.man[u] = to;
        if (!residue_[i >> fieldBits_] && ranked_[u]) { // the group's squares ranked anew
            const RankedGroup& g = rankedGroups_[std::size_t(rankedOf_[u])];
            for (int k = j; k > g.first && a.man[std::size_t(k - 1)] > a.man[std::size_t(k)]; --k)
                std::swap(a.man[std::size_t(k - 1)], a.man[std::size_t(k)]);
            for (int k = j;
                 k + 1 < g.first + g.size && a.man[std::size_t(k)] > a.man[std::size_t(k + 1)]; ++k)
                std::swap(a.man[std::size_t(k)], a.man[std::size_t(k + 1)]);
            return (i & ~(g.mask << g.shift)) | rank(a, g) << g.shift;
        }
        return encode(a);
    }
    // The slot of board b (slot i, in canonical frame) with king c moved to `to`, a square not
    // next to the other king (as after any legal step). When the new pair needs another frame,
    // every field is transformed at once by bit operations (a file or rank flip is an exclusive
    // or, the a1-h8 reflection swaps the halves of each field), and pairs of twins are put back
    // in order; the residue and ranked groups go through encode().
    std::uint64_t with_king(std::uint64_t i, const GenBoard& b, Color c, Square to) const {
        const KingStep step = king_step(b.king, c, to);
        if (step.bitwise)
            return std::uint64_t(step.pair) << fieldBits_ | step_fields(i, step.frame);
        GenBoard a = b;
        a.king[c] = to;
        return encode(a);
    }
    // Where a king step leads: kings `kings` (a pair's canonical squares), king c to `to`. The
    // new pair, the frame it needs, and whether the fields follow by bit operations
    // (step_fields) rather than through encode() (the residue, a ranked group when the frame
    // changes: its rank is not a square).
    struct KingStep {
        int pair;
        int frame;
        bool bitwise;
    };
    KingStep king_step(std::array<Square, COLOR_NB> kings, Color c, Square to) const {
        kings[c] = to;
        const auto [wk, bk] = kings;
        const int t = frame_[std::size_t(wk)][std::size_t(bk)];
        const int p = pairIndex_[std::size_t(transform_[std::size_t(t)][std::size_t(wk)])]
                                [std::size_t(transform_[std::size_t(t)][std::size_t(bk)])];
        return { p, t, !residue_[std::size_t(p)] && (t == 0 || rankedGroups_.empty()) };
    }
    // The fields of slot i (any pair) after a bitwise king step into frame t.
    std::uint64_t step_fields(std::uint64_t i, int t) const {
        const std::uint64_t w = i & fieldsMask_;
        return t ? order_twins(transform_fields(w, t)) : w;
    }
    // The king pairs: their number, each one's squares, the bits of the fields below them.
    int pairs() const { return int(pairs_.size()); }
    std::array<Square, COLOR_NB> kings(int p) const {
        return { pairs_[std::size_t(p)].first, pairs_[std::size_t(p)].second };
    }
    int field_bits() const { return fieldBits_; }
    // Is a man of slot i on square s? `on` = squares_fields(s): every unranked man's field set
    // to s (or, for a Bia, to a value no Bia field holds when s is off its squares); a field of
    // slot ^ on is zero exactly where a man stands on s, found by the zero-field test (a ranked
    // field takes no part in it: lowBits_ and highBits_ leave it out); a ranked group's
    // squares are read from its rank.
    std::uint64_t squares_fields(Square s) const {
        std::uint64_t w = 0;
        for (int j = 0; j < men_; ++j) {
            const auto u = std::size_t(j);
            if (ranked_[u]) continue;
            const int v = int(s) - base_[u];
            w |= std::uint64_t(v >= 0 && v < limit_[u] ? v : fieldMask_[u]) << shift_[u];
        }
        return w;
    }
    bool man_on(std::uint64_t i, std::uint64_t on) const {
        const std::uint64_t x = (i & fieldsMask_) ^ on;
        return ((x - lowBits_) & ~x & highBits_) != 0;
    }
    // The same for the ranked groups' men (none without a ranked group: has_ranked()).
    bool ranked_man_on(std::uint64_t i, Square s) const {
        for (const RankedGroup& g : rankedGroups_) {
            const int v = int(s) - g.base;
            if (v >= 0 && v < g.limit && (g.squares[std::size_t(i >> g.shift & g.mask)] >> v & 1))
                return true;
        }
        return false;
    }
    // The man of the lowest field, whose value is his square less `base` (0, or a Bia's first
    // square), in `bits` bits (6, or 5 for a Bia): the 2^bits slots of an aligned chunk are
    // his squares on one board of the others.
    struct LowField {
        int man;
        int bits;
        int base;
    };
    LowField low_field() const {
        for (int j = 0; j < men_; ++j)
            if (shift_[std::size_t(j)] == 0)
                return { j, std::popcount(unsigned(fieldMask_[std::size_t(j)])),
                    base_[std::size_t(j)] };
        return { -1, 0, 0 };
    }
    // No Bia and no identical men: every field is a square in radix 64 in the storage Index's
    // group order, and both indexes name a residue board by its smaller slot, so a slot here is
    // the same board's storage slot (the writer then needs no second array).
    bool storage_order() const { return storageOrder_; }
    // Both kings on a1-h8 under the 8-fold group: the slot's board may equal its reflection.
    bool residue(std::uint64_t i) const { return residue_[i >> fieldBits_]; }
    // The board of a residue slot equals its reflection in a1-h8 (its orbit is 4, not 8).
    bool symmetric(const GenBoard& b) const;

private:
    std::uint64_t fields(GenBoard& b, int transform) const; // transformed, sorted, packed
    // Slot i with man j's field set to square s.
    std::uint64_t with_field(std::uint64_t i, int j, Square s) const {
        return without_field(i, j) | field(j, s);
    }
    // Transform t (index.hpp: the reflection in a1-h8 first, then the file and rank flips) of
    // every field of a field word. A Bia's field is its square less a multiple of 8, so the
    // file flip holds for it too (a Bia ending has only that one).
    std::uint64_t transform_fields(std::uint64_t w, int t) const {
        if (t & 4) w = (w & fileBits_) << 3 | (w >> 3 & fileBits_);
        if (t & 1) w ^= fileBits_;
        if (t & 2) w ^= fileBits_ << 3;
        return w;
    }
    // A field word whose pairs of twins may be out of order, sorted (the first of a pair holds
    // the higher field and the lower square).
    std::uint64_t order_twins(std::uint64_t w) const {
        for (int k = 0; k < twinPairs_; ++k) {
            const auto j = std::size_t(twinPair_[std::size_t(k)]);
            const int hi = shift_[j], lo = shift_[j + 1];
            const auto m = std::uint64_t(fieldMask_[j]);
            const std::uint64_t a = w >> hi & m, b = w >> lo & m;
            if (a > b) w ^= (a ^ b) << hi | (a ^ b) << lo;
        }
        return w;
    }

    void sort_groups(GenBoard& b) const;
    void add_ranked_group(int j);

    // A group of identical men with one field, the rank of its squares (less `base`, ascending
    // s_0 < s_1 < ...) in the combinatorial number system: C(s_0, 1) + C(s_1, 2) + ..., so
    // that the ranks run over 0 .. C(limit, size) - 1 and no two boards share one.
    struct RankedGroup {
        int first = 0, size = 0, limit = 0, base = 0, shift = 0;
        std::uint64_t mask = 0;
        std::uint64_t ranks = 0; // C(limit, size); a field at or above it is broken
        std::vector<Bitboard> squares; // per rank: the group's squares less base
    };
    void unrank(std::uint64_t i, const RankedGroup& g, GenBoard& b) const {
        Bitboard sq = g.squares[std::size_t(i >> g.shift & g.mask)];
        for (int m = g.first; m < g.first + g.size; ++m)
            b.man[std::size_t(m)] = Square(pop_lsb(sq) + g.base);
    }
    std::uint64_t rank(const GenBoard& b, const RankedGroup& g) const {
        std::uint64_t r = 0;
        for (int m = 0; m < g.size; ++m)
            r += IndexFastPaths::kBinomial[std::size_t(b.man[std::size_t(g.first + m)] - g.base)]
                                          [std::size_t(m + 1)];
        return r;
    }

    Material material_;
    Symmetry symmetry_;
    int men_ = 0;
    int fieldBits_ = 0;
    std::uint64_t size_ = 0;
    std::array<Color, kMaxGenMen> color_ {};
    std::array<PieceType, kMaxGenMen> type_ {};
    std::array<int, kMaxGenMen> shift_ {}, fieldMask_ {}, limit_ {}, base_ {}, groupFirst_ {},
        groupSize_ {};
    std::uint64_t fieldsMask_ = 0; // every man's field
    std::uint64_t fileBits_ = 0; // the file bits of every field
    std::uint64_t lowBits_ = 0, highBits_ = 0; // the lowest and the highest bit of every field
    std::array<bool, kMaxGenMen> ranked_ {};
    std::array<int, kMaxGenMen> rankedOf_ {}; // a ranked man's group in rankedGroups_
    std::vector<RankedGroup> rankedGroups_;
    std::array<int, kMaxGenMen> twinPair_ {}; // first man of each unranked group of two
    int twinPairs_ = 0;
    bool storageOrder_ = true;
    std::array<std::array<std::int16_t, 64>, 64> pairIndex_ {};
    std::array<std::array<std::uint8_t, 64>, 64> frame_ {};
    std::array<std::array<Square, 64>, 8> transform_ {};
    std::vector<std::pair<Square, Square>> pairs_;
    std::vector<std::uint8_t> residue_; // per king pair: both kings on a1-h8 (8-fold group)
};

} // namespace mktb

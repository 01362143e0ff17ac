// index.cpp - the Index of a material signature (see mktb/index.hpp): canonical king pairs per
// symmetry, combination ranks for groups of identical men, and the diagonal residue of the
// 8-fold group.
#include "mktb/index.hpp"

#include "index_fast_paths.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

namespace mktb {

namespace {

constexpr int kTranspose = 4;

constexpr Square compute_transform(int t, Square s) {
    int f = file_of(s), r = rank_of(s);
    if (t & 4) std::swap(f, r);
    if (t & 1) f = 7 - f;
    if (t & 2) r = 7 - r;
    return make_square(f, r);
}

constexpr auto kTransforms = [] {
    std::array<std::array<Square, 64>, 8> t {};
    for (int i = 0; i < 8; ++i)
        for (int s = 0; s < 64; ++s) t[i][s] = compute_transform(i, Square(s));
    return t;
}();

inline Square apply(int t, Square s) { return kTransforms[t][s]; }

bool adjacent_or_same(Square a, Square b) {
    return std::max(std::abs(file_of(a) - file_of(b)), std::abs(rank_of(a) - rank_of(b))) <= 1;
}

bool canonical_pair(Symmetry sym, Square wk, Square bk) {
    if (sym == Symmetry::MirrorOnly) return file_of(wk) <= 3;
    const int f = file_of(wk), r = rank_of(wk);
    if (f > 3 || r > f) return false; // the a1-d1-d4 triangle
    return r != f || rank_of(bk) <= file_of(bk); // on the diagonal: bk on or below it
}

} // namespace

struct Index::KingTables {
    std::array<std::array<std::array<std::int16_t, 64>, 64>, 2> index; // -1: none
    std::array<std::array<std::array<std::uint8_t, 64>, 64>, 2> frame; // transform to canonical
    std::array<std::vector<std::pair<Square, Square>>, 2> pairs;
    std::array<int, 8> transposeAfter; // u with apply(u, s) == transpose(apply(t, s))
};

namespace {

const Index::KingTables& king_tables() {
    static const Index::KingTables tables = [] {
        Index::KingTables t {};
        for (int sym = 0; sym < 2; ++sym) {
            const Symmetry s = Symmetry(sym);
            const int transforms = s == Symmetry::Full8 ? 8 : 2;
            for (int wk = 0; wk < 64; ++wk)
                for (int bk = 0; bk < 64; ++bk) {
                    t.index[sym][wk][bk] = -1;
                    t.frame[sym][wk][bk] = 0;
                    if (adjacent_or_same(Square(wk), Square(bk))) continue;
                    for (int tr = 0; tr < transforms; ++tr)
                        if (canonical_pair(s, apply(tr, Square(wk)), apply(tr, Square(bk)))) {
                            t.frame[sym][wk][bk] = std::uint8_t(tr);
                            break;
                        }
                    if (canonical_pair(s, Square(wk), Square(bk))) {
                        t.index[sym][wk][bk] = std::int16_t(t.pairs[sym].size());
                        t.pairs[sym].push_back({ Square(wk), Square(bk) });
                    }
                }
        }
        for (int tr = 0; tr < 8; ++tr)
            for (int u = 0; u < 8; ++u) {
                bool same = true;
                for (int s = 0; s < 64; ++s)
                    same &= apply(u, Square(s)) == apply(kTranspose, apply(tr, Square(s)));
                if (same) t.transposeAfter[tr] = u;
            }
        return t;
    }();
    return tables;
}

// Slot of a square within a group: the square itself, or 0..23 for a Bia.
constexpr int bia_base(Color c) { return c == WHITE ? 16 : 24; }

// Combination rank of ascending slots: sum of C(slot_j, j + 1).
std::uint64_t rank_slots(const int* slots, int k) {
    std::uint64_t r = 0;
    for (int j = 0; j < k; ++j) r += IndexFastPaths::kBinomial[slots[j]][j + 1];
    return r;
}

// Inverse of rank_slots: the largest slot first.
void unrank_slots(std::uint64_t r, int k, int n, int* slots) {
    if (k == 1) {
        slots[0] = int(r);
        return;
    }
    int c = n;
    for (int j = k; j >= 1; --j) {
        do --c;
        while (IndexFastPaths::kBinomial[c][j] > r);
        slots[j - 1] = c;
        r -= IndexFastPaths::kBinomial[c][j];
    }
}

} // namespace

Square transform(int t, Square s) { return apply(t, s); }

int IndexFastPaths::king_pairs(Symmetry s) { return int(king_tables().pairs[int(s)].size()); }

int IndexFastPaths::king_pair_index(Symmetry s, Square wk, Square bk) {
    return king_tables().index[int(s)][wk][bk];
}

int IndexFastPaths::king_frame(Symmetry s, Square wk, Square bk) {
    return king_tables().frame[int(s)][wk][bk];
}

std::pair<Square, Square> IndexFastPaths::king_pair(Symmetry s, int p) {
    return king_tables().pairs[int(s)][std::size_t(p)];
}

Index::Index(const Material& material, int scheme)
    : kings_(&king_tables())
    , material_(material)
    , symmetry_(material.symmetry())
    , scheme_(scheme) {
    if (!material.is_canonical() || material.bare_kings() || !material.reachable())
        throw std::invalid_argument("no index for " + material.name());
    if (const std::string why = material.beyond_tables(); !why.empty())
        throw std::invalid_argument(why);
    if (scheme != kSchemeNameOrder && scheme != kSchemeWeakerFirst)
        throw std::invalid_argument("no index scheme " + std::to_string(scheme));
    size_ = std::uint64_t(IndexFastPaths::king_pairs(symmetry_));
    int first = 0;
    for (Color c : { WHITE, BLACK })
        for (PieceType pt : kNameOrder)
            if (const int k = material.count[c][pt]) {
                const int squares = pt == BIA ? 24 : 64;
                groups_.push_back({ c, pt, k, squares,
                    IndexFastPaths::kBinomial[std::size_t(squares)][std::size_t(k)], 1, first });
                size_ *= groups_.back().size;
                first += k;
            }
    if (scheme == kSchemeWeakerFirst) // Black's digits above White's, each side in name order
        std::stable_partition(
            groups_.begin(), groups_.end(), [](const Group& g) { return g.color == BLACK; });
    for (std::size_t g = groups_.size(); g-- > 1;)
        groups_[g - 1].stride = groups_[g].stride * groups_[g].size;
}

std::uint64_t Index::encode_in_frame(Square wk, Square bk, const Square* men, int t) const {
    const auto& kt = *kings_;
    std::uint64_t v = std::uint64_t(kt.index[int(symmetry_)][apply(t, wk)][apply(t, bk)]);
    for (const Group& g : groups_) {
        int slots[8];
        const int base = g.type == BIA ? bia_base(g.color) : 0;
        for (int j = 0; j < g.k; ++j) slots[j] = apply(t, men[g.first + j]) - base;
        for (int a = 1; a < g.k; ++a) // insertion sort: a group has at most 4 men
            for (int j = a; j > 0 && slots[j - 1] > slots[j]; --j)
                std::swap(slots[j - 1], slots[j]);
        v = v * g.size + rank_slots(slots, g.k);
    }
    return v;
}

std::uint64_t Index::encode(Square wk, Square bk, const Square* men) const {
    const auto& kt = *kings_;
    const int t = kt.frame[int(symmetry_)][wk][bk];
    const std::uint64_t v = encode_in_frame(wk, bk, men, t);
    if (symmetry_ == Symmetry::Full8) {
        const Square cwk = apply(t, wk), cbk = apply(t, bk);
        // Both kings on a1-h8: the transposed frame is canonical too; the smaller slot names it.
        if (file_of(cwk) == rank_of(cwk) && file_of(cbk) == rank_of(cbk))
            return std::min(v, encode_in_frame(wk, bk, men, kt.transposeAfter[t]));
    }
    return v;
}

std::uint64_t Index::encode(const Position& pos) const {
    Square men[16];
    for (const Group& g : groups_) {
        int n = g.first;
        for (Bitboard b = pos.pieces(g.color, g.type); b && n < g.first + g.k;)
            men[n++] = pop_lsb(b);
    }
    return encode(pos.king_square(WHITE), pos.king_square(BLACK), men);
}

std::uint64_t IndexFastPaths::single_man_stride(const Index& index, Color c, PieceType pt) {
    for (const Index::Group& g : index.groups_)
        if (g.color == c && g.type == pt) return g.k == 1 ? g.stride : 0;
    return 0;
}

std::uint64_t IndexFastPaths::with_kings(
    const Index& index, std::uint64_t i, Square wk, Square bk, Square toWk, Square toBk) {
    const auto& kt = *index.kings_;
    const int s = int(index.symmetry_);
    const int to = kt.index[s][toWk][toBk];
    if (to < 0) return Index::kNoSlot; // not canonical as it stands
    if (index.symmetry_ == Symmetry::Full8 && file_of(toWk) == rank_of(toWk)
        && file_of(toBk) == rank_of(toBk))
        return Index::kNoSlot;
    const auto& top = index.groups_[0];
    const std::uint64_t pairStride = top.stride * top.size; // slots per pair
    return i + std::uint64_t(to - kt.index[s][wk][bk]) * pairStride;
}

bool Index::decode(std::uint64_t i, Position& pos) const {
    const std::uint64_t original = i;
    for (auto g = groups_.rbegin(); g != groups_.rend(); ++g) {
        int slots[8];
        unrank_slots(i % g->size, g->k, g->squares, slots);
        i /= g->size;
        for (int j = 0; j < g->k; ++j) {
            const Square s = Square(g->type == BIA ? slots[j] + bia_base(g->color) : slots[j]);
            if (!pos.empty(s)) return false;
            pos.put_piece(make_piece(g->color, g->type), s);
        }
    }
    const auto [wk, bk] = kings_->pairs[int(symmetry_)][i];
    if (!pos.empty(wk) || !pos.empty(bk)) return false;
    pos.put_piece(make_piece(WHITE, KHUN), wk);
    pos.put_piece(make_piece(BLACK, KHUN), bk);
    if (symmetry_ == Symmetry::Full8 && file_of(wk) == rank_of(wk) && file_of(bk) == rank_of(bk))
        return encode(pos) == original;
    return true;
}

int Index::orbit_size(const Position& pos) const {
    const int transforms = symmetry_ == Symmetry::Full8 ? 8 : 2;
    int fixed = 0;
    for (int t = 0; t < transforms; ++t) {
        bool same = true;
        for (Bitboard b = pos.pieces(); b && same;) {
            const Square s = pop_lsb(b);
            same = pos.piece_on(apply(t, s)) == pos.piece_on(s);
        }
        fixed += same;
    }
    return transforms / fixed;
}

} // namespace mktb

// gen_index.cpp - the generation index (see gen_index.hpp).
#include "gen_index.hpp"

#include "index_fast_paths.hpp"

#include <stdexcept>

namespace mktb {

namespace {

constexpr int kTranspose = 4; // transform(4, s) reflects s in a1-h8

bool on_diagonal(Square s) { return file_of(s) == rank_of(s); }

} // namespace

GenIndex::GenIndex(const Material& m)
    : material_(m)
    , symmetry_(m.symmetry()) {
    if (!m.is_canonical() || m.bare_kings() || !m.reachable())
        throw std::invalid_argument("no generation index for " + m.name());
    for (Color c : { WHITE, BLACK })
        for (PieceType pt : kNameOrder) {
            const int first = men_;
            for (int k = 0; k < m.count[c][pt]; ++k) {
                if (men_ == kMaxGenMen)
                    throw std::invalid_argument("too many men for a generation index: " + m.name());
                const auto j = std::size_t(men_++);
                color_[j] = c;
                type_[j] = pt;
                limit_[j] = pt == BIA ? 24 : 64;
                base_[j] = pt == BIA ? (c == WHITE ? SQ_A3 : SQ_A4) : 0;
                groupFirst_[j] = first;
                groupSize_[j] = m.count[c][pt];
                storageOrder_ &= pt != BIA && groupSize_[j] == 1;
            }
        }
    // A group is ranked (one field, gen_index.hpp) when it has three men or more, or two
    // beside three other men: from six men on, where the memory is what limits.
    for (int j = 0; j < men_; ++j)
        ranked_[std::size_t(j)]
            = groupSize_[std::size_t(j)] >= 3 || (groupSize_[std::size_t(j)] == 2 && men_ >= 4);
    // The fields in the storage Index's digit order (scheme 2: Black's men above White's),
    // the first man of a group above the others; the last in that order at bit 0.
    std::array<int, kMaxGenMen> order {};
    int n = 0;
    for (Color c : { BLACK, WHITE })
        for (int j = 0; j < men_; ++j)
            if (color_[std::size_t(j)] == c) order[std::size_t(n++)] = j;
    static_assert(Index::kScheme == Index::kSchemeWeakerFirst);
    while (n-- > 0) {
        const int j = order[std::size_t(n)];
        const auto u = std::size_t(j);
        if (ranked_[u]) {
            if (groupFirst_[u] == j) add_ranked_group(j);
            continue;
        }
        const int bits = type_[u] == BIA ? 5 : 6;
        shift_[u] = fieldBits_;
        fieldMask_[u] = (1 << bits) - 1;
        fileBits_ |= std::uint64_t(7) << fieldBits_;
        lowBits_ |= std::uint64_t(1) << fieldBits_;
        highBits_ |= std::uint64_t(1) << (fieldBits_ + bits - 1);
        fieldBits_ += bits;
    }
    fieldsMask_ = (std::uint64_t(1) << fieldBits_) - 1;
    for (int j = 0; j < men_; ++j)
        if (!ranked_[std::size_t(j)] && groupFirst_[std::size_t(j)] == j
            && groupSize_[std::size_t(j)] == 2)
            twinPair_[std::size_t(twinPairs_++)] = j;
    for (int t = 0; t < 8; ++t)
        for (int s = 0; s < 64; ++s)
            transform_[std::size_t(t)][std::size_t(s)] = transform(t, Square(s));
    for (int wk = 0; wk < 64; ++wk)
        for (int bk = 0; bk < 64; ++bk) {
            pairIndex_[std::size_t(wk)][std::size_t(bk)]
                = std::int16_t(IndexFastPaths::king_pair_index(symmetry_, Square(wk), Square(bk)));
            frame_[std::size_t(wk)][std::size_t(bk)]
                = std::uint8_t(IndexFastPaths::king_frame(symmetry_, Square(wk), Square(bk)));
        }
    const int pairs = IndexFastPaths::king_pairs(symmetry_);
    for (int p = 0; p < pairs; ++p) {
        const auto [wk, bk] = IndexFastPaths::king_pair(symmetry_, p);
        pairs_.push_back({ wk, bk });
        residue_.push_back(symmetry_ == Symmetry::Full8 && on_diagonal(wk) && on_diagonal(bk));
    }
    size_ = std::uint64_t(pairs) << fieldBits_;
}

// The field of ranked group j (its first man) at the lowest free bits, and the squares of each
// rank: the k-subsets of its squares in increasing order as numbers (the next one by Gosper's
// rule) are the combinatorial number system's ranks 0, 1, 2 ... in order.
void GenIndex::add_ranked_group(int j) {
    const auto u = std::size_t(j);
    RankedGroup g;
    g.first = j;
    g.size = groupSize_[u];
    g.limit = limit_[u];
    g.base = base_[u];
    g.shift = fieldBits_;
    g.ranks = IndexFastPaths::kBinomial[std::size_t(g.limit)][std::size_t(g.size)];
    if (g.ranks > (std::uint64_t(1) << 24))
        throw std::invalid_argument(
            "too many identical men for a generation index: " + material_.name());
    const int bits = std::bit_width(g.ranks - 1);
    g.mask = (std::uint64_t(1) << bits) - 1;
    g.squares.resize(std::size_t(g.ranks));
    Bitboard c = (Bitboard(1) << g.size) - 1;
    for (std::uint64_t r = 0; r < g.ranks; ++r) {
        g.squares[std::size_t(r)] = c;
        if (r + 1 == g.ranks) break;
        const Bitboard low = c & -c, v = c + low;
        c = v | (((v ^ c) / low) >> 2);
    }
    for (int m = j; m < j + g.size; ++m) {
        rankedOf_[std::size_t(m)] = int(rankedGroups_.size());
        shift_[std::size_t(m)] = fieldBits_;
        fieldMask_[std::size_t(m)] = int(g.mask);
    }
    fieldBits_ += bits;
    rankedGroups_.push_back(std::move(g));
}

void GenIndex::sort_groups(GenBoard& b) const {
    for (int j = 1; j < men_; ++j) // insertion sort within each group (a few men)
        for (int k = j;
             k > groupFirst_[std::size_t(k)] && b.man[std::size_t(k - 1)] > b.man[std::size_t(k)];
             --k)
            std::swap(b.man[std::size_t(k - 1)], b.man[std::size_t(k)]);
}

std::uint64_t GenIndex::fields(GenBoard& b, int t) const {
    if (t)
        for (int j = 0; j < men_; ++j)
            b.man[std::size_t(j)] = transform_[std::size_t(t)][std::size_t(b.man[std::size_t(j)])];
    sort_groups(b);
    std::uint64_t w = 0;
    for (int j = 0; j < men_; ++j)
        if (!ranked_[std::size_t(j)])
            w |= std::uint64_t(b.man[std::size_t(j)] - base_[std::size_t(j)])
                << shift_[std::size_t(j)];
    for (const RankedGroup& g : rankedGroups_) w |= rank(b, g) << g.shift;
    return w;
}

std::uint64_t GenIndex::encode(GenBoard b) const {
    const int t = frame_[std::size_t(b.king[WHITE])][std::size_t(b.king[BLACK])];
    const Square wk = transform_[std::size_t(t)][std::size_t(b.king[WHITE])];
    const Square bk = transform_[std::size_t(t)][std::size_t(b.king[BLACK])];
    const auto p = std::uint64_t(pairIndex_[std::size_t(wk)][std::size_t(bk)]);
    std::uint64_t w = fields(b, t);
    if (residue_[p]) {
        GenBoard r = b; // already in frame t: reflect it in a1-h8 too
        w = std::min(w, fields(r, kTranspose));
    }
    return p << fieldBits_ | w;
}

bool GenIndex::decode(std::uint64_t i, GenBoard& b) const {
    const std::uint64_t p = i >> fieldBits_;
    b.king = { pairs_[p].first, pairs_[p].second };
    Bitboard occ = square_bb(b.king[WHITE]) | square_bb(b.king[BLACK]);
    for (int j = 0; j < men_; ++j) {
        const auto u = std::size_t(j);
        if (ranked_[u]) continue;
        const int slot = int(i >> shift_[u]) & fieldMask_[u];
        if (slot >= limit_[u]) return false;
        const Square s = Square(slot + base_[u]);
        if (occ & square_bb(s)) return false;
        if (j > groupFirst_[u] && b.man[u - 1] >= s) return false;
        occ |= square_bb(s);
        b.man[u] = s;
    }
    for (const RankedGroup& g : rankedGroups_) {
        if ((i >> g.shift & g.mask) >= g.ranks) return false;
        unrank(i, g, b);
        for (int m = g.first; m < g.first + g.size; ++m) {
            const Square s = b.man[std::size_t(m)];
            if (occ & square_bb(s)) return false;
            occ |= square_bb(s);
        }
    }
    if (!residue_[p]) return true;
    GenBoard r = b;
    return fields(r, kTranspose) >= (i & ((std::uint64_t(1) << fieldBits_) - 1));
}

bool GenIndex::symmetric(const GenBoard& b) const {
    GenBoard r = b, s = b;
    return fields(r, kTranspose) == fields(s, 0);
}

} // namespace mktb

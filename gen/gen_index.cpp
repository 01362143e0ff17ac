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
        const int bits = type_[std::size_t(j)] == BIA ? 5 : 6;
        shift_[std::size_t(j)] = fieldBits_;
        fieldMask_[std::size_t(j)] = (1 << bits) - 1;
        fileBits_ |= std::uint64_t(7) << fieldBits_;
        lowBits_ |= std::uint64_t(1) << fieldBits_;
        highBits_ |= std::uint64_t(1) << (fieldBits_ + bits - 1);
        fieldBits_ += bits;
    }
    fieldsMask_ = (std::uint64_t(1) << fieldBits_) - 1;
    for (int j = 0; j < men_; ++j)
        if (groupFirst_[std::size_t(j)] == j && groupSize_[std::size_t(j)] == 2)
            twinPair_[std::size_t(twinPairs_++)] = j;
        else if (groupSize_[std::size_t(j)] > 2)
            twinsBitwise_ = false;
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

void GenIndex::sort_groups(GenBoard& b) const {
    for (int j = 1; j < men_; ++j) // insertion sort within each group (at most 3 men)
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
        w |= std::uint64_t(b.man[std::size_t(j)] - base_[std::size_t(j)]) << shift_[std::size_t(j)];
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
        const int slot = int(i >> shift_[u]) & fieldMask_[u];
        if (slot >= limit_[u]) return false;
        const Square s = Square(slot + base_[u]);
        if (occ & square_bb(s)) return false;
        if (j > groupFirst_[u] && b.man[u - 1] >= s) return false;
        occ |= square_bb(s);
        b.man[u] = s;
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

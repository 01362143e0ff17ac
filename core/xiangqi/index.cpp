// index.cpp - Xiangqi material names and the storage index (see mktb/xiangqi/index.hpp).
#include "mktb/xiangqi/index.hpp"

#include <algorithm>
#include <bit>
#include <map>
#include <set>
#include <stdexcept>

namespace mktb::xq {

namespace {

// The order of a side's men in names and in the index: the strongest first.
constexpr PieceType kOrder[6] = { CHARIOT, CANNON, HORSE, SOLDIER, ADVISOR, ELEPHANT };

constexpr int kMaxGroup = 5; // five soldiers

struct Binomials {
    std::uint64_t c[POINT_NB + 1][kMaxGroup + 1] {};
    constexpr Binomials() {
        for (int n = 0; n <= POINT_NB; ++n) {
            c[n][0] = 1;
            for (int k = 1; k <= kMaxGroup; ++k) c[n][k] = n ? c[n - 1][k - 1] + c[n - 1][k] : 0;
        }
    }
};
constexpr Binomials kBinomial;

// The colex rank of ascending indices, and its inverse.
std::uint64_t rank_of_set(const std::int8_t* idx, int k) {
    std::uint64_t r = 0;
    for (int j = 0; j < k; ++j) r += kBinomial.c[idx[j]][j + 1];
    return r;
}
void unrank_set(std::uint64_t r, int k, int n, std::int8_t* idx) {
    for (int j = k - 1; j >= 0; --j) {
        int i = n - 1;
        while (kBinomial.c[i][j + 1] > r) --i;
        idx[j] = std::int8_t(i);
        r -= kBinomial.c[i][j + 1];
        n = i;
    }
}

// A side's strength, to choose which side of an ending is Red in its table.
std::uint64_t strength(const std::array<std::uint8_t, PIECE_TYPE_NB>& c) {
    const std::uint64_t points = 18u * c[CHARIOT] + 9u * c[CANNON] + 8u * c[HORSE] + 4u * c[SOLDIER]
        + 4u * c[ADVISOR] + 4u * c[ELEPHANT];
    std::uint64_t key = points;
    for (PieceType pt : kOrder) key = key * 8 + c[pt];
    return key;
}

// 'text', built by appending (GCC 12 warns of a false overlap in "'" + std::string(...)).
std::string quoted(std::string_view text) {
    std::string q;
    q.reserve(text.size() + 2);
    q.append(1, '\'').append(text).append(1, '\'');
    return q;
}

} // namespace

std::string Material::parse_error(std::string_view name) {
    const std::size_t v = name.find('v');
    if (v == std::string_view::npos || name.find('v', v + 1) != std::string_view::npos)
        return quoted(name)
            + " is not an ending: write both sides' men around one 'v', e.g. KRvKAABB";
    for (int side = 0; side < 2; ++side) {
        const std::string_view s = side ? name.substr(v + 1) : name.substr(0, v);
        std::array<int, PIECE_TYPE_NB> n {};
        for (char ch : s) {
            const PieceType pt = piece_type_from_letter(ch);
            if (pt == NO_PIECE_TYPE)
                return quoted(std::string(1, ch))
                    + " is not a Xiangqi man: the letters are K A B N R C P";
            ++n[pt];
        }
        if (n[KING] != 1) return "each side needs exactly one K: " + quoted(s);
        for (int pt = ADVISOR; pt < PIECE_TYPE_NB; ++pt)
            if (n[pt] > kStartCount[pt])
                return quoted(s) + " has " + std::to_string(n[pt]) + " "
                    + std::string(kRules[pt].name) + "s, more than the "
                    + std::to_string(kStartCount[pt]) + " of a side";
    }
    return "";
}

std::optional<Material> Material::parse(std::string_view name) {
    if (!parse_error(name).empty()) return std::nullopt;
    Material m;
    const std::size_t v = name.find('v');
    for (std::size_t i = 0; i < name.size(); ++i)
        if (i != v) ++m.count[i < v ? RED : BLACK][piece_type_from_letter(name[i])];
    return m;
}

Material Material::of(const Position& pos) {
    Material m;
    for (Color c : { RED, BLACK })
        for (int pt = KING; pt < PIECE_TYPE_NB; ++pt)
            m.count[c][pt] = std::uint8_t(pos.count(c, PieceType(pt)));
    return m;
}

std::string Material::name() const {
    std::string s;
    for (Color c : { RED, BLACK }) {
        if (c == BLACK) s += 'v';
        s += 'K';
        for (PieceType pt : kOrder) s.append(count[c][pt], kRules[pt].letter);
    }
    return s;
}

int Material::men(Color c) const {
    int n = 0;
    for (int k : count[c]) n += k;
    return n;
}
int Material::men() const { return men(RED) + men(BLACK); }

bool Material::armless(Color c) const {
    return !count[c][CHARIOT] && !count[c][CANNON] && !count[c][HORSE] && !count[c][SOLDIER];
}

Material Material::swapped() const {
    Material m;
    m.count[RED] = count[BLACK], m.count[BLACK] = count[RED];
    return m;
}

Material Material::canonical() const {
    return strength(count[RED]) >= strength(count[BLACK]) ? *this : swapped();
}

std::uint64_t Material::key() const {
    std::uint64_t k = 0;
    for (Color c : { RED, BLACK })
        for (int pt = KING; pt < PIECE_TYPE_NB; ++pt) k = k * 8 + count[c][pt];
    return k;
}

std::vector<Material> children(const Material& m) {
    std::vector<Material> out;
    for (Color c : { RED, BLACK })
        for (int pt = ADVISOR; pt < PIECE_TYPE_NB; ++pt)
            if (m.count[c][pt]) {
                Material child = m;
                --child.count[c][pt];
                child = child.canonical();
                if (std::find(out.begin(), out.end(), child) == out.end()) out.push_back(child);
            }
    return out;
}

std::vector<Material> with_descendants(const Material& m) {
    std::map<std::pair<int, std::string>, Material> all;
    std::vector<Material> todo { m.canonical() };
    while (!todo.empty()) {
        const Material x = todo.back();
        todo.pop_back();
        if (!all.emplace(std::pair(x.men(), x.name()), x).second) continue;
        for (const Material& c : children(x)) todo.push_back(c);
    }
    std::vector<Material> out;
    for (const auto& [key, x] : all) out.push_back(x);
    return out;
}

Index::Index(const Material& m)
    : material_(m) {
    pieces_[0] = make_piece(RED, KING), pieces_[1] = make_piece(BLACK, KING);
    groupOf_[0] = groupOf_[1] = -1;
    men_ = 2;
    for (Color c : { RED, BLACK })
        for (PieceType pt : kOrder) {
            const int k = m.count[c][pt];
            if (!k) continue;
            if (k > kMaxGroup) throw std::invalid_argument("too many men of one kind");
            Group g;
            g.piece = make_piece(c, pt);
            g.first = men_, g.size = k;
            g.reach.fill(-1);
            for (int p = 0; p < POINT_NB; ++p)
                if (can_stand(c, pt, p)) {
                    g.reach[p] = std::int8_t(g.point.size());
                    g.point.push_back(std::int8_t(p));
                }
            g.points = int(g.point.size());
            g.slots = kBinomial.c[g.points][k];
            if (g.slots <= (1u << 22)) { // the inverse as a table, where it is small
                g.unrank.resize(g.slots * std::uint64_t(k));
                for (std::uint64_t r = 0; r < g.slots; ++r)
                    unrank_set(r, k, g.points, &g.unrank[r * std::uint64_t(k)]);
            }
            for (int i = 0; i < k; ++i) {
                pieces_[men_] = g.piece;
                groupOf_[men_++] = std::int8_t(groups_.size());
            }
            groups_.push_back(std::move(g));
        }
    std::uint64_t stride = 1;
    for (auto g = groups_.rbegin(); g != groups_.rend(); ++g)
        g->stride = stride, stride *= g->slots;
    pairStride_ = stride;
    size_ = stride * kKingPairClasses;
    for (auto& row : pairClass_) row.fill(-1);
    int n = 0;
    for (int rk = 0; rk < POINT_NB; ++rk)
        for (int bk = 0; bk < POINT_NB; ++bk) {
            if (!can_stand(RED, KING, rk) || !can_stand(BLACK, KING, bk)) continue;
            if (file_of(rk) > 4 || (file_of(rk) == 4 && file_of(bk) > 4)) continue;
            pairs_[n] = { std::int8_t(rk), std::int8_t(bk) };
            pairClass_[rk][bk] = std::int8_t(n++);
        }
    if (n != kKingPairClasses) throw std::logic_error("king pair classes");
}

std::uint64_t Index::group_rank(std::int8_t* idx, int k) {
    for (int i = 1; i < k; ++i) // at most five men: an insertion sort
        for (int j = i; j > 0 && idx[j - 1] > idx[j]; --j) std::swap(idx[j - 1], idx[j]);
    return rank_of_set(idx, k);
}

std::uint64_t Index::encode_oriented(const Placement& p, bool mirrorIt) const {
    auto at = [&](int man) { return mirrorIt ? mirror(p.at[man]) : int(p.at[man]); };
    std::uint64_t slot = std::uint64_t(pairClass_[at(0)][at(1)]) * pairStride_;
    for (const Group& g : groups_) {
        std::int8_t idx[kMaxGroup];
        for (int i = 0; i < g.size; ++i) {
            const std::int8_t v = g.reach[at(g.first + i)];
            int j = i;
            for (; j > 0 && idx[j - 1] > v; --j) idx[j] = idx[j - 1];
            idx[j] = v;
        }
        slot += rank_of_set(idx, g.size) * g.stride;
    }
    return slot;
}

std::uint64_t Index::encode(const Placement& p, bool* mirrored) const {
    const int rf = file_of(p.at[0]), bf = file_of(p.at[1]);
    bool m = rf > 4 || (rf == 4 && bf > 4);
    std::uint64_t slot;
    if (rf == 4 && bf == 4) {
        const std::uint64_t a = encode_oriented(p, false), b = encode_oriented(p, true);
        m = b < a;
        slot = m ? b : a;
    } else
        slot = encode_oriented(p, m);
    if (mirrored) *mirrored = m;
    return slot;
}

std::uint64_t Index::encode(const Position& pos) const {
    Placement p;
    p.at[0] = std::int8_t(pos.king_point(RED)), p.at[1] = std::int8_t(pos.king_point(BLACK));
    // Each group's men from the position's set of its piece's points (a probe's hot path).
    for (const Group& g : groups_) {
        int i = g.first;
        for (Points x = pos.pieces(g.piece); x;) p.at[i++] = std::int8_t(pop_point(x));
    }
    return encode(p);
}

bool Index::decode(std::uint64_t slot, Placement& p, Points* occupied) const {
    // In 32-bit arithmetic where the index fits (every ending of 11 men but the largest few):
    // its divisions cost half as much.
    return size_ <= 0xFFFFFFFFu ? decode_as<std::uint32_t>(slot, p, occupied)
                                : decode_as<std::uint64_t>(slot, p, occupied);
}

template<class Int>
bool Index::decode_as(std::uint64_t slot64, Placement& p, Points* occupied) const {
    const Int slot = Int(slot64);
    const Int cls = slot / Int(pairStride_);
    Int rest = slot % Int(pairStride_);
    p.at[0] = pairs_[cls][0], p.at[1] = pairs_[cls][1];
    std::uint64_t occ[2] = { 0, 0 };
    auto take = [&](int point) {
        std::uint64_t& w = occ[point >> 6];
        const std::uint64_t bit = std::uint64_t(1) << (point & 63);
        const bool free = !(w & bit);
        w |= bit;
        return free;
    };
    take(p.at[0]), take(p.at[1]);
    bool ok = true;
    for (const Group& g : groups_) {
        const Int r = rest / Int(g.stride);
        rest %= Int(g.stride);
        std::int8_t buf[kMaxGroup];
        const std::int8_t* idx = buf;
        if (!g.unrank.empty())
            idx = &g.unrank[std::uint64_t(r) * std::uint64_t(g.size)];
        else
            unrank_set(r, g.size, g.points, buf);
        for (int i = 0; i < g.size; ++i) {
            p.at[g.first + i] = g.point[idx[i]];
            ok &= take(g.point[idx[i]]);
        }
    }
    if (!ok) return false;
    if (occupied) *occupied = Points(occ[0]) | Points(occ[1]) << 64;
    if (file_of(p.at[0]) == 4 && file_of(p.at[1]) == 4) return encode_oriented(p, true) >= slot64;
    return true;
}

Index::Cursor::Cursor(const Index& index, std::uint64_t first)
    : index_(index)
    , slot_(first) {
    if (first >= index.size_) return;
    cls_ = first / index.pairStride_;
    std::uint64_t rest = first % index.pairStride_;
    for (std::size_t g = 0; g < index.groups_.size(); ++g) {
        digit_[g] = rest / index.groups_[g].stride;
        rest %= index.groups_[g].stride;
        place(int(g));
    }
    place(-1);
    check();
}

void Index::Cursor::place(int g) {
    if (g < 0) {
        p_.at[0] = index_.pairs_[cls_][0], p_.at[1] = index_.pairs_[cls_][1];
        kings_ = point_bit(p_.at[0]) | point_bit(p_.at[1]);
        return;
    }
    const Group& gr = index_.groups_[std::size_t(g)];
    std::int8_t buf[kMaxGroup];
    const std::int8_t* idx = buf;
    if (!gr.unrank.empty())
        idx = &gr.unrank[digit_[std::size_t(g)] * std::uint64_t(gr.size)];
    else
        unrank_set(digit_[std::size_t(g)], gr.size, gr.points, buf);
    Points bits = 0;
    for (int i = 0; i < gr.size; ++i) {
        p_.at[gr.first + i] = gr.point[idx[i]];
        bits |= point_bit(gr.point[idx[i]]);
    }
    points_[std::size_t(g)] = bits;
}

void Index::Cursor::check() {
    Points occ = kings_;
    for (std::size_t g = 0; g < index_.groups_.size(); ++g) occ |= points_[g];
    position_ = std::popcount(std::uint64_t(occ)) + std::popcount(std::uint64_t(occ >> 64))
        == index_.men_;
    if (position_ && file_of(p_.at[0]) == 4 && file_of(p_.at[1]) == 4)
        position_ = index_.encode_oriented(p_, true) >= slot_;
}

void Index::Cursor::next() {
    if (++slot_ >= index_.size_) return;
    int g = int(index_.groups_.size()) - 1;
    for (; g >= 0; --g) { // the innermost digit up; a digit that wraps carries outward
        const Group& gr = index_.groups_[std::size_t(g)];
        if (++digit_[std::size_t(g)] < gr.slots) break;
        digit_[std::size_t(g)] = 0;
        place(g);
    }
    if (g < 0)
        ++cls_, place(-1);
    else
        place(g);
    check();
}

std::uint64_t Index::Mover::mirrored_rest() const {
    if (!mirrorKnown_) {
        mirroredRest_ = 0;
        for (std::size_t g = 0; g < index_.groups_.size(); ++g) {
            const Group& gr = index_.groups_[g];
            mirroredRank_[g] = rank(gr, gr.first, p_.at[gr.first], true);
            mirroredRest_ += mirroredRank_[g] * gr.stride;
        }
        mirrorKnown_ = true;
    }
    return mirroredRest_;
}

bool Index::symmetric(const Placement& p) const {
    return file_of(p.at[0]) == 4 && file_of(p.at[1]) == 4
        && encode_oriented(p, true) == encode_oriented(p, false);
}

Position Index::position(const Placement& p, Color stm) const {
    Position pos;
    for (int i = 0; i < men_; ++i) pos.put_piece(pieces_[i], p.at[i]);
    pos.set_side_to_move(stm);
    return pos;
}

} // namespace mktb::xq

// material.cpp - material signatures (see mktb/material.hpp).
#include "mktb/material.hpp"

#include <algorithm>
#include <set>
#include <tuple>

namespace mktb {

namespace {

// Weight of a kind (a rough value): decides which side is written first, and which side is the
// weaker one that counts under board's honour.
constexpr int kWeight[PIECE_TYPE_NB] = { 0, 0, 4, 7, 6, 10, 2 };

// Sort key of one side: total weight, then counts in name order. Larger = stronger.
auto strength(const Material& m, Color c) {
    std::array<int, 6> key {};
    for (PieceType pt : kNameOrder) key[0] += kWeight[pt] * m.count[c][pt];
    for (std::size_t i = 0; i < kNameOrder.size(); ++i) key[i + 1] = m.count[c][kNameOrder[i]];
    return key;
}

} // namespace

Material Material::of(const Position& pos) {
    Material m;
    for (Color c : { WHITE, BLACK })
        for (int pt = KHUN; pt < PIECE_TYPE_NB; ++pt)
            m.count[c][pt] = std::uint8_t(pos.count(c, PieceType(pt)));
    return m;
}

std::optional<Material> Material::parse(std::string_view name, std::string* error) {
    auto fail = [&](std::string why) -> std::optional<Material> {
        if (error) *error = "bad ending name '" + std::string(name) + "': " + why;
        return std::nullopt;
    };
    const std::size_t v = name.find('v');
    if (v == std::string_view::npos || name.find('v', v + 1) != std::string_view::npos)
        return fail("expected one 'v' between the sides, as in KRvK");
    Material m;
    const std::string_view sides[2] = { name.substr(0, v), name.substr(v + 1) };
    for (Color c : { WHITE, BLACK }) {
        const std::string_view s = sides[c];
        if (s.empty() || s[0] != 'K') return fail("each side starts with its king K");
        m.count[c][KHUN] = 1;
        // Men in any order, as a player writes them (KNSvK is KSNvK); name() spells them R S N M P.
        for (std::size_t i = 1; i < s.size(); ++i) {
            const PieceType pt = piece_type_from_letter(s[i]);
            if (pt == NO_PIECE_TYPE || pt == KHUN)
                return fail(std::string("unknown man '") + s[i] + "' (use R S N M P after the K)");
            ++m.count[c][pt];
        }
    }
    if (!m.reachable()) return fail("a side has more men than the start position allows");
    return m;
}

std::string Material::name() const {
    std::string s;
    for (Color c : { WHITE, BLACK }) {
        if (c == BLACK) s += 'v';
        s += 'K';
        for (PieceType pt : kNameOrder) s.append(count[c][pt], kRules[pt].letter);
    }
    return s;
}

int Material::men(Color c) const {
    int n = 0;
    for (int pt = KHUN; pt < PIECE_TYPE_NB; ++pt) n += count[c][pt];
    return n;
}

int Material::men() const { return men(WHITE) + men(BLACK); }

Material Material::swapped() const {
    Material m;
    m.count[WHITE] = count[BLACK];
    m.count[BLACK] = count[WHITE];
    return m;
}

std::optional<Color> Material::weaker_side() const {
    const int w = strength(*this, WHITE)[0], b = strength(*this, BLACK)[0];
    if (w == b) return std::nullopt;
    return w < b ? WHITE : BLACK;
}

bool Material::is_canonical() const { return strength(*this, WHITE) >= strength(*this, BLACK); }

bool Material::reachable() const {
    for (Color c : { WHITE, BLACK }) {
        if (count[c][KHUN] != 1) return false;
        for (PieceType pt : { KHON, MA, RUEA })
            if (count[c][pt] > kStartCount[pt]) return false;
        if (count[c][MET] + count[c][BIA] > kStartCount[MET] + kStartCount[BIA]) return false;
    }
    return true;
}

std::string Material::beyond_tables() const {
    static constexpr const char* kNames[PIECE_TYPE_NB]
        = { "", "Khun", "Met", "Khon", "Ma", "Ruea", "Bia" };
    for (Color c : { WHITE, BLACK })
        for (int pt = 0; pt < PIECE_TYPE_NB; ++pt)
            if (count[c][pt] > kMaxIdentical)
                return name() + " has " + std::to_string(count[c][pt]) + " "
                    + (c == WHITE ? "White " : "Black ") + kNames[pt] + "; a table holds at most "
                    + std::to_string(kMaxIdentical) + " men of one kind and colour";
    return {};
}

std::vector<Material> Material::children() const {
    std::vector<Material> out;
    auto add = [&](Material m) {
        if (m.bare_kings()) return;
        m = m.canonical();
        if (std::find(out.begin(), out.end(), m) == out.end()) out.push_back(m);
    };
    for (Color c : { WHITE, BLACK })
        for (PieceType pt : kNameOrder) {
            if (!count[c][pt]) continue;
            Material captured = *this;
            --captured.count[c][pt];
            add(captured);
            if (pt == BIA) {
                Material promoted = *this;
                --promoted.count[c][BIA];
                ++promoted.count[c][MET];
                add(promoted);
                // A Bia may promote by capturing: both changes in one move.
                for (PieceType victim : kNameOrder)
                    if (promoted.count[~c][victim]) {
                        Material both = promoted;
                        --both.count[~c][victim];
                        add(both);
                    }
            }
        }
    return out;
}

std::vector<Material> all_materials(int men) {
    // Every split of up to men-2 non-king men between the sides, kept when canonical.
    std::vector<Material> out;
    std::set<std::string> seen;
    std::vector<Material> frontier { Material {} };
    frontier[0].count[WHITE][KHUN] = frontier[0].count[BLACK][KHUN] = 1;
    for (int added = 0; added < men - 2; ++added) {
        std::vector<Material> next;
        for (const Material& m : frontier)
            for (Color c : { WHITE, BLACK })
                for (PieceType pt : kNameOrder) {
                    Material n = m;
                    ++n.count[c][pt];
                    if (!n.reachable()) continue;
                    const Material canon = n.canonical();
                    if (seen.insert(canon.name()).second) {
                        out.push_back(canon);
                        next.push_back(canon);
                    }
                }
        frontier = std::move(next);
    }
    // Smaller first; with equal men, fewer Bia first (a promotion keeps the number of men).
    std::stable_sort(out.begin(), out.end(), [](const Material& a, const Material& b) {
        const int bia_a = a.count[WHITE][BIA] + a.count[BLACK][BIA];
        const int bia_b = b.count[WHITE][BIA] + b.count[BLACK][BIA];
        return std::make_pair(a.men(), bia_a) < std::make_pair(b.men(), bia_b);
    });
    return out;
}

Position colour_swapped(const Position& pos) {
    Position p;
    for (Bitboard b = pos.pieces(); b;) {
        const Square s = pop_lsb(b);
        const Piece pc = pos.piece_on(s);
        p.put_piece(make_piece(~color_of(pc), type_of(pc)), flip_rank(s));
    }
    p.set_side_to_move(~pos.side_to_move());
    p.set_count_state(pos.count_state());
    return p;
}

} // namespace mktb

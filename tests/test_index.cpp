// test_index.cpp - material signatures and the Index: closed-form sizes, exhaustive round trips
// for every ending up to 4 men, random round trips for 5 men, and board counts.
#include <catch2/catch.hpp>

#include <random>

#include "gen_index.hpp"
#include "index_fast_paths.hpp"
#include "mktb/index.hpp"
#include "support/random_positions.hpp"

using namespace mktb;

namespace {

Material mat(const char* name) {
    std::string error;
    const auto m = Material::parse(name, &error);
    INFO(error); // after parse has written it
    REQUIRE(m);
    return *m;
}

// A random legal-or-not board of a material (kings apart, no overlaps).
Position random_board(test::Rng& rng, const Material& m) {
    for (;;) {
        Position pos;
        bool ok = true;
        for (Color c : { WHITE, BLACK })
            for (int pt = KHUN; pt < PIECE_TYPE_NB && ok; ++pt)
                for (int k = 0; k < m.count[c][pt] && ok; ++k) {
                    const Bitboard allowed = pt == BIA ? kBiaSquares[c] : ~Bitboard(0);
                    Square s;
                    do s = Square(rng() % 64);
                    while (!(allowed & square_bb(s)));
                    ok = pos.empty(s);
                    if (ok) pos.put_piece(make_piece(c, PieceType(pt)), s);
                }
        if (ok && !(attacks_bb(WHITE, KHUN, pos.king_square(WHITE)) & pos.pieces(BLACK, KHUN)))
            return pos;
    }
}

bool same_board(const Position& a, const Position& b) {
    for (int s = 0; s < 64; ++s)
        if (a.piece_on(Square(s)) != b.piece_on(Square(s))) return false;
    return true;
}

Position transformed(const Position& pos, int t) {
    Position p;
    for (Bitboard b = pos.pieces(); b;) {
        const Square s = pop_lsb(b);
        p.put_piece(pos.piece_on(s), transform(t, s));
    }
    return p;
}

} // namespace

TEST_CASE("Signatures: names, canonical side, reachability, the 5-men list", "[index]") {
    CHECK(mat("KRSvKM").name() == "KRSvKM");
    CHECK(mat("KMvKR").canonical().name() == "KRvKM");
    CHECK(mat("KNPvK").symmetry() == Symmetry::MirrorOnly);
    CHECK(mat("KRMvKN").symmetry() == Symmetry::Full8);
    std::string error;
    CHECK_FALSE(Material::parse("KRRRvK", &error));
    CHECK_THAT(error, Catch::Contains("more men than the start position allows"));
    CHECK_FALSE(Material::parse("KRvQ", &error));
    // Men in any order and the sides either way round, as players write them.
    CHECK(mat("KMRvK").name() == "KRMvK");
    CHECK(mat("KNSvK").name() == "KSNvK");
    CHECK(mat("KvKR").canonical().name() == "KRvK");
    CHECK_FALSE(Material::parse("KRKvK", &error));
    CHECK_THAT(error, Catch::Contains("unknown man 'K'"));
    CHECK_FALSE(Material::parse("KR", &error));
    // 5 (3 men) + 30 (4 men) + 110 (5 men) = 145 ways to give 1-3 men of R S N M P to two sides;
    // KRRRvK, KSSSvK and KNNNvK cannot occur (two of each per side), so 142 endings.
    CHECK(all_materials(3).size() == 5);
    CHECK(all_materials(4).size() == 35);
    CHECK(all_materials(5).size() == 142);
    // Children: captures of either side, the promotion, and a promotion that captures.
    std::vector<std::string> kids;
    for (const Material& m : mat("KNPvKM").children()) kids.push_back(m.name());
    std::sort(kids.begin(), kids.end());
    CHECK(kids == std::vector<std::string> { "KMvKP", "KNMvK", "KNMvKM", "KNPvK", "KNvKM" });
}

TEST_CASE("Index sizes follow the closed forms", "[index]") {
    CHECK(IndexFastPaths::king_pairs(Symmetry::Full8) == 462);
    CHECK(IndexFastPaths::king_pairs(Symmetry::MirrorOnly) == 1806);
    CHECK(Index(mat("KRvK")).size() == 462 * 64);
    CHECK(Index(mat("KSSvK")).size() == 1806 * 2016); // C(64,2)
    CHECK(Index(mat("KPPvK")).size() == 1806 * 276); // C(24,2)
    CHECK(Index(mat("KRMvKN")).size() == 462ULL * 64 * 64 * 64);
    CHECK(Index(mat("KSSvKM")).size() == 1806ULL * 2016 * 64);
    CHECK(Index(mat("KMMMvK")).size() == 462ULL * 41664); // C(64,3)
}

TEST_CASE("Index schemes: the order of the men's digits", "[index]") {
    // docs/format.md: scheme 1 puts White's digits above Black's, scheme 2 (today's) Black's
    // above White's; the king pair stays the most significant in both.
    const Material m = mat("KRMvKN");
    const Index one(m, Index::kSchemeNameOrder), two(m);
    CHECK(two.scheme() == Index::kSchemeWeakerFirst);
    CHECK(IndexFastPaths::single_man_stride(one, WHITE, RUEA) == 64 * 64);
    CHECK(IndexFastPaths::single_man_stride(one, WHITE, MET) == 64);
    CHECK(IndexFastPaths::single_man_stride(one, BLACK, MA) == 1);
    CHECK(IndexFastPaths::single_man_stride(two, BLACK, MA) == 64 * 64);
    CHECK(IndexFastPaths::single_man_stride(two, WHITE, RUEA) == 64);
    CHECK(IndexFastPaths::single_man_stride(two, WHITE, MET) == 1);
    CHECK(one.size() == two.size());
    // KSSvKM under scheme 2: the Black Met's digit (64) above the White Khons' pair (C(64, 2)).
    const Index khons(mat("KSSvKM"));
    CHECK(IndexFastPaths::single_man_stride(khons, BLACK, MET) == 2016);
    CHECK(IndexFastPaths::single_man_stride(khons, WHITE, KHON) == 0); // two men: no single stride
    CHECK_THROWS_AS(Index(m, 3), std::invalid_argument);
}

TEST_CASE("Index round trip, exhaustive up to 4 men, with every symmetric image", "[index]") {
    for (const Material& m : all_materials(4))
        for (const int scheme : { Index::kSchemeNameOrder, Index::kSchemeWeakerFirst }) {
            const Index index(m, scheme);
            const int transforms = m.symmetry() == Symmetry::Full8 ? 8 : 2;
            std::uint64_t boards = 0;
            for (std::uint64_t i = 0; i < index.size(); ++i) {
                Position pos;
                if (!index.decode(i, pos)) continue;
                boards += std::uint64_t(index.orbit_size(pos));
                // Every image of the board under the symmetry names the same slot.
                for (int t = 0; t < transforms; ++t)
                    if (index.encode(transformed(pos, t)) != i) {
                        INFO(m.name() << " slot " << i << " transform " << t);
                        REQUIRE(index.encode(transformed(pos, t)) == i);
                    }
            }
            // Kings apart: 3612 ordered pairs; the other men fill the remaining 62 squares.
            if (m.name() == "KRvK") CHECK(boards == 3612ULL * 62);
            if (m.name() == "KSSvK" || m.name() == "KMMvK")
                CHECK(boards == 3612ULL * 1891); // C(62,2)
            if (m.name() == "KRvKM") CHECK(boards == 3612ULL * 62 * 61);
        }
}

TEST_CASE("Index round trip on random 5-men boards", "[index]") {
    test::Rng rng(5);
    int kingSteps = 0, kingShortcuts = 0;
    for (const Material& m : all_materials(5))
        for (const int scheme : { Index::kSchemeNameOrder, Index::kSchemeWeakerFirst }) {
            if (m.men() != 5) continue;
            const Index index(m, scheme);
            const int transforms = m.symmetry() == Symmetry::Full8 ? 8 : 2;
            for (int n = 0; n < 300; ++n) {
                const Position pos = random_board(rng, m);
                const std::uint64_t i = index.encode(pos);
                REQUIRE(i < index.size());
                Position back;
                REQUIRE(index.decode(i, back));
                bool image = false;
                for (int t = 0; t < transforms; ++t) image |= same_board(transformed(pos, t), back);
                INFO(m.name() << " " << pos.fen());
                REQUIRE(image);
                // A king stepping to an empty square off the other king: with_kings() gives the
                // slot encode() gives whenever it gives one (verify's king moves).
                for (Color c : { WHITE, BLACK })
                    for (Bitboard t = attacks_bb(c, KHUN, back.king_square(c)) & ~back.pieces();
                         t;) {
                        const Square to = pop_lsb(t);
                        if (attacks_bb(~c, KHUN, back.king_square(~c)) & square_bb(to)) continue;
                        Position moved = back;
                        moved.move_piece(back.king_square(c), to);
                        const std::uint64_t slot = IndexFastPaths::with_kings(index, i,
                            back.king_square(WHITE), back.king_square(BLACK),
                            moved.king_square(WHITE), moved.king_square(BLACK));
                        ++kingSteps;
                        if (slot == Index::kNoSlot) continue;
                        ++kingShortcuts;
                        REQUIRE(slot == index.encode(moved));
                    }
                // A man alone in its group stepping elsewhere on the decoded board, kings off a1-h8
                // under the 8-fold group: the slot moves by the distance times its digit's stride
                // (verify's successors).
                const Square wk = back.king_square(WHITE), bk = back.king_square(BLACK);
                if (m.symmetry() == Symmetry::Full8 && file_of(wk) == rank_of(wk)
                    && file_of(bk) == rank_of(bk))
                    continue;
                for (Color c : { WHITE, BLACK })
                    for (PieceType pt : kNameOrder) {
                        const std::uint64_t stride
                            = IndexFastPaths::single_man_stride(index, c, pt);
                        REQUIRE((stride != 0) == (m.count[c][pt] == 1));
                        if (!stride) continue;
                        const Square from = lsb(back.pieces(c, pt));
                        const Bitboard empty
                            = ~back.pieces() & (pt == BIA ? kBiaSquares[c] : ~Bitboard(0));
                        if (!empty) continue;
                        Square to = Square(rng() % 64);
                        while (!(empty & square_bb(to))) to = Square((to + 1) % 64);
                        Position moved = back;
                        moved.move_piece(from, to);
                        REQUIRE(index.encode(moved)
                            == i + (std::uint64_t(to) - std::uint64_t(from)) * stride);
                    }
            }
        }
    // Most king steps keep a canonical pair (the shortcut is taken), some do not.
    CHECK(kingShortcuts > kingSteps / 2);
    CHECK(kingShortcuts < kingSteps);
}

// The generator's fast paths (gen_index.hpp: one field replaced, twins written in order, a king
// step into another frame by bit operations on the fields) against the full encode() of the
// moved board, which the golden digests tied to the first generator; the level loop's test for a
// man on a square against the board, and the pair a king step lands in against encode(). Random
// slots of every ending up to 5 men: twins, groups of three, Bia fields, the a1-h8 residue; and
// of 6-men endings, where a group of three or four identical men, or of two beside three other
// men, is ranked (one field for the group).
TEST_CASE("Generation index: a man's or a king's step gives the slot encode() gives", "[index]") {
    std::mt19937_64 rng(9);
    int inStorageOrder = 0;
    std::vector<Material> materials = all_materials(5);
    for (const char* name :
        { "KMMMvKM", "KMMMvKR", "KRMvKMM", "KMMMvKP", "KRvKPPP", "KSNvKPP", "KMMMMvK", "KPPPPvK" })
        materials.push_back(Material::parse(name)->canonical());
    for (const Material& m : materials) {
        const GenIndex gi(m);
        const Index index(m);
        inStorageOrder += gi.storage_order();
        for (int found = 0, tries = 0; found < 150 && tries < 100000; ++tries) {
            const std::uint64_t i = rng() % gi.size();
            GenBoard b;
            if (!gi.decode(i, b)) continue;
            ++found;
            REQUIRE(gi.encode(b) == i); // the slot names its board
            // The writer's in-place path: slots said to be the storage Index's are.
            if (gi.storage_order())
                REQUIRE(index.encode(b.king[WHITE], b.king[BLACK], b.man.data()) == i);
            Bitboard occ = square_bb(b.king[WHITE]) | square_bb(b.king[BLACK]);
            for (int j = 0; j < gi.men(); ++j) occ |= square_bb(b.man[std::size_t(j)]);
            auto pick = [&](Bitboard choices) {
                for (int n = int(rng() % 64);; n = (n + 1) % 64)
                    if (choices & square_bb(Square(n))) return Square(n);
            };
            INFO(m.name() << " slot " << i);
            // The level loop's test for a man on a square, on the slot's fields alone.
            const Bitboard men = occ ^ square_bb(b.king[WHITE]) ^ square_bb(b.king[BLACK]);
            for (int s = 0; s < 64; ++s)
                REQUIRE(
                    (gi.man_on(i, gi.squares_fields(Square(s))) || gi.ranked_man_on(i, Square(s)))
                    == bool(men & square_bb(Square(s))));
            for (int j = 0; j < gi.men(); ++j)
                for (int n = 0; n < 3; ++n) {
                    const Bitboard empty
                        = ~occ & (gi.type(j) == BIA ? kBiaSquares[gi.color(j)] : ~Bitboard(0));
                    if (!empty) break;
                    GenBoard a = b;
                    a.man[std::size_t(j)] = pick(empty);
                    INFO("man " << j << " to " << int(a.man[std::size_t(j)]));
                    REQUIRE(gi.with_man(i, b, j, a.man[std::size_t(j)]) == gi.encode(a));
                }
            for (Color c : { WHITE, BLACK })
                for (Bitboard to
                     = attacks_bb(c, KHUN, b.king[c]) & ~occ & ~attacks_bb(~c, KHUN, b.king[~c]);
                     to;) {
                    GenBoard a = b;
                    a.king[c] = pop_lsb(to);
                    INFO("king " << int(c) << " to " << int(a.king[c]));
                    REQUIRE(gi.with_king(i, b, c, a.king[c]) == gi.encode(a));
                    // The king pair the level loop's edge for this step lands in.
                    REQUIRE(std::uint64_t(gi.king_step(b.king, c, a.king[c]).pair)
                        == gi.encode(a) >> gi.field_bits());
                }
        }
    }
    // No Bia and no identical men (docs/format.md: radix 64 per man, group order).
    CHECK(inStorageOrder > 0);
    for (const char* name : { "KRMvKN", "KRvKS", "KSMvKM" })
        CHECK(GenIndex(*Material::parse(name)).storage_order());
    for (const char* name : { "KSSvKM", "KRPvKN", "KRRvK", "KPvK" })
        CHECK(!GenIndex(*Material::parse(name)).storage_order());
}

// A ranked group's field is its squares' combination rank, in as many bits as C(squares, k) - 1
// needs; the sizes by hand (king pairs: 462 under the 8-fold group, 1806 with a Bia or a Khon):
// three Met 16 bits (C(64,3) = 41,664), three Bia 11 (C(24,3) = 2,024), two Met beside three
// other men 11 (C(64,2) = 2,016), two Bia beside three 9 (C(24,2) = 276); a lone man 6, a Bia 5.
// And the ranked slots that hold a board are as many as the storage Index's boards (each board
// one slot, the a1-h8 residue included): the rank is a bijection.
TEST_CASE("Generation index: ranked groups, their sizes and their boards", "[index]") {
    const auto size = [](const char* name) { return GenIndex(*Material::parse(name)).size(); };
    CHECK(size("KMMMvKM") == 462ull << (16 + 6));
    CHECK(size("KMMMvKR") == 462ull << (16 + 6));
    CHECK(size("KRMvKMM") == 462ull << (6 + 6 + 11));
    CHECK(size("KRvKPPP") == 1806ull << (6 + 11));
    CHECK(size("KSNvKPP") == 1806ull << (6 + 6 + 9));
    CHECK(size("KMMMvK") == 462ull << 16);
    CHECK(size("KSSvKM") == 1806ull << (6 + 6 + 6)); // two beside one other man: not ranked
    for (const char* name : { "KMMMvK", "KPPPvK" }) {
        const Material m = *Material::parse(name);
        const GenIndex gi(m);
        const Index index(m);
        std::uint64_t slots = 0, boards = 0;
        GenBoard b;
        for (std::uint64_t i = 0; i < gi.size(); ++i) slots += gi.decode(i, b);
        for (std::uint64_t i = 0; i < index.size(); ++i) {
            Position pos;
            boards += index.decode(i, pos);
        }
        INFO(name);
        CHECK(slots == boards);
    }
}

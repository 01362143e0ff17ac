// test_fen.cpp - FEN reading and writing: Fairy-Stockfish's Makruk FEN with the count fields of
// docs/rules.md §3.4, a precise error for each kind of bad input, and a randomized mutation test.
#include <catch2/catch.hpp>

#include "mktb/movegen.hpp"
#include "support/random_positions.hpp"

using namespace mktb;

TEST_CASE("FEN round trip, count fields and the promoted-Bia mark", "[fen]") {
    CHECK(Position::from_fen(kStartFen).fen() == kStartFen);
    // The example of docs/rules.md §3.4: pieces' honour, L = 44 (88 plies), N = 4, Black to move.
    const Position counted = Position::from_fen("8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1");
    CHECK(counted.count_state() == CountState { 88, 8 });
    CHECK(counted.fen() == "8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1");
    // Fairy-Stockfish prints a promoted Bia as M~; it is a Met in every rule.
    const Position promoted = Position::from_fen("4k3/8/3M~4/8/8/8/8/4K3 b - 128 6 1");
    CHECK(promoted.piece_on(SQ_D6) == make_piece(WHITE, MET));
    CHECK(promoted.fen() == "4k3/8/3M4/8/8/8/8/4K3 b - 128 6 1");
    // Short FENs (board and side only) get defaults.
    CHECK(Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w").fen() == "4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
}

TEST_CASE("Bad FEN gets an error naming what is wrong", "[fen]") {
    auto error_of = [](const char* fen) -> std::string {
        try {
            Position::from_fen(fen);
        } catch (const FenError& e) {
            return e.what();
        }
        return "(accepted)";
    };
    using Catch::Matchers::Contains;
    CHECK_THAT(error_of(""), Contains("empty"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/Q3K3 w - - 0 1"), Contains("unknown piece letter 'Q'"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/R3K4 w - - 0 1"), Contains("rank 1"));
    CHECK_THAT(error_of("4k3/8p/8/8/8/8/8/4K3 w - - 0 1"), Contains("rank 7"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/4K3 w - - 0 1"), Contains("7 ranks"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/R7 w - - 0 1"), Contains("White has 0 kings"));
    CHECK_THAT(error_of("4k2k/8/8/8/8/8/8/4K3 w - - 0 1"), Contains("Black has 2 kings"));
    CHECK_THAT(error_of("4k3/8/3P4/8/8/8/8/4K3 w - - 0 1"), Contains("White Bia on d6"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/3p4/4K3 w - - 0 1"), Contains("Black Bia on d2"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/PPPPPPPK w - - 0 1"), Contains("never occupy"));
    CHECK_THAT(error_of("8/8/8/8/8/8/4k3/4K3 w - - 0 1"), Contains("next to each other"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/4R2K w - - 0 1"),
        Contains("side not to move (Black) is in check"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/RRR4K w - - 0 1"), Contains("3 ruea"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/NNN4K w - - 0 1"), Contains("3 ma"));
    CHECK_THAT(error_of("4k3/8/8/8/PPPPPPPP/MM6/8/7K w - - 0 1"), Contains("bia + met"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/4K3 x - - 0 1"), Contains("side to move"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/4K3 w KQ - 0 1"), Contains("castling"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/4K2R w - x 0 1"), Contains("count limit (field 4)"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/4K2R w - 50 0 1"), Contains("not one of"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/4K2R w - 32 -3 1"), Contains("count ply (field 5)"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/4K2R w - - 7 1"), Contains("no count runs"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/4K2R w - 32 40 1"), Contains("past the limit"));
    CHECK_THAT(error_of("4k3/8/8/3P4/8/8/8/4K2R w - 128 4 1"), Contains("Bia is on the board"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/4K2R w - - 0 0"), Contains("move number"));
    CHECK_THAT(error_of("4k3/8/8/8/8/8/8/4K2R w - - 0 1 x"), Contains("at most 6"));
    CHECK_THAT(error_of("~k6/8/8/8/8/8/8/4K3 w - - 0 1"), Contains("'~'"));
}

TEST_CASE("Mutated FENs never crash the parser and parsed ones round-trip", "[fen]") {
    test::Rng rng(20261129);
    std::vector<std::string> seeds { std::string(kStartFen), "8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1" };
    for (int i = 0; i < 40; ++i) seeds.push_back(test::random_placement(rng, 3 + i % 5).fen());
    for (int i = 0; i < 20; ++i) seeds.push_back(test::random_playout(rng, 5 + 3 * i).fen());
    const std::string alphabet = "KMSNRPkmsnrp12345678/~- wb0123456789x";
    std::uniform_int_distribution<int> op(0, 3), ch(0, int(alphabet.size()) - 1);
    int parsed = 0, rejected = 0;
    for (int i = 0; i < 50000; ++i) {
        std::string s = seeds[std::size_t(i) % seeds.size()];
        const int edits = 1 + i % 4;
        for (int e = 0; e < edits && !s.empty(); ++e) {
            const std::size_t at = std::uniform_int_distribution<std::size_t>(0, s.size() - 1)(rng);
            switch (op(rng)) {
            case 0:
                s[at] = alphabet[std::size_t(ch(rng))];
                break;
            case 1:
                s.erase(at, 1);
                break;
            case 2:
                s.insert(at, 1, alphabet[std::size_t(ch(rng))]);
                break;
            default:
                s.resize(at);
                break;
            }
        }
        try {
            const Position pos = Position::from_fen(s);
            ++parsed;
            // Whatever is accepted is a legal position that writes and reads back the same.
            REQUIRE(pos.validity_error().empty());
            REQUIRE(Position::from_fen(pos.fen()) == pos);
            (void)legal_moves(pos);
        } catch (const FenError&) {
            ++rejected;
        }
    }
    CHECK(parsed > 1000);
    CHECK(rejected > 1000);
}

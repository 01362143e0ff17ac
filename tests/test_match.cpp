// test_match.cpp - `mktb match`'s summary: a score as an Elo difference and its interval, against
// the logistic Elo table (a 60 % score is +70, 75 % +191, 90 % +382) and an interval worked by
// hand.
#include <catch2/catch.hpp>

#include "uci/elo.hpp"
#include "uci/referee.hpp"

using namespace mktb::cli;

TEST_CASE("A match score as an Elo difference", "[match]") {
    CHECK(elo_of_score(0.5) == Approx(0.0).margin(1e-9));
    CHECK(elo_of_score(0.6) == Approx(70.4).margin(0.1));
    CHECK(elo_of_score(0.75) == Approx(190.8).margin(0.1));
    CHECK(elo_of_score(0.9) == Approx(381.7).margin(0.1));
    CHECK(elo_of_score(0.25) == Approx(-190.8).margin(0.1));
    // 60 wins and 40 losses: s = 0.6, standard error sqrt(0.24 / 100) = 0.049, 95 % interval
    // 0.504 to 0.696, which is +3 to +144 Elo.
    CHECK(elo_text(60, 0, 40) == "score 60.0 %, Elo +70 +/- 71 (95 %: +3 to +144)");
    // All draws: no spread; a clean sweep: no finite difference.
    CHECK(elo_text(0, 10, 0) == "score 50.0 %, Elo +0 +/- 0 (95 %: +0 to +0)");
    CHECK(elo_text(5, 0, 0) == "score 100.0 %: no finite Elo difference");
    CHECK(elo_text(0, 0, 0) == "no games");
}

// Xiangqi's referee (docs/rules-xiangqi.md): positions and move cycles worked by hand.
TEST_CASE("Xiangqi games are adjudicated by Xiangqi's rules", "[match]") {
    const mktb::CountRules rules;
    // Two chariots on ranks 10 and 9: the king on e10 is in check with every point covered.
    auto mate = Referee::of("R3k4/R8/9/9/9/9/9/9/9/3K5 b - - 0 1", rules);
    REQUIRE(std::string(mate->variant()) == "xiangqi");
    REQUIRE(mate->ended());
    CHECK(mate->ended()->result == "1-0");
    CHECK(mate->ended()->termination == "checkmate");
    // Black's king on d10, not in check, with e10 (the e-file chariot) and d9 (the rank-9
    // chariot) covered: no move, which loses in Xiangqi.
    auto stalemate = Referee::of("3k5/R8/9/9/9/9/9/9/4R4/5K3 b - - 0 1", rules);
    REQUIRE(stalemate->ended());
    CHECK(stalemate->ended()->result == "1-0");
    CHECK(stalemate->ended()->termination == "stalemate");
    // A chariot checking on ranks 9 and 10 while the king steps between e9 and e10: the third
    // time the position after a9 stands, Red has checked on each of its moves since the second,
    // Black on none of his: Red loses by perpetual check.
    auto perpetual = Referee::of("9/4k4/R8/9/9/9/9/9/9/3K5 w - - 0 1", rules);
    for (const char* m :
        { "a8a9", "e9e10", "a9a10", "e10e9", "a10a9", "e9e10", "a9a10", "e10e9" }) {
        CHECK_FALSE(perpetual->ended());
        REQUIRE(perpetual->play(m));
    }
    CHECK_FALSE(perpetual->play("a9a8x")); // not a move
    REQUIRE(perpetual->play("a10a9") == std::string("R9-1")); // WXF: a is Red's file 9, back 1
    REQUIRE(perpetual->ended());
    CHECK(perpetual->ended()->result == "0-1");
    CHECK(perpetual->ended()->termination == "perpetual check by Red");
    // Kings stepping to and fro, no check: the start position a third time is a plain draw.
    auto repeat = Referee::of("9/4k4/9/9/R8/9/9/9/9/3K5 w - - 0 1", rules);
    for (int round = 0; round < 2; ++round)
        for (const char* m : { "d1d2", "e9e10", "d2d1", "e10e9" }) {
            CHECK_FALSE(repeat->ended());
            REQUIRE(repeat->play(m));
        }
    REQUIRE(repeat->ended());
    CHECK(repeat->ended()->result == "1/2-1/2");
    CHECK(repeat->ended()->termination == "threefold repetition");
    // A Makruk FEN gets Makruk's referee.
    CHECK(std::string(Referee::of("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", rules)->variant()) == "makruk");
}

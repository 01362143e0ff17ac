// test_match.cpp - `mktb match`'s summary: a score as an Elo difference and its interval, against
// the logistic Elo table (a 60 % score is +70, 75 % +191, 90 % +382) and an interval worked by
// hand.
#include <catch2/catch.hpp>

#include "uci/elo.hpp"

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

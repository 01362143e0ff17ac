// elo.hpp - a match score as an Elo difference with its 95 % interval, for `mktb match`.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

namespace mktb::cli {

// The Elo difference that the expected score `s` (0 < s < 1) means: -400 log10(1 / s - 1).
inline double elo_of_score(double s) {
    const double e = -400.0 * std::log10(1.0 / s - 1.0);
    return e == 0 ? 0.0 : e; // not -0 at an even score
}

// The first engine's score of `wins`, `draws`, `losses` as an Elo difference with its 95 %
// interval (the score's standard error over the games, each 1, 1/2 or 0).
inline std::string elo_text(int wins, int draws, int losses) {
    const double n = wins + draws + losses;
    if (n == 0) return "no games";
    const double s = (wins + 0.5 * draws) / n;
    const double var
        = (wins * (1 - s) * (1 - s) + draws * (0.5 - s) * (0.5 - s) + losses * s * s) / n;
    const double margin = 1.96 * std::sqrt(var / n);
    char text[160];
    if (s <= 0 || s >= 1) {
        std::snprintf(text, sizeof text, "score %.1f %%: no finite Elo difference", 100 * s);
        return text;
    }
    const double lo = elo_of_score(std::max(0.001, s - margin));
    const double hi = elo_of_score(std::min(0.999, s + margin));
    std::snprintf(text, sizeof text, "score %.1f %%, Elo %+.0f +/- %.0f (95 %%: %+.0f to %+.0f)",
        100 * s, elo_of_score(s), (hi - lo) / 2, lo, hi);
    return text;
}

} // namespace mktb::cli

// table_stats.hpp - the figures a generation writes beside its table (NAME.json, NAME.xq.json),
// one schema for both games: per side to move, the positions won, drawn and lost (by moves to
// mate), the longest mate and a position that needs it, and what the game's rule decides
// (Makruk: won or lost within a fresh count; Xiangqi: the plain draws the repetition rule
// decides); then the run's sizes and times. docs/statistics.md lists the fields.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mktb {

// Figures of one ending for one side to move. Makruk's are counted over distinct boards (no
// symmetry reduction; identical men are indistinguishable), Xiangqi's over the table's
// positions (one per left-right mirror pair, as xiangqitb counts), so each compares with the
// published figures of its game.
struct SideStats {
    std::uint64_t legal = 0, wins = 0, draws = 0, losses = 0;
    // Makruk, under a fresh count (when the table gives it): won and lost within the count.
    std::uint64_t counted_wins = 0, counted_losses = 0;
    // Xiangqi with both sides armed: of the plain draws, those the rule wins and loses.
    std::uint64_t rule_wins = 0, rule_losses = 0;
    int rule_longest_plies = -1; // the longest of their rule's distances (-1: none)
    std::string rule_longest_fen; // one position that has it (the lowest slot)
    int longest_plies = -1; // longest mate, for either side, in plies (-1: no mate)
    std::string longest_fen; // one position that attains it (the lowest slot)
    std::map<int, std::uint64_t> win_moves, loss_moves; // histogram: mate in N moves -> positions
};

struct TableStats {
    std::string game = "makruk"; // or "xiangqi": the sides' names (White or Red first)
    std::string name;
    std::array<SideStats, 2> side; // [side to move]: White (Red) first
    bool counted = false; // Makruk: counted_wins/losses are known (no Bia in this ending)
    // Xiangqi: the rule the table follows, and the rounds of its pass (0: one side armless,
    // where the plain result is the rule's).
    std::string rule;
    int rule_rounds = 0;
    int cell_bytes = 1;
    std::uint64_t index_size = 0;
    std::uint64_t file_bytes = 0;
    double seconds = 0;
    std::vector<std::pair<std::string, double>> phase_seconds; // wall time of each phase
    // The level loop: its levels, and the cells it listed for the kings' pass (4 bytes each,
    // what king-pair slices on several machines would exchange), in all and at the busiest level.
    int levels = 0;
    std::uint64_t listed = 0, listed_most = 0;
    // Split over several ranks (mktb-mpi): their number, and the bytes they sent each other at
    // each level (the lists above, with a header per king pair); empty in one process.
    int ranks = 1;
    std::vector<std::uint64_t> exchanged;
    std::string to_json() const;
};

class Ranks;
// Over several ranks (ranks.hpp), each rank's figures of both sides made every rank's: counts
// and histograms summed, the longest mate the longest of all, `longestSlot` (of the position
// that attains it) the smallest slot of those that do. Every rank calls it together.
void merge_over_ranks(
    std::array<SideStats, 2>& side, std::array<std::uint64_t, 2>& longestSlot, Ranks& ranks);

// The key of side c's figures (0: White or Red to move, 1: Black) in the statistics file.
inline const char* side_key(bool xiangqi, int c) {
    return c == 0 ? (xiangqi ? "red_to_move" : "white_to_move") : "black_to_move";
}

} // namespace mktb

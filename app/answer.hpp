// answer.hpp - what mktb tells a person or a program about one position, in one place: the
// JSON object of `mktb probe --json` and of the HTTP API's /api/probe (docs/api.md), the verdict
// in words, and the count state a person states ("pieces:C", "board:C").
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "mktb/counting.hpp"
#include "mktb/probe.hpp"
#include "words.hpp"

namespace mktb::cli {

using Json = nlohmann::ordered_json;

// `j` as one line of JSON; bytes that are not UTF-8 (a message may quote what a user typed)
// are replaced, never thrown about.
std::string dump(const Json& j);

// Whether `text` is well-formed UTF-8 (no overlong forms, surrogates or code points past
// U+10FFFF): what JSON can carry.
bool valid_utf8(std::string_view text);

// Parses "pieces:C" / "board:C", C the count the defender (pieces' honour) or the counter
// (board's honour) last announced, into the count state of `pos`. Returns an error message
// naming what is wrong, or an empty string.
std::string parse_count(
    std::string_view text, const Position& pos, const CountRules& rules, CountState& out);

// The count `pos` follows: `count_text` when given ("pieces:C", "board:C"), else its FEN's
// count fields, else the count the position starts now. An error message, or empty.
std::string count_to_follow(
    std::string_view count_text, const Position& pos, const CountRules& rules, CountState& out);

// Whether `mover`, having moved into `after`, is the side that counts (the bare king under
// pieces' honour, the weaker side under board's honour) while a count runs: it then announces
// (count.ply + 1) / 2 of count.limit / 2. For PGN comments and printed lines.
bool announces_count(const Position& after, Color mover, CountState count);

// "12 of 40 moves", "12 moves, no count yet" (no count runs yet), "no forced mate".
std::string moves_text(const CountedValue& c, Lang lang = Lang::En);
// The counting rules for people: the usual ones, or the options that differ from them
// (describe_in_words), in English or Thai.
std::string rules_words(const CountRules& rules, Lang lang);
// A pure value for the side it belongs to: "mate in 12", "mated in 3", "checkmated", "draw".
std::string value_text(Value v, Lang lang = Lang::En);

// A board's honour win that goes through a capture baring the loser's king: the winner's moves
// to that capture (the board's honour figure), then the answer of the pieces' honour count it
// starts, for the side to move after it. nullopt for a win by mate without baring, a draw, or
// outside board's honour.
struct BaringPath {
    int moves = 0;
    CountedValue then;
};
std::optional<BaringPath> baring_path(const Prober& prober, Position pos, CountState count);

// A move's counted result for the side that plays it, from its RankedMove view (the move
// itself counted): "wins within the count (12 of 40 moves)"; after a conversion (a capture, a
// promotion) the figures of the count it starts or continues, which the move is not part of:
// "wins within the count (then 11 of 39 moves)".
std::string counted_text(CountedValue mover, bool conversion, Lang lang = Lang::En);

// A move's counted text as a move list shows it: counted_text, and where the mover wins under
// board's honour by baring the loser's king, both figures as the headline gives them ("wins
// within the count: bares the king in 2 of 65 moves, then mates in 12 of 13 moves"), with the
// path (`baring`: the mover's moves to the capture, this one included, and the count after it).
struct MoveCounted {
    std::string text;
    std::optional<BaringPath> baring;
};
MoveCounted move_counted(const Prober& prober, const Position& pos, Move move,
    const CountedValue& mover, CountState count, Lang lang = Lang::En);

// The counted verdict in words under `count`: "White wins within the count: 13 of 41 moves
// needed", "White wins within the count: bares the Black king in 1 of 65 moves, then mates in
// 21 of 40 moves (pieces' honour)", "Draw: the count has run out". The form with a prober
// finds the baring path itself: the one headline of the CLI, the page, UCI and teach.
std::string verdict(const Position& pos, Value pure, const CountedValue& counted,
    const CountRules& rules, CountState count, const std::optional<BaringPath>& baring = {},
    Lang lang = Lang::En);
std::string verdict(const Prober& prober, const Position& pos, Value pure,
    const CountedValue& counted, CountState count, Lang lang = Lang::En);

// Everything mktb answers about `pos` under `count` (docs/api.md). nullopt when a table on the
// way is absent; throws TableError for a damaged table.
std::optional<Json> answer_json(const Prober& prober, const Position& pos, CountState count,
    bool with_line, Lang lang = Lang::En);

} // namespace mktb::cli

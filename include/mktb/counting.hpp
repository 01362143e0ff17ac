// mktb/counting.hpp - Makruk's counting rules (docs/rules.md §3-4) as data and arithmetic: the
// phase a position is in, the pieces' honour limit of the attacker's material, the count a position
// starts, and how many moves the attacker has left under a count state.
//
// The count state is Fairy-Stockfish's (countingLimit, countingPly) in plies. Its one rule is
// "drawn once countingPly > countingLimit and the side to move is not mated", so the attacker
// may move while the ply before its move is <= the limit, which gives both honours' budgets:
// a fresh board count leaves 64 attacker moves with the defender to move and 65 with the
// attacker to move; a pieces' honour count leaves A = L - c (defender to move) or L - c + 1.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "mktb/material.hpp"
#include "mktb/position.hpp"
#include "mktb/value.hpp"

namespace mktb {

// The rule options of docs/rules.md §3-4, each a choice between its default (which reproduces
// Fairy-Stockfish) and one alternative. Rules as data: one row per option, named as in
// docs/rules.md §4.
enum class RuleOption : std::uint8_t {
    KhonBeforeKnights, // limit_precedence: one Khon (44) overrides two Mas (32)
    DrawWhenReached, // draw_when: drawn when the defender completes the move counted L (Cambodian)
    CounterMateDraws, // counter_mate: a mate by the counting (weaker) side is a draw
    BoardHonourOff, // board_honour: no count while both sides have men
    SwitchIfShorter, // switch_to_pieces: baring the counter switches to pieces' honour only
                     // when that count ends sooner than the board count running
    NB
};

struct RuleOptionInfo {
    std::string_view name, default_value, alternative;
    std::string_view default_words, alternative_words; // for people: what the choice means
};
inline constexpr std::array<RuleOptionInfo, std::size_t(RuleOption::NB)> kRuleOptions { {
    { "limit_precedence", "min", "khon_before_knights",
        "the smallest honour of the attacker's men sets the limit",
        "one Khon sets the limit 44 even beside two Ma" },
    { "draw_when", "exceeded", "reached", "drawn once the count passes its limit",
        "drawn when the count reaches its limit (Cambodian)" },
    { "counter_mate", "win", "draw", "a mate by the counting side wins",
        "a mate by the counting side only draws" },
    { "board_honour", "first_opportunity", "off", "board's honour counts while both sides have men",
        "no count while both sides have men" },
    { "switch_to_pieces", "always", "if_shorter", "baring the king starts pieces' honour",
        "baring the king starts pieces' honour only if it ends sooner" },
} };

// A choice for every option: bit i set = option i takes its alternative. The bits are what a
// table file records.
struct CountRules {
    std::uint32_t bits = 0;
    constexpr bool has(RuleOption o) const { return bits >> unsigned(o) & 1; }
    constexpr CountRules with(RuleOption o, bool alternative = true) const {
        return { alternative ? bits | 1u << unsigned(o) : bits & ~(1u << unsigned(o)) };
    }
    bool operator==(const CountRules&) const = default;
};

constexpr std::uint32_t encode(const CountRules& r) { return r.bits; }
constexpr CountRules decode_rules(std::uint32_t bits) { return { bits }; }
// "limit_precedence=min draw_when=exceeded counter_mate=win ..."
std::string describe(const CountRules& r);
// The same for people: "Fairy-Stockfish's rules" for the defaults, else what differs from them in
// words ("a mate by the counting side only draws; no count while both sides have men").
std::string describe_in_words(const CountRules& r);
// The options in which `built` differs from `asked`, named: "counter_mate=win, not draw".
std::string describe_difference(const CountRules& built, const CountRules& asked);
// The option named `name` (spec spelling; '-' may stand for '_'), if there is one.
std::optional<RuleOption> find_rule_option(std::string_view name);
// Sets option `name` (spec spelling; '-' may stand for '_') to `value`. Returns an error
// message naming what is wrong, or an empty string.
std::string set_rule_option(CountRules& r, std::string_view name, std::string_view value);

enum class CountPhase : std::uint8_t {
    NoCount, // a Bia is on the board: no deadline
    PiecesHonour, // one side has a bare king, the other has men
    BoardHonour, // both sides have men
    BareKings // nothing left to win
};

CountPhase count_phase(const Position& pos);
CountPhase count_phase(const Material& m); // the phase every position of the ending is in

// The side with men when the other is bare (pieces' honour); nullopt otherwise.
std::optional<Color> pieces_honour_attacker(const Position& pos);

// L of docs/rules.md §3.1, read from the attacker's men.
int pieces_honour_limit(const Position& pos, Color attacker, const CountRules& rules);

// The count a position would start now (docs/rules.md §3.2, §3.4): pieces' honour at c = N, board's
// honour at ply 0; no count with a Bia on the board or bare kings.
CountState fresh_count(const Position& pos, const CountRules& rules);

// The count after a move from `before` to `after`: it runs on one ply per move and never
// restarts, except that the last Bia leaving the board starts the first count, and baring the
// defender under board's honour starts a fresh pieces' honour count (docs/rules.md §3-4).
CountState count_after_move(
    const Position& before, const Position& after, CountState count, const CountRules& rules);

// Why `count` cannot be the count state of `pos` (docs/rules.md §3.4), or empty: the one rule the
// FEN parser, the C API and a count a person states are held to. A limit is 0 (no count, ply 0)
// or one of 16 32 44 64 88 128; no count runs with a Bia on the board; board's honour counts to
// 128; the ply is at most limit + 1 (the game has then ended: see count_has_ended). Under a
// pieces' honour limit below 128 the ply is odd with the attacker to move, even with the
// defender to move, and at least 2N - 1 or 2N for the N men on the board (the count starts at
// the number of men and only rises). A limit of 128 in a pieces' honour position may be a board
// count carried on (switch_to_pieces = if_shorter): its ply is not checked further.
std::string count_error(const Position& pos, CountState count);

// Whether the count has ended the game: ply past the limit. The position is then drawn, or
// lost if the side to move is checkmated; no move is played from it.
constexpr bool count_has_ended(CountState count) {
    return count.limit > 0 && count.ply > count.limit;
}

// Attacker moves left under `count` (0: drawn by the count unless it is mate now).
int attacker_moves_left(CountState count, bool attacker_to_move, const CountRules& rules);

// The answer under the count for a pieces' honour position, from its pure value for the side
// to move: won (or lost) within the count iff the mate needs at most the attacker moves left.
struct CountedValue {
    enum class Result : std::int8_t { Loss = -1, Draw = 0, Win = 1 };
    Result result = Result::Draw; // for the side to move
    int moves_needed = -1; // attacker moves to mate (pure), -1 when there is no forced mate
    int moves_available = 0; // attacker moves left in the count
};
CountedValue counted_pieces_honour(
    const Position& pos, Value pure, CountState count, const CountRules& rules);

// The per-position values a table may store (each as cells of mktb/value.hpp): the pure
// distance, and the two counted metrics the count phases need.
enum class Metric : std::uint8_t {
    Dtm = 0, // distance to mate, no counting
    Board = 1, // board's honour: distance to mate or to a baring capture won under the fresh count
    Bia = 2, // a Bia on the board: distance to mate, the conversion out of the Bia phase valued
             // under the count it starts
    NB = 3
};

// The counted answer of a position from its stored values: `board` is its board's honour value
// (both sides with men), `bia` its Bia-phase value (a Bia on the board).
CountedValue counted_board_honour(Value board, CountState count, const CountRules& rules);
CountedValue counted_bia_phase(Value bia);
// A counted answer as a distance: the winner mates (or succeeds) in moves_needed moves.
Value as_value(const CountedValue& c);

// The value of a checkmated position in a metric of a table of `m` (canonical): lost, except
// that under counter_mate = draw a mate by the counting (weaker) side during the board count is
// a draw.
inline Value mated_value(const Material& m, Metric metric, const CountRules& rules, Color mated) {
    const bool counterMates = metric == Metric::Board && rules.has(RuleOption::CounterMateDraws)
        && !rules.has(RuleOption::BoardHonourOff) && m.weaker_side() == ~mated;
    return counterMates ? Value::draw() : Value::mate_in_plies(0);
}

// What `metric` of a table stores for `child`, a position a conversion (a capture, a promotion)
// out of that table reached, from the side to move there: DTM as it is; a counted metric as the
// answer under the count the conversion starts (pieces' honour after a capture that bares the
// defender, the board count or none after one that leaves a Bia phase) or continues (the
// board's honour values of a capture keeping men on both sides, the Bia-phase values of one
// keeping a Bia). `phase` is count_phase(child), not BareKings; `dtm` the child's DTM value,
// `own` its value in its own counted metric (Board in the board's honour phase, Bia with a
// Bia; unused under pieces' honour). The generator's conversion recipes, the verifier and the
// restoration of a packed table's lacking side all use this one.
Value conversion_value(Metric metric, const Position& child, CountPhase phase, Value dtm, Value own,
    const CountRules& rules);

// The answer under the count `count` of a position in `phase` (not BareKings) from its stored
// values: under pieces' honour the count is a deadline on `dtm`; in the board's honour phase and
// the Bia phase `own` is the position's own counted metric (Board, Bia). The one dispatch from a
// count phase to a counted answer, for probing, teaching and conversions alike.
CountedValue counted_value(CountPhase phase, const Position& pos, Value dtm, Value own,
    CountState count, const CountRules& rules);

} // namespace mktb

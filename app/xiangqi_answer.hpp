// xiangqi_answer.hpp - the answers about one Xiangqi position that the program's interfaces
// share (app/xiangqi_answer.cpp): its value, every move with its value, the line, as JSON.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "answer.hpp" // Json, dump
#include "cli.hpp"
#include "mktb/probe.hpp"

namespace mktb::cli {

struct XMove {
    xq::Move move;
    Value value; // for the side that makes it
    bool capture;
    Value after; // the position after it, for its side to move
    int result; // under the repetition rules, for the side that makes it: +1, 0, -1
    int rule_plies = -1; // the position after it: the rule's distance where the rules decide it
    // As good as `best`: the same result, plain value and rule's distance.
    bool keeps(const XMove& best) const {
        return value == best.value && result == best.result && rule_plies == best.rule_plies;
    }
};
struct XAnswer {
    Value value; // for the side to move
    int result; // under the repetition rules: +1 won, 0 drawn, -1 lost
    xq::RuleSet rules; // the repetition rules asked for (the tables answering follow them)
    bool armed; // both sides armed: the rule set decides endless lines (elsewhere none matters)
    // Where only the rules decide it: the rule's distance (docs/rules-xiangqi.md §5c), -1 where
    // the table does not hold it.
    int rule_plies = -1;
    std::vector<XMove> moves; // best first: Prober::rank_root's order
    bool by_rule() const { return value.is_draw() && result != 0; } // only the rule decides
};
// A line a result only the rules give (xiangqi_rule_line): the moves, and where it ends in a
// repetition the ply at which the repeated position first stood (-1: none).
struct XRuleLine {
    std::vector<xq::Move> moves;
    int repeats_from = -1;
};

// How the rules apply to an answer, in words: "rules check: a side that checks for ever
// loses; perpetual chase not modelled", or that they change nothing where one side is armless.
std::string rules_text(const XAnswer& a);
// "Red mates in 12", "Red wins: Black can hold only by checking for ever, which the rules
// forbid: ...": the value for the side to move `stm`, with what the rules change (`rule_plies`:
// the rule's distance where known, else -1).
std::string xiangqi_sentence(Color stm, Value v, int result, Lang lang = Lang::En,
    xq::RuleSet rules = xq::kDefaultRuleSet, int rule_plies = -1);
// nullopt when a table on the way is absent; throws TableError for a damaged one.
std::optional<XAnswer> xiangqi_answer(const Prober& tables, const xq::Position& pos);
// The moves that keep the result to mate (the winner's fastest, the loser's slowest); empty
// for a draw, and where only the rules decide (xiangqi_rule_line).
std::vector<xq::Move> xiangqi_line(const Prober& tables, xq::Position pos);
// Where only the rules decide: the winner's shortest way, the loser's longest, along the rule's
// distance until the loser can only go on checking or chasing (or give way into a loss), then
// on in that cycle until a position repeats. Empty where the distance is not known.
XRuleLine xiangqi_rule_line(const Prober& tables, xq::Position pos);
// The answer in the shape of Makruk's (docs/api.md), "game": "xiangqi".
Json xiangqi_json(const Prober& tables, const xq::Position& pos, const XAnswer& a, bool with_line,
    Lang lang = Lang::En);
// `mktb probe` of a Xiangqi FEN: prints, returns the exit code; errors through `fail`.
int xiangqi_probe(const std::string& dir, xq::RuleSet rules, std::string_view fen, bool json,
    bool with_line, int (*fail)(bool, int, const std::string&));

} // namespace mktb::cli

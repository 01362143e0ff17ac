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
    int result; // under the perpetual-check rule, for the side that makes it: +1, 0, -1
};
struct XAnswer {
    Value value; // for the side to move
    int result; // under the perpetual-check rule: +1 won, 0 drawn, -1 lost
    xq::RuleSet rules; // the repetition rules asked for (the tables answering follow them)
    bool armed; // both sides armed: the rule set decides endless lines (elsewhere none matters)
    std::vector<XMove> moves; // best first: by the rule's result, then by the plain value
    bool by_rule() const { return value.is_draw() && result != 0; } // only the rule decides
};

// How the rules apply to an answer, in words: "rules check: a side that checks for ever
// loses; perpetual chase not modelled", or that they change nothing where one side is armless.
std::string rules_text(const XAnswer& a);
// "Red mates in 12", "draw; under the perpetual-check rule Black wins (...)": the value for the
// side to move `stm`, with what the rule changes.
std::string xiangqi_sentence(
    Color stm, Value v, int result, Lang lang = Lang::En, xq::RuleSet rules = xq::kDefaultRuleSet);
// nullopt when a table on the way is absent; throws TableError for a damaged one.
std::optional<XAnswer> xiangqi_answer(const Prober& tables, const xq::Position& pos);
// The moves that keep the result to mate (the winner's fastest, the loser's slowest); empty
// for a draw.
std::vector<xq::Move> xiangqi_line(const Prober& tables, xq::Position pos);
// The answer in the shape of Makruk's (docs/api.md), "game": "xiangqi".
Json xiangqi_json(const Prober& tables, const xq::Position& pos, const XAnswer& a, bool with_line,
    Lang lang = Lang::En);
// `mktb probe` of a Xiangqi FEN: prints, returns the exit code; errors through `fail`.
int xiangqi_probe(const std::string& dir, xq::RuleSet rules, std::string_view fen, bool json,
    bool with_line, int (*fail)(bool, int, const std::string&));

} // namespace mktb::cli

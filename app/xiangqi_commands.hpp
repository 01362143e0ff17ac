// xiangqi_commands.hpp - the Xiangqi halves of the commands that take --game xiangqi or a
// Xiangqi FEN (app/cmd_xiangqi.cpp, app/cmd_probe.cpp).
#pragma once

#include <string_view>

#include "mktb/xiangqi/rules.hpp"
#include "options.hpp"
#include "ranks.hpp"

namespace mktb::cli {

// Over an MPI run's `ranks` (mktb-mpi; `localRanks` of them on this machine), every rank calls
// it together; nullptr: this process alone.
int xiangqi_gen(const Args& a, Ranks* ranks = nullptr, int localRanks = 1);
int xiangqi_verify(const Args& a);
int xiangqi_digest(const Args& a);
int xiangqi_pack(const Args& a);
int xiangqi_teach(const Args& a); // app/teach/xiangqi_teach.cpp

// The --game option of gen, verify and digest.
inline const Option kGameOption { "--game", "GAME", "makruk (the default) or xiangqi" };
// Xiangqi's rule set (docs/rules-xiangqi.md §5): gen makes tables under it, the readers answer
// from tables of it.
inline const Option kXiangqiRulesOption { "--rules", "NAME",
    "Xiangqi's repetition rules: asian (the default: perpetual check and chase lose), check "
    "(perpetual check loses) or none (every "
    "endless line a draw)" };
// Reads --rules of `a` into *rules (left as it is when absent); the error, naming the sets, for
// a name no set has, else empty.
inline std::string read_rule_set(const Args& a, xq::RuleSet* rules) {
    if (!a.has("--rules") || xq::parse_rule_set(a.text("--rules"), rules)) return {};
    return "--rules takes " + xq::rule_set_choices() + ", not '" + a.text("--rules") + "'";
}
// Whether --game says xiangqi; false with an error printed when it names no game.
bool game_is_xiangqi(const Args& a, bool* bad);

} // namespace mktb::cli

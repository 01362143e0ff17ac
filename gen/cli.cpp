// cli.cpp - helpers the subcommands share (see cli.hpp).
#include "cli.hpp"

#include <cstdlib>
#include <stdexcept>

namespace mktb::cli {

std::string default_tables_dir() {
    const char* env = std::getenv("MKTB_TABLES");
    return env && *env ? env : "tables";
}

bool apply_rule_option(std::string_view option, std::string_view value, CountRules& rules) {
    if (option == "--draw-when") {
        if (value != "exceeded" && value != "reached")
            throw std::invalid_argument("--draw-when takes exceeded or reached");
        rules.draw_when = value == "reached" ? DrawWhen::Reached : DrawWhen::Exceeded;
        return true;
    }
    if (option == "--limit-precedence") {
        if (value != "min" && value != "khon_before_knights")
            throw std::invalid_argument("--limit-precedence takes min or khon_before_knights");
        rules.limit_precedence
            = value == "min" ? LimitPrecedence::Min : LimitPrecedence::KhonBeforeKnights;
        return true;
    }
    return false;
}

} // namespace mktb::cli

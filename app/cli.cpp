// cli.cpp - helpers the subcommands share (see cli.hpp).
#include "cli.hpp"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

namespace mktb::cli {

std::string default_tables_dir() {
    const char* env = std::getenv("MKTB_TABLES");
    return env && *env ? env : "tables";
}

bool is_rule_option(std::string_view flag) {
    return flag.starts_with("--") && find_rule_option(flag.substr(2));
}

void apply_rule_option(std::string_view flag, std::string_view value, CountRules& rules) {
    if (const std::string error = set_rule_option(rules, flag.substr(2), value); !error.empty())
        throw std::invalid_argument(error);
}

std::string rule_options_usage() {
    std::string out;
    for (const RuleOptionInfo& o : kRuleOptions) {
        std::string flag(o.name);
        std::replace(flag.begin(), flag.end(), '_', '-');
        out += (out.empty() ? "[--" : " [--") + flag + " " + std::string(o.default_value) + "|"
            + std::string(o.alternative) + "]";
    }
    return out;
}

} // namespace mktb::cli

// cli.cpp - helpers the subcommands share (see cli.hpp).
#include "cli.hpp"
#include "tablefile.hpp"

#include <algorithm>
#include <cstdio>
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

std::span<const Command* const> commands() {
    static const Command* const kAll[] = { &kPerftCommand, &kGenCommand, &kVerifyCommand,
        &kDigestCommand, &kPackCommand, &kProbeCommand, &kServeCommand, &kUciCommand,
        &kPositionsCommand, &kTeachCommand, &kMatchCommand };
    return kAll;
}

std::string printable(std::string_view text) { return escaped(text, false); }

int usage_error(const Args& args, std::string_view what) {
    std::fprintf(stderr, "mktb %s: %s\n%s", std::string(args.command().name).c_str(),
        printable(what).c_str(), command_forms(args.command()).c_str());
    return kExitBadInput;
}

} // namespace mktb::cli

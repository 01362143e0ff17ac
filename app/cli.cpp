// cli.cpp - helpers the subcommands share (see cli.hpp).
#include "cli.hpp"
#include "tablebase.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
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

std::vector<bool> find_tables(std::string_view command,
    const std::vector<std::pair<std::string, std::string>>& tables, const std::string& dir,
    std::string_view game) {
    std::vector<bool> found;
    std::vector<std::string> missing;
    for (const auto& [name, path] : tables) {
        std::error_code ec;
        found.push_back(std::filesystem::exists(path, ec));
        if (!found.back()) missing.push_back(name);
    }
    if (missing.empty()) return found;
    constexpr std::size_t kNamed = 6;
    std::string names;
    for (std::size_t i = 0; i < std::min(missing.size(), kNamed); ++i) {
        if (i) names += ' ';
        names += missing[i];
    }
    if (missing.size() > kNamed)
        names += " and " + std::to_string(missing.size() - kNamed) + " more";
    const std::string make = "mktb gen" + std::string(game) + " --tables " + printable(dir);
    if (missing.size() == 1)
        std::fprintf(stderr, "mktb %s: no table of %s in %s (make it: %s %s)\n",
            std::string(command).c_str(), names.c_str(), printable(dir).c_str(), make.c_str(),
            names.c_str());
    else
        std::fprintf(stderr,
            "mktb %s: %zu of the %zu endings have no table in %s: %s (make them: %s ENDING...)\n",
            std::string(command).c_str(), missing.size(), tables.size(), printable(dir).c_str(),
            names.c_str(), make.c_str());
    return found;
}

int usage_error(const Args& args, std::string_view what) {
    std::fprintf(stderr, "mktb %s: %s\n%s", std::string(args.command().name).c_str(),
        printable(what).c_str(), command_forms(args.command()).c_str());
    return kExitBadInput;
}

} // namespace mktb::cli

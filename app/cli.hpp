// cli.hpp - the subcommands of the mktb program and the small helpers they share.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "mktb/counting.hpp"

namespace mktb::cli {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1; // the work failed (a missing or damaged table, a mismatch)
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitNoTable = 3; // no table for the material asked about

// $MKTB_TABLES, else ./tables: where tables are read and written unless --tables says.
std::string default_tables_dir();

// Counting-rule options on the command line: --draw-when reached, --counter-mate draw, ... (the
// options of mktb/counting.hpp, dashes for underscores). apply_rule_option() throws
// std::invalid_argument naming the allowed values when `value` is wrong.
bool is_rule_option(std::string_view flag);
void apply_rule_option(std::string_view flag, std::string_view value, CountRules& rules);

// One usage line listing the rule options: "[--limit-precedence min|khon_before_knights] ...".
std::string rule_options_usage();

int perft_command(std::span<const std::string_view> args);
int gen_command(std::span<const std::string_view> args);
int verify_command(std::span<const std::string_view> args);
int digest_command(std::span<const std::string_view> args);
int pack_command(std::span<const std::string_view> args);
int probe_command(std::span<const std::string_view> args);
int serve_command(std::span<const std::string_view> args);
int uci_command(std::span<const std::string_view> args);
int match_command(std::span<const std::string_view> args);
int positions_command(std::span<const std::string_view> args);
int teach_command(std::span<const std::string_view> args);

} // namespace mktb::cli

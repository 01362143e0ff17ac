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

// Applies a counting-rule option (--draw-when, --limit-precedence) to `rules`. Returns false
// when `option` is not one; throws std::invalid_argument naming the allowed values when `value`
// is wrong.
bool apply_rule_option(std::string_view option, std::string_view value, CountRules& rules);

int perft_command(std::span<const std::string_view> args);
int gen_command(std::span<const std::string_view> args);
int verify_command(std::span<const std::string_view> args);
int probe_command(std::span<const std::string_view> args);

} // namespace mktb::cli

// cli.hpp - the subcommands of the mktb program and the small helpers they share.
#pragma once

#include <span>
#include <string_view>

namespace mktb::cli {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1; // the work failed (a missing or damaged table, a mismatch)
inline constexpr int kExitBadInput = 2;
inline constexpr int kExitNoTable = 3; // no table for the material asked about

int perft_command(std::span<const std::string_view> args);
int gen_command(std::span<const std::string_view> args);
int verify_command(std::span<const std::string_view> args);
int probe_command(std::span<const std::string_view> args);

} // namespace mktb::cli

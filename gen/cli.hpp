// cli.hpp - the subcommands of the mktb program and the small helpers they share.
#pragma once

#include <span>
#include <string_view>

namespace mktb::cli {

// Exit codes shared by every subcommand.
inline constexpr int kExitOk = 0;
inline constexpr int kExitBadInput = 2;

int perft_command(std::span<const std::string_view> args);

} // namespace mktb::cli

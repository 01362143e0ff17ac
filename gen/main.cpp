// main.cpp - the mktb program: dispatches to one subcommand per job.
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "cli.hpp"

namespace {

constexpr const char* kUsage = R"(usage: mktb <command> [arguments]

commands:
  perft "<FEN>" DEPTH [--divide]   count the leaves of the legal move tree
                                   (FEN may be "startpos")
)";

} // namespace

int main(int argc, char** argv) {
    std::vector<std::string_view> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::fputs(kUsage, args.empty() ? stderr : stdout);
        return args.empty() ? mktb::cli::kExitBadInput : mktb::cli::kExitOk;
    }
    const std::string_view cmd = args[0];
    const std::span<const std::string_view> rest(args.data() + 1, args.size() - 1);
    if (cmd == "perft") return mktb::cli::perft_command(rest);
    std::fprintf(stderr, "mktb: unknown command '%s'\n%s", std::string(cmd).c_str(), kUsage);
    return mktb::cli::kExitBadInput;
}

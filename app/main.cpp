// main.cpp - the mktb program: finds the command, reads its arguments against its table
// (options.hpp) and runs it.
#include <csignal>
#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

#include "answer.hpp"
#include "cli.hpp"

int main(int argc, char** argv) {
    using namespace mktb::cli;
    // A file-size limit (ulimit -f) is a full disk like any other: write() fails with EFBIG,
    // the writer says so and removes its temporary file, instead of a silent SIGXFSZ kill.
    std::signal(SIGXFSZ, SIG_IGN);
    const std::vector<std::string_view> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::fputs(usage(commands()).c_str(), args.empty() ? stderr : stdout);
        return args.empty() ? kExitBadInput : kExitOk;
    }
    if (args[0] == "--version" || args[0] == "version") {
        std::fputs(version_line().c_str(), stdout);
        return kExitOk;
    }
    const Command* command = nullptr;
    std::vector<std::string_view> names;
    for (const Command* c : commands()) {
        if (c->name == args[0]) command = c;
        names.push_back(c->name);
    }
    if (!command) {
        std::fprintf(stderr, "mktb: unknown command '%s'%s\n%s", printable(args[0]).c_str(),
            did_you_mean(args[0], names).c_str(), usage(commands()).c_str());
        return kExitBadInput;
    }
    const std::span<const std::string_view> rest(args.data() + 1, args.size() - 1);
    for (std::string_view a : rest)
        if (a == "--help" || a == "-h") {
            std::fputs(command_help(*command).c_str(), stdout);
            return kExitOk;
        }
    std::string error;
    const std::optional<Args> parsed = parse(*command, rest, &error);
    if (!parsed) {
        if (command->jsonErrors && std::find(rest.begin(), rest.end(), "--json") != rest.end())
            std::fprintf(stderr, "%s\n",
                dump(Json { { "error", error }, { "exit", kExitBadInput } }).c_str());
        else
            std::fprintf(stderr, "mktb %s: %s\n", std::string(command->name).c_str(),
                printable(error).c_str());
        return kExitBadInput;
    }
    return command->run(*parsed);
}

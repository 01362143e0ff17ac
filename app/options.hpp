// options.hpp - the command line as data: each command is one table (its usage lines, what it
// does, its options with the placeholder of their value, what they do and what values they
// take), from which one parser reads the arguments and one printer writes `mktb --help` and
// `mktb CMD --help`.
//
// An unknown option, a missing value, a number out of its range or a second operand too many is
// an error naming the option and what it takes, found before the command runs.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "mktb/counting.hpp"

namespace mktb::cli {

struct Option {
    enum class Kind { Flag, Text, Number, Bytes, Rest };
    std::string_view name; // "--threads"
    std::string_view value; // the placeholder of its value ("N"); none for a Flag
    std::string_view help; // what it does, one line
    Kind kind = Kind::Text; // Rest: every argument after it is its value
    long long low = 0, high = 0; // a Number's range
    bool repeat = false; // may be given more than once (each value kept)
};

class Args;

struct Command {
    std::string_view name;
    std::string_view usage; // after "mktb NAME": its forms, one per line
    std::string_view summary; // what it does, lines of at most 44 characters
    std::vector<Option> options;
    int (*run)(const Args&) = nullptr;
    // The rest, in the order a table gives them (every one up to the last it sets):
    bool rules = false; // takes the counting options (RULES)
    int operands = 0; // the most arguments that are not options (-1: any number)
    std::string_view operand {}; // what they are, for the error when there are too many
    bool jsonErrors = false; // --json anywhere makes the argument errors JSON too (mktb probe)
};

// The arguments of one command, read against its table.
class Args {
public:
    const Command& command() const { return *command_; }
    bool has(std::string_view name) const;
    bool flag(std::string_view name) const { return has(name); }
    // The (last) value of a Text, Number or Bytes option, or `fallback` when it is absent.
    std::string text(std::string_view name, std::string fallback = {}) const;
    long long number(std::string_view name, long long fallback) const;
    std::uint64_t bytes(std::string_view name, std::uint64_t fallback) const;
    // Every value of a repeatable option, or a Rest option's arguments, in order.
    const std::vector<std::string>& texts(std::string_view name) const;
    const std::vector<std::string>& operands() const { return operands_; }
    const CountRules& rules() const { return rules_; }
    // The tables directory: --tables, else $MKTB_TABLES, else ./tables.
    std::string tables() const;

private:
    friend std::optional<Args> parse(
        const Command&, std::span<const std::string_view>, std::string*);
    const std::vector<std::string>* values(std::string_view name) const;
    const Command* command_ = nullptr;
    std::map<std::string, std::vector<std::string>, std::less<>> values_;
    std::vector<std::string> operands_;
    CountRules rules_;
};

// Reads `args` against `command`; nullopt with *error set (no "mktb CMD: " before it) when
// they do not fit its table.
std::optional<Args> parse(
    const Command& command, std::span<const std::string_view> args, std::string* error);

// "24G", "512M", "1000000": bytes (K M G T are powers of 1024); nullopt for anything else.
std::optional<std::uint64_t> parse_bytes(std::string_view text);

// The usage of every command, or of one (with its options and, where it takes them, RULES).
std::string usage(std::span<const Command* const> commands);
// " (did you mean 'probe'?)" when one of `known` is within two letters' edits of `word`, else "".
std::string did_you_mean(std::string_view word, const std::vector<std::string_view>& known);
// "mktb 0.7.0 ...": the version line of `mktb --version`.
std::string version_line();
std::string command_help(const Command& command);
// Its forms alone: "usage: mktb NAME ..." and "       mktb NAME ..." lines.
std::string command_forms(const Command& command);

} // namespace mktb::cli

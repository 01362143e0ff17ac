// cli.hpp - the commands of the mktb program and the small helpers they share.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include <utility>
#include <vector>

#include "mktb/counting.hpp"
#include "options.hpp"

namespace mktb {
class Ranks;
}

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

// --tables DIR, as the commands reading one directory take it (serve and uci take several).
inline const Option kTablesOption { "--tables", "DIR", "the tables' directory" };

// The commands, in the order the usage lists them; each defined with its run function in its
// own file (options.hpp: the command line as data).
extern const Command kPerftCommand, kGenCommand, kVerifyCommand, kDigestCommand, kPackCommand,
    kProbeCommand, kServeCommand, kUciCommand, kPositionsCommand, kTeachCommand, kMatchCommand;
std::span<const Command* const> commands();

// `mktb gen` over the ranks of an MPI run (mktb-mpi, app/mpi/), `localRanks` of them sharing
// this machine's memory: every rank calls it with the same arguments; rank 0 prints and writes.
int gen_over_ranks(const Args& a, Ranks& ranks, int localRanks);

// Text from the command line or a file, fit for a terminal: control bytes (an escape sequence
// would act on the terminal) as \xNN, as --json escapes them; letters of any script kept.
std::string printable(std::string_view text);

// Whether each table (an ending's name and file) is in `dir`; those that are not are named on
// one line of stderr with the command that makes them (`game`: "" or " --game xiangqi").
std::vector<bool> find_tables(std::string_view command,
    const std::vector<std::pair<std::string, std::string>>& tables, const std::string& dir,
    std::string_view game);

// Of `endings`, those whose table file (`path(dir, m)`) is in `dir`; the others reported.
template<class M>
std::vector<M> tables_present(std::string_view command, const std::vector<M>& endings,
    const std::string& dir, std::string (*path)(const std::string&, const M&),
    std::string_view game) {
    std::vector<std::pair<std::string, std::string>> tables;
    for (const M& m : endings) tables.emplace_back(m.name(), path(dir, m));
    const std::vector<bool> found = find_tables(command, tables, dir, game);
    std::vector<M> present;
    for (std::size_t i = 0; i < endings.size(); ++i)
        if (found[i]) present.push_back(endings[i]);
    return present;
}

// The arguments do not make a whole request: "mktb CMD: what" and the command's forms on
// stderr; returns kExitBadInput.
int usage_error(const Args& args, std::string_view what);

} // namespace mktb::cli

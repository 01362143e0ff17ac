// table_sets.hpp - the table directories a program answers from, each with its Prober (both
// games' tables: a directory may hold either or both), opened once. A Makruk question is answered
// from the directory of the counting rules it is asked under (a table records the rules it was
// built under, docs/rules.md §4: one directory per rule set); a Xiangqi one from the directory
// that holds its ending. For `mktb serve` and `mktb uci`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mktb/probe.hpp"
#include "mktb/xiangqi/index.hpp"

namespace mktb::cli {

struct TableSet {
    std::string dir;
    CountRules rules; // of its Makruk tables (the defaults where it holds none)
    std::vector<Material> endings; // Makruk's, by name
    std::vector<xq::Material> xiangqi_endings; // by name (no counting rules apply)
    // The repetition rules of its Xiangqi tables with both sides armed (all the same; the
    // default where it holds none: its other tables follow every rule set).
    xq::RuleSet xiangqi_rules = xq::kDefaultRuleSet;
    std::vector<std::string> left_out; // damaged tables, each "FILE: FAULT", never answering
    std::unique_ptr<Prober> prober; // both games' tables, one cache
    bool makruk() const { return !endings.empty(); }
};

class TableSets {
public:
    // Opens every directory; an error message naming the directory or file and the fault (not
    // a directory, no tables, tables of different rules in one, two with Makruk tables of the
    // same rules, two with the same Xiangqi ending under the same rules), or empty. A damaged table
    // is left out of its set (left_out says why), not an error.
    std::string open(const std::vector<std::string>& dirs, std::size_t cache_bytes);

    const std::vector<TableSet>& sets() const { return sets_; }
    // The set of Makruk tables built under `rules`, or nullptr.
    const TableSet* find(const CountRules& rules) const;
    // The set holding the Xiangqi ending `m` under `rules` (an ending with an armless side
    // follows every set, so any set holding it); else (to tell what is missing) the first that
    // holds Xiangqi tables of `rules`, or of any; nullptr when none holds Xiangqi tables.
    const TableSet* find(const xq::Material& m, xq::RuleSet rules) const;
    // The Xiangqi rule sets served ("check", "none"), each once, in the order of the sets.
    std::vector<xq::RuleSet> xiangqi_rules() const;
    // "limit_precedence=min ... (DIR); ..." of the Makruk sets, for messages.
    std::string served() const;

private:
    std::vector<TableSet> sets_;
};

// What the table files of `dirs` are now (names, sizes, times): equal while no table appeared,
// changed or went. A file still being written (NAME.mktb.tmp) is not a table yet.
std::string tables_fingerprint(const std::vector<std::string>& dirs);

// Prints each left-out table of `sets` to stderr ("mktb COMMAND: left out FILE: FAULT").
void report_left_out(const char* command, const TableSets& sets);

// The one way a command opens its --tables directories (the default directory when none is
// given): 0 when they open; else prints "mktb COMMAND: ..." and returns the exit code, 2 for two
// directories of the same rules or the same Xiangqi table (bad input), 1 for the rest (a missing
// directory, a damaged table).
int open_tables(const char* command, std::vector<std::string> dirs, TableSets& out);

} // namespace mktb::cli

// table_sets.hpp - the table directories a program answers from, one per set of counting rules
// (a table records the rules it was built under, docs/rules.md §4): opened once, each with its
// Prober, and picked by the rules a question is asked under. For `mktb serve` and `mktb uci`.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "mktb/probe.hpp"
#include "xiangqi_tables.hpp"

namespace mktb::cli {

struct TableSet {
    std::string dir;
    CountRules rules;
    std::vector<Material> endings; // by name
    std::vector<std::string> left_out; // damaged tables, each "FILE: FAULT", never answering
    std::unique_ptr<Prober> prober;
    // Xiangqi's tables in the same directory (no counting rules: the set's rules do not apply).
    std::vector<xq::Material> xiangqi_endings;
    std::unique_ptr<xq::Tablebase> xiangqi;
};

class TableSets {
public:
    // Opens every directory; an error message naming the directory or file and the fault (not
    // a directory, no tables, tables of different rules in one, two of the same rules), or
    // empty. A damaged table is left out of its set (left_out says why), not an error.
    std::string open(const std::vector<std::string>& dirs, std::size_t cache_bytes);

    const std::vector<TableSet>& sets() const { return sets_; }
    // The set built under `rules`, or nullptr.
    const TableSet* find(const CountRules& rules) const;
    // "limit_precedence=min ... (DIR); ..." for messages.
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
// directories of the same rules (bad input), 1 for the rest (a missing directory, a damaged
// table).
int open_tables(const char* command, std::vector<std::string> dirs, TableSets& out);

} // namespace mktb::cli

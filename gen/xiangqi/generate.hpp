// generate.hpp - the Xiangqi generator's entry points: one ending's distance to mate for both
// sides to move (stalemate a loss, docs/rules-xiangqi.md §4), written as a table, and the
// verifier that checks a written table against its moves.
#pragma once

#include <cstdint>
#include <string>

#include "progress.hpp"
#include "ranks.hpp"
#include "table_stats.hpp"
#include "xiangqi_tables.hpp"

namespace mktb::xq {

inline constexpr int kZstdLevel = 9;

// Bytes a generation of `m` needs at its peak, an upper bound: its cells (1 byte per slot and
// side, 2 where both sides are armed: the rule's cells), a bit per slot and side, the level
// masks, and the children's block cache (they are read through it, never whole). Over `ranks`
// processes: what each holds (its share of the cells, the updates it exchanges).
std::uint64_t memory_needed(const Material& m, int ranks = 1, RuleSet rules = kDefaultRuleSet);

// Generates canonical `m` into table_path(children.dir(), m), reading the endings it converts
// into from `children` (each must be there). Throws TableError when a child is missing or
// damaged or the file cannot be written; the table is written whole or not at all. The rule
// set is the children's reader's (Tablebase::rules(); a child of another throws RulesError):
// where both sides are armed, under check the perpetual-check pass (perpetual.hpp) adds the
// rule's results, under none the table holds the plain distance alone.
// `level`: zstd's (the tables are final files, not working ones: docs/generator-xiangqi.md).
// A mate longer than 253 plies is stored in 16-bit cells (where the perpetual-check pass does
// not run: it reads 8-bit ones, and refuses). For tests: `windowPlies` (0: as
// many as 8-bit codes allow), the levels the cells' window holds before it rolls over into the
// spill (cell_store.hpp); `wideCells`, 16-bit cells stored whatever the longest mate.
// `ranks`: the processes of an MPI run, every one calling with the same arguments (each holds
// its share of the cells; rank 0 writes the file, byte-identical to one process's; every rank
// returns the whole table's statistics, file_bytes on rank 0), or nullptr: this process alone.
// An ending with both sides armed, under check, is made by one process (TableError over
// several).
TableStats generate(const Material& m, const Tablebase& children, Progress* progress,
    int level = kZstdLevel, int windowPlies = 0, bool wideCells = false, Ranks* ranks = nullptr);

// Checks every position of the table of `m` in `tables` against its legal moves (the values of
// its children, in this table and the smaller ones): an independent forward check. Returns the
// number of mismatches (0: verified); the first few are described in *report, as Makruk's
// verify() does.
std::uint64_t verify(
    const Material& m, const Tablebase& tables, std::string* report, Progress* progress = nullptr);

// A digest of every value the table of `m` in `tables` stores (16 hex digits per metric:
// "dtm=... rule=..."), over the legal positions in slot order: equal digests, equal answers,
// whatever the file's bytes (block size, compression level).
std::string digest(const Material& m, const Tablebase& tables);

} // namespace mktb::xq

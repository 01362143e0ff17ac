// generator.hpp - the retrograde generator of one ending, its statistics and its verifier.
//
// generate() runs the named phases over blocks of slots with oneTBB (generator.cpp, and
// docs/generator.md): setup -> init -> iterate -> output, DTM and the ending's counted metric
// (board's honour, or the Bia phase) in one level loop; they differ only in how a conversion is
// valued. verify() re-reads the written file and checks every position of every metric
// against its successors.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "mktb/counting.hpp"
#include "progress.hpp"
#include "ranks.hpp"
#include "table_stats.hpp"
#include "tablebase.hpp"

namespace mktb {

struct GenOptions {
    Progress* progress = nullptr;
    CountRules rules; // the counting options of the board's honour values
    // For tests: 16-bit cells, whose window of levels never rolls over in a Makruk ending.
    bool wide_cells = false;
    // For tests: the cells' window holds this many levels (0: as many as the codes allow), so
    // that short mates roll it over too.
    int window_plies = 0;
    // Debug: re-check every loss the counters find, and every position they leave undecided,
    // by forward move generation over the cells; a disagreement throws std::logic_error.
    bool check_counters = false;
    // For benchmarks (bench/gen_dtm.cpp, what the counted metric costs): distance to mate alone.
    // The file lacks the counted values, so it is no table to keep: probing them is refused.
    bool dtm_only = false;
    // The processes the generation is split over (each generate() call one of them, all
    // together), or nullptr: this process alone. Every rank passes the same options.
    Ranks* ranks = nullptr;
};

// The metrics a table of `m` stores: DTM, and the Bia phase (a Bia on the board) or board's
// honour (both sides with men).
std::vector<Metric> stored_metrics(const Material& m);

// The endings to build for a request, each after every ending it converts into.
std::vector<Material> build_order(const std::vector<Material>& wanted);

// What generating `m` holds in memory at its peak, estimated from sizes known before anything is
// allocated (docs/generator.md, "Memory"): the generation cells of every metric and side with
// their level masks and the output's stored arrays (`generation`), and the tables of the endings
// it converts into, made resident (`children`). An upper bound, calibrated on measured peaks.
struct MemoryEstimate {
    std::uint64_t cells = 0; // generation slots x metrics x sides
    std::uint64_t generation = 0, children = 0; // bytes
    std::uint64_t total() const { return generation + children; }
};
// Over `ranks` processes: what each one holds (the children are whole in each).
MemoryEstimate estimate_memory(const Material& m, int ranks = 1);

// Generates `m` (canonical) into tables.dir(); every ending it converts into must already be
// there. Throws TableError when one is missing or damaged. Over several ranks, rank 0 writes
// the file; every rank returns the whole table's statistics (file_bytes only on rank 0).
TableStats generate(const Material& m, const Tablebase& tables, const GenOptions& options);

// Digest of the decoded values of every stored metric of a table, in storage order ("dtm=...
// board=..."): equal digests mean equal answers whatever the compression, cell width or filling
// of the slots that are no position. The golden digests of tests/golden/ were recorded from the
// first generator, whose files filled those slots with the position before them, as the digest
// does now.
std::string table_digest(const Table& table);
// The digest of one metric (16 hex digits) from its cells: cell(pos, slot) for every position of
// the index (pos has its side to move set), called from several threads at once.
std::string cells_digest(
    const Index& index, const std::function<unsigned(const Position&, std::uint64_t)>& cell);

// What verifying `m` holds at its peak, from index sizes alone: the table's cells made resident
// (`generation`: a byte per slot, metric and side), and the smaller tables made resident with
// the block cache that serves the others (`children`). An upper bound, like estimate_memory().
MemoryEstimate estimate_verify_memory(const Material& m);

// Checks every valid position of the written table of `m` against a one-ply search over its
// moves (conversions read from the smaller tables). Returns the number of positions that
// disagree; the first few are described in *report.
std::uint64_t verify(
    const Material& m, const Tablebase& tables, std::string* report, Progress* progress = nullptr);

} // namespace mktb

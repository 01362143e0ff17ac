// verify.cpp - `mktb verify`: an independent forward check of a written table. Every legal
// position of every stored metric is compared with a one-ply search over its moves on boards
// (make/unmake, the storage Index), conversions valued from the smaller tables by this file's
// own code: it shares nothing with the generator's index, counters or conversion tables, so a
// bug there shows here.
#include <array>
#include <atomic>
#include <memory>
#include <cstdio>
#include <mutex>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "generator.hpp"
#include "mktb/movegen.hpp"

namespace mktb {

namespace {

constexpr std::uint64_t kBlock = 4096; // slots per unit of parallel work

template<class Fn>
void parallel_blocks(std::uint64_t n, Progress* progress, const std::string& phase, Fn&& fn) {
    if (progress) progress->phase(phase, n);
    tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, (n + kBlock - 1) / kBlock),
        [&](const tbb::blocked_range<std::uint64_t>& r) {
            for (std::uint64_t b = r.begin(); b != r.end(); ++b) {
                const std::uint64_t end = std::min(n, (b + 1) * kBlock);
                fn(b * kBlock, end);
                if (progress) progress->advance(end - b * kBlock);
            }
        });
}

// The smaller tables this ending converts into, looked up without locks, and the value of a
// conversion in the metric being generated.
class Children {
public:
    Children(const Material& m, const Tablebase& tables, Metric metric, const CountRules& rules)
        : metric_(metric)
        , rules_(rules) {
        for (const Material& c : m.children()) {
            const Table* t = tables.table(c);
            if (!t)
                throw TableError("the table of " + c.name() + " (which " + m.name()
                    + " converts into) is missing from " + tables.dir() + ": generate it first");
            t->make_resident(); // read many million times: plain arrays, no cache
            // The counted metrics read the smaller tables' own counted values.
            const Metric needed = c.has(BIA) ? Metric::Bia : Metric::Board;
            if (metric != Metric::Dtm && (c.has(BIA) || count_phase(c) == CountPhase::BoardHonour)
                && (!t->has(needed) || t->rules() != encode(rules)))
                throw TableError("the table of " + c.name() + " lacks the counted values "
                    + "for these counting options: generate it again");
            tables_.push_back({ c, t });
        }
    }
    // Value of a position reached by a conversion, for its side to move.
    Value probe(const Position& pos) const {
        const Material m = Material::of(pos);
        if (m.bare_kings()) return Value::draw();
        const Material canon = m.canonical();
        for (const auto& [mat, t] : tables_)
            if (mat == canon) {
                if (metric_ == Metric::Dtm) return t->probe(pos);
                if (metric_ == Metric::Bia) {
                    // Still a Bia: its own Bia-phase value. The last Bia gone: the count starts
                    // now (pieces' honour at N + 1, or board's honour at 0), valued as a distance.
                    if (count_phase(pos) == CountPhase::NoCount) return t->probe(Metric::Bia, pos);
                    const CountState fresh = fresh_count(pos, rules_);
                    if (count_phase(pos) == CountPhase::BoardHonour)
                        return as_value(
                            counted_board_honour(t->probe(Metric::Board, pos), fresh, rules_));
                    return as_value(counted_pieces_honour(pos, t->probe(pos), fresh, rules_));
                }
                // Board's honour: a capture that keeps men on both sides continues the count,
                // one that bares the defender succeeds when its fresh pieces' honour count
                // still wins (the defender, to move there, is then "mated" for this metric).
                // Under switch_to_pieces = if_shorter the board count keeps running after the
                // capture, so the mate itself must fit in it: the distance to it counts.
                if (count_phase(pos) == CountPhase::BoardHonour)
                    return t->probe(Metric::Board, pos);
                const CountedValue c
                    = counted_pieces_honour(pos, t->probe(pos), fresh_count(pos, rules_), rules_);
                if (rules_.has(RuleOption::SwitchIfShorter)
                    && !rules_.has(RuleOption::BoardHonourOff))
                    return as_value(c);
                return c.result == CountedValue::Result::Loss ? Value::mate_in_plies(0)
                                                              : Value::draw();
            }
        throw TableError("no table for " + canon.name());
    }

private:
    Metric metric_;
    CountRules rules_;
    std::vector<std::pair<Material, const Table*>> tables_;
};

bool is_conversion(const Position& pos, Move m) { return is_promotion(m) || !pos.empty(to_sq(m)); }

} // namespace

std::uint64_t verify(
    const Material& m, const Tablebase& tables, std::string* report, Progress* progress) {
    const Table* table = tables.table(m);
    if (!table) throw TableError("no table of " + m.name() + " in " + tables.dir());
    table->make_resident();
    const Index& index = table->index();
    const CountRules rules = decode_rules(table->rules());
    // Every stored metric in one pass: one move generation and one successor slot per move.
    std::vector<Metric> metrics;
    std::vector<std::unique_ptr<Children>> children;
    for (Metric metric : { Metric::Dtm, Metric::Board, Metric::Bia })
        if (table->has(metric)) {
            metrics.push_back(metric);
            children.push_back(std::make_unique<Children>(m, tables, metric, rules));
        }
    const std::size_t nm = metrics.size();
    std::atomic<std::uint64_t> bad { 0 };
    std::mutex reportMutex;
    parallel_blocks(index.size(), progress, m.name() + ": verify",
        [&](std::uint64_t begin, std::uint64_t end) {
            for (std::uint64_t i = begin; i < end; ++i) {
                Position pos;
                if (!index.decode(i, pos)) continue;
                for (Color c : { WHITE, BLACK }) {
                    pos.set_side_to_move(c);
                    if (pos.attacked_by(c, pos.king_square(~c), pos.pieces())) continue;
                    // The value a one-ply search gives: mated or stalemated without moves, else
                    // the best successor seen from this side.
                    const MoveList moves = legal_moves(pos);
                    std::array<Value, 3> expected;
                    for (std::size_t k = 0; k < nm; ++k)
                        expected[k] = pos.in_check() ? mated_value(m, metrics[k], rules, c)
                                                     : Value::draw();
                    for (int j = 0; j < moves.size; ++j) {
                        const Move mv = moves.moves[std::size_t(j)];
                        const bool conversion = is_conversion(pos, mv);
                        const auto u = pos.do_move(mv);
                        // In-table successors are in the table's own orientation.
                        const std::uint64_t slot = conversion ? 0 : index.encode(pos);
                        for (std::size_t k = 0; k < nm; ++k) {
                            const Value v = (conversion
                                    ? children[k]->probe(pos)
                                    : table->value(metrics[k], pos.side_to_move(), slot))
                                                .parent();
                            if (j == 0 || better(v, expected[k])) expected[k] = v;
                        }
                        pos.undo_move(mv, u);
                    }
                    for (std::size_t k = 0; k < nm; ++k) {
                        const Value stored = table->value(metrics[k], c, i);
                        if (stored == expected[k]) continue;
                        if (bad.fetch_add(1) < 5 && report) {
                            std::lock_guard lock(reportMutex);
                            *report += pos.fen()
                                + (metrics[k] == Metric::Board      ? " (board's honour)"
                                        : metrics[k] == Metric::Bia ? " (counted Bia phase)"
                                                                    : "")
                                + ": stored " + describe(stored) + ", successors give "
                                + describe(expected[k]) + "\n";
                        }
                    }
                }
            }
        });
    if (progress) progress->finish();
    return bad;
}

std::string table_digest(const Table& table) {
    table.make_resident();
    std::string out;
    for (Metric m : { Metric::Dtm, Metric::Board, Metric::Bia }) {
        if (!table.has(m)) continue;
        std::uint64_t h = 0xcbf29ce484222325ULL; // FNV-1a 64 over 16-bit little-endian cells
        for (Color c : { WHITE, BLACK })
            for (std::uint64_t i = 0; i < table.index().size(); ++i) {
                const unsigned v = table.value(m, c, i).cell();
                h = (h ^ (v & 0xFF)) * 0x100000001b3ULL;
                h = (h ^ (v >> 8)) * 0x100000001b3ULL;
            }
        char hex[17];
        std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
        out += std::string(out.empty() ? "" : " ")
            + (m == Metric::Dtm          ? "dtm="
                    : m == Metric::Board ? "board="
                                         : "bia=")
            + hex;
    }
    return out;
}

} // namespace mktb

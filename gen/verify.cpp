// verify.cpp - `mktb verify`: an independent forward check of a written table. Every legal
// position of every stored metric is compared with a one-ply search over its legal moves on
// boards (the successor's slot from the storage Index), conversions made on the board and
// valued by reading the smaller tables through the probing layer (mktb::Table and the counting
// functions, as mktb::Prober reads them): it shares nothing with the generator's index,
// counters or conversion recipes, so a bug there shows here.
#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "generator.hpp"
#include "index_fast_paths.hpp"
#include "mktb/movegen.hpp"
#include "mktb/probe.hpp"
#include "parallel.hpp"
#include "preference.hpp"

namespace mktb {

namespace {

// The block cache of the smaller tables that are not made resident.
constexpr std::size_t kVerifyCacheBytes = std::size_t(512) << 20;

// A child with fewer men is small and probed millions of times: resident, each probe is an
// array read, not a block cache lookup. A promotion's child (as many men) stays in the cache,
// which bounds verify's memory.
bool resident_child(std::uint64_t childSize, std::uint64_t size) { return childSize * 4 <= size; }

// The value of a position reached by a conversion, for its side to move, in the metric being
// verified, read from the smaller tables through the probing layer only (mktb::Table, and
// conversion_value(), which restores a packed table's lacking side too): DTM as it is; a
// counted metric as the answer under the count the conversion starts (or, for a capture that
// keeps men on both sides, continues). The child's table is found once per kind of conversion
// (the man captured, a promotion), not per probe: the lookups by material were a fifth of
// verify's time.
class ChildTables {
public:
    // `size`: the verified table's index size.
    ChildTables(
        const Material& m, std::uint64_t size, const Tablebase& tables, const CountRules& rules)
        : tables_(tables.dir(), kVerifyCacheBytes, true)
        , rules_(rules) {
        // Every kind a legal move can make: a man captured, a Bia of the mover promoted, or both.
        for (int captured = 0; captured < PIECE_NB; ++captured)
            for (int promoter = 0; promoter <= 2; ++promoter) {
                const Piece p = Piece(captured);
                Material child = m;
                if (p != NO_PIECE) {
                    const PieceType pt = type_of(p);
                    if (pt == NO_PIECE_TYPE || pt == KHUN || pt >= PIECE_TYPE_NB
                        || !child.count[color_of(p)][pt])
                        continue;
                    --child.count[color_of(p)][pt];
                }
                if (promoter < 2) {
                    const Color us = Color(promoter);
                    if ((p != NO_PIECE && color_of(p) == us) || !child.count[us][BIA]) continue;
                    --child.count[us][BIA], ++child.count[us][MET];
                } else if (p == NO_PIECE)
                    continue; // a quiet move: no conversion
                kinds_[std::size_t(captured)][std::size_t(promoter)] = kind_of(m, size, child);
            }
    }
    // The value of each of `metrics` (the DTM of the child probed once for all of them) after a
    // move that captured `captured` (NO_PIECE: none) and promoted a Bia of `promoter` or not.
    template<std::size_t N>
    void probe(const std::vector<Metric>& metrics, const Position& pos, Piece captured,
        bool promotes, Color promoter, std::array<Value, N>& out) const {
        const Kind& k = kinds_[std::size_t(captured)][promotes ? std::size_t(promoter) : 2];
        if (!k.known) throw std::logic_error("verify: a conversion of no known kind");
        if (!k.table) {
            out.fill(Value::draw()); // bare kings
            return;
        }
        const Position swapped = k.swapped ? colour_swapped(pos) : Position {};
        const Position& p = k.swapped ? swapped : pos; // in the child table's colours
        const std::uint64_t slot = k.table->index().encode(p);
        const Value dtm = k.table->value(Metric::Dtm, p.side_to_move(), slot);
        const Value own = k.phase == CountPhase::PiecesHonour
            ? Value::draw()
            : k.table->value(k.phase == CountPhase::NoCount ? Metric::Bia : Metric::Board,
                p.side_to_move(), slot);
        for (std::size_t i = 0; i < metrics.size(); ++i)
            out[i] = conversion_value(metrics[i], pos, k.phase, dtm, own, rules_);
    }

private:
    // A kind of conversion: the child's table (nullptr: bare kings) and its orientation.
    struct Kind {
        bool known = false; // a kind this material has
        const Table* table = nullptr;
        bool swapped = false; // the child's stronger side is the parent's Black
        CountPhase phase = CountPhase::BareKings;
    };
    Kind kind_of(const Material& m, std::uint64_t size, const Material& child) const {
        Kind k;
        k.known = true;
        k.phase = count_phase(child);
        if (child.bare_kings()) return k;
        k.swapped = !child.is_canonical();
        k.table = tables_.table(child.canonical());
        if (!k.table)
            throw TableError("the table of " + child.canonical().name() + " (which " + m.name()
                + " converts into) is missing from " + tables_.dir() + ": generate it first");
        const Metric counted = k.phase == CountPhase::NoCount ? Metric::Bia : Metric::Board;
        if (k.phase != CountPhase::PiecesHonour
            && (!k.table->has(counted) || k.table->rules() != encode(rules_)))
            throw TableError("the table of " + child.canonical().name()
                + " lacks the counted values for these counting options: generate it again");
        if (!k.table->packed() && resident_child(k.table->index().size(), size))
            k.table->make_resident();
        return k;
    }
    Tablebase tables_; // its own: the children made resident go with it
    CountRules rules_;
    // [captured piece, NO_PIECE for none][promoting colour, or 2: no promotion]
    std::array<std::array<Kind, 3>, PIECE_NB> kinds_ {};
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
    for (Metric metric : { Metric::Dtm, Metric::Board, Metric::Bia })
        if (table->has(metric)) metrics.push_back(metric);
    const ChildTables children(m, index.size(), tables, rules);
    const std::size_t nm = metrics.size();
    std::atomic<std::uint64_t> bad { 0 };
    std::mutex reportMutex;
    // The cells read directly, billions of times (value() checks residency on every call).
    std::array<std::array<const std::uint8_t*, COLOR_NB>, 3> cells {};
    std::array<bool, 3> wide {}; // 16-bit cells: 0xFF is in the long list
    for (std::size_t k = 0; k < nm; ++k) {
        for (Color c : { WHITE, BLACK })
            if (!(cells[k][c] = table->resident_cells(metrics[k], c)))
                throw std::logic_error("verify: a table part is not resident");
        wide[k] = table->cell_bytes(metrics[k]) == 2;
    }
    // Digit strides of the men alone in their group (IndexFastPaths::single_man_stride), per piece.
    std::array<std::uint64_t, PIECE_NB> stride {};
    for (Color c : { WHITE, BLACK })
        for (PieceType pt : kNameOrder)
            stride[make_piece(c, pt)] = IndexFastPaths::single_man_stride(index, c, pt);
    parallel_blocks(index.size(), progress, m.name() + ": verify",
        [&](std::uint64_t, std::uint64_t begin, std::uint64_t end) {
            for (std::uint64_t i = begin; i < end; ++i) {
                Position pos;
                if (!index.decode(i, pos)) continue;
                // The squares Index::encode() takes: kings, then the men group by group.
                const Square wk = pos.king_square(WHITE), bk = pos.king_square(BLACK);
                std::array<Square, 16> men;
                int n = 0;
                for (Color c : { WHITE, BLACK })
                    for (PieceType pt : kNameOrder)
                        for (Bitboard b = pos.pieces(c, pt); b;) men[std::size_t(n++)] = pop_lsb(b);
                const bool diagonal = index.symmetry() == Symmetry::Full8
                    && file_of(wk) == rank_of(wk) && file_of(bk) == rank_of(bk);
                // The slot after a move that stays in the table: the king pair changed when the
                // new pair needs no other frame, the moved man's digit changed when it is alone
                // in its group and the frame cannot change, else encoded from the squares (no
                // make/unmake).
                auto successor = [&](Move mv) {
                    const Square from = from_sq(mv), to = to_sq(mv);
                    const Piece p = pos.piece_on(from);
                    if (type_of(p) == KHUN) {
                        const Square w = color_of(p) == WHITE ? to : wk;
                        const Square b = color_of(p) == WHITE ? bk : to;
                        const std::uint64_t slot
                            = IndexFastPaths::with_kings(index, i, wk, bk, w, b);
                        return slot != Index::kNoSlot ? slot : index.encode(w, b, men.data());
                    }
                    if (!diagonal && stride[p])
                        return i + (std::uint64_t(to) - std::uint64_t(from)) * stride[p];
                    std::array<Square, 16> moved = men;
                    *std::find(moved.begin(), moved.begin() + n, from) = to;
                    return index.encode(wk, bk, moved.data());
                };
                for (Color c : { WHITE, BLACK }) {
                    pos.set_side_to_move(c);
                    if (pos.attacked_by(c, pos.king_square(~c), pos.pieces())) continue;
                    // The value a one-ply search gives: mated or stalemated without moves, else
                    // the best successor seen from this side (the highest preference).
                    const MoveList moves = legal_moves(pos);
                    std::array<int, 3> best;
                    best.fill(std::numeric_limits<int>::min());
                    for (const Move mv : moves) {
                        if (is_conversion(pos, mv)) {
                            const Piece captured = pos.piece_on(to_sq(mv));
                            const auto u = pos.do_move(mv);
                            std::array<Value, 3> v;
                            children.probe(metrics, pos, captured, is_promotion(mv), c, v);
                            for (std::size_t k = 0; k < nm; ++k)
                                best[k] = std::max(best[k], preference(v[k].parent()));
                            pos.undo_move(mv, u);
                            continue;
                        }
                        // In-table successors are in the table's own orientation.
                        const std::uint64_t slot = successor(mv);
                        for (std::size_t k = 0; k < nm; ++k) {
                            best[k] = std::max(best[k],
                                successor_preference(
                                    *table, metrics[k], ~c, cells[k][~c], wide[k], slot));
                        }
                    }
                    std::array<Value, 3> expected;
                    for (std::size_t k = 0; k < nm; ++k)
                        expected[k] = moves.size ? from_preference(best[k])
                            : pos.in_check()     ? mated_value(m, metrics[k], rules, c)
                                                 : Value::draw();
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

std::string cells_digest(
    const Index& index, const std::function<unsigned(const Position&, std::uint64_t)>& cell) {
    // The positions in scheme 1's order whatever the table's, so that digests recorded from
    // tables of either scheme compare.
    const Index order(index.material(), Index::kSchemeNameOrder);
    const bool same = index.scheme() == order.scheme();
    std::uint64_t h = 0xcbf29ce484222325ULL; // FNV-1a 64 over 16-bit little-endian cells
    // Chunks of slots: their cells are found in parallel, then hashed in order.
    constexpr std::uint64_t kChunk = std::uint64_t(1) << 20;
    std::vector<std::int32_t> cells;
    for (Color c : { WHITE, BLACK }) {
        unsigned v = 0; // the last position's cell
        for (std::uint64_t first = 0; first < index.size(); first += kChunk) {
            const std::uint64_t n = std::min(kChunk, index.size() - first);
            cells.assign(n, -1);
            parallel_blocks(
                n, nullptr, "", [&](std::uint64_t, std::uint64_t begin, std::uint64_t end) {
                    for (std::uint64_t i = begin; i < end; ++i) {
                        Position pos;
                        if (!order.decode(first + i, pos)) continue;
                        if (pos.attacked_by(c, pos.king_square(~c), pos.pieces())) continue;
                        pos.set_side_to_move(c);
                        cells[i] = std::int32_t(cell(pos, same ? first + i : index.encode(pos)));
                    }
                });
            for (const std::int32_t x : cells) {
                if (x >= 0) v = unsigned(x);
                h = (h ^ (v & 0xFF)) * 0x100000001b3ULL;
                h = (h ^ (v >> 8)) * 0x100000001b3ULL;
            }
        }
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", (unsigned long long)h);
    return hex;
}

std::string table_digest(const Table& table) {
    table.make_resident();
    std::string out;
    for (Metric m : { Metric::Dtm, Metric::Board, Metric::Bia }) {
        if (!table.has(m)) continue;
        out += std::string(out.empty() ? "" : " ")
            + (m == Metric::Dtm          ? "dtm="
                    : m == Metric::Board ? "board="
                                         : "bia=")
            + cells_digest(table.index(), [&](const Position& pos, std::uint64_t slot) {
                  return table.value(m, pos.side_to_move(), slot).cell();
              });
    }
    return out;
}

MemoryEstimate estimate_verify_memory(const Material& m) {
    MemoryEstimate e;
    const std::uint64_t size = Index(m).size();
    e.cells = size * stored_metrics(m).size() * COLOR_NB;
    e.generation = e.cells + (std::uint64_t(64) << 20); // and the program, oneTBB, the stacks
    e.children = kVerifyCacheBytes;
    for (const Material& c : m.children())
        if (const std::uint64_t s = Index(c.canonical()).size(); resident_child(s, size))
            e.children += s * stored_metrics(c).size() * COLOR_NB;
    return e;
}

} // namespace mktb

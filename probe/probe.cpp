// probe.cpp - the C++ probing API (see mktb/probe.hpp).
#include "mktb/probe.hpp"

#include <stdexcept>

#include <algorithm>

#include "block_cache.hpp"
#include "mktb/movegen.hpp"
#include "tablebase.hpp"
#include "xiangqi_tables.hpp"

namespace mktb {

namespace {

Wdl wdl_of(Value v) { return v.is_win() ? Wdl::Win : v.is_loss() ? Wdl::Loss : Wdl::Draw; }

// The counted answer of the side that moved into a position, from that position's.
CountedValue parent(CountedValue c) {
    c.result = CountedValue::Result(-int(c.result));
    return c;
}

// A root move's values in the one view of RankedMove: the mover's, each counting the move
// itself (its distance in plies; under the count the winner's moves, and the moves the count
// leaves it, both one more when the mover is the winner).
RankedMove mover_view(Move m, Value child, CountedValue childCounted) {
    CountedValue c = parent(childCounted);
    if (c.result == CountedValue::Result::Win) {
        if (c.moves_needed >= 0) ++c.moves_needed;
        if (c.moves_available >= 0) ++c.moves_available;
    }
    return { m, child.parent(), c };
}

} // namespace

bool better(const CountedValue& a, const CountedValue& b) {
    if (a.result != b.result) return a.result > b.result;
    if (a.result == CountedValue::Result::Win) return a.moves_needed < b.moves_needed;
    if (a.result == CountedValue::Result::Loss) return a.moves_needed > b.moves_needed;
    return false;
}

static_assert(ProbeOptions {}.cache_bytes == Tablebase::kDefaultCacheBytes);

Prober::Prober(std::string dir, ProbeOptions options)
    : options_(options)
    , cache_(std::make_shared<BlockCache>(options.cache_bytes))
    , tables_(std::make_unique<Tablebase>(dir, cache_, true))
    , xiangqi_(std::make_unique<xq::Tablebase>(dir, cache_, true, options.xiangqi_rules)) { }

Prober::~Prober() = default;

const std::string& Prober::dir() const { return tables_->dir(); }
bool Prober::available(const Material& m) const { return tables_->available(m.canonical()); }
int Prober::largest() const { return tables_->largest_men(); }
std::uint64_t Prober::cache_misses() const { return tables_->cache_misses(); }
void Prober::open_tables() const { tables_->open_all(); }

bool Prober::available(const xq::Material& m) const { return xiangqi_->available(m.canonical()); }
std::optional<Value> Prober::dtm(const xq::Position& pos) const { return xiangqi_->probe(pos); }
std::optional<Wdl> Prober::wdl(const xq::Position& pos) const {
    const std::optional<Value> v = dtm(pos);
    if (!v) return std::nullopt;
    return wdl_of(*v);
}
std::optional<Wdl> Prober::rule_wdl(const xq::Position& pos) const {
    const std::optional<int> r = xiangqi_->probe_result(pos);
    if (!r) return std::nullopt;
    return Wdl(*r);
}

std::optional<int> Prober::rule_plies(const xq::Position& pos) const {
    return xiangqi_->probe_rule_plies(pos);
}

bool better(const XiangqiMove& a, const XiangqiMove& b) {
    if (a.result != b.result) return a.result > b.result;
    if (a.value != b.value) return preference(a.value) > preference(b.value);
    // Both decided by the rules alone: the winner's shorter way, the loser's longer one (the
    // position after the move is the other side's: its distance is odd where the mover wins).
    if (a.rule_plies < 0 || b.rule_plies < 0) return false;
    return a.result > 0 ? a.rule_plies < b.rule_plies : a.rule_plies > b.rule_plies;
}

std::optional<std::vector<XiangqiMove>> Prober::rank_root(const xq::Position& pos) const {
    std::vector<XiangqiMove> out;
    xq::Position p = pos;
    for (xq::Move m : xq::legal_moves(pos)) {
        const auto u = p.do_move(m);
        const std::optional<Value> child = xiangqi_->probe(p);
        const std::optional<int> result = child ? xiangqi_->probe_result(p) : std::nullopt;
        const std::optional<int> plies = child && child->is_draw() && *result
            ? xiangqi_->probe_rule_plies(p)
            : std::optional(-1);
        p.undo_move(m, u);
        if (!child || !plies) return std::nullopt;
        out.push_back({ m, child->parent(), -*result, *plies });
    }
    std::stable_sort(out.begin(), out.end(),
        [](const XiangqiMove& a, const XiangqiMove& b) { return better(a, b); });
    return out;
}

CountState Prober::count_of(const Position& pos) const {
    return pos.count_state().limit ? pos.count_state() : fresh_count(pos, options_.rules);
}

std::optional<Value> Prober::dtm(const Position& pos) const { return tables_->probe(pos); }

std::optional<Wdl> Prober::wdl(const Position& pos) const {
    const std::optional<Value> v = dtm(pos);
    if (!v) return std::nullopt;
    return wdl_of(*v);
}

void Prober::check_count(const Position& pos, CountState count) {
    if (std::string why = count_error(pos, count); !why.empty()) throw std::invalid_argument(why);
}

std::optional<CountedValue> Prober::counted(const Position& pos, CountState count) const {
    check_count(pos, count);
    return tables_->probe_counted(pos, count, options_.rules);
}

std::optional<CountedValue> Prober::counted(const Position& pos) const {
    return counted(pos, count_of(pos));
}

std::optional<Wdl> Prober::counted_wdl(const Position& pos) const {
    const std::optional<CountedValue> c = counted(pos);
    if (!c) return std::nullopt;
    return Wdl(c->result);
}

std::optional<std::vector<RankedMove>> Prober::rank_root(const Position& pos) const {
    return rank_root(pos, count_of(pos));
}

std::optional<std::vector<RankedMove>> Prober::rank_root(
    const Position& pos, CountState count) const {
    struct Ranked {
        RankedMove move;
        CountedValue key; // the counted value, with a baring capture's distance taken as 0
    };
    check_count(pos, count);
    if (count_has_ended(count)) { // the game is over: no move is played from it
        if (!tables_->probe(pos)) return std::nullopt;
        return std::vector<RankedMove> {};
    }
    std::vector<Ranked> ranked;
    for (Move m : legal_moves(pos)) {
        Position next = pos;
        next.do_move(m);
        const std::optional<Value> v = tables_->probe(next);
        const CountState after = count_after_move(pos, next, count, options_.rules);
        const std::optional<CountedValue> c = tables_->probe_counted(next, after, options_.rules);
        if (!v || !c) return std::nullopt;
        CountedValue key = parent(*c);
        // Board's honour measures the way to the capture that bares the defender: once it is
        // made, the goal of that count is reached (a fresh count governs what follows).
        if (count_phase(pos) == CountPhase::BoardHonour
            && count_phase(next) == CountPhase::PiecesHonour
            && !options_.rules.has(RuleOption::SwitchIfShorter))
            key.moves_needed = 0;
        ranked.push_back({ mover_view(m, *v, *c), key });
    }
    std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
        if (better(a.key, b.key) || better(b.key, a.key)) return better(a.key, b.key);
        return mktb::better(a.move.pure, b.move.pure);
    });
    std::vector<RankedMove> moves;
    for (const Ranked& r : ranked) moves.push_back(r.move);
    return moves;
}

bool Prober::walk(const Material& m, const std::function<void(const TablePosition&)>& visit) const {
    const Table* table = tables_->table(m.canonical());
    if (!table) return false;
    const CountRules& rules = options_.rules;
    if ((table->has(Metric::Board) || table->has(Metric::Bia)) && table->rules() != encode(rules))
        throw RulesError("the table of " + m.canonical().name() + " was built with "
            + describe_difference(decode_rules(table->rules()), rules)
            + ": walk it with the options it was built with");
    table->make_resident();
    const Index& index = table->index();
    for (std::uint64_t slot = 0; slot < index.size(); ++slot) {
        Position board;
        if (!index.decode(slot, board)) continue;
        for (Color stm : { WHITE, BLACK }) {
            TablePosition t { board, Value::draw(), {}, 0, slot };
            t.pos.set_side_to_move(stm);
            if (t.pos.attacked_by(stm, t.pos.king_square(~stm), t.pos.pieces())) continue;
            const CountState fresh = fresh_count(t.pos, rules);
            t.pos.set_count_state(fresh);
            t.pure = table->value(Metric::Dtm, stm, slot);
            // The table's own cells, as Tablebase::probe_counted reads them, without its lookup.
            const CountPhase phase = count_phase(t.pos);
            const Value own = phase == CountPhase::PiecesHonour
                ? Value::draw()
                : table->value(
                    phase == CountPhase::NoCount ? Metric::Bia : Metric::Board, stm, slot);
            t.counted = counted_value(phase, t.pos, t.pure, own, fresh, rules);
            t.weight = std::uint64_t(index.orbit_size(t.pos));
            visit(t);
        }
    }
    return true;
}

std::vector<Move> Prober::line(Position pos, CountState count, int max_plies) const {
    std::vector<Move> line;
    while (int(line.size()) < max_plies) {
        const std::optional<CountedValue> here = counted(pos, count);
        if (!here || here->result == CountedValue::Result::Draw) break;
        const std::optional<std::vector<RankedMove>> ranked = rank_root(pos, count);
        if (!ranked || ranked->empty() || ranked->front().counted.result != here->result)
            break; // mated, or a table on the way is missing
        // The winner keeps its fastest counted win; the loser, every move of which loses under
        // the count, resists longest in pure distance to mate. Each ply then lowers the pure
        // distance by one at most, so the line is never shorter than the pure mate: a mate
        // score read from it is one the defender cannot beat by playing on.
        Move m = ranked->front().move;
        if (here->result == CountedValue::Result::Loss) {
            const RankedMove* longest = &ranked->front();
            for (const RankedMove& r : *ranked)
                if (mktb::better(r.pure, longest->pure)) longest = &r;
            m = longest->move;
        }
        Position next = pos;
        next.do_move(m);
        count = count_after_move(pos, next, count, options_.rules);
        pos = next;
        line.push_back(m);
    }
    return line;
}

std::optional<std::vector<Move>> Prober::best_moves(const Position& pos, View view) const {
    const std::optional<std::vector<RankedMove>> ranked = rank_root(pos);
    if (!ranked) return std::nullopt;
    std::vector<Move> best;
    if (ranked->empty()) return best;
    if (view == View::Counted) {
        const CountedValue& top = ranked->front().counted;
        for (const RankedMove& m : *ranked)
            if (!better(top, m.counted)) best.push_back(m.move);
        return best;
    }
    Value top = ranked->front().pure;
    for (const RankedMove& m : *ranked)
        if (mktb::better(m.pure, top)) top = m.pure;
    for (const RankedMove& m : *ranked)
        if (m.pure == top) best.push_back(m.move);
    return best;
}

} // namespace mktb

// tablebase.cpp - the directory of Makruk tables (see tablebase.hpp).
#include "tablebase.hpp"

#include <array>

#include "mktb/material.hpp"
#include "mktb/movegen.hpp"

namespace mktb {

Tablebase::Tablebase(std::string dir, std::size_t cache_bytes, bool fixed)
    : Tablebase(std::move(dir), std::make_shared<BlockCache>(cache_bytes), fixed) { }

Tablebase::Tablebase(std::string dir, std::shared_ptr<BlockCache> cache, bool fixed)
    : cache_(cache)
    , set_(std::move(dir), std::move(cache), fixed) { }

Tablebase::~Tablebase() = default;

std::uint64_t Tablebase::cache_misses() const { return cache_->misses(); }

std::optional<Value> Tablebase::probe(const Position& pos) const {
    const Material m = Material::of(pos);
    if (m.bare_kings()) return Value::draw();
    const Table* t = table(m.canonical());
    if (!t) return std::nullopt;
    return value_of(*t, Metric::Dtm, pos);
}

std::optional<Value> Tablebase::value_of(const Table& t, Metric metric, const Position& pos) const {
    if (!t.packed()) return t.probe(metric, pos);
    const bool swapped = Material::of(pos) != t.index().material();
    if (t.stores(swapped ? ~pos.side_to_move() : pos.side_to_move())) return t.probe(metric, pos);
    return restore(t, metric, pos);
}

std::optional<Value> Tablebase::restore(
    const Table& t, Metric metric, const Position& position) const {
    // What the generator stored: the best of the moves' values (verify checks every table
    // against the same one-ply search). A quiet move reaches the side the table keeps; a
    // conversion reaches a smaller table, itself perhaps packed: each conversion removes a man
    // or promotes a Bia, so the search ends. The values stored do not depend on a count running
    // (each conversion is valued under the count it starts), so none is carried. The search
    // runs in the table's colours, so that a quiet move's slot is one encode.
    Position pos
        = Material::of(position) == t.index().material() ? position : colour_swapped(position);
    pos.set_count_state({});
    const CountRules rules = decode_rules(t.rules());
    const MoveList moves = legal_moves(pos);
    if (moves.size == 0)
        return pos.in_check() ? mated_value(t.index().material(), metric, rules, pos.side_to_move())
                              : Value::draw(); // stalemate
    // The quiet moves' slots first, the block cache's lines they need asked for at once (their
    // sets, then their blocks' cells): the lookups that follow wait for memory together, not
    // one after the other.
    const Color them = ~pos.side_to_move();
    std::array<std::uint64_t, 256> slots;
    for (int j = 0; j < moves.size; ++j) {
        const Move m = moves.moves[std::size_t(j)];
        slots[std::size_t(j)] = Index::kNoSlot; // a conversion
        if (is_promotion(m) || !pos.empty(to_sq(m))) continue;
        Position next = pos;
        next.do_move(m);
        slots[std::size_t(j)] = t.index().encode(next);
        t.prefetch(metric, them, slots[std::size_t(j)]);
    }
    for (int j = 0; j < moves.size; ++j)
        if (slots[std::size_t(j)] != Index::kNoSlot)
            t.prefetch(metric, them, slots[std::size_t(j)], true);
    std::optional<Value> best;
    for (int j = 0; j < moves.size; ++j) {
        std::optional<Value> v;
        if (slots[std::size_t(j)] != Index::kNoSlot) {
            v = t.value(metric, them, slots[std::size_t(j)]);
        } else {
            Position next = pos;
            next.do_move(moves.moves[std::size_t(j)]);
            if (!(v = after_conversion(metric, next, rules))) return std::nullopt;
        }
        if (!best || better(v->parent(), *best)) best = v->parent();
    }
    return best;
}

std::optional<Value> Tablebase::after_conversion(
    Metric metric, const Position& child, const CountRules& rules) const {
    const CountPhase phase = count_phase(child);
    if (phase == CountPhase::BareKings) return Value::draw();
    const Table* t = table(Material::of(child).canonical());
    if (!t) return std::nullopt;
    std::optional<Value> dtm = Value::draw(), own = Value::draw();
    if (metric == Metric::Dtm || phase == CountPhase::PiecesHonour) {
        if (!(dtm = value_of(*t, Metric::Dtm, child))) return std::nullopt;
    } else {
        const Metric counted = phase == CountPhase::NoCount ? Metric::Bia : Metric::Board;
        if (!t->has(counted) || t->rules() != encode(rules))
            throw RulesError("the table of " + t->index().material().name()
                + " lacks the counted values the packed tables it converts from were built "
                  "with: generate it again");
        if (!(own = value_of(*t, counted, child))) return std::nullopt;
    }
    return conversion_value(metric, child, phase, *dtm, *own, rules);
}

std::optional<CountedValue> Tablebase::probe_counted(
    const Position& pos, CountState count, const CountRules& rules) const {
    const CountPhase phase = count_phase(pos);
    if (phase == CountPhase::BareKings) return CountedValue {};
    if (phase == CountPhase::PiecesHonour) { // DTM is the metric: the count is a pure deadline
        const std::optional<Value> v = probe(pos);
        if (!v) return std::nullopt;
        return counted_value(phase, pos, *v, Value::draw(), count, rules);
    }
    // Board's honour and the Bia phase have counted metrics of their own, built for one set of
    // options: another set is refused, never answered.
    const Metric metric = phase == CountPhase::NoCount ? Metric::Bia : Metric::Board;
    const Table* t = table(Material::of(pos).canonical());
    if (!t) return std::nullopt;
    if (!t->has(metric))
        throw TableError("the table of " + t->index().material().name()
            + " lacks its counted values (an older mktb, or distance to mate alone): generate it "
              "again");
    if (t->rules() != encode(rules))
        throw RulesError("the table of " + t->index().material().name() + " was built with "
            + describe_difference(decode_rules(t->rules()), rules)
            + ": probe with the options it was built with, or generate tables under yours into "
              "a directory of their own (mktb gen ... --tables ANOTHER_DIR)");
    const std::optional<Value> v = value_of(*t, metric, pos);
    if (!v) return std::nullopt;
    return counted_value(phase, pos, Value::draw(), *v, count, rules);
}

} // namespace mktb

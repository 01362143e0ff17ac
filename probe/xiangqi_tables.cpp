// xiangqi_tables.cpp - the directory of Xiangqi tables (see xiangqi_tables.hpp).
#include "xiangqi_tables.hpp"

#include <filesystem>

#include "block_cache.hpp"

namespace mktb::xq {

std::string table_path(const std::string& dir, const Material& m) {
    return (std::filesystem::path(dir) / (m.name() + std::string(Files::kSuffix))).string();
}

// Blocks of 64 Ki cells, four times Makruk's: zstd finds 23 % more to share in a block of a
// Xiangqi table (KRABBvKAABB: 4.43 -> 3.42 MB at level 12); the block cache keeps them a
// quarter at a time, pieces of Makruk's size (Table::decompress_piece).
constexpr std::uint32_t kXiangqiBlockCells = 1u << 16;

TableKey table_key(const Material& m) {
    return { Game::Xiangqi, m.name(), Index(m).size(), 0, kXiangqiBlockCells };
}

std::unique_ptr<Entry> Files::open(
    const std::string& path, const Material& m, BlockCache* cache, std::uint64_t id) {
    auto e
        = std::make_unique<Entry>(Entry { Table::open(path, table_key(m), cache, id), Index(m) });
    const std::uint32_t rule = e->table->rules();
    const bool armless = m.armless(RED) || m.armless(BLACK);
    const std::uint32_t set = rule & ~kRulePlies;
    if (set < kRulePlainArmless || set > kRuleAsian || (rule != set && !has_rule_cells(rule)))
        throw TableError(path + ": built under Xiangqi rule " + std::to_string(rule)
            + ", which this reader does not know (it knows 1: the plain result, one side armless; "
              "2: the perpetual-check rule; 3: none, every endless line a draw; 4: asian, "
              "perpetual check and chase; 16 added to 2 or 4: with the rule's distances)");
    if ((rule == kRulePlainArmless) != armless
        || e->table->has(kRuleResult) != has_rule_cells(rule))
        throw TableError(path + ": the header's rule " + std::to_string(rule)
            + " does not fit the ending (an ending with an armless side follows every rule set "
              "and has no rule cells; one with both sides armed names its rule set, and holds "
              "the perpetual-check rule's cells under check)");
    return e;
}

std::string_view rule_name(std::uint32_t rule) {
    const std::optional<RuleSet> r = rule_set_of(rule);
    return r ? rule_set(*r).name : "every rule set";
}

Tablebase::Tablebase(
    std::string dir, std::size_t cache_bytes, bool fixed, std::optional<RuleSet> rules)
    : Tablebase(std::move(dir), std::make_shared<BlockCache>(cache_bytes), fixed, rules) { }

Tablebase::Tablebase(
    std::string dir, std::shared_ptr<BlockCache> cache, bool fixed, std::optional<RuleSet> rules)
    : set_(std::move(dir), std::move(cache), fixed)
    , rules_(rules) { }

const Entry* Tablebase::table(const Material& canonical) const {
    const Entry* e = set_.find(canonical);
    if (e && rules_ && !follows(e->table->rules(), *rules_))
        throw RulesError("the Xiangqi table of " + canonical.name() + " in " + dir()
            + " follows the rules " + std::string(rule_name(e->table->rules())) + ", not "
            + std::string(rule_set(*rules_).name) + " as asked");
    return e;
}

Tablebase::~Tablebase() = default;

std::pair<std::uint64_t, Color> Tablebase::locate(const Entry& e, const Position& pos) {
    if (Material::of(pos) == e.index.material()) return { e.index.encode(pos), pos.side_to_move() };
    const Position swapped = pos.colour_swapped();
    return { e.index.encode(swapped), swapped.side_to_move() };
}

// A packed table (mktb pack) stores one side to move; the other's answer is the best of its
// moves, one ply, into the stored side or the tables its captures lead to. `stored` reads a
// stored cell, `parent` turns a child's answer into the mover's, `rank` orders answers (higher
// is better for the mover), `lost` is the answer of a position without a move.
template<class T, class Stored, class Parent, class Rank>
std::optional<T> Tablebase::answer(const Position& pos, const Stored& stored, const Parent& parent,
    const Rank& rank, T lost) const {
    const Entry* e = table(Material::of(pos).canonical());
    if (!e) return std::nullopt;
    const auto [slot, stm] = locate(*e, pos);
    if (e->table->stores(stm)) return stored(*e, stm, slot);
    std::optional<T> best;
    Position p = pos;
    for (Move m : legal_moves(pos)) {
        const auto u = p.do_move(m);
        const std::optional<T> child = answer(p, stored, parent, rank, lost);
        p.undo_move(m, u);
        if (!child) return std::nullopt;
        if (const T v = parent(*child); !best || rank(v) > rank(*best)) best = v;
    }
    return best ? *best : lost;
}

std::optional<Value> Tablebase::probe(const Position& pos) const {
    return answer(
        pos,
        [](const Entry& e, Color stm, std::uint64_t slot) {
            return e.table->value(Metric::Dtm, stm, slot);
        },
        [](Value child) { return child.parent(); }, [](Value v) { return preference(v); },
        Value::mate_in_plies(0)); // no move: mated or stalemated, lost either way
}

Tablebase::Rule Tablebase::rule(const Entry& e, Color stm, std::uint64_t slot) {
    const Value v = e.table->value(Metric::Dtm, stm, slot);
    if (!v.is_draw()) return { v.is_win() ? 1 : -1, -1 };
    if (!e.table->has(kRuleResult)) return { 0, -1 };
    const unsigned cell = e.table->value(kRuleResult, stm, slot).cell();
    return { rule_cell_result(cell),
        cell && has_rule_plies(e.table->rules()) ? int(cell) - 1 : -1 };
}

std::optional<int> Tablebase::probe_rule_plies(const Position& pos) const {
    const Entry* e = table(Material::of(pos).canonical());
    if (!e) return std::nullopt;
    const auto [slot, stm] = locate(*e, pos);
    return e->table->stores(stm) ? rule(*e, stm, slot).plies : -1;
}

std::optional<int> Tablebase::probe_result(const Position& pos) const {
    return answer(
        pos, &Tablebase::result, [](int child) { return -child; }, [](int r) { return r; }, -1);
}

} // namespace mktb::xq

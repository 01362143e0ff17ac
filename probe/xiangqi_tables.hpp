// xiangqi_tables.hpp - a directory of Xiangqi tables (DIR/KRvKAABB.xq.mktb: the shared table
// format with Xiangqi in its header) answering "what is this Xiangqi position worth?", on the
// GameTables Makruk's tables use. Private to the probe library and the tools built on it, as
// tablebase.hpp is.
//
// The game is part of the file's name and of its header: a Makruk KRvK.mktb and a Xiangqi
// KRvK.xq.mktb never answer for each other.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "mktb/value.hpp"
#include "mktb/xiangqi/index.hpp"
#include "tablebase.hpp"

namespace mktb::xq {

std::string table_path(const std::string& dir, const Material& m); // DIR/KRvK.xq.mktb

// The rule a Xiangqi table follows, in its header's `rules` (docs/rules-xiangqi.md §5):
// kRulePlainArmless: every endless line a draw, which is every rule set's result because one
// side is armless (it never checks, and the other never needs to check forever): it answers
// under any. Both sides armed: kRulePerpetualCheck (RuleSet::Check), beside the plain distance
// to mate the result under the perpetual-check rule in cells of their own (kRuleResult), where
// it differs from the plain one; kRuleAsian (RuleSet::Asian), the same cells under check and
// chase; kRulePlainNone (RuleSet::None), the plain distance alone. With kRulePlies (written
// since the rule's distances, §5c) the rule's cells hold the distance too; without it (tables
// made before), the result alone.
// This reader refuses values it does not know.
inline constexpr std::uint32_t kRulePlainArmless = 1;
inline constexpr std::uint32_t kRulePerpetualCheck = 2;
inline constexpr std::uint32_t kRulePlainNone = 3;
inline constexpr std::uint32_t kRuleAsian = 4;
inline constexpr std::uint32_t kRulePlies = 16;
// The header's word of a table of an ending with both sides armed made under `rules`, and of
// any ending.
constexpr std::uint32_t armed_rule(RuleSet rules) {
    return rules == RuleSet::Check ? kRulePerpetualCheck | kRulePlies
        : rules == RuleSet::Asian  ? kRuleAsian | kRulePlies
                                   : kRulePlainNone;
}
inline std::uint32_t header_rule(const Material& m, RuleSet rules) {
    return m.armless(RED) || m.armless(BLACK) ? kRulePlainArmless : armed_rule(rules);
}
// Whether a table whose header says `rule` answers under `rules` (with distances or without).
constexpr bool follows(std::uint32_t rule, RuleSet rules) {
    return rule == kRulePlainArmless || (rule | kRulePlies) == (armed_rule(rules) | kRulePlies);
}
// The rule set of an armed table's header word, nullopt for an armless one's (every set).
constexpr std::optional<RuleSet> rule_set_of(std::uint32_t rule) {
    for (const RuleSetName& r : kRuleSets)
        if (rule != kRulePlainArmless && follows(rule, r.rules)) return r.rules;
    return std::nullopt;
}
// Its name ("check"), or "every rule set".
std::string_view rule_name(std::uint32_t rule);
// Whether a header word's table holds the rule's cells (check, asian), and their distances.
constexpr bool has_rule_cells(std::uint32_t rule) {
    const std::uint32_t set = rule & ~kRulePlies;
    return set == kRulePerpetualCheck || set == kRuleAsian;
}
constexpr bool has_rule_plies(std::uint32_t rule) {
    return has_rule_cells(rule) && (rule & kRulePlies);
}
// The rule's cells take the table format's second metric slot (Makruk's Board: the slots are
// per table, and a Xiangqi table is never read as a Makruk one).
inline constexpr Metric kRuleResult = Metric(1);
// A rule cell: 0, the plain value stands (a draw stays a draw); else the side to move loses or
// wins only because of the rule (the plain analysis calls the position drawn), in the rule's
// distance plus one plies: odd, lost (the loser's distances are even), even, won. A table
// without kRulePlies holds 1 (lost) and 2 (won) alone.
enum RuleCell : std::uint8_t { kRulePlain = 0, kRuleLost = 1, kRuleWon = 2 };
constexpr int rule_cell_result(unsigned cell) { return !cell ? 0 : cell & 1 ? -1 : 1; }
TableKey table_key(const Material& canonical);

// A table and its Index (the index is Xiangqi's: Table knows Makruk's only).
struct Entry {
    std::unique_ptr<Table> table;
    Index index;
};

// How Xiangqi's tables are named and opened, for their GameTables: the header's rule checked
// against the ending.
struct Files {
    using Material = xq::Material;
    using Entry = xq::Entry;
    static constexpr std::string_view kSuffix = ".xq.mktb";
    static std::unique_ptr<Entry> open(
        const std::string& path, const Material& m, BlockCache* cache, std::uint64_t id);
    static const Table& table(const Entry& e) { return *e.table; }
};

// Any number of threads may call every const member at once.
class Tablebase {
public:
    // `fixed`, and the cache shared or not, as Makruk's Tablebase. `rules`: the rule set every
    // table must follow to answer (one of another throws RulesError), or nullopt: each table
    // read under its own (the tools that read a table as it is: digest, verify).
    explicit Tablebase(std::string dir,
        std::size_t cache_bytes = mktb::Tablebase::kDefaultCacheBytes, bool fixed = false,
        std::optional<RuleSet> rules = kDefaultRuleSet);
    Tablebase(std::string dir, std::shared_ptr<BlockCache> cache, bool fixed,
        std::optional<RuleSet> rules = kDefaultRuleSet);
    ~Tablebase();

    const std::string& dir() const { return set_.dir(); }
    const std::optional<RuleSet>& rules() const { return rules_; }
    // The table of a canonical material, opened on first use (with its Index), and again when
    // the file changed under it (Table::stale()); nullptr when its file is absent. Throws
    // TableError when the file is damaged, RulesError when it follows another rule set.
    using Entry = xq::Entry;
    const Entry* table(const Material& canonical) const;
    // Whether a table of this canonical material was on disk when the Tablebase was made, and
    // the most men of any table then. Lock-free.
    bool available(const Material& canonical) const { return set_.available(canonical); }
    int largest_men() const { return set_.largest_men(); }
    void open_all() const { set_.open_all(); }
    // The value of a legal position, for its side to move; nullopt when its table is absent
    // (or, for the side a packed table lacks, a table its one-ply search needs). Throws
    // TableError when the table is damaged.
    std::optional<Value> probe(const Position& pos) const;
    // The result under the perpetual-check rule, for the side to move: +1 won, 0 drawn, -1 lost
    // (the plain result wherever the rule changes nothing); nullopt when the table is absent.
    std::optional<int> probe_result(const Position& pos) const;
    // The rule's distance (docs/rules-xiangqi.md §5c) where the rule decides the result, else
    // -1 (and where the table predates the distances, or is packed without this side to move);
    // nullopt when the table is absent.
    std::optional<int> probe_rule_plies(const Position& pos) const;
    // Both, of a slot of a table that stores side `stm` (a full table stores both), its cells
    // read once: the result under the rules, and the rule's distance in plies
    // (docs/rules-xiangqi.md §5c) where only the rules decide it and the table holds distances,
    // else -1.
    struct Rule {
        int result, plies;
    };
    static Rule rule(const Entry& e, Color stm, std::uint64_t slot);
    static int result(const Entry& e, Color stm, std::uint64_t slot) {
        return rule(e, stm, slot).result;
    }
    // The table's slot and side to move of a position (colours exchanged where its material is
    // the canonical one's mirror image).
    static std::pair<std::uint64_t, Color> locate(const Entry& e, const Position& pos);
    // The ending names (canonical) of the tables in the directory now.
    std::vector<Material> on_disk() const { return GameTables<Files>::scan(dir()); }
    static std::vector<Material> on_disk(const std::string& dir) {
        return GameTables<Files>::scan(dir);
    }

private:
    template<class T, class Stored, class Parent, class Rank>
    std::optional<T> answer(const Position& pos, const Stored& stored, const Parent& parent,
        const Rank& rank, T lost) const;
    GameTables<Files> set_;
    std::optional<RuleSet> rules_;
};

} // namespace mktb::xq

// counting.cpp - the counting rules' arithmetic (see mktb/counting.hpp).
#include "mktb/counting.hpp"

#include <algorithm>

namespace mktb {

namespace {

bool bare(const Position& pos, Color c) { return pos.pieces(c) == pos.pieces(c, KHUN); }

} // namespace

CountPhase count_phase(const Position& pos) {
    if (pos.pieces(BIA)) return CountPhase::NoCount;
    const bool w = bare(pos, WHITE), b = bare(pos, BLACK);
    if (w && b) return CountPhase::BareKings;
    return w || b ? CountPhase::PiecesHonour : CountPhase::BoardHonour;
}

CountPhase count_phase(const Material& m) {
    if (m.has(BIA)) return CountPhase::NoCount;
    const bool w = m.men(WHITE) == 1, b = m.men(BLACK) == 1;
    if (w && b) return CountPhase::BareKings;
    return w || b ? CountPhase::PiecesHonour : CountPhase::BoardHonour;
}

std::string describe(const CountRules& r) {
    std::string out;
    for (std::size_t i = 0; i < kRuleOptions.size(); ++i) {
        const RuleOptionInfo& o = kRuleOptions[i];
        if (i) out += ' ';
        out.append(o.name).append("=").append(
            r.has(RuleOption(i)) ? o.alternative : o.default_value);
    }
    return out;
}

std::string describe_in_words(const CountRules& r) {
    if (r == CountRules {}) return "the usual rules (as Fairy-Stockfish plays them)";
    std::string out;
    for (std::size_t i = 0; i < kRuleOptions.size(); ++i)
        if (r.has(RuleOption(i)))
            out.append(out.empty() ? "" : "; ").append(kRuleOptions[i].alternative_words);
    return out;
}

std::string describe_difference(const CountRules& built, const CountRules& asked) {
    std::string out;
    for (std::size_t i = 0; i < kRuleOptions.size(); ++i) {
        const RuleOption o = RuleOption(i);
        if (built.has(o) == asked.has(o)) continue;
        const RuleOptionInfo& info = kRuleOptions[i];
        auto value
            = [&](const CountRules& r) { return r.has(o) ? info.alternative : info.default_value; };
        if (!out.empty()) out += ", ";
        out.append(info.name)
            .append("=")
            .append(value(built))
            .append(", not ")
            .append(value(asked));
    }
    return out;
}

std::optional<RuleOption> find_rule_option(std::string_view name) {
    std::string spelled(name);
    std::replace(spelled.begin(), spelled.end(), '-', '_');
    for (std::size_t i = 0; i < kRuleOptions.size(); ++i)
        if (kRuleOptions[i].name == spelled) return RuleOption(i);
    return std::nullopt;
}

std::string set_rule_option(CountRules& r, std::string_view name, std::string_view value) {
    const std::optional<RuleOption> option = find_rule_option(name);
    if (!option) return "unknown counting rule option '" + std::string(name) + "'";
    const RuleOptionInfo& o = kRuleOptions[std::size_t(*option)];
    if (value != o.default_value && value != o.alternative)
        return std::string(o.name) + " takes " + std::string(o.default_value) + " or "
            + std::string(o.alternative) + ", not '" + std::string(value) + "'";
    r = r.with(*option, value == o.alternative);
    return {};
}

std::optional<Color> pieces_honour_attacker(const Position& pos) {
    if (count_phase(pos) != CountPhase::PiecesHonour) return std::nullopt;
    return bare(pos, WHITE) ? BLACK : WHITE;
}

int pieces_honour_limit(const Position& pos, Color attacker, const CountRules& rules) {
    // Spec §2.1: the least limit among the clauses that hold.
    const int r = pos.count(attacker, RUEA), s = pos.count(attacker, KHON),
              n = pos.count(attacker, MA);
    int limit = 64;
    if (r >= 2) limit = std::min(limit, 8);
    if (r == 1) limit = std::min(limit, 16);
    if (s >= 2) limit = std::min(limit, 22);
    if (n >= 2 && !(rules.has(RuleOption::KhonBeforeKnights) && s == 1))
        limit = std::min(limit, 32);
    if (s == 1) limit = std::min(limit, 44);
    return limit;
}

CountState fresh_count(const Position& pos, const CountRules& rules) {
    switch (count_phase(pos)) {
    case CountPhase::PiecesHonour: {
        const Color attacker = *pieces_honour_attacker(pos);
        const int men = popcount(pos.pieces());
        // c = N: countingPly = 2N with the defender to move, 2N - 1 with the attacker to move.
        return { 2 * pieces_honour_limit(pos, attacker, rules),
            2 * men - (pos.side_to_move() == attacker ? 1 : 0) };
    }
    case CountPhase::BoardHonour:
        if (rules.has(RuleOption::BoardHonourOff)) return {};
        return { 128, 0 };
    default:
        return {};
    }
}

CountState count_after_move(
    const Position& before, const Position& after, CountState count, const CountRules& rules) {
    const CountPhase from = count_phase(before), to = count_phase(after);
    if (to == CountPhase::NoCount) return {};
    if (from == CountPhase::NoCount) return fresh_count(after, rules);
    const CountState continued = count.limit ? CountState { count.limit, count.ply + 1 } : count;
    if (from == CountPhase::BoardHonour && to == CountPhase::PiecesHonour) {
        const CountState fresh = fresh_count(after, rules);
        if (!rules.has(RuleOption::SwitchIfShorter) || !count.limit) return fresh;
        // The count that ends first governs: compare the attacker's moves left under each.
        const bool attackerToMove = after.side_to_move() == *pieces_honour_attacker(after);
        return attacker_moves_left(continued, attackerToMove, rules)
                < attacker_moves_left(fresh, attackerToMove, rules)
            ? continued
            : fresh;
    }
    return continued;
}

// The messages speak in moves, as players count, with the FEN's plies beside them: "count 17
// (ply 34 in the FEN)".
std::string count_error(const Position& pos, CountState count) {
    const int limit = count.limit, ply = count.ply;
    const auto at = [&] {
        return "count " + std::to_string((ply + 1) / 2) + " (ply " + std::to_string(ply)
            + " in the FEN)";
    };
    const auto moves = [](int plies) {
        return std::to_string(plies / 2) + " moves (" + std::to_string(plies) + " plies)";
    };
    if (!limit) return ply ? at() + " is given but no count runs" : "";
    static constexpr int kLimits[] = { 16, 32, 44, 64, 88, 128 };
    if (std::find(std::begin(kLimits), std::end(kLimits), limit) == std::end(kLimits))
        return "a count limit of " + std::to_string(limit)
            + " plies in the FEN is not one of 16 32 44 64 88 128 (the limits 8 16 22 32 44 64 "
              "moves, in plies)";
    if (ply < 0) return "the count's ply " + std::to_string(ply) + " in the FEN is negative";
    if (ply > limit + 1)
        return at() + " is past the limit of " + moves(limit)
            + " by more than the one ply that ends the game";
    const CountPhase phase = count_phase(pos);
    if (phase == CountPhase::NoCount)
        return "a count is given but a Bia is on the board (no count runs while a Bia remains)";
    if (phase == CountPhase::BoardHonour && limit != 128)
        return "a board's honour count has the limit 64 moves (128 plies), not " + moves(limit);
    if (phase == CountPhase::PiecesHonour && limit < 128) {
        const bool attackerToMove = pos.side_to_move() == *pieces_honour_attacker(pos);
        const int men = popcount(pos.pieces());
        if ((ply % 2 == 1) != attackerToMove)
            return at() + ": the ply is " + (ply % 2 ? "odd" : "even")
                + ", but under pieces' honour it is odd with the attacker to move and even with "
                  "the defender to move";
        if (ply < 2 * men - (attackerToMove ? 1 : 0))
            return at() + " is below " + std::to_string(men) + ": the count starts at the "
                + std::to_string(men) + " men on the board and only rises";
    }
    return {};
}

int attacker_moves_left(CountState count, bool attacker_to_move, const CountRules& rules) {
    // The attacker moves at plies p, p + 2, ... (or p + 1, p + 3, ...) while they are <= limit.
    const int p = count.ply + (attacker_to_move ? 0 : 1);
    const int moves = p <= count.limit ? (count.limit - p) / 2 + 1 : 0;
    return std::max(0, rules.has(RuleOption::DrawWhenReached) ? moves - 1 : moves);
}

CountedValue counted_pieces_honour(
    const Position& pos, Value pure, CountState count, const CountRules& rules) {
    CountedValue v;
    const std::optional<Color> attacker = pieces_honour_attacker(pos);
    if (!attacker) return v;
    const bool attackerToMove = pos.side_to_move() == *attacker;
    v.moves_available = attacker_moves_left(count, attackerToMove, rules);
    if (pure.is_draw()) return v;
    // Attacker moves to mate: the attacker mates in N, or the defender is mated in N (= N
    // attacker moves). A bare king never mates.
    v.moves_needed = std::abs(pure.mate_in_moves());
    if (pure.plies == 0) { // the defender is already mated: the count cannot take that back
        v.result = CountedValue::Result::Loss;
        return v;
    }
    if (v.moves_needed <= v.moves_available)
        v.result = attackerToMove ? CountedValue::Result::Win : CountedValue::Result::Loss;
    return v;
}

Value conversion_value(Metric metric, const Position& child, CountPhase phase, Value dtm, Value own,
    const CountRules& rules) {
    if (metric == Metric::Dtm) return dtm;
    // Under pieces' honour the count is a deadline on DTM (as probe_counted() reads it); else
    // the child's own counted metric. The count: none in the Bia phase; for board's honour kept
    // in its own metric an unbounded budget (its own distance); else the fresh count the
    // conversion starts.
    const CountState count = phase == CountPhase::NoCount             ? CountState {}
        : metric == Metric::Board && phase == CountPhase::BoardHonour ? CountState { 1 << 20, 0 }
                                                                      : fresh_count(child, rules);
    const CountedValue c = counted_value(phase, child, dtm, own, count, rules);
    if (metric == Metric::Bia) return as_value(c);
    // Board's honour: a capture keeping men on both sides continues the count; one baring the
    // defender succeeds when its fresh pieces' honour count still wins (the defender, to move
    // there, is then "mated" for this metric), or, under switch_to_pieces = if_shorter, the
    // mate itself must fit: its distance counts.
    if (phase == CountPhase::BoardHonour) return as_value(c);
    if (rules.has(RuleOption::SwitchIfShorter) && !rules.has(RuleOption::BoardHonourOff))
        return as_value(c);
    return c.result == CountedValue::Result::Loss ? Value::mate_in_plies(0) : Value::draw();
}

CountedValue counted_board_honour(Value v, CountState count, const CountRules& rules) {
    // The fewest moves the winner needs to mate or to bare the defender into a position won
    // under the fresh pieces' honour count, against its moves left in the board count.
    if (rules.has(RuleOption::BoardHonourOff)) return counted_bia_phase(v); // no deadline
    CountedValue c;
    if (v.is_draw()) {
        c.moves_available = attacker_moves_left(count, true, rules);
        return c;
    }
    c.moves_needed = std::abs(v.mate_in_moves());
    c.moves_available = attacker_moves_left(count, v.is_win(), rules);
    if (v.plies == 0 || c.moves_needed <= c.moves_available)
        c.result = v.is_win() ? CountedValue::Result::Win : CountedValue::Result::Loss;
    return c;
}

CountedValue counted_bia_phase(Value v) {
    CountedValue c;
    c.moves_available = -1; // no count runs while a Bia is on the board
    if (v.is_draw()) return c;
    c.moves_needed = std::abs(v.mate_in_moves());
    c.result = v.is_win() ? CountedValue::Result::Win : CountedValue::Result::Loss;
    return c;
}

Value as_value(const CountedValue& c) {
    switch (c.result) {
    case CountedValue::Result::Win:
        return Value::mate_in_plies(2 * c.moves_needed - 1);
    case CountedValue::Result::Loss:
        return Value::mate_in_plies(2 * c.moves_needed);
    default:
        return Value::draw();
    }
}

std::string describe(Value v) {
    if (v.is_draw()) return "draw";
    if (v.plies == 0) return "checkmated";
    const int n = v.mate_in_moves();
    return n > 0 ? "mate in " + std::to_string(n) : "mated in " + std::to_string(-n);
}

CountedValue counted_value(CountPhase phase, const Position& pos, Value dtm, Value own,
    CountState count, const CountRules& rules) {
    switch (phase) {
    case CountPhase::PiecesHonour:
        return counted_pieces_honour(pos, dtm, count, rules);
    case CountPhase::BoardHonour:
        return counted_board_honour(own, count, rules);
    case CountPhase::NoCount:
        return counted_bia_phase(own);
    default:
        throw std::invalid_argument("counted_value: bare kings have no count");
    }
}

} // namespace mktb

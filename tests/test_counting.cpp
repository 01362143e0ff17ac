// test_counting.cpp - the counting rules' arithmetic against docs/rules.md §3-4 and the published
// KMITL figure, and pieces' honour answers against fairy-stockfish with counting on.
#include <catch2/catch.hpp>
#include <filesystem>

#include "mktb/counting.hpp"
#include "mktb/movegen.hpp"
#include "mktb/probe.hpp"
#include "support/engine.hpp"
#include "support/random_positions.hpp"
#include "support/tables.hpp"
#include "tablebase.hpp"

using namespace mktb;

namespace {

Position fen(const char* f) { return Position::from_fen(f); }

int limit_of(const char* f, CountRules rules = {}) {
    const Position pos = fen(f);
    return pieces_honour_limit(pos, *pieces_honour_attacker(pos), rules);
}

} // namespace

TEST_CASE("Pieces' honour limits follow the table of rules section 3.1", "[counting]") {
    CHECK(limit_of("7k/8/8/8/8/8/8/KRR5 w") == 8);
    CHECK(limit_of("7k/8/8/8/8/8/8/KR6 w") == 16);
    CHECK(limit_of("7k/8/8/8/8/8/8/KRSS4 w") == 16); // the least clause wins
    CHECK(limit_of("7k/8/8/8/8/8/8/KSS5 w") == 22);
    CHECK(limit_of("7k/8/8/8/8/8/8/KNN5 w") == 32);
    CHECK(limit_of("7k/8/8/8/8/8/8/KS6 w") == 44);
    CHECK(limit_of("7k/8/8/8/8/8/8/KN6 w") == 64);
    CHECK(limit_of("7k/8/8/8/8/8/8/KMMM4 w") == 64);
    // Khon + 2 Ma: 32 by default, 44 when one Khon takes precedence.
    CHECK(limit_of("7k/8/8/8/8/8/8/KSNN4 w") == 32);
    CHECK(limit_of("7k/8/8/8/8/8/8/KSNN4 w", CountRules {}.with(RuleOption::KhonBeforeKnights))
        == 44);
    // Black as the attacker.
    CHECK(limit_of("7K/8/8/8/8/8/8/krr5 w") == 8);
}

TEST_CASE("Fresh counts and the attacker's moves left (rules sections 3.1-3.4)", "[counting]") {
    // The example of docs/rules.md §3.4 is the count K+Khon+Met vs K starts with Black (defender)
    // to move.
    const Position ksm = fen("8/3k4/6M1/2K1S3/8/8/8/8 b - - 0 1");
    CHECK(fresh_count(ksm, {}) == CountState { 88, 8 });
    CHECK(attacker_moves_left(fresh_count(ksm, {}), false, {}) == 40); // A = L - N
    // KMITL: K+Khon+Met vs K with the attacker to move has 41 moves from a fresh count.
    const Position ksmW = fen("8/3k4/6M1/2K1S3/8/8/8/8 w - - 0 1");
    CHECK(attacker_moves_left(fresh_count(ksmW, {}), true, {}) == 41);
    // KRvK: 13 moves with the defender to move, 14 with the attacker to move.
    CHECK(attacker_moves_left(fresh_count(fen("8/8/8/4k3/8/8/8/R3K3 b"), {}), false, {}) == 13);
    CHECK(attacker_moves_left(fresh_count(fen("8/8/8/4k3/8/8/8/R3K3 w"), {}), true, {}) == 14);
    // The Cambodian "reached" rule: one move fewer.
    CHECK(attacker_moves_left({ 32, 6 }, true, CountRules {}.with(RuleOption::DrawWhenReached))
        == 13);
    // Board's honour from a fresh start: 64 moves with the defender to move, 65 with the attacker.
    const Position board = fen("7k/7m/8/8/8/8/8/KR6 w");
    CHECK(count_phase(board) == CountPhase::BoardHonour);
    CHECK(fresh_count(board, {}) == CountState { 128, 0 });
    CHECK(attacker_moves_left({ 128, 0 }, false, {}) == 64);
    CHECK(attacker_moves_left({ 128, 0 }, true, {}) == 65);
    // After the defender's move counted c the ply is 2c - 1; past the limit nothing is left.
    CHECK(attacker_moves_left({ 32, 31 }, true, {}) == 1); // counted 16 = L: one last move
    CHECK(attacker_moves_left({ 32, 33 }, true, {}) == 0); // counted 17: drawn
    // A <= 0 at the start: 2 Rueas (L = 8) with 8 men on the board: drawn at once.
    const Position crowded = fen("7k/8/8/8/8/8/8/KRRSSNN1 b");
    CHECK(attacker_moves_left(fresh_count(crowded, {}), false, {}) == 0);
    CHECK(
        counted_pieces_honour(crowded, Value::mate_in_plies(2), fresh_count(crowded, {}), {}).result
        == CountedValue::Result::Draw);
    // No count with a Bia on the board.
    CHECK(count_phase(fen("7k/8/8/8/8/P7/8/K7 w")) == CountPhase::NoCount);
    CHECK(fresh_count(fen("7k/8/8/8/8/P7/8/K7 w"), {}) == CountState {});
}

TEST_CASE(
    "The count turns 278,040 K+Khon+Met vs K wins into draws (KMITL 2026)", "[counting][gen]") {
    // Published: with the attacker to move, 85.77 % won without counting, 83.49 % under a
    // fresh count (41 moves), 278,040 positions fewer.
    const Tablebase tables(test::tables_up_to_4_men());
    const Table& t = *tables.table(test::material("KSMvK"));
    std::uint64_t legal = 0, pure = 0, counted = 0;
    for (std::uint64_t i = 0; i < t.index().size(); ++i) {
        Position pos;
        if (!t.index().decode(i, pos)) continue;
        pos.set_side_to_move(WHITE);
        if (pos.attacked_by(WHITE, pos.king_square(BLACK), pos.pieces())) continue;
        const int boards = t.index().orbit_size(pos);
        const Value v = t.value(WHITE, i);
        legal += boards;
        pure += v.is_win() ? boards : 0;
        if (counted_pieces_honour(pos, v, fresh_count(pos, {}), {}).result
            == CountedValue::Result::Win)
            counted += boards;
    }
    CHECK(pure - counted == 278040);
    CHECK(std::round(10000.0 * double(pure) / double(legal)) == 8577);
    CHECK(std::round(10000.0 * double(counted) / double(legal)) == 8349);
}

TEST_CASE("Exceeded and reached differ by exactly one move", "[counting][gen]") {
    // A KRvK win of n moves, under the count state that leaves White, to move, exactly n moves
    // by the "exceeded" rule (its n-th move is made at ply <= limit): won; under "reached" the
    // same state leaves n - 1: drawn.
    const Tablebase tables(test::tables_up_to_4_men());
    const Position pos = fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
    const Value v = *tables.probe(pos);
    REQUIRE(v.is_win());
    const int n = v.mate_in_moves();
    const CountState state { 32, 32 - 2 * (n - 1) };
    const CountRules reached = CountRules {}.with(RuleOption::DrawWhenReached);
    REQUIRE(attacker_moves_left(state, true, {}) == n);
    CHECK(counted_pieces_honour(pos, v, state, {}).result == CountedValue::Result::Win);
    CHECK(counted_pieces_honour(pos, v, { 32, state.ply + 2 }, {}).result
        == CountedValue::Result::Draw);
    CHECK(counted_pieces_honour(pos, v, state, reached).result == CountedValue::Result::Draw);
    CHECK(counted_pieces_honour(pos, v, { 32, state.ply - 2 }, reached).result
        == CountedValue::Result::Win);
}

namespace {

// Random positions of the endings, with random count states (the root itself not yet drawn),
// checked against fairy-stockfish with counting on (plain makruk): every mate it proves within
// the count must be one we call won (or lost) within the count in at most that many moves, and a
// position we call drawn by the count must get no such proof.
void check_against_engine(
    const std::vector<const char*>& endings, int perEnding, int minProofs, int minCountDraws) {
    const Tablebase tables(test::tables_up_to_4_men());
    test::Engine engine(test::engine_path());
    test::Rng rng(2026);
    int proofs = 0, countDraws = 0, beyondCount = 0;
    for (const char* name : endings) {
        const Material m = test::material(name);
        const Index index(m);
        for (int k = 0; k < perEnding;) {
            Position pos = test::random_position_of(rng, index);
            // Favour short mates, which the engine can prove within its node budget.
            const Value pure = *tables.probe(pos);
            if ((pure.is_draw() || std::abs(pure.mate_in_moves()) > 12) && rng() % 4) continue;
            const CountState fresh = fresh_count(pos, {});
            const int ply = fresh.ply + int(rng() % std::uint64_t(fresh.limit - fresh.ply + 1));
            pos.set_count_state({ fresh.limit, ply });
            ++k;
            const CountedValue ours = *tables.probe_counted(pos, pos.count_state(), {});
            if (ours.result == CountedValue::Result::Draw && !pure.is_draw()) ++countDraws;
            const std::optional<int> score = engine.mate_score(pos.fen(), 100000);
            const int mate = score.value_or(0);
            const bool proved = score.has_value();
            INFO(pos.fen() << ": pure " << describe(pure) << ", needs " << ours.moves_needed
                           << " of " << ours.moves_available << " moves left, engine mate "
                           << mate);
            if (!proved) continue;
            // Fairy-Stockfish 11.1 also reports mates longer than the count allows (from KRvK
            // with 14 moves left it prints "mate 35"): its search misses some count draws. A
            // claim of more moves than the count leaves the winner cannot be a proof; skip it.
            if (std::abs(mate) > attacker_moves_left(pos.count_state(), mate > 0, {})) {
                ++beyondCount;
                continue;
            }
            ++proofs;
            REQUIRE(ours.result != CountedValue::Result::Draw);
            REQUIRE(
                ours.result == (mate > 0 ? CountedValue::Result::Win : CountedValue::Result::Loss));
            REQUIRE(ours.moves_needed <= std::abs(mate));
        }
    }
    WARN(proofs << " mate proofs checked, " << beyondCount
                << " engine mates beyond the count skipped");
    CHECK(proofs >= minProofs); // the comparison must not be vacuous
    CHECK(countDraws >= minCountDraws); // pure wins the count turns into draws were exercised
}

} // namespace

TEST_CASE("Pieces' honour answers agree with fairy-stockfish's mate proofs (count on)",
    "[counting][gen][oracle]") {
    check_against_engine(
        { "KRvK", "KRRvK", "KSSvK", "KSMvK", "KSNvK", "KRSvK", "KNMvK", "KRMvK" }, 40, 30, 20);
}

TEST_CASE("Board's honour answers agree with fairy-stockfish's mate proofs (count on)",
    "[counting][gen][oracle]") {
    check_against_engine({ "KRvKM", "KRvKN", "KRvKS", "KRvKR", "KSvKM", "KSvKN" }, 50, 30, 10);
}

TEST_CASE("Board's honour switches to a fresh pieces' honour count when the last man falls",
    "[counting][gen]") {
    const Tablebase tables(test::tables_up_to_4_men());
    // One attacker move is left in the board count (ply 128 of 128, White to move): Rxa2 bares
    // Black with check, and the fresh KRvK count (13 moves with Black to move) is enough to mate.
    const Position pos = fen("k7/8/8/8/8/8/m7/R3K3 w - 128 128 1");
    Position after = pos;
    after.do_move(parse_uci_move(pos, "a1a2"));
    // Fairy-stockfish (count off, depth 50) proves Black mated within 13 moves here.
    const Value dtm = *tables.probe(after);
    REQUIRE(dtm.is_loss());
    REQUIRE(-dtm.mate_in_moves() <= attacker_moves_left(fresh_count(after, {}), false, {}));
    const CountedValue c = *tables.probe_counted(pos, pos.count_state(), {});
    CHECK(c.result == CountedValue::Result::Win);
    CHECK(c.moves_needed == 1);
    CHECK(c.moves_available == 1);
    // Pure, the mate is further away than the one move the count leaves.
    CHECK(tables.probe(pos)->mate_in_moves() > 1);
    // Past the count, nothing is left: drawn.
    CHECK(tables.probe_counted(pos, { 128, 129 }, {})->result == CountedValue::Result::Draw);
}

TEST_CASE("With a Bia on the board the count can only take wins away", "[counting][gen]") {
    // The conversion out of the Bia phase starts a count, so the counted result of a position
    // with a Bia is never better for the winner than its pure one: a counted win is a pure win,
    // a counted loss a pure loss. (Distances differ in both directions: under board's honour
    // the goal is the baring capture, not the mate.)
    const Tablebase tables(test::tables_up_to_4_men());
    test::Rng rng(11);
    int wins = 0, lost = 0;
    for (const char* name : { "KSPvK", "KRPvK", "KNPvK", "KRvKP", "KPPvK", "KMPvK" }) {
        const Index index(test::material(name));
        for (int k = 0; k < 2000;) {
            const Position pos = test::random_position_of(rng, index);
            ++k;
            const Value pure = *tables.probe(pos);
            const CountedValue c = *tables.probe_counted(pos, {}, {});
            INFO(pos.fen() << ": pure " << describe(pure));
            REQUIRE(c.moves_available == -1);
            if (c.result == CountedValue::Result::Win) {
                REQUIRE(pure.is_win());
                ++wins;
            } else if (c.result == CountedValue::Result::Loss) {
                REQUIRE(pure.is_loss());
            } else if (pure.is_win()) {
                ++lost; // a pure win the count takes away
            }
        }
    }
    CHECK(wins > 100);
    CHECK(lost > 0);
}

TEST_CASE("A counted line mates before the count runs out", "[counting][gen]") {
    // Replayed by the rules alone: every move legal, the game never drawn by the count (spec
    // 2.3: drawn once countingPly > countingLimit with the side to move not mated), mate at the
    // end.
    const Prober prober(test::tables_up_to_4_men());
    for (const char* text : { "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "8/8/8/4m3/8/2k5/1R6/K7 w - - 0 1",
             "8/8/8/3k4/8/2SP4/8/4K3 w - - 0 1", "8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1",
             "8/8/1n6/8/5k2/1R6/8/1K6 b - - 0 1" }) {
        Position pos = fen(text);
        CountState count = pos.count_state().limit ? pos.count_state() : fresh_count(pos, {});
        const CountedValue start = *prober.counted(pos, count);
        const std::vector<Move> line = prober.line(pos, count);
        INFO(text << ": " << line.size() << " plies");
        if (start.result == CountedValue::Result::Draw) {
            CHECK(line.empty());
            continue;
        }
        for (Move m : line) {
            REQUIRE(legal_moves(pos).contains(m));
            Position next = pos;
            next.do_move(m);
            count = count_after_move(pos, next, count, {});
            pos = next;
            REQUIRE((count.limit == 0 || count.ply <= count.limit || is_checkmate(pos)));
        }
        CHECK(is_checkmate(pos));
        // The winner's moves: as many as the count answer said were needed, under pieces'
        // honour (where the answer is the distance to mate).
        if (count_phase(fen(text)) == CountPhase::PiecesHonour)
            CHECK(int(line.size() + 1) / 2 == start.moves_needed);
    }
}

TEST_CASE("A bare king's capture continues the count; it never restarts", "[counting][gen]") {
    // K+2 Ruea vs K, fresh count (L = 8, N = 4: ply 8, Black to move). Kxd4 leaves K+Ruea vs K,
    // whose own limit would be 16, but L stays 8 (docs/rules.md §3.1): White has 4 moves left, and
    // no lone king on d4 can be driven to the edge and mated in 4.
    const Tablebase tables(test::tables_up_to_4_men());
    const Position pos = fen("8/8/8/3k4/3R4/8/8/R3K3 b - 16 8 1");
    REQUIRE(fresh_count(pos, {}) == pos.count_state());
    Position after = pos;
    after.do_move(parse_uci_move(pos, "d5d4"));
    const CountState count = count_after_move(pos, after, pos.count_state(), {});
    CHECK(count == CountState { 16, 9 });
    CHECK(fresh_count(after, {}) == CountState { 32, 5 }); // what a restart would have given
    const CountedValue c = *tables.probe_counted(after, count, {});
    CHECK(c.moves_available == 4);
    CHECK(c.result == CountedValue::Result::Draw);
    CHECK(tables.probe(after)->is_win()); // pure, K+Ruea vs K still wins
}

TEST_CASE(
    "Capturing the defender's last Bia starts a fresh pieces' honour count", "[counting][gen]") {
    // Rxa5+ takes Black's Bia: no Bia is left and Black is bare, so pieces' honour starts at
    // N + 1 = 4 with L = 16 (ply 6, Black to move): 13 White moves.
    const Tablebase tables(test::tables_up_to_4_men());
    const Position pos = fen("8/8/8/p3k3/8/8/8/R3K3 w - - 0 1");
    CHECK(count_phase(pos) == CountPhase::NoCount);
    Position after = pos;
    after.do_move(parse_uci_move(pos, "a1a5"));
    const CountState count = count_after_move(pos, after, {}, {});
    CHECK(count == CountState { 32, 6 });
    CHECK(attacker_moves_left(count, false, {}) == 13);
    // With the Bia on the board no count runs; the counted answer is the best conversion's.
    const CountedValue before = *tables.probe_counted(pos, {}, {});
    CHECK(before.moves_available == -1);
    // K+Ruea vs K after the capture: mated in 13 (fairy-stockfish, count off, depth 43 says
    // "mate -13"), exactly the 13 moves the count leaves: won with the last one.
    const CountedValue captured = *tables.probe_counted(after, count, {});
    CHECK(captured.result == CountedValue::Result::Loss);
    CHECK(captured.moves_needed == 13);
    CHECK(captured.moves_available == 13);
    CHECK(before.result == CountedValue::Result::Win);
}

namespace {

// The directory of the tables of `ending` (and what it converts into) built under `rules`.
std::string generated_under(const char* ending, const std::string& name, const CountRules& rules) {
    const std::string dir = test::temp_dir(name);
    GenOptions options;
    options.rules = rules;
    test::generate_with_children(dir, test::material(ending), options);
    std::string report;
    const std::uint64_t bad = verify(test::material(ending), Tablebase(dir), &report);
    INFO(report); // after verify has written it: INFO takes its text when it is declared
    CHECK(bad == 0);
    return dir;
}

// An ending and its children generated under `rules` and verified, in a temporary directory
// that goes with it.
struct TablesUnder {
    TablesUnder(const char* ending, const std::string& name, const CountRules& rules)
        : dir(generated_under(ending, name, rules))
        , tables(dir) { }
    ~TablesUnder() { std::filesystem::remove_all(dir); }
    const std::string dir;
    const Tablebase tables;
};

} // namespace

TEST_CASE("Rule options of rules section 4: board_honour, switch_to_pieces, counter_mate",
    "[counting][gen]") {
    // One White move is left in the board count (ply 128 of 128): Rxa2+ bares Black, not mate
    // (Kb7, Kb8). By default the fresh K+Ruea vs K count (13 moves) takes over and White wins.
    const char* lastMove = "k7/8/8/8/8/8/m7/R3K3 w - 128 128 1";
    // K+Ruea vs K+Khon: Black (the weaker side, which counts) mates with Sb2# (the Khon covers
    // b1, its forward square, the Khun a2 and b2; the Ruea on h7 cannot reach b2).
    const char* counterMates = "8/7R/8/8/8/k1s5/8/K7 b - 128 0 1";
    const Position counter = fen(counterMates);
    {
        Position mated = counter;
        mated.do_move(parse_uci_move(counter, "c3b2"));
        REQUIRE(is_checkmate(mated));
    }

    SECTION("switch_to_pieces = if_shorter: the board count keeps running when it ends first") {
        const CountRules rules = CountRules {}.with(RuleOption::SwitchIfShorter);
        // Arithmetic: a board count ending sooner than the fresh pieces' count governs.
        const Position pos = fen(lastMove);
        Position after = pos;
        after.do_move(parse_uci_move(pos, "a1a2"));
        CHECK(count_after_move(pos, after, { 128, 120 }, rules) == CountState { 128, 121 });
        CHECK(count_after_move(pos, after, { 128, 10 }, rules) == CountState { 32, 6 });
        CHECK(count_after_move(pos, after, { 128, 120 }, {}) == CountState { 32, 6 });
        const TablesUnder under("KRvKM", "if-shorter", rules);
        const Tablebase& tables = under.tables;
        CHECK(tables.probe_counted(pos, pos.count_state(), rules)->result
            == CountedValue::Result::Draw);
        const Tablebase standard(test::tables_up_to_4_men());
        CHECK(standard.probe_counted(pos, pos.count_state(), {})->result
            == CountedValue::Result::Win);
    }

    SECTION("board_honour = off: no count while both sides have men") {
        const CountRules rules = CountRules {}.with(RuleOption::BoardHonourOff);
        const TablesUnder under("KRvKM", "board-off", rules);
        const Tablebase& tables = under.tables;
        const Position pos = fen(lastMove);
        CHECK(fresh_count(pos, rules) == CountState {});
        // Past the board count's end White still wins: there is no board count.
        const CountedValue c = *tables.probe_counted(pos, { 128, 140 }, rules);
        CHECK(c.result == CountedValue::Result::Win);
        CHECK(c.moves_available == -1);
        // The baring capture still starts pieces' honour.
        Position after = pos;
        after.do_move(parse_uci_move(pos, "a1a2"));
        CHECK(count_after_move(pos, after, {}, rules) == CountState { 32, 6 });
        // Tables built under other options are refused, never answered.
        const Tablebase standard(test::tables_up_to_4_men());
        CHECK_THROWS_AS(standard.probe_counted(pos, {}, rules), TableError);
    }

    SECTION("counter_mate = draw: the counting side's mate does not win") {
        CHECK(test::material("KRvKS").weaker_side() == BLACK);
        const Tablebase standard(test::tables_up_to_4_men());
        const CountedValue byDefault = *standard.probe_counted(counter, counter.count_state(), {});
        CHECK(byDefault.result == CountedValue::Result::Win);
        CHECK(byDefault.moves_needed == 1);
        const CountRules rules = CountRules {}.with(RuleOption::CounterMateDraws);
        const TablesUnder under("KRvKS", "counter-mate", rules);
        const Tablebase& tables = under.tables;
        // Black can still take the draw by mating; it has no other way to win.
        CHECK(tables.probe_counted(counter, counter.count_state(), rules)->result
            == CountedValue::Result::Draw);
        // The stronger side's wins are untouched: Rxa2+ bares Black, as with a Met.
        const Position pos = fen("k7/8/8/8/8/8/s7/R3K3 w - 128 128 1");
        CHECK(tables.probe_counted(pos, pos.count_state(), rules)->result
            == CountedValue::Result::Win);
    }
}

TEST_CASE("Rule options are named as in docs/rules.md and recorded in the table", "[counting]") {
    CountRules r;
    CHECK(set_rule_option(r, "counter-mate", "draw").empty());
    CHECK(set_rule_option(r, "switch_to_pieces", "if_shorter").empty());
    CHECK(r.has(RuleOption::CounterMateDraws));
    CHECK(r.has(RuleOption::SwitchIfShorter));
    CHECK_FALSE(r.has(RuleOption::BoardHonourOff));
    CHECK(decode_rules(encode(r)) == r);
    CHECK(describe(r)
        == "limit_precedence=min draw_when=exceeded counter_mate=draw "
           "board_honour=first_opportunity switch_to_pieces=if_shorter");
    CHECK(set_rule_option(r, "board_honour", "sometimes")
        == "board_honour takes first_opportunity or off, not 'sometimes'");
    CHECK(set_rule_option(r, "count_mode", "x") == "unknown counting rule option 'count_mode'");
}

TEST_CASE("The last Bia promoting starts the count at N + 1", "[counting]") {
    // g5-g6 promotes White's last Bia: Black is bare, pieces' honour starts with L = 44 (one
    // Khon) and N = 4, which is the example of docs/rules.md §3.4, 8/3k4/6M1/2K1S3/8/8/8/8 b - 88
    // 8 1.
    const Position pos = fen("8/3k4/8/2K1S1P1/8/8/8/8 w - - 0 1");
    Position after = pos;
    after.do_move(parse_uci_move(pos, "g5g6m"));
    CHECK(count_after_move(pos, after, {}, {}) == CountState { 88, 8 });
    CHECK(fresh_count(fen("8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1"), {}) == CountState { 88, 8 });
    CHECK(attacker_moves_left({ 88, 8 }, false, {}) == 40); // L - N
}

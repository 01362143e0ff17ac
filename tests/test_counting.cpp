// test_counting.cpp - the counting rules' arithmetic against spec §2 and the published KMITL
// figure, and pieces' honour answers against fairy-stockfish with counting on.
#include <catch2/catch.hpp>

#include "mktb/counting.hpp"
#include "mktb/movegen.hpp"
#include "support/engine.hpp"
#include "support/random_positions.hpp"
#include "support/tables.hpp"

using namespace mktb;

namespace {

Position fen(const char* f) { return Position::from_fen(f); }

int limit_of(const char* f, CountRules rules = {}) {
    const Position pos = fen(f);
    return pieces_honour_limit(pos, *pieces_honour_attacker(pos), rules);
}

} // namespace

TEST_CASE("Pieces' honour limits follow the table of spec 2.1", "[counting]") {
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
    CHECK(limit_of("7k/8/8/8/8/8/8/KSNN4 w", { LimitPrecedence::KhonBeforeKnights }) == 44);
    // Black as the attacker.
    CHECK(limit_of("7K/8/8/8/8/8/8/krr5 w") == 8);
}

TEST_CASE("Fresh counts and the attacker's moves left (spec 2.1-2.3)", "[counting]") {
    // The spec's example is the count K+Khon+Met vs K starts with Black (defender) to move.
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
    CHECK(attacker_moves_left({ 32, 6 }, true, { LimitPrecedence::Min, DrawWhen::Reached }) == 13);
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
    const LoadedTable& t = *tables.table(test::material("KSMvK"));
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
    const CountRules reached { LimitPrecedence::Min, DrawWhen::Reached };
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
    int proofs = 0, countDraws = 0, n = 0, beyondCount = 0;
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
            ++k, ++n;
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
    CHECK(n == perEnding * int(endings.size()));
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
    const Tablebase tables(test::tables_up_to_4_men());
    for (const char* text : { "8/8/8/4k3/8/8/8/R3K3 w - - 0 1", "8/8/8/4m3/8/2k5/1R6/K7 w - - 0 1",
             "8/8/8/3k4/8/2SP4/8/4K3 w - - 0 1", "8/3k4/6M1/2K1S3/8/8/8/8 b - 88 8 1",
             "8/8/1n6/8/5k2/1R6/8/1K6 b - - 0 1" }) {
        Position pos = fen(text);
        CountState count = pos.count_state().limit ? pos.count_state() : fresh_count(pos, {});
        const CountedValue start = *tables.probe_counted(pos, count, {});
        const std::vector<Move> line = counted_line(tables, pos, count, {});
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

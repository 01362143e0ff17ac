// test_generator.cpp - the generator on the generation index against values recorded before the
// rewrite (tests/golden/digests.txt: every 4-men ending under the default rules and under each
// rule option), its debug mode (every loss a counter finds re-checked by forward move
// generation), and the cases most likely to break it: stalemate, positions whose only moves are
// captures, both kings on a1-h8 (the diagonal residue of the 8-fold symmetry) and Bia
// promotions, checked by hand or by fairy-stockfish.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unistd.h>

#include "mktb/movegen.hpp"
#include "mktb/probe.hpp"
#include "support/engine.hpp"
#include "support/random_positions.hpp"
#include "support/tables.hpp"
#include "table_writer.hpp"
#include "tablebase.hpp"

using namespace mktb;
namespace fs = std::filesystem;

namespace {

// Golden digests by rule set ("default", or the option changed, "counter_mate=draw") and ending.
std::map<std::string, std::map<std::string, std::string>> golden_digests() {
    std::ifstream in(MKTB_GOLDEN_DIGESTS);
    REQUIRE(in);
    std::map<std::string, std::map<std::string, std::string>> golden;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream ls(line);
        std::string rules, ending, digest;
        ls >> rules >> ending;
        std::getline(ls, digest);
        golden[rules][ending] = digest.substr(1);
    }
    return golden;
}

// Copies the tables `m` converts into from the 4-men fixture into `dir`.
void copy_children(const Material& m, const std::string& dir) {
    for (const Material& c : m.children())
        if (!fs::exists(table_path(dir, c)))
            fs::copy_file(table_path(test::tables_up_to_4_men(), c), table_path(dir, c));
}

} // namespace

TEST_CASE("Default rules: every 4-men table has the first generator's values", "[gen][golden]") {
    const auto golden = golden_digests().at("default");
    const Tablebase tables(test::tables_up_to_4_men());
    for (const Material& m : all_materials(4)) {
        INFO(m.name());
        REQUIRE(golden.count(m.name()));
        CHECK(table_digest(*tables.table(m)) == golden.at(m.name()));
    }
}

TEST_CASE("Every 4-men position probed through mktb::Prober has the first generator's DTM",
    "[gen][golden]") {
    // Every position of every table up to 4 men, both sides to move, asked through the public
    // probing API (block cache, decompression, the colour orientation) rather than read from
    // resident arrays: the digest of the answers must be the golden one.
    const auto golden = golden_digests().at("default");
    const Prober prober(test::tables_up_to_4_men());
    for (const Material& m : all_materials(4)) {
        INFO(m.name());
        const std::string& expected = golden.at(m.name());
        REQUIRE(expected.rfind("dtm=", 0) == 0);
        const std::string digest = cells_digest(Index(m), [&](const Position& pos, std::uint64_t) {
            const std::optional<Value> v = prober.dtm(pos);
            return v ? v->cell() : 0xFFFFu; // no answer: a cell no table holds
        });
        CHECK(digest == expected.substr(4, 16));
    }
}

TEST_CASE("Each rule option: every table up to 4 men it changes has the first generator's values",
    "[gen][golden]") {
    // An option whose recorded digests up to 4 men all equal the default rules' changes nothing
    // before 5 men (board_honour=off, limit_precedence): it is checked up to 3 men here, to keep
    // CI short, and over every 4-men ending by scripts/check-golden.
    const auto golden = golden_digests();
    int sets = 0, changing = 0;
    for (const auto& [rules, endings] : golden) {
        if (rules == "default") continue;
        const auto eq = rules.find('=');
        GenOptions options;
        REQUIRE(set_rule_option(options.rules, rules.substr(0, eq), rules.substr(eq + 1)).empty());
        const bool changes = std::any_of(endings.begin(), endings.end(),
            [&](const auto& e) { return golden.at("default").at(e.first) != e.second; });
        changing += changes;
        const std::string dir = test::temp_dir("golden-" + rules.substr(0, eq));
        const Tablebase tables(dir);
        const std::vector<Material> made = build_order(all_materials(changes ? 4 : 3));
        for (const Material& m : made) generate(m, tables, options);
        for (const Material& m : made) {
            INFO(rules << " " << m.name());
            CHECK(table_digest(*tables.table(m)) == endings.at(m.name()));
        }
        fs::remove_all(dir);
        ++sets;
    }
    CHECK(sets == 5);
    CHECK(changing == 3);
}

TEST_CASE("A window of a few levels, rolled over again and again: every 4-men table has the first "
          "generator's values",
    "[gen][golden]") {
    // The 8-bit cells' window holds about 240 levels; KSMvKM's mates need 353 plies. Forced to
    // 6 levels here, every 4-men ending (mates up to 75 plies, conversions into children whose
    // values lie beyond the window: "far" decisions) spills and retires its cells many times.
    const auto golden = golden_digests().at("default");
    const std::string dir = test::temp_dir("window");
    const Tablebase tables(dir);
    GenOptions options;
    options.window_plies = 6;
    for (const Material& m : build_order(all_materials(4))) generate(m, tables, options);
    for (const Material& m : all_materials(4)) {
        INFO(m.name());
        CHECK(table_digest(*tables.table(m)) == golden.at(m.name()));
    }
    // The debug mode reads retired cells back from the spill while the loop goes on.
    options.check_counters = true;
    options.window_plies = 3;
    for (const char* name : { "KRvKR", "KSPvK" }) {
        const Material m = test::material(name);
        INFO(name);
        CHECK_NOTHROW(generate(m, tables, options));
        CHECK(table_digest(*Tablebase(dir).table(m)) == golden.at(name));
    }
    fs::remove_all(dir);
}

TEST_CASE("Debug mode: every loss a counter finds agrees with forward move generation", "[gen]") {
    const auto golden = golden_digests().at("default");
    const std::string dir = test::temp_dir("check-counters");
    GenOptions options;
    options.check_counters = true;
    // The 8-fold residue (KRvKR, KRRvK), identical men (KSSvK, KRRvK), Bia pushes and
    // promotions for both sides (KSPvK, KPvKP), captures that bare or not (KNvKM); pass 1's
    // chunks with a man, a Bia (KSPvK, KPvKP) and a twin (KRRvK, KSSvK) as their lanes.
    for (const char* name : { "KRvKR", "KRRvK", "KSSvK", "KSPvK", "KPvKP", "KNvKM" }) {
        const Material m = test::material(name);
        copy_children(m, dir);
        INFO(name);
        CHECK_NOTHROW(generate(m, Tablebase(dir), options));
        CHECK(table_digest(*Tablebase(dir).table(m)) == golden.at(name));
    }
    fs::remove_all(dir);
}

TEST_CASE("Distance to mate alone (the benchmarks' dtm_only) has the first generator's DTM values",
    "[gen][golden]") {
    // The counted metric left out changes no DTM value (board's honour in KRvKN, the Bia phase
    // in KRvKP); such a file answers DTM and refuses its counted values.
    const auto golden = golden_digests().at("default");
    const std::string dir = test::temp_dir("dtm-only");
    GenOptions options;
    options.dtm_only = true;
    for (const char* name : { "KRvKN", "KRvKP" }) {
        const Material m = test::material(name);
        copy_children(m, dir);
        INFO(name);
        generate(m, Tablebase(dir), options);
        const std::string& full = golden.at(name);
        CHECK(table_digest(*Tablebase(dir).table(m)) == full.substr(0, full.find(' ')));
    }
    const Tablebase tables(dir);
    const Position pos = Position::from_fen("8/8/8/3k4/8/2n5/8/R3K3 w - - 0 1");
    REQUIRE(tables.probe(pos));
    CHECK_THROWS_AS(
        tables.probe_counted(pos, fresh_count(pos, CountRules {}), CountRules {}), TableError);
    fs::remove_all(dir);
}

TEST_CASE(
    "Stalemate is a draw, and a position whose only move is a capture is valued by it", "[gen]") {
    const Tablebase tables(test::tables_up_to_4_men());
    // Black's king on a8 has no move (a7 and b8 are the Ruea's, b7 the White king guards) and
    // is not in check: stalemate, a draw by docs/rules.md section 1.
    const Position stalemate = Position::from_fen("k7/1R6/2K5/8/8/8/8/8 b - - 0 1");
    REQUIRE(legal_moves(stalemate).size == 0);
    REQUIRE_FALSE(stalemate.in_check());
    CHECK(tables.probe(stalemate)->is_draw());
    // Without the guard the only move is Kxb7, which leaves bare kings: a draw.
    const Position onlyCapture = Position::from_fen("k7/1R6/8/8/8/8/8/K7 b - - 0 1");
    const MoveList moves = legal_moves(onlyCapture);
    REQUIRE(moves.size == 1);
    REQUIRE_FALSE(onlyCapture.empty(to_sq(moves.moves[0])));
    CHECK(tables.probe(onlyCapture)->is_draw());
    // In check from the Ruea, Black's only move is Kxa7 (b8 and b7 are the White king's, the
    // Ruea is unguarded), into K+Met vs K: a draw.
    const Position onlyCapture2 = Position::from_fen("k7/R1K5/8/8/8/8/8/7M b - - 0 1");
    REQUIRE(legal_moves(onlyCapture2).size == 1);
    CHECK(tables.probe(onlyCapture2)->is_draw());
}

TEST_CASE("Both kings on a1-h8 and Bia promotions: distances agree with fairy-stockfish",
    "[gen][oracle]") {
    const Tablebase tables(test::tables_up_to_4_men());
    test::Engine engine(test::engine_path());
    engine.count_off(); // pure DTM
    auto diagonal = [](Square s) { return file_of(s) == rank_of(s); };
    test::Rng rng(2026);
    int proofs = 0;
    struct Case {
        const char* name;
        bool residue; // both kings on a1-h8 (8-fold endings), else any position
    };
    for (const Case& e : { Case { "KRvKN", true }, Case { "KRvKM", true }, Case { "KNMvK", true },
             Case { "KRRvK", true }, Case { "KSPvK", false }, Case { "KRvKP", false },
             Case { "KPPvK", false } }) {
        const Index index(test::material(e.name));
        for (int n = 0; n < 12;) {
            const Position pos = test::random_position_of(rng, index);
            if (e.residue
                && !(diagonal(pos.king_square(WHITE)) && diagonal(pos.king_square(BLACK))))
                continue;
            const Value ours = *tables.probe(pos);
            if ((ours.is_draw() || std::abs(ours.mate_in_moves()) > 10) && rng() % 4) continue;
            ++n;
            const std::optional<int> mate = engine.mate_score(pos.fen(), 150000);
            INFO(e.name << " " << pos.fen() << ": ours " << describe(ours));
            if (!mate) continue;
            ++proofs;
            // A proof of mate in M: our distance is at most M, for the same side.
            REQUIRE_FALSE(ours.is_draw());
            REQUIRE(ours.is_win() == (*mate > 0));
            REQUIRE(std::abs(ours.mate_in_moves()) <= std::abs(*mate));
        }
    }
    CHECK(proofs >= 15); // the comparison must not be vacuous (21 with this seed)
}

TEST_CASE("The verifier finds a single wrong value", "[gen]") {
    // KRvKM rewritten with one value changed: mate in 3 made mate in 4 (a legal position, White
    // to move, in the DTM metric). verify must report it.
    const Material m = test::material("KRvKM");
    const Tablebase good(test::tables_up_to_4_men());
    const Table& t = *good.table(m);
    t.make_resident();
    const std::string dir = test::temp_dir("verify-wrong");
    copy_children(m, dir);
    const Position target = Position::from_fen("8/8/8/8/8/1k6/8/K1m4R w - - 0 1");
    REQUIRE(t.probe(target).is_win());
    const std::uint64_t slot = t.index().encode(target);
    TableWriter writer(m, t.rules(), table_path(dir, m), 2);
    writer.set_index_scheme(t.index().scheme()); // the cells are copied in t's slot order
    for (Metric metric : { Metric::Dtm, Metric::Board }) {
        std::vector<std::uint8_t> cells[COLOR_NB];
        for (Color c : { WHITE, BLACK })
            for (std::uint64_t i = 0; i < t.index().size(); ++i)
                cells[c].push_back(std::uint8_t(t.value(metric, c, i).cell()));
        if (metric == Metric::Dtm) cells[WHITE][slot] += 2; // two plies slower: still a win
        const std::span<const std::uint8_t> spans[COLOR_NB] = { cells[WHITE], cells[BLACK] };
        writer.add(metric, 1, spans, {});
    }
    writer.commit();
    std::string report;
    const std::uint64_t bad = verify(m, Tablebase(dir), &report);
    INFO(report);
    CHECK(bad >= 1);
    CHECK(report.find("stored mate in") != std::string::npos);
    fs::remove_all(dir);
}

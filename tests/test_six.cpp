// test_six.cpp - 6-men tables against independent checks: Fairy-Stockfish's mate proofs on
// positions near mate, and the same answer through the C++ Prober and the C API. The tables are
// too large to make in a test run (KMMMvKM: 4.5 minutes, 8.3 GB on this 2-core machine), so the
// tests read them from $MKTB_SIX_MEN_TABLES (tests/six/run.sh skips them when it is not set).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>

#include "mktb/probe.h"
#include "mktb/probe.hpp"
#include "support/engine.hpp"
#include "support/random_positions.hpp"

using namespace mktb;
namespace fs = std::filesystem;

namespace {

// Every 6-men table in $MKTB_SIX_MEN_TABLES, with the directory.
std::pair<std::string, std::vector<Material>> six_men_tables() {
    const char* dir = std::getenv("MKTB_SIX_MEN_TABLES");
    REQUIRE(dir); // tests/six/run.sh sets it, or skips
    std::vector<Material> found;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().extension() == ".mktb")
            if (const auto m = Material::parse(entry.path().stem().string()); m && m->men() == 6)
                found.push_back(*m);
    REQUIRE_FALSE(found.empty());
    return { dir, found };
}

} // namespace

TEST_CASE("6 men: distances agree with fairy-stockfish's mate proofs (count off)", "[six]") {
    const auto [dir, endings] = six_men_tables();
    const Prober prober(dir);
    test::Engine engine(test::engine_path());
    engine.count_off(); // pure DTM
    test::Rng rng(2026);
    for (const Material& m : endings) {
        const Index index(m);
        int proofs = 0, tries = 0;
        // Positions within 8 moves of mate, as the engine can prove them.
        for (int n = 0; n < 24 && tries < 2000000; ++tries) {
            const Position pos = test::random_position_of(rng, index);
            const Value ours = *prober.dtm(pos);
            if (ours.is_draw() || std::abs(ours.mate_in_moves()) > 8) continue;
            ++n;
            const std::optional<int> mate = engine.mate_score(pos.fen(), 300000);
            INFO(m.name() << " " << pos.fen() << ": ours " << describe(ours));
            if (!mate) continue;
            ++proofs;
            // A proof of mate in M: our distance is at most M, for the same side.
            REQUIRE_FALSE(ours.is_draw());
            REQUIRE(ours.is_win() == (*mate > 0));
            REQUIRE(std::abs(ours.mate_in_moves()) <= std::abs(*mate));
        }
        INFO(m.name());
        CHECK(proofs >= 12); // the comparison must not be vacuous
    }
}

TEST_CASE("6 men: the C API and the C++ Prober give the same answers", "[six]") {
    const auto [dir, endings] = six_men_tables();
    const Prober prober(dir);
    mktb_tablebase* tb = nullptr;
    REQUIRE(mktb_open(dir.c_str(), nullptr, &tb) == MKTB_OK);
    test::Rng rng(6);
    for (const Material& m : endings) {
        REQUIRE(mktb_available(tb, m.name().c_str()) == MKTB_OK);
        const Index index(m);
        for (int n = 0; n < 200; ++n) {
            const Position pos = test::random_position_of(rng, index);
            mktb_position p {};
            REQUIRE(mktb_position_from_fen(pos.fen().c_str(), &p) == MKTB_OK);
            mktb_dtm d {};
            REQUIRE(mktb_probe_dtm(tb, &p, &d) == MKTB_OK);
            const Value v = *prober.dtm(pos);
            INFO(pos.fen() << ": " << describe(v));
            CHECK(d.wdl == (v.is_draw() ? MKTB_DRAW : v.is_win() ? MKTB_WIN : MKTB_LOSS));
            if (!v.is_draw()) CHECK(d.plies == v.plies);
        }
    }
    mktb_close(tb);
}

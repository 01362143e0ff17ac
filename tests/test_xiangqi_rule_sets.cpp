// test_xiangqi_rule_sets.cpp - Xiangqi's rule sets side by side (docs/rules-xiangqi.md §5): a
// table of the rule set none beside the default's, the plain distance they share, and a table
// of one set refused, never answering, under another through the reader and both APIs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "mktb/probe.h"
#include "mktb/probe.hpp"
#include "support/tables.hpp"
#include "support/xiangqi_tables.hpp"
#include "xiangqi/generate.hpp"

namespace xq = mktb::xq;
using xq::Material;

namespace {

Material material(const char* name) { return Material::parse(name)->canonical(); }
const std::string& tables() { return mktb::test::xiangqi_tables(); }

} // namespace

TEST_CASE("Xiangqi rule sets: none beside check, and a table of one never answers for the other",
    "[xiangqi][gen]") {
    const std::string dir = mktb::test::temp_dir("xiangqi-rules-none");
    const Material krkn = material("KRvKN");
    {
        const xq::Tablebase none(
            dir, mktb::Tablebase::kDefaultCacheBytes, false, xq::RuleSet::None);
        std::vector<Material> order = xq::with_descendants(krkn);
        std::sort(order.begin(), order.end(),
            [](const Material& a, const Material& b) { return a.men() < b.men(); });
        for (const Material& m : order) xq::generate(m, none, nullptr);
    }
    const xq::Tablebase none(dir, mktb::Tablebase::kDefaultCacheBytes, false, xq::RuleSet::None);
    // The default set, asian: on KRvKN its rule cells are check's (no chase decides a 4-men
    // armed ending: docs/rules-xiangqi.md §5b, as xiangqitb's builds have it).
    const xq::Tablebase byDefault(tables());
    const xq::Tablebase::Entry* e = none.table(krkn);
    REQUIRE(e);
    // The header names the set; under none there are no rule cells (every endless line a draw).
    CHECK(e->table->rules() == xq::kRulePlainNone);
    CHECK(!e->table->has(xq::kRuleResult));
    // The plain distance is the rule sets' common part: its digest is the one recorded for the
    // check table before rule sets existed (tests/golden/xiangqi-digests.txt), and so are the
    // default set's rule cells.
    const xq::Tablebase asIs(dir, mktb::Tablebase::kDefaultCacheBytes, false, std::nullopt);
    CHECK(xq::digest(krkn, asIs) == "dtm=902dc08f9fe0d2c7");
    CHECK(xq::digest(krkn,
              xq::Tablebase(tables(), mktb::Tablebase::kDefaultCacheBytes, false, std::nullopt))
        == "dtm=902dc08f9fe0d2c7 rule=8e1b1fbd962ac5f0");
    std::string report;
    CHECK(xq::verify(krkn, asIs, &report) == 0);
    // docs/rules-xiangqi.md §5's position, held only by checking forever: lost for Black under
    // check and asian, a draw under none (every endless line a draw).
    const xq::Position hold = xq::Position::from_fen("9/4k4/9/9/8R/9/9/5n3/9/5K3 b - - 0 1");
    CHECK(*byDefault.probe_result(hold) == -1);
    CHECK(*none.probe_result(hold) == 0);
    CHECK(none.probe(hold)->is_draw());
    // A table of one set asked under the other refuses by name; one with an armless side
    // answers under both.
    const xq::Tablebase noneAsDefault(dir);
    try {
        (void)noneAsDefault.probe_result(hold);
        FAIL("a table of the rules none answered under asian");
    } catch (const mktb::RulesError& error) {
        CHECK(std::string(error.what()).find("follows the rules none, not asian")
            != std::string::npos);
    }
    const xq::Tablebase defaultAsNone(
        tables(), mktb::Tablebase::kDefaultCacheBytes, false, xq::RuleSet::None);
    CHECK_THROWS_AS(defaultAsNone.probe_result(hold), mktb::RulesError);
    const xq::Position krk = xq::Position::from_fen("9/9/4k4/9/9/9/9/9/9/R2K5 w - - 0 1");
    CHECK(*noneAsDefault.probe(krk) == *defaultAsNone.probe(krk));
    // The C++ API: the options choose the set.
    mktb::ProbeOptions options;
    options.xiangqi_rules = xq::RuleSet::None;
    CHECK(*mktb::Prober(dir, options).rule_wdl(hold) == mktb::Wdl::Draw);
    CHECK(*mktb::Prober(tables()).rule_wdl(hold) == mktb::Wdl::Loss);
    CHECK_THROWS_AS(mktb::Prober(dir).rule_wdl(hold), mktb::RulesError);
    // And the C API: MKTB_RULES_MISMATCH, never an answer; an unknown set is refused.
    mktb_options c;
    mktb_options_default(&c);
    CHECK(c.xiangqi_rules == MKTB_XIANGQI_RULES_DEFAULT);
    mktb_tablebase* tb = nullptr;
    REQUIRE(mktb_open(dir.c_str(), &c, &tb) == MKTB_OK);
    std::int32_t result = 7;
    CHECK(mktb_xiangqi_probe_rule(tb, "9/4k4/9/9/8R/9/9/5n3/9/5K3 b - - 0 1", &result)
        == MKTB_RULES_MISMATCH);
    CHECK(std::string(mktb_last_error()).find("follows the rules none") != std::string::npos);
    mktb_close(tb);
    c.xiangqi_rules = MKTB_XIANGQI_RULES_NONE;
    REQUIRE(mktb_open(dir.c_str(), &c, &tb) == MKTB_OK);
    CHECK(mktb_xiangqi_probe_rule(tb, "9/4k4/9/9/8R/9/9/5n3/9/5K3 b - - 0 1", &result) == MKTB_OK);
    CHECK(result == 0);
    mktb_close(tb);
    c.xiangqi_rules = MKTB_XIANGQI_RULES_ASIAN;
    REQUIRE(mktb_open(dir.c_str(), &c, &tb) == MKTB_OK);
    CHECK(mktb_xiangqi_probe_rule(tb, "9/4k4/9/9/8R/9/9/5n3/9/5K3 b - - 0 1", &result)
        == MKTB_RULES_MISMATCH);
    CHECK(std::string(mktb_last_error()).find("follows the rules none, not asian")
        != std::string::npos);
    mktb_close(tb);
    c.xiangqi_rules = 9;
    CHECK(mktb_open(dir.c_str(), &c, &tb) == MKTB_BAD_ARGUMENT);
    CHECK(std::string(mktb_last_error()).find("xiangqi_rules is 9") != std::string::npos);
}

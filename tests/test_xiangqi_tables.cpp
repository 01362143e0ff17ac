// test_xiangqi_tables.cpp - Xiangqi tables (docs/rules-xiangqi.md): the index without wasted
// slots, the generator against the verifier (an independent forward check), its distances to
// mate against Fairy-Stockfish's mate proofs, the known results of the players' literature
// (shared/notes/anchors.md §9), and the tables of the two games kept apart.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <thread>

#include "mktb/probe.h"
#include "mktb/probe.hpp"
#include "support/engine.hpp"
#include "support/random_positions.hpp"
#include "support/tables.hpp"
#include "support/thread_ranks.hpp"
#include "support/xiangqi_tables.hpp"
#include "table_writer.hpp"
#include "xiangqi/generate.hpp"

namespace xq = mktb::xq;
using mktb::Color;
using mktb::Value;
using xq::Material;

namespace {

Material material(const char* name) { return Material::parse(name)->canonical(); }
const std::string& tables() { return mktb::test::xiangqi_tables(); }

mktb::TableStats stats_of(const char* name) {
    // Counted from the table itself (not the generator's statistics): a second reader.
    const xq::Tablebase tb(tables());
    const xq::Tablebase::Entry* e = tb.table(material(name));
    REQUIRE(e);
    mktb::TableStats s;
    for (std::uint64_t slot = 0; slot < e->index.size(); ++slot) {
        xq::Placement pl;
        if (!e->index.decode(slot, pl)) continue;
        xq::Position pos = e->index.position(pl, xq::RED);
        if (pos.kings_facing()) continue;
        for (Color c : { xq::RED, mktb::BLACK }) {
            if (pos.in_check(~c)) continue;
            const Value v = e->table->value(mktb::Metric::Dtm, c, slot);
            mktb::SideStats& x = s.side[c];
            ++x.legal;
            (v.is_win() ? x.wins : v.is_loss() ? x.losses : x.draws)++;
        }
    }
    return s;
}

} // namespace

TEST_CASE(
    "Xiangqi index: every slot a distinct position, every position a slot", "[xiangqi][index]") {
    for (const char* name : { "KRvK", "KAvKA", "KNBvKAB", "KPPvKB", "KCAvKBB", "KRRvKAABB" }) {
        const xq::Index index(material(name));
        std::mt19937_64 rng(7);
        // Round trips: decode then encode gives the slot back.
        for (int i = 0; i < 20000; ++i) {
            const std::uint64_t slot = rng() % index.size();
            xq::Placement pl;
            if (!index.decode(slot, pl)) continue;
            INFO(name << " slot " << slot);
            REQUIRE(index.encode(pl) == slot);
            // The mirror image and the colour-swapped twin of a table's position are the same
            // position up to the board's symmetries.
            const xq::Position pos = index.position(pl, xq::RED);
            REQUIRE(index.encode(pos.mirrored()) == slot);
        }
    }
    // The cursor the generator and the verifier walk slots with says what decode() says, slot
    // by slot, across every carry (from a few starting points, through whole tables).
    for (const char* name : { "KAvKA", "KNBvKAB", "KPPvKB", "KRvKAABB" }) {
        const xq::Index index(material(name));
        for (std::uint64_t first : { std::uint64_t(0), index.size() / 3, index.size() - 5000 }) {
            std::uint64_t walked = 0;
            for (xq::Index::Cursor at(index, first); at.slot() < index.size(); at.next()) {
                xq::Placement pl;
                const bool position = index.decode(at.slot(), pl);
                INFO(name << " slot " << at.slot());
                REQUIRE(at.is_position() == position);
                if (position) REQUIRE(at.placement().at == pl.at);
                if (++walked == 400000) break;
            }
        }
    }
    // A Mover's slot for each man moved to each free point is encode()'s for that placement,
    // with the same mirror and self-mirror answers: from random slots and from slots with both
    // kings on the e file (where the mirror is a symmetry of the men).
    for (const char* name : { "KRvK", "KNBvKAB", "KPPvKB", "KCAvKBB", "KRRvKAABB" }) {
        const xq::Index index(material(name));
        std::mt19937_64 rng(11);
        int tried = 0;
        for (int i = 0; i < 20000; ++i) {
            std::uint64_t slot = rng() % index.size();
            xq::Placement pl;
            xq::Points occupied;
            if (!index.decode(slot, pl, &occupied)) continue;
            if (i % 2) { // the same men with both kings on the e file, where points are free
                const int rk = xq::make_point(4, int(rng() % 3)),
                          bk = xq::make_point(4, 7 + int(rng() % 3));
                if ((occupied & ~(xq::point_bit(pl.at[0]) | xq::point_bit(pl.at[1])))
                    & (xq::point_bit(rk) | xq::point_bit(bk)))
                    continue;
                pl.at[0] = std::int8_t(rk), pl.at[1] = std::int8_t(bk);
                slot = index.encode(pl);
                REQUIRE(index.decode(slot, pl, &occupied));
            }
            const xq::Index::Mover mover(index, slot, pl);
            REQUIRE(mover.symmetric() == index.symmetric(pl));
            const int man = int(rng() % unsigned(index.men()));
            for (int to = 0; to < xq::POINT_NB; ++to) {
                if (occupied & xq::point_bit(to)) continue;
                if (!xq::can_stand(
                        xq::color_of(index.piece(man)), xq::type_of(index.piece(man)), to))
                    continue;
                xq::Placement q = pl;
                q.at[man] = std::int8_t(to);
                bool mirrored, self, expectMirrored;
                const std::uint64_t got = mover.moved(man, to, &mirrored, &self);
                INFO(name << " slot " << slot << " man " << man << " to " << to);
                REQUIRE(got == index.encode(q, &expectMirrored));
                REQUIRE(mirrored == expectMirrored);
                REQUIRE(self == index.symmetric(q));
                ++tried;
            }
        }
        CHECK(tried > 10000);
    }
    // Sizes from the reachable points (king 9, advisor 5, elephant 7, soldier 55, others 90)
    // and the 45 king-pair classes, worked by hand.
    CHECK(xq::Index(material("KvK")).size() == 45);
    CHECK(xq::Index(material("KRvK")).size() == 45 * 90);
    CHECK(xq::Index(material("KPvKAABB")).size() == 45 * 55 * 10 * 21);
    CHECK(xq::Index(material("KRRvK")).size() == 45 * 4005);
    CHECK(material("KvKRAB").name() == "KRABvK");
    CHECK(material("KAABBvKR").name() == "KRvKAABB");
    CHECK(Material::parse("KRvKQ") == std::nullopt);
    CHECK(Material::parse_error("KRvKAAA").find("3 advisors") != std::string::npos);
}

TEST_CASE("Xiangqi tables: every position agrees with its moves (verify)", "[xiangqi][gen]") {
    const xq::Tablebase tb(tables());
    for (const Material& m : tb.on_disk()) {
        INFO(m.name());
        CHECK(xq::verify(m, tb, nullptr) == 0);
    }
}

// The verifier can fail: KRvKA written again through the table writer from its own cells
// verifies; the same with one won position's cell turned into a draw does not.
TEST_CASE("Xiangqi tables: a window of 4 levels rolled over into the spill, and 16-bit cells, give "
          "the same values",
    "[xiangqi][gen]") {
    // Every ending of the shared set again, its cells' window holding 4 levels: each longer
    // mate goes through rollovers, far decisions and the spill read back (cell_store.hpp), and
    // the values stored are the same (the digest of the decoded values, both metrics). Those
    // with an armless side are stored in 16-bit cells, as a mate longer than 253 plies would be.
    const std::string dir = mktb::test::temp_dir("xiangqi-window");
    const xq::Tablebase narrow(dir);
    const xq::Tablebase wide(tables());
    int spilled = 0;
    // Smaller first: each reads the tables of its captures from `dir`.
    std::vector<Material> order = xq::Tablebase::on_disk(tables());
    std::sort(order.begin(), order.end(),
        [](const Material& a, const Material& b) { return a.men() < b.men(); });
    int wideCells = 0;
    for (const Material& m : order) {
        const bool armed = !m.armless(xq::RED) && !m.armless(mktb::BLACK);
        const mktb::TableStats s = xq::generate(m, narrow, nullptr, 1, 4, !armed);
        spilled += s.levels > 4;
        CHECK(xq::digest(m, narrow) == xq::digest(m, wide));
        wideCells += narrow.table(m)->table->cell_bytes(mktb::Metric::Dtm) == 2;
    }
    CHECK(spilled > 10);
    CHECK(wideCells > 10);
}

// mktb-mpi's split (generate.cpp, "Over several ranks") with threads standing in for the
// processes: every ending of the shared set with an armless side made again over 1, 2 and 3
// ranks, its cells' window holding 4 levels (so that rollovers, far decisions and the spill
// run on every rank), is the one process's file byte for byte (the shared set's, made with
// the whole window), with the same figures on every rank as on one; an ending with both sides
// armed is refused over ranks, before anything is spent.
TEST_CASE("Xiangqi tables: 1, 2 and 3 ranks write one process's files, through the spill",
    "[xiangqi][gen]") {
    std::vector<Material> order = xq::Tablebase::on_disk(tables());
    std::erase_if(
        order, [](const Material& m) { return !m.armless(xq::RED) && !m.armless(mktb::BLACK); });
    std::sort(order.begin(), order.end(),
        [](const Material& a, const Material& b) { return a.men() < b.men(); });
    REQUIRE(order.size() > 20);
    auto bytes = [](const std::string& path) {
        std::ifstream in(path, std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    std::map<std::string, mktb::TableStats> alone; // one rank's
    for (int n : { 1, 2, 3 }) {
        const std::string dir = mktb::test::temp_dir("xiangqi-ranks-" + std::to_string(n));
        std::uint64_t exchanged = 0;
        int spilled = 0;
        for (const Material& m : order) {
            std::vector<mktb::TableStats> stats(static_cast<std::size_t>(n));
            mktb::test::ThreadRanks::run(n, [&](mktb::Ranks& ranks) {
                const xq::Tablebase children(dir); // each rank its own reader, as a process
                stats[std::size_t(ranks.rank())]
                    = xq::generate(m, children, nullptr, xq::kZstdLevel, 4, false, &ranks);
            });
            INFO(m.name() << " over " << n << " ranks");
            REQUIRE(bytes(xq::table_path(dir, m)) == bytes(xq::table_path(tables(), m)));
            if (n == 1) alone[m.name()] = stats[0];
            const mktb::TableStats& one = alone[m.name()];
            for (const mktb::TableStats& s : stats) {
                CHECK(s.levels == one.levels);
                for (Color c : { xq::RED, mktb::BLACK }) {
                    const mktb::SideStats &x = s.side[c], &y = one.side[c];
                    CHECK(x.legal == y.legal);
                    CHECK(x.wins == y.wins);
                    CHECK(x.draws == y.draws);
                    CHECK(x.losses == y.losses);
                    CHECK(x.longest_plies == y.longest_plies);
                    CHECK(x.longest_fen == y.longest_fen);
                    CHECK(x.win_moves == y.win_moves);
                    CHECK(x.loss_moves == y.loss_moves);
                }
            }
            CHECK(stats[0].ranks == n);
            CHECK(int(stats[0].exchanged.size()) == (n > 1 ? stats[0].levels : 0));
            for (std::uint64_t b : stats[0].exchanged) exchanged += b;
            spilled += stats[0].levels > 4;
        }
        CHECK((exchanged > 0) == (n > 1));
        CHECK(spilled > 10);
    }
    CHECK_THROWS_WITH(mktb::test::ThreadRanks::run(2,
                          [&](mktb::Ranks& ranks) {
                              const xq::Tablebase children(tables());
                              xq::generate(material("KRvKN"), children, nullptr, xq::kZstdLevel, 0,
                                  false, &ranks);
                          }),
        Catch::Contains("made by one process"));
}

TEST_CASE("Xiangqi tables: verify finds a wrong cell", "[xiangqi][gen]") {
    const Material m = material("KRvKA");
    const xq::Tablebase source(tables());
    const xq::Tablebase::Entry* e = source.table(m);
    REQUIRE(e);
    e->table->make_resident();
    const std::uint64_t n = e->index.size();
    std::vector<std::uint8_t> cells[mktb::COLOR_NB];
    for (Color c : { xq::RED, mktb::BLACK }) {
        const std::uint8_t* resident = e->table->resident_cells(mktb::Metric::Dtm, c);
        REQUIRE(resident);
        cells[c].assign(resident, resident + n);
    }
    auto write = [&](const std::string& dir) {
        std::filesystem::create_directories(dir);
        for (const Material& child : xq::children(m))
            std::filesystem::copy_file(xq::table_path(tables(), child), xq::table_path(dir, child),
                std::filesystem::copy_options::overwrite_existing);
        for (const Material& child : xq::with_descendants(m))
            if (!(child == m) && !std::filesystem::exists(xq::table_path(dir, child)))
                std::filesystem::copy_file(
                    xq::table_path(tables(), child), xq::table_path(dir, child));
        mktb::TableWriter::DontCare none;
        for (Color c : { xq::RED, mktb::BLACK }) none[c].assign((n + 63) / 64, 0);
        mktb::TableWriter w(xq::table_key(m), xq::kRulePlainArmless, xq::table_path(dir, m), 1);
        const std::span<const std::uint8_t> spans[mktb::COLOR_NB]
            = { { cells[xq::RED].data(), n }, { cells[mktb::BLACK].data(), n } };
        w.add(mktb::Metric::Dtm, 1, spans, none);
        w.commit();
        return xq::Tablebase(dir);
    };
    const std::string base = mktb::test::temp_dir("xiangqi-verify");
    CHECK(xq::verify(m, write(base + "/same"), nullptr) == 0);
    // The first legal Red-to-move position Red wins, made a draw in the file.
    std::uint64_t slot = 0;
    for (xq::Placement pl; slot < n; ++slot)
        if (e->index.decode(slot, pl) && cells[xq::RED][slot] != 0
            && e->index.position(pl, xq::RED).validity_error().empty()
            && Value::from_cell(cells[xq::RED][slot]).is_win())
            break;
    REQUIRE(slot < n);
    cells[xq::RED][slot] = Value::draw().cell();
    // Reported, not printed: the position named, with what the file says and its moves give.
    std::string report;
    CHECK(xq::verify(m, write(base + "/wrong"), &report) > 0);
    xq::Placement pl;
    e->index.decode(slot, pl);
    const std::string fen = e->index.position(pl, xq::RED).fen();
    CHECK(report.find(fen + ": stored draw, its moves give ") != std::string::npos);
}

TEST_CASE("Xiangqi tables: verify finds a wrong rule's distance", "[xiangqi][gen]") {
    // KRvKN's cells copied into a file of their own, one rule's distance made 2 plies longer
    // (the result it stands for unchanged): verify names the position.
    const Material m = material("KRvKN");
    const xq::Tablebase source(tables());
    const xq::Tablebase::Entry* e = source.table(m);
    REQUIRE(e);
    REQUIRE(xq::has_rule_plies(e->table->rules()));
    e->table->make_resident();
    const std::uint64_t n = e->index.size();
    std::vector<std::uint8_t> cells[2][mktb::COLOR_NB]; // [metric][side]
    for (int metric : { 0, 1 })
        for (Color c : { xq::RED, mktb::BLACK }) {
            const std::uint8_t* resident = e->table->resident_cells(mktb::Metric(metric), c);
            REQUIRE(resident);
            cells[metric][c].assign(resident, resident + n);
        }
    // The first position Red wins only by the rule.
    std::uint64_t slot = 0;
    for (xq::Placement pl; slot < n; ++slot)
        if (e->index.decode(slot, pl) && e->index.position(pl, xq::RED).validity_error().empty()
            && cells[1][xq::RED][slot] && cells[1][xq::RED][slot] % 2 == 0)
            break;
    REQUIRE(slot < n);
    cells[1][xq::RED][slot] += 2;
    const std::string dir = mktb::test::temp_dir("xiangqi-verify-rule");
    for (const Material& child : xq::with_descendants(m))
        if (!(child == m))
            std::filesystem::copy_file(xq::table_path(tables(), child), xq::table_path(dir, child),
                std::filesystem::copy_options::overwrite_existing);
    mktb::TableWriter::DontCare none;
    for (Color c : { xq::RED, mktb::BLACK }) none[c].assign((n + 63) / 64, 0);
    {
        mktb::TableWriter w(xq::table_key(m), e->table->rules(), xq::table_path(dir, m), 2);
        for (int metric : { 0, 1 }) {
            const std::span<const std::uint8_t> spans[mktb::COLOR_NB]
                = { { cells[metric][xq::RED].data(), n },
                      { cells[metric][mktb::BLACK].data(), n } };
            w.add(mktb::Metric(metric), 1, spans, none);
        }
        w.commit();
    }
    std::string report;
    CHECK(xq::verify(m,
              xq::Tablebase(dir, mktb::Tablebase::kDefaultCacheBytes, false, std::nullopt), &report)
        > 0);
    xq::Placement pl;
    e->index.decode(slot, pl);
    const std::string fen = e->index.position(pl, xq::RED).fen();
    INFO(report);
    CHECK(report.find(fen + ": stored 1 at " + std::to_string(cells[1][xq::RED][slot] - 1)
              + " plies under the rule, its moves give 1 at "
              + std::to_string(cells[1][xq::RED][slot] - 3))
        != std::string::npos);
}

TEST_CASE("Xiangqi tables: the known results of the literature", "[xiangqi][gen]") {
    // shared/notes/anchors.md §9. With Red (the attacker) to move:
    // a chariot beats two advisors, two elephants, advisor + two elephants, two advisors + one
    // elephant; a horse beats a bare king; a cannon with its own advisor beats a bare king.
    for (const char* beats : { "KRvKAA", "KRvKBB", "KRvKABB", "KRvKAAB", "KNvK", "KCAvK" }) {
        const auto s = stats_of(beats);
        INFO(beats);
        CHECK(s.side[xq::RED].wins == s.side[xq::RED].legal);
    }
    // A horse beats a lone advisor (but where the horse is lost at once or trapped).
    const auto na = stats_of("KNvKA");
    CHECK(na.side[xq::RED].wins > 0.99 * double(na.side[xq::RED].legal));
    // A horse draws against two elephants: Black to move never loses, and Red to move wins in
    // fewer than 1 % of the positions (where the elephants stand badly).
    const auto nbb = stats_of("KNvKBB");
    CHECK(nbb.side[mktb::BLACK].losses == 0);
    CHECK(nbb.side[xq::RED].wins < 0.01 * double(nbb.side[xq::RED].legal));
    // A cannon alone never wins.
    const auto c = stats_of("KCvK");
    CHECK(c.side[xq::RED].wins == 0);
    CHECK(c.side[mktb::BLACK].losses == 0);
    // Against all four defenders a chariot draws where they stand well (king e10, advisors on e9
    // and on d10 or f10, elephants on e8 and c10), with positional wins elsewhere.
    const xq::Tablebase tb(tables());
    for (const char* fortress : { "2b1ka3/4a4/4b4/9/9/9/9/4R4/9/3K5 w - - 0 1",
             "2bak4/4a4/4b4/9/9/9/9/1R7/9/3K5 w - - 0 1" })
        CHECK(tb.probe(xq::Position::from_fen(fortress))->is_draw());
    const auto full = stats_of("KRvKAABB");
    CHECK(full.side[xq::RED].wins > 0);
    CHECK(full.side[xq::RED].draws > 0);
    // A soldier on the last rank cannot win: no position of it is won for its side to move.
    const xq::Tablebase::Entry* e = tb.table(material("KPvKAB"));
    REQUIRE(e);
    const Color side = e->index.material().count[xq::RED][xq::SOLDIER] ? xq::RED : mktb::BLACK;
    std::uint64_t lastRank = 0;
    for (std::uint64_t slot = 0; slot < e->index.size(); ++slot) {
        xq::Placement pl;
        if (!e->index.decode(slot, pl)) continue;
        const xq::Position pos = e->index.position(pl, side);
        int soldier = -1;
        for (int p = 0; p < xq::POINT_NB; ++p)
            if (pos.piece_on(p) == xq::make_piece(side, xq::SOLDIER)) soldier = p;
        if (xq::relative_rank(side, soldier) != 9 || !pos.validity_error().empty()) continue;
        ++lastRank;
        CHECK(!e->table->value(mktb::Metric::Dtm, side, slot).is_win());
    }
    CHECK(lastRank > 1000);
}

TEST_CASE(
    "Xiangqi tables: mates within 6 moves proven by Fairy-Stockfish", "[xiangqi][gen][oracle]") {
    // Positions near the end of their mates, from each ending with an armless side: the engine
    // finds a mate for the same side, never shorter than ours (ours is the shortest against the
    // best defence). Where both sides are armed the engine's perpetual-check rule may win
    // sooner than a mate (the next test).
    mktb::test::Engine engine(mktb::test::engine_path(), "xiangqi");
    const xq::Tablebase tb(tables());
    std::mt19937_64 rng(11);
    int proofs = 0;
    for (const Material& m : tb.on_disk()) {
        if (!m.armless(xq::RED) && !m.armless(mktb::BLACK)) continue;
        const xq::Tablebase::Entry* e = tb.table(m);
        int found = 0;
        for (int tries = 0; tries < 200000 && found < 4; ++tries) {
            const std::uint64_t slot = rng() % e->index.size();
            const Color stm = rng() & 1 ? mktb::BLACK : xq::RED;
            xq::Placement pl;
            if (!e->index.decode(slot, pl)) continue;
            const xq::Position pos = e->index.position(pl, stm);
            if (!pos.validity_error().empty()) continue;
            const Value v = e->table->value(mktb::Metric::Dtm, stm, slot);
            if (!v.is_win() || v.plies > 11) continue;
            ++found;
            const std::optional<int> mate = engine.mate_score(pos.fen(), 200000);
            INFO(m.name() << " " << pos.fen() << " ours: mate in " << v.mate_in_moves());
            REQUIRE(mate);
            CHECK(*mate >= v.mate_in_moves());
            ++proofs;
        }
    }
    CHECK(proofs >= 40);
}

TEST_CASE("Xiangqi tables: the perpetual-check rule, by hand and by Fairy-Stockfish",
    "[xiangqi][gen][oracle]") {
    const xq::Tablebase tb(tables());
    const xq::Tablebase::Entry* e = tb.table(material("KRvKN"));
    REQUIRE(e);
    CHECK(e->table->rules() == (xq::kRuleAsian | xq::kRulePlies)); // the default rule set
    CHECK(!tb.table(material("KRvKAABB"))->table->has(xq::kRuleResult));
    // Checked by hand: Black (Ke9, Nf3) can hold only by checking forever. Every move but Nh2+
    // loses at once to the chariot (the tables' plain mates, and Fairy-Stockfish's below); after
    // Nh2+ Red's one legal move is Kf2 (Ke1 would face Black's king), and the horse must check
    // again. The plain analysis calls it drawn; under the rule Black loses.
    const xq::Position hold = xq::Position::from_fen("9/4k4/9/9/8R/9/9/5n3/9/5K3 b - - 0 1");
    CHECK(tb.probe(hold)->is_draw());
    CHECK(*tb.probe_result(hold) == -1);
    // Its rule's distance (docs/rules-xiangqi.md §5c): Black can only check or lose now (0).
    CHECK(*tb.probe_rule_plies(hold) == 0);
    for (xq::Move mv : xq::legal_moves(hold)) {
        xq::Position after = hold;
        after.do_move(mv);
        INFO(xq::move_to_uci(mv));
        if (xq::move_to_uci(mv) != "f3h2") {
            CHECK(tb.probe(after)->is_win()); // Red to move mates
            continue;
        }
        CHECK(after.in_check());
        CHECK(tb.probe(after)->is_draw());
        CHECK(*tb.probe_result(after) == 1);
        CHECK(*tb.probe_rule_plies(after) == 1); // Kf2, and Black is back where it must check
        const auto replies = xq::legal_moves(after);
        REQUIRE(replies.size == 1);
        CHECK(xq::move_to_uci(*replies.begin()) == "f1f2");
    }
    mktb_tablebase* api = nullptr;
    REQUIRE(mktb_open(tables().c_str(), nullptr, &api) == MKTB_OK);
    std::int32_t result = 0;
    REQUIRE(mktb_xiangqi_probe_rule(api, hold.fen().c_str(), &result) == MKTB_OK);
    CHECK(result == -1);
    // The rule's distance from C, through the FEN and the structure: 0 (by hand, above).
    std::int32_t plies = 7;
    REQUIRE(mktb_xiangqi_probe_rule_plies(api, hold.fen().c_str(), &plies) == MKTB_OK);
    CHECK(plies == 0);
    mktb_xiangqi_position sp {};
    REQUIRE(mktb_xiangqi_position_from_fen(hold.fen().c_str(), &sp) == MKTB_OK);
    plies = 7;
    REQUIRE(mktb_xiangqi_probe_rule_plies_position(api, &sp, &plies) == MKTB_OK);
    CHECK(plies == 0);
    // A plain mate has none: after Ke8, Red mates in 7.
    REQUIRE(mktb_xiangqi_probe_rule_plies(api, "9/9/4k4/9/8R/9/9/5n3/9/5K3 w - - 1 2", &plies)
        == MKTB_OK);
    CHECK(plies == -1);
    REQUIRE(mktb_xiangqi_probe_rule(api, "9/4k4/9/9/9/9/9/9/9/3KRR3 b - - 0 1", &result)
        == MKTB_NO_TABLE);
    mktb_close(api);
    // Fairy-Stockfish plays the rule (a perpetual check loses): on positions only the rule
    // decides, sampled from each armed ending, its search finds the win for the same side.
    mktb::test::Engine engine(mktb::test::engine_path(), "xiangqi");
    CHECK(*engine.mate_score(hold.fen(), 500000) < 0);
    std::mt19937_64 rng(5);
    int proofs = 0, asked = 0;
    for (const Material& m : tb.on_disk()) {
        if (m.armless(xq::RED) || m.armless(mktb::BLACK)) continue;
        const xq::Tablebase::Entry* t = tb.table(m);
        for (int tries = 0, found = 0; tries < 400000 && found < 8; ++tries) {
            const std::uint64_t slot = rng() % t->index.size();
            const Color stm = rng() & 1 ? mktb::BLACK : xq::RED;
            xq::Placement pl;
            if (!t->index.decode(slot, pl)) continue;
            const xq::Position pos = t->index.position(pl, stm);
            if (!pos.validity_error().empty() || !tb.probe(pos)->is_draw()) continue;
            const int ours = *tb.probe_result(pos);
            if (!ours) continue;
            ++found, ++asked;
            const std::optional<int> mate = engine.mate_score(pos.fen(), 500000);
            INFO(m.name() << " " << pos.fen() << " ours: " << ours);
            if (!mate) continue; // no proof within the nodes: neither agreement nor not
            CHECK((*mate > 0) == (ours > 0));
            ++proofs;
        }
    }
    CHECK(asked >= 8); // KRvKN alone has 1,597 such positions
    CHECK(proofs * 4 >= asked * 3);
}

// The block cache keeps a Xiangqi block (64 Ki cells) a piece of 16 Ki cells at a time, each
// copied from the whole block its thread decompressed last (probe/tablefile.cpp): every cell
// of two tables read so, through a cache of 64 pieces (evicted and read again), in an order that
// mixes pieces, blocks, sides and the tables, equals the cell make_resident() decompressed.
TEST_CASE("Xiangqi tables: cells read piece by piece equal their whole blocks", "[xiangqi][gen]") {
    const xq::Tablebase whole(tables());
    const xq::Tablebase pieces(tables(), std::size_t(1) << 20);
    struct Cells {
        const xq::Tablebase::Entry* whole;
        const xq::Tablebase::Entry* pieces;
    };
    std::vector<Cells> endings;
    for (const char* name : { "KRvKAABB", "KNABvKA" }) {
        endings.push_back({ whole.table(material(name)), pieces.table(material(name)) });
        REQUIRE(endings.back().whole);
        REQUIRE(endings.back().pieces);
        endings.back().whole->table->make_resident();
        // Several blocks, the last of them short: every way a piece can lie.
        const std::uint64_t block = xq::table_key(material(name)).block_cells;
        REQUIRE(block == 65536);
        REQUIRE(endings.back().whole->index.size() > 4 * block);
        REQUIRE(endings.back().whole->index.size() % block != 0);
    }
    std::mt19937_64 rng(5);
    std::uint64_t reads = 0;
    for (int round = 0; round < 3; ++round)
        for (std::uint64_t slot = 0;; slot += 1 + rng() % 997) {
            bool any = false;
            for (const Cells& e : endings) {
                const std::uint64_t n = e.whole->index.size();
                if (slot >= n) continue;
                any = true;
                // In turn: a slot walking forward (neighbouring pieces of one block), one from
                // anywhere.
                for (const std::uint64_t at : { slot, std::uint64_t(rng() % n) }) {
                    for (Color c : { xq::RED, mktb::BLACK }) {
                        const Value a = e.whole->table->value(mktb::Metric::Dtm, c, at);
                        const Value b = e.pieces->table->value(mktb::Metric::Dtm, c, at);
                        ++reads;
                        if (a != b) FAIL_CHECK(e.whole->index.material().name() << " slot " << at);
                    }
                }
            }
            if (!any) break;
        }
    CHECK(reads > 10000); // of some 90 pieces per table: each read again after its eviction
}

// A damaged block is reported on every probe of it, whichever piece: the thread's copy of the
// last block is kept only once the block decompressed whole.
TEST_CASE("Xiangqi tables: a damaged block never answers", "[xiangqi][gen]") {
    const std::string dir = mktb::test::temp_dir("xiangqi-damaged");
    const Material m = material("KRvKAABB");
    std::filesystem::copy_file(xq::table_path(tables(), m), xq::table_path(dir, m),
        std::filesystem::copy_options::overwrite_existing);
    {
        std::fstream f(xq::table_path(dir, m), std::ios::in | std::ios::out | std::ios::binary);
        std::uint64_t offsets[2];
        f.seekg(sizeof(mktb::TableHeader));
        f.read(reinterpret_cast<char*>(offsets), sizeof offsets);
        REQUIRE(offsets[1] > offsets[0] + 16);
        const std::streamoff middle = std::streamoff((offsets[0] + offsets[1]) / 2);
        char byte;
        f.seekg(middle);
        f.read(&byte, 1);
        byte = char(byte ^ 0x5A);
        f.seekp(middle);
        f.write(&byte, 1);
    }
    const xq::Tablebase tb(dir);
    const xq::Tablebase::Entry* e = tb.table(m);
    REQUIRE(e);
    for (const std::uint64_t slot : { 0, 20000, 0, 40000, 65535 }) {
        INFO("slot " << slot);
        CHECK_THROWS_WITH(e->table->value(mktb::Metric::Dtm, xq::RED, slot),
            Catch::Matchers::Contains("block 0 is damaged"));
    }
    // The next block, undamaged, answers as the original file does.
    const xq::Tablebase good(tables());
    CHECK(e->table->value(mktb::Metric::Dtm, xq::RED, 65536)
        == good.table(m)->table->value(mktb::Metric::Dtm, xq::RED, 65536));
}

TEST_CASE("Xiangqi and Makruk tables never answer for each other", "[xiangqi][gen]") {
    // A Makruk reader asked for a file written for Xiangqi refuses it by its header's game.
    const std::string dir = mktb::test::temp_dir("xiangqi-games");
    const xq::Tablebase xt(tables());
    std::filesystem::copy_file(xq::table_path(tables(), material("KRvK")), dir + "/KRvK.mktb");
    const mktb::Tablebase makruk(dir);
    try {
        makruk.table(mktb::test::material("KRvK"));
        FAIL("a Xiangqi file read as a Makruk table");
    } catch (const mktb::TableError& e) {
        CHECK(std::string(e.what()).find("a table of Xiangqi, not of Makruk") != std::string::npos);
    }
    // And the Makruk directory's KRvK.mktb is not the Xiangqi KRvK: no Xiangqi table there.
    CHECK(!xq::Tablebase(dir).table(material("KRvK")));
}

TEST_CASE("Xiangqi through the C API: the FEN and structure entry points equal the tables",
    "[xiangqi][gen][api]") {
    mktb_tablebase* tb = nullptr;
    REQUIRE(mktb_open(tables().c_str(), nullptr, &tb) == MKTB_OK);
    // Two moves win at once, checked by hand: Rd2 mates (the king cannot leave the d file, e10
    // faces Red's king) and Re9 stalemates (Black has no move, not in check: a loss too).
    mktb_dtm dtm {};
    REQUIRE(mktb_xiangqi_probe_fen(tb, "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", &dtm) == MKTB_OK);
    CHECK(dtm.wdl == MKTB_WIN);
    CHECK(dtm.plies == 1);
    mktb_xiangqi_move moves[128];
    std::size_t n = 0;
    REQUIRE(mktb_xiangqi_rank_root(tb, "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", moves, 128, &n)
        == MKTB_OK);
    REQUIRE(n > 1);
    const std::string first = moves[0].uci, second = moves[1].uci;
    CHECK(((first == "e2d2" && second == "e2e9") || (first == "e2e9" && second == "e2d2")));
    CHECK(moves[0].value.plies == 1);
    CHECK(moves[1].value.plies == 1);
    CHECK(!(moves[2].value.wdl == MKTB_WIN && moves[2].value.plies == 1)); // no third
    CHECK(mktb_xiangqi_rank_root(tb, "3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", nullptr, 0, &n)
        == MKTB_BUFFER_TOO_SMALL);
    // Errors by status: a bad FEN, a material without a table, a Makruk FEN.
    CHECK(
        mktb_xiangqi_probe_fen(tb, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", &dtm) == MKTB_BAD_POSITION);
    CHECK(std::string(mktb_last_error()).find("kings face") != std::string::npos);
    CHECK(mktb_xiangqi_probe_fen(tb, "3k5/9/9/9/9/9/9/9/4N4/4K4 w - - 0 1", &dtm) == MKTB_OK);
    CHECK(
        mktb_xiangqi_probe_fen(tb, "3k5/9/9/9/9/9/4R4/9/4N4/4K4 w - - 0 1", &dtm) == MKTB_NO_TABLE);
    CHECK(mktb_xiangqi_probe_fen(tb, "8/3k4/8/8/8/8/8/R3K3 w - - 0 1", &dtm) == MKTB_BAD_POSITION);
    CHECK(mktb_xiangqi_probe_fen(tb, nullptr, &dtm) == MKTB_BAD_ARGUMENT);
    // The structure, read by hand: Black's king on d10 (point 9 * 9 + 3 = 84), Red's chariot on
    // e2 (9 + 4 = 13) and king on e1 (4), Red to move; the same answers as the FEN's.
    mktb_xiangqi_position sp {};
    REQUIRE(mktb_xiangqi_position_from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", &sp) == MKTB_OK);
    CHECK(sp.point[84] == (MKTB_XIANGQI_KING | MKTB_XIANGQI_BLACK_MAN));
    CHECK(sp.point[13] == MKTB_XIANGQI_CHARIOT);
    CHECK(sp.point[4] == MKTB_XIANGQI_KING);
    CHECK(std::count(std::begin(sp.point), std::end(sp.point), 0) == 87);
    CHECK(sp.side_to_move == MKTB_WHITE);
    mktb_dtm sdtm {};
    mktb_wdl wdl = MKTB_DRAW, rule = MKTB_DRAW;
    REQUIRE(mktb_xiangqi_probe_dtm(tb, &sp, &sdtm) == MKTB_OK);
    CHECK((sdtm.wdl == MKTB_WIN && sdtm.plies == 1));
    REQUIRE(mktb_xiangqi_probe_wdl(tb, &sp, &wdl) == MKTB_OK);
    CHECK(wdl == MKTB_WIN);
    REQUIRE(mktb_xiangqi_probe_rule_wdl(tb, &sp, &rule) == MKTB_OK);
    CHECK(rule == MKTB_WIN);
    mktb_xiangqi_move smoves[128];
    std::size_t sn = 0;
    REQUIRE(mktb_xiangqi_rank_root_position(tb, &sp, smoves, 128, &sn) == MKTB_OK);
    REQUIRE(sn == n);
    for (std::size_t i = 0; i < n; ++i) {
        CHECK(std::string(smoves[i].uci) == moves[i].uci);
        CHECK(smoves[i].value.plies == moves[i].value.plies);
    }
    // A structure that is no position, each with its reason.
    auto refused = [&](mktb_xiangqi_position bad, const char* why) {
        INFO(why);
        CHECK(mktb_xiangqi_probe_dtm(tb, &bad, &sdtm) == MKTB_BAD_POSITION);
        CHECK(std::string(mktb_last_error()).find(why) != std::string::npos);
    };
    mktb_xiangqi_position bad = sp;
    bad.point[40] = 16;
    refused(bad, "no man");
    bad = sp;
    bad.point[3] = MKTB_XIANGQI_KING;
    refused(bad, "Red has two kings");
    bad = sp;
    bad.side_to_move = 2;
    refused(bad, "neither");
    bad = sp;
    bad.point[84] = 0;
    bad.point[85] = MKTB_XIANGQI_KING | MKTB_XIANGQI_BLACK_MAN; // e10: facing Red's king
    bad.point[13] = 0;
    refused(bad, "kings face");
    CHECK(mktb_xiangqi_probe_dtm(tb, nullptr, &sdtm) == MKTB_BAD_ARGUMENT);
    CHECK(mktb_xiangqi_position_from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", &sp)
        == MKTB_BAD_POSITION);
    // Every position of an ending: the C answer equals the table's, from random slots.
    const xq::Tablebase x(tables());
    const xq::Tablebase::Entry* e = x.table(material("KCAvK"));
    std::mt19937_64 rng(3);
    for (int i = 0; i < 2000; ++i) {
        xq::Placement pl;
        if (!e->index.decode(rng() % e->index.size(), pl)) continue;
        const xq::Position pos = e->index.position(pl, rng() & 1 ? mktb::BLACK : xq::RED);
        if (!pos.validity_error().empty()) continue;
        REQUIRE(mktb_xiangqi_probe_fen(tb, pos.fen().c_str(), &dtm) == MKTB_OK);
        const Value v = *x.probe(pos);
        CHECK(dtm.plies == (v.is_draw() ? -1 : v.plies));
        REQUIRE(mktb_xiangqi_position_from_fen(pos.fen().c_str(), &sp) == MKTB_OK);
        REQUIRE(mktb_xiangqi_probe_dtm(tb, &sp, &sdtm) == MKTB_OK);
        CHECK(sdtm.plies == dtm.plies);
    }
    mktb_close(tb);
}

TEST_CASE("One Prober reads both games through one bounded cache, from 4 threads, and remembers "
          "the tables it lacks",
    "[xiangqi][gen][threads]") {
    // One directory holding both games' tables: Makruk's up to 4 men and these Xiangqi ones.
    namespace fs = std::filesystem;
    const std::string both = mktb::test::temp_dir("both-games");
    for (const std::string& dir : { mktb::test::tables_up_to_4_men(), tables() })
        for (const auto& entry : fs::directory_iterator(dir))
            if (entry.path().extension() == ".mktb")
                fs::create_symlink(entry.path(), fs::path(both) / entry.path().filename());
    // Positions of each game, answered first by readers of each game's own directory.
    mktb::test::Rng rng(11);
    std::vector<mktb::Position> makruk;
    for (const char* name : { "KRvK", "KSMvK", "KRvKM", "KSPvK", "KNvKP" })
        for (int k = 0; k < 200; ++k)
            makruk.push_back(
                mktb::test::random_position_of(rng, mktb::Index(mktb::test::material(name))));
    std::vector<xq::Position> xiangqi;
    const xq::Tablebase x(tables());
    for (const char* name : { "KRvKAABB", "KNABvKA", "KRvKN", "KRvKC", "KCBvKA" }) {
        const xq::Tablebase::Entry* e = x.table(material(name));
        REQUIRE(e);
        for (const std::size_t goal = xiangqi.size() + 200; xiangqi.size() < goal;) {
            xq::Placement pl;
            if (!e->index.decode(rng() % e->index.size(), pl)) continue;
            const xq::Position pos = e->index.position(pl, rng() & 1 ? mktb::BLACK : xq::RED);
            if (pos.validity_error().empty()) xiangqi.push_back(pos);
        }
    }
    REQUIRE(xiangqi.size() == 1000);
    const mktb::Prober makrukOnly(mktb::test::tables_up_to_4_men());
    const mktb::Prober xiangqiOnly(tables());
    std::vector<Value> makrukValues, xiangqiValues;
    std::vector<mktb::Wdl> xiangqiRules;
    for (const auto& pos : makruk) makrukValues.push_back(*makrukOnly.dtm(pos));
    for (const auto& pos : xiangqi) {
        xiangqiValues.push_back(*xiangqiOnly.dtm(pos));
        xiangqiRules.push_back(*xiangqiOnly.rule_wdl(pos));
    }

    // 64 KiB: four blocks of Makruk's size, one of Xiangqi's. Xiangqi's probes alone miss in
    // the Prober's one cache, not in one of their own.
    const mktb::Prober shared(both, { 64 << 10, {} });
    REQUIRE(shared.dtm(xiangqi[0]) == xiangqiValues[0]);
    CHECK(shared.cache_misses() == 1);
    constexpr int kThreads = 4;
    std::vector<int> mismatches(kThreads, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (std::size_t k = 0; k < makruk.size(); ++k) {
                const std::size_t i = (k * (2 * t + 1) + std::size_t(t) * 97) % makruk.size();
                mismatches[t] += shared.dtm(makruk[i]) != makrukValues[i];
                mismatches[t] += shared.dtm(xiangqi[i]) != xiangqiValues[i];
                mismatches[t] += shared.rule_wdl(xiangqi[i]) != xiangqiRules[i];
            }
        });
    for (std::thread& th : threads) th.join();
    for (int t = 0; t < kThreads; ++t) CHECK(mismatches[t] == 0);
    CHECK(shared.cache_misses() > 2000); // both games' blocks evict each other's

    // A table that appears after the Prober was opened is not looked for: the Prober answers
    // from the tables it found, for either game, without a look at the disk.
    const std::string later = mktb::test::temp_dir("both-games-later");
    const mktb::Prober early(later);
    const xq::Position krk = xq::Position::from_fen("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1");
    CHECK(!early.available(material("KRvK")));
    CHECK(!early.dtm(krk));
    fs::copy_file(
        xq::table_path(tables(), material("KRvK")), xq::table_path(later, material("KRvK")));
    CHECK(!early.dtm(krk));
    CHECK(mktb::Prober(later).dtm(krk) == Value::mate_in_plies(1));
}

// test_gen.cpp - the generator: every ending up to 4 men verified against its successors, the
// published figures of docs/rules.md §8, DTM against fairy-stockfish's mate proofs, identical bytes
// for 1 and 2 threads, and damaged table files refused.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <tbb/global_control.h>
#include <unistd.h>

#include "mktb/movegen.hpp"
#include "support/engine.hpp"
#include "support/random_positions.hpp"
#include "support/tables.hpp"
#include "table_writer.hpp"
#include "tablebase.hpp"

using namespace mktb;
namespace fs = std::filesystem;

namespace {

std::vector<char> file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

} // namespace

TEST_CASE("Every ending up to 4 men verifies against its successors", "[gen]") {
    const Tablebase tables(test::tables_up_to_4_men());
    for (const Material& m : all_materials(4)) {
        std::string report;
        const std::uint64_t bad = verify(m, tables, &report);
        INFO(m.name() << "\n" << report); // after verify has written the report
        CHECK(bad == 0);
    }
}

TEST_CASE("Published figures of docs/rules.md section 8", "[gen]") {
    const std::string dir = test::temp_dir("published");
    // K+Ruea vs K: the longest mate is 16 moves, as in chess.
    const TableStats krk = test::generate_with_children(dir, test::material("KRvK"));
    CHECK(Value::mate_in_plies(krk.side[WHITE].longest_plies).mate_in_moves() == 16);
    CHECK(Value::mate_in_plies(krk.side[BLACK].longest_plies).mate_in_moves() == -16);
    // K+Ma+Met vs K, attacker to move, no counting: 472,900 won positions, 3.96 % of the legal
    // ones (KMITL, Ladkrabang Engineering Journal).
    const TableStats knm = test::generate_with_children(dir, test::material("KNMvK"));
    CHECK(knm.side[WHITE].wins == 472900);
    CHECK(
        std::round(10000.0 * double(knm.side[WHITE].wins) / double(knm.side[WHITE].legal)) == 396);
    // K+Khon+Met vs K, attacker to move, without counting: 85.77 % won (KMITL 2026).
    const TableStats ksm = test::generate_with_children(dir, test::material("KSMvK"));
    CHECK(
        std::round(10000.0 * double(ksm.side[WHITE].wins) / double(ksm.side[WHITE].legal)) == 8577);
    fs::remove_all(dir);
}

TEST_CASE("The bytes written do not depend on the number of threads", "[gen]") {
    const Material m = test::material("KSvKM");
    const std::string one = test::temp_dir("threads1"), two = test::temp_dir("threads2");
    for (const Material& c : m.children())
        for (const std::string& d : { one, two })
            fs::copy_file(table_path(test::tables_up_to_4_men(), c), table_path(d, c));
    {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
        generate(m, Tablebase(one), {});
    }
    {
        tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
        generate(m, Tablebase(two), {});
    }
    const auto a = file_bytes(table_path(one, m)), b = file_bytes(table_path(two, m));
    CHECK(a.size() > 1000);
    CHECK(a == b);
    CHECK(a == file_bytes(table_path(test::tables_up_to_4_men(), m)));
    // The 16-bit cells used when 8 bits overflow give the same values, hence the same file.
    GenOptions wide;
    wide.wide_cells = true;
    generate(m, Tablebase(two), wide);
    CHECK(a == file_bytes(table_path(two, m)));
    // The window of levels the 8-bit cells hold, rolled over when a level outgrows it (here
    // forced every 2 or 5 plies; KSvKM mates in up to 11 plies), gives the same values: the
    // same file.
    for (const int plies : { 2, 5 }) {
        GenOptions rolled;
        rolled.window_plies = plies;
        generate(m, Tablebase(two), rolled);
        CHECK(a == file_bytes(table_path(two, m)));
    }
    fs::remove_all(one);
    fs::remove_all(two);
}

TEST_CASE(
    "A full disk while the level loop spills cells stops the ending with a clear error", "[gen]") {
    // The spill goes to a scratch file in the tables' directory (a long ending's retired cells:
    // KSMvKM 558 MB). Here KRvKS with a window of 4 levels spills at every rollover onto a
    // 256 KB tmpfs: the error names the disk, and neither table nor scratch file is left.
    const std::string dir = test::temp_dir("spill-full");
    if (std::system(("mount -t tmpfs -o size=256k tmpfs " + dir + " 2>/dev/null").c_str()) != 0) {
        WARN("not tested: this user cannot mount a tmpfs");
        return;
    }
    const Material m = test::material("KRvKS");
    for (const Material& c : m.children())
        fs::copy_file(table_path(test::tables_up_to_4_men(), c), table_path(dir, c));
    GenOptions options;
    options.window_plies = 4;
    CHECK_THROWS_WITH(generate(m, Tablebase(dir), options),
        Catch::Contains("No space left on device") && Catch::Contains("scratch file in " + dir)
            && Catch::Contains("no table was written"));
    std::vector<std::string> left;
    for (const auto& entry : fs::directory_iterator(dir)) left.push_back(entry.path().filename());
    std::sort(left.begin(), left.end());
    CHECK(left == std::vector<std::string> { "KRvK.mktb", "KSvK.mktb" });
    CHECK(std::system(("umount " + dir).c_str()) == 0);
    fs::remove_all(dir);
}

TEST_CASE("A damaged or truncated table is refused, never answered", "[gen]") {
    const std::string dir = test::temp_dir("damaged");
    const Material m = test::material("KRvK");
    const std::string good = table_path(test::tables_up_to_4_men(), m), bad = table_path(dir, m);
    const auto bytes = file_bytes(good);
    auto write = [&](std::vector<char> b) {
        std::ofstream(bad, std::ios::binary | std::ios::trunc)
            .write(b.data(), std::streamsize(b.size()));
    };
    const Position pos = Position::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
    CHECK(Tablebase(fs::path(good).parent_path().string()).probe(pos).has_value());

    // Opens the damaged copy and reads every block; the fault must be reported.
    auto load = [&] { Table::open(bad, m, nullptr, 1)->make_resident(); };
    auto flipped = bytes;
    flipped[flipped.size() / 2] ^= 0x20; // inside a block
    write(flipped);
    CHECK_THROWS_WITH(load(), Catch::Contains("checksum mismatch"));
    {
        // Probed position by position: every answer is the good table's, or a refusal.
        const Tablebase good4(test::tables_up_to_4_men()), damaged(dir);
        const Table& reference = *good4.table(m);
        std::uint64_t refused = 0, wrong = 0;
        for (std::uint64_t i = 0; i < reference.index().size(); ++i) {
            Position p;
            if (!reference.index().decode(i, p)) continue;
            for (Color c : { WHITE, BLACK }) try {
                    wrong += damaged.table(m)->value(c, i) != reference.value(c, i);
                } catch (const TableError&) {
                    ++refused;
                }
        }
        CHECK(wrong == 0);
        CHECK(refused > 0);
    }
    flipped = bytes;
    flipped[80] ^= 0x01; // the block index
    write(flipped);
    CHECK_THROWS_WITH(load(), Catch::Contains("block index"));
    flipped = bytes;
    flipped[40] ^= 0x04; // the rules recorded in the header
    write(flipped);
    CHECK_THROWS_WITH(load(), Catch::Contains("checksum mismatch in the header"));

    write(std::vector<char>(bytes.begin(), bytes.end() - 100));
    CHECK_THROWS_AS(load(), TableError);
    write(std::vector<char>(bytes.begin(), bytes.begin() + 20));
    CHECK_THROWS_WITH(load(), Catch::Contains("too short"));
    write(std::vector<char>(1000, 'x'));
    CHECK_THROWS_WITH(load(), Catch::Contains("not an mktb table"));
    // A whole file of another ending.
    write(file_bytes(table_path(test::tables_up_to_4_men(), test::material("KSvK"))));
    CHECK_THROWS_WITH(load(), Catch::Contains("holds KSvK"));
    fs::remove_all(dir);
}

TEST_CASE("The header names the index scheme; version 4 knew scheme 1 only", "[gen]") {
    // docs/format.md: version 5 files say which order their men's digits are in (1 or 2);
    // a version 4 file is read in scheme 1, and a scheme a version does not know is refused.
    const std::string dir = test::temp_dir("scheme");
    const Material m = test::material("KRvK");
    const std::string bad = table_path(dir, m);
    const auto bytes = file_bytes(table_path(test::tables_up_to_4_men(), m));
    TableHeader h;
    std::memcpy(&h, bytes.data(), sizeof h);
    REQUIRE(h.version == 5);
    // The header with another version and scheme, its checksum made right again: only the
    // reader's check of the pair can refuse it.
    auto open = [&](std::uint32_t version, std::uint32_t scheme) {
        auto b = bytes;
        std::memcpy(b.data() + offsetof(TableHeader, version), &version, 4);
        std::memcpy(b.data() + offsetof(TableHeader, index_scheme), &scheme, 4);
        const std::size_t indexEnd = sizeof h + (2 * h.blocks_per_side + 1) * 8; // DTM only
        const std::uint64_t sum
            = checksum64(std::span(reinterpret_cast<const std::uint8_t*>(b.data()), indexEnd));
        std::memcpy(b.data() + indexEnd, &sum, 8);
        std::ofstream(bad, std::ios::binary | std::ios::trunc)
            .write(b.data(), std::streamsize(b.size()));
        return Table::open(bad, m, nullptr, 1)->index().scheme();
    };
    CHECK(open(5, 1) == 1);
    CHECK(open(5, 2) == 2);
    CHECK(open(4, 1) == 1);
    CHECK_THROWS_WITH(open(4, 2), Catch::Contains("not a table this reader knows"));
    CHECK_THROWS_WITH(open(5, 3), Catch::Contains("not a table this reader knows"));
    CHECK_THROWS_WITH(open(5, 0), Catch::Contains("not a table this reader knows"));
    fs::remove_all(dir);
}

TEST_CASE("Both index schemes occur among the 4-men tables", "[gen]") {
    // The generator writes each ending in the scheme that compresses smaller (KRvKN's DTM 9 %
    // smaller in scheme 2, KRvKP's 7 % in scheme 1: docs/format.md), so the tests that read the
    // 4-men tables (the golden digests, recorded in scheme 1, and the probes by position) read
    // both.
    const Tablebase tables(test::tables_up_to_4_men());
    int schemes[3] = {};
    for (const Material& m : all_materials(4)) ++schemes[tables.table(m)->index().scheme()];
    CHECK(schemes[Index::kSchemeNameOrder] > 0);
    CHECK(schemes[Index::kSchemeWeakerFirst] > 0);
}

TEST_CASE(
    "Distances to mate agree with fairy-stockfish's mate proofs (count off)", "[gen][oracle]") {
    const Tablebase tables(test::tables_up_to_4_men());
    test::Engine engine(test::engine_path());
    engine.count_off(); // pure DTM

    test::Rng rng(99);
    int proofs = 0, draws = 0;
    for (const char* name :
        { "KRvK", "KSSvK", "KSMvK", "KNMvK", "KRvKM", "KRvKN", "KSvKM", "KRvKS" }) {
        const Material m = test::material(name);
        const Index index(m);
        for (int n = 0; n < 30;) {
            Position pos = test::random_position_of(rng, index);
            const Value ours = *tables.probe(pos);
            // Favour short mates, which the engine can prove within its node budget.
            if ((ours.is_draw() || std::abs(ours.mate_in_moves()) > 12) && rng() % 3) continue;
            ++n;
            const std::optional<int> score = engine.mate_score(pos.fen(), 150000);
            const int mate = score.value_or(0);
            const bool proved = score.has_value();
            INFO(name << " " << pos.fen() << ": ours " << describe(ours) << ", engine mate "
                      << mate);
            if (ours.is_draw()) ++draws;
            if (!proved) continue;
            ++proofs;
            // A proof of mate in M: our distance is at most M, for the same side.
            REQUIRE_FALSE(ours.is_draw());
            if (mate > 0) {
                REQUIRE(ours.is_win());
                REQUIRE(ours.mate_in_moves() <= mate);
            } else {
                REQUIRE(ours.is_loss());
                REQUIRE(-ours.mate_in_moves() <= -mate);
            }
        }
    }
    CHECK(proofs >= 40); // the comparison must not be vacuous
    CHECK(draws >= 10);
}

TEST_CASE("A version 3 table (every metric plain) is still read, with today's values", "[gen]") {
    // tests/golden/v3/KMPvK.mktb was written by the generator of format 3 (before the Bia-phase
    // metric was coded against DTM); today's tables must give every position the same values.
    const Material m = test::material("KMPvK");
    const Tablebase v3(MKTB_GOLDEN_V3_TABLES), now(test::tables_up_to_4_men());
    const Table* a = v3.table(m);
    const Table* b = now.table(m);
    REQUIRE(a);
    REQUIRE(b);
    REQUIRE(a->has(Metric::Bia));
    std::uint64_t positions = 0, wins = 0;
    for (std::uint64_t i = 0; i < a->index().size(); ++i) {
        Position pos;
        if (!a->index().decode(i, pos)) continue;
        for (Color c : { WHITE, BLACK }) {
            if (pos.attacked_by(c, pos.king_square(~c), pos.pieces())) continue; // no position
            // Today's file may name the position by another slot (index scheme 2).
            const std::uint64_t j = b->index().encode(pos);
            const Value dtm = a->value(Metric::Dtm, c, i), bia = a->value(Metric::Bia, c, i);
            if (dtm != b->value(Metric::Dtm, c, j) || bia != b->value(Metric::Bia, c, j))
                FAIL("KMPvK slot " << i << " differs");
            ++positions;
            wins += dtm.is_win();
        }
    }
    CHECK(positions > 100000);
    CHECK(wins > 1000); // real values, not only draws
    // (Its Bia-phase values equal DTM's on every position; the endings where they differ, such
    // as KRPvK, are covered by the golden digests, which read today's XOR-coded files.)
}

TEST_CASE("A metric coded against DTM reads back exactly, with 1- and 2-byte cells", "[format]") {
    const Material m = test::material("KPvK");
    const std::uint64_t n = Index(m).size();
    for (auto [dtmBytes, biaBytes] : { std::pair { 1, 1 }, { 1, 2 }, { 2, 2 }, { 2, 1 } }) {
        const std::string dir = test::temp_dir("xor" + std::to_string(dtmBytes * 10 + biaBytes));
        // Cells of `bytes` bytes, little-endian; the Bia-phase values equal DTM's but at every
        // 16th slot, as they mostly do, so that the writer chooses to code them against DTM.
        auto cell = [&](int metric, Color c, std::uint64_t i) -> unsigned {
            const unsigned top = dtmBytes == 1 || biaBytes == 1 ? 255 : 700; // fits both widths
            // Scattered (a multiplicative hash), so that no zstd level finds the plain cells
            // smaller than their XOR with DTM.
            const unsigned dtm = unsigned(((i * 0x9E3779B97F4A7C15ULL >> 40) + unsigned(c)) % top);
            if (metric == 0 || i % 16) return dtm;
            return unsigned((i * 13) % (biaBytes == 1 ? 255 : 900));
        };
        std::vector<std::uint8_t> store[2][COLOR_NB];
        std::span<const std::uint8_t> spans[2][COLOR_NB];
        for (int k : { 0, 1 })
            for (Color c : { WHITE, BLACK }) {
                const int bytes = k ? biaBytes : dtmBytes;
                for (std::uint64_t i = 0; i < n; ++i)
                    for (int b = 0; b < bytes; ++b)
                        store[k][c].push_back(std::uint8_t(cell(k, c, i) >> (8 * b)));
                spans[k][c] = store[k][c];
            }
        // Every 5th slot of every other word of 64 is "don't care" (its value is not asked
        // below): the writer copies a word with none whole, and codes the others slot by slot.
        auto dont_care = [](std::uint64_t i) { return i % 5 == 0 && (i / 64) % 2 == 0; };
        TableWriter::DontCare dontCare;
        for (Color c : { WHITE, BLACK }) {
            dontCare[c].assign((n + 63) / 64, 0);
            for (std::uint64_t i = 0; i < n; ++i)
                if (dont_care(i)) dontCare[c][i / 64] |= 1ULL << (i % 64);
        }
        TableWriter w(m, 0, table_path(dir, m), 2);
        w.add(Metric::Dtm, dtmBytes, spans[0], dontCare);
        w.add(Metric::Bia, biaBytes, spans[1], dontCare, spans[0], dtmBytes);
        w.commit();
        const Tablebase tb(dir);
        const Table& t = *tb.table(m);
        CHECK(t.coding(Metric::Dtm) == Coding::Plain);
        CHECK(t.coding(Metric::Bia) == Coding::XorDtm);
        // Probed through the cache; then with only White's Bia-phase cells resident (their XOR
        // undone without DTM's resident), the rest probed; then all resident.
        for (const char* stage : { "probed", "one part resident", "resident" }) {
            if (stage[0] == 'o') t.make_resident(Table::part(Metric::Bia, WHITE));
            if (stage[0] == 'r') t.make_resident();
            for (Color c : { WHITE, BLACK })
                for (std::uint64_t i = 0; i < n; ++i)
                    if (!dont_care(i)
                        && (t.value(Metric::Dtm, c, i).cell() != cell(0, c, i)
                            || t.value(Metric::Bia, c, i).cell() != cell(1, c, i)))
                        FAIL("widths " << dtmBytes << "/" << biaBytes << ", slot " << i << ", "
                                       << stage);
        }
        fs::remove_all(dir);
    }
    // Misuse is refused, and a writer given up leaves no file: DTM coded against itself, metrics
    // out of order or more than announced, a commit before every metric is in.
    const std::string dir = test::temp_dir("writer-misuse");
    const std::string path = table_path(dir, m);
    std::vector<std::uint8_t> one(n);
    std::span<const std::uint8_t> narrow[COLOR_NB] = { one, one };
    {
        TableWriter w(m, 0, path, 2);
        CHECK(fs::exists(path + ".tmp"));
        CHECK_THROWS_AS(w.add(Metric::Dtm, 1, narrow, {}, narrow, 1), TableError);
        CHECK_THROWS_AS(w.commit(), TableError);
        w.add(Metric::Bia, 1, narrow, {});
        CHECK_THROWS_AS(w.add(Metric::Dtm, 1, narrow, {}), TableError);
    }
    {
        TableWriter w(m, 0, path, 1);
        w.add(Metric::Dtm, 1, narrow, {});
        CHECK_THROWS_AS(w.add(Metric::Bia, 1, narrow, {}), TableError);
    }
    CHECK(fs::is_empty(dir));
    fs::remove_all(dir);
}

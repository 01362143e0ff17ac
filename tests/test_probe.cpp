// test_probe.cpp - the probing API (mktb/probe.hpp, mktb/probe.h): answers under many threads
// with a cache small enough to evict all the time agree with one thread's; errors are codes;
// the moves that keep a counted win are the hand-checked ones; packed tables (one side to move,
// the other searched) answer as the full ones, and refuse what needs the full table.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <thread>

#include "huge_array.hpp"
#include "mktb/movegen.hpp"
#include "mktb/probe.h"
#include "mktb/probe.hpp"
#include "support/random_positions.hpp"
#include "support/tables.hpp"
#include "table_writer.hpp"
#include "tablebase.hpp"

using namespace mktb;

namespace {

// Every 4-men table and the smaller ones, packed (mktb pack) into a directory of this process.
const std::string& packed_4_men() {
    static const std::string dir = [] {
        const std::string d = test::temp_dir("packed");
        // Removed at exit, after this static is gone: its name made again from the process's.
        std::atexit([] {
            std::filesystem::remove_all(std::filesystem::temp_directory_path()
                / ("mktb-test-packed-" + std::to_string(getpid())));
        });
        for (const Material& m : all_materials(4))
            pack_table(table_path(test::tables_up_to_4_men(), m), table_path(d, m), m);
        return d;
    }();
    return dir;
}

std::vector<char> file_bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return { std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>() };
}

void write_file(const std::string& path, const std::vector<char>& bytes) {
    std::ofstream(path, std::ios::binary | std::ios::trunc)
        .write(bytes.data(), std::streamsize(bytes.size()));
}

struct Answer {
    Value pure;
    CountedValue counted;
    bool operator==(const Answer& o) const {
        return pure == o.pure && counted.result == o.counted.result
            && counted.moves_needed == o.counted.moves_needed
            && counted.moves_available == o.counted.moves_available;
    }
};

// Random legal positions of several endings, each with a random count state where one runs.
std::vector<Position> sample_positions(int perEnding) {
    test::Rng rng(5);
    std::vector<Position> out;
    for (const char* name : { "KRvK", "KSMvK", "KRvKM", "KSPvK", "KNvKP", "KRvKN", "KMMvK" }) {
        const Index index(test::material(name));
        for (int k = 0; k < perEnding; ++k) {
            Position pos = test::random_position_of(rng, index);
            const CountState fresh = fresh_count(pos, {});
            // Plies played two at a time: under pieces' honour the ply's parity is the side to
            // move's (count_error), so a state of one ply more would not be a real one.
            if (fresh.limit)
                pos.set_count_state(
                    { fresh.limit, fresh.ply + 2 * int(rng() % std::uint64_t(fresh.limit / 4)) });
            out.push_back(pos);
        }
    }
    return out;
}

} // namespace

TEST_CASE("Values order as the rules say, and their preference converts back", "[probe]") {
    // Minimax distance to mate: any win beats a draw beats any loss; the winner takes the
    // fastest mate, the loser delays it longest.
    const std::vector<Value> worst_to_best = { Value::mate_in_plies(0), Value::mate_in_plies(2),
        Value::mate_in_plies(300), Value::draw(), Value::mate_in_plies(301),
        Value::mate_in_plies(3), Value::mate_in_plies(1) };
    for (std::size_t i = 0; i + 1 < worst_to_best.size(); ++i) {
        CHECK(better(worst_to_best[i + 1], worst_to_best[i]));
        CHECK_FALSE(better(worst_to_best[i], worst_to_best[i + 1]));
        CHECK(preference(worst_to_best[i + 1]) > preference(worst_to_best[i]));
    }
    CHECK(from_preference(preference(Value::draw())) == Value::draw());
    for (int plies = 0; plies < 0x10000; ++plies)
        REQUIRE(from_preference(preference(Value::mate_in_plies(plies)))
            == Value::mate_in_plies(plies));
}

// This process's resident memory (VmRSS), in bytes.
static std::size_t resident_bytes() {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
        if (line.rfind("VmRSS:", 0) == 0) return std::stoull(line.substr(6)) * 1024;
    return 0;
}

TEST_CASE("Huge arrays are whole, huge-page aligned, and give their memory back", "[probe]") {
    constexpr std::size_t kHuge = 2 << 20;
    for (const std::size_t n :
        { std::size_t(0), std::size_t(1000), 2 * kHuge - 1, 2 * kHuge, 5 * kHuge + 1 }) {
        HugeArray<std::uint8_t> a = make_huge_array<std::uint8_t>(n);
        REQUIRE(a);
        if (n >= 2 * kHuge) { // mapped alone, whole huge pages
            CHECK(reinterpret_cast<std::uintptr_t>(a.get()) % kHuge == 0);
            CHECK(a.get_deleter().mapped == (n + kHuge - 1) / kHuge * kHuge);
        } else
            CHECK(a.get_deleter().mapped == 0);
        for (std::size_t i = 0; i < n; ++i) a[i] = std::uint8_t(i * 7);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < n; ++i) wrong += a[i] != std::uint8_t(i * 7);
        CHECK(wrong == 0);
    }
    // Arrays of many sizes made, written and dropped in turn (as a verifier's tables are): what
    // stays resident afterwards is far less than what they held together (1.3 GB).
    const std::size_t before = resident_bytes();
    for (int k = 0; k < 40; ++k) {
        const std::size_t n = std::size_t(4 + k % 13 * 5) << 20;
        HugeArray<std::uint8_t> a = make_huge_array<std::uint8_t>(n);
        std::memset(a.get(), 1, n);
    }
    CHECK(resident_bytes() < before + (64u << 20));
}

TEST_CASE("Probes from several threads agree with one thread's, through evictions",
    "[probe][threads][gen]") {
    const std::vector<Position> positions = sample_positions(300);
    const Prober reference(test::tables_up_to_4_men());
    std::vector<Answer> expected;
    for (const Position& pos : positions)
        expected.push_back({ *reference.dtm(pos), *reference.counted(pos) });

    // 1 MiB holds 64 blocks only: threads keep evicting what others read.
    const Prober shared(test::tables_up_to_4_men(), { 1 << 20, {} });
    mktb_tablebase* tb = nullptr;
    const mktb_options options { sizeof(mktb_options), 0, 1 << 20, 0 };
    REQUIRE(mktb_open(test::tables_up_to_4_men().c_str(), &options, &tb) == MKTB_OK);
    constexpr int kThreads = 4;
    std::vector<int> mismatches(kThreads, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            for (int round = 0; round < 3; ++round)
                for (std::size_t k = 0; k < positions.size(); ++k) {
                    // Each thread walks the positions in its own order.
                    const std::size_t i
                        = (k * (2 * t + 1) + std::size_t(t) * 97) % positions.size();
                    const Answer got { *shared.dtm(positions[i]), *shared.counted(positions[i]) };
                    mismatches[t] += !(got == expected[i]);
                    mktb_position c;
                    mktb_dtm dtm;
                    mktb_counted counted;
                    const std::string fen = positions[i].fen();
                    if (mktb_position_from_fen(fen.c_str(), &c) != MKTB_OK
                        || mktb_probe_dtm(tb, &c, &dtm) != MKTB_OK
                        || mktb_probe_counted(tb, &c, &counted) != MKTB_OK
                        || dtm.plies != (expected[i].pure.is_draw() ? -1 : expected[i].pure.plies)
                        || counted.wdl != int(expected[i].counted.result)
                        || counted.moves_needed != expected[i].counted.moves_needed)
                        ++mismatches[t];
                }
        });
    for (std::thread& th : threads) th.join();
    mktb_close(tb);
    for (int t = 0; t < kThreads; ++t) CHECK(mismatches[t] == 0);
    // Blocks were evicted and read again, and some probes found theirs in the cache.
    const std::uint64_t probes = std::uint64_t(kThreads) * 3 * 2 * positions.size();
    CHECK(shared.cache_misses() > 1000);
    CHECK(shared.cache_misses() < probes);
}

TEST_CASE("The moves that keep a counted win are the hand-checked ones", "[probe][gen]") {
    const Prober prober(test::tables_up_to_4_men());
    // One White move left in the board count: only Rxa2+, which bares Black and starts a fresh
    // pieces' honour count, keeps the win; every other move lets the count run out.
    const Position pos = Position::from_fen("k7/8/8/8/8/8/m7/R3K3 w - 128 128 1");
    const std::vector<Move> counted = *prober.best_moves(pos, View::Counted);
    REQUIRE(counted.size() == 1);
    CHECK(move_to_uci(counted[0]) == "a1a2");
    CHECK(prober.counted_wdl(pos) == Wdl::Win);
    CHECK(prober.wdl(pos) == Wdl::Win);
    const std::vector<RankedMove> ranked = *prober.rank_root(pos);
    CHECK(int(ranked.size()) == legal_moves(pos).size);
    CHECK(ranked.front().move == counted[0]);
    for (std::size_t i = 1; i < ranked.size(); ++i)
        CHECK(ranked[i].counted.result == CountedValue::Result::Draw);
    // The pure view keeps every fastest mate: all of them are wins of the same length.
    const std::vector<Move> pure = *prober.best_moves(pos, View::Pure);
    REQUIRE(!pure.empty());
    for (const RankedMove& r : ranked)
        if (std::find(pure.begin(), pure.end(), r.move) != pure.end())
            CHECK(r.pure == *prober.dtm(pos)); // the best move attains the value
}

TEST_CASE("The C API reports damaged tables and other rule options as codes", "[probe][gen]") {
    const std::string dir = test::temp_dir("capi");
    const Material m = test::material("KRvKM");
    for (const char* name : { "KRvKM", "KRvK", "KMvK" })
        std::filesystem::copy_file(table_path(test::tables_up_to_4_men(), test::material(name)),
            table_path(dir, test::material(name)));
    mktb_position pos;
    REQUIRE(mktb_position_from_fen("k7/8/8/8/8/8/m7/R3K3 w - 128 128 1", &pos) == MKTB_OK);
    mktb_tablebase* tb = nullptr;
    const mktb_options other { sizeof(mktb_options), MKTB_RULE_BOARD_HONOUR_OFF, 0, 0 };
    REQUIRE(mktb_open(dir.c_str(), &other, &tb) == MKTB_OK);
    mktb_counted c;
    mktb_wdl wdl;
    CHECK(mktb_probe_counted(tb, &pos, &c) == MKTB_RULES_MISMATCH);
    CHECK(
        std::string(mktb_last_error()).find("board_honour=first_opportunity") != std::string::npos);
    CHECK(mktb_probe_wdl(tb, &pos, &wdl) == MKTB_OK); // the pure value follows no option
    mktb_close(tb);

    // Every byte of the file's blocks damaged: every probe is refused.
    {
        const std::string path = table_path(dir, m);
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekg(0, std::ios::end);
        const std::streamoff size = f.tellg();
        for (std::streamoff at = 4096; at < size - 8; at += 64) {
            f.seekp(at);
            f.put('\x5a');
        }
    }
    REQUIRE(mktb_open(dir.c_str(), nullptr, &tb) == MKTB_OK);
    CHECK(mktb_probe_wdl(tb, &pos, &wdl) == MKTB_DAMAGED);
    CHECK(std::string(mktb_last_error()).find("KRvKM.mktb") != std::string::npos);
    mktb_close(tb);
    const mktb_options unknown { sizeof(mktb_options), 1u << 20, 0, 0 };
    CHECK(mktb_open(dir.c_str(), &unknown, &tb) == MKTB_BAD_ARGUMENT);
    std::filesystem::remove_all(dir);
}

TEST_CASE("A table changed under its reader is refused, never answered wrong, and read again "
          "once whole",
    "[probe][gen]") {
    // The file is read, not mapped: with a map, a probe of a block past the new end of a
    // truncated file killed the process with SIGBUS.
    const std::string dir = test::temp_dir("changed");
    const Material m = test::material("KRvKM");
    for (const char* name : { "KRvKM", "KRvK", "KMvK" })
        std::filesystem::copy_file(table_path(test::tables_up_to_4_men(), test::material(name)),
            table_path(dir, test::material(name)));
    const std::string path = table_path(dir, m);
    const std::vector<char> whole = file_bytes(path);
    test::Rng rng(11);
    const Index index(m);
    std::vector<Position> positions;
    for (int k = 0; k < 3000; ++k) positions.push_back(test::random_position_of(rng, index));
    const Prober reference(test::tables_up_to_4_men());
    std::vector<Value> expected;
    for (const Position& pos : positions) expected.push_back(*reference.dtm(pos));
    // The cache holds 4 blocks: nearly every probe reads the file.
    const Prober prober(dir, { 4 << 14, {} });
    mktb_tablebase* tb = nullptr;
    const mktb_options options { sizeof(mktb_options), 0, 4 << 14, 0 };
    REQUIRE(mktb_open(dir.c_str(), &options, &tb) == MKTB_OK);
    // Each position answered as the reference does, refused (TableError, MKTB_DAMAGED), or
    // (`absent_ok`) absent; counted in `seen`.
    struct Seen {
        int right = 0, refused = 0, absent = 0, wrong = 0;
    };
    auto probe_all = [&](bool absent_ok) {
        Seen seen;
        for (std::size_t i = 0; i < positions.size(); ++i) {
            try {
                const std::optional<Value> v = prober.dtm(positions[i]);
                if (!v && absent_ok)
                    ++seen.absent;
                else
                    ++(v && *v == expected[i] ? seen.right : seen.wrong);
            } catch (const TableError& e) {
                ++seen.refused;
                CHECK(std::string(e.what()).find("KRvKM.mktb") != std::string::npos);
            }
            mktb_position c;
            mktb_dtm dtm;
            REQUIRE(mktb_position_from_fen(positions[i].fen().c_str(), &c) == MKTB_OK);
            const mktb_status status = mktb_probe_dtm(tb, &c, &dtm);
            if (status == MKTB_OK)
                seen.wrong += dtm.plies != (expected[i].is_draw() ? -1 : expected[i].plies);
            else
                seen.wrong += status != MKTB_DAMAGED && !(absent_ok && status == MKTB_NO_TABLE);
        }
        return seen;
    };
    Seen seen = probe_all(false);
    CHECK(seen.right == int(positions.size()));
    SECTION("truncated, then whole again") {
        std::filesystem::resize_file(path, 2000);
        seen = probe_all(false);
        CHECK(seen.wrong == 0);
        CHECK(seen.refused > 0);
        write_file(path, whole);
        seen = probe_all(false);
        CHECK(seen.right == int(positions.size()));
    }
    SECTION("overwritten in place by another ending's table") {
        write_file(
            path, file_bytes(table_path(test::tables_up_to_4_men(), test::material("KRvKN"))));
        seen = probe_all(false);
        CHECK(seen.wrong == 0);
        CHECK(seen.refused > 0);
    }
    SECTION("deleted, its directory too") {
        std::filesystem::remove_all(dir);
        seen = probe_all(true);
        CHECK(seen.wrong == 0);
        CHECK(seen.absent > 0);
    }
    mktb_close(tb);
    std::filesystem::remove_all(dir);
}

TEST_CASE("A huge cache asked for costs memory only as it fills", "[probe][gen]") {
    // 1 TiB: its sets once took 2 GB and 2.5 s at open (two caches of 1 GiB of sets, zeroed).
    auto resident = [] {
        long pages = 0, rss = 0;
        std::ifstream("/proc/self/statm") >> pages >> rss;
        return std::uint64_t(rss) * std::uint64_t(sysconf(_SC_PAGESIZE));
    };
    const std::uint64_t before = resident();
    mktb_tablebase* tb = nullptr;
    const mktb_options options { sizeof(mktb_options), 0, std::uint64_t(1) << 40, 0 };
    REQUIRE(mktb_open(test::tables_up_to_4_men().c_str(), &options, &tb) == MKTB_OK);
    mktb_position pos;
    REQUIRE(mktb_position_from_fen("k7/8/1K6/8/8/8/8/7R w - - 0 1", &pos) == MKTB_OK);
    mktb_dtm dtm;
    REQUIRE(mktb_probe_dtm(tb, &pos, &dtm) == MKTB_OK);
    CHECK(dtm.plies == 1); // Rh8 mates
    CHECK(resident() - before < (std::uint64_t(64) << 20));
    mktb_close(tb);
}

TEST_CASE("Packed tables answer a third of the positions up to 4 men as the full ones",
    "[probe][pack][gen]") {
    // A packed table keeps one side to move; a probe of the other searches one ply, through the
    // smaller tables for conversions (themselves packed). The legal positions of every third
    // slot of every ending up to 4 men (every slot took CI two minutes), both sides to move,
    // compared with the full tables' values: DTM, and the answer under a count too long to cut
    // anything short, which is each counted metric's distance (pieces' honour reads DTM;
    // board's honour and the Bia phase their own metric).
    const Tablebase full(test::tables_up_to_4_men(), Tablebase::kDefaultCacheBytes, true);
    const Tablebase packed(packed_4_men(), Tablebase::kDefaultCacheBytes, true);
    const CountState unbounded { 1 << 20, 0 };
    std::atomic<std::uint64_t> compared { 0 }, restored { 0 }, mismatches { 0 };
    std::mutex mutex;
    std::vector<std::string> differ; // the first few positions that differ
    for (const Material& m : all_materials(4)) {
        const Table& f = *full.table(m);
        const Table& p = *packed.table(m);
        REQUIRE(p.packed());
        CHECK(p.stores(WHITE) != p.stores(BLACK));
        CHECK(p.index().scheme() == f.index().scheme());
        f.make_resident();
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, f.index().size(), 1 << 12),
            [&](const tbb::blocked_range<std::uint64_t>& r) {
                for (std::uint64_t i = r.begin(); i < r.end(); ++i) {
                    Position pos;
                    if (i % 3 || !f.index().decode(i, pos)) continue;
                    for (Color c : { WHITE, BLACK }) {
                        if (pos.attacked_by(c, pos.king_square(~c), pos.pieces())) continue;
                        pos.set_side_to_move(c);
                        ++compared;
                        restored += !p.stores(c);
                        const CountedValue a = *full.probe_counted(pos, unbounded, {});
                        const CountedValue b = *packed.probe_counted(pos, unbounded, {});
                        if (*packed.probe(pos) == f.value(Metric::Dtm, c, i) && a.result == b.result
                            && a.moves_needed == b.moves_needed
                            && a.moves_available == b.moves_available)
                            continue;
                        if (++mismatches <= 5) {
                            std::lock_guard lock(mutex); // Catch's macros are not thread-safe
                            differ.push_back(m.name() + ": " + pos.fen());
                        }
                    }
                }
            });
    }
    for (const std::string& d : differ) WARN(d);
    CHECK(mismatches == 0);
    CHECK(restored > compared / 4);
    // The probing API on top: every move of a sample ranked alike, the C API alike.
    const Prober a(test::tables_up_to_4_men()), b(packed_4_men());
    mktb_tablebase* tb = nullptr;
    REQUIRE(mktb_open(packed_4_men().c_str(), nullptr, &tb) == MKTB_OK);
    for (const Position& pos : sample_positions(20)) {
        const std::vector<RankedMove> x = *a.rank_root(pos), y = *b.rank_root(pos);
        REQUIRE(x.size() == y.size());
        for (std::size_t k = 0; k < x.size(); ++k) {
            CHECK(x[k].move == y[k].move);
            CHECK(x[k].pure == y[k].pure);
            CHECK(x[k].counted.result == y[k].counted.result);
            CHECK(x[k].counted.moves_needed == y[k].counted.moves_needed);
        }
        mktb_position c;
        mktb_dtm dtm;
        REQUIRE(mktb_position_from_fen(pos.fen().c_str(), &c) == MKTB_OK);
        REQUIRE(mktb_probe_dtm(tb, &c, &dtm) == MKTB_OK);
        const Value v = *a.dtm(pos);
        CHECK(dtm.plies == (v.is_draw() ? -1 : v.plies));
    }
    mktb_close(tb);
}

TEST_CASE("A packed table refuses what needs the full table, and damaged tables are not packed",
    "[probe][pack][gen]") {
    namespace fs = std::filesystem;
    const Material m = test::material("KRvKM");
    const std::string fullPath = table_path(test::tables_up_to_4_men(), m);
    const std::string packedPath = table_path(packed_4_men(), m);
    {
        const Tablebase packed(packed_4_men());
        const Table& t = *packed.table(m);
        const Color lacking = t.stores(WHITE) ? BLACK : WHITE;
        CHECK_THROWS_WITH(t.value(Metric::Dtm, lacking, 0), Catch::Contains("a packed table"));
        CHECK_THROWS_WITH(t.make_resident(), Catch::Contains("a packed table"));
        std::string report;
        CHECK_THROWS_WITH(verify(m, packed, &report), Catch::Contains("a packed table"));
    }
    const std::string dir = test::temp_dir("pack-errors");
    const std::string out = table_path(dir, m);
    CHECK_THROWS_WITH(pack_table(packedPath, out, m), Catch::Contains("packed already"));
    // A byte of a block damaged: the whole file's checksum refuses it, and nothing is written.
    fs::create_directories(dir + "/damaged");
    const std::string damaged = table_path(dir + "/damaged", m);
    std::vector<char> bytes = file_bytes(fullPath);
    bytes[bytes.size() - 100] ^= 0x40;
    write_file(damaged, bytes);
    CHECK_THROWS_WITH(pack_table(damaged, out, m), Catch::Contains("checksum mismatch"));
    CHECK(!fs::exists(out));
    CHECK(!fs::exists(out + ".tmp"));
    CHECK_THROWS_WITH(pack_table(fullPath, dir + "/no/such/KRvKM.mktb", m),
        Catch::Contains("cannot create " + dir + "/no/such/KRvKM.mktb.tmp"));
    // A packed file damaged in a block: that block is refused when it is read, never answered.
    bytes = file_bytes(packedPath);
    std::uint64_t firstBlock; // the first block's offset: the header and block index stay whole
    std::memcpy(&firstBlock, bytes.data() + sizeof(TableHeader), sizeof firstBlock);
    for (std::size_t at = firstBlock; at + 8 < bytes.size(); at += 64) bytes[at] ^= 0x5a;
    write_file(damaged, bytes);
    const Tablebase tables(dir + "/damaged");
    const Table& t = *tables.table(m);
    const Color kept = t.stores(WHITE) ? WHITE : BLACK;
    int refused = 0;
    for (std::uint64_t i = 0; i < t.index().size(); i += kBlockCells) try {
            (void)t.value(Metric::Dtm, kept, i);
        } catch (const TableError& e) {
            CHECK_THAT(e.what(), Catch::Contains("is damaged"));
            ++refused;
        }
    CHECK(refused > 0);
    fs::remove_all(dir);
}

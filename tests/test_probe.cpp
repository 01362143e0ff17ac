// test_probe.cpp - the probing API (mktb/probe.hpp, mktb/probe.h): answers under many threads
// with a cache small enough to evict all the time agree with one thread's; errors are codes;
// the moves that keep a counted win are the hand-checked ones.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <thread>

#include "mktb/movegen.hpp"
#include "mktb/probe.h"
#include "mktb/probe.hpp"
#include "support/random_positions.hpp"
#include "support/tables.hpp"

using namespace mktb;

namespace {

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
            if (fresh.limit)
                pos.set_count_state(
                    { fresh.limit, fresh.ply + int(rng() % std::uint64_t(fresh.limit / 2)) });
            out.push_back(pos);
        }
    }
    return out;
}

} // namespace

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
    const mktb_options options { sizeof(mktb_options), 0, 1 << 20 };
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
    CHECK(shared.tables().cache_misses() > 1000);
    CHECK(shared.tables().cache_misses() < probes);
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
    const mktb_options other { sizeof(mktb_options), MKTB_RULE_BOARD_HONOUR_OFF, 0 };
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
    const mktb_options unknown { sizeof(mktb_options), 1u << 20, 0 };
    CHECK(mktb_open(dir.c_str(), &unknown, &tb) == MKTB_BAD_ARGUMENT);
    std::filesystem::remove_all(dir);
}

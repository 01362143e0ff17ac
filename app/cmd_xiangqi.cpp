// cmd_xiangqi.cpp - `mktb gen --game xiangqi` and `mktb verify --game xiangqi`: Xiangqi's endings
// through the same commands, options and table writer as Makruk's (the generator is
// gen/xiangqi/, the reader probe/xiangqi_tables.hpp).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <tbb/global_control.h>

#include "cli.hpp"
#include "table_writer.hpp"
#include "writing.hpp"
#include "xiangqi/generate.hpp"
#include "xiangqi_commands.hpp"

namespace mktb::cli {

namespace {

using mktb::BLACK;
using xq::Material, xq::RED;

// The endings of a named set, each side's defenders up to two advisors and two elephants:
//   one-attacker   K + one chariot, horse, cannon or soldier against K (324 endings);
//   two-attackers  K + two attackers against K (10 pairs: 810 endings, Felicity's count);
//   armed          both sides armed, the pairs of docs/rules-xiangqi.md §5: chariot against
//                  horse, cannon or soldier, horse or cannon against soldier, chariot and
//                  soldier against chariot (486 endings);
//   armless        both sides without attackers (81, or 45 up to colours).
const char* const kSets = "one-attacker, two-attackers, armed or armless";

std::optional<std::vector<Material>> named_set(const std::string& name) {
    using xq::CHARIOT, xq::HORSE, xq::CANNON, xq::SOLDIER;
    using Men = std::vector<xq::PieceType>;
    std::vector<std::pair<Men, Men>> attackers; // Red's and Black's
    if (name == "armless")
        attackers = { { {}, {} } };
    else if (name == "one-attacker")
        for (auto pt : { CHARIOT, HORSE, CANNON, SOLDIER }) attackers.push_back({ { pt }, {} });
    else if (name == "two-attackers") {
        const xq::PieceType kinds[] = { CHARIOT, HORSE, CANNON, SOLDIER };
        for (int i = 0; i < 4; ++i)
            for (int j = i; j < 4; ++j) attackers.push_back({ { kinds[i], kinds[j] }, {} });
    } else if (name == "armed")
        attackers = { { { CHARIOT }, { HORSE } }, { { CHARIOT }, { CANNON } },
            { { CHARIOT }, { SOLDIER } }, { { HORSE }, { SOLDIER } }, { { CANNON }, { SOLDIER } },
            { { CHARIOT, SOLDIER }, { CHARIOT } } };
    else
        return std::nullopt;
    std::vector<Material> out;
    for (const auto& [red, black] : attackers)
        for (int defenders = 0; defenders < 81; ++defenders) {
            Material m;
            const int d[4]
                = { defenders % 3, defenders / 3 % 3, defenders / 9 % 3, defenders / 27 };
            for (Color c : { RED, BLACK }) {
                m.count[c][xq::KING] = 1;
                m.count[c][xq::ADVISOR] = std::uint8_t(d[2 * c]);
                m.count[c][xq::ELEPHANT] = std::uint8_t(d[2 * c + 1]);
            }
            for (auto pt : red) ++m.count[RED][pt];
            for (auto pt : black) ++m.count[BLACK][pt];
            const Material canonical = m.canonical();
            if (std::find(out.begin(), out.end(), canonical) == out.end()) out.push_back(canonical);
        }
    return out;
}

struct XOptions {
    std::string tables;
    xq::RuleSet rules = xq::kDefaultRuleSet; // --rules
    bool keepOtherRules = false;
    std::vector<Material> endings;
    std::uint64_t memory = 0;
    std::unique_ptr<tbb::global_control> threads;
};

bool read_x(const Args& a, XOptions& o) {
    const std::string cmd(a.command().name);
    const auto& table = a.command().options;
    const auto offers = [&](std::string_view name) {
        return std::any_of(
            table.begin(), table.end(), [&](const Option& x) { return x.name == name; });
    };
    o.tables = a.tables();
    o.memory = offers("--memory") ? a.bytes("--memory", 0) : 0;
    if (offers("--threads") && a.has("--threads"))
        o.threads = std::make_unique<tbb::global_control>(
            tbb::global_control::max_allowed_parallelism, std::size_t(a.number("--threads", 1)));
    if (const std::string e = offers("--rules") ? read_rule_set(a, &o.rules) : std::string();
        !e.empty()) {
        std::fprintf(stderr, "mktb %s: %s\n", cmd.c_str(), e.c_str());
        return false;
    }
    o.keepOtherRules = offers("--keep-other-rules") && a.flag("--keep-other-rules");
    for (const char* makrukOnly : { "--men" })
        if (offers(makrukOnly) && a.has(makrukOnly)) {
            std::fprintf(stderr, "mktb %s: %s is Makruk's; Xiangqi's sets (--set) are %s\n",
                cmd.c_str(), makrukOnly, kSets);
            return false;
        }
    if (a.has("--set")) {
        const auto set = named_set(a.text("--set"));
        if (!set) {
            std::fprintf(stderr, "mktb %s: --set takes %s, not '%s'\n", cmd.c_str(), kSets,
                a.text("--set").c_str());
            return false;
        }
        o.endings = *set;
    }
    for (const std::string& name : a.operands()) {
        const auto m = Material::parse(name);
        if (!m) {
            std::fprintf(stderr, "mktb %s: %s\n", cmd.c_str(), Material::parse_error(name).c_str());
            return false;
        }
        o.endings.push_back(m->canonical());
    }
    return true;
}

// Every ending asked for and every smaller one they convert into, smallest first.
std::vector<Material> build_order(const std::vector<Material>& endings) {
    std::map<std::pair<int, std::string>, Material> all;
    for (const Material& e : endings)
        for (const Material& m : xq::with_descendants(e))
            all.emplace(std::pair(m.men(), m.name()), m);
    std::vector<Material> out;
    for (const auto& [key, m] : all) out.push_back(m);
    return out;
}

std::string stats_path(const std::string& dir, const Material& m) {
    return (std::filesystem::path(dir) / (m.name() + ".xq.json")).string();
}

} // namespace

int xiangqi_gen(const Args& a, Ranks* ranks, int localRanks) {
    XOptions o;
    if (!read_x(a, o)) return kExitBadInput;
    if (o.endings.empty())
        return usage_error(a, std::string("give the endings, or --set with one of ") + kSets);
    // Over MPI: rank 0 prints, locks and writes; the ranks decide together from its answers.
    const bool speaks = !ranks || ranks->rank() == 0;
    const auto agree = [&](bool yes) {
        return ranks ? ranks->reduce(std::uint64_t(speaks && yes), Ranks::Op::Max) != 0 : yes;
    };
    const int n = ranks ? ranks->size() : 1;
    // An ending with both sides armed is made under check or asian by rank 0 alone (the rule
    // pass reads every cell); the others over every rank, each holding its share.
    const auto alone
        = [&](const Material& m) { return xq::has_rule_cells(xq::header_rule(m, o.rules)); };
    const auto need
        = [&](const Material& m) { return xq::memory_needed(m, alone(m) ? 1 : n, o.rules); };
    std::uint64_t allowed = o.memory ? o.memory : available_memory() / std::uint64_t(localRanks);
    if (ranks) allowed = ranks->reduce(allowed, Ranks::Op::Min); // the least any rank finds
    const std::string perRank = n > 1 ? " per rank on " + std::to_string(n) + " ranks" : "";
    if (a.has("--set") && !a.flag("--list") && allowed) {
        // A set is made as far as it fits: the rest is on paper (docs/xiangqi-sets.txt).
        const auto before = o.endings.size();
        std::erase_if(o.endings, [&](const Material& m) {
            return need(m) > allowed && !std::filesystem::exists(xq::table_path(o.tables, m));
        });
        if (o.endings.size() < before && speaks)
            std::fprintf(stderr,
                "mktb gen: %zu endings of the set need more than the %.2f GB allowed%s and are "
                "left out (docs/xiangqi-sets.txt plans them)\n",
                before - o.endings.size(), double(allowed) / 1e9, perRank.c_str());
    }
    const std::vector<Material> order = build_order(o.endings);
    if (a.flag("--list")) {
        if (!speaks) return kExitOk;
        // Where an ending does not fit, the fewest ranks of `allowed` bytes each it fits over
        // (mktb-mpi; none where both sides are armed: rank 0 makes those alone).
        const auto ranks_for = [&](const Material& m) {
            for (int r = 2; !alone(m) && r <= 4096; r *= 2)
                if (xq::memory_needed(m, r, o.rules) <= allowed) {
                    while (r > 2 && xq::memory_needed(m, r - 1, o.rules) <= allowed) --r;
                    return " over " + std::to_string(r) + " ranks";
                }
            return std::string();
        };
        std::uint64_t cells = 0;
        for (const Material& m : order) {
            const std::uint64_t size = xq::Index(m).size(), bytes = need(m);
            cells += size;
            const bool over = allowed && bytes > allowed;
            std::printf("%-14s %14llu cells %10.3f GB%s%s%s\n", m.name().c_str(),
                (unsigned long long)size, double(bytes) / 1e9,
                n > 1 && alone(m) ? "  on rank 0 alone" : "", over ? "  does not fit" : "",
                over ? ranks_for(m).c_str() : "");
        }
        std::fprintf(stderr, "%zu Xiangqi endings, %llu cells per side to move%s\n", order.size(),
            (unsigned long long)cells, n > 1 ? ", GB per rank" : "");
        return kExitOk;
    }
    // Memory known before it is spent: every ending checked before any starts.
    for (const Material& m : order)
        if (const std::uint64_t bytes = need(m);
            allowed && bytes > allowed && !std::filesystem::exists(xq::table_path(o.tables, m))) {
            if (speaks)
                std::fprintf(stderr,
                    "mktb gen: %s (Xiangqi) needs about %.2f GB%s, more than the %.2f GB "
                    "allowed; nothing was started\n",
                    m.name().c_str(), double(bytes) / 1e9,
                    alone(m) && n > 1 ? " on rank 0 alone" : perRank.c_str(),
                    double(allowed) / 1e9);
            return kExitFailure;
        }
    if (!agree(speaks ? create_tables_directory(o.tables) : true)) return kExitBadInput;
    Progress progress;
    Progress* shown = speaks ? &progress : nullptr;
    std::vector<double> work;
    for (const Material& m : order) work.push_back(double(xq::Index(m).size()));
    if (shown) progress.start_run(work);
    if (speaks) print_header(true);
    for (std::size_t k = 0; k < order.size(); ++k) {
        const Material& m = order[k];
        if (shown) progress.start_job(k);
        try {
            std::optional<DirectoryLock> lock;
            if (speaks) lock.emplace(o.tables);
            // On disk whole (resumed), unless it follows another rule set (one directory per
            // set: it is made again, saying so, or refused with --keep-other-rules), or is
            // packed, damaged or of an older format (made again, saying so).
            const std::string path = xq::table_path(o.tables, m);
            std::uint32_t found = 0;
            const OnDisk state = on_disk(path, Game::Xiangqi, xq::header_rule(m, o.rules), &found);
            if (agree(state == OnDisk::Current)) {
                if (shown) progress.skip_job(k);
                continue;
            }
            const char* why = state == OnDisk::Packed ? "is packed (one side to move)"
                : state == OnDisk::Damaged            ? "is damaged (its checksum does not hold)"
                : state == OnDisk::OldFormat          ? "is not a Xiangqi table of this format"
                : state == OnDisk::OtherRules && xq::follows(found, o.rules)
                ? "holds the rule's results without their distances"
                : nullptr;
            if (state == OnDisk::NotAFile)
                throw TableError(
                    path + " is not a regular file (a FIFO, a device or a directory?): remove it");
            if (speaks && why) {
                if (shown) progress.finish();
                std::fprintf(stderr, "mktb gen: %s in %s %s; generating it again\n",
                    m.name().c_str(), o.tables.c_str(), why);
            } else if (speaks && state == OnDisk::OtherRules) {
                const std::string other = m.name() + " in " + o.tables + " follows the rules "
                    + std::string(xq::rule_name(found));
                if (o.keepOtherRules)
                    throw RulesError(other
                        + "; not replaced (--keep-other-rules): use another "
                          "--tables directory");
                if (shown) progress.finish();
                std::fprintf(stderr, "mktb gen: %s; generating it again under %s\n", other.c_str(),
                    std::string(xq::rule_set(o.rules).name).c_str());
            }
            // A reader per ending: its block cache (the children read) is let go with it.
            const xq::Tablebase tables(
                o.tables, mktb::Tablebase::kDefaultCacheBytes, false, o.rules);
            const bool overRanks = n > 1 && !alone(m);
            TableStats s;
            if (speaks || overRanks)
                s = xq::generate(
                    m, tables, shown, xq::kZstdLevel, 0, false, overRanks ? ranks : nullptr);
            if (ranks) ranks->reduce(0, Ranks::Op::Max); // a barrier: the file is written
            if (shown) progress.finish();
            if (speaks) write_stats(s, stats_path(o.tables, m));
            std::fflush(stdout);
        } catch (const std::exception& e) {
            if (shown) progress.finish();
            std::fprintf(stderr, "mktb gen: %s\n", e.what());
            return kExitFailure;
        }
    }
    if (shown) progress.finish();
    return kExitOk;
}

int xiangqi_digest(const Args& a) {
    XOptions o;
    if (!read_x(a, o)) return kExitBadInput;
    if (o.endings.empty())
        return usage_error(a, std::string("give the endings, or --set with one of ") + kSets);
    for (const Material& m : o.endings) {
        try {
            // Per ending (its resident cells let go), each table read under its own rules.
            const xq::Tablebase tables(
                o.tables, mktb::Tablebase::kDefaultCacheBytes, false, std::nullopt);
            if (!tables.table(m)) {
                std::fprintf(stderr, "mktb digest: no Xiangqi table of %s in %s\n",
                    m.name().c_str(), o.tables.c_str());
                return kExitFailure;
            }
            std::printf("%s %s\n", m.name().c_str(), xq::digest(m, tables).c_str());
        } catch (const TableError& e) {
            std::fprintf(stderr, "mktb digest: %s\n", e.what());
            return kExitFailure;
        }
    }
    return kExitOk;
}

// As Makruk's pack: each ending and every ending it converts into, one side to move kept (the
// smaller); the probe of the other searches one ply (probe/xiangqi_tables.cpp).
int xiangqi_pack(const Args& a) {
    XOptions o;
    if (!read_x(a, o)) return kExitBadInput;
    const std::string out = a.text("--out");
    if (o.endings.empty() || out.empty())
        return usage_error(a, "give the endings (or --set NAME) and --out DIR");
    PackOptions pack;
    pack.block_cells = 16384; // a probe of the side searched touches a block per move
    pack.level = int(a.number("--level", pack.level));
    const long long cells = a.number("--block-cells", pack.block_cells);
    if (cells & (cells - 1)) {
        std::fprintf(stderr,
            "mktb pack: --block-cells takes a power of two from 256 to 16384, not '%lld'\n", cells);
        return kExitBadInput;
    }
    pack.block_cells = std::uint32_t(cells);
    if (!create_pack_directory(out, o.tables)) return kExitBadInput;
    const std::vector<Material> order = build_order(o.endings);
    for (const Material& m : order)
        if (!std::filesystem::exists(xq::table_path(o.tables, m))) {
            std::fprintf(stderr,
                "mktb pack: no Xiangqi table of %s in %s (generate it: mktb gen --game xiangqi "
                "%s)\n",
                m.name().c_str(), o.tables.c_str(), m.name().c_str());
            return kExitFailure;
        }
    std::uint64_t before = 0, after = 0;
    for (const Material& m : order) {
        try {
            const DirectoryLock lock(out);
            const std::string from = xq::table_path(o.tables, m), to = xq::table_path(out, m);
            std::uint32_t rule = 0; // the header's (no Xiangqi table has 0: the header alone read)
            on_disk(from, Game::Xiangqi, 0, &rule);
            if (xq::has_rule_plies(rule)) {
                // The rule's distance of a loser depends on which of its moves stay in its
                // cycle (docs/rules-xiangqi.md §5c), which a one-ply search cannot tell: both
                // sides kept, the file copied whole.
                const std::string tmp = to + ".tmp";
                std::filesystem::copy_file(
                    from, tmp, std::filesystem::copy_options::overwrite_existing);
                std::filesystem::rename(tmp, to);
                const std::uint64_t bytes = std::filesystem::file_size(to);
                before += bytes, after += bytes;
                if (std::filesystem::exists(stats_path(o.tables, m)))
                    std::filesystem::copy_file(stats_path(o.tables, m), stats_path(out, m),
                        std::filesystem::copy_options::overwrite_existing);
                std::printf("%-14s both sides kept (the rule's distances) %12llu bytes\n",
                    m.name().c_str(), (unsigned long long)bytes);
                continue;
            }
            const PackedTable p = pack_table(from, to, xq::table_key(m), pack);
            if (std::filesystem::exists(stats_path(o.tables, m)))
                std::filesystem::copy_file(stats_path(o.tables, m), stats_path(out, m),
                    std::filesystem::copy_options::overwrite_existing);
            before += p.bytes_before, after += p.bytes_after;
            std::printf("%-14s %s to move kept  %12llu -> %12llu bytes (%.3f)\n", m.name().c_str(),
                p.kept == RED ? "Red" : "Black", (unsigned long long)p.bytes_before,
                (unsigned long long)p.bytes_after, double(p.bytes_after) / double(p.bytes_before));
        } catch (const std::exception& e) {
            std::fprintf(stderr, "mktb pack: %s\n", e.what());
            return kExitFailure;
        }
    }
    std::printf("%zu Xiangqi tables: %llu -> %llu bytes (%.3f)\n", order.size(),
        (unsigned long long)before, (unsigned long long)after,
        before ? double(after) / double(before) : 0.0);
    return kExitOk;
}

int xiangqi_verify(const Args& a) {
    XOptions o;
    if (!read_x(a, o)) return kExitBadInput;
    if (o.endings.empty())
        return usage_error(a, std::string("give the endings, or --set with one of ") + kSets);
    const std::vector<Material> present
        = tables_present("verify", o.endings, o.tables, xq::table_path, " --game xiangqi");
    Progress progress;
    std::uint64_t failed = present.size() != o.endings.size();
    std::vector<double> work;
    for (const Material& m : present) work.push_back(double(xq::Index(m).size()));
    progress.start_run(work);
    for (std::size_t k = 0; k < present.size(); ++k) {
        const Material& m = present[k];
        progress.start_job(k);
        try {
            // A reader per ending (its tables let go with it), each table under its own rules.
            const xq::Tablebase tables(
                o.tables, mktb::Tablebase::kDefaultCacheBytes, false, std::nullopt);
            std::string report;
            const std::uint64_t bad = xq::verify(m, tables, &report, &progress);
            progress.finish();
            std::printf("%s (Xiangqi): %s\n%s", m.name().c_str(),
                bad ? (std::to_string(bad) + " positions disagree with their moves").c_str() : "ok",
                report.c_str());
            failed += bad != 0;
        } catch (const std::exception& e) {
            progress.finish();
            std::fprintf(stderr, "mktb verify: %s\n", e.what());
            return kExitFailure;
        }
    }
    return failed ? kExitFailure : kExitOk;
}

} // namespace mktb::cli

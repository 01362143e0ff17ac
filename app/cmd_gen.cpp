// cmd_gen.cpp - `mktb gen` (generate endings, smaller ones first, with statistics), `mktb verify`
// (check a written table against its successors), `mktb digest` and `mktb pack` (tables with one
// side to move, to download and ship).
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <sys/file.h>
#include <tbb/global_control.h>
#include <unistd.h>

#include "answer.hpp" // Json
#include "cli.hpp"
#include "gen_index.hpp"
#include "generator.hpp"
#include "table_writer.hpp"
#include "tablebase.hpp"
#include "writing.hpp"
#include "xiangqi_commands.hpp"

namespace mktb::cli {

// writing.hpp: what both games' writing commands share.
std::uint64_t available_memory() {
    std::uint64_t available = 0;
    std::ifstream meminfo("/proc/meminfo");
    for (std::string key, unit; meminfo >> key;) {
        std::uint64_t kib = 0;
        meminfo >> kib;
        std::getline(meminfo, unit);
        if (key == "MemAvailable:") available = kib * 1024;
    }
    std::uint64_t limit = 0, used = 0;
    if (std::ifstream max("/sys/fs/cgroup/memory.max"); max >> limit)
        if (std::ifstream current("/sys/fs/cgroup/memory.current"); current >> used && used < limit)
            available = available ? std::min(available, limit - used) : limit - used;
    if (!available) return 0;
    const std::uint64_t margin = available / 20 + (std::uint64_t(256) << 20);
    return available > margin ? available - margin : 0;
}

bool create_tables_directory(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec)
        std::fprintf(stderr, "mktb gen: cannot create %s: %s\n", dir.c_str(), ec.message().c_str());
    return !ec;
}

bool create_pack_directory(const std::string& out, const std::string& tables) {
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec) {
        std::fprintf(
            stderr, "mktb pack: cannot create %s: %s\n", out.c_str(), ec.message().c_str());
        return false;
    }
    if (std::filesystem::equivalent(tables, out, ec)) {
        std::fprintf(stderr, "mktb pack: --out is the directory of the tables (%s): give another\n",
            tables.c_str());
        return false;
    }
    return true;
}

DirectoryLock::DirectoryLock(const std::string& dir)
    : fd_(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)) {
    if (fd_ < 0) throw TableError("cannot open " + dir + ": " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) == 0) return;
    std::fprintf(stderr, "mktb: waiting for another mktb writing into %s\n", dir.c_str());
    while (::flock(fd_, LOCK_EX) != 0)
        if (errno != EINTR) throw TableError("cannot lock " + dir + ": " + std::strerror(errno));
}

DirectoryLock::~DirectoryLock() { ::close(fd_); }

// The figures of both sides read back from a statistics file (gen/table_stats.hpp's schema).
bool read_rows(const std::string& path, bool xiangqi, StatsRow rows[2]) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return false; // never open a FIFO
    std::ifstream in(path);
    const Json stats = Json::parse(in, nullptr, false);
    if (stats.is_discarded()) return false;
    try {
        for (int c = 0; c < 2; ++c) {
            const Json& side = stats.at("sides").at(side_key(xiangqi, c));
            auto number = [&](const char* key) {
                const Json& v = side.contains(key) ? side.at(key) : Json();
                return v.is_null() ? -1LL : v.get<long long>();
            };
            rows[c].legal = std::uint64_t(number("legal"));
            rows[c].wins = std::uint64_t(number("wins"));
            rows[c].draws = std::uint64_t(number("draws"));
            rows[c].losses = std::uint64_t(number("losses"));
            rows[c].longest = int(number("longest_mate_plies"));
            rows[c].longestFen = side.at("longest_mate_fen").get<std::string>();
            rows[c].ruled = number(xiangqi ? "rule_wins" : "counted_wins");
        }
    } catch (const Json::exception&) {
        return false; // not the statistics this program writes
    }
    return true;
}

void print_header(bool xiangqi) {
    std::printf("%-14s %-6s %13s %13s %13s %13s %8s %8s %10s  %s\n", "ending", "move", "legal",
        "win", "draw", "loss", "win %", "longest", xiangqi ? "rule won %" : "counted %",
        "longest mate (FEN)");
}

void print_rows(const std::string& name, bool xiangqi, const StatsRow rows[2]) {
    for (int c = 0; c < 2; ++c) {
        const StatsRow& r = rows[c];
        char lo[16] = "-", ruled[16] = "-";
        if (const Value v = Value::mate_in_plies(r.longest); r.longest >= 0) // -0: mated now
            std::snprintf(
                lo, sizeof lo, "%c%d", v.is_win() ? '+' : '-', std::abs(v.mate_in_moves()));
        if (r.ruled >= 0 && r.legal)
            std::snprintf(ruled, sizeof ruled, "%.2f%%", 100.0 * double(r.ruled) / double(r.legal));
        std::printf("%-14s %-6s %13llu %13llu %13llu %13llu %7.2f%% %8s %10s  %s\n",
            c == 0 ? name.c_str() : "", c == 0 ? (xiangqi ? "red" : "white") : "black",
            (unsigned long long)r.legal, (unsigned long long)r.wins, (unsigned long long)r.draws,
            (unsigned long long)r.losses, r.legal ? 100.0 * double(r.wins) / double(r.legal) : 0.0,
            lo, ruled, r.longestFen.empty() ? "-" : r.longestFen.c_str());
    }
}

void write_stats(const TableStats& stats, const std::string& path) {
    const std::string tmp = path + ".tmp";
    std::error_code ec;
    if (!(std::ofstream(tmp) << stats.to_json()).flush()) {
        const int error = errno;
        std::filesystem::remove(tmp, ec);
        throw TableError("cannot write " + tmp + ": " + std::strerror(error));
    }
    std::filesystem::rename(tmp, path, ec);
    if (ec) throw TableError("cannot rename " + tmp + ": " + ec.message());
    const bool xiangqi = stats.game == "xiangqi";
    StatsRow rows[2];
    if (!read_rows(path, xiangqi, rows)) throw TableError(path + ": cannot be read back");
    print_rows(stats.name, xiangqi, rows);
    for (std::size_t n = 0; n < stats.exchanged.size(); ++n)
        std::printf("%-10s level %3zu: %.3f MB exchanged by %d ranks\n", "", n,
            double(stats.exchanged[n]) / 1e6, stats.ranks);
}

namespace {

std::string stats_path(const std::string& dir, const Material& m) {
    return (std::filesystem::path(dir) / (m.name() + ".json")).string();
}

struct Options {
    std::string tables = default_tables_dir();
    std::string out; // pack: where the packed tables go
    PackOptions pack; // pack: block size and zstd level
    int threads = 0;
    int men = 0;
    bool list = false;
    std::uint64_t memory = 0; // --memory: bytes an ending's generation may take (0: the default)
    bool keepOtherRules = false; // refuse, instead of replacing, tables built with other options
    CountRules rules;
    std::vector<Material> endings;
    std::unique_ptr<tbb::global_control> threadLimit; // set by --threads
    // gen over MPI (mktb-mpi): the ranks, and how many of them share this machine's memory.
    Ranks* ranks = nullptr;
    int localRanks = 1;
    bool speaks() const { return !ranks || ranks->rank() == 0; } // prints, writes, locks
    // Rank 0's `yes` on every rank: the ranks decide together (the directory is rank 0's).
    bool agree(bool yes) const {
        return ranks ? ranks->reduce(std::uint64_t(speaks() && yes), Ranks::Op::Max) != 0 : yes;
    }
};

// The endings, directories and thread limit of gen, verify, digest and pack, from their
// arguments (each takes only the options it acts on: its table refuses the others by name);
// false after printing an error.
bool read(const Args& a, Options& o) {
    const std::string_view cmd = a.command().name;
    o.tables = a.tables();
    if (cmd == "pack") {
        o.out = a.text("--out");
        o.pack.level = int(a.number("--level", o.pack.level));
        const long long cells = a.number("--block-cells", o.pack.block_cells);
        if (cells & (cells - 1))
            return std::fprintf(stderr,
                       "mktb pack: --block-cells takes a power of two from 256 to 16384, not "
                       "'%lld'\n",
                       cells),
                   false;
        o.pack.block_cells = std::uint32_t(cells);
    }
    if (cmd == "gen" || cmd == "verify") o.threads = int(a.number("--threads", 0));
    if (cmd == "gen" || cmd == "verify") o.memory = a.bytes("--memory", 0);
    if (cmd == "gen") {
        o.list = a.flag("--list");
        o.keepOtherRules = a.flag("--keep-other-rules");
        o.rules = a.rules();
    }
    if ((cmd == "gen" || cmd == "verify") && !a.operands().empty() && a.has("--men"))
        return std::fprintf(stderr,
                   "mktb %s: give endings or --men N, not both (the usage: ENDING... | --men N)\n",
                   cmd.data()),
               false;
    for (const std::string& name : a.operands()) {
        std::string error;
        const auto m = Material::parse(name, &error);
        if (!m) return std::fprintf(stderr, "mktb %s: %s\n", cmd.data(), error.c_str()), false;
        if (m->bare_kings())
            return std::fprintf(
                       stderr, "mktb %s: KvK is always a draw and has no table\n", cmd.data()),
                   false;
        if (const std::string why = m->canonical().beyond_tables(); !why.empty())
            return std::fprintf(stderr, "mktb %s: %s\n", cmd.data(), why.c_str()), false;
        if (m->men() > 6)
            std::fprintf(stderr,
                "mktb %s: note: %s has %d men; generation above 6 men is untested\n", cmd.data(),
                m->name().c_str(), m->men());
        o.endings.push_back(m->canonical());
    }
    if (const int men = o.men = int(a.number("--men", 0))) {
        const auto all = all_materials(men);
        o.endings.insert(o.endings.end(), all.begin(), all.end());
    }
    if (o.threads)
        o.threadLimit = std::make_unique<tbb::global_control>(
            tbb::global_control::max_allowed_parallelism, o.threads);
    return true;
}

} // namespace

OnDisk on_disk(const std::string& path, Game game, std::uint32_t rules, std::uint32_t* found) {
    std::error_code ec;
    const auto type = std::filesystem::symlink_status(path, ec).type();
    if (type == std::filesystem::file_type::not_found) return OnDisk::None;
    if (!std::filesystem::is_regular_file(path, ec)) return OnDisk::NotAFile;
    std::ifstream in(path, std::ios::binary);
    TableHeader h {};
    if (!in.read(reinterpret_cast<char*>(&h), sizeof h))
        return in.gcount() ? OnDisk::OldFormat : OnDisk::None;
    if (std::memcmp(h.magic, kTableMagic, sizeof kTableMagic) != 0
        || h.version < kOldestTableVersion || h.version > kTableVersion
        || (h.version >= 6 && h.game != std::uint32_t(game)))
        return OnDisk::OldFormat;
    if (found) *found = h.rules;
    if (h.version >= 6 && h.sides != kBothSides) return OnDisk::Packed;
    if (h.rules != rules) return OnDisk::OtherRules;
    // The last 8 bytes are the checksum of all before them.
    const std::uint64_t size = std::filesystem::file_size(path, ec);
    if (ec || size < sizeof h + sizeof(std::uint64_t)) return OnDisk::Damaged;
    in.seekg(0);
    std::vector<std::uint8_t> chunk(1 << 20);
    std::uint64_t sum = checksum64({}), left = size - sizeof(std::uint64_t);
    while (left) {
        const std::size_t n = std::size_t(std::min<std::uint64_t>(left, chunk.size()));
        if (!in.read(reinterpret_cast<char*>(chunk.data()), std::streamsize(n)))
            return OnDisk::Damaged;
        sum = checksum64(std::span(chunk.data(), n), sum);
        left -= n;
    }
    std::uint64_t stored = 0;
    if (!in.read(reinterpret_cast<char*>(&stored), sizeof stored) || stored != sum)
        return OnDisk::Damaged;
    return OnDisk::Current;
}

namespace {

// "KMMMvKM needs about 39.10 GB (...), more than the 23.22 GB allowed (...)", or empty when the
// estimate `e` of `m`'s generation (verification) fits in `allowed` bytes (0: unknown, anything
// fits); `byOption`: --memory set them.
// Over `ranks` processes: the memory of each.
std::string too_large(const Material& m, const MemoryEstimate& e, std::uint64_t allowed,
    bool byOption, int ranks = 1) {
    if (!allowed || e.total() <= allowed) return {};
    char text[480];
    std::snprintf(text, sizeof text,
        "%s needs about %.2f GB%s (%.2f G cells, %.2f GB; the tables it converts into %.2f GB), "
        "more than the %.2f GB allowed (%s)",
        m.name().c_str(), double(e.total()) / 1e9,
        ranks > 1 ? (" per rank on " + std::to_string(ranks) + " ranks").c_str() : "",
        double(e.cells) / 1e9, double(e.generation) / 1e9, double(e.children) / 1e9,
        double(allowed) / 1e9,
        byOption ? "--memory" : "the memory available, less a margin; --memory sets it");
    return text;
}

// The memory estimate of `m` for the run `o` describes: per rank over MPI.
MemoryEstimate estimate_for(const Material& m, const Options& o) {
    return estimate_memory(m, o.ranks ? o.ranks->size() : 1);
}
std::string too_large_for(const Material& m, const Options& o, std::uint64_t allowed) {
    return too_large(m, estimate_for(m, o), allowed, o.memory != 0, o.ranks ? o.ranks->size() : 1);
}

// Generates `m` under o's rules (over o's ranks, every rank together: they return once rank 0
// has written the file).
TableStats generate_table(const Material& m, const Options& o, Progress* progress) {
    GenOptions go;
    go.progress = progress;
    go.rules = o.rules;
    go.ranks = o.ranks;
    // A Tablebase per ending: the smaller tables it reads are made resident (plain arrays), and
    // one Tablebase for the whole run kept them all: 22 GB of them by the 130th of the 142
    // endings up to 5 men.
    const Tablebase tables(o.tables);
    TableStats stats = generate(m, tables, go);
    if (o.ranks) o.ranks->reduce(0, Ranks::Op::Max); // a barrier: the file is written
    return stats;
}

// Makes the table of `m` unless it is on disk whole, under o.rules, with its statistics (a
// table built with other rules, packed, damaged or without statistics is made again, after a
// note); prints its rows. False when it was on disk. Throws TableError.
bool make_table(const Material& m, const Options& o, std::uint64_t allowed, Progress& progress) {
    std::optional<DirectoryLock> lock;
    if (o.speaks()) lock.emplace(o.tables);
    std::uint32_t found = 0;
    const std::string path = table_path(o.tables, m);
    const OnDisk state = on_disk(path, Game::Makruk, encode(o.rules), &found);
    StatsRow rows[2];
    if (o.agree(state == OnDisk::Current && read_rows(stats_path(o.tables, m), false, rows))) {
        if (o.speaks()) print_rows(m.name(), false, rows);
        return false;
    }
    if (!o.speaks()) { // rank 0 says why, and refuses (mktb-mpi then stops every rank)
        if (o.agree(false)) return false;
        generate_table(m, o, nullptr);
        return true;
    }
    const char* why = nullptr;
    switch (state) {
    case OnDisk::NotAFile:
        throw TableError(
            path + " is not a regular file (a FIFO, a device or a directory?): remove it");
    case OnDisk::OtherRules:
        // One directory per rule set: a table answers only under its own options.
        if (o.keepOtherRules)
            throw TableError(m.name() + " in " + o.tables + " was built with "
                + describe_difference(decode_rules(found), o.rules)
                + "; not replaced (--keep-other-rules): use another --tables directory");
        std::fprintf(stderr, "mktb gen: %s in %s was built with %s; generating it again with %s\n",
            m.name().c_str(), o.tables.c_str(),
            describe_difference(decode_rules(found), o.rules).c_str(), describe(o.rules).c_str());
        break;
    case OnDisk::Packed:
        why = "is packed (one side to move)";
        break;
    case OnDisk::Damaged:
        why = "is damaged (its checksum does not hold)";
        break;
    case OnDisk::Current:
        why = "has no statistics file";
        break;
    default:
        break;
    }
    if (why)
        std::fprintf(stderr, "mktb gen: %s in %s %s; generating it again\n", m.name().c_str(),
            o.tables.c_str(), why);
    // A table made again (other rules, packed, damaged) was not in gen_command's first check.
    if (const std::string tooLarge = too_large_for(m, o, allowed); o.agree(!tooLarge.empty()))
        throw TableError(tooLarge + "; not generated");
    const TableStats stats = generate_table(m, o, &progress);
    write_stats(stats, stats_path(o.tables, m));
    std::fflush(stdout);
    return true;
}

// The endings of `order` (children first) that cannot be made within `allowed` bytes, each
// with the reason: not on disk and its estimate exceeds it, or it converts into one left out.
std::map<std::string, std::string> left_out(
    const std::vector<Material>& order, const Options& o, std::uint64_t allowed) {
    std::map<std::string, std::string> out;
    for (const Material& m : order) {
        std::string why;
        std::error_code ec;
        if (!std::filesystem::exists(table_path(o.tables, m), ec))
            why = too_large_for(m, o, allowed);
        for (const Material& c : m.children())
            if (why.empty() && out.count(c.canonical().name()))
                why = m.name() + " converts into " + c.canonical().name() + ", which does not fit";
        if (!why.empty()) out[m.name()] = why;
    }
    return out;
}

int gen_run(const Args& a, Options& o) {
    if (!read(a, o)) return kExitBadInput;
    if (o.endings.empty()) return usage_error(a, "give the endings, or --men N");
    std::vector<Material> order = build_order(o.endings);
    // Memory known before it is spent: an ending whose generation would take more than allowed
    // is refused now, before any ending of the run is started, never killed for lack of memory.
    // Under --men (every ending of a number of men, most of 6 men too large for one machine)
    // such endings, and the endings that convert into them, are left out and named instead.
    // Over MPI, each rank's share against its part of this machine's memory, the least any
    // rank finds (so that all leave out and refuse the same endings).
    std::uint64_t allowed = o.memory ? o.memory : available_memory() / std::uint64_t(o.localRanks);
    if (o.ranks) allowed = o.ranks->reduce(allowed, Ranks::Op::Min);
    const std::map<std::string, std::string> out
        = o.list || o.men ? left_out(order, o, allowed) : std::map<std::string, std::string> {};
    if (o.list) {
        if (!o.speaks()) return kExitOk;
        for (const Material& m : order) {
            const MemoryEstimate e = estimate_for(m, o);
            // Its own need, or the child it converts into that does not fit (named).
            const auto why = out.find(m.name());
            const std::string mark = why == out.end() ? ""
                : why->second.starts_with(m.name() + " converts into ")
                ? "  left out: " + why->second.substr(m.name().size() + 1)
                : "  does not fit";
            std::printf("%-10s %14llu cells %10.3f GB (generation %.3f, children %.3f)%s\n",
                m.name().c_str(), (unsigned long long)e.cells, double(e.total()) / 1e9,
                double(e.generation) / 1e9, double(e.children) / 1e9, mark.c_str());
        }
        std::fprintf(stderr, "%zu endings, %zu of them do not fit in the %.2f GB allowed\n",
            order.size(), out.size(), double(allowed) / 1e9);
        return kExitOk;
    }
    if (o.men && !out.empty()) {
        for (const auto& [name, why] : out)
            if (o.speaks()) std::fprintf(stderr, "mktb gen: left out: %s\n", why.c_str());
        std::erase_if(order, [&](const Material& m) { return out.count(m.name()); });
        if (o.speaks())
            std::fprintf(stderr, "mktb gen: %zu endings left out, %zu to make or on disk\n",
                out.size(), order.size());
    }
    for (const Material& m : order) {
        std::error_code exists;
        if (std::filesystem::exists(table_path(o.tables, m), exists)) continue; // on disk
        if (const std::string why = too_large_for(m, o, allowed); !why.empty()) {
            if (o.speaks())
                std::fprintf(stderr, "mktb gen: %s; nothing was started\n", why.c_str());
            return kExitFailure;
        }
    }
    if (!create_tables_directory(o.tables)) return kExitBadInput;
    Progress progress;
    // The work of each ending, for the run's ETA: its generation cells times its metrics.
    std::vector<double> work;
    for (const Material& m : order)
        work.push_back(double(GenIndex(m).size()) * double(stored_metrics(m).size()));
    progress.start_run(work);
    if (o.speaks()) print_header(false);
    for (std::size_t k = 0; k < order.size(); ++k) {
        progress.start_job(k);
        try {
            if (!make_table(order[k], o, allowed, progress)) progress.skip_job(k);
        } catch (const TableError& e) {
            progress.finish();
            std::fprintf(stderr, "mktb gen: %s\n", e.what());
            return kExitFailure;
        }
    }
    return kExitOk;
}

int gen_command(const Args& a) {
    bool badGame = false;
    if (game_is_xiangqi(a, &badGame)) return xiangqi_gen(a);
    if (badGame) return kExitBadInput;
    if (a.has("--set")) return usage_error(a, "--set is Xiangqi's (with --game xiangqi)");
    if (a.has("--rules"))
        return usage_error(a,
            "--rules is Xiangqi's (with --game xiangqi); Makruk's counting "
            "options are RULES");
    Options o;
    return gen_run(a, o);
}

int verify_command(const Args& a) {
    bool badGame = false;
    if (game_is_xiangqi(a, &badGame)) return xiangqi_verify(a);
    if (badGame) return kExitBadInput;
    if (a.has("--set")) return usage_error(a, "--set is Xiangqi's (with --game xiangqi)");
    Options o;
    if (!read(a, o)) return kExitBadInput;
    if (o.endings.empty()) return usage_error(a, "give the endings, or --men N");
    // Memory known before it is spent, as for gen: every ending checked before any starts.
    const std::uint64_t allowed = o.memory ? o.memory : available_memory();
    for (const Material& m : o.endings)
        if (const std::string why = too_large(m, estimate_verify_memory(m), allowed, o.memory);
            !why.empty()) {
            std::fprintf(stderr, "mktb verify: %s to verify; nothing was started\n", why.c_str());
            return kExitFailure;
        }
    const std::vector<Material> present
        = tables_present("verify", o.endings, o.tables, table_path, "");
    Progress progress;
    int status = present.size() == o.endings.size() ? kExitOk : kExitFailure;
    for (const Material& m : present) {
        try {
            const Tablebase tables(o.tables); // per ending, as gen: resident tables are freed
            std::string report;
            const std::uint64_t bad = verify(m, tables, &report, &progress);
            if (bad) {
                std::printf("%s: %llu positions disagree with their successors\n%s",
                    m.name().c_str(), (unsigned long long)bad, report.c_str());
                status = kExitFailure;
            } else {
                std::printf("%s: ok\n", m.name().c_str());
            }
        } catch (const TableError& e) {
            progress.finish();
            std::fprintf(stderr, "mktb verify: %s\n", e.what());
            status = kExitFailure;
        }
    }
    return status;
}

int digest_command(const Args& a) {
    bool badGame = false;
    if (game_is_xiangqi(a, &badGame)) return xiangqi_digest(a);
    if (badGame) return kExitBadInput;
    if (a.has("--set")) return usage_error(a, "--set is Xiangqi's (with --game xiangqi)");
    Options o;
    if (!read(a, o)) return kExitBadInput;
    if (o.endings.empty()) return usage_error(a, "give the endings, or --men N");
    for (const Material& m : o.endings) {
        try {
            const Tablebase tables(o.tables); // per ending: its resident arrays are freed
            const Table* t = tables.table(m);
            if (!t) {
                std::fprintf(stderr, "mktb digest: no table of %s in %s\n", m.name().c_str(),
                    o.tables.c_str());
                return kExitFailure;
            }
            std::printf("%s %s\n", m.name().c_str(), table_digest(*t).c_str());
        } catch (const TableError& e) {
            std::fprintf(stderr, "mktb digest: %s\n", e.what());
            return kExitFailure;
        }
    }
    return kExitOk;
}

int pack_command(const Args& a) {
    bool badGame = false;
    if (game_is_xiangqi(a, &badGame)) return xiangqi_pack(a);
    if (badGame) return kExitBadInput;
    if (a.has("--set")) return usage_error(a, "--set is Xiangqi's (with --game xiangqi)");
    Options o;
    if (!read(a, o)) return kExitBadInput;
    if (o.endings.empty() || o.out.empty())
        return usage_error(a, "give the endings (or --men N) and --out DIR");
    if (!create_pack_directory(o.out, o.tables)) return kExitBadInput;
    std::error_code ec;
    // Each ending with every ending it converts into: a probe of the side a packed table lacks
    // searches one ply, into those tables.
    const std::vector<Material> order = build_order(o.endings);
    std::uint64_t total = 0;
    for (const Material& m : order) {
        const std::string path = table_path(o.tables, m);
        if (!std::filesystem::exists(path)) {
            std::fprintf(stderr, "mktb pack: no table of %s in %s (generate it: mktb gen %s)\n",
                m.name().c_str(), o.tables.c_str(), m.name().c_str());
            return kExitFailure;
        }
        total += std::filesystem::file_size(path, ec);
    }
    Progress progress;
    progress.phase("pack", total);
    std::uint64_t before = 0, after = 0;
    for (const Material& m : order) {
        try {
            const DirectoryLock lock(o.out);
            const PackedTable p
                = pack_table(table_path(o.tables, m), table_path(o.out, m), m, o.pack);
            // The statistics travel with the table (mktb serve's list of endings reads them).
            if (std::filesystem::exists(stats_path(o.tables, m)))
                std::filesystem::copy_file(stats_path(o.tables, m), stats_path(o.out, m),
                    std::filesystem::copy_options::overwrite_existing);
            progress.advance(p.bytes_before);
            before += p.bytes_before, after += p.bytes_after;
            std::printf("%-10s %s to move kept  %12llu -> %12llu bytes (%.3f)\n", m.name().c_str(),
                p.kept == WHITE ? "White" : "Black", (unsigned long long)p.bytes_before,
                (unsigned long long)p.bytes_after, double(p.bytes_after) / double(p.bytes_before));
        } catch (const std::exception& e) {
            progress.finish();
            std::fprintf(stderr, "mktb pack: %s\n", e.what());
            return kExitFailure;
        }
    }
    progress.finish();
    std::printf("%zu tables: %llu -> %llu bytes (%.3f)\n", order.size(), (unsigned long long)before,
        (unsigned long long)after, before ? double(after) / double(before) : 0.0);
    return kExitOk;
}

const Option kMen { "--men", "N",
    "every ending of N men (3 to 6); gen: those whose memory fits, with what they need",
    Option::Kind::Number, 3, 6 };
const Option kMemory { "--memory", "BYTES", "the most an ending may take (K M G T: powers of 1024)",
    Option::Kind::Bytes };
const Option kThreads { "--threads", "N", "worker threads (default: every core)",
    Option::Kind::Number, 1, 1024 };
const Option kSetOption { "--set", "NAME",
    "Xiangqi: every ending of a set that fits: one-attacker (324), two-attackers (810), armed "
    "(486) or armless (45)" };

} // namespace

const Command kGenCommand {
    .name = "gen",
    .usage = "(ENDING... | --men N) [--list] [--tables DIR] [--threads N] [RULES]\n"
             "  [--memory BYTES] [--keep-other-rules]\n"
             "--game xiangqi (ENDING... | --set NAME) [--rules NAME] [--list]\n"
             "  [--tables DIR] [--threads N] [--memory BYTES] [--keep-other-rules]",
    .summary = "generate endings (e.g. KRvK, KSSvKM; men in any\n"
               "order, either side first) and every smaller\n"
               "ending they convert into, skipping those on\n"
               "disk (a table built with other RULES is made\n"
               "again, or refused with --keep-other-rules);\n"
               "print their statistics (pure and under a\n"
               "fresh count). An ending needing more memory\n"
               "than BYTES (default: what is available, less\n"
               "a margin; suffixes K M G T) is refused before\n"
               "anything starts; --list prints each ending's\n"
               "cells and memory",
    .options = { kMen,
        { "--list", "", "print each ending's cells and memory, generate nothing",
            Option::Kind::Flag },
        kTablesOption, kThreads, kMemory,
        { "--keep-other-rules", "",
            "refuse, not replace, a table built with other RULES (Xiangqi: --rules)",
            Option::Kind::Flag },
        kGameOption, kSetOption, kXiangqiRulesOption },
    .run = gen_command,
    .rules = true,
    .operands = -1,
};

const Command kVerifyCommand {
    .name = "verify",
    .usage = "(ENDING... | --men N) [--tables DIR] [--threads N] [--memory BYTES]\n"
             "--game xiangqi (ENDING... | --set NAME) [--tables DIR] [--threads N]",
    .summary = "check written tables against their successors\n"
               "(under the counting options each was built\n"
               "with)",
    .options = { kMen, kTablesOption, kThreads, kMemory, kGameOption, kSetOption },
    .run = verify_command,
    .operands = -1,
};

const Command kDigestCommand {
    .name = "digest",
    .usage = "(ENDING... | --men N) [--tables DIR]\n"
             "--game xiangqi (ENDING... | --set NAME) [--tables DIR]",
    .summary = "a digest of every value a table stores (equal\n"
               "digests: equal answers, whatever the file bytes)",
    .options = { kMen, kTablesOption, kGameOption, kSetOption },
    .run = digest_command,
    .operands = -1,
};

const Command kPackCommand {
    .name = "pack",
    .usage = "(ENDING... | --men N) [--tables DIR] --out DIR [--block-cells N]\n  [--level N]\n"
             "--game xiangqi (ENDING... | --set NAME) [--tables DIR] --out DIR\n"
             "  [--block-cells N] [--level N]",
    .summary = "copy tables, and every smaller ending they\n"
               "convert into, keeping one side to move (the\n"
               "smaller; a probe of the other searches one\n"
               "ply): files to download and ship, for probing",
    .options = { kMen, kTablesOption, { "--out", "DIR", "where the packed tables go" },
        { "--block-cells", "N", "cells per compressed block (a power of two, 256 to 16384)",
            Option::Kind::Number, 256, 16384 },
        { "--level", "N", "zstd's level (1 to 19)", Option::Kind::Number, 1, 19 }, kGameOption,
        kSetOption },
    .run = pack_command,
    .operands = -1,
};

bool game_is_xiangqi(const Args& a, bool* bad) {
    const std::string game = a.text("--game", "makruk");
    *bad = game != "makruk" && game != "xiangqi";
    if (*bad)
        std::fprintf(stderr, "mktb %s: --game takes makruk or xiangqi, not '%s'\n",
            std::string(a.command().name).c_str(), game.c_str());
    return game == "xiangqi";
}

int gen_over_ranks(const Args& a, Ranks& ranks, int localRanks) {
    bool bad = false;
    if (game_is_xiangqi(a, &bad)) return xiangqi_gen(a, &ranks, localRanks);
    if (bad) return kExitBadInput;
    if (a.has("--set")) return usage_error(a, "--set is Xiangqi's (with --game xiangqi)");
    if (a.has("--rules"))
        return usage_error(a,
            "--rules is Xiangqi's (with --game xiangqi); Makruk's counting "
            "options are RULES");
    Options o;
    o.ranks = &ranks;
    o.localRanks = localRanks;
    return gen_run(a, o);
}

} // namespace mktb::cli

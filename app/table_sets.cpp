// table_sets.cpp - table directories by counting rules (see table_sets.hpp).
#include "table_sets.hpp"

#include <cstdio>

#include "cli.hpp"
#include "xiangqi_tables.hpp"

#include <algorithm>
#include <filesystem>
#include <set>

namespace mktb::cli {

namespace {

// Opens DIR: its tables, and the rules they were built with (all the same, or an error).
std::string open_one(const std::string& dir, std::size_t cache_bytes, TableSet& out) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) return dir + " is not a directory";
    // Xiangqi's tables beside them (KRvKAABB.xq.mktb): a directory may hold either game or both.
    // Each table read under its own rules: those of the armed ones must agree.
    const xq::Tablebase xiangqi(dir, cache_bytes, true, std::nullopt);
    std::optional<std::uint32_t> xiangqiRule;
    for (const xq::Material& m : xiangqi.on_disk()) {
        const xq::Entry* e = nullptr;
        try {
            e = xiangqi.table(m); // throws TableError for a damaged header or block index
        } catch (const TableError& error) {
            out.left_out.push_back(error.what());
            continue;
        }
        if (const std::uint32_t rule = e->table->rules(); rule != xq::kRulePlainArmless) {
            if (xiangqiRule && xq::rule_set_of(rule) != xq::rule_set_of(*xiangqiRule))
                return dir + " holds Xiangqi tables of different rule sets (" + m.name() + ": "
                    + std::string(xq::rule_name(rule)) + ", others "
                    + std::string(xq::rule_name(*xiangqiRule)) + "); keep one directory per set";
            xiangqiRule = rule;
            out.xiangqi_rules = *xq::rule_set_of(rule);
        }
        out.xiangqi_endings.push_back(m);
    }
    const Tablebase tables(dir, cache_bytes, true);
    std::optional<std::uint32_t> rules;
    for (const Material& m : GameTables<MakrukFiles>::scan(dir)) {
        const Table* t = nullptr;
        try {
            t = tables.table(m); // throws TableError for a damaged header or block index
        } catch (const TableError& e) {
            out.left_out.push_back(e.what()); // the message names the file
            continue;
        }
        if (rules && t->rules() != *rules)
            return dir + " holds tables built under different counting rules (" + m.name() + ": "
                + describe(decode_rules(t->rules())) + "); keep one directory per rule set";
        rules = t->rules();
        out.endings.push_back(m);
    }
    if (!rules && out.xiangqi_endings.empty() && !out.left_out.empty())
        return "no table in " + dir + " can be read: " + out.left_out.front();
    if (!rules && out.xiangqi_endings.empty())
        return "no tables in " + dir + " (generate them: mktb gen --men 4 --tables " + dir + ")";
    if (!rules) rules = encode(CountRules {}); // Xiangqi alone: the default set
    out.dir = dir;
    out.rules = decode_rules(*rules);
    out.prober
        = std::make_unique<Prober>(dir, ProbeOptions { cache_bytes, out.rules, out.xiangqi_rules });
    return {};
}

bool holds(const TableSet& s, const xq::Material& m) {
    const auto& held = s.xiangqi_endings;
    return std::find(held.begin(), held.end(), m.canonical()) != held.end();
}

} // namespace

std::string TableSets::open(const std::vector<std::string>& dirs, std::size_t cache_bytes) {
    for (const std::string& dir : dirs) {
        TableSet s;
        try {
            if (std::string error = open_one(dir, cache_bytes, s); !error.empty()) return error;
        } catch (const TableError& e) {
            return e.what(); // a damaged header: the message names the file
        }
        if (const TableSet* other = s.makruk() ? find(s.rules) : nullptr)
            return other->dir + " and " + dir + " hold Makruk tables of the same rules ("
                + describe(s.rules) + ")";
        // An ending with an armless side follows every rule set: each set's directory holds
        // its own copy (the children of its armed endings); within one set, one directory.
        for (const TableSet& other : sets_)
            for (const xq::Material& m : s.xiangqi_endings)
                if (other.xiangqi_rules == s.xiangqi_rules && holds(other, m))
                    return other.dir + " and " + dir + " hold the same Xiangqi table (" + m.name()
                        + ") of the rules " + std::string(xq::rule_set(s.xiangqi_rules).name)
                        + "; keep each ending in one directory per rule set";
        sets_.push_back(std::move(s));
    }
    return {};
}

const TableSet* TableSets::find(const CountRules& rules) const {
    for (const TableSet& s : sets_)
        if (s.makruk() && s.rules == rules) return &s;
    return nullptr;
}

const TableSet* TableSets::find(const xq::Material& m, xq::RuleSet rules) const {
    const bool armless = m.armless(xq::RED) || m.armless(BLACK);
    const TableSet *same = nullptr, *other = nullptr, *any = nullptr;
    for (const TableSet& s : sets_) {
        if (s.xiangqi_endings.empty()) continue;
        const bool follows = s.xiangqi_rules == rules;
        if (holds(s, m) && follows) return &s;
        if (!other && holds(s, m) && armless) other = &s;
        if (!same && follows) same = &s;
        if (!any) any = &s;
    }
    return other ? other : same ? same : any;
}

std::vector<xq::RuleSet> TableSets::xiangqi_rules() const {
    std::vector<xq::RuleSet> out;
    for (const TableSet& s : sets_)
        if (!s.xiangqi_endings.empty()
            && std::find(out.begin(), out.end(), s.xiangqi_rules) == out.end())
            out.push_back(s.xiangqi_rules);
    return out;
}

std::string TableSets::served() const {
    std::string out;
    for (const TableSet& s : sets_)
        if (s.makruk()) out += (out.empty() ? "" : "; ") + describe(s.rules) + " (" + s.dir + ")";
    return out.empty() ? "no Makruk tables" : out;
}

std::string tables_fingerprint(const std::vector<std::string>& dirs) {
    std::set<std::string> files;
    for (const std::string& dir : dirs) {
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
            if (entry.path().extension() != ".mktb") continue; // both games' tables
            const auto size = entry.file_size(ec);
            const auto time = entry.last_write_time(ec).time_since_epoch().count();
            files.insert(
                entry.path().string() + " " + std::to_string(size) + " " + std::to_string(time));
        }
    }
    std::string out;
    for (const std::string& f : files) out += f + "\n";
    return out;
}

void report_left_out(const char* command, const TableSets& sets) {
    for (const TableSet& s : sets.sets())
        for (const std::string& why : s.left_out)
            std::fprintf(
                stderr, "mktb %s: left out (the other tables answer): %s\n", command, why.c_str());
}

int open_tables(const char* command, std::vector<std::string> dirs, TableSets& out) {
    if (dirs.empty()) dirs.push_back(default_tables_dir());
    const std::string error = out.open(dirs, Tablebase::kDefaultCacheBytes);
    report_left_out(command, out);
    if (error.empty()) return kExitOk;
    std::fprintf(stderr, "mktb %s: %s\n", command, error.c_str());
    const bool twice = error.find("same rules") != std::string::npos
        || error.find("same Xiangqi table") != std::string::npos;
    return twice ? kExitBadInput : kExitFailure;
}

} // namespace mktb::cli

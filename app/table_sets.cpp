// table_sets.cpp - table directories by counting rules (see table_sets.hpp).
#include "table_sets.hpp"

#include <cstdio>

#include "cli.hpp"
#include "tablefile.hpp"

#include <filesystem>
#include <set>

namespace mktb::cli {

namespace {

// Opens DIR: its tables, and the rules they were built with (all the same, or an error).
std::string open_one(const std::string& dir, std::size_t cache_bytes, TableSet& out) {
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) return dir + " is not a directory";
    std::set<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec))
        if (entry.path().extension() == ".mktb") names.insert(entry.path().stem().string());
    const Tablebase tables(dir, cache_bytes, true);
    std::optional<std::uint32_t> rules;
    for (const std::string& name : names) {
        const std::optional<Material> m = Material::parse(name);
        if (!m || m->canonical().name() != name) continue; // not a table of ours
        const Table* t = tables.table(*m); // throws TableError for a damaged header
        if (rules && t->rules() != *rules)
            return dir + " holds tables built under different counting rules (" + name + ": "
                + describe(decode_rules(t->rules())) + "); keep one directory per rule set";
        rules = t->rules();
        out.endings.push_back(*m);
    }
    if (!rules)
        return "no tables in " + dir + " (generate them: mktb gen --men 4 --tables " + dir + ")";
    out.dir = dir;
    out.rules = decode_rules(*rules);
    out.prober = std::make_unique<Prober>(dir, ProbeOptions { cache_bytes, out.rules });
    return {};
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
        if (const TableSet* other = find(s.rules))
            return other->dir + " and " + dir + " hold tables of the same rules ("
                + describe(s.rules) + ")";
        sets_.push_back(std::move(s));
    }
    return {};
}

const TableSet* TableSets::find(const CountRules& rules) const {
    for (const TableSet& s : sets_)
        if (s.rules == rules) return &s;
    return nullptr;
}

std::string TableSets::served() const {
    std::string out;
    for (std::size_t i = 0; i < sets_.size(); ++i)
        out += (i ? "; " : "") + describe(sets_[i].rules) + " (" + sets_[i].dir + ")";
    return out;
}

int open_tables(const char* command, std::vector<std::string> dirs, TableSets& out) {
    if (dirs.empty()) dirs.push_back(default_tables_dir());
    const std::string error = out.open(dirs, Tablebase::kDefaultCacheBytes);
    if (error.empty()) return kExitOk;
    std::fprintf(stderr, "mktb %s: %s\n", command, error.c_str());
    return error.find("same rules") != std::string::npos ? kExitBadInput : kExitFailure;
}

} // namespace mktb::cli

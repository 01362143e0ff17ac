// cmd_teach.cpp - `mktb teach`: teaching material from the tables. Per ending the Teacher
// (teacher.hpp) finds the positions of each theme, and the report (report.hpp) writes them: an
// HTML page (statistics, a histogram of mate distances pure against counted, the themes with
// diagrams and solutions behind a click), a worksheet and its answer key to print apart, EPD, PGN
// (main lines, the count announced, NAG $8 for only moves), SVG diagrams and a JSON file of every
// claim (what the tests re-check); for the whole report an overview of every generated ending
// and a page on the tournament regulation of docs/rules.md §7.
#include <cstdio>
#include <filesystem>
#include <set>

#include "cli.hpp"
#include "teach/report.hpp"
#include "teach/teacher.hpp"

namespace mktb::cli {

namespace fs = std::filesystem;

int teach_command(std::span<const std::string_view> args) {
    std::vector<std::string> names;
    std::string out = "report", dir = default_tables_dir();
    int perTheme = 4;
    CountRules rules;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const bool value = i + 1 < args.size();
        if (args[i] == "--out" && value)
            out = std::string(args[++i]);
        else if (args[i] == "--tables" && value)
            dir = std::string(args[++i]);
        else if (args[i] == "--per-theme" && value) {
            try {
                perTheme = std::stoi(std::string(args[++i]));
            } catch (const std::exception&) {
                perTheme = 0;
            }
            if (perTheme < 1 || perTheme > 100) {
                std::fputs("mktb teach: --per-theme takes 1 to 100\n", stderr);
                return kExitBadInput;
            }
        } else if (is_rule_option(args[i])) {
            try {
                apply_rule_option(args[i], value ? args[i + 1] : "", rules);
                ++i;
            } catch (const std::invalid_argument& e) {
                std::fprintf(stderr, "mktb teach: %s\n", e.what());
                return kExitBadInput;
            }
        } else if (args[i] == "--men" && value) {
            int men = 0;
            try {
                men = std::stoi(std::string(args[++i]));
            } catch (const std::exception&) { }
            if (men < 3 || men > 5) {
                std::fputs("mktb teach: --men takes 3 to 5\n", stderr);
                return kExitBadInput;
            }
            for (const Material& m : all_materials(men)) names.push_back(m.name());
        } else if (!args[i].starts_with("--")) {
            names.emplace_back(args[i]);
        } else {
            std::fprintf(
                stderr, "mktb teach: unknown argument '%s'\n", std::string(args[i]).c_str());
            return kExitBadInput;
        }
    }
    if (names.empty()) {
        std::fputs("usage: mktb teach (ENDING... | --men N) [--out DIR] [--tables DIR] "
                   "[--per-theme N] [RULES]\n",
            stderr);
        return kExitBadInput;
    }
    std::vector<Material> materials;
    for (const std::string& n : names) {
        std::string error;
        const std::optional<Material> m = Material::parse(n, &error);
        if (!m) {
            std::fprintf(stderr, "mktb teach: %s\n", error.c_str());
            return kExitBadInput;
        }
        if (m->bare_kings()) continue;
        materials.push_back(m->canonical());
    }
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        std::fprintf(stderr, "mktb teach: %s is not a directory of tables\n", dir.c_str());
        return kExitNoTable;
    }
    const Prober prober(dir, { .rules = rules });
    for (const Material& m : materials)
        if (!prober.available(m)) {
            std::fprintf(stderr, "mktb teach: no table for %s in %s (generate it: mktb gen %s)\n",
                m.name().c_str(), dir.c_str(), m.name().c_str());
            return kExitNoTable;
        }
    fs::create_directories(out, ec);
    if (ec || !fs::is_directory(out)) {
        std::fprintf(stderr, "mktb teach: cannot create %s: %s\n", out.c_str(),
            ec ? ec.message().c_str() : "not a directory");
        return kExitFailure;
    }
    try {
        Teacher teacher(prober, perTheme);
        std::set<std::string> taught;
        for (std::size_t i = 0; i < materials.size(); ++i) {
            teacher.study(materials[i]);
            write_ending(teacher, out);
            taught.insert(materials[i].name());
            std::size_t count = 0;
            for (const Theme& t : teacher.themes()) count += t.items.size();
            std::printf("%s: %zu positions in %zu themes\n", materials[i].name().c_str(), count,
                teacher.themes().size());
            std::fflush(stdout);
        }
        write_overview(out, dir, taught, rules);
    } catch (const TableError& e) {
        std::fprintf(stderr, "mktb teach: %s\n", e.what());
        return kExitFailure;
    } catch (const std::runtime_error& e) { // files that cannot be written, included
        std::fprintf(stderr, "mktb teach: %s\n", e.what());
        return kExitFailure;
    }
    std::printf("report: %s/index.html\n", out.c_str());
    return kExitOk;
}

} // namespace mktb::cli

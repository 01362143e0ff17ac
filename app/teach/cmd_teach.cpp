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
#include "teach/html.hpp"
#include "teach/report.hpp"
#include "teach/teacher.hpp"
#include "xiangqi_commands.hpp"

namespace mktb::cli {

namespace fs = std::filesystem;

namespace {

int teach_command(const Args& a) {
    bool badGame = false;
    if (game_is_xiangqi(a, &badGame)) return xiangqi_teach(a);
    if (badGame) return kExitBadInput;
    if (a.has("--rules"))
        return usage_error(a,
            "--rules is Xiangqi's (with --game xiangqi); Makruk's counting "
            "options are RULES");
    std::vector<std::string> names = a.operands();
    const std::string out = a.text("--out", "report"), dir = a.tables();
    const int perTheme = int(a.number("--per-theme", 4));
    const CountRules& rules = a.rules();
    if (const int men = int(a.number("--men", 0)))
        for (const Material& m : all_materials(men)) names.push_back(m.name());
    if (names.empty()) return usage_error(a, "give the endings, or --men N");
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
    if (!create_report_dir(out)) return kExitFailure;
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

} // namespace

const Command kTeachCommand {
    .name = "teach",
    .usage = "(ENDING... | --men N) [--out DIR] [--per-theme N] [--tables DIR] [RULES]\n"
             "  --game xiangqi ENDING... [--out DIR] [--per-theme N] [--tables DIR]\n"
             "  [--rules NAME]",
    .summary = "teaching material: per ending an HTML page\n"
               "(statistics, themes with diagrams and hidden\n"
               "solutions, printable), EPD, PGN, SVG; an\n"
               "overview and the regulation page (default\n"
               "DIR: report; Xiangqi's report-xiangqi)",
    .options = { { "--men", "N", "every ending of N men (3 to 5)", Option::Kind::Number, 3, 5 },
        { "--out", "DIR", "where the report goes (default: report)" },
        { "--per-theme", "N", "positions per theme (1 to 100, default 4)", Option::Kind::Number, 1,
            100 },
        kTablesOption, kGameOption, kXiangqiRulesOption },
    .run = teach_command,
    .rules = true,
    .operands = -1,
};

} // namespace mktb::cli

// tables.cpp - see tables.hpp.
#include "tables.hpp"
#include "tablebase.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <unistd.h>
#include <vector>

namespace mktb::test {

Material material(const char* name) {
    std::string error;
    const auto m = Material::parse(name, &error);
    if (!m) throw std::invalid_argument(error);
    return *m;
}

TableStats generate_with_children(
    const std::string& dir, const Material& m, const GenOptions& options) {
    std::filesystem::create_directories(dir);
    const Tablebase tables(dir);
    TableStats last;
    for (const Material& x : build_order({ m }))
        if (x == m || !std::filesystem::exists(table_path(dir, x)))
            last = generate(x, tables, options);
    return last;
}

std::string temp_dir(const std::string& name) {
    namespace fs = std::filesystem;
    // Removed when the test program ends, however many tests asked for them.
    static struct Made {
        std::vector<fs::path> dirs;
        ~Made() {
            std::error_code ec;
            for (const fs::path& d : dirs) fs::remove_all(d, ec);
        }
    } made;
    const fs::path d
        = fs::temp_directory_path() / ("mktb-test-" + name + "-" + std::to_string(getpid()));
    fs::remove_all(d);
    fs::create_directories(d);
    made.dirs.push_back(d);
    return d.string();
}

const std::string& tables_up_to_4_men() {
    static const std::string dir = [] {
        const char* env = std::getenv("MKTB_TEST_TABLES");
        std::string d = env && *env ? env : MKTB_TEST_TABLES_DEFAULT;
        std::filesystem::create_directories(d);
        const Tablebase tables(d);
        for (const Material& m : all_materials(4))
            if (!std::filesystem::exists(table_path(d, m))) generate(m, tables, {});
        return d;
    }();
    return dir;
}

} // namespace mktb::test

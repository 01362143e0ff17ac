// gen_dtm.cpp - mktb_gen_dtm DIR ENDING... [--threads N]: each ending generated with distance to
// mate alone (GenOptions::dtm_only), the counted metric left out, for scripts/bench-gen to set
// against the generation of every metric (issue 9: "DTM alone well under" the 12 s of KRMvKN).
//
// The tables an ending converts into are read from DIR (generate them first); the DTM-only file
// is written into a scratch directory beside them, holding links to those tables, and removed:
// it is no table to keep (its counted values are missing). Prints per ending the wall seconds
// of the generation and of each phase.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <tbb/global_control.h>
#include <vector>

#include "generator.hpp"
#include "mktb/material.hpp"
#include "tablebase.hpp"

namespace fs = std::filesystem;
using namespace mktb;

int main(int argc, char** argv) {
    std::vector<Material> endings;
    std::string dir;
    int threads = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--threads" && i + 1 < argc) {
            threads = std::atoi(argv[++i]);
            if (threads <= 0) {
                std::fprintf(stderr, "mktb_gen_dtm: --threads wants a positive number\n");
                return 2;
            }
        } else if (dir.empty())
            dir = a;
        else {
            std::string error;
            const std::optional<Material> m = Material::parse(a, &error);
            if (!m) {
                std::fprintf(stderr, "mktb_gen_dtm: %s: %s\n", a.c_str(), error.c_str());
                return 2;
            }
            endings.push_back(m->canonical());
        }
    }
    if (endings.empty()) {
        std::fprintf(stderr, "usage: mktb_gen_dtm DIR ENDING... [--threads N]\n");
        return 2;
    }
    std::unique_ptr<tbb::global_control> limit;
    if (threads)
        limit = std::make_unique<tbb::global_control>(
            tbb::global_control::max_allowed_parallelism, threads);
    GenOptions options;
    options.dtm_only = true;
    for (const Material& m : endings) {
        const fs::path scratch = fs::path(dir) / (".dtm-only-" + m.name());
        std::error_code ec;
        fs::remove_all(scratch, ec);
        fs::create_directories(scratch, ec);
        if (ec) {
            std::fprintf(stderr, "mktb_gen_dtm: cannot create %s: %s\n", scratch.c_str(),
                ec.message().c_str());
            return 1;
        }
        try {
            for (const Material& c : m.children()) { // canonical, bare kings left out
                const fs::path from = fs::absolute(table_path(dir, c));
                if (!fs::exists(from))
                    throw TableError("the table of " + c.name() + " is missing from " + dir
                        + ": generate it first");
                fs::create_symlink(from, table_path(scratch.string(), c));
            }
            const Tablebase tables(scratch.string());
            const TableStats stats = generate(m, tables, options);
            std::printf("%-10s dtm-only %8.2f s ", m.name().c_str(), stats.seconds);
            for (const auto& [phase, s] : stats.phase_seconds)
                std::printf(" %s %.2f", phase.c_str(), s);
            std::printf("\n");
        } catch (const std::exception& e) {
            std::fprintf(stderr, "mktb_gen_dtm: %s: %s\n", m.name().c_str(), e.what());
            fs::remove_all(scratch, ec);
            return 1;
        }
        fs::remove_all(scratch, ec);
    }
    return 0;
}

// table_sizes.cpp - mktb_table_sizes DIR [PACKED_DIR]: the size of every table file in DIR in bits
// per position (a position = one index slot with one side to move; all stored metrics together),
// against a baseline: zstd -19 of each metric's plain cell array as one frame. A ratio below 1
// means our block format beats the baseline despite its random access. With PACKED_DIR (mktb
// pack's output), the packed file's bits per position and its size against the full file's.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <thread>
#include <vector>
#include <zstd.h>

#include "mktb/material.hpp"
#include "tablebase.hpp"

int main(int argc, char** argv) {
    using namespace mktb;
    if (argc != 2 && argc != 3) {
        std::fputs("usage: mktb_table_sizes DIR [PACKED_DIR]\n", stderr);
        return 2;
    }
    const std::string packedDir = argc == 3 ? argv[2] : "";
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::directory_iterator(argv[1]))
        if (e.path().extension() == ".mktb") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    const Tablebase tables(argv[1]);
    std::printf("%-10s %12s %8s %12s %9s %12s %9s %7s", "ending", "positions", "metrics",
        "file_bytes", "bits/pos", "zstd19_bytes", "bits/pos", "ratio");
    if (!packedDir.empty()) std::printf(" %12s %9s %7s", "packed_bytes", "bits/pos", "/file");
    std::printf("\n");
    double totalFile = 0, totalZstd = 0, totalPacked = 0;
    for (const auto& path : files) {
        const std::optional<Material> m = Material::parse(path.stem().string());
        const Table* t = m ? tables.table(*m) : nullptr;
        if (!t) continue;
        t->make_resident();
        const std::uint64_t n = t->index().size();
        std::size_t baseline = 0;
        int metrics = 0;
        for (int k = 0; k < int(Metric::NB); ++k) {
            const Metric metric = Metric(k);
            const int bytes = t->cell_bytes(metric);
            if (!bytes) continue;
            ++metrics;
            std::vector<std::uint8_t> plain;
            plain.reserve(2 * n * std::size_t(bytes));
            for (Color c : { WHITE, BLACK })
                for (std::uint64_t i = 0; i < n; ++i) {
                    const unsigned cell = t->value(metric, c, i).cell();
                    plain.push_back(std::uint8_t(cell));
                    if (bytes == 2) plain.push_back(std::uint8_t(cell >> 8));
                }
            std::vector<std::uint8_t> out(ZSTD_compressBound(plain.size()));
            ZSTD_CCtx* cctx = ZSTD_createCCtx();
            ZSTD_CCtx_setParameter(cctx, ZSTD_c_compressionLevel, 19);
            ZSTD_CCtx_setParameter(
                cctx, ZSTD_c_nbWorkers, int(std::thread::hardware_concurrency()));
            const std::size_t z
                = ZSTD_compress2(cctx, out.data(), out.size(), plain.data(), plain.size());
            ZSTD_freeCCtx(cctx);
            if (ZSTD_isError(z)) {
                std::fprintf(stderr, "zstd failed on %s\n", path.c_str());
                return 1;
            }
            baseline += z;
        }
        const double positions = 2.0 * double(n);
        totalFile += double(t->file_bytes());
        totalZstd += double(baseline);
        std::printf("%-10s %12.0f %8d %12llu %9.3f %12zu %9.3f %7.3f", m->name().c_str(), positions,
            metrics, static_cast<unsigned long long>(t->file_bytes()),
            8.0 * double(t->file_bytes()) / positions, baseline, 8.0 * double(baseline) / positions,
            double(t->file_bytes()) / double(baseline));
        if (!packedDir.empty()) {
            std::error_code ec;
            const auto packed = std::filesystem::file_size(table_path(packedDir, *m), ec);
            if (ec) {
                std::fprintf(stderr, "\nno packed table of %s in %s\n", m->name().c_str(),
                    packedDir.c_str());
                return 1;
            }
            totalPacked += double(packed);
            std::printf(" %12llu %9.3f %7.3f", static_cast<unsigned long long>(packed),
                8.0 * double(packed) / positions, double(packed) / double(t->file_bytes()));
        }
        std::printf("\n");
    }
    std::printf("all: %.0f bytes in files, %.0f with zstd -19, ratio %.3f\n", totalFile, totalZstd,
        totalZstd > 0 ? totalFile / totalZstd : 0.0);
    if (!packedDir.empty())
        std::printf("packed: %.0f bytes, %.3f of the files, %.3f of zstd -19\n", totalPacked,
            totalPacked / totalFile, totalZstd > 0 ? totalPacked / totalZstd : 0.0);
    return 0;
}

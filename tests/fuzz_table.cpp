// fuzz_table.cpp - libFuzzer target for the table reader: any bytes, stored as the file of KRvK,
// are either refused with TableError (by the header's and block index's checksum, or a block's
// zstd checksum when it is read) or answer every probe with a value. An input whose length is
// odd gets its index and file checksums recomputed first, so that the fuzzer also reaches what
// the checksums guard: block offsets, header fields, zstd frames. Both ways of reading are
// exercised: block by block through the cache (as a prober does) and whole (as the generator
// does). A crash, a hang or a sanitizer report is a bug. Run: scripts/fuzz-table. Seeds: real
// table files (KRvK, and KSvK as a file of another ending).
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <unistd.h>
#include <vector>

#include "tablebase.hpp"

namespace {

std::filesystem::path scratch_path() {
    return std::filesystem::temp_directory_path() / ("mktb-fuzz-table-" + std::to_string(getpid()));
}

const std::string& scratch_dir() {
    static const std::string dir = [] {
        std::filesystem::create_directories(scratch_path());
        // libFuzzer ends by exit(); the handler runs after `dir` is destroyed.
        std::atexit([] { std::filesystem::remove_all(scratch_path()); });
        return scratch_path().string();
    }();
    return dir;
}

// Rewrites the index checksum (after the header and block offsets) and the file checksum (the
// last 8 bytes) to match the bytes, as a writer would.
void fix_checksums(std::vector<std::uint8_t>& b) {
    using namespace mktb;
    if (b.size() < sizeof(TableHeader) + 16) return;
    TableHeader h;
    std::memcpy(&h, b.data(), sizeof h);
    // Before version 6 both sides, and a shorter header (docs/format.md).
    const std::uint32_t sides = h.version >= 6 ? h.sides & kBothSides : kBothSides;
    const std::size_t header = table_header_bytes(h.version);
    const std::uint64_t offsets = std::uint64_t(std::popcount(h.metrics))
            * std::uint64_t(std::popcount(sides)) * h.blocks_per_side
        + 1;
    if (offsets > b.size()) return;
    const std::size_t at = header + offsets * 8;
    if (at + 8 + 8 <= b.size()) {
        const std::uint64_t sum = checksum64(std::span(b.data(), at));
        std::memcpy(b.data() + at, &sum, 8);
    }
    const std::uint64_t file = checksum64(std::span(b.data(), b.size() - 8));
    std::memcpy(b.data() + b.size() - 8, &file, 8);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace mktb;
    const Material krk = *Material::parse("KRvK");
    const std::string path = table_path(scratch_dir(), krk);
    std::vector<std::uint8_t> bytes(data, data + size);
    if (size % 2) fix_checksums(bytes);
    if (FILE* f = std::fopen(path.c_str(), "wb")) {
        std::fwrite(bytes.data(), 1, bytes.size(), f);
        std::fclose(f);
    }
    const Position pos = Position::from_fen("8/8/8/4k3/8/8/8/R3K3 w - - 0 1");
    try {
        const Tablebase tables(scratch_dir(), std::size_t(1) << 20, true);
        const Table* t = tables.table(krk);
        (void)t->probe(pos); // one block through the cache
        for (std::uint64_t i = 0; i < t->index().size(); i += 997)
            (void)t->value(Metric::Dtm, Color(i & 1), i);
        (void)tables.probe_counted(pos, pos.count_state(), {});
        t->make_resident(); // the whole file, as the generator reads it
    } catch (const TableError&) { }
    return 0;
}

// table_writer.hpp - writes a table file (docs/format.md): the generator's side of the format,
// kept out of the probing library so that an engine links no compressor thread pool.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "mktb/tablefile.hpp"

namespace mktb {

// Writes a table: add() each metric (compressed at once, so the caller may free its cells),
// then write(). cells[c] holds index_size cells of cell_bytes each for side to move c;
// dont_care[c] (one bit per slot, or empty for none) marks the slots that are no position, whose
// cells the writer fills as compresses best. A metric added with `dtm` (the DTM cells already
// added, dtm_bytes each) is stored XOR those cells (Coding::XorDtm, in cells as wide as the wider
// of the two) when that makes it smaller. The file is written to a temporary name and renamed, so it is whole or
// absent. Throws TableError on failure.
class TableWriter {
public:
    TableWriter(const Material& m, std::uint32_t rules);
    using DontCare = std::array<std::vector<std::uint64_t>, COLOR_NB>;
    void add(Metric metric, int cell_bytes, const std::span<const std::uint8_t> cells[COLOR_NB],
        const DontCare& dont_care, const std::span<const std::uint8_t>* dtm = nullptr,
        int dtm_bytes = 0);
    void write(const std::string& path) const;

private:
    TableHeader header_ {};
    std::vector<std::vector<std::uint8_t>> frames_[int(Metric::NB)];
};

} // namespace mktb

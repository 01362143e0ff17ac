// tablefile.cpp - reading and writing table files (format in docs/format.md) and the Tablebase
// directory reader.
#include "mktb/tablefile.hpp"

#include <atomic>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <tbb/combinable.h>
#include <tbb/parallel_for.h>
#include <zstd.h>

#include "mktb/material.hpp"
#include "mktb/movegen.hpp"

namespace mktb {

namespace {

static_assert(std::endian::native == std::endian::little, "table files are little-endian");

// zstd level 12: within a few percent of level 19's size on these tables at several times
// its speed (see the closing figures of bench-gen).
constexpr int kZstdLevel = 12;

std::vector<std::uint8_t> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw TableError(path + ": cannot be opened");
    const std::streamsize n = in.tellg();
    std::vector<std::uint8_t> bytes(std::size_t(std::max<std::streamsize>(n, 0)));
    in.seekg(0);
    if (!in.read(reinterpret_cast<char*>(bytes.data()), n))
        throw TableError(path + ": read failed");
    return bytes;
}

} // namespace

std::uint64_t checksum64(std::span<const std::uint8_t> bytes, std::uint64_t h) {
    for (std::uint8_t b : bytes) h = (h ^ b) * 0x100000001b3ULL;
    return h;
}

std::string table_path(const std::string& dir, const Material& m) {
    return (std::filesystem::path(dir) / (m.name() + ".mktb")).string();
}

TableWriter::TableWriter(const Material& m, std::uint32_t rules) {
    const Index index(m);
    TableHeader& h = header_;
    std::memcpy(h.magic, kTableMagic, sizeof h.magic);
    h.version = kTableVersion;
    h.header_bytes = sizeof(TableHeader);
    const std::string name = m.name();
    std::memcpy(h.signature, name.data(), std::min(name.size(), sizeof h.signature - 1));
    h.index_scheme = kIndexScheme;
    h.rules = rules;
    h.block_cells = kBlockCells;
    h.index_size = index.size();
    h.blocks_per_side = (index.size() + kBlockCells - 1) / kBlockCells;
}

void TableWriter::add(
    Metric metric, int cell_bytes, const std::span<const std::uint8_t> cells[COLOR_NB]) {
    TableHeader& h = header_;
    h.metrics |= 1u << int(metric);
    h.cell_bytes[int(metric)] = std::uint8_t(cell_bytes);
    auto& frames = frames_[int(metric)];
    const std::size_t nblocks = std::size_t(2 * h.blocks_per_side);
    frames.assign(nblocks, {});
    // Blocks are independent zstd frames (with zstd's own content checksum), compressed in
    // parallel; the result does not depend on the thread count.
    std::atomic<bool> failed { false };
    struct Compressor {
        std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx { nullptr, &ZSTD_freeCCtx };
        std::vector<std::uint8_t> scratch; // one block's worst case, so frames take no more
    };
    tbb::combinable<Compressor> compressors;
    tbb::parallel_for(std::size_t(0), nblocks, [&](std::size_t b) {
        auto& [cctx, scratch] = compressors.local();
        if (!cctx) {
            scratch.resize(ZSTD_compressBound(std::size_t(kBlockCells) * std::size_t(cell_bytes)));
            cctx.reset(ZSTD_createCCtx());
            ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_compressionLevel, kZstdLevel);
            ZSTD_CCtx_setParameter(cctx.get(), ZSTD_c_checksumFlag, 1);
        }
        const Color c = Color(b / h.blocks_per_side);
        const std::uint64_t first = (b % h.blocks_per_side) * kBlockCells;
        const std::uint64_t n = std::min<std::uint64_t>(kBlockCells, h.index_size - first);
        const std::uint8_t* src = cells[c].data() + first * std::uint64_t(cell_bytes);
        const std::size_t z = ZSTD_compress2(
            cctx.get(), scratch.data(), scratch.size(), src, n * std::uint64_t(cell_bytes));
        if (ZSTD_isError(z))
            failed = true;
        else
            frames[b].assign(scratch.begin(), scratch.begin() + std::ptrdiff_t(z));
    });
    if (failed) throw TableError(std::string(h.signature) + ": zstd compression failed");
}

void TableWriter::write(const std::string& path) const {
    // Block order: metrics in increasing number, then White to move, then Black to move.
    std::vector<const std::vector<std::uint8_t>*> blocks;
    for (const auto& frames : frames_)
        for (const auto& f : frames) blocks.push_back(&f);
    std::vector<std::uint64_t> offsets(blocks.size() + 1);
    offsets[0] = sizeof(TableHeader) + offsets.size() * sizeof(std::uint64_t);
    for (std::size_t b = 0; b < blocks.size(); ++b) offsets[b + 1] = offsets[b] + blocks[b]->size();

    // Whole or not at all: stream into a temporary file beside the target, then rename it.
    const std::string tmp = path + ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        std::uint64_t sum = checksum64({});
        auto put = [&](const void* data, std::size_t n) {
            const auto* bytes = static_cast<const std::uint8_t*>(data);
            sum = checksum64(std::span(bytes, n), sum);
            f.write(reinterpret_cast<const char*>(bytes), std::streamsize(n));
        };
        put(&header_, sizeof header_);
        put(offsets.data(), offsets.size() * sizeof(std::uint64_t));
        for (const auto* frame : blocks) put(frame->data(), frame->size());
        f.write(reinterpret_cast<const char*>(&sum), sizeof sum);
        f.flush();
        if (!f) {
            std::remove(tmp.c_str());
            throw TableError(tmp + ": write failed (disk full?)");
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        std::remove(tmp.c_str());
        throw TableError(path + ": rename failed");
    }
}

LoadedTable LoadedTable::load(const std::string& path, const Material& expected) {
    const std::vector<std::uint8_t> bytes = read_file(path);
    auto damaged = [&](const std::string& why) { return TableError(path + ": " + why); };
    TableHeader h;
    if (bytes.size() < sizeof h + 2 * sizeof(std::uint64_t))
        throw damaged("too short to be a table file (truncated?)");
    std::memcpy(&h, bytes.data(), sizeof h);
    if (std::memcmp(h.magic, kTableMagic, sizeof h.magic) != 0)
        throw damaged("not an mktb table file");
    if (h.version != kTableVersion)
        throw damaged("format version " + std::to_string(h.version) + ", this reader knows "
            + std::to_string(kTableVersion) + " (generate the table again)");
    std::uint64_t stored;
    std::memcpy(&stored, bytes.data() + bytes.size() - sizeof stored, sizeof stored);
    if (checksum64(std::span(bytes.data(), bytes.size() - sizeof stored)) != stored)
        throw damaged("checksum mismatch: the file is damaged or truncated");
    const std::string name(h.signature, strnlen(h.signature, sizeof h.signature));
    if (name != expected.name()) throw damaged("holds " + name + ", expected " + expected.name());
    LoadedTable t(expected);
    bool sane = h.header_bytes == sizeof h && h.index_scheme == kIndexScheme && h.block_cells != 0
        && h.index_size == t.index_.size() && (h.metrics & 1) && h.metrics < (1u << int(Metric::NB))
        && h.blocks_per_side == (h.index_size + h.block_cells - 1) / h.block_cells;
    std::vector<Metric> metrics;
    for (int m = 0; m < int(Metric::NB) && sane; ++m)
        if (h.metrics >> m & 1) {
            sane = h.cell_bytes[m] == 1 || h.cell_bytes[m] == 2;
            metrics.push_back(Metric(m));
        }
    if (!sane) throw damaged("header does not describe a table of " + name + " this reader knows");
    t.rules_ = h.rules;
    const std::size_t perMetric = std::size_t(2 * h.blocks_per_side);
    const std::size_t nblocks = perMetric * metrics.size();
    const std::size_t tableEnd = sizeof h + (nblocks + 1) * sizeof(std::uint64_t);
    if (bytes.size() < tableEnd + sizeof stored) throw damaged("block index truncated");
    std::vector<std::uint64_t> offsets(nblocks + 1);
    std::memcpy(offsets.data(), bytes.data() + sizeof h, offsets.size() * sizeof(std::uint64_t));
    for (Metric m : metrics) {
        const int mi = int(m);
        t.cell_bytes_[mi] = h.cell_bytes[mi];
        for (Color c : { WHITE, BLACK }) t.cells_[mi][c].resize(h.index_size * h.cell_bytes[mi]);
    }
    for (std::size_t b = 0; b < nblocks; ++b) {
        if (offsets[b] < tableEnd || offsets[b + 1] < offsets[b]
            || offsets[b + 1] > bytes.size() - sizeof stored)
            throw damaged("block " + std::to_string(b) + " lies outside the file");
        const int mi = int(metrics[b / perMetric]);
        const std::uint32_t cb = h.cell_bytes[mi];
        const Color c = Color(b % perMetric / h.blocks_per_side);
        const std::uint64_t first = (b % h.blocks_per_side) * h.block_cells;
        const std::uint64_t n = std::min<std::uint64_t>(h.block_cells, h.index_size - first);
        const std::size_t z = ZSTD_decompress(t.cells_[mi][c].data() + first * cb, n * cb,
            bytes.data() + offsets[b], offsets[b + 1] - offsets[b]);
        if (ZSTD_isError(z) || z != n * cb)
            throw damaged("block " + std::to_string(b) + " does not decompress: "
                + (ZSTD_isError(z) ? ZSTD_getErrorName(z) : "wrong size"));
    }
    return t;
}

const LoadedTable* Tablebase::table(const Material& canonical) const {
    const std::string name = canonical.name();
    std::lock_guard lock(mutex_);
    if (auto it = tables_.find(name); it != tables_.end()) return it->second.get();
    if (missing_.contains(name)) return nullptr;
    const std::string path = table_path(dir_, canonical);
    if (!std::filesystem::exists(path)) {
        missing_[name] = true;
        return nullptr;
    }
    auto t = std::make_unique<LoadedTable>(LoadedTable::load(path, canonical));
    return (tables_[name] = std::move(t)).get();
}

Value LoadedTable::probe(Metric m, const Position& pos) const {
    if (Material::of(pos) == index_.material())
        return value(m, pos.side_to_move(), index_.encode(pos));
    const Position p = colour_swapped(pos);
    return value(m, p.side_to_move(), index_.encode(p));
}

std::optional<Value> Tablebase::probe(const Position& pos) const {
    const Material m = Material::of(pos);
    if (m.bare_kings()) return Value::draw();
    const LoadedTable* t = table(m.canonical());
    if (!t) return std::nullopt;
    return t->probe(pos);
}

std::optional<CountedValue> Tablebase::probe_counted(
    const Position& pos, CountState count, const CountRules& rules) const {
    const CountPhase phase = count_phase(pos);
    if (phase == CountPhase::BareKings) return CountedValue {};
    if (phase == CountPhase::PiecesHonour) { // DTM is the metric: the count is a pure deadline
        const std::optional<Value> v = probe(pos);
        if (!v) return std::nullopt;
        return counted_pieces_honour(pos, *v, count, rules);
    }
    // Board's honour and the Bia phase have counted metrics of their own, built for one set of
    // options: another set is refused, never answered.
    const Metric metric = phase == CountPhase::NoCount ? Metric::Bia : Metric::Board;
    const LoadedTable* t = table(Material::of(pos).canonical());
    if (!t) return std::nullopt;
    if (!t->has(metric))
        throw TableError("the table of " + t->index().material().name()
            + " lacks its counted values (made by an older mktb): generate it again");
    if (t->rules() != encode(rules))
        throw TableError("the table of " + t->index().material().name() + " was built with "
            + describe(decode_rules(t->rules())) + ", not " + describe(rules)
            + ": probe with those options or generate it again");
    const Value v = t->probe(metric, pos);
    return metric == Metric::Bia ? counted_bia_phase(v) : counted_board_honour(v, count, rules);
}

CountedValue counted_board_honour(Value v, CountState count, const CountRules& rules) {
    // The fewest moves the winner needs to mate or to bare the defender into a position won
    // under the fresh pieces' honour count, against its moves left in the board count.
    if (rules.has(RuleOption::BoardHonourOff)) return counted_bia_phase(v); // no deadline
    CountedValue c;
    if (v.is_draw()) {
        c.moves_available = attacker_moves_left(count, true, rules);
        return c;
    }
    c.moves_needed = std::abs(v.mate_in_moves());
    c.moves_available = attacker_moves_left(count, v.is_win(), rules);
    if (v.plies == 0 || c.moves_needed <= c.moves_available)
        c.result = v.is_win() ? CountedValue::Result::Win : CountedValue::Result::Loss;
    return c;
}

CountedValue counted_bia_phase(Value v) {
    CountedValue c;
    c.moves_available = -1; // no count runs while a Bia is on the board
    if (v.is_draw()) return c;
    c.moves_needed = std::abs(v.mate_in_moves());
    c.result = v.is_win() ? CountedValue::Result::Win : CountedValue::Result::Loss;
    return c;
}

Value as_value(const CountedValue& c) {
    switch (c.result) {
    case CountedValue::Result::Win:
        return Value::mate_in_plies(2 * c.moves_needed - 1);
    case CountedValue::Result::Loss:
        return Value::mate_in_plies(2 * c.moves_needed);
    default:
        return Value::draw();
    }
}

std::vector<Move> counted_line(const Tablebase& tables, Position pos, CountState count,
    const CountRules& rules, int max_plies) {
    std::vector<Move> line;
    while (int(line.size()) < max_plies) {
        const std::optional<CountedValue> here = tables.probe_counted(pos, count, rules);
        if (!here || here->result == CountedValue::Result::Draw) break;
        const bool winning = here->result == CountedValue::Result::Win;
        Move best = MOVE_NONE;
        int bestMoves = 0;
        CountState bestCount {};
        for (Move m : legal_moves(pos)) {
            Position next = pos;
            next.do_move(m);
            const CountState after = count_after_move(pos, next, count, rules);
            const std::optional<CountedValue> c = tables.probe_counted(next, after, rules);
            if (!c) return line;
            // From the mover's view: the opponent's counted loss is our win, and so on.
            const bool keeps = winning ? c->result == CountedValue::Result::Loss
                                       : c->result == CountedValue::Result::Win;
            if (!keeps) continue;
            // Board's honour measures the way to the baring capture: once made, it is done.
            const int needed = count_phase(pos) == CountPhase::BoardHonour
                    && count_phase(next) == CountPhase::PiecesHonour
                ? 0
                : c->moves_needed;
            if (best == MOVE_NONE || (winning ? needed < bestMoves : needed > bestMoves)) {
                best = m;
                bestMoves = needed;
                bestCount = after;
            }
        }
        if (best == MOVE_NONE) break; // mated (or nothing keeps the result)
        pos.do_move(best);
        count = bestCount;
        line.push_back(best);
    }
    return line;
}

std::string describe(Value v) {
    if (v.is_draw()) return "draw";
    if (v.plies == 0) return "checkmated";
    const int n = v.mate_in_moves();
    return n > 0 ? "mate in " + std::to_string(n) : "mated in " + std::to_string(-n);
}

} // namespace mktb

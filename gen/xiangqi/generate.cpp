// generate.cpp - one Xiangqi ending, retrograde, as a pipeline of named phases:
//   init     every slot decoded once: no position, illegal for a side to move, or its legal
//            moves counted (those staying in the ending) and its captures valued from the
//            smaller tables (the best for the mover kept as its conversion value);
//   levels   level n takes every cell decided at n plies: a loss at n makes each undecided
//            parent (found by un-moves) a win at n + 1; a win at n takes one from each parent's
//            count, and the parent whose count reaches 0 is lost at the longer of n + 1 and its
//            best capture's loss. Conversion wins are decided at their own level;
//   output   the cells as the table stores them (0 draw, plies + 1) through the shared writer.
// Invariant: a cell is written once, from 0 to its value, and at level n only values of n + 1
// plies or more are written, so the bytes do not depend on the thread count or the order.
//
// Counting under the mirror: a parent counts its moves, and a move and its mirror image may lead
// to one child class. Un-moves from the child's one board find each (parent board, move) that
// reaches that board: where the child is its own mirror and the parent is not, a parent's two
// boards both reach it (so only the un-move to the parent's canonical board counts); where the
// parent is its own mirror and the child is not, each un-move stands for a move and its mirror
// image (so it counts twice).
#include "generate.hpp"

#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>

#include "captures.hpp"
#include "moves.hpp"
#include "parallel.hpp"
#include "perpetual.hpp"
#include "table_writer.hpp"

namespace mktb::xq {

namespace {

constexpr int kMaxPlies = 253; // 8-bit cells: plies + 1 <= 254

using Bytes = HugeArray<std::uint8_t>;

// A capture's value for the mover, 0 = no capture, 1 = draw, 2 + plies otherwise.
std::uint8_t conv_code(Value v) { return v.is_draw() ? 1 : std::uint8_t(2 + v.plies); }

struct Work {
    Work(const Material& material, const Tablebase& tables)
        : m(material)
        , index(material)
        , children(tables)
        , n(index.size())
        , captures(index, tables) { }
    const Material& m;
    const Index index;
    const Tablebase& children;
    std::uint64_t n;
    Bytes val[COLOR_NB], cnt[COLOR_NB], conv[COLOR_NB];
    std::atomic<int> maxConv { -1 };
    // Per side and block of kBlock slots, bit (plies % 64) set when a cell of the block holds a
    // value of that many plies (`levels`) or a capture winning in that many (`convWins`): a
    // level reads only the blocks that may hold its cells.
    std::vector<std::uint64_t> levels[COLOR_NB], convWins[COLOR_NB];
    void mark(Color s, std::uint64_t slot, int plies) {
        std::atomic_ref(levels[s][slot >> kBlockShift])
            .fetch_or(std::uint64_t(1) << (plies & 63), std::memory_order_relaxed);
    }
    static bool has(const std::vector<std::uint64_t>& mask, std::uint64_t block, int plies) {
        return mask[block] >> (plies & 63) & 1;
    }
    const Captures captures;
};

void init(Work& w, Progress* progress) {
    parallel_blocks(
        w.n, progress, "init", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
            int maxConv = -1;
            BoardFollower board(w.index);
            for (Index::Cursor at(w.index, first); at.slot() < last; at.next()) {
                const std::uint64_t slot = at.slot();
                for (Color s : { RED, BLACK })
                    w.val[s][slot] = kNone, w.cnt[s][slot] = 0, w.conv[s][slot] = 0;
                if (!at.is_position()) continue;
                const Placement& pl = at.placement();
                board.follow(pl);
                Position& pos = board.position();
                if (pos.kings_facing()) continue;
                const bool inCheck[COLOR_NB] = { pos.in_check(RED), pos.in_check(BLACK) };
                for (Color s : { RED, BLACK }) {
                    if (inCheck[~s]) continue;
                    pos.set_side_to_move(s);
                    int quiet = 0, legal = 0;
                    int best = 0; // preference of the best capture
                    bool anyCapture = false;
                    for_each_legal(
                        w.index, pl, pos, s, inCheck[s], [&](int man, int to, int victim) {
                            ++legal;
                            if (victim < 0) {
                                ++quiet;
                                return;
                            }
                            const int p
                                = preference(w.captures.value(pl, man, to, victim, s).parent());
                            if (!anyCapture || p > best) best = p;
                            anyCapture = true;
                        });
                    w.cnt[s][slot] = std::uint8_t(quiet);
                    if (!legal) { // mated or stalemated: lost either way
                        w.val[s][slot] = Value::mate_in_plies(0).cell();
                        w.levels[s][slot >> kBlockShift] |= 1;
                        continue;
                    }
                    w.val[s][slot] = 0;
                    if (!anyCapture) continue;
                    const Value v = from_preference(best);
                    w.conv[s][slot] = conv_code(v);
                    if (!v.is_draw()) maxConv = std::max(maxConv, v.plies);
                    if (v.is_win())
                        w.convWins[s][slot >> kBlockShift] |= std::uint64_t(1) << (v.plies & 63);
                    if (!quiet && v.is_loss()) {
                        w.val[s][slot] = std::uint8_t(v.cell());
                        w.levels[s][slot >> kBlockShift] |= std::uint64_t(1) << (v.plies & 63);
                    }
                }
            }
            for (int seen = w.maxConv.load();
                 maxConv > seen && !w.maxConv.compare_exchange_weak(seen, maxConv);) { }
        });
}

// Decides the parents of the cells lost or won at `level` plies; returns how many cells were
// at that level.
std::uint64_t level(Work& w, int level, Progress* progress) {
    const std::uint8_t code = std::uint8_t(level + 1);
    const bool losses = level % 2 == 0;
    if (!losses) // the captures winning in `level` plies, where nothing won sooner
        for (Color s : { RED, BLACK })
            parallel_blocks(w.n, nullptr, "",
                [&](std::uint64_t block, std::uint64_t first, std::uint64_t last) {
                    if (!Work::has(w.convWins[s], block, level)) return;
                    bool any = false;
                    for (std::uint64_t slot = first; slot < last; ++slot)
                        if (w.val[s][slot] == 0 && w.conv[s][slot] == 2 + level)
                            w.val[s][slot] = code, any = true;
                    if (any) w.mark(s, first, level);
                });
    std::atomic<std::uint64_t> found { 0 };
    if (progress) progress->phase("level " + std::to_string(level), 2 * w.n);
    for (Color s : { RED, BLACK }) {
        const Color mover = ~s; // the side that moved into the cells of this level
        std::uint8_t* parentVal = w.val[mover].get();
        std::uint8_t* parentCnt = w.cnt[mover].get();
        const std::uint8_t* parentConv = w.conv[mover].get();
        parallel_blocks_in(
            0, w.n, progress, [&](std::uint64_t block, std::uint64_t first, std::uint64_t last) {
                if (!Work::has(w.levels[s], block, level)) return;
                std::uint64_t here = 0;
                const std::uint8_t* cells = w.val[s].get();
                // memchr: the library's vector search finds the level's few cells in the block.
                for (const std::uint8_t* at = cells + first;
                     (at = static_cast<const std::uint8_t*>(
                          std::memchr(at, code, std::size_t(cells + last - at))));
                     ++at) {
                    const std::uint64_t slot = std::uint64_t(at - cells);
                    ++here;
                    Placement pl;
                    Points occupied;
                    w.index.decode(slot, pl, &occupied);
                    const Index::Mover parents(w.index, slot, pl);
                    const bool selfMirror = parents.symmetric();
                    for_each_unmove(w.index, parents, pl, occupied, mover,
                        [&](std::uint64_t q, bool mirrored, bool parentMirror) {
                            std::atomic_ref<std::uint8_t> v(parentVal[q]);
                            if (v.load(std::memory_order_relaxed) != 0) return;
                            if (losses) {
                                std::uint8_t expected = 0;
                                if (v.compare_exchange_strong(expected, std::uint8_t(code + 1)))
                                    w.mark(mover, q, level + 1);
                                return;
                            }
                            if (selfMirror && mirrored && !parentMirror) return;
                            const std::uint8_t step = parentMirror && !selfMirror ? 2 : 1;
                            std::atomic_ref<std::uint8_t> c(parentCnt[q]);
                            const std::uint8_t before = c.fetch_sub(step);
                            if (before < step)
                                throw std::logic_error("xiangqi generator: a count went below 0");
                            if (before != step) return;
                            const std::uint8_t cv = parentConv[q];
                            if (cv == 1 || (cv >= 2 && (cv - 2) % 2 == 1))
                                return; // a capture draws or wins
                            const int plies = cv >= 2 ? std::max(level + 1, cv - 2) : level + 1;
                            v.store(std::uint8_t(plies + 1), std::memory_order_relaxed);
                            w.mark(mover, q, plies);
                        });
                }
                found += here;
            });
    }
    return found;
}

SideStats side_stats(const Work& w, Color s) {
    struct Part {
        std::uint64_t positions = 0, wins = 0, draws = 0, losses = 0;
        int longest = -1;
        std::uint64_t slot = 0;
    };
    // Per block, then merged in block order: the longest mate's slot is the first of the
    // longest, whatever the thread count.
    std::vector<Part> parts((w.n + kBlock - 1) / kBlock);
    parallel_blocks(
        w.n, nullptr, "", [&](std::uint64_t b, std::uint64_t first, std::uint64_t last) {
            Part& p = parts[b];
            for (std::uint64_t slot = first; slot < last; ++slot) {
                const std::uint8_t v = w.val[s][slot];
                if (v == kNone) continue;
                ++p.positions;
                if (v == 0)
                    ++p.draws;
                else if ((v - 1) % 2) {
                    ++p.wins;
                    if (v - 1 > p.longest) p.longest = v - 1, p.slot = slot;
                } else
                    ++p.losses;
            }
        });
    SideStats st;
    std::uint64_t longestSlot = 0;
    for (const Part& p : parts) {
        st.positions += p.positions, st.wins += p.wins, st.draws += p.draws, st.losses += p.losses;
        if (p.longest > st.longest) st.longest = p.longest, longestSlot = p.slot;
    }
    if (st.longest >= 0) {
        Placement pl;
        w.index.decode(longestSlot, pl);
        st.longest_fen = w.index.position(pl, s).fen();
    }
    return st;
}

} // namespace

std::uint64_t memory_needed(const Material& m) {
    std::uint64_t bytes = 6 * Index(m).size();
    // A child with both sides armed is read with its rule's cells.
    for (const Material& c : children(m))
        bytes += (c.armless(RED) || c.armless(BLACK) ? 2 : 4) * Index(c).size();
    return bytes;
}

GenStats generate(const Material& m, const Tablebase& children, Progress* progress, int zstdLevel) {
    const auto start = std::chrono::steady_clock::now();
    Work w(m, children);
    for (Color s : { RED, BLACK }) {
        w.val[s] = make_huge_array<std::uint8_t>(w.n);
        w.cnt[s] = make_huge_array<std::uint8_t>(w.n);
        w.conv[s] = make_huge_array<std::uint8_t>(w.n);
        w.levels[s].assign((w.n >> kBlockShift) + 1, 0);
        w.convWins[s].assign((w.n >> kBlockShift) + 1, 0);
    }
    auto since = [](auto t) {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
    };
    auto t = std::chrono::steady_clock::now();
    init(w, progress);
    GenStats stats;
    stats.init_seconds = since(t);
    t = std::chrono::steady_clock::now();
    stats.name = m.name();
    stats.cells = w.n;
    int lastLevel = -1; // the last level that held a cell
    for (int n = 0;; ++n) {
        if (n >= kMaxPlies) // level n writes n + 1 plies, cell n + 2: 0xFF is kNone
            throw TableError(m.name() + " (Xiangqi): a mate longer than "
                + std::to_string(kMaxPlies) + " plies, beyond 8-bit cells");
        if (level(w, n, progress)) lastLevel = n;
        if (n > lastLevel + 1 && n > w.maxConv.load() + 1) break;
    }
    stats.levels = lastLevel + 1;
    stats.level_seconds = since(t);
    t = std::chrono::steady_clock::now();
    // No position's count may stay above 0 unless it is drawn: checked by verify, not here.
    for (Color s : { RED, BLACK }) w.conv[s].reset();
    // Both sides armed: the rule's results, in the count cells' memory.
    const bool rulePass = !m.armless(RED) && !m.armless(BLACK);
    if (rulePass) {
        const std::uint8_t* const plain[COLOR_NB] = { w.val[RED].get(), w.val[BLACK].get() };
        std::uint8_t* const rule[COLOR_NB] = { w.cnt[RED].get(), w.cnt[BLACK].get() };
        const RuleCounts rc = perpetual_check(w.index, w.captures, plain, rule, progress);
        for (Color s : { RED, BLACK })
            stats.side[s].rule_wins = rc.won[s], stats.side[s].rule_losses = rc.lost[s];
        stats.rule_rounds = rc.rounds;
        stats.rule_seconds = since(t);
    } else
        for (Color s : { RED, BLACK }) w.cnt[s].reset();
    t = std::chrono::steady_clock::now();

    TableWriter::DontCare dontCare;
    for (Color s : { RED, BLACK }) {
        dontCare[s].assign((w.n + 63) / 64, 0);
        // Blocks of kBlock slots are whole words of the mask: one writer per word.
        parallel_blocks(
            w.n, nullptr, "", [&](std::uint64_t, std::uint64_t first, std::uint64_t last) {
                for (std::uint64_t slot = first; slot < last; ++slot)
                    if (w.val[s][slot] == kNone)
                        dontCare[s][slot / 64] |= std::uint64_t(1) << (slot % 64);
            });
        const std::uint64_t ruleWins = stats.side[s].rule_wins,
                            ruleLosses = stats.side[s].rule_losses;
        stats.side[s] = side_stats(w, s);
        stats.side[s].rule_wins = ruleWins, stats.side[s].rule_losses = ruleLosses;
    }
    if (progress) progress->phase("output", 0);
    TableWriter writer(table_key(m), rulePass ? kRulePerpetualCheck : kRulePlainArmless,
        table_path(children.dir(), m), rulePass ? 2 : 1);
    writer.set_level(zstdLevel);
    const std::span<const std::uint8_t> cells[COLOR_NB]
        = { { w.val[RED].get(), w.n }, { w.val[BLACK].get(), w.n } };
    writer.add(Metric::Dtm, 1, cells, dontCare);
    if (rulePass) {
        const std::span<const std::uint8_t> rules[COLOR_NB]
            = { { w.cnt[RED].get(), w.n }, { w.cnt[BLACK].get(), w.n } };
        writer.add(kRuleResult, 1, rules, dontCare);
    }
    writer.commit();
    stats.output_seconds = since(t);
    stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return stats;
}

std::string stats_json(const GenStats& s) {
    nlohmann::ordered_json j;
    j["game"] = "xiangqi";
    j["ending"] = s.name;
    j["cells"] = s.cells;
    j["levels"] = s.levels;
    j["seconds"] = s.seconds;
    j["phase_seconds"] = { { "init", s.init_seconds }, { "levels", s.level_seconds },
        { "perpetual_check", s.rule_seconds }, { "output", s.output_seconds } };
    j["rule"] = s.rule_rounds ? "perpetual check (chase not modelled)" : "plain: one side armless";
    if (s.rule_rounds) j["perpetual_check_rounds"] = s.rule_rounds;
    for (Color c : { RED, BLACK }) {
        const SideStats& x = s.side[c];
        j[c == RED ? "red_to_move" : "black_to_move"] = { { "positions", x.positions },
            { "wins", x.wins }, { "draws", x.draws }, { "losses", x.losses },
            { "longest_mate_plies", x.longest }, { "longest_mate_fen", x.longest_fen } };
        if (s.rule_rounds) { // of the plain draws, those the rule decides
            j[c == RED ? "red_to_move" : "black_to_move"]["rule_wins"] = x.rule_wins;
            j[c == RED ? "red_to_move" : "black_to_move"]["rule_losses"] = x.rule_losses;
        }
    }
    return j.dump(2) + "\n";
}

} // namespace mktb::xq

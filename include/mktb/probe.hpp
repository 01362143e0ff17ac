// mktb/probe.hpp - the probing API for engines and tools, in C++ (mktb/probe.h is the same in C):
// pure and counted win/draw/loss, distance to mate, the counted distance, the best moves under
// either view, and every root move ranked.
//
// A Prober is opened on a directory of tables with the counting options its counted answers
// follow. Tables are opened lazily and read a block at a time (a file changed under the Prober is
// refused with TableError, and read again once whole); decompressed blocks live in one bounded
// cache. Every const member may be called from any number of threads at once.
// Errors: a table that is absent gives std::nullopt; a damaged one, or one built with other
// counting options, throws TableError (its message names the file and the fault). A count state
// that cannot occur (count_error in mktb/counting.hpp: the FEN parser's rule) throws
// std::invalid_argument naming the fault. A count past its limit (count_has_ended) has ended the
// game: drawn unless the side to move is mated, and no move is ranked from it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mktb/counting.hpp"
#include "mktb/errors.hpp"
#include "mktb/xiangqi/index.hpp"
#include "mktb/xiangqi/position.hpp"

namespace mktb {

class BlockCache; // the probe library's own: the cache and the readers of each game's tables
class Tablebase;
namespace xq {
class Tablebase; // Xiangqi's
}

enum class Wdl : std::int8_t { Loss = -1, Draw = 0, Win = 1 };

struct ProbeOptions {
    // Decompressed blocks kept, counted in blocks of 16 KiB (16-bit tables may hold up to twice).
    std::size_t cache_bytes = std::size_t(64) << 20;
    CountRules rules; // the counting options; a table built with others is refused
    // Xiangqi's repetition rules: a table of an ending with both sides armed made under another
    // set is refused (RulesError), never read as this one's (docs/rules-xiangqi.md §5).
    xq::RuleSet xiangqi_rules = xq::kDefaultRuleSet;
};

// A legal move with its values in one view: both are the mover's, and both count the move
// itself. pure: the mover's distance to mate in plies, this move included (Rh8# is a win in 1).
// counted: the result for the mover under the count; moves_needed is the winner's moves to mate
// (or to a winning conversion) and moves_available the moves the count leaves the winner, each
// including this move when the mover is the winner (so a win is moves_needed <= moves_available;
// after a conversion the count it starts). Probe the position after the move for its own view.
struct RankedMove {
    Move move = MOVE_NONE;
    Value pure; // distance to mate, no counting
    CountedValue counted; // under the count
};

// One position of a table as Prober::walk() visits it.
struct TablePosition {
    Position pos; // its side to move set; its count the fresh one it starts
    Value pure; // distance to mate, no counting
    CountedValue counted; // under that fresh count
    std::uint64_t weight = 0; // the boards it stands for (its class under the ending's symmetry)
    std::uint64_t board = 0; // the table's board number: both sides to move of a board share it
};

// A legal Xiangqi move with its value for the mover, the move included (a mating move: 1), its
// result under the repetition rules for the mover (+1 won, 0 drawn, -1 lost) and, where only
// the rules decide it, the rule's distance of the position it leads to (Prober::rule_plies).
struct XiangqiMove {
    xq::Move move = xq::MOVE_NONE;
    Value value;
    int result = 0;
    int rule_plies = -1;
};

// Which answer best_moves() keeps: the pure game value, or the result under the count.
enum class View : std::uint8_t { Pure, Counted };

class Prober {
public:
    explicit Prober(std::string dir, ProbeOptions options = {});
    ~Prober();
    Prober(const Prober&) = delete;
    Prober& operator=(const Prober&) = delete;

    const ProbeOptions& options() const { return options_; }

    // The directory read, whether it holds the table of `m` (men in any order, either side
    // first), and the most men of any table in it (0: none). Lock-free.
    const std::string& dir() const;
    bool available(const Material& m) const;
    int largest() const;
    // Blocks decompressed so far, each a cache miss: to size cache_bytes. Lock-free.
    std::uint64_t cache_misses() const;
    // Opens every table of the directory now (maps it, checks its header), so that no probe
    // pays for it later; throws TableError when one is damaged.
    void open_tables() const;

    // Visits every legal position of the table of `m`, one per symmetry class, board after board
    // (both sides to move of a board in a row), with its values: a whole table read into memory
    // first, for tools that study an ending (mktb teach), not for engines. False when the table
    // is absent; throws TableError (RulesError) when it is damaged (built under other counting
    // options). Thread-safe, as every const member: the table is made resident once.
    bool walk(const Material& m, const std::function<void(const TablePosition&)>& visit) const;

    // The count a probe of `pos` follows: its own (FEN fields 4-5) when one is set, else the
    // one the position starts now (docs/rules.md §3.4).
    CountState count_of(const Position& pos) const;

    std::optional<Value> dtm(const Position& pos) const;
    std::optional<Wdl> wdl(const Position& pos) const;
    std::optional<CountedValue> counted(const Position& pos) const;
    std::optional<CountedValue> counted(const Position& pos, CountState count) const;
    std::optional<Wdl> counted_wdl(const Position& pos) const;

    // Every legal move, best first: the counted result, then the counted distance (fastest win,
    // slowest loss), then the pure value. nullopt when a table on the way is absent.
    std::optional<std::vector<RankedMove>> rank_root(const Position& pos) const;
    std::optional<std::vector<RankedMove>> rank_root(const Position& pos, CountState count) const;
    // The moves that keep the best answer under `view`: for Pure the fastest mates (or slowest
    // losses, or every drawing move); for Counted the moves of the first rank_root() entry's
    // counted result and distance. Empty when there is no legal move.
    std::optional<std::vector<Move>> best_moves(const Position& pos, View view) const;

    // A line that keeps the best counted result from `pos` under `count`: the winner takes the
    // fastest counted win, the loser its longest resistance (the slowest pure mate; every move
    // of it loses under the count), until mate (empty for a counted draw). Moves in order. Its
    // length is never below the pure distance to mate, so a mate score read from it is one the
    // defender cannot beat.
    std::vector<Move> line(Position pos, CountState count, int max_plies = 400) const;

    // Xiangqi (docs/rules-xiangqi.md), the same questions of a Xiangqi position, from the
    // directory's Xiangqi tables (KRvKAABB.xq.mktb; a directory may hold both games' tables):
    // whether the table of `m` is there; the plain distance to mate (stalemate a loss; every
    // endless line a draw) and its result; the result under the perpetual-check rule (the
    // plain result wherever the rule changes nothing, as where one side is armless); and every
    // legal move with its value, best first (by the rule's result, then the plain value, then
    // the rule's distance: a plain win above any the rules alone give). Where only the rules
    // decide a position (the plain analysis draws it), rule_plies gives the rule's distance
    // (docs/rules-xiangqi.md §5c): the plies until the loser stands where it can leave the
    // cycle of its checks or chases only into a loss, or by breaking the rule again; even for
    // the side to move losing, odd winning; -1 elsewhere, and for a table made before the
    // distances. Counting options do not apply. nullopt when a table on the way is absent.
    // Lock-free available(); every member thread-safe, as for Makruk.
    bool available(const xq::Material& m) const;
    std::optional<Value> dtm(const xq::Position& pos) const;
    std::optional<Wdl> wdl(const xq::Position& pos) const;
    std::optional<Wdl> rule_wdl(const xq::Position& pos) const;
    std::optional<int> rule_plies(const xq::Position& pos) const;
    std::optional<std::vector<XiangqiMove>> rank_root(const xq::Position& pos) const;

private:
    static void check_count(const Position& pos, CountState count); // throws invalid_argument
    ProbeOptions options_;
    std::shared_ptr<BlockCache> cache_; // one bound for both games' tables
    std::unique_ptr<const Tablebase> tables_;
    std::unique_ptr<const xq::Tablebase> xiangqi_;
};

// True when `a` is a better counted answer than `b` for the side they belong to: a better
// result, then a faster counted win or a slower counted loss.
bool better(const CountedValue& a, const CountedValue& b);
// True when `a` is a better Xiangqi move than `b` for the mover: rank_root's order.
bool better(const XiangqiMove& a, const XiangqiMove& b);

} // namespace mktb

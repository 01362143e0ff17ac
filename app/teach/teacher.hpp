// teacher.hpp - what `mktb teach` finds in one ending: one scan of the whole table (every
// position, both sides to move, one per symmetry class, through Prober::walk) gathers the
// statistics and candidates; the probing API then checks each candidate's moves and keeps the
// positions of each theme by its stated rule. The report (report.hpp) writes them out.
#pragma once

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "answer.hpp"
#include "mktb/movegen.hpp"
#include "mktb/probe.hpp"
#include "notation.hpp"
#include "words.hpp"

namespace mktb::cli {

// One position of a theme, with everything said about it.
struct Item {
    std::string id;
    Position pos; // its count state is the one the position starts (a fresh count)
    std::vector<Move> best; // the moves that keep the result the theme is about ("bm")
    std::vector<Move> avoid; // tempting moves that throw it away ("am")
    std::optional<int> dm; // the side to move mates in dm moves without counting
    Said claim; // the theme's property, in words
    Said task; // what the worksheet asks of this position when not the theme's task
    Json facts; // the same, as data for the tests
    int difficulty = 0; // the theme's figure: the larger, the harder (see `hardness`)
    Said hardness; // that figure in words: "7 only moves on the main line"
    std::vector<Move> line; // the main line from pos under its count
    bool pureLine = false; // the line is the fastest mate without counting
};

struct Theme {
    Theme(std::string k, Said t, Said r, Said a)
        : key(std::move(k))
        , title(std::move(t))
        , rule(std::move(r))
        , task(std::move(a)) { }
    std::string key;
    Said title, rule;
    Said task; // what the worksheet asks of each position, without giving it away
    std::vector<Item> items;
};

// A uniform random sample of at most `capacity` positions from a stream (reservoir sampling),
// seeded per ending so that a report can be made again (both games' teachers).
template<class P>
struct Sample {
    explicit Sample(std::size_t c)
        : capacity(c) { }
    std::size_t capacity;
    std::vector<P> kept;
    std::uint64_t seen = 0;
    void offer(const P& p, std::mt19937_64& rng) {
        ++seen;
        if (kept.size() < capacity)
            kept.push_back(p);
        else if (const std::uint64_t j = rng() % seen; j < capacity)
            kept[j] = p;
    }
};
using Reservoir = Sample<Position>;

// Per side to move: positions (distinct boards), pure and counted results, mate distances.
struct SideFigures {
    std::uint64_t legal = 0, wins = 0, draws = 0, losses = 0, countedWins = 0, countedLosses = 0;
    std::map<int, std::uint64_t> pureMoves, countedMoves; // wins by moves needed
    int longest = -1, longestCounted = -1;
};

class Teacher {
public:
    Teacher(const Prober& prober, int perTheme)
        : prober_(prober)
        , rules_(prober.options().rules)
        , perTheme_(perTheme) { }

    // Scans the table of `m`, then fills the themes.
    void study(const Material& m) {
        material_ = m;
        rng_.seed(std::hash<std::string> {}(m.name()));
        scan();
        build_themes();
    }

    const Material& material() const { return material_; }
    const std::array<SideFigures, COLOR_NB>& figures() const { return figures_; }
    const std::vector<Theme>& themes() const { return themes_; }
    const CountRules& rules() const { return rules_; }
    const Prober& prober() const { return prober_; }

private:
    void scan() {
        figures_ = {};
        for (Reservoir* r :
            { &counted_wins_, &counted_draws_, &pure_losses_, &count_critical_, &zugzwang_ })
            *r = Reservoir(r->capacity);
        for (Reservoir& r : longest_) r = Reservoir(r.capacity);
        for (Reservoir& r : longestCounted_) r = Reservoir(r.capacity);
        longestMoves_.fill(-1);
        longestCountedMoves_.fill(-1);
        // Both sides to move of a board come in a row: the pure results of the last board seen,
        // for mutual zugzwang.
        std::uint64_t board = ~std::uint64_t(0);
        std::array<std::optional<Wdl>, COLOR_NB> pureResult;
        std::optional<Position> whiteToMove;
        auto end_board = [&] {
            // Mutual zugzwang: White does worse with the move than without it (so does Black).
            if (pureResult[WHITE] && pureResult[BLACK]
                && int(*pureResult[WHITE]) < -int(*pureResult[BLACK]))
                zugzwang_.offer(*whiteToMove, rng_);
            pureResult = {};
            whiteToMove.reset();
        };
        const bool found = prober_.walk(material_, [&](const TablePosition& t) {
            if (t.board != board) end_board(), board = t.board;
            const Position& pos = t.pos;
            const Color stm = pos.side_to_move();
            const Value pure = t.pure;
            const CountedValue& counted = t.counted;
            const std::uint64_t weight = t.weight;
            pureResult[stm] = wdl_of(pure);
            if (stm == WHITE) whiteToMove = pos;
            SideFigures& f = figures_[stm];
            f.legal += weight;
            (pure.is_win() ? f.wins : pure.is_loss() ? f.losses : f.draws) += weight;
            if (pure.is_win()) f.pureMoves[pure.mate_in_moves()] += weight;
            if (counted.result == CountedValue::Result::Win) {
                f.countedWins += weight;
                f.countedMoves[counted.moves_needed] += weight;
            } else if (counted.result == CountedValue::Result::Loss) {
                f.countedLosses += weight;
            }
            // Candidates: the longest mates, pure and counted (a few per side).
            if (pure.is_win()) f.longest = std::max(f.longest, pure.mate_in_moves());
            if (counted.result == CountedValue::Result::Win)
                f.longestCounted = std::max(f.longestCounted, counted.moves_needed);
            if (!pure.is_draw())
                offer_longest(
                    longest_[stm], std::abs(pure.mate_in_moves()), pos, longestMoves_[stm]);
            if (counted.result != CountedValue::Result::Draw && counted.moves_needed > 0)
                offer_longest(
                    longestCounted_[stm], counted.moves_needed, pos, longestCountedMoves_[stm]);
            // Move-level themes are checked later on uniform samples.
            if (counted.result == CountedValue::Result::Win && counted.moves_needed >= 3)
                counted_wins_.offer(pos, rng_);
            if (counted.result == CountedValue::Result::Draw && !pure.is_draw())
                count_critical_.offer(pos, rng_);
            if (counted.result == CountedValue::Result::Draw) counted_draws_.offer(pos, rng_);
            if (pure.is_loss() && pure.plies >= 4) pure_losses_.offer(pos, rng_);
        });
        if (!found) throw std::runtime_error("no table for " + material_.name());
        end_board();
    }

    // Keeps up to a few positions at the longest distance seen so far.
    // (A uniform sample of them: the scan meets positions king pair by king pair.)
    void offer_longest(Reservoir& list, int moves, const Position& pos, int& best) {
        if (moves > best) best = moves, list = Reservoir(list.capacity);
        if (moves == best) list.offer(pos, rng_);
    }

    std::vector<RankedMove> ranked(const Position& pos) const {
        return *prober_.rank_root(pos, pos.count_state());
    }

    // The fastest mate without counting (the winner's fastest, the loser's slowest moves).
    std::vector<Move> pure_line(Position pos) const {
        std::vector<Move> line;
        while (line.size() < 600) {
            const std::vector<Move> best = *prober_.best_moves(pos, View::Pure);
            if (best.empty() || prober_.dtm(pos)->is_draw()) break;
            line.push_back(best.front());
            pos.do_move(best.front());
            pos.set_count_state({}); // no count: this line ignores it (and do_move keeps none)
        }
        return line;
    }

    // The item's common part: claim, facts, main line (its id comes when a theme takes it).
    Item make_item(const Position& pos, Said claim, bool pureLine = false) const {
        Item item;
        item.pos = pos;
        item.claim = std::move(claim);
        const Value pure = *prober_.dtm(pos);
        if (pure.is_win()) item.dm = pure.mate_in_moves();
        item.pureLine = pureLine;
        item.line = pureLine ? pure_line(pos) : prober_.line(pos, pos.count_state());
        item.facts = { { "category", result_word(pure) },
            { "counted", result_word(prober_.counted(pos, pos.count_state())->result) } };
        return item;
    }

    // Whether two positions are nearly one: the same side to move and the boards differ by one
    // man moved (two squares), or the same kings' squares. A theme keeps one of them.
    static bool near_identical(const Position& a, const Position& b) {
        if (a.king_square(WHITE) == b.king_square(WHITE)
            && a.king_square(BLACK) == b.king_square(BLACK))
            return true;
        if (a.side_to_move() != b.side_to_move()) return false;
        int differ = 0;
        for (int s = 0; s < 64; ++s) differ += a.piece_on(Square(s)) != b.piece_on(Square(s));
        return differ <= 2;
    }

    // Adds `item` unless the theme is full or a nearly identical position is in it already
    // (spread over the table rather than clustered). Nor one on the line of a position kept (in
    // any theme), nor one whose line passes through a position kept: two positions never share
    // their solution.
    bool add(Theme& theme, Item item) {
        if (int(theme.items.size()) >= perTheme_) return false;
        for (const Item& other : theme.items)
            if (near_identical(other.pos, item.pos)) return false;
        const auto key = [](const Position& p) {
            const std::string fen = p.fen();
            return fen.substr(0, fen.find(' ') + 2); // the board and the side to move
        };
        std::vector<std::string> along { key(item.pos) };
        Position walk = item.pos;
        for (Move m : item.line) {
            walk.do_move(m);
            along.push_back(key(walk));
        }
        if (onLines_.count(along.front())) return false;
        for (const std::string& k : along)
            if (kept_.count(k)) return false;
        // Nor one whose line joins another's after its first move or two (the rest of the
        // solution shared), nor one that starts with the same move as another of the theme.
        for (std::size_t i = 1; i < std::min<std::size_t>(along.size(), 3); ++i)
            if (onLines_.count(along[i])) return false;
        for (const Item& other : theme.items)
            if (!item.line.empty() && !other.line.empty() && other.line[0] == item.line[0])
                return false;
        kept_.insert(along.front());
        onLines_.insert(along.begin(), along.end());
        item.id = material_.name() + "." + theme.key + "." + std::to_string(theme.items.size() + 1);
        theme.items.push_back(std::move(item));
        return true;
    }

    // Adds `items` to the theme, the most difficult first (ties in the order found).
    void add_hardest_first(Theme& theme, std::vector<Item> items) {
        std::stable_sort(items.begin(), items.end(),
            [](const Item& a, const Item& b) { return a.difficulty > b.difficulty; });
        for (Item& item : items) add(theme, std::move(item));
    }

    // The moves of `moves` keeping the first one's counted result and distance.
    static std::vector<Move> counted_best(const std::vector<RankedMove>& moves) {
        std::vector<Move> out;
        for (const RankedMove& m : moves)
            if (m.counted.result == moves.front().counted.result
                && m.counted.moves_needed == moves.front().counted.moves_needed)
                out.push_back(m.move);
        return out;
    }

    // How many of the winner's moves along the main line are the only ones keeping the counted
    // win (line_text marks them again for the page and the PGN, for the items kept).
    int only_moves_on_line(const Item& item) const {
        Position pos = item.pos;
        CountState count = pos.count_state();
        const Color winner = pos.side_to_move();
        int n = 0;
        for (Move m : item.line) {
            if (pos.side_to_move() == winner) {
                int winning = 0;
                const std::vector<RankedMove> moves = *prober_.rank_root(pos, count);
                for (const RankedMove& r : moves)
                    winning += r.counted.result == CountedValue::Result::Win;
                n += winning == 1;
            }
            Position next = pos;
            next.do_move(m);
            count = count_after_move(pos, next, count, rules_);
            next.set_count_state(count);
            pos = next;
        }
        return n;
    }

    // Candidates examined move by move per theme.
    static constexpr int kBudget = 400;
    int half() const { return (perTheme_ + 1) / 2; } // White's share where both sides take turns

    void build_themes() {
        const auto [longest, longestCounted] = longest_themes();
        themes_ = { longest, longestCounted, only_move_theme(), count_critical_theme(),
            defence_theme(), zugzwang_theme(), trap_theme() };
    }

    // The longest mates, pure and under a fresh count, per side to move.
    std::pair<Theme, Theme> longest_themes() {
        Theme longest { "longest", { "Longest mates", "รุกจนยาวที่สุด" },
            { "The positions where the side to move needs the most moves to mate, without "
              "counting (the fastest mate is the solution).",
                "ตำแหน่งที่ฝ่ายเดินต้องใช้ตามากที่สุดจึงรุกจน ถ้าไม่นับ (คำตอบคือทางรุกจนที่เร็วที่สุด)" },
            { "Find the fastest mate.", "หาทางรุกจนที่เร็วที่สุด" } };
        Theme longestCounted { "longest-counted",
            { "Longest wins within the count", "ชนะภายในการนับที่ยาวที่สุด" },
            { "The positions whose win within a fresh count takes the most moves: mate, or under "
              "board's honour a capture that bares the defender into a won pieces' honour count.",
                "ตำแหน่งที่การชนะภายในการนับใหม่ใช้ตามากที่สุด: รุกจน หรือในการนับศักดิ์กระดาน "
                "การกินหมากตัวสุดท้ายที่นำไปสู่การนับศักดิ์หมากที่ชนะ" },
            { "Find the move that wins within the count, and play the win out.",
                "หาตาเดินที่ชนะภายในการนับ แล้วเดินจนชนะ" } };
        for (Color stm : { WHITE, BLACK }) {
            const int quota = stm == WHITE ? half() : perTheme_;
            for (const Position& p : longest_[stm].kept) {
                if (int(longest.items.size()) >= quota) break;
                const Value v = *prober_.dtm(p);
                const std::string n = std::to_string(longestMoves_[stm]);
                Item item = make_item(p,
                    { std::string(kColorName[stm]) + (v.is_win() ? " mates in " : " is mated in ")
                            + n + ", the longest mate of " + material_.name() + " with "
                            + kColorName[stm] + " to move",
                        color_name(stm, Lang::Th) + (v.is_win() ? "รุกจนใน " : "ถูกรุกจนใน ") + n
                            + " ตา ยาวที่สุดของ " + material_.name() + " เมื่อ"
                            + color_name(stm, Lang::Th) + "เดิน" },
                    true);
                item.best = *prober_.best_moves(p, View::Pure);
                // The theme's task ("find the fastest mate") only where it is one: the side to
                // move mates, and the count lets it.
                const CountedValue c = *prober_.counted(p, p.count_state());
                if (v.is_loss())
                    item.task = c.result == CountedValue::Result::Draw
                        ? Said { "Hold out until the count ends the game: the defence that lasts.",
                              "ต้านไว้จนการนับจบเกม: หาทางป้องกันที่ยืนได้" }
                        : Said { "Find the defence that holds out longest.",
                              "หาทางป้องกันที่ต้านได้นานที่สุด" };
                else if (c.result == CountedValue::Result::Draw)
                    item.task = { "Under the count this is a draw: how many moves would the mate "
                                  "take, and how many does the count leave?",
                        "ตามการนับตำแหน่งนี้เสมอ: การรุกจนต้องใช้กี่ตา และการนับเหลือกี่ตา?" };
                item.difficulty = longestMoves_[stm];
                item.hardness = { std::to_string(item.difficulty) + " moves to mate",
                    std::to_string(item.difficulty) + " ตาถึงรุกจน" };
                item.facts["mate_moves"] = longestMoves_[stm];
                add(longest, std::move(item));
            }
            for (const Position& p : longestCounted_[stm].kept) {
                if (int(longestCounted.items.size()) >= quota) break;
                const CountedValue c = *prober_.counted(p, p.count_state());
                const std::string n = std::to_string(longestCountedMoves_[stm]);
                const bool wins = c.result == CountedValue::Result::Win;
                Item item = make_item(p,
                    { std::string(kColorName[stm]) + (wins ? " wins" : " loses")
                            + " within a fresh count in " + n + " moves, the longest of "
                            + material_.name() + " with " + kColorName[stm] + " to move",
                        color_name(stm, Lang::Th) + (wins ? "ชนะ" : "แพ้") + "ภายในการนับใหม่ใน " + n
                            + " ตา ยาวที่สุดของ " + material_.name() + " เมื่อ"
                            + color_name(stm, Lang::Th) + "เดิน" });
                item.best = counted_best(ranked(p));
                // The theme's task is the winner's; the loser to move defends (a bare king
                // cannot win).
                if (!wins)
                    item.task = { "Find the defence that holds out longest under the count.",
                        "หาทางป้องกันที่ต้านได้นานที่สุดภายใต้การนับ" };
                item.difficulty = longestCountedMoves_[stm];
                item.hardness = { std::to_string(item.difficulty) + " moves within the count",
                    std::to_string(item.difficulty) + " ตาภายในการนับ" };
                item.facts["moves_needed"] = longestCountedMoves_[stm];
                add(longestCounted, std::move(item));
            }
        }
        return { longest, longestCounted };
    }

    // Only-move wins: exactly one move keeps the win within the count.
    Theme only_move_theme() {
        Theme only { "only-move", { "Only-move wins", "ชนะด้วยตาเดินเดียว" },
            { "Won within a fresh count, and every move but one throws that win away; difficulty: "
              "how many of the winner's moves along the main line are only moves (study-like).",
                "ชนะภายในการนับใหม่ และทุกตาเดินยกเว้นตาเดียวทิ้งการชนะ; ความยาก: "
                "จำนวนตาเดินบังคับของฝ่ายชนะในแนวหลัก" },
            { "Find the only move that keeps the win within the count.",
                "หาตาเดินเดียวที่ยังชนะภายในการนับ" } };
        std::vector<Item> onlyItems;
        for (int i = 0; i < std::min<int>(kBudget, int(counted_wins_.kept.size())); ++i) {
            const Position& p = counted_wins_.kept[std::size_t(i)];
            const std::vector<RankedMove> moves = ranked(p);
            int winning = 0;
            for (const RankedMove& r : moves)
                winning += r.counted.result == CountedValue::Result::Win;
            if (winning != 1) continue;
            const std::string m = san(p, moves.front().move);
            Item item = make_item(p,
                { "only " + m + " keeps the win within the count",
                    "มีเพียง " + m + " ที่ยังชนะภายในการนับ" });
            item.best = { moves.front().move };
            item.difficulty = only_moves_on_line(item);
            item.hardness = { std::to_string(item.difficulty) + " only move"
                    + (item.difficulty == 1 ? "" : "s") + " on the main line",
                "ตาเดินบังคับ " + std::to_string(item.difficulty) + " ตาในแนวหลัก" };
            item.facts["winning_moves"] = 1;
            onlyItems.push_back(std::move(item));
        }
        add_hardest_first(only, std::move(onlyItems));
        return only;
    }

    // Count-critical: wins the count takes away, or that only a slower mate keeps.
    Theme count_critical_theme() {
        Theme critical { "count-critical", { "Wins the count takes away", "ชนะที่การนับพรากไป" },
            { "Won without counting but drawn under the fresh count (the fewest moves short "
              "first); and won within the count only by a move that is not the fastest mate.",
                "ชนะถ้าไม่นับ แต่เสมอด้วยการนับใหม่ (ขาดน้อยที่สุดก่อน) "
                "และชนะภายในการนับได้ด้วยตาที่ไม่ใช่ทางรุกจนที่เร็วที่สุดเท่านั้น" },
            { "Does the count leave time to win? If it does, find the move that wins within it.",
                "การนับเหลือเวลาพอให้ชนะหรือไม่? ถ้าพอ หาตาเดินที่ชนะภายในการนับ" } };
        for (int i = 0; i < std::min<int>(kBudget, int(counted_wins_.kept.size())); ++i) {
            const Position& p = counted_wins_.kept[std::size_t(i)];
            const std::vector<RankedMove> moves = ranked(p);
            const Value fastest = std::max_element(
                moves.begin(), moves.end(), [](const RankedMove& a, const RankedMove& b) {
                    return better(b.pure, a.pure);
                })->pure;
            std::vector<Move> fast;
            bool fastWins = false;
            for (const RankedMove& r : moves)
                if (r.pure == fastest) {
                    fast.push_back(r.move);
                    fastWins |= r.counted.result == CountedValue::Result::Win;
                }
            if (fastWins) continue;
            const std::string f = san(p, fast.front()), m = san(p, moves.front().move);
            Item item = make_item(p,
                { "the fastest mate (" + f + ") runs out of count: only " + m + " wins within it",
                    "ทางรุกจนที่เร็วที่สุด (" + f + ") นับไม่ทัน: มีเพียง " + m + " ที่ชนะภายในการนับ" });
            item.best = counted_best(moves);
            item.avoid = fast;
            item.difficulty = int(fast.size());
            item.hardness = { std::to_string(fast.size()) + " fastest mate"
                    + (fast.size() == 1 ? "" : "s") + " to resist",
                "ต้องเลี่ยงทางรุกจนที่เร็วที่สุด " + std::to_string(fast.size()) + " ทาง" };
            item.facts["fastest_mate_loses_count"] = true;
            if (!add(critical, std::move(item)) && int(critical.items.size()) >= half()) break;
        }
        std::vector<Item> criticalItems;
        for (const Position& p : count_critical_.kept) {
            const CountedValue c = *prober_.counted(p, p.count_state());
            if (c.moves_needed < 0) continue;
            const Color winner = prober_.dtm(p)->is_win() ? p.side_to_move() : ~p.side_to_move();
            const std::string left = std::to_string(c.moves_available),
                              needed = std::to_string(c.moves_needed);
            Item item = make_item(p,
                { pure_verdict_words(p, Lang::En) + " without counting, but the count leaves "
                        + kColorName[winner] + " " + left + " moves for the " + needed
                        + " it needs: a draw",
                    pure_verdict_words(p, Lang::Th) + " ถ้าไม่นับ แต่การนับเหลือให้"
                        + color_name(winner, Lang::Th) + "เพียง " + left + " ตา จากที่ต้องใช้ " + needed
                        + " ตา: เสมอ" },
                true);
            item.best = *prober_.best_moves(p, View::Pure);
            // The loser to move is the one the count saves: its task is to reach the count's end.
            if (winner != p.side_to_move())
                item.task = { "Does the count save you? Hold out until it ends the game.",
                    "การนับช่วยให้รอดหรือไม่? ต้านไว้จนการนับจบเกม" };
            // The closer the count comes, the harder to see that it takes the win away.
            item.difficulty = 100 - (c.moves_needed - c.moves_available);
            item.hardness = { "the count is " + std::to_string(c.moves_needed - c.moves_available)
                    + " move" + (c.moves_needed - c.moves_available == 1 ? "" : "s") + " short",
                "การนับขาดไป " + std::to_string(c.moves_needed - c.moves_available) + " ตา" };
            item.facts["shortfall"] = c.moves_needed - c.moves_available;
            criticalItems.push_back(std::move(item));
        }
        add_hardest_first(critical, std::move(criticalItems));
        return critical;
    }

    // Defence: the one move that holds out longest, or keeps the draw under the count.
    Theme defence_theme() {
        Theme defence { "defence", { "Defence", "การป้องกัน" },
            { "Lost positions where only one move holds out longest (the pure distance to mate), "
              "and positions drawn under the count where only one move keeps the draw.",
                "ตำแหน่งแพ้ที่มีเพียงตาเดียวที่ต้านได้นานที่สุด (ถ้าไม่นับ) "
                "และตำแหน่งเสมอด้วยการนับที่มีเพียงตาเดียวที่รักษาการเสมอ" },
            { "Find the best defence: the one move that holds out longest, or keeps the draw.",
                "หาทางป้องกันที่ดีที่สุด: ตาเดียวที่ต้านได้นานที่สุด หรือรักษาการเสมอ" } };
        for (int i = 0; i < std::min<int>(kBudget, int(pure_losses_.kept.size())); ++i) {
            if (int(defence.items.size()) >= half()) break;
            const Position& p = pure_losses_.kept[std::size_t(i)];
            const std::vector<RankedMove> moves = ranked(p);
            int longestLoss = -1, atLongest = 0;
            Move m = MOVE_NONE;
            for (const RankedMove& r : moves)
                if (r.pure.is_loss()) {
                    if (r.pure.plies > longestLoss)
                        longestLoss = r.pure.plies, atLongest = 0, m = r.move;
                    atLongest += r.pure.plies == longestLoss;
                }
            // A defence whose one move takes a free man teaches nothing.
            if (atLongest != 1 || moves.size() < 3 || !p.empty(to_sq(m))) continue;
            Item item = make_item(p,
                { "only " + san(p, m) + " holds out longest (" + describe(Value { longestLoss })
                        + ")",
                    "มีเพียง " + san(p, m) + " ที่ต้านได้นานที่สุด ("
                        + value_text(Value { longestLoss }, Lang::Th) + ")" });
            item.best = { m };
            item.difficulty = int(moves.size()) - 1;
            item.hardness = { std::to_string(item.difficulty) + " other moves lose sooner",
                "ตาอื่นอีก " + std::to_string(item.difficulty) + " ตาแพ้เร็วกว่า" };
            item.facts["longest_loss_plies"] = longestLoss;
            add(defence, std::move(item));
        }
        for (int i = 0; i < std::min<int>(kBudget, int(counted_draws_.kept.size())); ++i) {
            const Position& p = counted_draws_.kept[std::size_t(i)];
            const std::vector<RankedMove> moves = ranked(p);
            int drawing = 0;
            for (const RankedMove& r : moves)
                drawing += r.counted.result == CountedValue::Result::Draw;
            if (drawing != 1 || moves.size() < 3 || !p.empty(to_sq(moves.front().move))) continue;
            const std::string m = san(p, moves.front().move);
            Item item = make_item(p,
                { "only " + m + " keeps the draw under the count",
                    "มีเพียง " + m + " ที่รักษาการเสมอด้วยการนับ" });
            item.best = { moves.front().move };
            item.difficulty = int(moves.size()) - 1;
            item.hardness = { std::to_string(item.difficulty) + " other moves lose",
                "ตาอื่นอีก " + std::to_string(item.difficulty) + " ตาแพ้" };
            item.facts["drawing_moves"] = 1;
            if (!add(defence, std::move(item)) && int(defence.items.size()) >= perTheme_) break;
        }
        return defence;
    }

    // Mutual zugzwang.
    Theme zugzwang_theme() {
        Theme zugzwang { "zugzwang", { "Mutual zugzwang", "ซุกซวังทั้งสองฝ่าย" },
            { "Whoever is to move does worse than if the other side were to move (results "
              "without counting): the diagram shows White to move.",
                "ฝ่ายใดเดินก็เสียเปรียบกว่าเมื่ออีกฝ่ายเดิน (ผลเมื่อไม่นับ): แผนภาพแสดงเมื่อขาวเดิน" },
            { "What is the result with White to move, and with Black to move?",
                "ผลเป็นอย่างไรเมื่อขาวเดิน และเมื่อดำเดิน?" } };
        for (const Position& p : zugzwang_.kept) {
            Position other = p;
            other.set_side_to_move(BLACK);
            other.set_count_state(fresh_count(other, rules_));
            const Value w = *prober_.dtm(p), b = *prober_.dtm(other);
            Item item = make_item(p,
                { "White to move: " + pure_words(WHITE, w, Lang::En)
                        + "; Black to move: " + pure_words(BLACK, b, Lang::En),
                    "ขาวเดิน: " + pure_words(WHITE, w, Lang::Th)
                        + "; ดำเดิน: " + pure_words(BLACK, b, Lang::Th) });
            item.facts["white_to_move"] = result_word(w);
            item.facts["black_to_move"] = result_word(b);
            item.difficulty = std::max(std::abs(w.mate_in_moves()), std::abs(b.mate_in_moves()));
            item.hardness
                = { "a mate of " + std::to_string(item.difficulty) + " moves hangs on the move",
                      "การรุกจน " + std::to_string(item.difficulty) + " ตาขึ้นกับว่าใครเดิน" };
            add(zugzwang, std::move(item));
        }
        return zugzwang;
    }

    // Traps: a natural move (a capture, a check, the king's nearest approach) throws the result
    // away.
    Theme trap_theme() {
        Theme traps { "trap", { "Traps", "กับดัก" },
            { "Won within the count (or drawn under it), and a natural move - a capture, a "
              "check, or the king move that comes closest to the other king - throws the win (or "
              "the draw) away.",
                "ชนะภายในการนับ (หรือเสมอ) และตาเดินที่ดูเป็นธรรมชาติ - การกิน การรุก "
                "หรือการเดินขุนเข้าใกล้ขุนอีกฝ่าย - ทิ้งการชนะ (หรือการเสมอ)" },
            { "Find the move that keeps the result, and the tempting move that throws it away.",
                "หาตาเดินที่รักษาผล และตาล่อใจที่ทิ้งผลนั้น" } };
        for (const Reservoir* pool : { &counted_wins_, &counted_draws_ })
            for (int i = 0; i < std::min<int>(kBudget, int(pool->kept.size())); ++i) {
                if (int(traps.items.size()) >= (pool == &counted_wins_ ? half() : perTheme_)) break;
                const Position& p = pool->kept[std::size_t(i)];
                const std::vector<RankedMove> moves = ranked(p);
                if (moves.empty()) continue;
                const Wdl goal = wdl_of(moves.front().counted.result);
                const RankedMove* trap = nullptr;
                std::string why;
                for (const RankedMove& r : moves) {
                    if (wdl_of(r.counted.result) >= goal) continue;
                    const std::string kind = natural(p, r.move, moves);
                    if (!kind.empty()) {
                        trap = &r, why = kind;
                        break;
                    }
                }
                if (!trap) continue;
                // A trap that simply hangs a man is no trap: the opponent's answer that keeps
                // the result it gains may not be a capture.
                if (hangs_a_man(p, trap->move)) continue;
                const std::string whyTh = why == "capture" ? "การกิน"
                    : why == "check"                       ? "การรุก"
                                     : "การเดินขุนเข้าใกล้";
                Item item = make_item(p,
                    { "the " + why + " " + san(p, trap->move) + " looks natural but "
                            + (goal == Wdl::Win ? "throws the win within the count away"
                                                : "loses under the count"),
                        whyTh + " " + san(p, trap->move) + " ดูเป็นธรรมชาติ แต่"
                            + (goal == Wdl::Win ? "ทิ้งการชนะภายในการนับ" : "แพ้ตามการนับ") });
                item.best = counted_best(moves);
                item.avoid = { trap->move };
                if (goal != Wdl::Win)
                    item.task = { "Find the move that keeps the draw, and the tempting move that "
                                  "throws it away.",
                        "หาตาเดินที่รักษาการเสมอ และตาล่อใจที่ทิ้งการเสมอ" };
                item.difficulty = why == "capture" ? 3 : why == "check" ? 2 : 1;
                item.hardness = { "the tempting move: a " + why, "ตาล่อใจ: " + whyTh };
                item.facts["trap"] = move_to_uci(trap->move);
                item.facts["trap_counted"] = result_word(trap->counted.result); // for the mover
                add(traps, std::move(item));
            }
        return traps;
    }

    // "White mates in 14", "Black is mated in 14".
    std::string pure_verdict_words(const Position& p, Lang lang) const {
        const Value v = *prober_.dtm(p);
        const std::string n = std::to_string(std::abs(v.mate_in_moves()));
        if (lang == Lang::Th)
            return color_name(p.side_to_move(), lang) + (v.is_win() ? "รุกจนใน " : "ถูกรุกจนใน ") + n
                + " ตา";
        return std::string(kColorName[p.side_to_move()])
            + (v.is_win() ? " mates in " : " is mated in ") + n;
    }

    static std::string pure_words(Color stm, Value v, Lang lang) {
        if (v.is_draw()) return lang == Lang::Th ? "เสมอ" : "draw";
        const Color winner = v.is_win() ? stm : ~stm;
        return color_name(winner, lang) + (lang == Lang::Th ? "ชนะ" : " wins");
    }

    // Whether `m` simply hangs a man: among the opponent's best answers (under the count) is a
    // capture (Mf5+ answered by Kxf5).
    bool hangs_a_man(const Position& pos, Move m) const {
        Position next = pos;
        next.do_move(m);
        next.set_count_state(count_after_move(pos, next, pos.count_state(), rules_));
        const std::vector<RankedMove> replies = *prober_.rank_root(next, next.count_state());
        for (Move r : counted_best(replies))
            if (!next.empty(to_sq(r))) return true;
        return false;
    }

    // "capture", "check", "king approach" when `m` is natural in `pos`, else empty.
    static std::string natural(const Position& pos, Move m, const std::vector<RankedMove>& moves) {
        if (!pos.empty(to_sq(m))) return "capture";
        Position next = pos;
        next.do_move(m);
        if (next.in_check()) return "check";
        const Color us = pos.side_to_move();
        if (type_of(pos.piece_on(from_sq(m))) != KHUN) return {};
        auto distance = [&](Square s) {
            const Square them = pos.king_square(~us);
            return std::max(
                std::abs(file_of(s) - file_of(them)), std::abs(rank_of(s) - rank_of(them)));
        };
        int nearest = 99;
        for (const RankedMove& r : moves)
            if (from_sq(r.move) == pos.king_square(us))
                nearest = std::min(nearest, distance(to_sq(r.move)));
        return distance(to_sq(m)) == nearest ? "king approach" : std::string();
    }

    const Prober& prober_;
    CountRules rules_;
    int perTheme_;
    Material material_;
    std::mt19937_64 rng_;
    std::array<SideFigures, COLOR_NB> figures_ {};
    std::array<Reservoir, COLOR_NB> longest_ { Reservoir(64), Reservoir(64) },
        longestCounted_ { Reservoir(64), Reservoir(64) }; // decisive, per side to move
    std::array<int, COLOR_NB> longestMoves_ {}, longestCountedMoves_ {};
    Reservoir counted_wins_ = Reservoir(3000), counted_draws_ = Reservoir(3000),
              pure_losses_ = Reservoir(3000), count_critical_ = Reservoir(600),
              zugzwang_ = Reservoir(200);
    std::vector<Theme> themes_;
    std::set<std::string> kept_, onLines_; // positions kept; those on their lines (board, side)
};

} // namespace mktb::cli

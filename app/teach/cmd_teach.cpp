// cmd_teach.cpp - `mktb teach`: teaching material from the tables. For each ending, one scan of
// the whole table (every position, both sides to move, one per symmetry class) gathers the
// statistics and candidates; the probing API then checks each candidate's moves and keeps the
// positions of each theme by its stated rule. Written per ending: an HTML page (statistics, a
// histogram of mate distances pure against counted, the themes with diagrams and solutions
// behind a click, printable), EPD, PGN (main lines, the count announced, NAG $8 for only moves),
// SVG diagrams and a JSON file of every claim (what the tests re-check); and for the whole report
// an overview of every generated ending and a page on the tournament regulation of
// docs/rules.md §7.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

#include "answer.hpp"
#include "cli.hpp"
#include "diagram.hpp"
#include "mktb/movegen.hpp"
#include "notation.hpp"
#include "words.hpp"

namespace mktb::cli {

namespace {

namespace fs = std::filesystem;


// One position of a theme, with everything said about it.
struct Item {
    std::string id;
    Position pos; // its count state is the one the position starts (a fresh count)
    std::vector<Move> best; // the moves that keep the result the theme is about ("bm")
    std::vector<Move> avoid; // tempting moves that throw it away ("am")
    std::optional<int> dm; // the side to move mates in dm moves without counting
    std::string claim; // the theme's property, in words
    Json facts; // the same, as data for the tests
    int difficulty = 0; // the theme's figure: the larger, the harder (see `hardness`)
    std::string hardness; // that figure in words: "7 only moves on the main line"
    std::vector<Move> line; // the main line from pos under its count
    bool pureLine = false; // the line is the fastest mate without counting
};

struct Theme {
    Theme(std::string k, std::string t, std::string r, std::string a)
        : key(std::move(k))
        , title(std::move(t))
        , rule(std::move(r))
        , task(std::move(a)) { }
    std::string key, title, rule;
    std::string task; // what the worksheet asks of each position, without giving it away
    std::vector<Item> items;
};

// A uniform random sample of at most `capacity` positions from a stream (reservoir sampling),
// seeded per ending so that a report can be made again.
struct Reservoir {
    explicit Reservoir(std::size_t c)
        : capacity(c) { }
    std::size_t capacity;
    std::vector<Position> kept;
    std::uint64_t seen = 0;
    void offer(const Position& p, std::mt19937_64& rng) {
        ++seen;
        if (kept.size() < capacity)
            kept.push_back(p);
        else if (const std::uint64_t j = rng() % seen; j < capacity)
            kept[j] = p;
    }
};


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
                offer_longest(longest_[stm], std::abs(pure.mate_in_moves()), pos, longestMoves_[stm]);
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
    Item make_item(const Position& pos, const std::string& claim, bool pureLine = false) const {
        Item item;
        item.pos = pos;
        item.claim = claim;
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
    // (spread over the table rather than clustered).
    bool add(Theme& theme, Item item) {
        if (int(theme.items.size()) >= perTheme_) return false;
        for (const Item& other : theme.items)
            if (near_identical(other.pos, item.pos)) return false;
        item.id = material_.name() + "." + theme.key + "." + std::to_string(theme.items.size() + 1);
        theme.items.push_back(std::move(item));
        return true;
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

    void build_themes() {
        themes_.clear();
        const int budget = 400; // candidates examined move by move per theme
        // 1-2. The longest mates, pure and under a fresh count, per side to move.
        Theme longest { "longest", "Longest mates",
            "The positions where the side to move needs the most moves to mate, without counting "
            "(the fastest mate is the solution).",
            "Find the fastest mate." };
        Theme longestCounted { "longest-counted", "Longest wins within the count",
            "The positions whose win within a fresh count takes the most moves: mate, or under "
            "board's honour a capture that bares the defender into a won pieces' honour count.",
            "Find the move that wins within the count, and play the win out." };
        const int half = (perTheme_ + 1) / 2;
        for (Color stm : { WHITE, BLACK }) {
            const int quota = stm == WHITE ? half : perTheme_;
            for (const Position& p : longest_[stm].kept) {
                if (int(longest.items.size()) >= quota) break;
                const Value v = *prober_.dtm(p);
                Item item = make_item(p,
                    std::string(kColorName[stm]) + (v.is_win() ? " mates in " : " is mated in ")
                        + std::to_string(longestMoves_[stm]) + ", the longest mate of "
                        + material_.name() + " with " + kColorName[stm] + " to move",
                    true);
                item.best = *prober_.best_moves(p, View::Pure);
                item.difficulty = longestMoves_[stm];
                item.hardness = std::to_string(item.difficulty) + " moves to mate";
                item.facts["mate_moves"] = longestMoves_[stm];
                add(longest, std::move(item));
            }
            for (const Position& p : longestCounted_[stm].kept) {
                if (int(longestCounted.items.size()) >= quota) break;
                const CountedValue c = *prober_.counted(p, p.count_state());
                Item item = make_item(p,
                    std::string(kColorName[stm])
                        + (c.result == CountedValue::Result::Win ? " wins" : " loses")
                        + " within a fresh count in " + std::to_string(longestCountedMoves_[stm])
                        + " moves, the longest of " + material_.name() + " with " + kColorName[stm]
                        + " to move");
                item.best = counted_best(ranked(p));
                item.difficulty = longestCountedMoves_[stm];
                item.hardness = std::to_string(item.difficulty) + " moves within the count";
                item.facts["moves_needed"] = longestCountedMoves_[stm];
                add(longestCounted, std::move(item));
            }
        }
        // 3. Only-move wins: exactly one move keeps the win within the count.
        Theme only { "only-move", "Only-move wins",
            "Won within a fresh count, and every move but one throws that win away; difficulty: "
            "how many of the winner's moves along the main line are only moves (study-like).",
            "Find the only move that keeps the win within the count." };
        std::vector<Item> onlyItems;
        for (int i = 0; i < std::min<int>(budget, int(counted_wins_.kept.size())); ++i) {
            const Position& p = counted_wins_.kept[std::size_t(i)];
            const std::vector<RankedMove> moves = ranked(p);
            int winning = 0;
            for (const RankedMove& r : moves)
                winning += r.counted.result == CountedValue::Result::Win;
            if (winning != 1) continue;
            Item item = make_item(
                p, "only " + san(p, moves.front().move) + " keeps the win within the count");
            item.best = { moves.front().move };
            item.difficulty = only_moves_on_line(item);
            item.hardness = std::to_string(item.difficulty) + " only move"
                + (item.difficulty == 1 ? "" : "s") + " on the main line";
            item.facts["winning_moves"] = 1;
            onlyItems.push_back(std::move(item));
        }
        std::stable_sort(onlyItems.begin(), onlyItems.end(),
            [](const Item& a, const Item& b) { return a.difficulty > b.difficulty; });
        for (Item& item : onlyItems) add(only, std::move(item));
        // 4. Count-critical.
        Theme critical { "count-critical", "Wins the count takes away",
            "Won without counting but drawn under the fresh count (the fewest moves short first); "
            "and won within the count only by a move that is not the fastest mate.",
            "Does the count leave time to win? If it does, find the move that wins within it." };
        for (int i = 0; i < std::min<int>(budget, int(counted_wins_.kept.size())); ++i) {
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
            Item item = make_item(p,
                "the fastest mate (" + san(p, fast.front()) + ") runs out of count: only "
                    + san(p, moves.front().move) + " wins within it");
            item.best = counted_best(moves);
            item.avoid = fast;
            item.difficulty = int(fast.size());
            item.hardness = std::to_string(fast.size()) + " fastest mate"
                + (fast.size() == 1 ? "" : "s") + " to resist";
            item.facts["fastest_mate_loses_count"] = true;
            if (!add(critical, std::move(item)) && int(critical.items.size()) >= half) break;
        }
        std::vector<Item> criticalItems;
        for (const Position& p : count_critical_.kept) {
            const CountedValue c = *prober_.counted(p, p.count_state());
            if (c.moves_needed < 0) continue;
            Item item = make_item(p,
                pure_verdict_words(p) + " without counting, but the count leaves "
                    + std::string(
                        kColorName[prober_.dtm(p)->is_win() ? p.side_to_move() : ~p.side_to_move()])
                    + " " + std::to_string(c.moves_available) + " moves for the "
                    + std::to_string(c.moves_needed) + " it needs: a draw",
                true);
            item.best = *prober_.best_moves(p, View::Pure);
            // The closer the count comes, the harder to see that it takes the win away.
            item.difficulty = 100 - (c.moves_needed - c.moves_available);
            item.hardness = "the count is " + std::to_string(c.moves_needed - c.moves_available)
                + " move" + (c.moves_needed - c.moves_available == 1 ? "" : "s") + " short";
            item.facts["shortfall"] = c.moves_needed - c.moves_available;
            criticalItems.push_back(std::move(item));
        }
        std::stable_sort(criticalItems.begin(), criticalItems.end(),
            [](const Item& a, const Item& b) { return a.difficulty > b.difficulty; });
        for (Item& item : criticalItems) add(critical, std::move(item));
        // 5. Defence.
        Theme defence { "defence", "Defence",
            "Lost positions where only one move holds out longest (the pure distance to mate), and "
            "positions drawn under the count where only one move keeps the draw.",
            "Find the best defence: the one move that holds out longest, or keeps the draw." };
        for (int i = 0; i < std::min<int>(budget, int(pure_losses_.kept.size())); ++i) {
            if (int(defence.items.size()) >= half) break;
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
                "only " + san(p, m) + " holds out longest (" + describe(Value { longestLoss })
                    + ")");
            item.best = { m };
            item.difficulty = int(moves.size()) - 1;
            item.hardness = std::to_string(item.difficulty) + " other moves lose sooner";
            item.facts["longest_loss_plies"] = longestLoss;
            add(defence, std::move(item));
        }
        for (int i = 0; i < std::min<int>(budget, int(counted_draws_.kept.size())); ++i) {
            const Position& p = counted_draws_.kept[std::size_t(i)];
            const std::vector<RankedMove> moves = ranked(p);
            int drawing = 0;
            for (const RankedMove& r : moves)
                drawing += r.counted.result == CountedValue::Result::Draw;
            if (drawing != 1 || moves.size() < 3 || !p.empty(to_sq(moves.front().move))) continue;
            Item item = make_item(
                p, "only " + san(p, moves.front().move) + " keeps the draw under the count");
            item.best = { moves.front().move };
            item.difficulty = int(moves.size()) - 1;
            item.hardness = std::to_string(item.difficulty) + " other moves lose";
            item.facts["drawing_moves"] = 1;
            if (!add(defence, std::move(item)) && int(defence.items.size()) >= perTheme_) break;
        }
        // 6. Mutual zugzwang.
        Theme zugzwang { "zugzwang", "Mutual zugzwang",
            "Whoever is to move does worse than if the other side were to move (results without "
            "counting): the diagram shows White to move.",
            "What is the result with White to move, and with Black to move?" };
        for (const Position& p : zugzwang_.kept) {
            Position other = p;
            other.set_side_to_move(BLACK);
            other.set_count_state(fresh_count(other, rules_));
            const Value w = *prober_.dtm(p), b = *prober_.dtm(other);
            Item item = make_item(p,
                "White to move: " + pure_words(WHITE, w)
                    + "; Black to move: " + pure_words(BLACK, b));
            item.facts["white_to_move"] = result_word(w);
            item.facts["black_to_move"] = result_word(b);
            item.difficulty = std::max(std::abs(w.mate_in_moves()), std::abs(b.mate_in_moves()));
            item.hardness
                = "a mate of " + std::to_string(item.difficulty) + " moves hangs on the move";
            add(zugzwang, std::move(item));
        }
        // 7. Traps: a natural move (a capture, a check, the king's nearest approach) throws the
        // result away.
        Theme traps { "trap", "Traps",
            "Won within the count (or drawn under it), and a natural move - a capture, a check, "
            "or the king move that comes closest to the other king - throws the win (or the "
            "draw) away.",
            "Find the move that keeps the result, and the tempting move that throws it away." };
        for (const Reservoir* pool : { &counted_wins_, &counted_draws_ })
            for (int i = 0; i < std::min<int>(budget, int(pool->kept.size())); ++i) {
                if (int(traps.items.size()) >= (pool == &counted_wins_ ? half : perTheme_)) break;
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
                Item item = make_item(p,
                    "the " + why + " " + san(p, trap->move) + " looks natural but "
                        + (goal == Wdl::Win ? "throws the win within the count away"
                                       : "loses under the count"));
                item.best = counted_best(moves);
                item.avoid = { trap->move };
                item.difficulty = why == "capture" ? 3 : why == "check" ? 2 : 1;
                item.hardness = "the tempting move: a " + why;
                item.facts["trap"] = move_to_uci(trap->move);
                item.facts["trap_counted"] = result_word(trap->counted.result); // for the mover
                add(traps, std::move(item));
            }
        themes_ = { longest, longestCounted, only, critical, defence, zugzwang, traps };
    }

    // "White mates in 14", "Black is mated in 14".
    std::string pure_verdict_words(const Position& p) const {
        const Value v = *prober_.dtm(p);
        return std::string(kColorName[p.side_to_move()])
            + (v.is_win() ? " mates in " : " is mated in ")
            + std::to_string(std::abs(v.mate_in_moves()));
    }

    static std::string pure_words(Color stm, Value v) {
        if (v.is_draw()) return "draw";
        const Color winner = v.is_win() ? stm : ~stm;
        return std::string(kColorName[winner]) + " wins";
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
};

std::string escape(const std::string& text) {
    std::string out;
    for (char c : text) {
        if (c == '<')
            out += "&lt;";
        else if (c == '>')
            out += "&gt;";
        else if (c == '&')
            out += "&amp;";
        else if (c == '"')
            out += "&quot;";
        else
            out += c;
    }
    return out;
}

// Writes a file whole or not at all (a temporary name, then a rename); throws naming the file.
// A caption's first letter as a capital ("only Rd1 keeps..." -> "Only Rd1 keeps...").
std::string capitalized(std::string text) {
    if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = char(text[0] - 'a' + 'A');
    return text;
}

// The men with their Thai names and the letters diagrams and FENs use (diagrams/men/*.svg).
std::string men_legend() {
    static const std::pair<char, const char*> kMen[]
        = { { 'K', "Khun (K): the king" }, { 'M', "Met (M): one step diagonally" },
              { 'S', "Khon (S): one step diagonally or straight ahead" },
              { 'N', "Ma (N): the knight" }, { 'R', "Ruea (R): the rook" },
              { 'P', "Bia (P): the pawn, promotes to a Met on the sixth rank" } };
    std::string html = "<div class=\"legend\"><b>The men</b> (White's light, Black's dark):<ul>";
    for (const auto& [letter, words] : kMen)
        html += std::string("<li><img src=\"diagrams/men/") + letter + ".svg\" alt=\"\" "
            "width=\"24\" height=\"24\"><img src=\"diagrams/men/" + char(letter - 'A' + 'a')
            + ".svg\" alt=\"\" width=\"24\" height=\"24\"> " + words + "</li>";
    return html + "</ul></div>\n";
}

void write_file(const fs::path& path, const std::string& content) {
    const fs::path tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        if (!(out << content) || !out.flush())
            throw std::runtime_error("cannot write " + tmp.string());
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) throw std::runtime_error("cannot write " + path.string() + ": " + ec.message());
}

std::string percent(std::uint64_t n, std::uint64_t d) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f %%", d ? 100.0 * double(n) / double(d) : 0.0);
    return buffer;
}

std::string number(std::uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

// Mate distances, pure against counted, as a bar chart (one pair of bars per distance).
std::string histogram_svg(const SideFigures& f, const std::string& title) {
    int longest = 1;
    std::uint64_t most = 1;
    for (const auto& [k, n] : f.pureMoves) longest = std::max(longest, k), most = std::max(most, n);
    for (const auto& [k, n] : f.countedMoves)
        longest = std::max(longest, k), most = std::max(most, n);
    const int w = std::max(300, 50 + longest * 12), h = 190;
    std::ostringstream svg;
    svg << "<svg xmlns='http://www.w3.org/2000/svg' class='histogram' viewBox='0 0 " << w << ' '
        << h << "' width='" << w << "' height='" << h << "' role='img'><title>" << escape(title)
        << "</title><text x='40' y='14' font-size='12'>" << escape(title) << "</text>"
        << "<rect x='" << w - 240 << "' y='22' width='10' height='10' fill='#1f6f3a'/><text x='"
        << w - 226 << "' y='31' font-size='11'>without counting</text><rect x='" << w - 125
        << "' y='22' width='10' height='10' fill='#d9a441'/><text x='" << w - 111
        << "' y='31' font-size='11'>within the count</text>";
    for (int k = 1; k <= longest; ++k) {
        const auto bar = [&](const std::map<int, std::uint64_t>& m, int dx, const char* colour) {
            const auto it = m.find(k);
            if (it == m.end()) return;
            const int height = std::max(1, int(130.0 * double(it->second) / double(most)));
            svg << "<rect x='" << 40 + (k - 1) * 12 + dx << "' y='" << 170 - height
                << "' width='5' height='" << height << "' fill='" << colour << "'><title>" << k
                << " moves: " << number(it->second) << "</title></rect>";
        };
        bar(f.pureMoves, 0, "#1f6f3a");
        bar(f.countedMoves, 5, "#d9a441");
        if (k == 1 || k % 5 == 0)
            svg << "<text x='" << 40 + (k - 1) * 12 << "' y='184' font-size='10'>" << k
                << "</text>";
    }
    svg << "<line x1='38' y1='170' x2='" << w - 4 << "' y2='170' stroke='#555'/></svg>";
    return svg.str();
}

const char* kReportCss
    = R"CSS(/* report.css - the teaching report of mktb: plain on screen, one theme per A4 page in print. */
body { font: 15px/1.45 system-ui, sans-serif; color: #222; margin: 1.5rem auto; max-width: 60rem; padding: 0 1rem; }
h1 { margin-bottom: 0.2rem; }
table { border-collapse: collapse; margin: 0.6rem 0; }
th, td { text-align: left; padding: 0.2rem 0.7rem; border-bottom: 1px solid #ddd; }
td { white-space: nowrap; }
.themes section { margin-top: 2rem; }
.rule { color: #555; font-style: italic; }
.positions { display: grid; grid-template-columns: repeat(auto-fill, minmax(17rem, 1fr)); gap: 1.2rem; }
figure { margin: 0; }
figure img { width: 100%; max-width: 18rem; height: auto; display: block; }
figcaption { font-size: 0.9rem; }
details { margin-top: 0.3rem; }
summary { cursor: pointer; color: #1f6f3a; }
.line { font-family: ui-monospace, monospace; font-size: 0.85rem; }
.disagree { color: #a0141e; font-weight: 600; }
.histogram { max-width: 100%; height: auto; }
.legend ul { list-style: none; padding: 0; margin: 0.3rem 0; display: flex; flex-wrap: wrap; gap: 0.2rem 1.2rem; }
.legend img { vertical-align: middle; }
.key li { margin: 0.4rem 0; }
@media print {
  @page { size: A4; margin: 15mm; }
  body { margin: 0; max-width: none; font-size: 11pt; }
  nav, summary { display: none; }
  .themes section { break-before: page; }
  figure { break-inside: avoid; }
}
)CSS";


std::string page_head(const std::string& title, const std::string& css) {
    return "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta "
           "name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"
        + escape(title)
        + "</title>\n<link rel=\"icon\" href=\"data:,\">\n<link rel=\"stylesheet\" "
          "href=\""
        + css + "\">\n</head>\n<body>\n";
}

// The main line as text: moves with numbers, the count after each of the counter's moves,
// "(only move)" marks.
struct LineText {
    std::string html, pgn;
    std::string brief; // for the answer key: the first moves, no counts but where it ends
    // A pure line that runs past the count's end: the PGN game ends there (a draw) and the rest
    // of the mate is a comment.
    bool countEnded = false;
};

LineText line_text(const Prober& prober, const Item& item, const CountRules& rules) {
    LineText out;
    Position pos = item.pos;
    CountState count = pos.count_state();
    const bool losing = item.pureLine
        ? prober.dtm(pos)->is_loss()
        : prober.counted(pos, count)->result == CountedValue::Result::Loss;
    const Color winner = losing ? ~pos.side_to_move() : pos.side_to_move();
    int number = 1;
    bool openComment = false;
    for (std::size_t i = 0; i < item.line.size(); ++i) {
        const Move m = item.line[i];
        const Color stm = pos.side_to_move();
        bool only = false;
        if (stm == winner) { // the only move keeping the win (pure or counted, as the line)
            int winning = 0;
            // A pure line is judged without the count (which it may outlive).
            const std::vector<RankedMove> moves
                = *prober.rank_root(pos, item.pureLine ? CountState {} : count);
            for (const RankedMove& r : moves)
                winning += item.pureLine ? r.pure.is_win()
                                         : r.counted.result == CountedValue::Result::Win;
            only = winning == 1;
        }
        const std::string prefix = stm == WHITE ? std::to_string(number) + ". "
            : i == 0                            ? std::to_string(number) + "... "
                                                : "";
        const std::string move = san(pos, m);
        Position next = pos;
        next.do_move(m);
        if (!out.countEnded) count = count_after_move(pos, next, count, rules);
        next.set_count_state(out.countEnded ? CountState {} : count);
        out.html += prefix + move + (only ? "!" : "") + " ";
        static constexpr std::size_t kBriefPlies = 24;
        if (i < kBriefPlies)
            out.brief += prefix + move + (only ? "!" : "") + " ";
        else if (i == kBriefPlies)
            out.brief += "... (the whole line, " + std::to_string((item.line.size() + 1) / 2)
                + " moves, in the PGN) ";
        if (out.countEnded) // the game is over: the rest of the pure mate, in the comment
            out.pgn += (stm == WHITE || i == 0 ? prefix : "") + move + " ";
        else
            out.pgn += prefix + move + (only ? " $8" : "") + " ";
        if (!out.countEnded && count_has_ended(count) && !is_checkmate(next)) {
            // The count ends the game here: a draw, whatever the pure line goes on to show.
            out.countEnded = true;
            out.html += "(the count has run out: a draw under the count; without it the mate "
                        "would go on) ";
            if (i < kBriefPlies) out.brief += "(the count runs out here) ";
            openComment = i + 1 < item.line.size();
            if (openComment)
                out.pgn += "{the count has run out: the game is drawn here; without the count "
                           "the mate would go on: ";
            else
                out.pgn += "{the count has run out: the game is drawn here} ";
        } else if (announces_count(next, stm, count) && !out.countEnded) {
            const std::string c = "count " + std::to_string((count.ply + 1) / 2) + " of "
                + std::to_string(count.limit / 2);
            out.html += "(" + c + ") ";
            out.pgn += "{" + c + "} ";
        }
        if (stm == BLACK) ++number;
        pos = next;
    }
    if (openComment) out.pgn.back() = '}', out.pgn += ' '; // the rest of the mate, closed
    return out;
}

// One ending's files: DIR/ENDING.html, .epd, .pgn, .json and DIR/diagrams/*.svg.
Json write_ending(const Teacher& t, const fs::path& dir) {
    const Material& m = t.material();
    const Prober& prober = t.prober();
    const std::string name = m.name();
    std::ostringstream html, epd, pgn, worksheet, key;
    Json claims = Json::array();
    // The men's pictures for the legends.
    fs::create_directories(dir / "diagrams" / "men");
    for (char letter : std::string("KMSNRPkmsnrp"))
        write_file(dir / "diagrams" / "men" / (std::string(1, letter) + ".svg"), man_svg(letter));
    // For print: the worksheet (diagrams and tasks, no solution) and its answer key apart.
    worksheet << page_head("mktb: " + name + " worksheet", "report.css")
              << "<nav><a href=\"" << name << ".html\">" << name << "</a></nav>\n<h1>" << name
              << ": worksheet</h1>\n<p>Counting rules: " << escape(describe(t.rules()))
              << ". The answers: <a href=\"" << name << ".answers.html\">answer key</a>.</p>\n"
              << men_legend() << "<div class=\"themes\">\n";
    key << page_head("mktb: " + name + " answer key", "report.css") << "<nav><a href=\"" << name
        << ".html\">" << name << "</a></nav>\n<h1>" << name
        << ": answer key</h1>\n<p>For the <a href=\"" << name
        << ".worksheet.html\">worksheet</a>; distances in moves.</p>\n<div class=\"key\">\n";
    html << page_head("mktb: " + name, "report.css")
         << "<nav><a href=\"index.html\">All endings</a>"
         << " &middot; <a href=\"" << name << ".epd\">EPD</a> &middot; <a href=\"" << name
         << ".pgn\">PGN</a> &middot; print: <a href=\"" << name
         << ".worksheet.html\">worksheet</a>, <a href=\"" << name
         << ".answers.html\">answer key</a></nav>\n<h1>" << name
         << "</h1>\n<p>Counting rules: " << escape(describe(t.rules()))
         << ".</p>\n<h2>What the ending holds</h2>\n<table>\n"
         << "<tr><th>Side to move</th><th>Positions</th><th>Wins</th><th>Draws</th><th>Losses</th>"
            "<th>Wins within a fresh count</th><th>Losses within a fresh count</th><th>Longest "
            "mate</th></tr>\n";
    for (Color c : { WHITE, BLACK }) {
        const SideFigures& f = t.figures()[c];
        html << "<tr><td>" << kColorName[c] << "</td><td>" << number(f.legal) << "</td><td>"
             << percent(f.wins, f.legal) << "</td><td>" << percent(f.draws, f.legal) << "</td><td>"
             << percent(f.losses, f.legal) << "</td><td>" << percent(f.countedWins, f.legal)
             << "</td><td>" << percent(f.countedLosses, f.legal) << "</td><td>"
             << (f.longest > 0 ? std::to_string(f.longest) + " moves" : "-") << "</td></tr>\n";
    }
    html << "</table>\n<p>Positions are distinct boards; \"fresh count\": the count the position "
            "starts (pieces' honour: the men on the board counted; board's honour: 64 moves; with "
            "a Bia: the count its conversion starts).</p>\n";
    for (Color c : { WHITE, BLACK })
        if (t.figures()[c].wins)
            html << histogram_svg(
                t.figures()[c], std::string(kColorName[c]) + " to move: positions won in N moves")
                 << "\n";
    html << men_legend() << "<div class=\"themes\">\n";
    fs::create_directories(dir / "diagrams");
    for (const Theme& theme : t.themes()) {
        html << "<section id=\"" << theme.key << "\">\n<h2>" << escape(theme.title) << " ("
             << theme.items.size() << ")</h2>\n<p class=\"rule\">" << escape(theme.rule)
             << "</p>\n";
        if (theme.items.empty()) html << "<p>No position of this ending fits.</p>\n";
        html << "<div class=\"positions\">\n";
        if (!theme.items.empty()) {
            worksheet << "<section id=\"" << theme.key << "\">\n<h2>" << escape(theme.title)
                      << "</h2>\n<p class=\"rule\">" << escape(theme.task)
                      << "</p>\n<div class=\"positions\">\n";
            key << "<section id=\"" << theme.key << "\">\n<h2>" << escape(theme.title)
                << "</h2>\n<ol>\n";
        }
        for (const Item& item : theme.items) {
            const Position& p = item.pos;
            const std::string fen = p.fen();
            const std::string svgName = "diagrams/" + item.id + ".svg";
            DiagramOptions options;
            options.size = 280;
            write_file(dir / svgName, board_svg(fen, options));
            // The solution's diagram: the first best move as an arrow (shown behind the click).
            std::string solutionSvg;
            if (!item.best.empty()) {
                solutionSvg = "diagrams/" + item.id + ".solution.svg";
                options.arrows = { { square_name(from_sq(item.best.front())),
                    square_name(to_sq(item.best.front())) } };
                write_file(dir / solutionSvg, board_svg(fen, options));
            }
            const Value pure = *prober.dtm(p);
            const CountedValue counted = *prober.counted(p, p.count_state());
            const std::string verdictText = verdict(p, pure, counted, t.rules(), p.count_state());
            const LineText line = line_text(prober, item, t.rules());
            auto joined = [&](const std::vector<Move>& moves) {
                std::string text;
                for (Move mv : moves) text.append(text.empty() ? "" : " ").append(san(p, mv));
                return text;
            };
            const std::string best = joined(item.best), avoid = joined(item.avoid);
            html << "<figure id=\"" << item.id << "\"><img src=\"" << svgName << "\" alt=\""
                 << escape(fen) << "\" width=\"280\" height=\"270\"><figcaption><b>"
                 << kColorName[p.side_to_move()] << " to move.</b> "
                 << escape(capitalized(item.claim))
                 << ".<br>Difficulty: " << escape(item.hardness) << ".<br><span class=\"line\">"
                 << escape(fen) << "</span>"
                 << "<details><summary>Solution</summary>"
                 << (solutionSvg.empty() ? ""
                                         : "<img src=\"" + solutionSvg
                                + "\" alt=\"the solution\" width=\"280\" height=\"270\">")
                 << "<p>" << escape(verdictText) << ".</p>"
                 << (best.empty() ? "" : "<p>Best: " + escape(best) + "</p>")
                 << (avoid.empty() ? "" : "<p>Not: " + escape(avoid) + "</p>")
                 << (line.html.empty() ? "" : "<p class=\"line\">" + escape(line.html) + "</p>")
                 << "</details></figcaption></figure>\n";
            worksheet << "<figure><img src=\"" << svgName << "\" alt=\"" << escape(fen)
                      << "\" width=\"280\" height=\"270\"><figcaption><b>"
                      << (&item - theme.items.data()) + 1 << ".</b> "
                      << kColorName[p.side_to_move()] << " to move.<br><span class=\"line\">"
                      << escape(fen) << "</span></figcaption></figure>\n";
            key << "<li><b>" << escape(capitalized(item.claim)) << ".</b> "
                << escape(verdictText) << "."
                << (best.empty() ? "" : " Best: " + escape(best) + ".")
                << (avoid.empty() ? "" : " Not: " + escape(avoid) + ".")
                << (line.brief.empty() ? ""
                                       : "<br><span class=\"line\">" + escape(line.brief)
                                + "</span>")
                << "</li>\n";
            // EPD: the board, side, and castling/en passant fields (none in Makruk), then the
            // operations; c2 holds FEN fields 4-5 (Fairy-Stockfish's count).
            const std::string board = fen.substr(0, fen.find(' ', fen.find(' ') + 1));
            epd << board << " - -";
            if (!best.empty()) epd << " bm " << best << ";";
            if (!avoid.empty()) epd << " am " << avoid << ";";
            if (item.dm) epd << " dm " << *item.dm << ";";
            epd << " id \"" << item.id << "\"; c0 \"" << verdictText << "\"; c1 \"" << item.claim
                << "\"; c2 \"" << p.count_state().limit << ' ' << p.count_state().ply << "\";\n";
            const bool mates = !item.line.empty();
            const std::string result = !mates ? "*"
                : line.countEnded             ? "1/2-1/2"
                : (item.line.size() % 2 == 1) == (p.side_to_move() == WHITE) ? "1-0"
                                                                             : "0-1";
            pgn << "[Event \"mktb " << name << ": " << theme.title << "\"]\n[Site \"?\"]\n[Round \""
                << item.id << "\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"" << result
                << "\"]\n[Variant \"makruk\"]\n[SetUp \"1\"]\n[FEN \"" << fen << "\"]\n\n{"
                << item.claim << ". " << verdictText << ".} " << line.pgn << result << "\n\n";
            Json lineUci = Json::array(), bestUci = Json::array(), avoidUci = Json::array();
            for (Move mv : item.line) lineUci.push_back(move_to_uci(mv));
            for (Move mv : item.best) bestUci.push_back(move_to_uci(mv));
            for (Move mv : item.avoid) avoidUci.push_back(move_to_uci(mv));
            claims.push_back({ { "id", item.id }, { "theme", theme.key }, { "fen", fen },
                { "best", bestUci }, { "avoid", avoidUci },
                { "dm", item.dm ? Json(*item.dm) : Json(nullptr) }, { "facts", item.facts },
                { "line", lineUci }, { "diagram", svgName },
                { "solution_diagram", solutionSvg.empty() ? Json(nullptr) : Json(solutionSvg) } });
        }
        html << "</div>\n</section>\n";
        if (!theme.items.empty()) {
            worksheet << "</div>\n</section>\n";
            key << "</ol>\n</section>\n";
        }
    }
    html << "</div>\n</body>\n</html>\n";
    worksheet << "</div>\n</body>\n</html>\n";
    key << "</div>\n</body>\n</html>\n";
    write_file(dir / (name + ".worksheet.html"), worksheet.str());
    write_file(dir / (name + ".answers.html"), key.str());
    write_file(dir / (name + ".html"), html.str());
    write_file(dir / (name + ".epd"), epd.str());
    write_file(dir / (name + ".pgn"), pgn.str());
    write_file(dir / (name + ".json"), claims.dump(1) + "\n");
    // The figures the overview shows.
    const SideFigures& w = t.figures()[WHITE];
    return { { "ending", name }, { "men", m.men() }, { "legal", w.legal }, { "wins", w.wins },
        { "draws", w.draws }, { "counted_wins", w.countedWins }, { "longest", w.longest },
        { "longest_counted", w.longestCounted } };
}

// Docs/rules.md §7: who counts as the stronger side in one event, and the endings within five men
// (with a Bia read as a promoted one too) where the tables can check it.
struct RegulationRow {
    const char* weaker;
    const char* stronger;
    std::vector<const char*> endings;
};
const std::vector<RegulationRow> kRegulation = {
    { "K + 1 Bia", "K + 3 promoted Bia", {} },
    { "K + 1 Bia", "K + (Khon or Ma) + 1 Bia", { "KSPvKP", "KNPvKP", "KSMvKM", "KNMvKM" } },
    { "K + 2 Bia", "K + Khon + Ma", {} },
    { "K + 3 Bia", "K + Ruea", {} },
    { "K + (Khon or Ma)", "K + (Khon or Ma) + 1 Bia",
        { "KSPvKS", "KSPvKN", "KNPvKS", "KNPvKN", "KSMvKS", "KSMvKN", "KNMvKS", "KNMvKN" } },
    { "K + Ruea", "K + Ruea + (Khon or Ma)", { "KRSvKR", "KRNvKR" } },
    { "K + Ruea", "K + 4 promoted Bia", {} },
    { "K + Ruea + 1 Bia", "K + (Khon or Ma) + 3 Bia", {} },
    { "K + (Khon or Ma)", "K + 2 Ruea", { "KRRvKS", "KRRvKN" } },
};

std::optional<Json> read_stats(const std::string& tables, const std::string& name) {
    std::ifstream in(fs::path(tables) / (name + ".json"));
    if (!in) return std::nullopt;
    Json j = Json::parse(in, nullptr, false);
    if (j.is_discarded()) return std::nullopt;
    return j;
}

void write_overview(const fs::path& dir, const std::string& tables,
    const std::set<std::string>& taught, const CountRules& rules) {
    std::ostringstream html;
    html << page_head("mktb: Makruk endings", "report.css")
         << "<nav><a href=\"regulation.html\">The tournament regulation</a></nav>\n"
            "<h1>Makruk endings</h1>\n<p>Every ending generated in <code>"
         << escape(tables) << "</code> (counting rules: " << escape(describe(rules))
         << "), White (the stronger side) to move. \"Taken by the count\": the share of White's "
            "wins that are not won within a fresh count.</p>\n<table>\n<tr><th>Ending</th><th>Men"
            "</th><th>Positions</th><th>White wins</th><th>Within a fresh count</th><th>Taken by "
            "the count</th><th>Longest mate</th></tr>\n";
    std::vector<std::pair<int, std::string>> endings;
    for (const auto& entry : fs::directory_iterator(tables))
        if (entry.path().extension() == ".mktb") {
            const std::string name = entry.path().stem().string();
            if (const auto m = Material::parse(name)) endings.push_back({ m->men(), name });
        }
    std::sort(endings.begin(), endings.end());
    for (const auto& [men, name] : endings) {
        const std::optional<Json> stats = read_stats(tables, name);
        html << "<tr><td>"
             << (taught.count(name) ? "<a href=\"" + name + ".html\">" + name + "</a>" : name)
             << "</td><td>" << men << "</td>";
        if (!stats) {
            html << "<td colspan=\"5\">no statistics file</td></tr>\n";
            continue;
        }
        const Json& w = (*stats)["sides"]["white_to_move"];
        const std::uint64_t legal = w["legal"], wins = w["wins"];
        html << "<td>" << number(legal) << "</td><td>" << percent(wins, legal) << "</td>";
        if (w["counted_wins"].is_null()) {
            html << "<td>-</td><td>-</td>";
        } else {
            const std::uint64_t counted = w["counted_wins"];
            html << "<td>" << percent(counted, legal) << "</td><td>"
                 << (wins ? percent(wins - std::min(wins, counted), wins) : std::string("-"))
                 << "</td>";
        }
        const int plies = w["longest_mate_plies"];
        html << "<td>" << (plies > 0 && wins ? std::to_string((plies + 1) / 2) + " moves" : "-")
             << "</td></tr>\n";
    }
    html << "</table>\n</body>\n</html>\n";
    write_file(dir / "index.html", html.str());

    // The regulation page: per pairing, what the tables say of its stronger side.
    std::ostringstream reg;
    reg << page_head("mktb: the stronger side regulation", "report.css")
        << "<nav><a href=\"index.html\">All endings</a></nav>\n<h1>Which side is stronger?</h1>\n"
           "<p>One event's regulation (the 31st north-eastern Rajabhat universities games, "
           "\"Phuphan Games\"; docs/rules.md §7) names the side that may claim the board count "
           "(the weaker one) by material. For each pairing with an ending of at most five men in "
           "these tables: how often its stronger side (White) wins, with itself or the weaker "
           "side to move, without counting and within a fresh count. The regulation and the "
           "tables <span class=\"disagree\">disagree</span> where the stronger side to move wins "
           "fewer than half of the positions.</p>\n<table>\n<tr><th>Weaker side has at most</th>"
           "<th>Stronger side has at least</th><th>Ending</th><th>Stronger to move: wins</th>"
           "<th>within the count</th><th>Weaker to move: stronger wins</th></tr>\n";
    for (const RegulationRow& row : kRegulation) {
        if (row.endings.empty()) {
            reg << "<tr><td>" << escape(row.weaker) << "</td><td>" << escape(row.stronger)
                << "</td><td colspan=\"4\">more than five men</td></tr>\n";
            continue;
        }
        for (const char* e : row.endings) {
            reg << "<tr><td>" << escape(row.weaker) << "</td><td>" << escape(row.stronger)
                << "</td><td>" << e << "</td>";
            const std::optional<Json> stats = read_stats(tables, e);
            if (!stats) {
                reg << "<td colspan=\"3\">not generated (<code>mktb gen " << e
                    << "</code>)</td></tr>\n";
                continue;
            }
            const Json& w = (*stats)["sides"]["white_to_move"];
            const Json& b = (*stats)["sides"]["black_to_move"];
            const std::uint64_t legal = w["legal"], wins = w["wins"];
            const bool disagree = 2 * wins < legal;
            reg << "<td" << (disagree ? " class=\"disagree\"" : "") << ">" << percent(wins, legal)
                << "</td><td>"
                << (w["counted_wins"].is_null() ? std::string("-")
                                                : percent(std::uint64_t(w["counted_wins"]), legal))
                << "</td><td>" << percent(std::uint64_t(b["losses"]), std::uint64_t(b["legal"]))
                << "</td></tr>\n";
        }
    }
    reg << "</table>\n</body>\n</html>\n";
    write_file(dir / "regulation.html", reg.str());
    write_file(dir / "report.css", kReportCss);
}

} // namespace

int teach_command(std::span<const std::string_view> args) {
    std::vector<std::string> names;
    std::string out = "report", dir = default_tables_dir();
    int perTheme = 4;
    CountRules rules;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const bool value = i + 1 < args.size();
        if (args[i] == "--out" && value)
            out = std::string(args[++i]);
        else if (args[i] == "--tables" && value)
            dir = std::string(args[++i]);
        else if (args[i] == "--per-theme" && value) {
            try {
                perTheme = std::stoi(std::string(args[++i]));
            } catch (const std::exception&) {
                perTheme = 0;
            }
            if (perTheme < 1 || perTheme > 100) {
                std::fputs("mktb teach: --per-theme takes 1 to 100\n", stderr);
                return kExitBadInput;
            }
        } else if (is_rule_option(args[i])) {
            try {
                apply_rule_option(args[i], value ? args[i + 1] : "", rules);
                ++i;
            } catch (const std::invalid_argument& e) {
                std::fprintf(stderr, "mktb teach: %s\n", e.what());
                return kExitBadInput;
            }
        } else if (args[i] == "--men" && value) {
            int men = 0;
            try {
                men = std::stoi(std::string(args[++i]));
            } catch (const std::exception&) { }
            if (men < 3 || men > 5) {
                std::fputs("mktb teach: --men takes 3 to 5\n", stderr);
                return kExitBadInput;
            }
            for (const Material& m : all_materials(men)) names.push_back(m.name());
        } else if (!args[i].starts_with("--")) {
            names.emplace_back(args[i]);
        } else {
            std::fprintf(
                stderr, "mktb teach: unknown argument '%s'\n", std::string(args[i]).c_str());
            return kExitBadInput;
        }
    }
    if (names.empty()) {
        std::fputs("usage: mktb teach (ENDING... | --men N) [--out DIR] [--tables DIR] "
                   "[--per-theme N] [RULES]\n",
            stderr);
        return kExitBadInput;
    }
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
    const Prober prober(dir, { Tablebase::kDefaultCacheBytes, rules });
    for (const Material& m : materials)
        if (!prober.available(m)) {
            std::fprintf(stderr, "mktb teach: no table for %s in %s (generate it: mktb gen %s)\n",
                m.name().c_str(), dir.c_str(), m.name().c_str());
            return kExitNoTable;
        }
    fs::create_directories(out, ec);
    if (ec || !fs::is_directory(out)) {
        std::fprintf(stderr, "mktb teach: cannot create %s: %s\n", out.c_str(),
            ec ? ec.message().c_str() : "not a directory");
        return kExitFailure;
    }
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

} // namespace mktb::cli

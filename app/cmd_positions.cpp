// cmd_positions.cpp - `mktb positions`: start positions chosen from the tables by a stated rule,
// for matches (scripts/match-report) and exercises. Random legal positions of an ending (a seeded
// generator, so a run can be repeated) are kept when they are
//  - won: won within the count for the side to move, but only just: at most SLACK moves to spare
//    (pieces' honour: under the fresh count; board's honour: the count set so that exactly 0 to
//    SLACK moves are spare; with a Bia, where no count runs yet: a win that some pure-winning
//    move throws away under the count its conversion starts);
//  - hold: lost without counting for the side to move but drawn under the count, at most SLACK
//    moves short of the mate (board's honour: the count set so), where some move of the
//    defender loses under the count (the draw must be held);
//  - convert: won within the count for the side to move, and only by a conversion: every move
//    that keeps the win is a capture or a promotion, some move is neither, and some capture or
//    promotion throws the win away (the way into the smaller table decides the game);
//  - exchange: drawn under the count for the side to move, and some capture or promotion of
//    his loses under the count (a wrong exchange throws the draw away);
// and (won, hold, convert) with a mate of at least MIN moves without counting; or, for endings of
// any size (no table read):
//  - quiet: neither side in check nor able to capture (no man hangs at once): start positions
//    for matches, which scripts/balanced-positions filters by an engine's evaluation.
// Each line: the FEN with its count fields, then a comment with the figures.
// With --game xiangqi, random positions of a Xiangqi ending (no count; the result under the
// perpetual-check rule where both sides are armed):
//  - won: won for the side to move, by a mate of at least MIN moves, and some move throws the
//    win away (a draw or a loss after it);
//  - hold: drawn for the side to move, and some move loses (the draw must be held);
//  - convert: positions of an ending beyond the tables (ENDING has no table) that the side to
//    move wins by a capture into one: some capture leads to a table position lost for the
//    opponent, a mate of at least MIN moves after it (a won position that must be reduced into
//    the tables: the engines' test of probing in search);
//  - any: random legal positions of a table, whatever their value (tests of the interfaces).
#include <cstdio>
#include <limits>
#include <random>
#include <set>
#include <string>

#include "answer.hpp"
#include "cli.hpp"
#include "mktb/movegen.hpp"
#include "notation.hpp"
#include "xiangqi_answer.hpp"
#include "xiangqi_commands.hpp"

namespace mktb::cli {

namespace {

// A random placement of the men of `m` with `stm` to move; nullopt when it is not legal.
std::optional<Position> random_position(const Material& m, Color stm, std::mt19937_64& rng) {
    std::string board(64, '.');
    for (Color c : { WHITE, BLACK })
        for (int pt = KHUN; pt < PIECE_TYPE_NB; ++pt)
            for (int n = 0; n < m.count[c][pt]; ++n) {
                int s;
                do s = int(rng() % 64);
                while (board[std::size_t(s)] != '.');
                const char letter = "?KMSNRP"[pt];
                board[std::size_t(s)] = c == WHITE ? letter : char(letter - 'A' + 'a');
            }
    std::string fen;
    for (int r = 7; r >= 0; --r) {
        int empty = 0;
        for (int f = 0; f < 8; ++f) {
            const char c = board[std::size_t(r * 8 + f)];
            if (c == '.') {
                ++empty;
                continue;
            }
            if (empty) fen += char('0' + empty), empty = 0;
            fen += c;
        }
        if (empty) fen += char('0' + empty);
        if (r) fen += '/';
    }
    fen += stm == WHITE ? " w - - 0 1" : " b - - 0 1";
    try {
        return Position::from_fen(fen);
    } catch (const FenError&) {
        return std::nullopt;
    }
}

bool some_move_loses(const Prober& prober, const Position& pos, CountState count) {
    const auto moves = prober.rank_root(pos, count);
    if (!moves) return false;
    for (const RankedMove& m : *moves)
        if (m.counted.result == CountedValue::Result::Loss) return true;
    return false;
}

bool is_conversion(const Position& pos, Move m) { return is_promotion(m) || !pos.empty(to_sq(m)); }

// convert: every move keeping the counted win converts, some move does not, and some conversion
// throws the win away (the right capture must be chosen, not just any).
bool only_conversions_win(const Prober& prober, const Position& pos, CountState count) {
    const auto moves = prober.rank_root(pos, count);
    if (!moves) return false;
    bool quiet = false, wrongConversion = false;
    for (const RankedMove& m : *moves) {
        const bool converts = is_conversion(pos, m.move);
        const bool wins = m.counted.result == CountedValue::Result::Win;
        if (wins && !converts) return false;
        quiet |= !converts;
        wrongConversion |= converts && !wins;
    }
    return quiet && wrongConversion;
}

// exchange: some capture or promotion loses under the count.
bool some_conversion_loses(const Prober& prober, const Position& pos, CountState count) {
    const auto moves = prober.rank_root(pos, count);
    if (!moves) return false;
    for (const RankedMove& m : *moves)
        if (m.counted.result == CountedValue::Result::Loss && is_conversion(pos, m.move))
            return true;
    return false;
}

bool some_pure_win_fails(const Prober& prober, const Position& pos, CountState count) {
    const auto moves = prober.rank_root(pos, count);
    if (!moves) return false;
    for (const RankedMove& m : *moves)
        if (m.pure.is_win() && m.counted.result != CountedValue::Result::Win) return true;
    return false;
}

// Can the side to move capture?
bool can_capture(const Position& pos) {
    for (const Move m : legal_moves(pos))
        if (!pos.empty(to_sq(m))) return true;
    return false;
}

// --kind quiet: `number` random positions of `m` where neither side is in check or can capture.
int quiet_positions(const Material& m, int number, std::uint64_t seed, const CountRules& rules) {
    std::mt19937_64 rng(seed);
    std::set<std::string> seen;
    int found = 0;
    for (long attempt = 0; found < number && attempt < 20'000'000; ++attempt) {
        const std::optional<Position> p = random_position(m, Color(rng() & 1), rng);
        if (!p || p->in_check() || can_capture(*p)) continue;
        Position other = *p;
        other.set_side_to_move(~p->side_to_move());
        if (other.in_check() || can_capture(other)) continue;
        Position pos = *p;
        pos.set_count_state(fresh_count(pos, rules));
        if (!seen.insert(pos.fen()).second) continue;
        ++found;
        std::printf("%s ; %s quiet\n", pos.fen().c_str(), m.name().c_str());
    }
    if (found < number)
        std::fprintf(stderr, "mktb positions: found %d of %d quiet positions of %s\n", found,
            number, m.name().c_str());
    return kExitOk;
}

// Says how many positions were found when fewer than asked; the exit code.
int found_of(int found, int number, const std::string& ending) {
    if (found < number)
        std::fprintf(stderr, "mktb positions: found %d of %d positions of %s that fit\n", found,
            number, ending.c_str());
    return kExitOk;
}

// A random placement of the men of Xiangqi's `m`, each on a point its kind can reach, with
// `stm` to move; nullopt when it is not legal.
std::optional<xq::Position> random_xiangqi(const xq::Material& m, Color stm, std::mt19937_64& rng) {
    xq::Position pos;
    for (Color c : { xq::RED, BLACK })
        for (int pt = xq::KING; pt < xq::PIECE_TYPE_NB; ++pt)
            for (int n = 0; n < m.count[c][pt]; ++n) {
                int p;
                do p = int(rng() % xq::POINT_NB);
                while (!pos.empty(p) || !xq::can_stand(c, xq::PieceType(pt), p));
                pos.put_piece(xq::make_piece(c, xq::PieceType(pt)), p);
            }
    pos.set_side_to_move(stm);
    if (!pos.validity_error().empty()) return std::nullopt;
    return pos;
}

// --kind convert: the best capture into the tables of `pos` for its side to move, with the
// value it gives him; nullopt where no capture wins into a table.
std::optional<std::pair<xq::Move, Value>> best_capture(const Prober& tables, xq::Position pos) {
    std::optional<std::pair<xq::Move, Value>> best;
    for (xq::Move mv : xq::legal_moves(pos)) {
        if (pos.empty(xq::to_pt(mv))) continue;
        const auto u = pos.do_move(mv);
        const std::optional<Value> after = tables.dtm(pos);
        const std::optional<Wdl> result = after ? tables.rule_wdl(pos) : std::nullopt;
        pos.undo_move(mv, u);
        if (after && *result == Wdl::Loss
            && (!best || preference(after->parent()) > preference(best->second)))
            best = { mv, after->parent() };
    }
    return best;
}

int xiangqi_conversions(
    const Prober& tables, const xq::Material& m, int number, int minMoves, std::mt19937_64& rng) {
    if (tables.available(m)) {
        std::fprintf(stderr,
            "mktb positions: %s has a table: --kind convert is for endings beyond the tables\n",
            m.name().c_str());
        return kExitBadInput;
    }
    std::set<std::string> seen;
    int found = 0;
    for (long attempt = 0; found < number && attempt < 20'000'000; ++attempt) {
        const std::optional<xq::Position> pos = random_xiangqi(m, Color(rng() & 1), rng);
        if (!pos) continue;
        const auto capture = best_capture(tables, *pos);
        if (!capture || !capture->second.is_win() || capture->second.mate_in_moves() < minMoves)
            continue;
        const std::string fen = pos->fen();
        if (!seen.insert(fen).second) continue;
        ++found;
        std::printf("%s ; %s convert: %s by %s (%s), a capture into the tables\n", fen.c_str(),
            m.name().c_str(), xiangqi_sentence(pos->side_to_move(), capture->second, 1).c_str(),
            wxf(*pos, capture->first).c_str(), xq::move_to_uci(capture->first).c_str());
    }
    return found_of(found, number, m.name());
}

int xiangqi_positions(const Args& a) {
    const std::string kind = a.text("--kind"), dir = a.tables();
    const int number = int(a.number("--number", 10)), minMoves = int(a.number("--min-moves", 10));
    if (a.operands().empty()
        || (kind != "won" && kind != "hold" && kind != "convert" && kind != "any"))
        return usage_error(a, "give the Xiangqi ending and --kind won, hold, convert or any");
    for (const char* makrukOnly : { "--slack" })
        if (a.has(makrukOnly))
            return usage_error(a, std::string(makrukOnly) + " is Makruk's (the count's)");
    const std::optional<xq::Material> parsed = xq::Material::parse(a.operands()[0]);
    if (!parsed) {
        std::fprintf(
            stderr, "mktb positions: %s\n", xq::Material::parse_error(a.operands()[0]).c_str());
        return kExitBadInput;
    }
    const xq::Material m = parsed->canonical();
    std::mt19937_64 rng(std::uint64_t(a.number("--seed", 1)));
    std::set<std::string> seen;
    int found = 0;
    try {
        const Prober tables(dir);
        // Beyond the tables no canonical order applies: Red is the side written first.
        if (kind == "convert") return xiangqi_conversions(tables, *parsed, number, minMoves, rng);
        if (!tables.available(m)) {
            std::fprintf(stderr,
                "mktb positions: no Xiangqi table for %s in %s (generate it: mktb gen --game "
                "xiangqi %s)\n",
                m.name().c_str(), dir.c_str(), m.name().c_str());
            return kExitNoTable;
        }
        const bool won = kind == "won";
        for (long attempt = 0; found < number && attempt < 20'000'000; ++attempt) {
            const std::optional<xq::Position> pos = random_xiangqi(m, Color(rng() & 1), rng);
            if (!pos) continue;
            const std::optional<Value> v = tables.dtm(*pos);
            const std::optional<XAnswer> x = v ? xiangqi_answer(tables, *pos) : std::nullopt;
            if (!x) continue;
            if (kind != "any") {
                if (won ? !v->is_win() || v->mate_in_moves() < minMoves : !v->is_draw()) continue;
                if (x->result != (won ? 1 : 0)) continue;
                // Some move throws the result away: the winner's to a draw or worse, the
                // drawer's to a loss.
                if (std::none_of(x->moves.begin(), x->moves.end(),
                        [&](const XMove& mv) { return mv.result < x->result; }))
                    continue;
            }
            const std::string fen = pos->fen();
            if (!seen.insert(fen).second) continue;
            ++found;
            std::printf("%s ; %s %s: %s\n", fen.c_str(), m.name().c_str(), kind.c_str(),
                xiangqi_sentence(pos->side_to_move(), x->value, x->result).c_str());
        }
    } catch (const TableError& e) {
        std::fprintf(stderr, "mktb positions: %s\n", e.what());
        return kExitFailure;
    }
    return found_of(found, number, m.name());
}

int positions_command(const Args& a) {
    bool badGame = false;
    if (game_is_xiangqi(a, &badGame)) return xiangqi_positions(a);
    if (badGame) return kExitBadInput;
    const std::string kind = a.text("--kind"), dir = a.tables();
    const int number = int(a.number("--number", 10)), slack = int(a.number("--slack", 2));
    const int minMoves = int(a.number("--min-moves", 10));
    const std::uint64_t seed = std::uint64_t(a.number("--seed", 1));
    const CountRules& rules = a.rules();
    if (a.operands().empty()
        || (kind != "won" && kind != "hold" && kind != "convert" && kind != "exchange"
            && kind != "quiet"))
        return usage_error(a, "give the ending and --kind won, hold, convert, exchange or quiet");
    std::string error;
    const std::optional<Material> parsed = Material::parse(a.operands()[0], &error);
    if (!parsed) {
        std::fprintf(stderr, "mktb positions: %s\n", error.c_str());
        return kExitBadInput;
    }
    const Material m = parsed->canonical();
    const CountPhase phase = count_phase(m);
    if (phase == CountPhase::BareKings) {
        std::fputs("mktb positions: bare kings are never won\n", stderr);
        return kExitBadInput;
    }
    if (kind == "quiet") return quiet_positions(m, number, seed, rules);
    const Prober prober(dir, { .rules = rules });
    if (!prober.available(m)) {
        std::fprintf(stderr, "mktb positions: no table for %s in %s (generate it: mktb gen %s)\n",
            m.name().c_str(), dir.c_str(), m.name().c_str());
        return kExitNoTable;
    }
    const bool won = kind == "won";
    std::mt19937_64 rng(seed);
    std::set<std::string> seen;
    int found = 0;
    try {
        for (long attempt = 0; found < number && attempt < 20'000'000; ++attempt) {
            const std::optional<Position> p = random_position(m, Color(rng() & 1), rng);
            if (!p) continue;
            Position pos = *p;
            const std::optional<Value> pure = prober.dtm(pos);
            if (kind == "convert" || kind == "exchange") {
                if (!pure) continue;
                const bool convert = kind == "convert";
                if (convert && std::abs(pure->mate_in_moves()) < minMoves) continue;
                const CountState count = fresh_count(pos, rules);
                const std::optional<CountedValue> v = prober.counted(pos, count);
                if (!v
                    || v->result
                        != (convert ? CountedValue::Result::Win : CountedValue::Result::Draw)
                    || !(convert ? only_conversions_win(prober, pos, count)
                                 : some_conversion_loses(prober, pos, count)))
                    continue;
                pos.set_count_state(count);
                if (!seen.insert(pos.fen()).second) continue;
                ++found;
                std::printf("%s ; %s %s: %s; without counting %s\n", pos.fen().c_str(),
                    m.name().c_str(), kind.c_str(),
                    verdict(prober, pos, *pure, *v, pos.count_state()).c_str(),
                    describe(*pure).c_str());
                continue;
            }
            if (!pure || (won ? !pure->is_win() : !pure->is_loss())
                || std::abs(pure->mate_in_moves()) < minMoves)
                continue;
            CountState count = fresh_count(pos, rules);
            std::optional<CountedValue> c;
            auto fits = [&](const CountedValue& v) {
                if (won)
                    return v.result == CountedValue::Result::Win
                        && v.moves_available - v.moves_needed <= slack;
                return v.result == CountedValue::Result::Draw && v.moves_needed > 0
                    && v.moves_needed - v.moves_available <= slack;
            };
            if (phase == CountPhase::BoardHonour) {
                // The count that leaves (won) 0 to SLACK moves spare, or (hold) 1 to SLACK too few.
                const int want = int(rng() % unsigned(slack + 1)) + (won ? 0 : 1);
                for (int ply = 0; ply <= 128 && !c; ++ply) {
                    const CountedValue v = *prober.counted(pos, { 128, ply });
                    const int spare = v.moves_available - v.moves_needed;
                    if (v.moves_needed >= 0 && fits(v) && (won ? spare : -spare) == want)
                        c = v, count = { 128, ply };
                }
            } else {
                const CountedValue v = *prober.counted(pos, count);
                if (phase == CountPhase::NoCount) {
                    if (won ? v.result == CountedValue::Result::Win
                                && some_pure_win_fails(prober, pos, count)
                            : v.result == CountedValue::Result::Draw)
                        c = v;
                } else if (fits(v)) {
                    c = v;
                }
            }
            if (!c || (!won && !some_move_loses(prober, pos, count))) continue;
            pos.set_count_state(count);
            if (!seen.insert(pos.fen()).second) continue;
            ++found;
            std::printf("%s ; %s %s: %s; without counting %s\n", pos.fen().c_str(),
                m.name().c_str(), kind.c_str(),
                verdict(prober, pos, *pure, *c, pos.count_state()).c_str(),
                describe(*pure).c_str());
        }
    } catch (const TableError& e) {
        std::fprintf(stderr, "mktb positions: %s\n", e.what());
        return kExitFailure;
    }
    return found_of(found, number, m.name());
}

} // namespace

const Command kPositionsCommand {
    .name = "positions",
    .usage = "ENDING --kind won|hold|convert|exchange|quiet [--number N] [--slack S]\n"
             "  [--min-moves M] [--seed X] [--tables DIR] [RULES]\n"
             "  --game xiangqi ENDING --kind won|hold|convert|any [--number N] [--min-moves M]\n"
             "  [--seed X] [--tables DIR]",
    .summary = "random positions won within the count with\n"
               "at most S moves to spare (won), or drawn by\n"
               "the count at most S moves short of mate with\n"
               "a losing move to avoid (hold), won only by a\n"
               "conversion (convert), drawn unless a capture\n"
               "throws it (exchange); or of any ending,\n"
               "neither side in check nor able to capture\n"
               "(quiet, no table read); FEN with count;\n"
               "for Xiangqi won (a mate some move throws\n"
               "away), hold (a draw some move loses) or\n"
               "convert (beyond the tables, won by a\n"
               "capture into them) or any (legal)",
    .options = { { "--kind", "won|hold|convert|exchange|quiet",
                     "just won, held, won only by converting, an exchange to avoid, or quiet "
                     "(Xiangqi: won, hold, convert or any)" },
        { "--number", "N", "how many (default 10)", Option::Kind::Number, 1, 100000 },
        { "--slack", "S", "moves to spare at most (default 2)", Option::Kind::Number, 0, 1000 },
        { "--min-moves", "M", "the pure mate's moves at least (default 10)", Option::Kind::Number,
            0, 1000 },
        { "--seed", "X", "the random generator's seed (default 1)", Option::Kind::Number, 0,
            std::numeric_limits<long long>::max() },
        kTablesOption, kGameOption },
    .run = positions_command,
    .rules = true,
    .operands = 1,
};

} // namespace mktb::cli

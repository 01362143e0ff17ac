// answer.cpp - the answer to one position as JSON and in words (see answer.hpp, docs/api.md).
#include "answer.hpp"

#include <algorithm>

#include "mktb/movegen.hpp"
#include "notation.hpp"
#include "words.hpp"

namespace mktb::cli {

namespace {

// Plies to mate, signed as tablebase APIs do: + the side to move mates, - it is mated.
Json signed_dtm(Value v) {
    if (v.is_draw()) return nullptr;
    return v.is_win() ? v.plies : -v.plies;
}

Json count_or_null(int n) { return n < 0 ? Json(nullptr) : Json(n); }

Json counted_json(const CountedValue& c) {
    return { { "category", result_word(c.result) },
        { "moves_needed", count_or_null(c.moves_needed) },
        { "moves_available", count_or_null(c.moves_available) } };
}

// The value after a move, for the side to move there (the opponent of the mover).
Value after_move(Value mover) { return mover.is_draw() ? mover : Value { mover.plies - 1 }; }
// The counted value after a move from its RankedMove view (which counts the move itself when
// the mover wins), for the side to move there.
CountedValue after_move(CountedValue mover) {
    if (mover.result == CountedValue::Result::Win) {
        if (mover.moves_needed > 0) --mover.moves_needed;
        if (mover.moves_available > 0) --mover.moves_available;
    }
    mover.result = CountedValue::Result(-int(mover.result));
    return mover;
}

} // namespace

std::string moves_text(const CountedValue& c, Lang lang) {
    const bool th = lang == Lang::Th;
    const std::string n = std::to_string(c.moves_needed);
    if (c.moves_needed < 0) return th ? "บังคับรุกจนไม่ได้" : "no forced mate";
    if (c.moves_available < 0) return th ? n + " ตา ยังไม่เริ่มนับ" : n + " moves, no count yet";
    const std::string of = std::to_string(c.moves_available);
    return th ? n + " จาก " + of + " ตา" : n + " of " + of + " moves";
}

// Where no count runs (a Bia on the board) it says what holds: the count the conversion starts
// leaves time, in so many moves.
std::string counted_text(CountedValue mover, bool conversion, Lang lang) {
    const bool th = lang == Lang::Th;
    const bool won = mover.result == CountedValue::Result::Win;
    const std::string n = std::to_string(mover.moves_needed);
    if (mover.result == CountedValue::Result::Draw)
        return th ? "เสมอด้วยการนับ" : "draw under the count";
    if (mover.moves_available < 0) {
        if (th)
            return (won ? "ชนะ: การนับที่เริ่มเมื่อเบี้ยหมดยังเหลือเวลาพอ ("
                        : "แพ้: การนับที่เริ่มเมื่อเบี้ยหมดยังเหลือเวลาพอให้อีกฝ่าย (")
                + n + " ตา ถึงรุกจนหรือการเปลี่ยนหมากที่ชนะ)";
        return won ? "wins: the count its conversion starts leaves time (" + n
                + " moves to mate or a winning conversion)"
                   : "loses: the count the opponent's conversion starts leaves it time (" + n
                + " moves to mate or a winning conversion)";
    }
    if (!won)
        return th ? "แพ้ภายในการนับ (อีกฝ่ายใช้ " + moves_text(mover, lang) + ")"
                  : "loses within the count (the opponent needs " + moves_text(mover, lang) + ")";
    if (conversion) // the move is not one of the new count's
        return th ? "ชนะภายในการนับ (จากนั้น " + moves_text(after_move(mover), lang) + ")"
                  : "wins within the count (then " + moves_text(after_move(mover), lang) + ")";
    return th ? "ชนะภายในการนับ (" + moves_text(mover, lang) + ")"
              : "wins within the count (" + moves_text(mover, lang) + ")";
}

std::string rules_words(const CountRules& rules, Lang lang) {
    if (lang == Lang::En) return describe_in_words(rules);
    // The alternatives of kRuleOptions, in its order.
    static constexpr const char* kThai[]
        = { "โคนหนึ่งตัวให้ศักดิ์ 44 แม้มีม้าสองตัว", "เสมอเมื่อนับถึงศักดิ์ (แบบกัมพูชา)", "ฝ่ายที่นับรุกจนได้เพียงเสมอ",
              "ไม่นับศักดิ์กระดาน", "เริ่มนับศักดิ์หมากเฉพาะเมื่อจบเร็วกว่า" };
    static_assert(std::size(kThai) == kRuleOptions.size());
    std::string out;
    for (std::size_t i = 0; i < std::size(kThai); ++i)
        if (rules.has(RuleOption(i))) out.append(out.empty() ? "" : "; ").append(kThai[i]);
    return out.empty() ? "กติกาปกติ (ตามที่ Fairy-Stockfish เล่น)" : out;
}

std::string value_text(Value v, Lang lang) {
    if (lang == Lang::En) return describe(v);
    if (v.is_draw()) return "เสมอ";
    if (v.plies == 0) return "ถูกรุกจน";
    const int n = v.mate_in_moves();
    return n > 0 ? "รุกจนใน " + std::to_string(n) + " ตา" : "ถูกรุกจนใน " + std::to_string(-n) + " ตา";
}

namespace {

// "White mates in 23", "Black is checkmated", "Draw".
std::string pure_verdict(const Position& pos, Value v, Lang lang) {
    const bool th = lang == Lang::Th;
    const Color stm = pos.side_to_move();
    if (v.is_draw())
        return is_stalemate(pos) ? (th ? "เสมอ: อับ" : "Draw: stalemate") : (th ? "เสมอ" : "Draw");
    if (v.plies == 0) return color_name(stm, lang) + (th ? "ถูกรุกจน" : " is checkmated");
    const int n = v.mate_in_moves();
    const Color winner = n > 0 ? stm : ~stm;
    return color_name(winner, lang) + (th ? "รุกจนใน " : " mates in ") + std::to_string(std::abs(n))
        + (th ? " ตา" : "");
}

const char* phase_key(CountPhase p) {
    switch (p) {
    case CountPhase::NoCount:
        return "none";
    case CountPhase::PiecesHonour:
        return "pieces";
    case CountPhase::BoardHonour:
        return "board";
    default:
        return "bare_kings";
    }
}

// The count followed: its phase, the raw FEN fields, the moves of the limit, the count last
// announced and the side that counts (the bare king; under board's honour the weaker side).
Json count_json(const Position& pos, CountState count, const CountRules& rules) {
    const CountPhase phase = count_phase(pos);
    Json j { { "phase", phase_key(phase) } };
    const bool running = phase == CountPhase::PiecesHonour
        || (phase == CountPhase::BoardHonour && !rules.has(RuleOption::BoardHonourOff));
    if (!running) {
        j["running"] = false;
        return j;
    }
    std::optional<Color> counter;
    if (const auto attacker = pieces_honour_attacker(pos))
        counter = ~*attacker;
    else
        counter = Material::of(pos).weaker_side();
    j["running"] = true;
    j["limit"] = count.limit;
    j["ply"] = count.ply;
    j["limit_moves"] = count.limit / 2;
    j["announced"] = (count.ply + 1) / 2;
    j["counter"] = counter ? Json(kColorKey[*counter]) : Json(nullptr);
    return j;
}

} // namespace

std::string dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

bool valid_utf8(std::string_view text) {
    for (std::size_t i = 0; i < text.size();) {
        const unsigned char c = text[i];
        const int extra = c < 0x80 ? 0
            : (c >> 5) == 0x6      ? 1
            : (c >> 4) == 0xE      ? 2
            : (c >> 3) == 0x1E     ? 3
                                   : -1;
        if (extra < 0 || i + extra >= text.size()) return false;
        std::uint32_t code = extra ? c & (0x3F >> extra) : c;
        for (int k = 1; k <= extra; ++k) {
            const unsigned char d = text[i + k];
            if ((d & 0xC0) != 0x80) return false;
            code = code << 6 | (d & 0x3F);
        }
        static constexpr std::uint32_t kLeast[] = { 0, 0x80, 0x800, 0x10000 };
        if (code < kLeast[extra] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
            return false;
        i += extra + 1;
    }
    return true;
}

std::string parse_count(
    std::string_view text, const Position& pos, const CountRules& rules, CountState& out) {
    const auto colon = text.find(':');
    const std::string_view kind = text.substr(0, colon);
    int c = -1;
    if (colon != std::string_view::npos) {
        const std::string digits(text.substr(colon + 1));
        if (!digits.empty() && digits.size() <= 2
            && std::all_of(
                digits.begin(), digits.end(), [](char ch) { return ch >= '0' && ch <= '9'; }))
            c = std::stoi(digits);
    }
    if ((kind != "pieces" && kind != "board") || c < 0 || c > 64)
        return "the count is pieces:C or board:C with C the count last announced (0-64), not '"
            + std::string(text) + "'";
    const std::optional<Color> attacker = pieces_honour_attacker(pos);
    if (kind == "pieces" && !attacker) return "a pieces' honour count needs a bare defending king";
    if (kind == "board" && count_phase(pos) != CountPhase::BoardHonour)
        return count_phase(pos) == CountPhase::NoCount
            ? "no count runs while a Bia is on the board"
            : "a board's honour count needs men on both sides";
    if (kind == "board" && rules.has(RuleOption::BoardHonourOff))
        return "a board's honour count contradicts board_honour = off";
    const int limit = kind == "pieces" ? 2 * pieces_honour_limit(pos, *attacker, rules) : 128;
    // After the counter's move counted c the ply is 2c - 1, the other side to move; 2c once
    // that side has replied. Under board's honour the counter is taken to be the side that
    // just moved (it has just announced C); under pieces' honour it is the bare king.
    const bool attackerToMove = attacker ? pos.side_to_move() == *attacker : true;
    out = { limit, std::max(attackerToMove ? 2 * c - 1 : 2 * c, 0) };
    return count_error(pos, out); // the FEN parser's rule: e.g. pieces:2 with three men is none
}

std::string count_to_follow(
    std::string_view count_text, const Position& pos, const CountRules& rules, CountState& out) {
    out = pos.count_state().limit ? pos.count_state() : fresh_count(pos, rules);
    return count_text.empty() ? std::string() : parse_count(count_text, pos, rules, out);
}

bool announces_count(const Position& after, Color mover, CountState count) {
    if (!count.limit) return false;
    const std::optional<Color> attacker = pieces_honour_attacker(after);
    return attacker ? mover == ~*attacker : Material::of(after).weaker_side() == mover;
}

std::optional<BaringPath> baring_path(const Prober& prober, Position pos, CountState count) {
    const CountRules& rules = prober.options().rules;
    if (count_phase(pos) != CountPhase::BoardHonour || rules.has(RuleOption::BoardHonourOff))
        return std::nullopt;
    const std::optional<CountedValue> start = prober.counted(pos, count);
    if (!start || start->result == CountedValue::Result::Draw) return std::nullopt;
    // The board's honour figure counts the moves to mate or to a winning baring capture: where
    // it equals the pure mate's, the mate itself is the path (and nothing needs walking).
    const std::optional<Value> pure = prober.dtm(pos);
    if (!pure || std::abs(pure->mate_in_moves()) <= start->moves_needed) return std::nullopt;
    const Color winner
        = start->result == CountedValue::Result::Win ? pos.side_to_move() : ~pos.side_to_move();
    // Both sides keep their best counted answer (rank_root's first move): the winner its fewest
    // moves to mate or to a winning baring capture, the loser its longest resistance in the
    // same measure, so the capture comes when the board's honour figure says.
    for (int winnerMoves = 0, ply = 0; ply < 2 * 130; ++ply) {
        const std::optional<std::vector<RankedMove>> ranked = prober.rank_root(pos, count);
        if (!ranked || ranked->empty()) return std::nullopt; // mate on the board: no baring
        Position next = pos;
        next.do_move(ranked->front().move);
        count = count_after_move(pos, next, count, rules);
        winnerMoves += pos.side_to_move() == winner;
        pos = next;
        if (count_phase(pos) == CountPhase::BoardHonour) continue;
        if (count_phase(pos) != CountPhase::PiecesHonour) return std::nullopt;
        const std::optional<CountedValue> then = prober.counted(pos, count);
        // A capture that mates is a mate, not a baring.
        if (!then || then->result == CountedValue::Result::Draw || then->moves_needed == 0)
            return std::nullopt;
        return BaringPath { winnerMoves, *then };
    }
    return std::nullopt;
}

MoveCounted move_counted(const Prober& prober, const Position& pos, Move move,
    const CountedValue& mover, CountState count, Lang lang) {
    const bool th = lang == Lang::Th;
    const bool conversion = !pos.empty(to_sq(move)) || is_promotion(move);
    MoveCounted out { counted_text(mover, conversion, lang), std::nullopt };
    if (mover.result != CountedValue::Result::Win || count_phase(pos) != CountPhase::BoardHonour
        || prober.options().rules.has(RuleOption::BoardHonourOff))
        return out;
    Position next = pos;
    next.do_move(move);
    const CountState after = count_after_move(pos, next, count, prober.options().rules);
    if (conversion) {
        if (count_phase(next) == CountPhase::PiecesHonour) // this capture bares the king
            out.text = th ? "ชนะภายในการนับ: กินหมากตัวสุดท้าย แล้วรุกจนใน "
                    + moves_text(after_move(mover), lang) + " (นับศักดิ์หมาก)"
                          : "wins within the count: bares the king, then mates in "
                    + moves_text(after_move(mover), lang) + " (pieces' honour)";
        return out;
    }
    if (const std::optional<BaringPath> path = baring_path(prober, next, after)) {
        out.baring = BaringPath { path->moves + 1, path->then };
        const std::string n = std::to_string(path->moves + 1),
                          of = std::to_string(mover.moves_available);
        out.text = th ? "ชนะภายในการนับ: กินหมากตัวสุดท้ายใน " + n + " จาก " + of + " ตา แล้วรุกจนใน "
                + moves_text(path->then, lang) + " (นับศักดิ์หมาก)"
                      : "wins within the count: bares the king in " + n + " of " + of
                + " moves, then mates in " + moves_text(path->then, lang) + " (pieces' honour)";
    }
    return out;
}

std::string verdict(const Position& pos, Value pure, const CountedValue& counted,
    const CountRules& rules, CountState count, const std::optional<BaringPath>& baring, Lang lang) {
    const bool th = lang == Lang::Th;
    const Color stm = pos.side_to_move();
    const CountPhase phase = count_phase(pos);
    const auto num = [](int n) { return std::to_string(n); };
    if (phase == CountPhase::BareKings) return th ? "เสมอ: เหลือขุนเปล่าทั้งสองฝ่าย" : "Draw: bare kings";
    if (count_has_ended(count) && pure.plies != 0)
        return th ? "เสมอ: นับครบแล้ว (นับ " + num((count.ply + 1) / 2) + " จาก "
                + num(count.limit / 2) + " ตา) เกมจบ"
                  : "Draw: the count has run out (" + num((count.ply + 1) / 2) + " of "
                + num(count.limit / 2) + " moves counted); the game is over";
    if (pure.is_draw() || pure.plies == 0) return pure_verdict(pos, pure, lang);
    const Color winner = pure.is_win() ? stm : ~stm;
    const std::string w = color_name(winner, lang);
    if (phase == CountPhase::NoCount) {
        // One line: that no count runs while a Bia is on the board is said beside it.
        if (counted.result == CountedValue::Result::Draw)
            return th ? "เสมอด้วยการนับ (" + w + "รุกจนได้เฉพาะเมื่อไม่นับ)"
                      : "Draw under the count (" + w + " mates only without counting)";
        return th ? w + "ชนะใน " + num(counted.moves_needed) + " ตา (ถึงรุกจนหรือเปลี่ยนหมาก)"
                  : w + " wins in " + num(counted.moves_needed) + " moves (to mate or conversion)";
    }
    if (phase == CountPhase::BoardHonour && rules.has(RuleOption::BoardHonourOff)) {
        if (counted.result == CountedValue::Result::Draw)
            return th ? "เสมอด้วยการนับ (ไม่นับศักดิ์กระดาน และนับศักดิ์หมากเริ่มช้าเกินไป)"
                      : "Draw under the count (no count while both sides have men; baring the "
                        "defender starts pieces' honour too late)";
        return th
            ? w + "ชนะภายในการนับ (ไม่นับศักดิ์กระดาน)"
            : w + " wins under the count (no count while both sides have men, board_honour = off)";
    }
    const int left = std::max(counted.moves_available, 0);
    if (counted.result != CountedValue::Result::Draw) {
        const Color cw = counted.result == CountedValue::Result::Win ? stm : ~stm;
        const std::string c = color_name(cw, lang);
        if (baring)
            return th
                ? c + "ชนะภายในการนับ: กินหมากตัวสุดท้ายของ" + color_name(~cw, lang) + "ใน "
                    + num(counted.moves_needed) + " จาก " + num(left) + " ตา แล้วรุกจนใน "
                    + moves_text(baring->then, lang) + " (นับศักดิ์หมาก)"
                : c + " wins within the count: bares the " + color_name(~cw, lang) + " king in "
                    + num(counted.moves_needed) + " of " + num(left) + " moves, then mates in "
                    + moves_text(baring->then, lang) + " (pieces' honour)";
        return th
            ? c + "ชนะภายในการนับ: ใช้ " + num(counted.moves_needed) + " จาก " + num(left) + " ตา"
            : c + " wins within the count: " + num(counted.moves_needed) + " of " + num(left)
                + " moves needed";
    }
    if (counted.moves_needed > 0)
        return th ? "เสมอด้วยการนับ: " + w + "ต้องใช้ " + num(counted.moves_needed)
                + " ตา แต่การนับเหลือเพียง " + num(left) + " ตา"
                  : "Draw under the count: " + w + " needs " + num(counted.moves_needed)
                + " moves, the count leaves " + num(left);
    if (rules.has(RuleOption::CounterMateDraws) && Material::of(pos).weaker_side() == winner)
        return th ? "เสมอด้วยการนับ: ฝ่ายที่นับรุกจนได้เพียงเสมอ (counter_mate = draw)"
                  : "Draw under the count: a mate by the counting side only draws (counter_mate = "
                    "draw)";
    return th ? "เสมอด้วยการนับ: " + w + "รุกจนได้ถ้าไม่นับ แต่บังคับรุกจนหรือกินหมากที่ชนะไม่ได้ภายใน " + num(left)
            + " ตาที่การนับเหลือ"
              : "Draw under the count: " + w
            + " mates without counting but cannot force mate or a winning capture in the "
            + num(left) + " moves the count leaves";
}

std::string verdict(const Prober& prober, const Position& pos, Value pure,
    const CountedValue& counted, CountState count, Lang lang) {
    return verdict(
        pos, pure, counted, prober.options().rules, count, baring_path(prober, pos, count), lang);
}

std::optional<Json> answer_json(
    const Prober& prober, const Position& pos, CountState count, bool with_line, Lang lang) {
    const CountRules& rules = prober.options().rules;
    const std::optional<Value> value = prober.dtm(pos);
    const std::optional<std::vector<RankedMove>> moves = prober.rank_root(pos, count);
    const std::optional<CountedValue> here = prober.counted(pos, count);
    if (!value || !moves || !here) return std::nullopt;
    const Color stm = pos.side_to_move();

    Json list = Json::array();
    for (const RankedMove& m : *moves) {
        const RankedMove& top = moves->front();
        Position next = pos;
        next.do_move(m.move);
        next.set_count_state(count_after_move(pos, next, count, rules));
        const bool capture = !pos.empty(to_sq(m.move));
        const MoveCounted row = move_counted(prober, pos, m.move, m.counted, count, lang);
        list.push_back({ { "uci", move_to_uci(m.move) }, { "san", san(pos, m.move) },
            { "fen", next.fen() }, { "capture", capture }, { "promotion", is_promotion(m.move) },
            { "conversion", capture || is_promotion(m.move) }, { "checkmate", is_checkmate(next) },
            { "stalemate", is_stalemate(next) }, { "category", result_word(after_move(m.pure)) },
            { "dtm", signed_dtm(after_move(m.pure)) },
            { "counted", counted_json(after_move(m.counted)) },
            { "best",
                m.counted.result == top.counted.result
                    && m.counted.moves_needed == top.counted.moves_needed },
            { "text", { { "pure", value_text(m.pure, lang) }, { "counted", row.text } } } });
        if (row.baring)
            list.back()["counted"]["baring"]
                = { { "moves", row.baring->moves }, { "then", counted_json(row.baring->then) } };
    }
    const std::optional<BaringPath> baring = baring_path(prober, pos, count);
    Json counted = counted_json(*here);
    if (baring)
        counted["baring"] = { { "moves", baring->moves }, { "then", counted_json(baring->then) } };
    Json j { { "fen", pos.fen() }, { "material", Material::of(pos).canonical().name() },
        { "side_to_move", kColorKey[stm] }, { "checkmate", value->plies == 0 },
        { "stalemate", is_stalemate(pos) }, { "category", result_word(*value) },
        { "dtm", signed_dtm(*value) },
        { "mate_in", value->is_draw() ? Json(nullptr) : Json(value->mate_in_moves()) },
        { "counted", std::move(counted) }, { "count", count_json(pos, count, rules) },
        { "rules", describe(rules) },
        { "verdict", verdict(pos, *value, *here, rules, count, baring, lang) },
        { "pure_verdict", pure_verdict(pos, *value, lang) }, { "moves", std::move(list) } };
    if (with_line) {
        // The moves, and each step to walk through: the position after the move with the
        // count carried on, and the count then.
        Json line = Json::array(), inSan = Json::array(), steps = Json::array();
        Position p = pos;
        CountState c = count;
        for (Move m : prober.line(pos, count)) {
            Position next = p;
            next.do_move(m);
            c = count_after_move(p, next, c, rules);
            next.set_count_state(c);
            line.push_back(move_to_uci(m));
            inSan.push_back(san(p, m));
            steps.push_back({ { "uci", line.back() }, { "san", inSan.back() },
                { "fen", next.fen() }, { "count", count_json(next, c, rules) } });
            p = next;
        }
        j["line"] = std::move(line);
        j["line_san"] = std::move(inSan);
        j["line_steps"] = std::move(steps);
    }
    return j;
}

} // namespace mktb::cli

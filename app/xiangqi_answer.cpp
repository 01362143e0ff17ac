// xiangqi_answer.cpp - what mktb tells about one Xiangqi position: `mktb probe` with a Xiangqi
// FEN (text, --json in the shape of Makruk's answer, --line) and a line of `--epd`.
#include "xiangqi_answer.hpp"

#include <algorithm>
#include <cstdio>

#include "notation.hpp"

namespace mktb::cli {

namespace {

using xq::Position;

const char* colour(Color c) { return c == xq::RED ? "Red" : "Black"; }
const char* colour(Color c, Lang lang) {
    return lang == Lang::Th ? (c == xq::RED ? "แดง" : "ดำ") : colour(c);
}

std::string sentence(Color stm, Value v, Lang lang) {
    const bool th = lang == Lang::Th;
    if (v.is_draw()) return th ? "เสมอ" : "draw";
    if (v.plies == 0)
        return std::string(colour(stm, lang)) + (th ? "ไม่มีตาเดินและแพ้" : " has no move and loses");
    const int n = v.mate_in_moves();
    const Color winner = n > 0 ? stm : ~stm;
    return std::string(colour(winner, lang)) + (th ? "รุกจนใน " : " mates in ")
        + std::to_string(std::abs(n)) + (th ? " ตา" : "");
}

const char* category(Value v) { return v.is_win() ? "win" : v.is_loss() ? "loss" : "draw"; }
const char* category(int result) { return result > 0 ? "win" : result < 0 ? "loss" : "draw"; }

// A result only the rule gives, as the headline players read: the win or loss under the rules,
// when the loser has no other way left (the rule's distance, in the moves of the side to move
// as a mate's are counted), the plain result beside it.
std::string rule_sentence(Color stm, int result, xq::RuleSet rules, Lang lang, int plies) {
    const Color winner = result > 0 ? stm : ~stm;
    const bool chase = rules == xq::RuleSet::Asian;
    const int moves = (plies + 1) / 2;
    if (lang == Lang::Th)
        return std::string(colour(winner, lang)) + "ชนะ: " + colour(~winner, lang)
            + (chase ? "ยื้อได้ด้วยการรุกหรือไล่ไม่หยุดเท่านั้น" : "ยื้อได้ด้วยการรุกไม่หยุดเท่านั้น") + " ซึ่งกติกาห้าม"
            + (plies < 0 ? ""
                    : plies == 0 ? " และตอนนี้ไม่เหลือทางอื่นแล้ว"
                                 : " อีก " + std::to_string(moves) + " ตาจะไม่เหลือทางอื่น")
            + " (ถ้าไม่มีกติกานี้: เสมอ)";
    return std::string(colour(winner)) + " wins: " + colour(~winner)
        + (chase ? " can hold only by checking or chasing for ever"
                 : " can hold only by checking for ever")
        + ", which the rules forbid"
        + (plies < 0         ? ""
                : plies == 0 ? ", and has no other way left"
                             : "; in " + std::to_string(moves) + (moves == 1 ? " move" : " moves")
                    + " it has no other way left")
        + " (without the rule: a draw)";
}

int signed_plies(Value v) { return v.is_draw() ? 0 : v.is_win() ? v.plies : -v.plies; }

// How a rule line ends: the position that repeats, and how the loser broke the rules on every
// move of that cycle (checks, or under asian chases, or both by turns), in words.
std::string repetition_note(
    const Position& start, const XRuleLine& line, Color loser, xq::RuleSet rules, Lang lang) {
    Position p = start;
    bool checks = true, chases = true, either = true;
    for (std::size_t i = 0; i < line.moves.size(); ++i) {
        const xq::Move mv = line.moves[i];
        const bool chase = rules == xq::RuleSet::Asian && xq::chased_kinds(p, mv) != 0;
        const bool mover = p.side_to_move() == loser && int(i) >= line.repeats_from;
        p.do_move(mv);
        if (!mover) continue;
        checks &= p.in_check();
        chases &= chase;
        either &= p.in_check() || chase;
    }
    const std::string n = std::to_string(line.moves.size()), k = std::to_string(line.repeats_from);
    const bool th = lang == Lang::Th;
    const std::string how = checks ? (th ? "รุก" : " checked")
        : chases                   ? (th ? "ไล่" : " chased")
                                   : (th ? "รุกหรือไล่" : " checked or chased");
    if (th)
        return "ตำแหน่งหลังตาที่ " + n + " ซ้ำกับหลังตาที่ " + k
            + (either ? std::string(": ") + colour(loser, lang) + how + "ทุกตาในระหว่างนั้น จึงแพ้ตามกติกา"
                      : std::string());
    return "The position after ply " + n + " repeats the one after ply " + k
        + (either ? std::string(": ") + colour(loser) + how
                    + " on every move between, and loses by the rule"
                  : std::string());
}

} // namespace

std::string xiangqi_sentence(
    Color stm, Value v, int result, Lang lang, xq::RuleSet rules, int rule_plies) {
    return v.is_draw() && result ? rule_sentence(stm, result, rules, lang, rule_plies)
                                 : sentence(stm, v, lang);
}

std::optional<XAnswer> xiangqi_answer(const Prober& tables, const Position& pos) {
    XAnswer a;
    const std::optional<Value> here = tables.dtm(pos);
    if (!here) return std::nullopt;
    a.value = *here;
    a.result = int(*tables.rule_wdl(pos));
    const xq::Material m = xq::Material::of(pos);
    a.rules = tables.options().xiangqi_rules;
    a.armed = !m.armless(xq::RED) && !m.armless(BLACK);
    if (a.by_rule()) a.rule_plies = *tables.rule_plies(pos);
    // The moves in the API's order; each one's position after it valued for its side to move.
    const std::optional<std::vector<XiangqiMove>> ranked = tables.rank_root(pos);
    if (!ranked) return std::nullopt;
    for (const XiangqiMove& x : *ranked)
        a.moves.push_back({ x.move, x.value, pos.piece_on(xq::to_pt(x.move)) != xq::NO_PIECE,
            x.value.is_draw() ? Value::draw() : Value::mate_in_plies(x.value.plies - 1), x.result,
            x.rule_plies });
    return a;
}

XRuleLine xiangqi_rule_line(const Prober& tables, Position pos) {
    XRuleLine line;
    std::vector<std::string> seen; // the boards and sides to move so far (FEN less counters)
    const auto key = [](const Position& p) {
        const std::string f = p.fen();
        return f.substr(0, f.find(' ', f.find(' ') + 1));
    };
    for (int ply = 0; ply < 400; ++ply) {
        const std::optional<XAnswer> a = xiangqi_answer(tables, pos);
        if (!a || !a->by_rule() || a->rule_plies < 0 || a->moves.empty()) break;
        seen.push_back(key(pos));
        // The move that keeps the rule's distance: to a child one ply nearer (the winner's
        // least; the loser's, where it has one, the longest way the table counted); at 0 the
        // loser's best (a move that keeps the rule's result, into its cycle). Of the winner's
        // equal moves one that gives no check: the cycle shown is then the loser's alone.
        const XMove* chosen = nullptr;
        bool chosenChecks = true;
        for (const XMove& x : a->moves) {
            if (x.result != a->result || !x.value.is_draw()) continue;
            if (a->result < 0 && a->rule_plies == 0) {
                chosen = &x;
                break;
            }
            if (x.rule_plies != a->rule_plies - 1) continue;
            Position after = pos;
            after.do_move(x.move);
            const bool checks = after.in_check();
            if (!chosen || (a->result > 0 && chosenChecks && !checks)) {
                chosen = &x;
                chosenChecks = checks;
            }
        }
        if (!chosen) break;
        line.moves.push_back(chosen->move);
        pos.do_move(chosen->move);
        const auto at = std::find(seen.begin(), seen.end(), key(pos));
        if (at != seen.end()) {
            line.repeats_from = int(at - seen.begin());
            break;
        }
    }
    return line;
}

std::vector<xq::Move> xiangqi_line(const Prober& tables, Position pos) {
    std::vector<xq::Move> line;
    for (int ply = 0; ply < 600; ++ply) {
        const std::optional<XAnswer> a = xiangqi_answer(tables, pos);
        if (!a || a->value.is_draw() || a->moves.empty()) break;
        line.push_back(a->moves.front().move);
        pos.do_move(a->moves.front().move);
    }
    return line;
}

Json xiangqi_json(
    const Prober& tables, const Position& pos, const XAnswer& a, bool with_line, Lang lang) {
    const Color stm = pos.side_to_move();
    const bool noMove = a.moves.empty();
    const xq::Material m = xq::Material::of(pos);
    Json j { { "game", "xiangqi" }, { "fen", pos.fen() }, { "material", m.canonical().name() },
        { "side_to_move", stm == xq::RED ? "red" : "black" },
        { "checkmate", noMove && pos.in_check() }, { "stalemate", noMove && !pos.in_check() },
        { "category", category(a.value) }, { "dtm", signed_plies(a.value) },
        { "mate_in", a.value.mate_in_moves() } };
    // Where one side is armless the perpetual-check rule changes nothing (docs/rules-xiangqi.md
    // §5). Elsewhere "category" and "dtm" stay the plain analysis's, and "rule_result" says
    // where the rule decides a position the plain analysis draws.
    j["rule_set"] = std::string(xq::rule_set(a.rules).name);
    j["rules"] = !a.armed ? "stalemate=loss perpetual_check=plain(armless side) chase=not_modelled"
        : a.rules == xq::RuleSet::Check ? "stalemate=loss perpetual_check=loss chase=not_modelled"
        : a.rules == xq::RuleSet::Asian ? "stalemate=loss perpetual_check=loss chase=loss"
                                        : "stalemate=loss perpetual_check=draw chase=draw";
    if (a.by_rule()) j["rule_result"] = category(a.result);
    // The rule's distance, signed as "dtm" and "mate_in" are (docs/rules-xiangqi.md §5c).
    if (a.by_rule() && a.rule_plies >= 0) {
        j["rule_distance"] = a.result > 0 ? a.rule_plies : -a.rule_plies;
        j["rule_in"] = a.result > 0 ? (a.rule_plies + 1) / 2 : -(a.rule_plies / 2);
    }
    j["verdict"] = xiangqi_sentence(stm, a.value, a.result, lang, a.rules, a.rule_plies);
    Json moves = Json::array();
    for (const XMove& x : a.moves) {
        Position after = pos;
        after.do_move(x.move);
        const bool none = !xq::has_legal_move(after);
        moves.push_back({ { "uci", xq::move_to_uci(x.move) }, { "wxf", wxf(pos, x.move) },
            { "chinese", chinese(pos, x.move) }, { "fen", after.fen() }, { "capture", x.capture },
            { "conversion", x.capture }, { "check", after.in_check() },
            { "checkmate", none && after.in_check() }, { "stalemate", none && !after.in_check() },
            // The position after the move, for its side to move, as Makruk's answer gives it.
            { "category", category(x.after) }, { "dtm", signed_plies(x.after) },
            { "best", x.keeps(a.moves.front()) },
            { "text", { { "pure", value_text(x.value, lang) } } } });
        // Like "category", for the side to move after the move (x.result is the mover's).
        if (x.value.is_draw() && x.result) moves.back()["rule_result"] = category(-x.result);
        if (x.value.is_draw() && x.result && x.rule_plies >= 0)
            moves.back()["rule_distance"] = x.result < 0 ? x.rule_plies : -x.rule_plies;
    }
    j["moves"] = moves;
    if (with_line) {
        // The moves, and each step to walk through with the position after it.
        Json line = Json::array(), inWxf = Json::array(), steps = Json::array();
        Position p = pos;
        const XRuleLine ruleLine = a.by_rule() ? xiangqi_rule_line(tables, pos)
                                               : XRuleLine { xiangqi_line(tables, pos) };
        for (xq::Move mv : ruleLine.moves) {
            line.push_back(xq::move_to_uci(mv));
            inWxf.push_back(wxf(p, mv));
            const std::string inChinese = chinese(p, mv);
            p.do_move(mv);
            steps.push_back({ { "uci", line.back() }, { "wxf", inWxf.back() },
                { "chinese", inChinese }, { "fen", p.fen() } });
        }
        j["line"] = line;
        j["line_wxf"] = inWxf;
        j["line_steps"] = steps;
        if (ruleLine.repeats_from >= 0) {
            j["line_repeats_from"] = ruleLine.repeats_from;
            j["line_note"]
                = repetition_note(pos, ruleLine, a.result > 0 ? ~stm : stm, a.rules, lang);
        }
        // A result only the rule gives, from a table without its distances: no line, and why.
        if (line.empty() && a.by_rule()) {
            const Color winner = a.result > 0 ? stm : ~stm;
            j["line_none"] = lang == Lang::Th
                ? "ไม่มีแนวเดินถึงรุกจน: " + std::string(colour(~winner, lang))
                    + "รุกได้ไม่สิ้นสุด แต่กติกาห้ามรุกไม่หยุด เมื่อการรุกวนซ้ำ " + colour(winner, lang) + "จึงชนะ"
                : "No line to mate: " + std::string(colour(~winner))
                    + "'s checks never run out, but the rules forbid checking for ever: "
                    + colour(winner) + " wins when the checks repeat";
        }
    }
    return j;
}

std::string rules_text(const XAnswer& a) {
    if (!a.armed) return "the repetition rules change nothing where one side is armless";
    return "rules " + std::string(xq::rule_set(a.rules).name) + ": "
        + (a.rules == xq::RuleSet::Check        ? "a side that checks forever loses; perpetual "
                                                  "chase not modelled"
                : a.rules == xq::RuleSet::Asian ? "a side that checks or chases the same man "
                                                  "forever loses"
                                                : "every endless line a draw");
}

int xiangqi_probe(const std::string& dir, xq::RuleSet rules, std::string_view fen, bool json,
    bool with_line, int (*fail)(bool, int, const std::string&)) {
    Position pos;
    try {
        pos = Position::from_fen(fen);
    } catch (const FenError& e) {
        return fail(json, kExitBadInput, std::string("bad Xiangqi FEN: ") + e.what());
    }
    try {
        ProbeOptions options;
        options.xiangqi_rules = rules;
        const Prober tables(dir, options);
        const std::optional<XAnswer> a = xiangqi_answer(tables, pos);
        if (!a) {
            const std::string m = xq::Material::of(pos).canonical().name();
            const std::string gen = rules == xq::kDefaultRuleSet
                ? ""
                : " --rules " + std::string(xq::rule_set(rules).name);
            return fail(json, kExitNoTable,
                "no Xiangqi table for " + m + " or an ending it converts into in " + dir
                    + " (generate them: mktb gen --game xiangqi" + gen + " " + m + ")");
        }
        if (json) {
            std::printf("%s\n", dump(xiangqi_json(tables, pos, *a, with_line)).c_str());
            return kExitOk;
        }
        const Color stm = pos.side_to_move();
        std::printf("%s\n%s to move: %s (Xiangqi; %s)\n", pos.fen().c_str(), colour(stm),
            xiangqi_sentence(stm, a->value, a->result, Lang::En, a->rules, a->rule_plies).c_str(),
            rules_text(*a).c_str());
        if (!a->moves.empty())
            std::printf("moves (WXF, Chinese, UCI; best first, * keeps the best result):\n");
        for (const XMove& x : a->moves) {
            // The Chinese notation is four characters of two columns each.
            std::printf("  %c %-6s %s  %-6s %s\n", x.keeps(a->moves.front()) ? '*' : ' ',
                wxf(pos, x.move).c_str(), chinese(pos, x.move).c_str(),
                xq::move_to_uci(x.move).c_str(),
                xiangqi_sentence(stm, x.value, x.result, Lang::En, a->rules,
                    x.rule_plies < 0 ? -1 : x.rule_plies + 1)
                    .c_str());
        }
        if (with_line) {
            const XRuleLine ruleLine = a->by_rule() ? xiangqi_rule_line(tables, pos)
                                                    : XRuleLine { xiangqi_line(tables, pos) };
            const std::vector<xq::Move>& line = ruleLine.moves;
            if (line.empty())
                std::printf(a->by_rule() ? "line: none (no forced mate: the rule decides)\n"
                                         : "line: none (no forced mate)\n");
            else {
                std::string wxfs, chineses, ucis;
                xq::Position p = pos;
                for (xq::Move mv : line) {
                    wxfs.append(" ").append(wxf(p, mv));
                    chineses.append(" ").append(chinese(p, mv));
                    ucis.append(" ").append(xq::move_to_uci(mv));
                    p.do_move(mv);
                }
                std::printf(
                    "line:%s\n     %s\n     %s\n", wxfs.c_str(), chineses.c_str(), ucis.c_str());
                if (ruleLine.repeats_from >= 0)
                    std::printf("%s\n",
                        repetition_note(
                            pos, ruleLine, a->result > 0 ? ~stm : stm, a->rules, Lang::En)
                            .c_str());
            }
        }
        return kExitOk;
    } catch (const TableError& e) {
        return fail(json, kExitFailure, e.what());
    }
}

} // namespace mktb::cli

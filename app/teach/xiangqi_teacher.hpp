// xiangqi_teacher.hpp - the Xiangqi teacher of `mktb teach --game xiangqi` (xiangqi_teach.cpp
// writes its files): one scan of each ending's table gathers its figures and candidates, and the
// answers of the tables keep the positions of each theme by its stated rule (the themes are listed
// at the top of xiangqi_teach.cpp), each claim and task in English and Thai.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "notation.hpp"
#include "progress.hpp"
#include "teach/teacher.hpp" // Sample
#include "xiangqi_answer.hpp"

// In a namespace of its own: its names (Position for Xiangqi's, RED) stay out of the app's.
namespace mktb::cli::xteach {

using xq::Position, xq::RED;

inline const char* side_name(Color c) { return c == RED ? "Red" : "Black"; }
inline std::string side_th(Color c) { return c == RED ? "แดง" : "ดำ"; }

struct XItem {
    std::string id;
    Position pos;
    std::vector<xq::Move> best; // the moves that keep the result the theme is about
    std::vector<xq::Move> line; // the main line to mate; empty where there is none
    Said claim, task; // the theme's property in words; the worksheet's question
    Json facts; // the claim as data
    int difficulty = 0;
};
struct XTheme {
    std::string key;
    Said title, rule;
    std::vector<XItem> items;
};
struct XFigures {
    std::uint64_t legal = 0, wins = 0, draws = 0, losses = 0, ruleWins = 0, ruleLosses = 0;
    int longest = -1; // moves
};

// The men in words: "a chariot", "two advisors" (Thai: "รถ", "ที่ปรึกษาสองตัว").
inline std::string men_words(const xq::Material& m, Color c, Lang lang) {
    static const char* const kNames[]
        = { "", "king", "advisor", "elephant", "horse", "chariot", "cannon", "soldier" };
    static const char* const kThai[] = { "", "ขุน", "ที่ปรึกษา", "ช้าง", "ม้า", "รถ", "ปืนใหญ่", "ทหาร" };
    const bool th = lang == Lang::Th;
    std::vector<std::string> parts;
    for (xq::PieceType pt :
        { xq::CHARIOT, xq::HORSE, xq::CANNON, xq::SOLDIER, xq::ADVISOR, xq::ELEPHANT }) {
        const int n = m.count[c][pt];
        if (n == 1)
            parts.push_back(th
                    ? std::string(kThai[pt])
                    : std::string(kNames[pt][0] == 'a' || kNames[pt][0] == 'e' ? "an " : "a ")
                        + kNames[pt]);
        if (n > 1)
            parts.push_back(th
                    ? std::string(kThai[pt]) + (n == 2 ? "สองตัว" : " " + std::to_string(n) + " ตัว")
                    : (n == 2 ? "two " : std::to_string(n) + " ") + kNames[pt] + "s");
    }
    if (parts.empty()) return th ? "ขุนตัวเดียว" : "the king alone";
    std::string out;
    for (std::size_t i = 0; i < parts.size(); ++i)
        out += (i == 0                         ? ""
                       : i + 1 == parts.size() ? (th ? " และ" : " and ")
                                               : (th ? " " : ", "))
            + parts[i];
    return out;
}

inline std::string title_of(const xq::Material& m, Lang lang) {
    std::string t = men_words(m, RED, lang) + (lang == Lang::Th ? " ต่อ " : " against ")
        + men_words(m, BLACK, lang);
    t[0] = char(std::toupper(static_cast<unsigned char>(t[0])));
    return t;
}

// The board and side to move of a FEN: what "the same position" means for the themes.
inline std::string board_key(const Position& p) {
    const std::string fen = p.fen();
    return fen.substr(0, fen.find(' ') + 2);
}

class XiangqiTeacher {
public:
    XiangqiTeacher(const Prober& tables, int perTheme)
        : tables_(tables)
        , perTheme_(perTheme) { }

    void study(const xq::Material& m) {
        material_ = m;
        figures_ = {};
        themes_.clear();
        scan();
        build_themes();
    }
    const xq::Material& material() const { return material_; }
    const std::array<XFigures, COLOR_NB>& figures() const { return figures_; }
    const std::vector<XTheme>& themes() const { return themes_; }
    // Both sides armed; and, under the rules check or asian, the rule decides endless lines.
    bool armed() const { return !material_.armless(RED) && !material_.armless(BLACK); }
    bool rule_table() const {
        return armed() && tables_.options().xiangqi_rules != xq::RuleSet::None;
    }
    bool asian() const { return armed() && tables_.options().xiangqi_rules == xq::RuleSet::Asian; }

private:
    struct Candidate {
        Position pos;
        int moves = 0; // the mate's moves, where it is one
    };

    void scan() {
        const xq::Index index(material_);
        std::mt19937_64 rng(material_.key());
        longest_ = { Sample<Candidate>(64), Sample<Candidate>(64) };
        wins_ = Sample<Candidate>(2000);
        draws_ = Sample<Candidate>(2000);
        zugzwang_ = Sample<Candidate>(200);
        oldSoldier_ = Sample<Candidate>(400);
        rule_ = Sample<Candidate>(200);
        Progress progress; // on a terminal only
        progress.phase(material_.name() + ": scan", index.size());
        xq::Placement p;
        for (std::uint64_t slot = 0; slot < index.size(); ++slot) {
            if ((slot & 0xFFFF) == 0xFFFF) progress.advance(0x10000);
            if (!index.decode(slot, p)) continue;
            int result[COLOR_NB] = {};
            bool legal[COLOR_NB] = {};
            for (Color c : { RED, BLACK }) {
                const Position pos = index.position(p, c);
                if (!pos.validity_error().empty()) continue;
                const std::optional<Value> v = tables_.dtm(pos);
                const std::optional<Wdl> w = tables_.rule_wdl(pos);
                if (!v || !w) continue;
                const int r = int(*w);
                legal[c] = true;
                result[c] = r;
                XFigures& f = figures_[c];
                ++f.legal;
                (v->is_win() ? f.wins : v->is_draw() ? f.draws : f.losses)++;
                if (v->is_draw() && r) (r > 0 ? f.ruleWins : f.ruleLosses)++;
                const int moves = v->mate_in_moves();
                if (v->is_win()) {
                    if (moves > f.longest) {
                        f.longest = moves;
                        longest_[c] = Sample<Candidate>(64);
                    }
                    if (moves == f.longest) longest_[c].offer({ pos, moves }, rng);
                    if (moves >= 5) wins_.offer({ pos, moves }, rng);
                } else if (v->is_draw()) {
                    if (r == 0)
                        draws_.offer({ pos, 0 }, rng);
                    else
                        rule_.offer({ pos, 0 }, rng);
                    if (r == 0 && old_soldier(pos)) oldSoldier_.offer({ pos, 0 }, rng);
                }
            }
            // Mutual zugzwang: the side to move does worse than if the other side had to move.
            if (legal[RED] && legal[BLACK] && result[RED] < -result[BLACK])
                zugzwang_.offer({ index.position(p, RED), 0 }, rng);
        }
        progress.finish();
    }

    // The point one rank back of a soldier of the side to move on its last rank (that soldier's
    // point in *from), where that point is empty; -1 where there is none.
    static int lowered_point(const Position& pos, int* from) {
        const Color c = pos.side_to_move();
        for (int pt = 0; pt < xq::POINT_NB; ++pt)
            if (pos.piece_on(pt) == xq::make_piece(c, xq::SOLDIER)
                && xq::relative_rank(c, pt) == xq::RANK_NB - 1) {
                const int back = pt + (c == RED ? -xq::FILE_NB : xq::FILE_NB);
                if (pos.empty(back)) {
                    *from = pt;
                    return back;
                }
            }
        return -1;
    }
    static bool old_soldier(const Position& pos) {
        int from;
        return lowered_point(pos, &from) >= 0;
    }

    // The answer's moves that keep its first move's result and value.
    static std::vector<xq::Move> best_moves(const XAnswer& a) {
        std::vector<xq::Move> out;
        for (const XMove& x : a.moves)
            if (x.keeps(a.moves.front())) out.push_back(x.move);
        return out;
    }

    XItem make_item(const Position& pos, const XAnswer& a, Said claim, Said task) {
        XItem item;
        item.pos = pos;
        item.best = best_moves(a);
        if (a.value.is_win() || a.value.is_loss()) item.line = xiangqi_line(tables_, pos);
        if (a.by_rule()) item.line = xiangqi_rule_line(tables_, pos).moves;
        item.claim = std::move(claim);
        item.task = std::move(task);
        item.facts = { { "fen", pos.fen() },
            { "category",
                a.value.is_win()        ? "win"
                    : a.value.is_loss() ? "loss"
                                        : "draw" },
            { "mate_in", a.value.mate_in_moves() } };
        return item;
    }

    // Keeps `item` unless the theme is full, the position is kept already or lies on the line
    // of a kept one (and the other way round): two positions never share a solution.
    bool add(XTheme& theme, XItem item) {
        if (int(theme.items.size()) >= perTheme_) return false;
        const std::string key = board_key(item.pos);
        if (kept_.count(key) || onLines_.count(key)) return false;
        std::vector<std::string> line;
        Position p = item.pos;
        for (xq::Move m : item.line) {
            p.do_move(m);
            line.push_back(board_key(p));
            if (kept_.count(line.back())) return false;
        }
        // Nor one whose line joins another's after its first move or two (the rest of the
        // solution shared), nor one that starts with the same move as another of the theme.
        for (std::size_t i = 0; i < std::min<std::size_t>(line.size(), 2); ++i)
            if (onLines_.count(line[i])) return false;
        for (const XItem& other : theme.items)
            if (!item.line.empty() && !other.line.empty() && other.line[0] == item.line[0])
                return false;
        kept_.insert(key);
        onLines_.insert(line.begin(), line.end());
        item.id = material_.name() + "." + theme.key + "." + std::to_string(theme.items.size() + 1);
        theme.items.push_back(std::move(item));
        return true;
    }

    void add_hardest_first(XTheme& theme, std::vector<XItem> items) {
        std::stable_sort(items.begin(), items.end(),
            [](const XItem& a, const XItem& b) { return a.difficulty > b.difficulty; });
        for (XItem& i : items) add(theme, std::move(i));
    }

    std::optional<XAnswer> answer(const Position& pos) const {
        return xiangqi_answer(tables_, pos);
    }

    void build_themes() {
        kept_.clear();
        onLines_.clear();
        // The longest mates.
        XTheme longest { "longest", { "The longest mates", "รุกจนยาวที่สุด" },
            { "The side to move mates, in the most moves this ending needs with that side to move "
              "(the loser defends as long as he can).",
                "ฝ่ายที่เดินรุกจนได้ ด้วยจำนวนตามากที่สุดที่เผด็จนี้ต้องใช้เมื่อฝ่ายนั้นเดิน "
                "(ฝ่ายแพ้ต้านให้นานที่สุด)" },
            {} };
        // Half the theme each where both sides to move have mates, else all for the one.
        const bool both = figures_[RED].longest > 0 && figures_[BLACK].longest > 0;
        for (Color c : { RED, BLACK })
            for (const Candidate& k : longest_[c].kept)
                if (const auto a = answer(k.pos); a && int(longest.items.size()) < perTheme_) {
                    const std::string n = std::to_string(k.moves);
                    XItem item = make_item(k.pos, *a,
                        { std::string(side_name(c)) + " mates in " + n
                                + ": the longest mate of this ending with " + side_name(c)
                                + " to move",
                            side_th(c) + "รุกจนใน " + n + " ตา: รุกจนยาวที่สุดของเผด็จนี้เมื่อ" + side_th(c)
                                + "เดิน" },
                        { std::string(side_name(c)) + " to move: mate in the fewest moves.",
                            side_th(c) + "เดิน: รุกจนให้เร็วที่สุด" });
                    item.facts["theme"] = "longest";
                    item.facts["longest"] = figures_[c].longest;
                    if (add(longest, std::move(item)) && c == RED && both
                        && int(longest.items.size()) >= (perTheme_ + 1) / 2)
                        break;
                }
        push(std::move(longest));

        // Only-move wins, and the cannon's screen, from the sample of wins.
        XTheme only { "only-move", { "Only moves", "ตาเดียวที่ชนะ" },
            { "The side to move wins, and exactly one move keeps the win (a mate of at least "
              "five moves).",
                "ฝ่ายที่เดินชนะ และมีเพียงตาเดียวที่ยังชนะ (รุกจนอย่างน้อยห้าตา)" },
            {} };
        XTheme screen { "cannon-screen", { "The cannon's screen", "ปืนใหญ่ข้ามที่ปรึกษา" },
            { "The side to move mates, and the mate the tables' line ends in is given by a cannon "
              "over its own advisor as the screen.",
                "ฝ่ายที่เดินรุกจนได้ และการรุกจนท้ายแนวของตารางคือปืนใหญ่ที่ใช้ที่ปรึกษาฝ่ายตนเป็นฉาก" },
            {} };
        std::vector<XItem> onlyItems, screenItems;
        const bool cannonAndAdvisor
            = (material_.count[RED][xq::CANNON] && material_.count[RED][xq::ADVISOR])
            || (material_.count[BLACK][xq::CANNON] && material_.count[BLACK][xq::ADVISOR]);
        int screenTries = 0;
        for (const Candidate& k : wins_.kept) {
            const auto a = answer(k.pos);
            if (!a) continue;
            const Color c = k.pos.side_to_move();
            const auto keeping = std::count_if(
                a->moves.begin(), a->moves.end(), [](const XMove& x) { return x.result > 0; });
            if (keeping == 1) {
                const std::string move = wxf(k.pos, a->moves.front().move),
                                  n = std::to_string(k.moves);
                XItem item = make_item(k.pos, *a,
                    { "only " + move + " keeps the win: " + side_name(c) + " mates in " + n,
                        "มีเพียง " + move + " ที่ยังชนะ: " + side_th(c) + "รุกจนใน " + n + " ตา" },
                    { std::string(side_name(c)) + " to move wins: find the only winning move.",
                        side_th(c) + "เดินชนะ: หาตาเดียวที่ชนะ" });
                item.difficulty = k.moves;
                item.facts["theme"] = "only-move";
                onlyItems.push_back(std::move(item));
            }
            if (cannonAndAdvisor && screenTries < 300 && k.pos.count(c, xq::CANNON)
                && k.pos.count(c, xq::ADVISOR)) {
                ++screenTries;
                XItem item = make_item(k.pos, *a, {}, {});
                if (const auto mate = screened_mate(k.pos, item.line)) {
                    const std::string n = std::to_string(k.moves),
                                      cannon = xq::point_name(mate->first),
                                      advisor = xq::point_name(mate->second);
                    item.claim = { std::string(side_name(c)) + " mates in " + n + ", the cannon on "
                            + cannon + " mating over its own advisor on " + advisor,
                        side_th(c) + "รุกจนใน " + n + " ตา ด้วยปืนใหญ่ที่ " + cannon + " ข้ามที่ปรึกษาฝ่ายตนที่ "
                            + advisor };
                    item.task = { std::string(side_name(c))
                            + " to move: mate in the fewest moves, with the cannon's help.",
                        side_th(c) + "เดิน: รุกจนให้เร็วที่สุด ด้วยปืนใหญ่" };
                    item.difficulty = k.moves;
                    item.facts["theme"] = "cannon-screen";
                    item.facts["cannon"] = xq::point_name(mate->first);
                    item.facts["screen"] = xq::point_name(mate->second);
                    screenItems.push_back(std::move(item));
                }
            }
        }
        add_hardest_first(only, std::move(onlyItems));
        push(std::move(only));
        add_hardest_first(screen, std::move(screenItems));
        push(std::move(screen));

        // Defence: the one move that holds.
        XTheme defence { "defence", { "Hold the draw", "ยื้อให้เสมอ" },
            { "The position is drawn, exactly one move keeps the draw, and every other move "
              "loses.",
                "ตำแหน่งเสมอ มีเพียงตาเดียวที่ยังเสมอ ตาอื่นแพ้ทั้งหมด" },
            {} };
        std::vector<XItem> defenceItems;
        for (const Candidate& k : draws_.kept) {
            const auto a = answer(k.pos);
            if (!a || a->moves.size() < 2) continue;
            const auto holding = std::count_if(
                a->moves.begin(), a->moves.end(), [](const XMove& x) { return x.result >= 0; });
            if (holding != 1) continue;
            const Color c = k.pos.side_to_move();
            const std::string move = wxf(k.pos, a->moves.front().move);
            XItem item = make_item(k.pos, *a,
                { "only " + move + " draws; every other move loses",
                    "มีเพียง " + move + " ที่เสมอ ตาอื่นแพ้ทั้งหมด" },
                { std::string(side_name(c)) + " to move: find the only move that draws.",
                    side_th(c) + "เดิน: หาตาเดียวที่เสมอ" });
            item.difficulty = int(a->moves.size());
            item.facts["theme"] = "defence";
            defenceItems.push_back(std::move(item));
        }
        add_hardest_first(defence, std::move(defenceItems));
        push(std::move(defence));

        // Mutual zugzwang.
        XTheme zugzwang { "zugzwang", { "Mutual zugzwang", "บังคับเดินทั้งสองฝ่าย" },
            { "Whoever is to move does worse than if the other side had to move.",
                "ฝ่ายใดต้องเดินก็ได้ผลแย่กว่าเมื่ออีกฝ่ายต้องเดิน" },
            {} };
        std::vector<XItem> zItems;
        for (const Candidate& k : zugzwang_.kept) {
            Position other = k.pos;
            other.set_side_to_move(BLACK);
            const auto red = answer(k.pos), black = answer(other);
            if (!red || !black) continue;
            auto words = [](Color c, int r) {
                return std::string(side_name(c))
                    + (r < 0        ? " to move loses"
                            : r > 0 ? " to move wins"
                                    : " to move draws");
            };
            auto thai = [](Color c, int r) {
                return side_th(c) + (r < 0 ? "เดินแพ้" : r > 0 ? "เดินชนะ" : "เดินเสมอ");
            };
            XItem item = make_item(k.pos, *red,
                { "mutual zugzwang: " + words(RED, red->result) + ", "
                        + words(BLACK, black->result),
                    "บังคับเดินทั้งสองฝ่าย: " + thai(RED, red->result) + ", "
                        + thai(BLACK, black->result) },
                { "Who wins with Red to move, and with Black to move?",
                    "ใครชนะเมื่อแดงเดิน และเมื่อดำเดิน?" });
            item.difficulty = (red->result < 0) + (black->result < 0);
            item.facts["theme"] = "zugzwang";
            item.facts["red_result"] = red->result;
            item.facts["black_result"] = black->result;
            zItems.push_back(std::move(item));
        }
        add_hardest_first(zugzwang, std::move(zItems));
        push(std::move(zugzwang));

        // The old soldier's draw.
        XTheme soldier { "old-soldier", { "The old soldier", "ทหารแก่" },
            { "Drawn with a soldier on the last rank, and won with the same soldier one rank "
              "lower: a soldier never steps back, so on the last rank it can no longer help to "
              "mate.",
                "เสมอเมื่อทหารอยู่แถวสุดท้าย แต่ชนะถ้าทหารตัวเดียวกันอยู่ต่ำลงหนึ่งแถว: "
                "ทหารถอยไม่ได้ เมื่อถึงแถวสุดท้ายจึงช่วยรุกจนไม่ได้อีก" },
            {} };
        std::vector<XItem> sItems;
        for (const Candidate& k : oldSoldier_.kept) {
            int from = -1;
            const int to = lowered_point(k.pos, &from);
            if (to < 0) continue;
            Position lower = k.pos;
            lower.move_piece(from, to);
            if (!lower.validity_error().empty()) continue;
            const std::optional<Wdl> r = tables_.rule_wdl(lower);
            const std::optional<Value> v = tables_.dtm(lower);
            const auto a = answer(k.pos);
            if (!a || r != Wdl::Win || !v || !v->is_win()) continue;
            const Color c = k.pos.side_to_move();
            const std::string at = xq::point_name(from), lowered = xq::point_name(to),
                              n = std::to_string(v->mate_in_moves());
            XItem item = make_item(k.pos, *a,
                { "a draw: the soldier on " + at + " has reached the last rank; on " + lowered
                        + " instead " + side_name(c) + " would mate in " + n,
                    "เสมอ: ทหารที่ " + at + " ถึงแถวสุดท้ายแล้ว ถ้าอยู่ที่ " + lowered + " แทน " + side_th(c)
                        + "จะรุกจนใน " + n + " ตา" },
                { std::string(side_name(c)) + " to move: can he win? Why, or why not?",
                    side_th(c) + "เดิน: ชนะได้ไหม? เพราะอะไร?" });
            item.difficulty = v->mate_in_moves();
            item.facts["theme"] = "old-soldier";
            item.facts["lowered_fen"] = lower.fen();
            item.facts["lowered_mate_in"] = v->mate_in_moves();
            sItems.push_back(std::move(item));
        }
        add_hardest_first(soldier, std::move(sItems));
        push(std::move(soldier));

        // Decided by the perpetual-check rule (under asian, or the perpetual-chase rule).
        XTheme rule = asian()
            ? XTheme { "rule", { "Perpetual check and chase lose", "รุกหรือไล่ไม่หยุดแพ้" },
                  { "A draw without the rules, which the Asian rules decide: the defender could "
                    "hold only by checking, or chasing the same man, forever, and a side that "
                    "does loses.",
                      "เสมอถ้าไม่มีกติกา แต่กติกาเอเชียตัดสิน: ฝ่ายรับยื้อได้ด้วยการรุกหรือไล่ตัวเดิมไม่หยุดเท่านั้น "
                      "และฝ่ายที่ทำเช่นนั้นแพ้" },
                  {} }
            : XTheme { "rule", { "Perpetual check loses", "รุกไม่หยุดแพ้" },
                  { "A draw without the rule, which the perpetual-check rule decides: the "
                    "defender could hold only by checking forever, and a side that checks "
                    "forever loses.",
                      "เสมอถ้าไม่มีกติกา แต่กติการุกไม่หยุดตัดสิน: ฝ่ายรับยื้อได้ด้วยการรุกไม่หยุดเท่านั้น "
                      "และฝ่ายที่รุกไม่หยุดแพ้" },
                  {} };
        for (const Candidate& k : rule_.kept) {
            const auto a = answer(k.pos);
            if (!a || !a->by_rule()) continue;
            const Color c = k.pos.side_to_move();
            XItem item = make_item(k.pos, *a,
                { xiangqi_sentence(c, a->value, a->result, Lang::En, a->rules, a->rule_plies),
                    xiangqi_sentence(c, a->value, a->result, Lang::Th, a->rules, a->rule_plies) },
                { std::string(side_name(c)) + " to move: win, draw or loss, and why?",
                    side_th(c) + "เดิน: ชนะ เสมอ หรือแพ้ เพราะอะไร?" });
            item.facts["theme"] = "rule";
            item.facts["rule_result"] = a->result;
            add(rule, std::move(item));
        }
        push(std::move(rule));
    }

    // The cannon and its screen where the line ends in a cannon's mate over its own advisor.
    static std::optional<std::pair<int, int>> screened_mate(
        Position pos, const std::vector<xq::Move>& line) {
        if (line.empty()) return std::nullopt;
        for (xq::Move m : line) pos.do_move(m);
        const Color mated = pos.side_to_move(), winner = ~mated;
        if (xq::has_legal_move(pos) || !pos.in_check()) return std::nullopt;
        const int k = pos.king_point(mated);
        for (int c = 0; c < xq::POINT_NB; ++c) {
            if (pos.piece_on(c) != xq::make_piece(winner, xq::CANNON) || !xq::aligned(c, k))
                continue;
            const xq::Points between = xq::between(c, k) & pos.occupied();
            if (std::popcount(std::uint64_t(between)) + std::popcount(std::uint64_t(between >> 64))
                != 1)
                continue;
            for (int s = 0; s < xq::POINT_NB; ++s)
                if ((between & xq::point_bit(s))
                    && pos.piece_on(s) == xq::make_piece(winner, xq::ADVISOR))
                    return std::pair(c, s);
        }
        return std::nullopt;
    }

    void push(XTheme theme) {
        if (!theme.items.empty()) themes_.push_back(std::move(theme));
    }

    const Prober& tables_;
    int perTheme_;
    xq::Material material_;
    std::array<XFigures, COLOR_NB> figures_ {};
    std::vector<XTheme> themes_;
    std::array<Sample<Candidate>, COLOR_NB> longest_ { Sample<Candidate>(64),
        Sample<Candidate>(64) };
    Sample<Candidate> wins_ { 2000 }, draws_ { 2000 }, zugzwang_ { 200 }, oldSoldier_ { 400 },
        rule_ { 200 };
    std::set<std::string> kept_, onLines_;
};

} // namespace mktb::cli::xteach

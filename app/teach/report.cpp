// report.cpp - the teaching report's files (see report.hpp): pages, worksheets, answer keys,
// EPD, PGN, diagrams, claims, the overview and the regulation page.
#include "teach/report.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "diagram.hpp"
#include "generator.hpp"
#include "mktb/index.hpp"
#include "teach/html.hpp"

namespace mktb::cli {

namespace fs = std::filesystem;

namespace {

// A caption's first letter as a capital ("only Rd1 keeps..." -> "Only Rd1 keeps...").
std::string capitalized(std::string text) {
    if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = char(text[0] - 'a' + 'A');
    return text;
}

// The men with their Thai names and the letters diagrams and FENs use (diagrams/men/*.svg).
std::string men_legend(Lang lang) {
    static const std::pair<char, Said> kMen[]
        = { { 'K', { "Khun (K): the king", "ขุน (K): เดินหนึ่งก้าวทุกทิศ" } },
              { 'M', { "Met (M): one step diagonally", "เม็ด (M): เดินทแยงหนึ่งก้าว" } },
              { 'S',
                  { "Khon (S): one step diagonally or straight ahead",
                      "โคน (S): เดินทแยงหนึ่งก้าว หรือตรงไปข้างหน้าหนึ่งก้าว" } },
              { 'N', { "Ma (N): the knight", "ม้า (N): เดินแบบม้า" } },
              { 'R', { "Ruea (R): the rook", "เรือ (R): เดินตรงไกลเท่าใดก็ได้" } },
              { 'P',
                  { "Bia (P): the pawn, promotes to a Met on the sixth rank",
                      "เบี้ย (P): เดินหน้าหนึ่งก้าว ถึงแถวที่หกหงายเป็นเม็ด (เบี้ยหงาย)" } } };
    std::string html = lang == Lang::Th
        ? "<div class=\"legend\"><b>หมาก</b> (ขาวสีอ่อน ดำสีเข้ม):<ul>"
        : "<div class=\"legend\"><b>The men</b> (White's light, Black's dark):<ul>";
    for (const auto& [letter, said] : kMen) {
        const std::string& words = said.in(lang);
        html += std::string("<li><img src=\"diagrams/men/") + letter
            + ".svg\" alt=\"\" "
              "width=\"24\" height=\"24\"><img src=\"diagrams/men/"
            + char(letter - 'A' + 'a') + ".svg\" alt=\"\" width=\"24\" height=\"24\"> " + words
            + "</li>";
    }
    return html + "</ul></div>\n";
}

// Mate distances, pure against counted, as a bar chart (one pair of bars per distance).
std::string histogram_svg(const SideFigures& f, const std::string& title, Lang lang) {
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
        << w - 226 << "' y='31' font-size='11'>" << (lang == Lang::Th ? "ไม่นับ" : "without counting")
        << "</text><rect x='" << w - 125
        << "' y='22' width='10' height='10' fill='#d9a441'/><text x='" << w - 111
        << "' y='31' font-size='11'>" << (lang == Lang::Th ? "ภายในการนับ" : "within the count")
        << "</text>";
    for (int k = 1; k <= longest; ++k) {
        const auto bar = [&](const std::map<int, std::uint64_t>& m, int dx, const char* colour) {
            const auto it = m.find(k);
            if (it == m.end()) return;
            const int height = std::max(1, int(130.0 * double(it->second) / double(most)));
            svg << "<rect x='" << 40 + (k - 1) * 12 + dx << "' y='" << 170 - height
                << "' width='5' height='" << height << "' fill='" << colour << "'><title>" << k
                << (lang == Lang::Th ? " ตา: " : " moves: ") << number(it->second)
                << "</title></rect>";
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
.lang { float: right; margin: 0; font-size: 0.9rem; }
.name-line span { display: inline-block; border-bottom: 1px solid #555; width: 14rem; margin: 0 1.5rem 0 0.4rem; }
.name-line span + span { width: 8rem; }
.answer { margin-top: 0.4rem; height: 4.5em; font-size: 0.85rem; color: #555;
  background: repeating-linear-gradient(transparent 0 1.45em, #bbb 1.45em calc(1.45em + 1px)); }
table.regulation { width: 100%; }
table.regulation td { white-space: normal; }
table.regulation code { word-break: break-all; }
@media print {
  @page { size: A4; margin: 15mm; }
  body { margin: 0; max-width: none; font-size: 11pt; }
  nav, summary, .lang { display: none; }
  .themes section + section { break-before: page; } /* the first shares the heading's page */
  figure { break-inside: avoid; }
  .positions { grid-template-columns: 1fr 1fr; gap: 0.6rem 1.2rem; }
  .positions figure img { max-width: 6.2cm; }
  .answer { height: 3em; }
}
)CSS";

// The head of a page of `base` in `lang`, with the switch to the other language: the English
// page turns to the Thai one where the browser's language is Thai (or Thai was chosen), and the
// switch remembers the choice.
std::string page_head(const std::string& title, const std::string& base, Lang lang) {
    const std::string en = page_file(base, Lang::En), th = page_file(base, Lang::Th);
    const std::string choose = lang == Lang::Th
        ? "if(localStorage.getItem('mktb-lang')==='en')location.replace('" + en + "');"
        : "var c=localStorage.getItem('mktb-lang');if(c==='th'||(!c&&(navigator.languages||["
          "navigator.language]).some(function(l){return/^th\\b/i.test(l)})))location.replace('"
            + th + "');";
    return "<!doctype html>\n<html lang=\"" + std::string(lang == Lang::Th ? "th" : "en")
        + "\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" "
          "content=\"width=device-width, initial-scale=1\">\n<title>"
        + escape(title)
        + "</title>\n<link rel=\"icon\" href=\"data:,\">\n<link rel=\"stylesheet\" "
          "href=\"report.css\">\n<script>try{"
        + choose + "}catch(e){}</script>\n</head>\n<body>\n<p class=\"lang\"><a href=\"" + en
        + "\" hreflang=\"en\" lang=\"en\" "
          "onclick=\"localStorage.setItem('mktb-lang','en')\">English</a> "
          "&middot; <a href=\""
        + th
        + "\" hreflang=\"th\" lang=\"th\" "
          "onclick=\"localStorage.setItem('mktb-lang','th')\">ภาษาไทย</a></p>\n";
}

// The main line as text: moves with numbers, the count after each of the counter's moves,
// "(only move)" marks.
struct LineText {
    std::string html, pgn;
    // A pure line that runs past the count's end: the PGN game ends there (a draw) and the rest
    // of the mate is a comment.
    bool countEnded = false;
};

LineText line_text(const Prober& prober, const Item& item, const CountRules& rules, Lang lang) {
    const bool th = lang == Lang::Th;
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
        if (out.countEnded) // the game is over: the rest of the pure mate, in the comment
            out.pgn += (stm == WHITE || i == 0 ? prefix : "") + move + " ";
        else
            out.pgn += prefix + move + (only ? " $8" : "") + " ";
        if (!out.countEnded && count_has_ended(count) && !is_checkmate(next)) {
            // The count ends the game here: a draw, whatever the pure line goes on to show.
            out.countEnded = true;
            out.html += th ? "(นับครบแล้ว: เสมอด้วยการนับ ถ้าไม่นับการรุกจนจะดำเนินต่อ) "
                           : "(the count has run out: a draw under the count; without it the mate "
                             "would go on) ";
            openComment = i + 1 < item.line.size();
            if (openComment)
                out.pgn += "{the count has run out: the game is drawn here; without the count "
                           "the mate would go on: ";
            else
                out.pgn += "{the count has run out: the game is drawn here} ";
        } else if (announces_count(next, stm, count) && !out.countEnded) {
            const std::string c = "count " + std::to_string((count.ply + 1) / 2) + " of "
                + std::to_string(count.limit / 2);
            out.html += th ? "(นับ " + std::to_string((count.ply + 1) / 2) + " จาก "
                    + std::to_string(count.limit / 2) + ") "
                           : "(" + c + ") ";
            out.pgn += "{" + c + "} ";
        }
        if (stm == BLACK) ++number;
        pos = next;
    }
    if (openComment) out.pgn.back() = '}', out.pgn += ' '; // the rest of the mate, closed
    return out;
}

// The files of one ending as they are written: the three pages in each language, the rest once.
struct EndingFiles {
    std::ostringstream html[2], worksheet[2], key[2], epd, pgn;
    Json claims = Json::array();
};
constexpr Lang kLangs[] = { Lang::En, Lang::Th };

// The pages' heads: the ending's page with its figures, the worksheet's and the answer key's.
void write_heads(EndingFiles& f, const Teacher& t, Lang lang) {
    const bool th = lang == Lang::Th;
    const int l = int(lang);
    const std::string name = t.material().name();
    const std::string self = page_file(name, lang), sheet = page_file(name + ".worksheet", lang),
                      answers = page_file(name + ".answers", lang),
                      rules = escape(rules_words(t.rules(), lang));
    // For print: the worksheet (diagrams and tasks, no solution) and its answer key apart.
    f.worksheet[l] << page_head(
        "mktb: " + name + (th ? " แบบฝึกหัด" : " worksheet"), name + ".worksheet", lang)
                   << "<nav><a href=\"" << self << "\">" << name << "</a></nav>\n<h1>" << name
                   << (th ? ": แบบฝึกหัด</h1>\n<p>กติกาการนับ: "
                          : ": worksheet</h1>\n<p>Counting rules: ")
                   << rules << (th ? " คำตอบ: <a href=\"" : ". The answers: <a href=\"") << answers
                   << "\">" << (th ? "เฉลย" : "answer key") << "</a>.</p>\n"
                   << name_line(lang) << men_legend(lang) << "<div class=\"themes\">\n";
    f.key[l] << page_head("mktb: " + name + (th ? " เฉลย" : " answer key"), name + ".answers", lang)
             << "<nav><a href=\"" << self << "\">" << name << "</a></nav>\n<h1>" << name
             << (th ? ": เฉลย</h1>\n<p>สำหรับ<a href=\""
                    : ": answer key</h1>\n<p>For the <a href=\"")
             << sheet << "\">"
             << (th ? "แบบฝึกหัด</a> ระยะนับเป็นตา" : "worksheet</a>; distances in moves")
             << ".</p>\n<div class=\"key\">\n";
    f.html[l] << page_head("mktb: " + name, name, lang) << "<nav><a href=\""
              << page_file("index", lang) << "\">" << (th ? "เผด็จทั้งหมด" : "All endings") << "</a>"
              << " &middot; <a href=\"" << name << ".epd\">EPD</a> &middot; <a href=\"" << name
              << ".pgn\">PGN</a> &middot; " << (th ? "พิมพ์" : "print") << ": <a href=\"" << sheet
              << "\">" << (th ? "แบบฝึกหัด" : "worksheet") << "</a>, <a href=\"" << answers << "\">"
              << (th ? "เฉลย" : "answer key") << "</a></nav>\n<h1>" << name << "</h1>\n<p>"
              << (th ? "กติกาการนับ: " : "Counting rules: ") << rules << ".</p>\n<h2>"
              << (th ? "เผด็จนี้มีอะไร" : "What the ending holds") << "</h2>\n<table>\n"
              << (th ? "<tr><th>ฝ่ายที่เดิน</th><th>ตำแหน่ง</th><th>ชนะ</th><th>เสมอ</th><th>แพ้</th>"
                       "<th>ชนะภายในการนับใหม่</th><th>แพ้ภายในการนับใหม่</th><th>รุกจนยาวที่สุด</th></tr>\n"
                     : "<tr><th>Side to move</th><th>Positions</th><th>Wins</th><th>Draws</th>"
                       "<th>Losses</th><th>Wins within a fresh count</th><th>Losses within a fresh "
                       "count</th><th>Longest mate</th></tr>\n");
    for (Color c : { WHITE, BLACK }) {
        const SideFigures& s = t.figures()[c];
        f.html[l] << "<tr><td>" << color_name(c, lang) << "</td><td>" << number(s.legal)
                  << "</td><td>" << percent(s.wins, s.legal) << "</td><td>"
                  << percent(s.draws, s.legal) << "</td><td>" << percent(s.losses, s.legal)
                  << "</td><td>" << percent(s.countedWins, s.legal) << "</td><td>"
                  << percent(s.countedLosses, s.legal) << "</td><td>"
                  << (s.longest > 0 ? std::to_string(s.longest) + (th ? " ตา" : " moves") : "-")
                  << "</td></tr>\n";
    }
    f.html[l] << (th ? "</table>\n<p>ตำแหน่งนับเป็นกระดานที่ต่างกัน; \"การนับใหม่\": การนับที่ตำแหน่งนั้นเริ่ม "
                       "(นับศักดิ์หมาก: เริ่มจากจำนวนหมากบนกระดาน; นับศักดิ์กระดาน: 64 ตา; "
                       "มีเบี้ย: การนับที่เริ่มเมื่อเบี้ยหมด)</p>\n"
                     : "</table>\n<p>Positions are distinct boards; \"fresh count\": the count the "
                       "position starts (pieces' honour: the men on the board counted; board's "
                       "honour: 64 moves; with a Bia: the count its conversion starts).</p>\n");
    for (Color c : { WHITE, BLACK })
        if (t.figures()[c].wins)
            f.html[l] << histogram_svg(t.figures()[c],
                th ? color_name(c, lang) + "เดิน: ตำแหน่งที่ชนะใน N ตา"
                   : std::string(kColorName[c]) + " to move: positions won in N moves",
                lang) << "\n";
    f.html[l] << men_legend(lang) << "<div class=\"themes\">\n";
}

// The count a position starts, in words for a worksheet: "Pieces' honour: Black counts from 3
// to 16; White has 14 moves.", "Board's honour: the weaker side counts to 64 from 0; the
// stronger side has 65 moves.", "No count while a Bia is on the board."
std::string count_words(const Position& p, const CountRules& rules, Lang lang) {
    const bool th = lang == Lang::Th;
    const CountState count = p.count_state();
    const std::string from = std::to_string((count.ply + 1) / 2);
    switch (count_phase(p)) {
    case CountPhase::NoCount:
        return th ? "ยังไม่นับขณะมีเบี้ยบนกระดาน" : "No count while a Bia is on the board.";
    case CountPhase::BareKings:
        return th ? "เหลือขุนเปล่า" : "Bare kings.";
    case CountPhase::PiecesHonour: {
        const Color attacker = *pieces_honour_attacker(p);
        const std::string to = std::to_string(count.limit / 2),
                          left
            = std::to_string(attacker_moves_left(count, p.side_to_move() == attacker, rules));
        return th ? "นับศักดิ์หมาก: " + color_name(~attacker, lang) + "นับจาก " + from + " ถึง " + to
                + "; " + color_name(attacker, lang) + "มีเวลา " + left + " ตา"
                  : "Pieces' honour: " + color_name(~attacker, lang) + " counts from " + from
                + " to " + to + "; " + color_name(attacker, lang) + " has " + left + " moves.";
    }
    default: {
        if (rules.has(RuleOption::BoardHonourOff))
            return th ? "ไม่นับขณะที่ทั้งสองฝ่ายมีหมาก" : "No count while both sides have men.";
        const std::string left = std::to_string(attacker_moves_left(count, true, rules));
        return th
            ? "นับศักดิ์กระดาน: ฝ่ายที่อ่อนกว่านับถึง 64 จาก " + from + "; ฝ่ายที่แข็งกว่ามีเวลา " + left + " ตา"
            : "Board's honour: the weaker side counts to 64 from " + from
                + "; the stronger side has " + left + " moves.";
    }
    }
}

// One position of a theme (the `number`th) in every file: its diagrams, its figure on the page,
// the worksheet and the key in each language, its EPD line, its PGN game and its claim.
void write_item(EndingFiles& f, const Teacher& t, const Theme& theme, const Item& item,
    std::size_t number, const fs::path& dir) {
    const Prober& prober = t.prober();
    const std::string name = t.material().name();
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
    const std::optional<BaringPath> baring = baring_path(prober, p, p.count_state());
    auto joined = [&](const std::vector<Move>& moves) {
        std::string text;
        for (Move mv : moves) text.append(text.empty() ? "" : " ").append(san(p, mv));
        return text;
    };
    const std::string best = joined(item.best), avoid = joined(item.avoid);
    std::string verdictEn;
    for (Lang lang : kLangs) {
        const bool th = lang == Lang::Th;
        const int l = int(lang);
        const std::string verdictText
            = verdict(p, pure, counted, t.rules(), p.count_state(), baring, lang);
        if (!th) verdictEn = verdictText;
        const LineText line = line_text(prober, item, t.rules(), lang);
        const std::string toMove = th ? color_name(p.side_to_move(), lang) + "เดิน"
                                      : color_name(p.side_to_move(), lang) + " to move.";
        const std::string claim = th ? item.claim.th : capitalized(item.claim.en);
        const std::string bestWord = th ? "ดีที่สุด: " : "Best: ", notWord = th ? "ไม่ใช่: " : "Not: ";
        f.html[l] << "<figure id=\"" << item.id << "\"><img src=\"" << svgName << "\" alt=\""
                  << escape(fen) << "\" width=\"280\" height=\"270\"><figcaption><b>" << toMove
                  << "</b> " << escape(claim) << ". " << escape(count_words(p, t.rules(), lang))
                  << "<br>" << (th ? "ความยาก: " : "Difficulty: ") << escape(item.hardness.in(lang))
                  << ".<br><span class=\"line\">" << escape(fen) << "</span>"
                  << "<details><summary>" << (th ? "เฉลย" : "Solution") << "</summary>"
                  << (solutionSvg.empty() ? ""
                                          : "<img src=\"" + solutionSvg + "\" alt=\""
                                 + (th ? "เฉลย" : "the solution")
                                 + "\" width=\"280\" height=\"270\">")
                  << "<p>" << escape(verdictText) << ".</p>"
                  << (best.empty() ? "" : "<p>" + bestWord + escape(best) + "</p>")
                  << (avoid.empty() ? "" : "<p>" + notWord + escape(avoid) + "</p>")
                  << (line.html.empty() ? "" : "<p class=\"line\">" + escape(line.html) + "</p>")
                  << "</details></figcaption></figure>\n";
        f.worksheet[l] << "<figure><img src=\"" << svgName << "\" alt=\"" << escape(fen)
                       << "\" width=\"280\" height=\"270\"><figcaption><b>" << number << ".</b> "
                       << toMove << " " << escape(count_words(p, t.rules(), lang)) << "<br><i>"
                       << escape((item.task.empty() ? theme.task : item.task).in(lang))
                       << "</i><br><span class=\"line\">" << escape(fen)
                       << "</span></figcaption><div class=\"answer\">"
                       << (th ? "คำตอบ:" : "Answer:") << "</div></figure>\n";
        f.key[l] << "<li><b>" << escape(claim) << ".</b> " << escape(verdictText) << "."
                 << (best.empty() ? "" : " " + bestWord + escape(best) + ".")
                 << (avoid.empty() ? "" : " " + notWord + escape(avoid) + ".")
                 << (line.html.empty()
                            ? ""
                            : "<br><span class=\"line\">" + escape(line.html) + "</span>")
                 << "</li>\n";
    }
    const LineText line = line_text(prober, item, t.rules(), Lang::En);
    // EPD: the board, side, and castling/en passant fields (none in Makruk), then the
    // operations; c2 holds FEN fields 4-5 (Fairy-Stockfish's count).
    const std::string board = fen.substr(0, fen.find(' ', fen.find(' ') + 1));
    f.epd << board << " - -";
    if (!best.empty()) f.epd << " bm " << best << ";";
    if (!avoid.empty()) f.epd << " am " << avoid << ";";
    if (item.dm) f.epd << " dm " << *item.dm << ";";
    f.epd << " id \"" << item.id << "\"; c0 \"" << verdictEn << "\"; c1 \"" << item.claim.en
          << "\"; c2 \"" << p.count_state().limit << ' ' << p.count_state().ply << "\";\n";
    const bool mates = !item.line.empty();
    const std::string result = !mates                                ? "*"
        : line.countEnded                                            ? "1/2-1/2"
        : (item.line.size() % 2 == 1) == (p.side_to_move() == WHITE) ? "1-0"
                                                                     : "0-1";
    f.pgn << "[Event \"mktb " << name << ": " << theme.title.en << "\"]\n[Site \"?\"]\n[Round \""
          << item.id << "\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"" << result
          << "\"]\n[Variant \"makruk\"]\n[SetUp \"1\"]\n[FEN \"" << fen << "\"]\n\n{"
          << item.claim.en << ". " << verdictEn << ".} " << line.pgn << result << "\n\n";
    const Said& task = item.task.empty() ? theme.task : item.task; // the worksheet's question
    Json lineUci = Json::array(), bestUci = Json::array(), avoidUci = Json::array();
    for (Move mv : item.line) lineUci.push_back(move_to_uci(mv));
    for (Move mv : item.best) bestUci.push_back(move_to_uci(mv));
    for (Move mv : item.avoid) avoidUci.push_back(move_to_uci(mv));
    f.claims.push_back(
        { { "id", item.id }, { "theme", theme.key }, { "fen", fen }, { "best", bestUci },
            { "avoid", avoidUci }, { "dm", item.dm ? Json(*item.dm) : Json(nullptr) },
            { "facts", item.facts }, { "line", lineUci }, { "diagram", svgName },
            { "task", { { "en", task.en }, { "th", task.th } } },
            { "solution_diagram", solutionSvg.empty() ? Json(nullptr) : Json(solutionSvg) } });
}

} // namespace

// One ending's files: DIR/ENDING.html, .epd, .pgn, .json and DIR/diagrams/*.svg.
Json write_ending(const Teacher& t, const fs::path& dir) {
    const Material& m = t.material();
    const std::string name = m.name();
    EndingFiles f;
    // The men's pictures for the legends.
    fs::create_directories(dir / "diagrams" / "men");
    for (char letter : std::string("KMSNRPkmsnrp"))
        write_file(dir / "diagrams" / "men" / (std::string(1, letter) + ".svg"), man_svg(letter));
    for (Lang lang : kLangs) write_heads(f, t, lang);
    fs::create_directories(dir / "diagrams");
    for (const Theme& theme : t.themes()) {
        for (Lang lang : kLangs) {
            const int l = int(lang);
            const std::string title = escape(theme.title.in(lang));
            f.html[l] << "<section id=\"" << theme.key << "\">\n<h2>" << title << " ("
                      << theme.items.size() << ")</h2>\n<p class=\"rule\">"
                      << escape(theme.rule.in(lang)) << "</p>\n";
            if (theme.items.empty())
                f.html[l] << (lang == Lang::Th ? "<p>ไม่มีตำแหน่งในเผด็จนี้ที่เข้าเกณฑ์</p>\n"
                                               : "<p>No position of this ending fits.</p>\n");
            f.html[l] << "<div class=\"positions\">\n";
            if (!theme.items.empty()) {
                f.worksheet[l] << "<section id=\"" << theme.key << "\">\n<h2>" << title
                               << "</h2>\n<div class=\"positions\">\n";
                f.key[l] << "<section id=\"" << theme.key << "\">\n<h2>" << title
                         << "</h2>\n<ol>\n";
            }
        }
        for (std::size_t k = 0; k < theme.items.size(); ++k)
            write_item(f, t, theme, theme.items[k], k + 1, dir);
        for (Lang lang : kLangs) {
            const int l = int(lang);
            f.html[l] << "</div>\n</section>\n";
            if (!theme.items.empty()) {
                f.worksheet[l] << "</div>\n</section>\n";
                f.key[l] << "</ol>\n</section>\n";
            }
        }
    }
    for (Lang lang : kLangs) {
        const int l = int(lang);
        for (std::ostringstream* page : { &f.html[l], &f.worksheet[l], &f.key[l] })
            *page << "</div>\n</body>\n</html>\n";
        write_file(dir / page_file(name + ".worksheet", lang), f.worksheet[l].str());
        write_file(dir / page_file(name + ".answers", lang), f.key[l].str());
        write_file(dir / page_file(name, lang), f.html[l].str());
    }
    write_file(dir / (name + ".epd"), f.epd.str());
    write_file(dir / (name + ".pgn"), f.pgn.str());
    write_file(dir / (name + ".json"), f.claims.dump(1) + "\n");
    // The figures the overview shows.
    const SideFigures& w = t.figures()[WHITE];
    return { { "ending", name }, { "men", m.men() }, { "legal", w.legal }, { "wins", w.wins },
        { "draws", w.draws }, { "counted_wins", w.countedWins }, { "longest", w.longest },
        { "longest_counted", w.longestCounted } };
}

namespace {

// Docs/rules.md §7: who counts as the stronger side in one event, and its endings, each written
// with the regulation's stronger side first (White); a Bia read both ways, as a Bia and as a
// promoted one (a Met).
struct RegulationRow {
    const char* weaker;
    const char* stronger;
    std::vector<const char*> endings;
};
const std::vector<RegulationRow> kRegulation = {
    { "K + 1 Bia", "K + 3 promoted Bia", { "KMMMvKP", "KMMMvKM" } },
    { "K + 1 Bia", "K + (Khon or Ma) + 1 Bia", { "KSPvKP", "KNPvKP", "KSMvKM", "KNMvKM" } },
    { "K + 2 Bia", "K + Khon + Ma", { "KSNvKPP", "KSNvKMM" } },
    { "K + 3 Bia", "K + Ruea", { "KRvKPPP", "KRvKMMM" } },
    { "K + (Khon or Ma)", "K + (Khon or Ma) + 1 Bia",
        { "KSPvKS", "KSPvKN", "KNPvKS", "KNPvKN", "KSMvKS", "KSMvKN", "KNMvKS", "KNMvKN" } },
    { "K + Ruea", "K + Ruea + (Khon or Ma)", { "KRSvKR", "KRNvKR" } },
    { "K + Ruea", "K + 4 promoted Bia", { "KMMMMvKR" } },
    { "K + Ruea + 1 Bia", "K + (Khon or Ma) + 3 Bia",
        { "KSPPPvKRP", "KNPPPvKRP", "KSMMMvKRM", "KNMMMvKRM" } },
    { "K + (Khon or Ma)", "K + 2 Ruea", { "KRRvKS", "KRRvKN" } },
};

// The generation speed the tables of `tables` were made at: cells a second over those of a
// million cells or more (smaller ones measure the start-up), from their statistics; 0 if none.
double generation_rate(const std::string& tables) {
    double cells = 0, seconds = 0;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(tables, ec))
        if (entry.path().extension() == ".json") {
            std::ifstream in(entry.path());
            const Json j = Json::parse(in, nullptr, false);
            if (j.is_discarded() || !j.contains("index_size") || !j.contains("seconds")) continue;
            if (j["index_size"].get<double>() < 1e6) continue;
            cells += j["index_size"].get<double>(), seconds += j["seconds"].get<double>();
        }
    return seconds > 0 ? cells / seconds : 0;
}

std::string duration(double seconds, Lang lang) {
    const bool th = lang == Lang::Th;
    char text[64];
    if (seconds < 90)
        std::snprintf(text, sizeof text, th ? "ไม่ถึง 2 นาที" : "under 2 minutes");
    else if (seconds < 5400)
        std::snprintf(text, sizeof text, th ? "ราว %.0f นาที" : "about %.0f minutes", seconds / 60);
    else
        std::snprintf(
            text, sizeof text, th ? "ราว %.1f ชั่วโมง" : "about %.1f hours", seconds / 3600);
    return text;
}

// The endings `m` needs that `tables` lacks (itself and those it converts into, made first).
std::vector<Material> missing_for(const Material& m, const std::string& tables) {
    std::vector<Material> out;
    for (const Material& c : build_order({ m }))
        if (!fs::exists(fs::path(tables) / (c.name() + ".mktb"))) out.push_back(c);
    return out;
}

// What an ending no table answers would take, for its row: the command that makes it, its
// memory, and the time at `rate` (with the endings it converts into); beyond 6 men, that mktb
// makes none (its generation is untested there, and one such ending spans many machines).
std::string would_take(const Material& m, const std::string& tables, double rate, Lang lang) {
    const bool th = lang == Lang::Th;
    const MemoryEstimate e = estimate_memory(m);
    char text[400];
    if (m.men() > 6) {
        std::snprintf(text, sizeof text,
            th ? "หมาก %d ตัว: เกินกว่าที่ mktb สร้าง (ราว %.0f GB)"
               : "%d men: more than mktb makes (about %.0f GB)",
            m.men(), e.total() / 1e9);
        return text;
    }
    double cells = 0;
    for (const Material& c : missing_for(m, tables)) cells += double(Index(c).size());
    std::snprintf(text, sizeof text,
        th ? "<code>mktb gen %s</code>: หมาก %d ตัว, ราว %.1f GB"
           : "<code>mktb gen %s</code>: %d men, about %.1f GB",
        m.name().c_str(), m.men(), e.total() / 1e9);
    std::string out = text;
    if (rate > 0) out += (th ? ", " : ", ") + duration(cells / rate, lang);
    return out;
}

// A regulation's material in words: "K + 1 Bia" in Thai "ขุน + เบี้ย 1".
std::string men_words(const std::string& text, Lang lang) {
    if (lang == Lang::En) return text;
    static const std::pair<const char*, const char*> kWords[]
        = { { "promoted Bia", "เบี้ยหงาย" }, { "Khun", "ขุน" }, { "Bia", "เบี้ย" }, { "Khon", "โคน" },
              { "Ruea", "เรือ" }, { "Ma", "ม้า" }, { "K", "ขุน" }, { " or ", " หรือ " } };
    std::string out = text;
    for (const auto& [from, to] : kWords)
        for (std::size_t at = out.find(from); at != std::string::npos; at = out.find(from, at))
            out.replace(at, std::strlen(from), to), at += std::strlen(to);
    return out;
}

std::optional<Json> read_stats(const std::string& tables, const std::string& name) {
    std::ifstream in(fs::path(tables) / (name + ".json"));
    if (!in) return std::nullopt;
    Json j = Json::parse(in, nullptr, false);
    if (j.is_discarded()) return std::nullopt;
    return j;
}

} // namespace

void write_overview(const fs::path& dir, const std::string& tables,
    const std::set<std::string>& taught, const CountRules& rules) {
    std::vector<std::pair<int, std::string>> endings;
    for (const auto& entry : fs::directory_iterator(tables))
        if (entry.path().extension() == ".mktb") {
            const std::string name = entry.path().stem().string();
            if (const auto m = Material::parse(name)) endings.push_back({ m->men(), name });
        }
    std::sort(endings.begin(), endings.end());
    for (Lang lang : kLangs) {
        const bool th = lang == Lang::Th;
        std::ostringstream html;
        html << page_head(th ? "mktb: เผด็จหมากรุกไทย" : "mktb: Makruk endings", "index", lang)
             << "<nav><a href=\"" << page_file("regulation", lang) << "\">"
             << (th ? "ระเบียบการแข่งขัน" : "The tournament regulation") << "</a></nav>\n<h1>"
             << (th ? "เผด็จหมากรุกไทย" : "Makruk endings") << "</h1>\n<p>"
             << (th ? "ทุกเผด็จที่สร้างไว้ใน <code>" : "Every ending generated in <code>")
             << escape(tables) << (th ? "</code> (กติกาการนับ: " : "</code> (counting rules: ")
             << escape(rules_words(rules, lang))
             << (th ? ") เมื่อขาว (ฝ่ายที่แข็งกว่า) เดิน \"การนับพรากไป\": "
                      "ส่วนของการชนะของขาวที่ไม่ชนะภายในการนับใหม่"
                      "</p>\n<table>\n<tr><th>เผด็จ</th><th>จำนวนหมาก</th><th>ตำแหน่ง</"
                      "th><th>ขาวชนะ</th>"
                      "<th>ภายในการนับใหม่</th><th>การนับพรากไป</th><th>รุกจนยาวที่สุด</th></tr>\n"
                    : "), White (the stronger side) to move. \"Taken by the count\": the share of "
                      "White's wins that are not won within a fresh count.</p>\n<table>\n<tr><th>"
                      "Ending</th><th>Men</th><th>Positions</th><th>White wins</th><th>Within a "
                      "fresh count</th><th>Taken by the count</th><th>Longest mate</th></tr>\n");
        for (const auto& [men, name] : endings) {
            const std::optional<Json> stats = read_stats(tables, name);
            html << "<tr><td>"
                 << (taught.count(name)
                            ? "<a href=\"" + page_file(name, lang) + "\">" + name + "</a>"
                            : name)
                 << "</td><td>" << men << "</td>";
            if (!stats) {
                html << "<td colspan=\"5\">" << (th ? "ไม่มีไฟล์สถิติ" : "no statistics file")
                     << "</td></tr>\n";
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
            html << "<td>"
                 << (plies > 0 && wins ? std::to_string((plies + 1) / 2) + (th ? " ตา" : " moves")
                                       : "-")
                 << "</td></tr>\n";
        }
        html << "</table>\n</body>\n</html>\n";
        write_file(dir / page_file("index", lang), html.str());

        // The regulation page: per pairing, what the tables say of its stronger side.
        std::ostringstream reg;
        reg << page_head(th ? "mktb: ระเบียบฝ่ายที่แข็งกว่า" : "mktb: the stronger side regulation",
            "regulation", lang)
            << "<nav><a href=\"" << page_file("index", lang) << "\">"
            << (th ? "เผด็จทั้งหมด" : "All endings") << "</a></nav>\n"
            << (th ? "<h1>ฝ่ายใดแข็งกว่า?</h1>\n<p>ระเบียบของการแข่งขันหนึ่ง "
                     "(กีฬามหาวิทยาลัยราชภัฏภาคตะวันออกเฉียงเหนือ "
                     "ครั้งที่ 31 \"ภูพานเกมส์\"; docs/rules.md §7) กำหนดฝ่ายที่มีสิทธิ์นับศักดิ์กระดาน "
                     "(ฝ่ายที่อ่อนกว่า) ตามหมากที่เหลือ สำหรับแต่ละคู่: เผด็จของคู่นั้น (อ่านเบี้ยเป็นเบี้ย "
                     "และเป็นเบี้ยหงาย) และเมื่อตารางมีเผด็จนั้น ฝ่ายที่แข็งกว่า (ฝ่ายที่เขียนก่อน) "
                     "ชนะบ่อยเพียงใด เมื่อตนเองหรือฝ่ายที่อ่อนกว่าเดิน ทั้งไม่นับและภายในการนับใหม่ "
                     "ระเบียบกับตาราง<span class=\"disagree\">ไม่ตรงกัน</span>เมื่อฝ่ายที่แข็งกว่าเดินแล้วชนะ"
                     "น้อยกว่าครึ่งของตำแหน่ง</p>\n"
                   : "<h1>Which side is stronger?</h1>\n<p>One event's regulation (the 31st "
                     "north-eastern Rajabhat universities games, \"Phuphan Games\"; docs/rules.md "
                     "§7) names the side that may claim the board count (the weaker one) by "
                     "material. For each pairing, its endings (a Bia read as a Bia and as a "
                     "promoted one) and, where these tables hold them, how often its stronger side "
                     "(the side written first) wins, with itself or the weaker side to move, "
                     "without counting and within a fresh count. The regulation and the tables "
                     "<span class=\"disagree\">disagree</span> where the stronger side to move "
                     "wins fewer than half of the positions.</p>\n");
        // Which rows these tables answer, and what the others take.
        const double rate = generation_rate(tables);
        int rows = 0, answered = 0;
        std::map<int, std::set<std::string>> missing; // by men: the rows' endings
        for (const RegulationRow& row : kRegulation)
            for (const char* e : row.endings) {
                const Material m = Material::parse(e)->canonical();
                ++rows;
                if (fs::exists(fs::path(tables) / (m.name() + ".mktb")))
                    ++answered;
                else
                    missing[m.men()].insert(m.name());
            }
        reg << "<p class=\"summary\">" << (th ? "ตารางใน <code>" : "The tables in <code>")
            << escape(tables) << "</code> " << (th ? "ตอบได้ " : "answer ") << answered
            << (th ? " จาก " : " of the ") << rows << (th ? " แถว" : " rows") << ".";
        for (const auto& [men, names] : missing) {
            reg << " " << names.size() << (th ? " แถวต้องใช้เผด็จ " : " need endings of ") << men
                << (th ? " ตัว" : " men") << ": ";
            if (men > 6)
                reg << (th ? "เกินกว่าที่ mktb สร้าง" : "more than mktb makes");
            else if (men == 5) {
                double cells = 0;
                for (const Material& c : all_materials(5))
                    if (!fs::exists(fs::path(tables) / (c.name() + ".mktb")))
                        cells += double(Index(c).size());
                reg << (th ? "ทุกเผด็จ 5 ตัวด้วย " : "every 5-men ending with ")
                    << "<code>mktb gen --men 5</code>";
                if (rate > 0) reg << " (" << duration(cells / rate, lang) << ")";
            } else {
                double cells = 0;
                std::set<std::string> seen;
                for (const std::string& n : names)
                    for (const Material& c : missing_for(*Material::parse(n), tables))
                        if (seen.insert(c.name()).second) cells += double(Index(c).size());
                reg << (th ? "แต่ละเผด็จด้วยคำสั่งในแถวของมัน" : "each with the command in its row");
                if (rate > 0)
                    reg << (th ? " (รวม " : " (") << duration(cells / rate, lang)
                        << (th ? ")" : " in all)");
            }
            if (!th) reg << ".";
        }
        if (rate > 0)
            reg << (th ? " เวลาคำนวณจากความเร็วที่ตารางเหล่านี้ถูกสร้าง เผด็จที่ใหญ่กว่าช้ากว่านี้ต่อตำแหน่ง"
                       : " Times at the speed these tables were made; larger endings go slower "
                         "per position.");
        reg << "</p>\n"
            << (th ? "<table class=\"regulation\">\n<tr><th>ฝ่ายที่อ่อนกว่ามีไม่เกิน</th>"
                     "<th>ฝ่ายที่แข็งกว่ามีอย่างน้อย</th><th>เผด็จ</th><th>ฝ่ายที่แข็งกว่าเดิน: ชนะ</th>"
                     "<th>ภายในการนับ</th><th>ฝ่ายที่อ่อนกว่าเดิน: ฝ่ายที่แข็งกว่าชนะ</th></tr>\n"
                   : "<table class=\"regulation\">\n<tr><th>Weaker side has at "
                     "most</th><th>Stronger "
                     "side has at least</th><th>Ending</th><th>Stronger to move: "
                     "wins</th><th>within "
                     "the count</th><th>Weaker to move: stronger wins</th></tr>\n");
        for (const RegulationRow& row : kRegulation)
            for (const char* e : row.endings) {
                reg << "<tr><td>" << escape(men_words(row.weaker, lang)) << "</td><td>"
                    << escape(men_words(row.stronger, lang)) << "</td><td>";
                // The table names the stronger side by its own material: where that is the
                // regulation's weaker side, the colours of its statistics are swapped. The row
                // names the ending as its file and `mktb gen` do.
                const Material m = *Material::parse(e);
                const bool swapped = !m.is_canonical();
                const std::string name = m.canonical().name();
                reg << name
                    << (swapped ? (th ? " (ฝ่ายที่แข็งกว่าคือดำ)" : " (the stronger side is Black)") : "")
                    << "</td>";
                const std::optional<Json> stats = read_stats(tables, name);
                if (!stats) {
                    reg << "<td colspan=\"3\">" << (th ? "ยังไม่ได้สร้าง: " : "not generated: ")
                        << would_take(m.canonical(), tables, rate, lang) << "</td></tr>\n";
                    continue;
                }
                const Json& w = (*stats)["sides"][swapped ? "black_to_move" : "white_to_move"];
                const Json& b = (*stats)["sides"][swapped ? "white_to_move" : "black_to_move"];
                const std::uint64_t legal = w["legal"], wins = w["wins"];
                const bool disagree = 2 * wins < legal;
                reg << "<td" << (disagree ? " class=\"disagree\"" : "") << ">"
                    << percent(wins, legal) << "</td><td>"
                    << (w["counted_wins"].is_null()
                               ? std::string("-")
                               : percent(std::uint64_t(w["counted_wins"]), legal))
                    << "</td><td>" << percent(std::uint64_t(b["losses"]), std::uint64_t(b["legal"]))
                    << "</td></tr>\n";
            }
        reg << "</table>\n</body>\n</html>\n";
        write_file(dir / page_file("regulation", lang), reg.str());
    }
    write_file(dir / "report.css", kReportCss);
}

} // namespace mktb::cli

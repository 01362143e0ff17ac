// xiangqi_teach.cpp - `mktb teach --game xiangqi`: teaching material from the Xiangqi tables. One
// scan of each ending's table (every position, both sides to move, one per mirror class) gathers
// its figures and candidates; the answers of the tables (xiangqi_answer) then keep the positions
// of each theme by its stated rule:
//  - longest: the longest mates, per side to move;
//  - only-move: exactly one move keeps the win (a mate of at least 5 moves);
//  - defence: drawn, exactly one move keeps the draw;
//  - zugzwang: mutual zugzwang, whoever moves does worse than if the other side had to;
//  - old-soldier: drawn with a soldier on the last rank, won one rank lower (a soldier never
//    steps back: the old soldier's draw);
//  - cannon-screen: the main line's mate is the cannon's over its own advisor;
//  - rule: a plain draw the perpetual-check rule decides (both sides armed).
// The chariot's technique against two advisors or two elephants and against all four defenders,
// the horse against an advisor and the soldier's wins are these themes in those endings. Written
// per ending: an HTML page (figures, themes, diagrams, solutions behind a click), a worksheet and
// its answer key apart, EPD and PGN (Fairy-Stockfish's Xiangqi FEN, moves in WXF), the diagrams
// as SVG and a JSON file of every claim (what tests/teach/xiangqi.py re-checks); an overview of
// every Xiangqi table of the directory.
#include <algorithm>
#include <bit>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <set>

#include "cli.hpp"
#include "diagram.hpp"
#include "notation.hpp"
#include "progress.hpp"
#include "teach/html.hpp"
#include "teach/xiangqi_teacher.hpp"
#include "writing.hpp"
#include "xiangqi_answer.hpp"
#include "xiangqi_commands.hpp"
#include "xiangqi_tables.hpp"

namespace mktb::cli {

namespace {

namespace fs = std::filesystem;
using namespace xteach;
using xq::Position, xq::RED;

// ---- The files ----

constexpr const char* kCss = R"CSS(
body { font-family: sans-serif; max-width: 60rem; margin: 1rem auto; padding: 0 1rem; color: #222; }
table.figures { border-collapse: collapse; } table.figures td, table.figures th { border: 1px solid #bbb; padding: .2rem .5rem; text-align: right; }
.items { display: flex; flex-wrap: wrap; gap: 1.2rem; }
figure { margin: 0; width: 300px; break-inside: avoid; }
figcaption { font-size: .95rem; }
.answer { border-bottom: 1px solid #999; height: 1.6rem; }
.legend ul { list-style: none; padding: 0; margin: .3rem 0; display: flex; flex-wrap: wrap; gap: .2rem 1.2rem; }
.legend img { vertical-align: middle; }
.name-line span { display: inline-block; border-bottom: 1px solid #555; width: 14rem; margin: 0 1.5rem 0 .4rem; }
.name-line span + span { width: 8rem; }
@media print {
  @page { size: A4; margin: 15mm; }
  .noprint { display: none; } body { max-width: none; margin: 0; }
  section + section { break-before: page; } /* a page per theme; the first shares the heading's */
  .items { gap: .6rem 1.2rem; } figure { width: 6.6cm; } figure img { width: 6.6cm; height: auto; }
}
)CSS";

// The men with their names and the letters FENs use (diagrams/men/*.svg), Red's and Black's.
std::string men_legend(Lang lang) {
    static const std::pair<char, Said> kMen[] = { { 'K', { "general (K)", "ขุน (K)" } },
        { 'A', { "advisor (A)", "ที่ปรึกษา (A)" } }, { 'B', { "elephant (B)", "ช้าง (B)" } },
        { 'N', { "horse (N)", "ม้า (N)" } }, { 'R', { "chariot (R)", "รถ (R)" } },
        { 'C', { "cannon (C)", "ปืนใหญ่ (C)" } }, { 'P', { "soldier (P)", "ทหาร (P)" } } };
    std::string html = lang == Lang::Th
        ? "<div class=\"legend\"><b>หมาก</b> (ของแดงและของดำ):<ul>"
        : "<div class=\"legend\"><b>The men</b> (Red's and Black's):<ul>";
    for (const auto& [letter, words] : kMen)
        html += std::string("<li><img src=\"diagrams/men/") + letter
            + ".svg\" alt=\"\" width=\"24\" height=\"24\"><img src=\"diagrams/men/b"
            + char(std::tolower(letter)) + ".svg\" alt=\"\" width=\"24\" height=\"24\"> "
            + words.in(lang) + "</li>";
    return html + "</ul></div>\n";
}

// A page's head, with the link to the same page in the other language.
std::string head(const std::string& title, const std::string& base, Lang lang) {
    const bool th = lang == Lang::Th;
    return "<!doctype html>\n<html lang=\"" + std::string(th ? "th" : "en")
        + "\">\n<head>\n<meta charset=\"utf-8\">\n<meta "
          "name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>"
        + escape(title) + "</title>\n<link rel=\"icon\" href=\"data:,\">\n<style>" + kCss
        + "</style>\n</head>\n<body>\n<p class=\"noprint\" style=\"float:right\"><a href=\""
        + page_file(base, th ? Lang::En : Lang::Th) + "\" hreflang=\"" + (th ? "en" : "th") + "\">"
        + (th ? "English" : "ภาษาไทย") + "</a></p>\n";
}

// The moves of a line in WXF (or another notation), numbered from the position's side to move.
std::string line_wxf(Position pos, const std::vector<xq::Move>& line,
    std::string (*notation)(const Position&, xq::Move) = wxf) {
    std::string out;
    int number = 1;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const Color stm = pos.side_to_move();
        if (stm == RED || i == 0) out += std::to_string(number) + (stm == RED ? ". " : "... ");
        out += notation(pos, line[i]) + " ";
        if (stm == BLACK) ++number;
        pos.do_move(line[i]);
    }
    if (!out.empty()) out.pop_back();
    return out;
}

std::string moves_text(const Position& pos, const std::vector<xq::Move>& moves) {
    std::string out;
    for (xq::Move m : moves)
        out += (out.empty() ? "" : ", ") + wxf(pos, m) + " " + chinese(pos, m) + " ("
            + xq::move_to_uci(m) + ")";
    return out;
}

Json write_xiangqi_ending(const XiangqiTeacher& t, const fs::path& dir) {
    const std::string name = t.material().name();
    fs::create_directories(dir / "diagrams" / "men");
    // The men's pictures for the worksheet's legend (Black's as bX.svg: names differ by case only
    // where file systems ignore it).
    for (char letter : std::string("KABNRCP")) {
        write_file(
            dir / "diagrams" / "men" / (std::string(1, letter) + ".svg"), xiangqi_man_svg(letter));
        const char black = char(std::tolower(static_cast<unsigned char>(letter)));
        write_file(
            dir / "diagrams" / "men" / (std::string("b") + black + ".svg"), xiangqi_man_svg(black));
    }
    // The diagrams, EPD, PGN and claims, once for both languages.
    std::string epd, pgn;
    Json themes = Json::array();
    for (const XTheme& theme : t.themes()) {
        Json items = Json::array();
        for (const XItem& item : theme.items) {
            const std::string fen = item.pos.fen();
            DiagramOptions diagram;
            diagram.size = 300;
            write_file(dir / "diagrams" / (item.id + ".svg"), xiangqi_board_svg(fen, diagram));
            // EPD: the FEN's four fields, bm in UCI (Fairy-Stockfish's Xiangqi moves).
            std::string bm;
            for (xq::Move m : item.best) {
                if (!bm.empty()) bm += ' ';
                bm += xq::move_to_uci(m);
            }
            const std::string four = fen.substr(0, fen.find(" 0 "));
            epd += four + (bm.empty() ? "" : " bm " + bm + ";") + " id \"" + item.id + "\"; c0 \""
                + item.claim.en + "\";\n";
            const char* result = item.facts["category"] == "draw"                       ? "*"
                : (item.facts["category"] == "win") == (item.pos.side_to_move() == RED) ? "1-0"
                                                                                        : "0-1";
            pgn += "[Event \"mktb teach: " + name + ", " + theme.title.en
                + "\"]\n[Site \"?\"]\n[Round \"" + item.id
                + "\"]\n[White \"?\"]\n[Black \"?\"]\n[Result \"" + result
                + "\"]\n[Variant \"xiangqi\"]\n[SetUp \"1\"]\n[FEN \"" + fen + "\"]\n\n{"
                + item.claim.en + "} " + line_wxf(item.pos, item.line)
                + (item.line.empty() ? "" : " ") + result + "\n\n";
            Json j = item.facts;
            j["id"] = item.id;
            j["claim"] = item.claim.en;
            j["claim_th"] = item.claim.th;
            j["task"] = { { "en", item.task.en }, { "th", item.task.th } };
            j["best"] = Json::array();
            for (xq::Move m : item.best) j["best"].push_back(xq::move_to_uci(m));
            j["line"] = Json::array();
            for (xq::Move m : item.line) j["line"].push_back(xq::move_to_uci(m));
            items.push_back(j);
        }
        themes.push_back({ { "key", theme.key }, { "title", theme.title.en },
            { "rule", theme.rule.en }, { "items", items } });
    }
    Json figures = Json::object();
    for (Color c : { RED, BLACK }) {
        const XFigures& f = t.figures()[c];
        figures[c == RED ? "red_to_move" : "black_to_move"]
            = { { "positions", f.legal }, { "wins", f.wins }, { "draws", f.draws },
                  { "losses", f.losses }, { "rule_wins", f.ruleWins },
                  { "rule_losses", f.ruleLosses }, { "longest", f.longest } };
    }
    // The pages, in each language: the ending's, the worksheet and the answer key.
    for (Lang lang : { Lang::En, Lang::Th }) {
        const bool th = lang == Lang::Th;
        const std::string title = name + ": " + title_of(t.material(), lang);
        const std::string self = page_file(name, lang),
                          sheetFile = page_file(name + ".worksheet", lang),
                          keyFile = page_file(name + ".answers", lang);
        std::string page = head(title, name, lang) + "<p class=\"noprint\"><a href=\""
            + page_file("index", lang) + "\">" + (th ? "เผด็จทั้งหมด" : "All endings")
            + "</a> &middot; <a href=\"" + sheetFile + "\">" + (th ? "แบบฝึกหัด" : "Worksheet")
            + "</a> &middot; <a href=\"" + keyFile + "\">" + (th ? "เฉลย" : "Answer key")
            + "</a></p>\n<h1>" + escape(title) + "</h1>\n";
        std::string sheet
            = head(name + (th ? ": แบบฝึกหัด" : ": worksheet"), name + ".worksheet", lang) + "<h1>"
            + escape(title) + (th ? ": แบบฝึกหัด" : ": worksheet") + "</h1>\n" + name_line(lang)
            + men_legend(lang);
        std::string key = head(name + (th ? ": เฉลย" : ": answer key"), name + ".answers", lang)
            + "<h1>" + escape(title) + (th ? ": เฉลย" : ": answer key") + "</h1>\n";
        // Figures per side to move.
        page += th ? "<table class=\"figures\"><tr><th>ฝ่ายเดิน</th><th>ตำแหน่ง</th><th>ชนะ</th>"
                     "<th>เสมอ</th><th>แพ้</th>"
                   : "<table class=\"figures\"><tr><th>to move</th><th>positions</th><th>wins</th>"
                     "<th>draws</th><th>losses</th>";
        if (t.rule_table())
            page += th ? "<th>ชนะด้วยกติกา</th><th>แพ้ด้วยกติกา</th>"
                       : "<th>won by the rule</th><th>lost by the rule</th>";
        page += th ? "<th>รุกจนยาวที่สุด</th></tr>\n" : "<th>longest mate</th></tr>\n";
        for (Color c : { RED, BLACK }) {
            const XFigures& f = t.figures()[c];
            page += "<tr><th>" + (th ? side_th(c) : std::string(side_name(c))) + "</th><td>"
                + number(f.legal) + "</td><td>" + percent(f.wins, f.legal) + "</td><td>"
                + percent(f.draws, f.legal) + "</td><td>" + percent(f.losses, f.legal) + "</td>";
            if (t.rule_table())
                page += "<td>" + number(f.ruleWins) + "</td><td>" + number(f.ruleLosses) + "</td>";
            page += "<td>"
                + (f.longest > 0 ? std::to_string(f.longest) + (th ? " ตา" : " moves")
                                 : std::string("-"))
                + "</td></tr>\n";
        }
        page += "</table>\n<p>"
            + std::string(th ? "นับตำแหน่งโดยถือภาพสะท้อนซ้าย-ขวาเป็นตำแหน่งเดียวกัน ฝ่ายที่อับแพ้ "
                             : "Positions up to the left-right mirror; a stalemated side loses; ")
            + (t.asian() ? (th ? "ฝ่ายที่รุกหรือไล่ตัวเดิมไม่หยุดแพ้ (กติกาเอเชีย)"
                               : "a side that checks, or chases the same man, forever loses (the "
                                 "Asian rules).")
                    : t.rule_table()
                    ? (th ? "ฝ่ายที่รุกไม่หยุดแพ้ (ไม่รวมการไล่ไม่หยุด)"
                          : "a side that checks forever loses (perpetual chase is not modelled).")
                    : t.armed()
                    ? (th ? "ตามกติกา none: การเดินวนไม่สิ้นสุดทุกแบบเสมอ"
                          : "under the rules none every endless line is a draw.")
                    : (th ? "ฝ่ายหนึ่งไม่มีตัวรุก กติการุกไม่หยุดจึงไม่เปลี่ยนผล"
                          : "one side is armless, so the perpetual-check rule changes nothing."))
            + "</p>\n";
        for (const XTheme& theme : t.themes()) {
            const std::string themeTitle = escape(theme.title.in(lang));
            page += "<h2>" + themeTitle + "</h2>\n<p>" + escape(theme.rule.in(lang))
                + "</p>\n<div class=\"items\">\n";
            sheet += "<section><h2>" + themeTitle + "</h2>\n<div class=\"items\">\n";
            key += "<h2>" + themeTitle + "</h2>\n<ol>\n";
            int numbered = 0; // as the key's list numbers them
            for (const XItem& item : theme.items) {
                const std::string fen = item.pos.fen();
                const std::string img = "<img src=\"diagrams/" + item.id
                    + ".svg\" width=\"300\" alt=\"" + escape(fen) + "\">";
                const std::string solution = (th ? "ดีที่สุด: " : "Best: ")
                    + moves_text(item.pos, item.best)
                    + (item.line.empty()
                            ? ""
                            : (th ? ". แนวหลัก: " : ". Main line: ") + line_wxf(item.pos, item.line)
                                + " (" + line_wxf(item.pos, item.line, chinese) + ")");
                std::string caption = escape(item.claim.in(lang));
                if (!caption.empty())
                    caption[0] = char(std::toupper(static_cast<unsigned char>(caption[0])));
                page += "<figure>" + img + "<figcaption>" + caption + "<details><summary>"
                    + (th ? "เฉลย" : "Solution") + "</summary>" + escape(solution)
                    + "</details></figcaption></figure>\n";
                sheet += "<figure>" + img + "<figcaption><b>" + std::to_string(++numbered)
                    + ".</b> " + escape(item.task.in(lang))
                    + "<div class=\"answer\"></div><div "
                      "class=\"answer\"></div></figcaption></figure>\n";
                key += "<li>" + escape(item.id) + ": " + caption + ". " + escape(solution)
                    + "</li>\n";
            }
            page += "</div>\n";
            sheet += "</div>\n</section>\n";
            key += "</ol>\n";
        }
        const std::string end = "</body>\n</html>\n";
        write_file(dir / self, page + end);
        write_file(dir / sheetFile, sheet + end);
        write_file(dir / keyFile, key + end);
    }
    write_file(dir / (name + ".epd"), epd);
    write_file(dir / (name + ".pgn"), pgn);
    Json claims = { { "game", "xiangqi" }, { "ending", name }, { "figures", figures },
        { "themes", themes } };
    write_file(dir / (name + ".json"), dump(claims) + "\n");
    return claims;
}

// DIR/index.html: every Xiangqi table of the directory with its figures (from the generator's
// NAME.xq.json), the taught ones linked.
void write_xiangqi_overview(
    const fs::path& dir, const Prober& tables, const std::set<std::string>& taught) {
    for (Lang lang : { Lang::En, Lang::Th }) {
        const bool th = lang == Lang::Th;
        std::string page = head(th ? "เผด็จหมากรุกจีน" : "Xiangqi endings", "index", lang)
            + (th ? "<h1>เผด็จหมากรุกจีน</h1>\n<p>ทุกตารางใน "
                  : "<h1>Xiangqi endings</h1>\n<p>Every table in ")
            + escape(tables.dir())
            + (th ? " เผด็จที่มีสื่อการสอนมีลิงก์</p>\n<table class=\"figures\"><tr><th>เผด็จ</th>"
                    "<th>จำนวนหมาก</th><th>แดงเดินชนะ</th><th>ดำเดินชนะ</th><th>รุกจนยาวที่สุด</th></"
                    "tr>\n"
                  : "; the endings with teaching material are linked.</p>\n"
                    "<table class=\"figures\"><tr><th>ending</th><th>men</th><th>Red to move "
                    "wins</th><th>Black to move wins</th><th>longest mate</th></tr>\n");
        for (const xq::Material& m : xq::Tablebase::on_disk(tables.dir())) {
            const std::string name = m.name();
            std::string red = "-", black = "-", longest = "-";
            if (StatsRow rows[2];
                read_rows((fs::path(tables.dir()) / (name + ".xq.json")).string(), true, rows)) {
                red = percent(rows[0].wins, rows[0].legal);
                black = percent(rows[1].wins, rows[1].legal);
                const int plies = std::max(rows[0].longest, rows[1].longest);
                if (plies > 0) longest = std::to_string((plies + 1) / 2) + (th ? " ตา" : " moves");
            } // else no figures: the dashes stand
            page += "<tr><td>"
                + (taught.count(name) ? "<a href=\"" + page_file(name, lang) + "\">" + name + "</a>"
                                      : name)
                + "</td><td>" + std::to_string(m.men()) + "</td><td>" + red + "</td><td>" + black
                + "</td><td>" + longest + "</td></tr>\n";
        }
        write_file(dir / page_file("index", lang), page + "</table>\n</body>\n</html>\n");
    }
}

} // namespace

int xiangqi_teach(const Args& a) {
    const std::string out = a.text("--out", "report-xiangqi"), dir = a.tables();
    const int perTheme = int(a.number("--per-theme", 4));
    if (a.has("--men")) return usage_error(a, "--men is Makruk's: name the Xiangqi endings");
    ProbeOptions options;
    if (const std::string e = read_rule_set(a, &options.xiangqi_rules); !e.empty())
        return usage_error(a, e);
    if (a.operands().empty()) return usage_error(a, "give the Xiangqi endings");
    std::vector<xq::Material> materials;
    for (const std::string& n : a.operands()) {
        const std::optional<xq::Material> m = xq::Material::parse(n);
        if (!m) {
            std::fprintf(stderr, "mktb teach: %s\n", xq::Material::parse_error(n).c_str());
            return kExitBadInput;
        }
        materials.push_back(m->canonical());
    }
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) {
        std::fprintf(stderr, "mktb teach: %s is not a directory of tables\n", dir.c_str());
        return kExitNoTable;
    }
    try {
        const Prober tables(dir, options);
        for (const xq::Material& m : materials)
            if (!tables.available(m)) {
                std::fprintf(stderr,
                    "mktb teach: no Xiangqi table for %s in %s (generate it: mktb gen --game "
                    "xiangqi %s)\n",
                    m.name().c_str(), dir.c_str(), m.name().c_str());
                return kExitNoTable;
            }
        if (!create_report_dir(out)) return kExitFailure;
        XiangqiTeacher teacher(tables, perTheme);
        std::set<std::string> taught;
        for (const xq::Material& m : materials) {
            teacher.study(m);
            write_xiangqi_ending(teacher, out);
            taught.insert(m.name());
            std::size_t count = 0;
            for (const XTheme& t : teacher.themes()) count += t.items.size();
            std::printf("%s: %zu positions in %zu themes\n", m.name().c_str(), count,
                teacher.themes().size());
            std::fflush(stdout);
        }
        write_xiangqi_overview(out, tables, taught);
    } catch (const TableError& e) {
        std::fprintf(stderr, "mktb teach: %s\n", e.what());
        return kExitFailure;
    } catch (const std::runtime_error& e) {
        std::fprintf(stderr, "mktb teach: %s\n", e.what());
        return kExitFailure;
    }
    std::printf("report: %s/index.html\n", out.c_str());
    return kExitOk;
}

} // namespace mktb::cli

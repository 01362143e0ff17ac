// errors_th.cpp - the server's errors in Thai for the page in Thai (`lang=th`). The messages
// are made in English where the fault is found (the FEN parser, the count's checks in core/,
// which know no language); each form the page can meet is matched here and said again in Thai,
// its figures and names carried over. A message of no known form keeps its English, after a Thai
// word saying what it is about.
#include "errors_th.hpp"

#include <regex>
#include <utility>
#include <vector>

namespace mktb::cli {
namespace {

std::string colour(const std::string& english) {
    return english == "White" ? "ขาว" : english == "Red" ? "แดง" : "ดำ";
}

std::string man(const std::string& english) {
    static const std::pair<const char*, const char*> kMen[] = { { "Khun", "ขุน" }, { "Met", "เม็ด" },
        { "Khon", "โคน" }, { "Ma", "ม้า" }, { "Ruea", "เรือ" }, { "Bia", "เบี้ย" } };
    for (const auto& [en, th] : kMen)
        if (english == en) return th;
    return english;
}

// "every ending up to 4 men and 2 endings of more men (up to 5)" in Thai.
std::string held(const std::string& english) {
    std::smatch m;
    std::string out;
    if (std::regex_search(english, m, std::regex("^every ending up to (\\d+) men")))
        out = "ทุกเผด็จที่มีหมากไม่เกิน " + m[1].str() + " ตัว";
    else
        out = "ยังไม่มีชุดเผด็จที่ครบ";
    if (std::regex_search(
            english, m, std::regex("and (\\d+) endings? of more men \\(up to (\\d+)\\)")))
        out += " และอีก " + m[1].str() + " เผด็จที่มีหมากมากกว่านั้น (ถึง " + m[2].str() + " ตัว)";
    return out;
}

using Say = std::string (*)(const std::smatch&);
struct Form {
    std::regex english;
    Say thai;
};

const std::vector<Form>& forms() {
    static const std::vector<Form> kForms = [] {
        std::vector<Form> f;
        const auto add = [&](const char* re, Say say) { f.push_back({ std::regex(re), say }); };
        add("^bad FEN: (.*)$",
            [](const std::smatch& m) { return "FEN ไม่ถูกต้อง: " + errors_in_thai(m[1]); });
        add("^bad Xiangqi FEN: (.*)$",
            [](const std::smatch& m) { return "FEN หมากรุกจีนไม่ถูกต้อง: " + errors_in_thai(m[1]); });
        add("^count: (.*)$", [](const std::smatch& m) { return "การนับ: " + errors_in_thai(m[1]); });
        add("^(White|Black|Red) has (\\d+) kings \\(exactly one is required\\)$",
            [](const std::smatch& m) {
                return colour(m[1]) + "มีขุน " + m[2].str() + " ตัว (ต้องมีหนึ่งตัวพอดี)";
            });
        add("^(Red|Black) has two kings$",
            [](const std::smatch& m) { return colour(m[1]) + "มีขุนสองตัว"; });
        add("^the kings stand next to each other$",
            [](const std::smatch&) { return std::string("ขุนสองฝ่ายยืนติดกัน"); });
        add("^the kings face each other.*$",
            [](const std::smatch&) { return std::string("ขุนสองฝ่ายเผชิญหน้ากันโดยไม่มีหมากกั้น"); });
        add("^(Red|Black) has no king$",
            [](const std::smatch& m) { return colour(m[1]) + "ไม่มีขุน"; });
        add("^(Red|Black) is in check but it is not its move$", [](const std::smatch& m) {
            return colour(m[1]) + "ถูกรุกอยู่ แต่ไม่ใช่ตาของ" + colour(m[1]);
        });
        add("^(.*) on ([a-i]\\d+): a point it can never reach$", [](const std::smatch& m) {
            return m[1].str() + " ที่ " + m[2].str() + ": จุดที่หมากตัวนี้ไปไม่ถึง";
        });
        add("^(Red|Black) has (\\d+) (\\w+)s, more than the (\\d+) of the start position$",
            [](const std::smatch& m) {
                return colour(m[1]) + "มี " + m[3].str() + " " + m[2].str() + " ตัว มากกว่า "
                    + m[4].str() + " ตัวของตำแหน่งเริ่มเกม";
            });
        add("^the side not to move \\((White|Black|Red)\\) is in check$",
            [](const std::smatch& m) { return "ฝ่ายที่ไม่ได้เดิน (" + colour(m[1]) + ") ถูกรุกอยู่"; });
        add("^(White|Black) Bia on ([a-h][1-8]), a square it can never occupy \\(ranks (.*) "
            "only\\)$",
            [](const std::smatch& m) {
                return "เบี้ย" + colour(m[1]) + "ที่ " + m[2].str() + " อยู่ในช่องที่เบี้ยไปไม่ได้ (แถว "
                    + m[3].str() + " เท่านั้น)";
            });
        add("^(White|Black) has (\\d+) bia and (\\d+) met, more than the start position "
            "allows.*$",
            [](const std::smatch& m) {
                return colour(m[1]) + "มีเบี้ย " + m[2].str() + " และเม็ด " + m[3].str()
                    + " ตัว มากกว่าที่ตั้งต้นเกมมี (เบี้ยกับเม็ดรวมกันไม่เกิน 9)";
            });
        add("^(White|Black) has (\\d+) (\\w+), more than the start position allows "
            "\\((\\d+)\\)$",
            [](const std::smatch& m) {
                return colour(m[1]) + "มี" + man(m[3]) + " " + m[2].str() + " ตัว มากกว่าที่ตั้งต้นเกมมี ("
                    + m[4].str() + ")";
            });
        // The count (core/counting.cpp's count_error, answer.cpp's count_to_follow).
        add("^the count is pieces:C or board:C with C the count last announced \\(0-64\\), "
            "not '(.*)'$",
            [](const std::smatch& m) {
                return "การนับเขียนเป็น pieces:C หรือ board:C โดย C คือเลขที่นับล่าสุด (0-64) ไม่ใช่ '"
                    + m[1].str() + "'";
            });
        add("^a pieces' honour count needs a bare defending king$",
            [](const std::smatch&) { return std::string("นับศักดิ์หมากได้เมื่อฝ่ายรับเหลือขุนเปล่าเท่านั้น"); });
        add("^no count runs while a Bia is on the board$",
            [](const std::smatch&) { return std::string("ยังไม่นับขณะมีเบี้ยบนกระดาน"); });
        add("^a board's honour count needs men on both sides$",
            [](const std::smatch&) { return std::string("นับศักดิ์กระดานได้เมื่อทั้งสองฝ่ายยังมีหมากเท่านั้น"); });
        add("^a board's honour count contradicts board_honour = off$",
            [](const std::smatch&) { return std::string("ตารางเหล่านี้สร้างโดยไม่นับศักดิ์กระดาน"); });
        add("^count (\\d+) \\(ply (\\d+) in the FEN\\) is given but no count runs$",
            [](const std::smatch& m) {
                return "ให้การนับ " + m[1].str() + " (ply " + m[2].str()
                    + " ใน FEN) แต่ตำแหน่งนี้ไม่มีการนับ";
            });
        add("^a count limit of (\\d+) plies in the FEN is not one of .*$",
            [](const std::smatch& m) {
                return "ศักดิ์ " + m[1].str()
                    + " ply ใน FEN ไม่ใช่ค่าที่ใช้ได้ (ศักดิ์ 8 16 22 32 44 64 ตา คือ 16 32 44 64 88 128 ply)";
            });
        add("^the count's ply (-?\\d+) in the FEN is negative$",
            [](const std::smatch& m) { return "ply ของการนับใน FEN ติดลบ (" + m[1].str() + ")"; });
        add("^count (\\d+) \\(ply (\\d+) in the FEN\\) is past the limit of (\\d+) moves "
            "\\((\\d+) plies\\).*$",
            [](const std::smatch& m) {
                return "การนับ " + m[1].str() + " (ply " + m[2].str() + " ใน FEN) เกินศักดิ์ "
                    + m[3].str() + " ตา (" + m[4].str() + " ply) ไปมากกว่าหนึ่ง ply ที่จบเกม";
            });
        add("^a count is given but a Bia is on the board.*$", [](const std::smatch&) {
            return std::string("ให้การนับมา แต่ยังมีเบี้ยบนกระดาน (ยังไม่นับขณะมีเบี้ย)");
        });
        add("^a board's honour count has the limit 64 moves \\(128 plies\\), not (\\d+) moves "
            "\\((\\d+) plies\\)$",
            [](const std::smatch& m) {
                return "ศักดิ์กระดานคือ 64 ตา (128 ply) ไม่ใช่ " + m[1].str() + " ตา (" + m[2].str()
                    + " ply)";
            });
        add("^count (\\d+) \\(ply (\\d+) in the FEN\\): the ply is (odd|even), but under "
            "pieces' honour.*$",
            [](const std::smatch& m) {
                return "การนับ " + m[1].str() + " (ply " + m[2].str() + " ใน FEN): ply เป็นเลข"
                    + (m[3] == "odd" ? "คี่" : "คู่")
                    + " แต่เมื่อนับศักดิ์หมาก ply เป็นเลขคี่เมื่อฝ่ายรุกเดิน และเลขคู่เมื่อฝ่ายรับเดิน";
            });
        add("^count (\\d+) \\(ply (\\d+) in the FEN\\) is below (\\d+): the count starts at "
            "the (\\d+) men on the board and only rises$",
            [](const std::smatch& m) {
                return "การนับ " + m[1].str() + " (ply " + m[2].str() + " ใน FEN) ต่ำกว่า "
                    + m[3].str() + ": การนับเริ่มที่จำนวนหมาก " + m[4].str()
                    + " ตัวบนกระดาน และนับขึ้นเท่านั้น";
            });
        // Beyond the tables, and the rules served.
        add("^no table for (\\S+) or an ending it converts into; the tables served hold "
            "(.*)$",
            [](const std::smatch& m) {
                return "ไม่มีตารางของ " + m[1].str() + " หรือของเผด็จที่มันเปลี่ยนไปได้; ตารางที่เปิดอยู่มี "
                    + held(m[2]);
            });
        add("^no Xiangqi table for (\\S+) or an ending it converts into$",
            [](const std::smatch& m) {
                return "ไม่มีตารางหมากรุกจีนของ " + m[1].str() + " หรือของเผด็จที่มันเปลี่ยนไปได้";
            });
        add("^no Xiangqi tables are served \\(make them: (.*)\\)$", [](const std::smatch& m) {
            return "ไม่มีตารางหมากรุกจีนเปิดอยู่ (สร้างด้วย: " + m[1].str() + ")";
        });
        add("^'(\\w+)' is a Makruk counting parameter; Xiangqi has no count$",
            [](const std::smatch& m) {
                return "'" + m[1].str() + "' เป็นตัวเลือกการนับของหมากรุกไทย หมากรุกจีนไม่มีการนับ";
            });
        return f;
    }();
    return kForms;
}

} // namespace

std::string errors_in_thai(const std::string& english) {
    std::smatch m;
    for (const Form& form : forms())
        if (std::regex_match(english, m, form.english)) return form.thai(m);
    return "ข้อผิดพลาด: " + english;
}

} // namespace mktb::cli

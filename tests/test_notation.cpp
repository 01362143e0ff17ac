// test_notation.cpp - Xiangqi moves in WXF notation against moves written by hand from the WXF's
// rules (files from each side's right, + forward, - backward, = along the rank; tandem men).
#include <catch2/catch.hpp>

#include "notation.hpp"

using namespace mktb;

namespace {

std::string wxf_of(const char* fen, const char* uci) {
    const xq::Position pos = xq::Position::from_fen(fen);
    const xq::Move m = xq::parse_uci_move(pos, uci);
    REQUIRE(m != xq::MOVE_NONE);
    return cli::wxf(pos, m);
}

constexpr const char* kStart = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

} // namespace

TEST_CASE("WXF notation: each kind of man, forward, backward, along the rank", "[notation]") {
    const std::string red = std::string(kStart) + " w - - 0 1";
    const std::string black = std::string(kStart) + " b - - 0 1";
    CHECK(wxf_of(red.c_str(), "h3e3") == "C2=5"); // the central cannon
    CHECK(wxf_of(red.c_str(), "h1g3") == "H2+3");
    CHECK(wxf_of(red.c_str(), "a1a2") == "R9+1");
    CHECK(wxf_of(red.c_str(), "g4g5") == "P3+1");
    CHECK(wxf_of(red.c_str(), "c1e3") == "E7+5");
    CHECK(wxf_of(red.c_str(), "d1e2") == "A6+5");
    CHECK(wxf_of(red.c_str(), "e1e2") == "K5+1");
    // Black counts files from its own right: its b-file cannon is on its 2nd file.
    CHECK(wxf_of(black.c_str(), "b8e8") == "C2=5");
    CHECK(wxf_of(black.c_str(), "h10g8") == "H8+7");
    CHECK(wxf_of(black.c_str(), "i10i9") == "R9+1");
    // Backward: a chariot on Red's 1st file two ranks back; a horse back to Red's 7th file.
    CHECK(wxf_of("5k3/9/9/9/9/9/9/8R/9/3K5 w - - 0 1", "i3i1") == "R1-2");
    CHECK(wxf_of("5k3/9/9/9/9/9/9/9/3K5/2N6 w - - 0 1", "c1b3") == "H7+8");
    CHECK(wxf_of("5k3/9/9/9/9/9/6N2/9/3K5/9 w - - 0 1", "g4f2") == "H3-4");
}

TEST_CASE("WXF notation: two men of a kind on one file, and tandem soldiers", "[notation]") {
    // Two Red chariots on the e-file: the front one (e5) and the rear one (e3).
    const char* rooks = "5k3/9/9/9/9/4R4/9/4R4/9/3K5 w - - 0 1";
    CHECK(wxf_of(rooks, "e5c5") == "R+=7");
    CHECK(wxf_of(rooks, "e3e2") == "R--1");
    // Three soldiers on Red's 7th file (c6, c7, c8): front +, middle its file, rear -.
    const char* three = "5k3/9/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1";
    CHECK(wxf_of(three, "c8d8") == "P+=6");
    CHECK(wxf_of(three, "c7d7") == "P7=6");
    CHECK(wxf_of(three, "c6b6") == "P-=8");
    // Tandem soldiers on two files (c and g): the file takes the letter's place.
    const char* two = "5k3/9/2P6/2P3P2/2P3P2/9/9/9/9/3K5 w - - 0 1";
    CHECK(wxf_of(two, "c8d8") == "7+=6");
    CHECK(wxf_of(two, "c7d7") == "77=6");
    CHECK(wxf_of(two, "g6h6") == "3-=2");
    // Four soldiers on one file: "++", "P+", "P-", "--".
    const char* four = "5k3/2P6/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1";
    CHECK(wxf_of(four, "c9d9") == "++=6");
    CHECK(wxf_of(four, "c8d8") == "P+=6");
    CHECK(wxf_of(four, "c7d7") == "P-=6");
    CHECK(wxf_of(four, "c6d6") == "--=6");
}

namespace {

std::string chinese_of(const char* fen, const char* uci) {
    const xq::Position pos = xq::Position::from_fen(fen);
    const xq::Move m = xq::parse_uci_move(pos, uci);
    REQUIRE(m != xq::MOVE_NONE);
    return cli::chinese(pos, m);
}

} // namespace

// The openings' moves as every Chinese opening book writes them (炮二平五 the central cannon,
// 馬８進７ Black's horse, 兵三進一 ...), Red in Chinese numerals, Black in digits.
TEST_CASE("Chinese notation: the openings' moves, tandem men", "[notation]") {
    const std::string red = std::string(kStart) + " w - - 0 1";
    const std::string black = std::string(kStart) + " b - - 0 1";
    CHECK(chinese_of(red.c_str(), "h3e3") == "炮二平五");
    CHECK(chinese_of(red.c_str(), "h1g3") == "傌二進三");
    CHECK(chinese_of(red.c_str(), "a1a2") == "俥九進一");
    CHECK(chinese_of(red.c_str(), "g4g5") == "兵三進一");
    CHECK(chinese_of(red.c_str(), "c1e3") == "相七進五");
    CHECK(chinese_of(red.c_str(), "d1e2") == "仕六進五");
    CHECK(chinese_of(red.c_str(), "e1e2") == "帥五進一");
    CHECK(chinese_of(black.c_str(), "b8e8") == "砲２平５");
    CHECK(chinese_of(black.c_str(), "h10g8") == "馬８進７");
    CHECK(chinese_of(black.c_str(), "i10i9") == "車９進１");
    // The README's mate: the chariot seven ranks up the central file.
    CHECK(chinese_of("3k5/9/9/9/9/9/9/9/4R4/4K4 w - - 0 1", "e2e9") == "俥五進七");
    CHECK(chinese_of("3k5/9/9/9/9/9/9/9/9/4RK3 w - - 0 1", "e1e5") == "俥五進四");
    // Two chariots on a file: 前 the front one, 後 the rear one; three soldiers 前, 中, 後.
    const char* rooks = "5k3/9/9/9/9/4R4/9/4R4/9/3K5 w - - 0 1";
    CHECK(chinese_of(rooks, "e5c5") == "前俥平七");
    CHECK(chinese_of(rooks, "e3e2") == "後俥退一");
    const char* three = "5k3/9/2P6/2P6/2P6/9/9/9/9/3K5 w - - 0 1";
    CHECK(chinese_of(three, "c8d8") == "前兵平六");
    CHECK(chinese_of(three, "c7d7") == "中兵平六");
    CHECK(chinese_of(three, "c6b6") == "後兵平八");
}

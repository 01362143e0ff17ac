// words.hpp - the words the program prints and writes for colours and results, in one place
// (text for people, keys for JSON), over mktb::Wdl.
#pragma once

#include "mktb/counting.hpp"
#include "mktb/probe.hpp"

#include <string>

namespace mktb::cli {

inline constexpr const char* kColorName[] = { "White", "Black" }; // for people
inline constexpr const char* kColorKey[] = { "white", "black" }; // in JSON

// The languages the words for people come in: English, and Thai (the players' language; the
// page, the API's `lang=th` and the teaching report speak it).
enum class Lang : std::uint8_t { En, Th };
// A text for people in both languages.
struct Said {
    std::string en, th;
    const std::string& in(Lang lang) const { return lang == Lang::Th ? th : en; }
    bool empty() const { return en.empty(); }
};
inline std::string color_name(Color c, Lang lang) {
    return lang == Lang::Th ? (c == WHITE ? "ขาว" : "ดำ") : kColorName[c];
}

constexpr Wdl wdl_of(Value v) {
    return v.is_win() ? Wdl::Win : v.is_loss() ? Wdl::Loss : Wdl::Draw;
}
constexpr Wdl wdl_of(CountedValue::Result r) { return Wdl(int(r)); }

// "win", "draw", "loss": the JSON categories and the CLI's words.
constexpr const char* result_word(Wdl w) {
    return w == Wdl::Win ? "win" : w == Wdl::Loss ? "loss" : "draw";
}
constexpr const char* result_word(Value v) { return result_word(wdl_of(v)); }
constexpr const char* result_word(CountedValue::Result r) { return result_word(wdl_of(r)); }

} // namespace mktb::cli

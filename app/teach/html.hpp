// html.hpp - what both games' teaching reports (report.cpp, xiangqi_report.cpp) write with:
// HTML escaping, files written whole or not at all, figures as people read them.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

namespace mktb::cli {

inline std::string escape(const std::string& text) {
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
inline void write_file(const std::filesystem::path& path, const std::string& content) {
    const std::filesystem::path tmp = path.string() + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary);
        if (!(out << content) || !out.flush())
            throw std::runtime_error("cannot write " + tmp.string());
    }
    std::error_code ec;
    std::filesystem::rename(tmp, path, ec);
    if (ec) throw std::runtime_error("cannot write " + path.string() + ": " + ec.message());
}

// Creates a report's directory; false with the reason printed ("mktb teach: cannot create ...").
inline bool create_report_dir(const std::string& out) {
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (ec || !std::filesystem::is_directory(out)) {
        std::fprintf(stderr, "mktb teach: cannot create %s: %s\n", out.c_str(),
            ec ? ec.message().c_str() : "not a directory");
        return false;
    }
    return true;
}

inline std::string percent(std::uint64_t n, std::uint64_t d) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.2f %%", d ? 100.0 * double(n) / double(d) : 0.0);
    return buffer;
}

inline std::string number(std::uint64_t n) {
    std::string digits = std::to_string(n), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

} // namespace mktb::cli

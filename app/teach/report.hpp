// report.hpp - the teaching report's files: per ending an HTML page, a worksheet and its answer
// key, EPD, PGN, SVG diagrams and a JSON file of every claim; for the whole report an overview of
// every generated ending and the tournament regulation page (docs/rules.md §7).
#pragma once

#include <filesystem>
#include <set>
#include <string>

#include "answer.hpp"
#include "teach/teacher.hpp"

namespace mktb::cli {

// One ending's files: DIR/ENDING.html, .worksheet.html, .answers.html, .epd, .pgn, .json and
// DIR/diagrams/*.svg; the figures the overview shows.
Json write_ending(const Teacher& t, const std::filesystem::path& dir);

// DIR/index.html (every ending in `tables`, the taught ones linked), regulation.html and the
// stylesheet.
void write_overview(const std::filesystem::path& dir, const std::string& tables,
    const std::set<std::string>& taught, const CountRules& rules);

} // namespace mktb::cli

// diagram.hpp - Makruk and Xiangqi diagrams as SVG, drawn by mktb itself: the one board renderer of
// the web page (served as /board.svg) and of printed material. An uncheckered 8x8 board, the six
// Thai men of each side, coordinates, the side to move, marked squares and arrows.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mktb::cli {

struct DiagramOptions {
    bool flip = false; // Black's side at the bottom
    bool coordinates = true;
    int size = 360; // width in CSS pixels (the drawing scales: it has a viewBox)
    std::vector<std::string> marked; // squares to highlight ("e4")
    std::vector<std::pair<std::string, std::string>> arrows; // from, to ("h1", "h8")
    bool letters = false; // Xiangqi: the men's letters (K A E H R C P) for their characters
};

// The diagram of a FEN's board and side to move. Only the placement and the side are read, so
// a position being edited (one king, men on odd squares) draws too. Every square is a <rect>
// with a data-square attribute ("e4") for pages that take clicks. Throws std::invalid_argument
// naming the fault for a malformed placement, square name or side.
std::string board_svg(std::string_view fen, const DiagramOptions& options = {});

// One man alone (FEN letter: K M S N R P, lower case for Black), `size` pixels square: for
// palettes and legends. Throws std::invalid_argument for another letter.
std::string man_svg(char fen_letter, int size = 48);

// Xiangqi: the 9 x 10 points on their lines, the river, the palaces' diagonals, the men round
// with their characters (red and black; `letters`: K A E H R C P) on the points, whose
// <rect data-square> ("e10") takes clicks; marks and arrows as for Makruk. Throws
// std::invalid_argument naming the fault for a malformed placement, point name or side.
std::string xiangqi_board_svg(std::string_view fen, const DiagramOptions& options = {});
std::string xiangqi_man_svg(char fen_letter, bool letters = false, int size = 48);

} // namespace mktb::cli

// diagram.cpp - the SVG board renderer (see diagram.hpp). The men are drawn as Thai sets shape
// them, in a 100 x 100 box per square: Khun tall with a tiered spire, Met small and round-headed,
// Khon with a pointed dome, Ma a horse's head, Ruea a crenellated block, Bia a flat cowrie shell.
#include "diagram.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace mktb::cli {

namespace {

constexpr int kSquare = 100; // one square in drawing units
constexpr int kLeft = 40, kTop = 10, kRight = 40, kBottom = 40; // margins: coordinates, side

// One man: outline elements (drawn in the man's colour) and detail strokes (in the contrast
// colour), all in a 100 x 100 box standing on y = 88.
struct Glyph {
    char letter; // FEN letter of the White man
    const char* name; // for the <title>
    std::vector<const char*> body;
    std::vector<const char*> detail;
};

const std::array<Glyph, 6> kGlyphs { {
    { 'K', "Khun",
        { "<path d='M22 88h56v-8H22z'/>", "<path d='M30 80L36 50H64L70 80Z'/>",
            "<ellipse cx='50' cy='49' rx='19' ry='5'/>", "<path d='M38 44H62L58 34H42Z'/>",
            "<path d='M42 34H58L55 25H45Z'/>", "<path d='M45 25L50 9L55 25Z'/>" },
        { "<path d='M40 66H60'/>" } },
    { 'M', "Met",
        { "<path d='M28 88h44v-8H28z'/>", "<path d='M35 80L40 60H60L65 80Z'/>",
            "<circle cx='50' cy='50' r='11'/>", "<circle cx='50' cy='35' r='4'/>" },
        { "<path d='M43 70H57'/>" } },
    { 'S', "Khon",
        { "<path d='M25 88h50v-8H25z'/>", "<path d='M33 80L37 58H63L67 80Z'/>",
            "<path d='M32 58C30 42 42 34 50 14C58 34 70 42 68 58Z'/>" },
        { "<path d='M38 46H62'/>", "<path d='M42 69H58'/>" } },
    { 'N', "Ma",
        { "<path d='M24 88h52v-8H24z'/>",
            "<path d='M34 80C34 66 40 57 46 51L31 50C26 46 28 39 34 36L48 24L52 13L58 24C70 30 "
            "75 46 72 60C71 70 66 76 66 80Z'/>" },
        { "<circle cx='47' cy='34' r='3'/>", "<path d='M58 30C64 40 66 52 62 64'/>" } },
    { 'R', "Ruea",
        { "<path d='M20 88h60v-8H20z'/>", "<path d='M28 80V44H72V80Z'/>",
            "<path d='M24 44V28H34V36H45V28H55V36H66V28H76V44Z'/>" },
        { "<path d='M36 58H64'/>" } },
    { 'P', "Bia", { "<ellipse cx='50' cy='70' rx='24' ry='14'/>" },
        { "<path d='M34 71Q50 62 66 71'/>" } },
} };

const Glyph* glyph_of(char fen_letter) {
    const char upper = fen_letter >= 'a' ? char(fen_letter - 'a' + 'A') : fen_letter;
    for (const Glyph& g : kGlyphs)
        if (g.letter == upper) return &g;
    return nullptr;
}

// The board of a game as the diagrams read it: its size, what its places are called, and the
// letters of its men.
struct Geometry {
    int files, ranks;
    const char* place; // "square" or "point"
    const char* men; // the fault's words for a letter that is no man
    const char* white; // the side to move's letter, as the fault names it
    bool (*is_man)(char);
    bool tilde; // "M~": Makruk's promoted Bia, drawn as a Met
};

// "e4" -> file 4, rank 3 (Xiangqi's "e10" -> file 4, rank 9).
std::pair<int, int> parse_square(const std::string& name, const Geometry& g) {
    if (name.size() >= 2 && name[0] >= 'a' && name[0] < 'a' + g.files && name[1] != '0'
        && std::all_of(name.begin() + 1, name.end(), [](char c) { return c >= '0' && c <= '9'; })
        && name.size() <= 3) {
        const int rank = std::stoi(name.substr(1));
        if (rank <= g.ranks) return { name[0] - 'a', rank - 1 };
    }
    throw std::invalid_argument("'" + name + "' is not a " + g.place + " (a1 to "
        + char('a' + g.files - 1) + std::to_string(g.ranks) + ")");
}

// A FEN's placement and side to move: men[rank * files + file] (0: empty; rank 0 White's or
// Red's back rank). Only these are read, so a position being edited draws too.
struct Board {
    std::vector<char> men;
    bool blackToMove = false;
};
Board read_board(std::string_view fen, const Geometry& g) {
    Board b { std::vector<char>(std::size_t(g.files * g.ranks)), false };
    const std::string_view placement = fen.substr(0, fen.find(' '));
    const std::string places = std::string(g.place) + "s";
    int rank = g.ranks - 1, file = 0;
    for (std::size_t i = 0; i < placement.size(); ++i) {
        const char c = placement[i];
        if (c == '/') {
            if (file != g.files || rank == 0)
                throw std::invalid_argument("rank " + std::to_string(rank + 1)
                    + " of the board does not have " + std::to_string(g.files) + " " + places);
            --rank, file = 0;
        } else if (c >= '1' && c <= '0' + g.files) {
            file += c - '0';
        } else if (g.is_man(c)) {
            if (file < g.files) b.men[std::size_t(rank * g.files + file)] = c;
            ++file;
        } else if (!(g.tilde && c == '~' && i
                       && (placement[i - 1] == 'M' || placement[i - 1] == 'm'))) {
            throw std::invalid_argument(std::string("'") + c + "' is not " + g.men + " or a digit");
        }
        if (file > g.files)
            throw std::invalid_argument("rank " + std::to_string(rank + 1)
                + " of the board has more than " + std::to_string(g.files) + " " + places);
    }
    if (rank != 0 || file != g.files)
        throw std::invalid_argument("the board does not have " + std::to_string(g.ranks)
            + " ranks of " + std::to_string(g.files));
    if (const std::size_t space = fen.find(' '); space != std::string_view::npos) {
        const std::string_view side = fen.substr(space + 1, fen.find(' ', space + 1) - space - 1);
        if (side != "w" && side != "b")
            throw std::invalid_argument("the side to move is " + std::string(g.white)
                + " or b, not '" + std::string(side) + "'");
        b.blackToMove = side == "b";
    }
    return b;
}

// An arrow from (x0, y0) to (x1, y1), centre to centre: a shaft and a head as one polygon.
void draw_arrow(std::ostream& svg, double x0, double y0, double x1, double y1) {
    const double len = std::hypot(x1 - x0, y1 - y0);
    if (len == 0) return;
    const double dx = (x1 - x0) / len, dy = (y1 - y0) / len, nx = -dy, ny = dx;
    const double shaft = 8, head = 22, headLen = 36, base = len - headLen;
    const double pts[][2] = { { x0 + nx * shaft, y0 + ny * shaft },
        { x0 + dx * base + nx * shaft, y0 + dy * base + ny * shaft },
        { x0 + dx * base + nx * head, y0 + dy * base + ny * head }, { x1, y1 },
        { x0 + dx * base - nx * head, y0 + dy * base - ny * head },
        { x0 + dx * base - nx * shaft, y0 + dy * base - ny * shaft },
        { x0 - nx * shaft, y0 - ny * shaft } };
    svg << "<polygon class='arrow' fill='#1f8a3a' fill-opacity='0.75' points='";
    for (const auto& p : pts) svg << std::lround(p[0]) << ',' << std::lround(p[1]) << ' ';
    svg << "'/>";
}

// The <g> drawing man `c` (a valid FEN letter) at (x, y).
void draw_man(std::ostream& svg, char c, int x, int y) {
    const bool white = c < 'a';
    const Glyph& g = *glyph_of(c);
    svg << "<g class='man' transform='translate(" << x << ' ' << y << ")' fill='"
        << (white ? "#fbf8ef" : "#262626")
        << "' stroke='#1d1d1d' stroke-width='3' stroke-linejoin='round'><title>"
        << (white ? "White " : "Black ") << g.name << "</title>";
    for (const char* e : g.body) svg << e;
    svg << "<g fill='none' stroke='" << (white ? "#1d1d1d" : "#e8e2d0") << "'>";
    for (const char* e : g.detail) svg << e;
    svg << "</g></g>";
}

} // namespace

std::string man_svg(char fen_letter, int size) {
    if (!glyph_of(fen_letter))
        throw std::invalid_argument(std::string("'") + fen_letter
            + "' is not a man (K M S N R P, "
              "lower case for Black)");
    std::ostringstream svg;
    svg << "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100' width='" << size
        << "' height='" << size << "' role='img'>";
    draw_man(svg, fen_letter, 0, 0);
    svg << "</svg>";
    return svg.str();
}

const Geometry kMakruk { 8, 8, "square", "a man (K M S N R P, lower case for Black)", "w",
    [](char c) { return glyph_of(c) != nullptr; }, true };

std::string board_svg(std::string_view fen, const DiagramOptions& options) {
    const Board b = read_board(fen, kMakruk);
    const bool blackToMove = b.blackToMove;

    // Drawing units to screen: column and row of a square as seen.
    auto col = [&](int f) { return options.flip ? 7 - f : f; };
    auto row = [&](int r) { return options.flip ? r : 7 - r; };
    auto x_of = [&](int f) { return kLeft + col(f) * kSquare; };
    auto y_of = [&](int r) { return kTop + row(r) * kSquare; };

    const int width = kLeft + 8 * kSquare + kRight, height = kTop + 8 * kSquare + kBottom;
    std::ostringstream svg;
    svg << "<svg xmlns='http://www.w3.org/2000/svg' class='mktb-board' viewBox='0 0 " << width
        << ' ' << height << "' width='" << options.size << "' height='"
        << options.size * height / width << "' role='img'>"
        << "<title>Makruk position, " << (blackToMove ? "Black" : "White") << " to move</title>";
    // The uncheckered board: one colour, lines between the squares.
    svg << "<rect x='" << kLeft << "' y='" << kTop << "' width='" << 8 * kSquare << "' height='"
        << 8 * kSquare << "' fill='#e9c98b'/>";
    for (int r = 0; r < 8; ++r)
        for (int f = 0; f < 8; ++f) {
            const std::string name { char('a' + f), char('1' + r) };
            bool marked = false;
            for (const std::string& m : options.marked)
                marked |= parse_square(m, kMakruk) == std::pair(f, r);
            svg << "<rect data-square='" << name << "' x='" << x_of(f) << "' y='" << y_of(r)
                << "' width='" << kSquare << "' height='" << kSquare << "' fill='"
                << (marked ? "#f4e04d" : "#e9c98b") << "' stroke='#5b3a1a' stroke-width='3'/>";
        }
    svg << "<rect x='" << kLeft << "' y='" << kTop << "' width='" << 8 * kSquare << "' height='"
        << 8 * kSquare << "' fill='none' stroke='#3b250f' stroke-width='8'/>";
    if (options.coordinates) {
        svg << "<g font-family='sans-serif' font-size='28' fill='#333' text-anchor='middle'>";
        for (int i = 0; i < 8; ++i) {
            svg << "<text x='" << x_of(i) + kSquare / 2 << "' y='" << kTop + 8 * kSquare + 32
                << "'>" << char('a' + i) << "</text>";
            svg << "<text x='" << kLeft / 2 << "' y='" << y_of(i) + kSquare / 2 + 10 << "'>"
                << char('1' + i) << "</text>";
        }
        svg << "</g>";
    }
    // The side to move: a disc of its colour beside its own edge of the board.
    const bool moverAtBottom = blackToMove == options.flip;
    svg << "<circle class='side-to-move' cx='" << kLeft + 8 * kSquare + kRight / 2 << "' cy='"
        << (moverAtBottom ? kTop + 8 * kSquare - 20 : kTop + 20) << "' r='13' fill='"
        << (blackToMove ? "#262626" : "#fbf8ef") << "' stroke='#1d1d1d' stroke-width='3'><title>"
        << (blackToMove ? "Black" : "White") << " to move</title></circle>";
    // The men.
    for (int r = 0; r < 8; ++r)
        for (int f = 0; f < 8; ++f) {
            const char c = b.men[std::size_t(r * 8 + f)];
            if (!c) continue;
            draw_man(svg, c, x_of(f), y_of(r));
        }
    // Arrows, centre to centre: a shaft and a head as one polygon.
    for (const auto& [from, to] : options.arrows) {
        const auto [f0, r0] = parse_square(from, kMakruk);
        const auto [f1, r1] = parse_square(to, kMakruk);
        draw_arrow(svg, x_of(f0) + kSquare / 2.0, y_of(r0) + kSquare / 2.0,
            x_of(f1) + kSquare / 2.0, y_of(r1) + kSquare / 2.0);
    }
    svg << "</svg>";
    return svg.str();
}

} // namespace mktb::cli

namespace mktb::cli {

namespace {

// Xiangqi: the men as players draw them, round with their character, red and black.
struct XiangqiGlyph {
    char letter; // Fairy-Stockfish's FEN letter
    const char *red, *black, *name;
};
constexpr XiangqiGlyph kXiangqiGlyphs[] = { { 'K', "帥", "將", "general" },
    { 'A', "仕", "士", "advisor" }, { 'B', "相", "象", "elephant" }, { 'N', "傌", "馬", "horse" },
    { 'R', "俥", "車", "chariot" }, { 'C', "炮", "砲", "cannon" }, { 'P', "兵", "卒", "soldier" } };

const XiangqiGlyph* xiangqi_glyph_of(char c) {
    char upper = c >= 'a' ? char(c - 'a' + 'A') : c;
    if (upper == 'E') upper = 'B'; // the FEN parser takes E and H too
    if (upper == 'H') upper = 'N';
    for (const XiangqiGlyph& g : kXiangqiGlyphs)
        if (g.letter == upper) return &g;
    return nullptr;
}

constexpr int kPoint = 100; // the distance between two lines
constexpr int kXLeft = 70, kXTop = 60; // the first line's position (coordinates outside)

const Geometry kXiangqi { 9, 10, "point", "a Xiangqi man (K A B N R C P, lower case for Black)",
    "w (Red)", [](char c) { return xiangqi_glyph_of(c) != nullptr; }, false };

} // namespace

void draw_xiangqi_man(std::ostream& svg, char c, int x, int y, bool letters) {
    const bool red = c < 'a';
    const XiangqiGlyph& g = *xiangqi_glyph_of(c);
    const char* ink = red ? "#c0181f" : "#1d1d1d";
    svg << "<g class='man' transform='translate(" << x << ' ' << y << ")'><title>"
        << (red ? "Red " : "Black ") << g.name << "</title><circle r='44' fill='#f6e3bd' stroke='"
        << ink << "' stroke-width='4'/><circle r='36' fill='none' stroke='" << ink
        << "' stroke-width='2'/><text y='17' font-size='" << (letters ? 46 : 48)
        << "' text-anchor='middle' font-family='" << (letters ? "sans-serif" : "serif")
        << "' font-weight='bold' fill='" << ink << "'>";
    if (letters)
        svg << (g.letter == 'B' ? 'E' : g.letter == 'N' ? 'H' : g.letter); // WXF's letters
    else
        svg << (red ? g.red : g.black);
    svg << "</text></g>";
}

std::string xiangqi_board_svg(std::string_view fen, const DiagramOptions& options) {
    const Board b = read_board(fen, kXiangqi);
    const bool blackToMove = b.blackToMove;
    auto x_of = [&](int f) { return kXLeft + (options.flip ? 8 - f : f) * kPoint; };
    auto y_of = [&](int r) { return kXTop + (options.flip ? r : 9 - r) * kPoint; };
    const int width = 2 * kXLeft + 8 * kPoint + 40, height = 2 * kXTop + 9 * kPoint;
    std::ostringstream svg;
    svg << "<svg xmlns='http://www.w3.org/2000/svg' class='mktb-board xiangqi' viewBox='0 0 "
        << width << ' ' << height << "' width='" << options.size << "' height='"
        << options.size * height / width << "' role='img'><title>Xiangqi position, "
        << (blackToMove ? "Black" : "Red") << " to move</title>";
    svg << "<rect x='0' y='0' width='" << width << "' height='" << height << "' fill='#ecc987'/>";
    // Every point is a target for clicks (drawn first, under the lines and the men).
    for (int r = 0; r < 10; ++r)
        for (int f = 0; f < 9; ++f) {
            bool marked = false;
            for (const std::string& m : options.marked)
                marked |= parse_square(m, kXiangqi) == std::pair(f, r);
            svg << "<rect data-square='" << char('a' + f) << r + 1 << "' x='"
                << x_of(f) - kPoint / 2 << "' y='" << y_of(r) - kPoint / 2 << "' width='" << kPoint
                << "' height='" << kPoint << "' fill='" << (marked ? "#f4e04d" : "#ecc987")
                << "'/>";
        }
    // The drawing over the points takes no clicks: a line or a letter is not a target.
    svg << "<g stroke='#5b3a1a' stroke-width='3' fill='none' pointer-events='none'>";
    for (int r = 0; r < 10; ++r) // the ranks
        svg << "<line x1='" << x_of(0) << "' y1='" << y_of(r) << "' x2='" << x_of(8) << "' y2='"
            << y_of(r) << "'/>";
    for (int f = 0; f < 9; ++f) { // the files: the inner ones stop at the river
        const bool edge = f == 0 || f == 8;
        svg << "<line x1='" << x_of(f) << "' y1='" << y_of(0) << "' x2='" << x_of(f) << "' y2='"
            << y_of(edge ? 9 : 4) << "'/>";
        if (!edge)
            svg << "<line x1='" << x_of(f) << "' y1='" << y_of(5) << "' x2='" << x_of(f) << "' y2='"
                << y_of(9) << "'/>";
    }
    for (int r : { 0, 7 }) // the palaces' diagonals
        svg << "<line x1='" << x_of(3) << "' y1='" << y_of(r) << "' x2='" << x_of(5) << "' y2='"
            << y_of(r + 2) << "'/><line x1='" << x_of(5) << "' y1='" << y_of(r) << "' x2='"
            << x_of(3) << "' y2='" << y_of(r + 2) << "'/>";
    svg << "<rect x='" << x_of(0) - 12 << "' y='" << y_of(9) - 12 << "' width='" << 8 * kPoint + 24
        << "' height='" << 9 * kPoint + 24 << "' stroke-width='6'/></g>";
    // The river.
    svg << "<g font-family='serif' font-size='44' fill='#7a5426' text-anchor='middle' "
           "pointer-events='none'><text x='"
        << x_of(options.flip ? 6 : 2) << "' y='" << (y_of(4) + y_of(5)) / 2 + 15
        << "'>楚 河</text><text x='" << x_of(options.flip ? 2 : 6) << "' y='"
        << (y_of(4) + y_of(5)) / 2 + 15 << "'>漢 界</text></g>";
    if (options.coordinates) {
        svg << "<g font-family='sans-serif' font-size='26' fill='#333' text-anchor='middle' "
               "pointer-events='none'>";
        for (int f = 0; f < 9; ++f)
            svg << "<text x='" << x_of(f) << "' y='" << height - 8 << "'>" << char('a' + f)
                << "</text>";
        for (int r = 0; r < 10; ++r)
            svg << "<text x='24' y='" << y_of(r) + 9 << "'>" << r + 1 << "</text>";
        svg << "</g>";
    }
    const bool moverAtBottom = blackToMove == options.flip;
    svg << "<circle class='side-to-move' cx='" << width - 22 << "' cy='"
        << (moverAtBottom ? y_of(options.flip ? 9 : 0) : y_of(options.flip ? 0 : 9))
        << "' r='13' fill='" << (blackToMove ? "#262626" : "#c0181f")
        << "' stroke='#1d1d1d' stroke-width='3'><title>" << (blackToMove ? "Black" : "Red")
        << " to move</title></circle>";
    for (int r = 0; r < 10; ++r)
        for (int f = 0; f < 9; ++f)
            if (const char c = b.men[std::size_t(r * 9 + f)])
                draw_xiangqi_man(svg, c, x_of(f), y_of(r), options.letters);
    for (const auto& [from, to] : options.arrows) {
        const auto [f0, r0] = parse_square(from, kXiangqi);
        const auto [f1, r1] = parse_square(to, kXiangqi);
        draw_arrow(svg, x_of(f0), y_of(r0), x_of(f1), y_of(r1));
    }
    svg << "</svg>";
    return svg.str();
}

std::string xiangqi_man_svg(char fen_letter, bool letters, int size) {
    if (!xiangqi_glyph_of(fen_letter))
        throw std::invalid_argument(std::string("'") + fen_letter
            + "' is not a Xiangqi man (K A B N R C P, lower case for Black)");
    std::ostringstream svg;
    svg << "<svg xmlns='http://www.w3.org/2000/svg' viewBox='-50 -50 100 100' width='" << size
        << "' height='" << size << "'>";
    draw_xiangqi_man(svg, fen_letter, 0, 0, letters);
    svg << "</svg>";
    return svg.str();
}

} // namespace mktb::cli

// mktb/value.hpp - the value of a position for the side to move, as tables store it, and its
// conversions to what users read ("mate in N moves").
//
// A cell holds 0 for a draw, or plies + 1 where plies is the distance to mate in half-moves:
// odd plies = the side to move mates, even plies = the side to move is mated (0 = mated now).
// Stalemate is a draw. Cells are 8 bits when every distance fits (plies <= 253), else 16 bits.
#pragma once

#include <cstdint>
#include <string>

namespace mktb {

struct Value {
    // -1 = draw, else plies to mate (odd: side to move wins, even: side to move loses).
    int plies = -1;

    static constexpr Value draw() { return {}; }
    static constexpr Value mate_in_plies(int p) { return { p }; }
    static constexpr Value from_cell(unsigned cell) { return { int(cell) - 1 }; }
    constexpr unsigned cell() const { return unsigned(plies + 1); }

    constexpr bool is_draw() const { return plies < 0; }
    constexpr bool is_win() const { return plies >= 0 && (plies & 1); }
    constexpr bool is_loss() const { return plies >= 0 && !(plies & 1); }
    // Signed moves as engines print mate scores: +N = the side to move mates in N moves,
    // -N = it is mated in N moves (-0 is written 0: mated now), 0 for a draw.
    constexpr int mate_in_moves() const {
        return is_win() ? (plies + 1) / 2 : is_loss() ? -(plies / 2) : 0;
    }
    // The value one ply earlier, for the side that moved into this position.
    constexpr Value parent() const { return is_draw() ? draw() : Value { plies + 1 }; }

    bool operator==(const Value&) const = default;
};

// Ordering from the side to move's view: any win beats a draw beats any loss; faster wins and
// slower losses are better. preference() is that order as an integer (a best move is a max),
// and from_preference() its inverse.
constexpr int preference(Value v) {
    return v.is_win() ? 1'000'000 - v.plies : v.is_loss() ? -1'000'000 + v.plies : 0;
}
constexpr Value from_preference(int p) {
    return p > 0 ? Value::mate_in_plies(1'000'000 - p)
        : p < 0  ? Value::mate_in_plies(p + 1'000'000)
                 : Value::draw();
}
constexpr bool better(Value a, Value b) { return preference(a) > preference(b); }

std::string describe(Value v); // "mate in 12", "mated in 3", "checkmated", "draw"

} // namespace mktb

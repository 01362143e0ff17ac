// cmd_perft.cpp - `mktb perft "<FEN>" DEPTH [--divide]`: the node count alone on the last line;
// with --divide, one "move: count" line per legal move first (Fairy-Stockfish's format).
#include <charconv>
#include <cstdio>
#include <string>

#include "cli.hpp"
#include "mktb/movegen.hpp"
#include "mktb/xiangqi/position.hpp"

namespace mktb::cli {

namespace {

// Perft of either game's position type (both have legal_moves, do/undo and perft).
template<class Pos>
std::uint64_t count_leaves(Pos& pos, int depth, bool divide) {
    if (!divide || depth == 0) return perft(pos, depth);
    std::uint64_t total = 0;
    for (auto m : legal_moves(pos)) {
        const auto u = pos.do_move(m);
        const std::uint64_t n = perft(pos, depth - 1);
        pos.undo_move(m, u);
        std::printf("%s: %llu\n", move_to_uci(m).c_str(), (unsigned long long)n);
        total += n;
    }
    std::printf("\n");
    return total;
}

int perft_command(const Args& a) {
    if (a.operands().size() < 2) return usage_error(a, "give a FEN and a depth");
    const std::string_view fen = a.operands()[0], depthText = a.operands()[1];
    const bool divide = a.flag("--divide");
    int depth = -1;
    auto [p, ec] = std::from_chars(depthText.data(), depthText.data() + depthText.size(), depth);
    if (ec != std::errc() || p != depthText.data() + depthText.size() || depth < 0 || depth > 20) {
        std::fprintf(stderr, "mktb perft: depth '%s' is not a number from 0 to 20\n",
            std::string(depthText).c_str());
        return kExitBadInput;
    }
    // The game is the FEN's: ten ranks are Xiangqi ("startpos" is Makruk's start).
    const bool xiangqi = fen != "startpos" && xq::Position::is_xiangqi_fen(fen);
    std::uint64_t total = 0;
    try {
        if (xiangqi) {
            xq::Position pos = xq::Position::from_fen(fen);
            total = count_leaves(pos, depth, divide);
        } else {
            Position pos = Position::from_fen(fen == "startpos" ? kStartFen : fen);
            total = count_leaves(pos, depth, divide);
        }
    } catch (const FenError& e) {
        std::fprintf(
            stderr, "mktb perft: bad %s FEN: %s\n", xiangqi ? "Xiangqi" : "Makruk", e.what());
        return kExitBadInput;
    }
    std::printf("%llu\n", (unsigned long long)total);
    return kExitOk;
}

} // namespace

const Command kPerftCommand {
    .name = "perft",
    .usage = "\"<FEN>\" DEPTH [--divide]",
    .summary = "count the leaves of the legal move tree, Makruk or Xiangqi (a FEN of\nten "
               "ranks)\n(FEN may be \"startpos\", Makruk's)",
    .options
    = { { "--divide", "", "one line per legal move first: its leaves", Option::Kind::Flag } },
    .run = perft_command,
    .operands = 2,
    .operand = "quote the FEN",
};

} // namespace mktb::cli

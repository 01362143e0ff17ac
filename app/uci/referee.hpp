// referee.hpp - a game's board as `mktb match` referees it, one class per game: the moves the
// engines send played and written as that game's players write them, and the end of the game
// adjudicated by its rules. Makruk: mate, stalemate (a draw), bare kings, the count running
// out, threefold repetition. Xiangqi (docs/rules-xiangqi.md): no legal move loses (mate or
// stalemate); a position seen a third time ends the game, lost by the side that gave check on
// every one of its moves since the position's last occurrence while the other did not
// (perpetual check), else drawn. Both: a draw at the move limit.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mktb/counting.hpp"
#include "mktb/position.hpp"
#include "mktb/xiangqi/position.hpp"

namespace mktb::cli {

struct GameEnd {
    std::string result; // "1-0", "0-1", "1/2-1/2"
    std::string termination; // "checkmate", "perpetual check by Red", ...
};

class Referee {
public:
    virtual ~Referee() = default;
    // The referee of `fen`'s game (a ten-rank FEN is Xiangqi's); throws FenError.
    static std::unique_ptr<Referee> of(const std::string& fen, const CountRules& rules);

    virtual const char* variant() const = 0; // UCI_Variant and PGN's Variant
    virtual Color side_to_move() const = 0;
    virtual int fullmove() const = 0;
    // How the game has ended before the side to move moves, or nullopt while it goes on.
    virtual std::optional<GameEnd> ended() const = 0;
    // Plays a UCI move of the side to move: its text for the movetext (with any comment the
    // rules call for), or nullopt when it is not a legal move.
    virtual std::optional<std::string> play(const std::string& uci) = 0;
};

class XiangqiReferee final : public Referee {
public:
    explicit XiangqiReferee(const std::string& fen);
    const char* variant() const override { return "xiangqi"; }
    Color side_to_move() const override { return pos_.side_to_move(); }
    int fullmove() const override { return 1; }
    std::optional<GameEnd> ended() const override;
    std::optional<std::string> play(const std::string& uci) override;

private:
    static std::string key(const xq::Position& pos);
    xq::Position pos_;
    std::vector<std::string> keys_; // every position of the game, the current one last
    std::vector<bool> checks_; // checks_[i]: the move from position i gave check
};

} // namespace mktb::cli

// referee.cpp - the referees of `mktb match` (referee.hpp): Makruk's with the count, Xiangqi's
// with the perpetual-check rule.
#include "uci/referee.hpp"

#include "answer.hpp"
#include "mktb/movegen.hpp"
#include "notation.hpp"

namespace mktb::cli {

namespace {

std::string winner_of(Color c) { return c == WHITE ? "1-0" : "0-1"; }

class MakrukReferee final : public Referee {
public:
    MakrukReferee(const std::string& fen, const CountRules& rules)
        : pos_(Position::from_fen(fen))
        , rules_(rules) {
        count_to_follow("", pos_, rules_, count_);
        pos_.set_count_state(count_);
        number_ = pos_.fullmove();
    }
    const char* variant() const override { return "makruk"; }
    Color side_to_move() const override { return pos_.side_to_move(); }
    int fullmove() const override { return number_; }

    std::optional<GameEnd> ended() const override {
        const Color stm = pos_.side_to_move();
        if (is_checkmate(pos_)) return GameEnd { winner_of(~stm), "checkmate" };
        if (is_stalemate(pos_)) return GameEnd { "1/2-1/2", "stalemate" };
        if (count_phase(pos_) == CountPhase::BareKings) return GameEnd { "1/2-1/2", "bare kings" };
        if (count_.limit && count_.ply > count_.limit)
            return GameEnd { "1/2-1/2", "the count ran out" };
        const auto it = seen_.find(key());
        if (it != seen_.end() && it->second >= 3)
            return GameEnd { "1/2-1/2", "threefold repetition" };
        return std::nullopt;
    }

    std::optional<std::string> play(const std::string& uci) override {
        if (seen_.empty()) ++seen_[key()];
        const Move m = parse_uci_move(pos_, uci);
        if (m == MOVE_NONE) return std::nullopt;
        const Color stm = pos_.side_to_move();
        std::string text = san(pos_, m);
        Position next = pos_;
        next.do_move(m);
        count_ = count_after_move(pos_, next, count_, rules_);
        next.set_count_state(count_);
        if (announces_count(next, stm, count_))
            text += " {count " + std::to_string((count_.ply + 1) / 2) + " of "
                + std::to_string(count_.limit / 2)
                + (count_has_ended(count_) && !is_checkmate(next) ? ": the count has run out" : "")
                + "}";
        if (stm == BLACK) ++number_;
        pos_ = next;
        ++seen_[key()];
        return text;
    }

private:
    // The board and the side to move: what threefold repetition compares.
    std::string key() const {
        const std::string fen = pos_.fen();
        return fen.substr(0, fen.find(' ', fen.find(' ') + 1));
    }
    Position pos_;
    CountRules rules_;
    CountState count_;
    int number_ = 1;
    std::map<std::string, int> seen_;
};

} // namespace

std::unique_ptr<Referee> Referee::of(const std::string& fen, const CountRules& rules) {
    if (xq::Position::is_xiangqi_fen(fen)) return std::make_unique<XiangqiReferee>(fen);
    return std::make_unique<MakrukReferee>(fen, rules);
}

XiangqiReferee::XiangqiReferee(const std::string& fen)
    : pos_(xq::Position::from_fen(fen)) {
    keys_.push_back(key(pos_));
}

std::string XiangqiReferee::key(const xq::Position& pos) {
    const std::string fen = pos.fen();
    return fen.substr(0, fen.find(' ', fen.find(' ') + 1));
}

std::optional<GameEnd> XiangqiReferee::ended() const {
    const Color stm = pos_.side_to_move();
    if (!xq::has_legal_move(pos_))
        return GameEnd { winner_of(~stm), pos_.in_check() ? "checkmate" : "stalemate" };
    const std::size_t now = keys_.size() - 1;
    int seen = 0;
    std::size_t last = now; // the position's occurrence before this one
    for (std::size_t i = now + 1; i-- > 0;)
        if (keys_[i] == keys_[now] && ++seen == 2) last = i;
    if (seen < 3) return std::nullopt;
    // The moves since the last occurrence: move i was made by the side to move of position i,
    // which alternates from `stm` at `now`.
    bool checked[COLOR_NB] = { true, true };
    for (std::size_t i = last; i < now; ++i) {
        const Color mover = (now - i) % 2 ? ~stm : stm;
        checked[mover] = checked[mover] && checks_[i];
    }
    if (checked[WHITE] != checked[BLACK]) {
        const Color checker = checked[WHITE] ? WHITE : BLACK;
        return GameEnd { winner_of(~checker),
            std::string("perpetual check by ") + (checker == WHITE ? "Red" : "Black") };
    }
    return GameEnd { "1/2-1/2", "threefold repetition" };
}

std::optional<std::string> XiangqiReferee::play(const std::string& uci) {
    const xq::Move m = xq::parse_uci_move(pos_, uci);
    if (m == xq::MOVE_NONE) return std::nullopt;
    std::string text = wxf(pos_, m);
    pos_.do_move(m);
    checks_.push_back(pos_.in_check());
    keys_.push_back(key(pos_));
    return text;
}

} // namespace mktb::cli

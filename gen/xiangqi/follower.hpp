// follower.hpp - the board of the slots a loop walks in order, carried from slot to slot: the
// generator's init and the verifier walk every slot, and consecutive ones differ in a man or two.
#pragma once

#include "mktb/xiangqi/index.hpp"
#include "mktb/xiangqi/position.hpp"

namespace mktb::xq {

// The board of the slots a loop walks in order: consecutive slots differ in a man or two (the
// innermost group's), so only those are lifted and put down again.
class BoardFollower {
public:
    explicit BoardFollower(const Index& index)
        : index_(index) { }
    const Position& follow(const Placement& pl) {
        if (!built_)
            pos_ = index_.position(pl, RED), built_ = true;
        else {
            for (int j = 0; j < index_.men(); ++j)
                if (pl.at[j] != prev_.at[j]) pos_.remove_piece(prev_.at[j]);
            for (int j = 0; j < index_.men(); ++j)
                if (pl.at[j] != prev_.at[j]) pos_.put_piece(index_.piece(j), pl.at[j]);
        }
        prev_ = pl;
        return pos_;
    }
    Position& position() { return pos_; }

private:
    const Index& index_;
    Position pos_;
    Placement prev_;
    bool built_ = false;
};

} // namespace mktb::xq

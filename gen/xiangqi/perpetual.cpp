// perpetual.cpp - the perpetual-check pass on a table's cells: the game graph of an ending's
// index (its moves from the generator's move loops, its un-moves for the parents) that
// RulePass (perpetual.hpp) works on.
#include "perpetual.hpp"

#include "moves.hpp"

namespace mktb::xq {

namespace {

class BoardGraph {
public:
    BoardGraph(const Index& index, const Captures& captures, const std::uint8_t* const plain[2])
        : index_(index)
        , captures_(captures)
        , plain_ { plain[RED], plain[BLACK] } { }
    std::uint64_t size() const { return index_.size(); }
    const std::uint8_t* plain(Color s) const { return plain_[s]; }

    // Walks slots with the board carried from one to the next.
    class Walker {
    public:
        explicit Walker(const BoardGraph& g)
            : g_(g)
            , board_(g.index_) { }
        bool in_check(Color s, std::uint64_t slot) {
            if (g_.plain_[s][slot] == kNone) return false;
            return at(slot).in_check(s);
        }
        // With `labels` (under asian), each quiet move's chase (chased_kinds).
        template<class F>
        void edges(Color s, std::uint64_t slot, bool labels, F&& f) {
            Position& pos = at(slot);
            pos.set_side_to_move(s);
            const Index& index = g_.index_;
            const Index::Mover from(index, slot, pl_);
            for_each_legal(index, pl_, pos, s, pos.in_check(s), [&](int man, int to, int victim) {
                if (victim >= 0) {
                    const Tablebase::Rule r = g_.captures_.rule(pl_, man, to, victim, s);
                    f(Edge { false, 0, r.result, 0, r.plies });
                    return;
                }
                bool mirrored;
                const std::uint8_t chase = labels
                    ? std::uint8_t(chased_kinds(pos, make_move(pl_.at[man], to)))
                    : std::uint8_t(0);
                f(Edge { true, from.moved(man, to, &mirrored), 0, chase });
            });
        }

    private:
        Position& at(std::uint64_t slot) {
            if (slot != slot_) {
                g_.index_.decode(slot, pl_);
                board_.follow(pl_);
                slot_ = slot;
            }
            return board_.position();
        }
        const BoardGraph& g_;
        BoardFollower board_;
        Placement pl_;
        std::uint64_t slot_ = ~std::uint64_t(0);
    };
    Walker walker() const { return Walker(*this); }

    template<class F>
    void parents(Color s, std::uint64_t slot, F&& f) const {
        Placement pl;
        Points occupied;
        index_.decode(slot, pl, &occupied);
        const Index::Mover at(index_, slot, pl);
        for_each_unmove(index_, at, pl, occupied, ~s, [&](std::uint64_t q, bool, bool) { f(q); });
    }

private:
    const Index& index_;
    const Captures& captures_;
    const std::uint8_t* plain_[COLOR_NB];
};

} // namespace

RuleCounts perpetual_check(const Index& index, const Captures& captures,
    const std::uint8_t* const plain[COLOR_NB], std::uint8_t* const rule[COLOR_NB],
    std::uint16_t* const plies[COLOR_NB], Progress* progress, bool chase) {
    if (progress) progress->phase("perpetual check", 0);
    const BoardGraph graph(index, captures, plain);
    // Under asian, the kinds of each side's men that a move may chase (not the king).
    std::array<std::uint8_t, COLOR_NB> chaseable {};
    if (chase)
        for (Color c : { RED, BLACK })
            for (int pt = ADVISOR; pt < PIECE_TYPE_NB; ++pt)
                if (index.material().count[c][pt]) chaseable[c] |= std::uint8_t(1u << pt);
    return RulePass(graph, rule, plies, chaseable).run(progress);
}

} // namespace mktb::xq

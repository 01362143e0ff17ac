// test_perpetual.cpp - the perpetual-check pass (gen/xiangqi/perpetual.hpp) on game graphs drawn
// by hand, each the smallest picture of a case of docs/rules-xiangqi.md §5: the side that can
// hold only by checking forever loses; a mutual perpetual check is drawn; a side whose opponent
// checks on some moves of the cycle, not all, still loses; a side with one quiet way out draws;
// a loss that the rule decides spreads to the positions that must enter it, and opens the
// next round. The same template runs on a table's cells (test_xiangqi_tables.cpp).
#include <catch2/catch.hpp>

#include <map>
#include <string>
#include <vector>

#include "xiangqi/perpetual.hpp"

namespace xq = mktb::xq;
using mktb::BLACK;
using mktb::Color;
using xq::RED;

namespace {

// Cells named "r..." (Red to move) or "b..." (Black to move); a name ending in '+' is in check,
// so a move into it is a check. Every cell is a plain draw; every position of the graph is
// named as the start of a move list, even an empty one. A move to "red wins" or "black
// wins" leaves the graph for a decided position (a capture into a smaller table, say).
class Graph {
public:
    Graph(std::initializer_list<std::pair<const char*, std::vector<const char*>>> moves) {
        for (const auto& [from, to] : moves) slot(from);
        for (const auto& [from, to] : moves)
            for (const char* t : to) edges_[key(from)].push_back(t);
        // Slots past a side's cells are no position (the sides may have different numbers).
        for (Color s : { RED, BLACK }) {
            plain_[s].assign(size(), 0xFF);
            std::fill_n(plain_[s].begin(), names_[s].size(), 0);
        }
    }
    std::uint64_t size() const { return std::max(names_[RED].size(), names_[BLACK].size()); }
    const std::uint8_t* plain(Color s) const { return plain_[s].data(); }

    struct Walker {
        const Graph& g;
        bool in_check(Color s, std::uint64_t slot) const {
            return slot < g.names_[s].size() && g.names_[s][slot].back() == '+';
        }
        template<class F>
        void edges(Color s, std::uint64_t slot, bool labels, F&& f) const {
            const auto it = g.edges_.find(g.names_[s][slot]);
            if (it == g.edges_.end()) return;
            for (const std::string& to : it->second) {
                if (to.starts_with("red wins") || to.starts_with("black wins")) {
                    // "red wins@3": won for Red by the rule, at 3 plies (its side to move's).
                    const auto at = to.find('@');
                    f(xq::Edge { false, 0, to.starts_with("red wins") == (s == RED) ? -1 : 1, 0,
                        at == std::string::npos ? -1 : std::stoi(to.substr(at + 1)) });
                } else
                    f(xq::Edge {
                        true, g.slot_of(cell(to)), 0, labels ? chased(to) : std::uint8_t(0) });
            }
        }
    };
    Walker walker() const { return { *this }; }
    template<class F>
    void parents(Color s, std::uint64_t slot, F&& f) const {
        for (const auto& [from, to] : edges_)
            for (const std::string& t : to)
                if (cell(t) == names_[s][slot]) f(slot_of(from));
    }

    // The rule's result of a cell after the pass: +1 won, 0 drawn, -1 lost.
    int result(const char* name) const {
        const Color s = side(name);
        const std::uint8_t c = rule_[s][slot_of(name)];
        return c == xq::kRuleWon ? 1 : c == xq::kRuleLost ? -1 : 0;
    }
    // The rule's distance of a cell the rule decided, in plies.
    int plies(const char* name) const { return plies_[side(name)][slot_of(name)] & xq::kNoPlies; }
    // `asian`: the chases drawn count (the kinds each side's moves chase are the other's
    // chaseable men); else the pass under check. With the rule's distances.
    xq::RuleCounts run(bool asian = false) {
        for (Color s : { RED, BLACK }) {
            rule_[s].assign(size(), 0xAA); // any content before
            plies_[s].assign(size(), 0xAAAA);
        }
        std::uint8_t* const rule[2] = { rule_[RED].data(), rule_[BLACK].data() };
        std::uint16_t* const plies[2] = { plies_[RED].data(), plies_[BLACK].data() };
        std::array<std::uint8_t, 2> chaseable {};
        if (asian)
            for (const auto& [from, to] : edges_)
                for (const std::string& t : to) chaseable[~side(from)] |= chased(t);
        return xq::RulePass(*this, rule, plies, chaseable).run(nullptr);
    }

private:
    static Color side(const std::string& name) { return name[0] == 'r' ? RED : BLACK; }
    static std::string key(const std::string& name) { return name; }
    // A move's end "b2~R": the cell b2, the move chasing the other side's chariot (the kinds'
    // letters K A B N R C P after the '~').
    static std::string cell(const std::string& to) { return to.substr(0, to.find('~')); }
    static std::uint8_t chased(const std::string& to) {
        std::uint8_t out = 0;
        if (const auto at = to.find('~'); at != std::string::npos)
            for (char c : to.substr(at + 1))
                out |= std::uint8_t(1u << xq::piece_type_from_letter(c));
        return out;
    }
    void slot(const std::string& name) {
        auto& names = names_[side(name)];
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
    std::uint64_t slot_of(const std::string& name) const {
        const auto& names = names_[side(name)];
        const auto it = std::find(names.begin(), names.end(), name);
        REQUIRE(it != names.end());
        return std::uint64_t(it - names.begin());
    }
    std::vector<std::string> names_[2];
    std::map<std::string, std::vector<std::string>> edges_;
    std::vector<std::uint8_t> plain_[2];
    std::vector<std::uint8_t> rule_[2];
    std::vector<std::uint16_t> plies_[2];
};

} // namespace

TEST_CASE("Perpetual check: the side that can hold only by checking forever loses", "[rule]") {
    // Black's one move that does not lose is a check; Red's answer is no check, and leads back.
    Graph g({ { "b", { "r+", "red wins" } }, { "r+", { "b", "red wins" } } });
    const xq::RuleCounts c = g.run();
    CHECK(g.result("b") == -1);
    CHECK(g.result("r+") == 1);
    CHECK(c.lost[BLACK] == 1);
    CHECK(c.won[RED] == 1);
}

TEST_CASE("Perpetual check: a mutual perpetual check is drawn", "[rule]") {
    // Both sides' only moves that do not lose are checks, forever.
    Graph g({ { "b+", { "r+", "red wins" } }, { "r+", { "b+", "black wins" } } });
    const xq::RuleCounts c = g.run();
    CHECK(g.result("b+") == 0);
    CHECK(g.result("r+") == 0);
    CHECK(c.won[RED] + c.won[BLACK] + c.lost[RED] + c.lost[BLACK] == 0);
}

TEST_CASE(
    "Perpetual check: the checker loses though the other side checks on some moves", "[rule]") {
    // Black checks on every move of the cycle; Red on one of its two.
    Graph g({ { "b1", { "r1+", "red wins" } }, { "r1+", { "b2+", "black wins" } },
        { "b2+", { "r2+", "red wins" } }, { "r2+", { "b1", "black wins" } } });
    g.run();
    CHECK(g.result("b1") == -1);
    CHECK(g.result("b2+") == -1);
    CHECK(g.result("r1+") == 1);
    CHECK(g.result("r2+") == 1);
}

TEST_CASE("Perpetual check: one quiet move that holds is enough to draw", "[rule]") {
    // Black may leave the checks for a cell where Red has nothing better than to come back.
    Graph g({ { "b", { "r+", "r", "red wins" } }, { "r+", { "b" } }, { "r", { "b" } } });
    g.run();
    CHECK(g.result("b") == 0);
    CHECK(g.result("r+") == 0);
    CHECK(g.result("r") == 0);
}

TEST_CASE("Perpetual check: Red may choose to let Black out or keep it in", "[rule]") {
    // Red, to move in r+, can answer into b (Black confined) or into c (Black free): Red wins
    // by choosing b; Black's cell c holds.
    Graph g({ { "b", { "r+", "red wins" } }, { "r+", { "b", "c" } }, { "c", { "r" } },
        { "r", { "c" } } });
    g.run();
    CHECK(g.result("b") == -1);
    CHECK(g.result("r+") == 1);
    CHECK(g.result("c") == 0);
    CHECK(g.result("r") == 0);
}

TEST_CASE("Perpetual check: the rule's losses spread, and open a second round", "[rule]") {
    // b is lost by the rule (the first case). r3 wins by moving into b, so b3, whose one move
    // leads to r3, is lost. b4 could leave its checks only into r5, which wins once b is lost:
    // in the second round b4 is confined and lost too.
    Graph g({ { "b", { "r+", "red wins" } }, { "r+", { "b", "red wins" } }, { "r3", { "b", "b3" } },
        { "b3", { "r3" } }, // b3's only move: into r3
        { "b4", { "r4+", "r5", "red wins" } }, { "r4+", { "b4" } }, { "r5", { "b", "b4" } } });
    const xq::RuleCounts c = g.run();
    CHECK(g.result("r3") == 1);
    CHECK(g.result("b3") == -1);
    CHECK(g.result("r5") == 1);
    CHECK(g.result("b4") == -1);
    CHECK(g.result("r4+") == 1);
    CHECK(c.rounds >= 2);
}

// Under asian (docs/rules-xiangqi.md §5b, the shared rules' section 5b): "b~R" is a move into b
// that chases the other side's chariot.
TEST_CASE(
    "Perpetual chase: the side that can hold only by chasing one man forever loses", "[rule]") {
    Graph g({ { "b", { "r~R", "red wins" } }, { "r", { "b" } } });
    g.run(true);
    CHECK(g.result("b") == -1);
    CHECK(g.result("r") == 1);
    g.run(); // under check a chase is no offence
    CHECK(g.result("b") == 0);
}

TEST_CASE("Perpetual chase: chasing two men by turns is no perpetual chase of one", "[rule]") {
    Graph g({ { "b1", { "r1~R", "red wins" } }, { "r1", { "b2" } },
        { "b2", { "r2~P", "red wins" } }, { "r2", { "b1" } } });
    g.run(true);
    CHECK(g.result("b1") == 0);
    CHECK(g.result("b2") == 0);
}

TEST_CASE("Perpetual chase: check alternating with chase breaks neither rule (AXF D12)", "[rule]") {
    Graph g({ { "b1", { "r1+", "red wins" } }, { "r1+", { "b2" } },
        { "b2", { "r2~R", "red wins" } }, { "r2", { "b1" } } });
    g.run(true);
    CHECK(g.result("b1") == 0);
    CHECK(g.result("b2") == 0);
}

TEST_CASE("Perpetual chase: a perpetual check met by a perpetual chase is drawn", "[rule]") {
    // Black checks on every move; Red answers each check with a chase of Black's horse.
    Graph g({ { "b", { "r+", "red wins" } }, { "r+", { "b~N", "black wins" } } });
    g.run(true);
    CHECK(g.result("b") == 0);
    CHECK(g.result("r+") == 0);
    g.run(); // under check Red's chases are no offence: Black's checks lose
    CHECK(g.result("b") == -1);
    CHECK(g.result("r+") == 1);
}

TEST_CASE(
    "Perpetual chase: the checker loses to a side that checks and chases by turns", "[rule]") {
    // Black checks on every move; Red checks, then chases, then checks: it breaks neither rule,
    // so Black loses.
    Graph g({ { "b1", { "r1+", "red wins" } }, { "r1+", { "b2+", "black wins" } },
        { "b2+", { "r2+", "red wins" } }, { "r2+", { "b1~N", "black wins" } } });
    g.run(true);
    CHECK(g.result("b1") == -1);
    CHECK(g.result("b2+") == -1);
    CHECK(g.result("r1+") == 1);
    CHECK(g.result("r2+") == 1);
}

// The rule's distance (docs/rules-xiangqi.md §5c): plies until the loser stands in its cycle,
// able to leave it only into a loss or by breaking the rule again (0), the winner taking the
// shortest way there, the loser the longest; a capture's child brings its own. Each figure
// below is counted by hand on the drawing.

TEST_CASE("Rule distance: 0 in the cycle, and counted from it", "[rule]") {
    // b must check (r+) or lose; r1 and r4 enter b, r2 enters b3, which must enter r4. b0 takes
    // the longer of r1 (1 ply to b) and r2 (3 plies: b3, r4, b); r0 the shorter of b0 and b3.
    Graph g({ { "b", { "r+", "red wins" } }, { "r+", { "b" } }, { "r1", { "b" } },
        { "r4", { "b" } }, { "b3", { "r4" } }, { "r2", { "b3" } }, { "b0", { "r1", "r2" } },
        { "r0", { "b0", "b3" } } });
    const xq::RuleCounts c = g.run();
    REQUIRE(g.result("b") == -1);
    REQUIRE(g.result("r0") == 1);
    CHECK(g.plies("b") == 0);
    CHECK(g.plies("r+") == 1);
    CHECK(g.plies("r1") == 1);
    CHECK(g.plies("r4") == 1);
    CHECK(g.plies("b3") == 2);
    CHECK(g.plies("r2") == 3);
    CHECK(g.plies("b0") == 4);
    CHECK(g.plies("r0") == 3);
    CHECK(c.longest == 4);
}

TEST_CASE("Rule distance: a way out of the cycle into another counts and so does a capture's child",
    "[rule]") {
    // bA holds only by checking (rA+), from the first round; bB by checking (rB+) or by the
    // quiet move to rX, which enters bA: bB is 2 plies from a cycle it cannot leave.
    Graph g({ { "bA", { "rA+", "red wins" } }, { "rA+", { "bA" } }, { "rX", { "bA" } },
        { "bB", { "rB+", "rX" } }, { "rB+", { "bB" } },
        // bC: a check into its cycle, or a capture into a position Red wins by the rule at 3
        // plies; r0: a capture into a position Black loses by the rule at 2 plies, or bC.
        { "bC", { "rC+", "red wins@3" } }, { "rC+", { "bC" } }, { "r0", { "red wins@2", "bC" } } });
    g.run();
    REQUIRE(g.result("bB") == -1);
    CHECK(g.plies("bA") == 0);
    CHECK(g.plies("rX") == 1);
    CHECK(g.plies("bB") == 2);
    CHECK(g.plies("rB+") == 3);
    CHECK(g.plies("bC") == 4);
    CHECK(g.plies("rC+") == 5);
    CHECK(g.plies("r0") == 3);
}

TEST_CASE("Rule distance: a chase's cycle is left by a move that chases no more", "[rule]") {
    // Under asian Black holds only by chasing Red's chariot (b1~R, r1 chased back to b, ...):
    // b's other move, no chase, enters rY, which sends it to bZ, where it must check or lose.
    Graph g({ { "b", { "r1~R", "rY", "red wins" } }, { "r1", { "b" } }, { "rY", { "bZ" } },
        { "bZ", { "rZ+", "red wins" } }, { "rZ+", { "bZ" } } });
    g.run(true);
    REQUIRE(g.result("b") == -1);
    REQUIRE(g.result("bZ") == -1);
    CHECK(g.plies("bZ") == 0);
    CHECK(g.plies("rY") == 1);
    CHECK(g.plies("b") == 2); // leaving by rY: 2 plies to bZ; chasing on: its cycle
    CHECK(g.plies("r1") == 3);
}

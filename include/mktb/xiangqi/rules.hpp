// mktb/xiangqi/rules.hpp - Xiangqi's board and men as data (docs/rules-xiangqi.md §1-2): one table
// of step vectors per kind, each step with the point that blocks it (a horse's leg, an elephant's
// eye), and every move, attack and un-move table derived from that data at compile time.
//
// Why the same shape as Makruk's mktb/rules.hpp: moves, attacks and un-moves must agree exactly,
// and deriving all of them from one set of vectors makes a disagreement impossible. The points
// each man can reach (king 9, advisor 5, elephant 7, soldier 55, the others 90) are not written
// down either: they are the closure of the start position's points under the kind's steps, which
// is what the index counts its slots from.
//
// Points are numbered rank * 9 + file from a1 (Red's left corner, seen from Red) to i10; Red is
// mktb::WHITE and moves up the board, Black is mktb::BLACK.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

#include "mktb/types.hpp"

namespace mktb::xq {

inline constexpr int FILE_NB = 9, RANK_NB = 10, POINT_NB = 90;
inline constexpr Color RED = WHITE;

// Fairy-Stockfish's names in its Xiangqi variant: KING, FERS (advisor), ELEPHANT, HORSE, ROOK
// (chariot), CANNON, SOLDIER.
enum PieceType : std::uint8_t {
    NO_PIECE_TYPE,
    KING, // general: one orthogonal step inside the palace
    ADVISOR, // one diagonal step inside the palace
    ELEPHANT, // two diagonal steps, its eye free, never across the river
    HORSE, // one orthogonal then one diagonal step outward, its leg free
    CHARIOT, // slides orthogonally
    CANNON, // slides orthogonally; captures by jumping exactly one screen
    SOLDIER, // one step forward; also sideways beyond the river
    PIECE_TYPE_NB
};

// Piece = colour * 8 + kind, as Makruk's.
enum Piece : std::uint8_t { NO_PIECE = 0, PIECE_NB = 16 };
constexpr Piece make_piece(Color c, PieceType pt) { return Piece((c << 3) | pt); }
constexpr Color color_of(Piece p) { return Color(p >> 3); }
constexpr PieceType type_of(Piece p) { return PieceType(p & 7); }

constexpr int file_of(int p) { return p % FILE_NB; }
constexpr int rank_of(int p) { return p / FILE_NB; }
constexpr int make_point(int file, int rank) { return rank * FILE_NB + file; }
constexpr bool on_board(int f, int r) { return f >= 0 && f < FILE_NB && r >= 0 && r < RANK_NB; }
// The left-right mirror (file a <-> i), the board's one symmetry within a colour.
constexpr int mirror(int p) { return make_point(FILE_NB - 1 - file_of(p), rank_of(p)); }
// The colour swap's half: ranks mirrored (a1 <-> a10).
constexpr int flip_rank(int p) { return make_point(file_of(p), RANK_NB - 1 - rank_of(p)); }
// Rank as seen from colour c (0 = its own back rank).
constexpr int relative_rank(Color c, int p) {
    return c == RED ? rank_of(p) : RANK_NB - 1 - rank_of(p);
}

struct Step {
    int df, dr; // file and rank delta, for Red
    int bf, br; // the point that must be empty (leg, eye), relative to the origin; 0,0: none
};

enum class Zone : std::uint8_t { Board, Palace, OwnHalf };

struct PieceRule {
    PieceType type;
    char letter; // Fairy-Stockfish FEN letter, upper case (Red)
    std::string_view name;
    std::array<Step, 8> steps;
    int nsteps;
    bool slides; // chariot and cannon repeat their step until blocked
    Zone zone;
};

// clang-format off
inline constexpr Step kKingSteps[4]     = {{1,0,0,0},{-1,0,0,0},{0,1,0,0},{0,-1,0,0}};
inline constexpr Step kAdvisorSteps[4]  = {{1,1,0,0},{1,-1,0,0},{-1,1,0,0},{-1,-1,0,0}};
inline constexpr Step kElephantSteps[4] = {{2,2,1,1},{2,-2,1,-1},{-2,2,-1,1},{-2,-2,-1,-1}};
inline constexpr Step kHorseSteps[8]    = {{1,2,0,1},{-1,2,0,1},{2,1,1,0},{2,-1,1,0},
                                           {1,-2,0,-1},{-1,-2,0,-1},{-2,1,-1,0},{-2,-1,-1,0}};
inline constexpr Step kRookSteps[4]     = {{1,0,0,0},{-1,0,0,0},{0,1,0,0},{0,-1,0,0}};
// Forward first: the sideways steps count only beyond the river (rules.hpp's kSoldierSideways).
inline constexpr Step kSoldierSteps[3]  = {{0,1,0,0},{1,0,0,0},{-1,0,0,0}};
// clang-format on

template<std::size_t N>
constexpr PieceRule rule(
    PieceType pt, char letter, std::string_view name, const Step (&s)[N], bool slides, Zone zone) {
    PieceRule r { pt, letter, name, {}, int(N), slides, zone };
    for (std::size_t i = 0; i < N; ++i) r.steps[i] = s[i];
    return r;
}

// The rules table (docs/rules-xiangqi.md §2). Index by PieceType.
inline constexpr std::array<PieceRule, PIECE_TYPE_NB> kRules = {
    PieceRule {},
    rule(KING, 'K', "king", kKingSteps, false, Zone::Palace),
    rule(ADVISOR, 'A', "advisor", kAdvisorSteps, false, Zone::Palace),
    rule(ELEPHANT, 'B', "elephant", kElephantSteps, false, Zone::OwnHalf),
    rule(HORSE, 'N', "horse", kHorseSteps, false, Zone::Board),
    rule(CHARIOT, 'R', "chariot", kRookSteps, true, Zone::Board),
    rule(CANNON, 'C', "cannon", kRookSteps, true, Zone::Board),
    rule(SOLDIER, 'P', "soldier", kSoldierSteps, false, Zone::Board),
};

// The start position (Red's half; Black's is its rank mirror), the seeds of the reachable points.
inline constexpr std::string_view kStartFen
    = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
struct StartMan {
    PieceType type;
    int file, rank;
};
inline constexpr StartMan kStartMen[16] = { { CHARIOT, 0, 0 }, { HORSE, 1, 0 }, { ELEPHANT, 2, 0 },
    { ADVISOR, 3, 0 }, { KING, 4, 0 }, { ADVISOR, 5, 0 }, { ELEPHANT, 6, 0 }, { HORSE, 7, 0 },
    { CHARIOT, 8, 0 }, { CANNON, 1, 2 }, { CANNON, 7, 2 }, { SOLDIER, 0, 3 }, { SOLDIER, 2, 3 },
    { SOLDIER, 4, 3 }, { SOLDIER, 6, 3 }, { SOLDIER, 8, 3 } };
// The most men of a kind on one side: the start position's count.
inline constexpr std::array<int, PIECE_TYPE_NB> kStartCount = { 0, 1, 2, 2, 2, 2, 2, 5 };

namespace detail {

constexpr bool in_zone(Zone z, Color c, int f, int r) {
    const int rr = c == RED ? r : RANK_NB - 1 - r;
    switch (z) {
    case Zone::Palace:
        return f >= 3 && f <= 5 && rr <= 2;
    case Zone::OwnHalf:
        return rr <= 4;
    default:
        return true;
    }
}

// A leaper's step from point p (Red's vectors, the rank delta negated for Black): its target and
// blocking point, or -1 when the step leaves the board or the zone, or (a soldier's sideways
// step) is not yet allowed.
struct Target {
    int to = -1, block = -1;
};
constexpr Target step_from(PieceType pt, Color c, int p, int i) {
    const Step s = kRules[pt].steps[i];
    const int sign = c == RED ? 1 : -1;
    const int f = file_of(p) + s.df, r = rank_of(p) + sign * s.dr;
    if (!on_board(f, r) || !in_zone(kRules[pt].zone, c, f, r)) return {};
    if (pt == SOLDIER && i > 0 && xq::relative_rank(c, p) < 5)
        return {}; // sideways only beyond the river
    const bool blocks = s.bf != 0 || s.br != 0;
    return { make_point(f, r),
        blocks ? make_point(file_of(p) + s.bf, rank_of(p) + sign * s.br) : -1 };
}

struct Reach {
    bool at[COLOR_NB][PIECE_TYPE_NB][POINT_NB] {};
};

// The points each kind can ever stand on: the start points' closure under its steps (sliders as
// one-point steps: every orthogonal step of theirs is a slide of length one).
constexpr Reach make_reach() {
    Reach r {};
    for (int c = 0; c < COLOR_NB; ++c) {
        for (const StartMan& m : kStartMen) {
            const int rank = c == RED ? m.rank : RANK_NB - 1 - m.rank;
            r.at[c][m.type][make_point(m.file, rank)] = true;
        }
        for (int pt = KING; pt < PIECE_TYPE_NB; ++pt)
            for (bool grew = true; grew;) {
                grew = false;
                for (int p = 0; p < POINT_NB; ++p)
                    if (r.at[c][pt][p])
                        for (int i = 0; i < kRules[pt].nsteps; ++i) {
                            const Target t = step_from(PieceType(pt), Color(c), p, i);
                            if (t.to >= 0 && !r.at[c][pt][t.to]) r.at[c][pt][t.to] = grew = true;
                        }
            }
    }
    return r;
}

inline constexpr Reach kReach = make_reach();

struct Leap {
    std::int8_t to, block; // block -1: nothing to block
};
struct LeapList {
    std::array<Leap, 8> leaps {};
    int n = 0;
};

struct Tables {
    // [colour][kind][point] for the leapers (king, advisor, elephant, horse, soldier): the
    // forward steps from a point the kind can reach, and their inverse (un-moves and attacks:
    // the origins from which a man of that kind reaches `to`, each with the point that must be
    // empty for it, relative to that origin).
    LeapList forward[COLOR_NB][PIECE_TYPE_NB][POINT_NB] {};
    LeapList backward[COLOR_NB][PIECE_TYPE_NB][POINT_NB] {};
    // Orthogonal rays (east, west, north, south), nearest point first, 9 points at most.
    std::int8_t ray[4][POINT_NB][FILE_NB + 1] {};
    std::int8_t rayLength[4][POINT_NB] {};
};

constexpr Tables make_tables() {
    Tables t {};
    for (int c = 0; c < COLOR_NB; ++c)
        for (int pt = KING; pt < PIECE_TYPE_NB; ++pt) {
            if (kRules[pt].slides) continue;
            for (int p = 0; p < POINT_NB; ++p) {
                if (!kReach.at[c][pt][p]) continue;
                for (int i = 0; i < kRules[pt].nsteps; ++i) {
                    const Target s = step_from(PieceType(pt), Color(c), p, i);
                    if (s.to < 0) continue;
                    LeapList& f = t.forward[c][pt][p];
                    f.leaps[f.n++] = { std::int8_t(s.to), std::int8_t(s.block) };
                    LeapList& b = t.backward[c][pt][s.to];
                    b.leaps[b.n++] = { std::int8_t(p), std::int8_t(s.block) };
                }
            }
        }
    for (int d = 0; d < 4; ++d)
        for (int p = 0; p < POINT_NB; ++p) {
            const Step s = kRookSteps[d];
            int n = 0;
            for (int f = file_of(p) + s.df, r = rank_of(p) + s.dr; on_board(f, r);
                 f += s.df, r += s.dr)
                t.ray[d][p][n++] = std::int8_t(make_point(f, r));
            t.rayLength[d][p] = std::int8_t(n);
        }
    return t;
}

inline constexpr Tables kTables = make_tables();

constexpr int count_reach(Color c, PieceType pt) {
    int n = 0;
    for (bool b : kReach.at[c][pt]) n += b;
    return n;
}

} // namespace detail

// Whether a man of colour c and kind pt can ever stand on point p.
constexpr bool can_stand(Color c, PieceType pt, int p) { return detail::kReach.at[c][pt][p]; }
// How many points that is: king 9, advisor 5, elephant 7, soldier 55, the others 90.
constexpr int reachable_points(PieceType pt) { return detail::count_reach(RED, pt); }
static_assert(reachable_points(KING) == 9 && reachable_points(ADVISOR) == 5
        && reachable_points(ELEPHANT) == 7 && reachable_points(SOLDIER) == 55
        && reachable_points(HORSE) == 90 && reachable_points(CHARIOT) == 90,
    "docs/rules-xiangqi.md §2: the points each man can reach");

inline const detail::LeapList& leaps(Color c, PieceType pt, int from) {
    return detail::kTables.forward[c][pt][from];
}
inline const detail::LeapList& unleaps(Color c, PieceType pt, int to) {
    return detail::kTables.backward[c][pt][to];
}
// A set of points, one bit each (rank * 9 + file).
__extension__ typedef unsigned __int128 Points; // (a GCC and Clang type: -Wpedantic knows it not)
constexpr Points point_bit(int p) { return Points(1) << p; }
constexpr int popcount(Points set) {
    return std::popcount(std::uint64_t(set)) + std::popcount(std::uint64_t(set >> 64));
}
// Whether a set holds point p, read from the 64-bit word that holds its bit (no 128-bit shift:
// the legality filters of the core and the generator ask this for every move).
constexpr bool has_point(Points set, int p) {
    return (p < 64 ? std::uint64_t(set) >> p : std::uint64_t(set >> 64) >> (p - 64)) & 1;
}
// The lowest point of a non-empty set, taken out of it.
constexpr int pop_point(Points& set) {
    const std::uint64_t low = std::uint64_t(set);
    const int p = low ? std::countr_zero(low) : 64 + std::countr_zero(std::uint64_t(set >> 64));
    set &= set - 1;
    return p;
}

namespace detail {
struct Lines {
    Points between[POINT_NB][POINT_NB] {}; // strictly between two points of one file or rank
    bool aligned[POINT_NB][POINT_NB] {}; // on one file or rank (and not the same point)
    Points horseFrom[POINT_NB] {}; // where a horse attacks the point from, its leg aside
    std::int8_t horseLeg[POINT_NB][POINT_NB] {}; // [from][to]: the leg of that attack, or -1
    Points ray[4][POINT_NB] {}; // the points of each ray from each point (kTables.ray's)
};
constexpr Lines make_lines() {
    Lines l {};
    for (int a = 0; a < POINT_NB; ++a)
        for (int d = 0; d < 4; ++d) {
            Points walked = 0;
            for (int i = 0; i < kTables.rayLength[d][a]; ++i) {
                const int b = kTables.ray[d][a][i];
                l.between[a][b] = walked, l.aligned[a][b] = true;
                walked |= point_bit(b);
            }
            l.ray[d][a] = walked;
        }
    for (auto& row : l.horseLeg)
        for (auto& x : row) x = -1;
    for (int to = 0; to < POINT_NB; ++to) {
        const LeapList& from = kTables.backward[RED][HORSE][to];
        for (int i = 0; i < from.n; ++i) {
            l.horseFrom[to] |= point_bit(from.leaps[i].to);
            l.horseLeg[from.leaps[i].to][to] = from.leaps[i].block;
        }
    }
    return l;
}
inline constexpr Lines kLines = make_lines();
} // namespace detail

inline Points between(int a, int b) { return detail::kLines.between[a][b]; }
inline bool aligned(int a, int b) { return detail::kLines.aligned[a][b]; }

inline const std::int8_t* ray(int dir, int p) { return detail::kTables.ray[dir][p]; }
inline int ray_length(int dir, int p) { return detail::kTables.rayLength[dir][p]; }

constexpr PieceType piece_type_from_letter(char upper) {
    if (upper == 'E') return ELEPHANT; // aliases some programs write
    if (upper == 'H') return HORSE;
    for (int pt = KING; pt < PIECE_TYPE_NB; ++pt)
        if (kRules[pt].letter == upper) return PieceType(pt);
    return NO_PIECE_TYPE;
}

// The repetition rules a table follows (docs/rules-xiangqi.md §5): chosen when it is generated,
// named in its header and in every answer; a table of one rule set never answers for another.
// None: every endless line a draw (the plain distance to mate alone). Check: perpetual check
// loses, a mutual perpetual check draws. Asian: perpetual chase loses too (§5b: the same man
// chased on every move; check alternating with chase breaks neither; both sides breaking the
// rules draw). Where one side is armless they are one (it never checks, and the other never
// needs an endless line to win): such a table follows every set.
enum class RuleSet : std::uint8_t { None, Check, Asian };
struct RuleSetName {
    RuleSet rules;
    std::string_view name; // as `--rules` and `rules=` take it
    std::string_view words; // for people
};
inline constexpr RuleSetName kRuleSets[] = {
    { RuleSet::None, "none", "every endless line a draw" },
    { RuleSet::Check, "check", "perpetual check loses (perpetual chase not modelled)" },
    { RuleSet::Asian, "asian", "perpetual check and perpetual chase lose" },
};
// What a table is made under, and a reader asks for, when nothing is said: the Asian rules, as
// players, federations and the largest Xiangqi database play.
inline constexpr RuleSet kDefaultRuleSet = RuleSet::Asian;
constexpr const RuleSetName& rule_set(RuleSet r) { return kRuleSets[int(r)]; }
static_assert(rule_set(RuleSet::None).rules == RuleSet::None
    && rule_set(RuleSet::Check).rules == RuleSet::Check
    && rule_set(RuleSet::Asian).rules == RuleSet::Asian);
constexpr bool parse_rule_set(std::string_view name, RuleSet* out) {
    for (const RuleSetName& r : kRuleSets)
        if (r.name == name) return *out = r.rules, true;
    return false;
}
// "none, check or asian": the names of kRuleSets, for messages.
inline std::string rule_set_choices() {
    std::string out;
    for (std::size_t i = 0; i < std::size(kRuleSets); ++i)
        out += (i == 0                                 ? ""
                       : i + 1 == std::size(kRuleSets) ? " or "
                                                       : ", ")
            + std::string(kRuleSets[i].name);
    return out;
}

} // namespace mktb::xq

// gen_moves.hpp - legal moves on a GenBoard as the generator needs them: in-table moves counted
// or visited, conversions valued (conversions.hpp), and the move summary init starts each cell
// from.
//
// Invariant: moves() visits every legal move of the side exactly once (or counts it into
// *bulk); a board equal to its reflection in a1-h8 has its in-table moves counted by mirrored
// pairs in summarize(), as its un-moves' decrements come (generator.cpp, "Symmetry").
#pragma once

#include <array>
#include <type_traits>

#include "conversions.hpp"
#include "gen_index.hpp"

namespace mktb {

// The most quiet moves a man of each kind has from any square of an empty board, derived from
// the rules' tables: a bound on the moves that keep a table's material.
inline const std::array<int, PIECE_TYPE_NB> kMostQuiets = [] {
    std::array<int, PIECE_TYPE_NB> n {};
    for (Color c : { WHITE, BLACK })
        for (PieceType pt = KHUN; pt < PIECE_TYPE_NB; pt = PieceType(pt + 1))
            for (Square s = SQ_A1; s < SQUARE_NB; s = Square(s + 1))
                n[pt] = std::max(n[pt], popcount(quiets_bb(c, pt, s)));
    return n;
}();

// Legal moves of one side, as init needs them: in-table moves counted, conversions valued.
struct MoveSummary {
    int inTable = 0; // legal moves that stay in this table
    int conversions = 0; // legal captures and promotions
    bool inCheck = false;
    std::array<Value, kMaxMetrics> best {}; // best conversion, from the mover's view
};

class GenMoves {
public:
    GenMoves(const GenIndex& index, const Conversions* conversions, int metrics)
        : index_(index)
        , conversions_(conversions)
        , metrics_(metrics) {
        for (int j = 0; j < index_.men(); ++j) hasRuea_[index_.color(j)] |= index_.type(j) == RUEA;
    }
    // The conversions go once the level loop is done.
    void drop_conversions() { conversions_ = nullptr; }

    // An upper bound on the in-table moves of either side, + 1 for a drawing conversion.
    static int most_moves(const Material& m) {
        int most = 0;
        for (Color c : { WHITE, BLACK }) {
            int n = kMostQuiets[KHUN];
            for (PieceType pt : kNameOrder) n += kMostQuiets[pt] * m.count[c][pt];
            most = std::max(most, n + 1);
        }
        return most;
    }

    static Bitboard occupancy(const GenBoard& b, int men) {
        Bitboard occ = square_bb(b.king[WHITE]) | square_bb(b.king[BLACK]);
        for (int j = 0; j < men; ++j) occ |= square_bb(b.man[std::size_t(j)]);
        return occ;
    }
    Bitboard occupancy(const GenBoard& b) const { return occupancy(b, index_.men()); }
    Bitboard pieces(const GenBoard& b, Color c) const {
        Bitboard p = square_bb(b.king[c]);
        for (int j = 0; j < index_.men(); ++j)
            if (index_.color(j) == c) p |= square_bb(b.man[std::size_t(j)]);
        return p;
    }
    // Is s attacked by side `by`, on occupancy occ, man `skip` (captured) not counting? Inlined
    // into the legality test of every move (always_inline).
    [[gnu::always_inline]] bool attacked(
        const GenBoard& b, Square s, Color by, Bitboard occ, int skip = -1) const {
        if (attacks_bb(by, KHUN, b.king[by]) & square_bb(s)) return true;
        for (int j = 0; j < index_.men(); ++j)
            if (j != skip && index_.color(j) == by
                && (attacks_bb(by, index_.type(j), b.man[std::size_t(j)], occ) & square_bb(s)))
                return true;
        return false;
    }
    // Every square side `by` attacks on occupancy occ.
    Bitboard attacks_of(const GenBoard& b, Color by, Bitboard occ) const {
        Bitboard a = attacks_bb(by, KHUN, b.king[by]);
        for (int j = 0; j < index_.men(); ++j)
            if (index_.color(j) == by)
                a |= attacks_bb(by, index_.type(j), b.man[std::size_t(j)], occ);
        return a;
    }
    int man_on(const GenBoard& b, Square s) const {
        for (int j = 0; j < index_.men(); ++j)
            if (b.man[std::size_t(j)] == s) return j;
        return -1;
    }

    // Visits every legal move of side c: fn(j, to) for in-table moves (j = -1: the king),
    // conv(j, to, captured, promotes) for conversions. With `bulk` (only the number of in-table
    // moves is wanted), king moves and the moves of a man no Ruea can pin are counted into
    // *bulk instead of visited. With no InTable visitor (nullptr), only conversions are
    // generated (and inCheck is not set). `enemy`, when given, is attacks_of(b, ~c, occ).
    template<class InTable, class Conv>
    void moves(const GenBoard& b, Color c, Bitboard occ, bool& inCheck, InTable&& fn, Conv&& conv,
        int* bulk = nullptr, const Bitboard* enemy = nullptr) const {
        constexpr bool quiets = !std::is_same_v<std::decay_t<InTable>, std::nullptr_t>;
        const Bitboard theirs = pieces(b, ~c);
        const Square ksq = b.king[c];
        inCheck = quiets && (enemy ? bool(*enemy & square_bb(ksq)) : attacked(b, ksq, ~c, occ));
        // Men on a line between our king and an enemy Ruea may be pinned: checked one by one.
        Bitboard pinLines = 0;
        for (int j = 0; quiets && j < index_.men(); ++j)
            if (index_.color(j) == ~c && index_.type(j) == RUEA) {
                const Square r = b.man[std::size_t(j)];
                if (file_of(r) == file_of(ksq) || rank_of(r) == rank_of(ksq))
                    pinLines |= between_bb(ksq, r);
            }
        // Squares the enemy attacks with our king lifted off: where it may step without capturing.
        auto danger = [&] {
            if (enemy && !hasRuea_[~c]) return *enemy; // no slider: our king hides nothing
            const Bitboard o = occ ^ square_bb(ksq);
            Bitboard d = attacks_bb(~c, KHUN, b.king[~c]);
            for (int j = 0; j < index_.men(); ++j)
                if (index_.color(j) == ~c)
                    d |= attacks_bb(~c, index_.type(j), b.man[std::size_t(j)], o);
            return d;
        };
        auto legal = [&](Square from, Square to, int captured) {
            const Bitboard o = (occ ^ square_bb(from)) | square_bb(to);
            GenBoard a = b;
            const bool king = from == ksq;
            if (king) a.king[c] = to;
            return !attacked(a, king ? to : ksq, ~c, o, captured);
        };
        for (int j = -1; j < index_.men(); ++j) {
            if (j >= 0 && index_.color(j) != c) continue;
            const PieceType pt = j < 0 ? KHUN : index_.type(j);
            const Square s = j < 0 ? ksq : b.man[std::size_t(j)];
            const Bitboard att = attacks_bb(c, pt, s, occ);
            Bitboard quiet = (pt == RUEA ? att : quiets_bb(c, pt, s)) & ~occ;
            Bitboard capt = att & theirs & ~square_bb(b.king[~c]);
            Bitboard promo = 0;
            if (pt == BIA) promo = quiet & kPromotionRankBB[c], quiet &= ~promo;
            if constexpr (quiets) {
                if (bulk && j < 0)
                    *bulk += popcount(quiet & ~danger());
                else if (bulk && !inCheck && !(pinLines & square_bb(s)))
                    *bulk += popcount(quiet);
                else
                    for (Bitboard q = quiet; q;) {
                        const Square t = pop_lsb(q);
                        if (legal(s, t, -1)) fn(j, t);
                    }
            }
            for (Bitboard q = capt; q;) {
                const Square t = pop_lsb(q);
                const int jc = man_on(b, t);
                if (legal(s, t, jc))
                    conv(j, t, jc, pt == BIA && (kPromotionRankBB[c] & square_bb(t)));
            }
            for (Bitboard q = promo; q;) {
                const Square t = pop_lsb(q);
                if (legal(s, t, -1)) conv(j, t, -1, true);
            }
        }
    }

    // The value of a conversion for each metric, from the mover's view.
    void conversion(const GenBoard& b, Color c, int j, Square to, int jc, bool promotes,
        std::array<Value, kMaxMetrics>& v) const {
        conversions_->value(b, c, j, to, jc, promotes, v);
    }

    // A board equal to its reflection in a1-h8 (`symmetric`) counts its in-table moves by
    // mirrored pairs: those are what its un-moves' decrements come in. Flattened (every call in
    // it inlined): init runs it for every slot and side.
    [[gnu::flatten]] MoveSummary summarize(
        const GenBoard& b, Color c, Bitboard occ, Bitboard enemy, bool symmetric) const {
        MoveSummary s;
        for (auto& v : s.best) v = Value::mate_in_plies(0); // worse than any real outcome
        moves(
            b, c, occ, s.inCheck,
            [&](int j, Square to) {
                // Symmetric: counted in halves, two for a move along a1-h8 (its own mirror).
                const Square from = j < 0 ? b.king[c] : b.man[std::size_t(j)];
                s.inTable += symmetric && transform(4, from) == from && transform(4, to) == to;
                ++s.inTable;
            },
            [&](int j, Square to, int jc, bool promotes) {
                ++s.conversions;
                std::array<Value, kMaxMetrics> v;
                conversion(b, c, j, to, jc, promotes, v);
                for (int k = 0; k < metrics_; ++k)
                    if (better(v[std::size_t(k)], s.best[std::size_t(k)]))
                        s.best[std::size_t(k)] = v[std::size_t(k)];
            },
            symmetric ? nullptr : &s.inTable, &enemy);
        if (symmetric) s.inTable /= 2; // every move visited: no bulk count
        return s;
    }

    // The loss a counter reaching 0 at level n gives: n + 1 plies, or a losing conversion's
    // distance when that holds out longer.
    int loss_plies(const GenBoard& b, Color c, int k, int n) const {
        int p = n + 1;
        bool inCheck;
        moves(b, c, occupancy(b), inCheck, nullptr, [&](int j, Square to, int jc, bool promotes) {
            std::array<Value, kMaxMetrics> v;
            conversion(b, c, j, to, jc, promotes, v);
            p = std::max(p, v[std::size_t(k)].plies);
        });
        return p;
    }

private:
    const GenIndex& index_;
    const Conversions* conversions_;
    int metrics_;
    std::array<bool, COLOR_NB> hasRuea_ {}; // a side has a slider (its attacks depend on occupancy)
};

} // namespace mktb

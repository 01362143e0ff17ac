// movegen.cpp - legal move generation, mate/stalemate tests and perft (see mktb/movegen.hpp).
#include "mktb/movegen.hpp"

#include <algorithm>

namespace mktb {

namespace {

// Generates legal moves; with CountOnly, returns their number without storing them.
template<bool CountOnly>
int generate(const Position& pos, MoveList* list) {
    const Color us = pos.side_to_move(), them = ~us;
    const Bitboard ours = pos.pieces(us), theirs = pos.pieces(them);
    const Bitboard occ = ours | theirs;
    const Square ksq = pos.king_square(us);
    const Bitboard checkers = pos.attackers_to(them, ksq, occ);
    int n = 0;
    auto emit = [&](Square from, Bitboard targets, bool promotes) {
        if constexpr (CountOnly) {
            n += popcount(targets);
        } else {
            while (targets) list->push(make_move(from, pop_lsb(targets), promotes));
        }
    };

    // King: every target must be safe with the king lifted off (a Ruea x-rays through it).
    // With few enemy men (endings) their attacks are found once; with many, target by target.
    Bitboard kingTargets = attacks_bb(us, KHUN, ksq) & ~ours;
    const Bitboard occNoKing = occ ^ square_bb(ksq);
    if (popcount(theirs) <= popcount(kingTargets)) {
        Bitboard attacked = 0;
        for (Bitboard b = theirs; b;) {
            const Square s = pop_lsb(b);
            attacked |= attacks_bb(them, type_of(pos.piece_on(s)), s, occNoKing);
        }
        kingTargets &= ~attacked;
    } else
        for (Bitboard b = kingTargets; b;) {
            const Square to = pop_lsb(b);
            if (pos.attackers_to(them, to, occNoKing) & ~square_bb(to))
                kingTargets &= ~square_bb(to);
        }
    emit(ksq, kingTargets, false);
    if (more_than_one(checkers)) return n;

    // Other men: in check they must capture the checker or block a Ruea's line.
    const Bitboard evasion = checkers ? between_bb(ksq, lsb(checkers)) | checkers : ~Bitboard(0);
    const Bitboard pinned = pos.pinned(us);
    for (PieceType pt : { MET, KHON, MA, RUEA }) {
        for (Bitboard b = pos.pieces(us, pt); b;) {
            const Square from = pop_lsb(b);
            Bitboard t = attacks_bb(us, pt, from, occ) & ~ours & evasion;
            if (pinned & square_bb(from)) t &= line_bb(ksq, from);
            emit(from, t, false);
        }
    }
    for (Bitboard b = pos.pieces(us, BIA); b;) {
        const Square from = pop_lsb(b);
        Bitboard t
            = ((quiets_bb(us, BIA, from) & ~occ) | (attacks_bb(us, BIA, from) & theirs)) & evasion;
        if (pinned & square_bb(from)) t &= line_bb(ksq, from);
        emit(from, t, bool(t & kPromotionRankBB[us]));
    }
    return n;
}

} // namespace

MoveList legal_moves(const Position& pos) {
    MoveList list;
    generate<false>(pos, &list);
    return list;
}

bool is_checkmate(const Position& pos) { return pos.in_check() && !generate<true>(pos, nullptr); }
bool is_stalemate(const Position& pos) { return !pos.in_check() && !generate<true>(pos, nullptr); }

std::uint64_t perft(Position& pos, int depth) {
    if (depth <= 0) return 1;
    if (depth == 1) return std::uint64_t(generate<true>(pos, nullptr));
    std::uint64_t nodes = 0;
    for (Move m : legal_moves(pos)) {
        const auto u = pos.do_move(m);
        nodes += perft(pos, depth - 1);
        pos.undo_move(m, u);
    }
    return nodes;
}

Move parse_uci_move(const Position& pos, std::string_view text) {
    for (Move m : legal_moves(pos))
        if (move_to_uci(m) == text) return m;
    return MOVE_NONE;
}

} // namespace mktb

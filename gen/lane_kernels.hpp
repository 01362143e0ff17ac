// lane_kernels.hpp - the level loop's updates of cells, one slot at a time and on the lanes of a
// 64-slot chunk at once (SSE2 on 8-bit cells): find the cells holding a level, make a lost
// cell's predecessors won, take one move off a won cell's predecessors' counters.
//
// Invariant: each kernel writes only the cells it is given, with plain relaxed loads and stores
// (the caller's task is their one writer in the pass), and a lane kernel leaves every lane
// exactly as the one-slot kernel would.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "cell_store.hpp"

namespace mktb {

// Cells of one 64-slot chunk holding `want`: bit t set when cell i + t does (x at a multiple of
// 64; the cell arrays are padded to a multiple of 64 with "no position").
template<class Cell>
inline std::uint64_t match64(const Cell* x, Cell want) {
    std::uint64_t m = 0;
#if defined(__SSE2__)
    if constexpr (sizeof(Cell) == 1) {
        const __m128i pattern = _mm_set1_epi8(char(want));
        for (int q = 0; q < 4; ++q) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + 16 * q));
            m |= std::uint64_t(unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(v, pattern)))) << (16 * q);
        }
        return m;
    }
#endif
    for (int t = 0; t < 64; ++t) m |= std::uint64_t(x[t] == want) << t;
    return m;
}

// Predecessor q of a lost cell: won in `level` plies (code `win`) unless won faster already;
// its run's level mask marked. The update is a plain load and store (atomic_ref, relaxed,
// compiles to plain moves and lets the debug checks read along). The cells are bytes, which may
// alias anything: a member read after a store to one would be read again, so the level masks
// (`mask`, of the cell's metric and side) and `base` come as arguments.
template<class Cell>
inline bool take_win(
    Cell* x, std::uint64_t* mask, Cell base, std::uint64_t q, Cell win, int level) {
    using Store = CellStore<Cell>;
    std::atomic_ref<Cell> a(x[q]);
    const Cell cur = a.load(std::memory_order_relaxed);
    const bool slowerWin
        = cur == Store::kFarWin || (cur > win && cur < Store::kFarLoss && ((cur - base) & 1));
    const bool take = Store::is_counter(cur, base) | slowerWin;
    a.store(take ? win : cur, std::memory_order_relaxed);
    mask[Store::mask_word(q, level)] |= std::uint64_t(take) << (level & 63);
    return take;
}

// Predecessor `pred` of a won cell: one move fewer not known to lose; the decrement that
// reaches 0 calls lost(pred).
template<class Cell, class Lost>
inline void take_move(Cell* x, Cell base, std::uint64_t pred, Lost&& lost) {
    std::atomic_ref<Cell> a(x[pred]);
    const Cell cur = a.load(std::memory_order_relaxed);
    a.store(Cell(cur - CellStore<Cell>::is_counter(cur, base)), std::memory_order_relaxed);
    if (cur == 1) lost(pred); // 1: a counter at its last move
}

#if defined(__SSE2__)
// Byte lanes of a 16-bit lane mask: 0xFF where its bit is set.
inline __m128i lane_bytes(unsigned bits) {
    static constexpr auto kBytes = [] {
        std::array<std::uint64_t, 256> t {};
        for (unsigned b = 0; b < 256; ++b)
            for (unsigned l = 0; l < 8; ++l)
                if (b >> l & 1) t[b] |= std::uint64_t(0xFF) << (8 * l);
        return t;
    }();
    return _mm_set_epi64x(std::int64_t(kBytes[bits >> 8]), std::int64_t(kBytes[bits & 0xFF]));
}
#endif

// take_win() on the lanes of the chunk at slot `chunk` (aligned): whether any was taken. In
// bytes, 16 lanes per SSE2 operation unless `oneByOne` (the debug checks, which read the cells
// along through atomic_ref); one lane at a time in 16-bit cells.
template<class Cell>
inline bool take_wins(Cell* x, std::uint64_t* mask, Cell base, std::uint64_t chunk,
    std::uint64_t lanes, Cell win, int level, bool oneByOne) {
    bool taken = false;
#if defined(__SSE2__)
    if constexpr (sizeof(Cell) == 1)
        if (!oneByOne) {
            using Store = CellStore<Cell>;
            const __m128i one = _mm_set1_epi8(1), w = _mm_set1_epi8(char(win));
            const __m128i baseV = _mm_set1_epi8(char(base));
            const __m128i counterTop = _mm_set1_epi8(char(base - 2));
            const __m128i windowTop = _mm_set1_epi8(char(Store::kFarLoss - 1));
            const __m128i farWin = _mm_set1_epi8(char(Store::kFarWin));
            int any = 0;
            for (int q = 0; q < 4; ++q) {
                const unsigned bits = unsigned(lanes >> (16 * q)) & 0xFFFF;
                if (!bits) continue;
                auto* p = reinterpret_cast<__m128i*>(x + chunk + 16 * q);
                const __m128i cur = _mm_loadu_si128(p);
                // Unsigned a <= b as min(a, b) == a.
                const __m128i c1 = _mm_sub_epi8(cur, one); // a counter: 1 <= cur < base
                const __m128i counter = _mm_cmpeq_epi8(_mm_min_epu8(c1, counterTop), c1);
                const __m128i notAbove = _mm_cmpeq_epi8(_mm_min_epu8(cur, w), cur);
                const __m128i inWindow = _mm_cmpeq_epi8(_mm_min_epu8(cur, windowTop), cur);
                const __m128i odd
                    = _mm_cmpeq_epi8(_mm_and_si128(_mm_sub_epi8(cur, baseV), one), one);
                const __m128i slower = _mm_or_si128(_mm_cmpeq_epi8(cur, farWin),
                    _mm_andnot_si128(notAbove, _mm_and_si128(inWindow, odd)));
                const __m128i take = _mm_and_si128(_mm_or_si128(counter, slower), lane_bytes(bits));
                _mm_storeu_si128(
                    p, _mm_or_si128(_mm_andnot_si128(take, cur), _mm_and_si128(take, w)));
                any |= _mm_movemask_epi8(take);
            }
            taken = any != 0;
            mask[Store::mask_word(chunk, level)] |= std::uint64_t(taken) << (level & 63);
            return taken;
        }
#endif
    for (; lanes; lanes &= lanes - 1)
        taken
            |= take_win(x, mask, base, chunk + std::uint64_t(std::countr_zero(lanes)), win, level);
    return taken;
}

// take_move() on the lanes of a chunk, as take_wins().
template<class Cell, class Lost>
inline void take_moves(
    Cell* x, Cell base, std::uint64_t chunk, std::uint64_t lanes, bool oneByOne, Lost&& lost) {
#if defined(__SSE2__)
    if constexpr (sizeof(Cell) == 1)
        if (!oneByOne) {
            const __m128i one = _mm_set1_epi8(1);
            const __m128i counterTop = _mm_set1_epi8(char(base - 2));
            for (int q = 0; q < 4; ++q) {
                const unsigned bits = unsigned(lanes >> (16 * q)) & 0xFFFF;
                if (!bits) continue;
                auto* p = reinterpret_cast<__m128i*>(x + chunk + 16 * q);
                const __m128i cur = _mm_loadu_si128(p);
                const __m128i c1 = _mm_sub_epi8(cur, one);
                const __m128i counter = _mm_and_si128(
                    _mm_cmpeq_epi8(_mm_min_epu8(c1, counterTop), c1), lane_bytes(bits));
                _mm_storeu_si128(p, _mm_add_epi8(cur, counter)); // counter lanes: -1
                // Counters at their last move: the losses.
                for (unsigned z = unsigned(
                         _mm_movemask_epi8(_mm_and_si128(counter, _mm_cmpeq_epi8(cur, one))));
                     z; z &= z - 1)
                    lost(chunk + std::uint64_t(16 * q + std::countr_zero(z)));
            }
            return;
        }
#endif
    for (; lanes; lanes &= lanes - 1)
        take_move(x, base, chunk + std::uint64_t(std::countr_zero(lanes)), lost);
}

} // namespace mktb

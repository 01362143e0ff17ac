/* test_probe_c.c - the C API (mktb/probe.h) used from C, compiled as C, so that C compatibility
 * cannot break silently. Run by CTest with the directory of the 4-men tables as its argument.
 * The values are hand-checked: a mate in one, a checkmate, a draw by capturing the Ruea, and
 * the count arithmetic of docs/rules.md section 3.1; the ABI's version, options size, buffer
 * codes and the tables present. */
#include <stdio.h>
#include <string.h>

#include "mktb/probe.h"

static int failures = 0;

static void check(int ok, const char* what, int line) {
    if (!ok) {
        fprintf(stderr, "test_probe_c.c:%d: FAILED: %s (%s)\n", line, what, mktb_last_error());
        ++failures;
    }
}

static mktb_position fen(const char* text) {
    mktb_position pos;
    mktb_status s = mktb_position_from_fen(text, &pos);
    check(s == MKTB_OK, text, __LINE__);
    return pos;
}

int main(int argc, char** argv) {
    mktb_tablebase* tb = NULL;
    mktb_options options;
    if (argc != 2) {
        fprintf(stderr, "usage: test_probe_c TABLES_DIR\n");
        return 2;
    }
    mktb_options_default(&options);
    check(options.size == sizeof options && options.rules == 0 && options.cache_bytes == 0,
        "default options", __LINE__);
    options.cache_bytes = 1u << 20; /* a 1 MiB cache */
    check(mktb_version() == MKTB_VERSION && MKTB_VERSION == 0x000800, "version", __LINE__);
    check(strcmp(MKTB_PROJECT_VERSION_TEXT, "0.8.0") == 0, "one version", __LINE__);
    check(mktb_open(argv[1], &options, &tb) == MKTB_OK && tb, "open", __LINE__);
    /* The tables present: every ending up to 4 men, written either way round. */
    check(mktb_largest(tb) == 4, "largest: 4 men", __LINE__);
    check(mktb_available(tb, "KRvKM") == MKTB_OK, "KRvKM present", __LINE__);
    check(mktb_available(tb, "KMvKR") == MKTB_OK, "KMvKR is KRvKM", __LINE__);
    check(mktb_available(tb, "KNSvK") == MKTB_OK, "men in any order", __LINE__);
    check(mktb_available(tb, "KRRSvK") == MKTB_NO_TABLE, "no 5-men table", __LINE__);
    check(mktb_available(tb, "KQvK") == MKTB_BAD_ARGUMENT, "no such material", __LINE__);
    {
        /* An options struct from an older header: only size and rules. */
        mktb_options old = { 8, 0, 12345, 0 };
        mktb_tablebase* t = NULL;
        check(mktb_open(argv[1], &old, &t) == MKTB_OK && t, "shorter options", __LINE__);
        mktb_close(t);
        old.size = 4;
        check(
            mktb_open(argv[1], &old, &t) == MKTB_BAD_ARGUMENT && !t, "options too short", __LINE__);
    }

    /* Rh8 mates: the Khun on b6 takes a7, b7; the Ruea takes b8. */
    {
        mktb_position pos = fen("k7/8/1K6/8/8/8/8/7R w - - 0 1");
        mktb_wdl wdl = MKTB_DRAW;
        mktb_dtm dtm;
        mktb_move best[128];
        mktb_root_move moves[128];
        size_t n = 0;
        check(mktb_probe_wdl(tb, &pos, &wdl) == MKTB_OK && wdl == MKTB_WIN, "wdl win", __LINE__);
        check(mktb_probe_dtm(tb, &pos, &dtm) == MKTB_OK && dtm.wdl == MKTB_WIN && dtm.plies == 1,
            "mate in 1 ply", __LINE__);
        check(mktb_best_moves(tb, &pos, MKTB_VIEW_PURE, best, 128, &n) == MKTB_OK && n == 1
                && strcmp(best[0].uci, "h1h8") == 0 && best[0].from == 7 && best[0].to == 63
                && !best[0].promotes,
            "only h1h8 mates at once", __LINE__);
        /* 6 Khun moves (not a7 or b7, beside the other Khun) and 14 Ruea moves. */
        check(mktb_rank_root(tb, &pos, moves, 128, &n) == MKTB_OK && n == 20, "20 moves", __LINE__);
        check(strcmp(moves[0].move.uci, "h1h8") == 0 && moves[0].pure.plies == 1
                && moves[0].counted.wdl == MKTB_WIN,
            "ranked first", __LINE__);
        /* One view, the move itself counted: mate in 1 of the 14 moves the fresh count leaves
         * (L = 16, N = 3, the attacker to move: 16 - 3 + 1, docs/rules.md 3.1). */
        check(moves[0].pure.wdl == MKTB_WIN && moves[0].counted.moves_needed == 1
                && moves[0].counted.moves_available == 14,
            "the mover's view, the move counted", __LINE__);
        check(mktb_rank_root(tb, &pos, moves, 3, &n) == MKTB_BUFFER_TOO_SMALL && n == 20,
            "too small a buffer", __LINE__);
        check(mktb_best_moves(tb, &pos, 2, best, 128, &n) == MKTB_BAD_ARGUMENT, "no such view",
            __LINE__);
    }
    /* After Rh8 Black is checkmated. */
    {
        mktb_position pos = fen("k6R/8/1K6/8/8/8/8/8 b - - 0 1");
        mktb_dtm dtm;
        mktb_move best[4];
        size_t n = 99;
        check(mktb_probe_dtm(tb, &pos, &dtm) == MKTB_OK && dtm.wdl == MKTB_LOSS && dtm.plies == 0,
            "checkmated", __LINE__);
        check(mktb_best_moves(tb, &pos, MKTB_VIEW_COUNTED, best, 4, &n) == MKTB_OK && n == 0,
            "no move", __LINE__);
    }
    /* Black takes the unprotected Ruea: a draw. */
    {
        mktb_position pos = fen("8/8/8/8/8/2k5/2R5/6K1 b - - 0 1");
        mktb_wdl wdl = MKTB_WIN;
        mktb_move best[8];
        size_t n = 0;
        check(mktb_probe_wdl(tb, &pos, &wdl) == MKTB_OK && wdl == MKTB_DRAW, "draw", __LINE__);
        /* Every other move leaves the Ruea, and K+Ruea vs K is a win. */
        check(mktb_best_moves(tb, &pos, MKTB_VIEW_PURE, best, 8, &n) == MKTB_OK && n == 1
                && strcmp(best[0].uci, "c3c2") == 0,
            "only Kxc2 draws", __LINE__);
        check(mktb_best_moves(tb, &pos, MKTB_VIEW_PURE, best, 0, &n) == MKTB_BUFFER_TOO_SMALL
                && n == 1,
            "no room", __LINE__);
    }
    /* The count: L = 16, one White move left at ply 31 of 32, none at ply 33
     * (docs/rules.md 3.1, 3.4). */
    {
        mktb_position pos = fen("k7/8/1K6/8/8/8/8/7R w - 32 31 1");
        mktb_counted c;
        mktb_wdl wdl = MKTB_LOSS;
        check(mktb_probe_counted(tb, &pos, &c) == MKTB_OK && c.wdl == MKTB_WIN
                && c.moves_needed == 1 && c.moves_available == 1,
            "won with the last move", __LINE__);
        pos.counting_ply = 33;
        check(mktb_probe_counted(tb, &pos, &c) == MKTB_OK && c.wdl == MKTB_DRAW
                && c.moves_available == 0,
            "drawn by the count", __LINE__);
        check(mktb_probe_counted_wdl(tb, &pos, &wdl) == MKTB_OK && wdl == MKTB_DRAW, "counted wdl",
            __LINE__);
    }
    /* Errors: codes, never values. */
    {
        mktb_position pos = fen("k7/8/1K6/8/8/8/8/7R w - - 0 1");
        mktb_position five = fen("8/8/8/3k4/8/8/8/RRS1K3 w - - 0 1");
        mktb_wdl wdl;
        mktb_tablebase* none = NULL;
        check(mktb_probe_wdl(NULL, &pos, &wdl) == MKTB_BAD_ARGUMENT, "NULL handle", __LINE__);
        check(mktb_open("/nonexistent/mktb-tables", NULL, &none) == MKTB_BAD_ARGUMENT && !none,
            "no such directory", __LINE__);
        check(mktb_probe_wdl(tb, &five, &wdl) == MKTB_NO_TABLE, "no 5-men table", __LINE__);
        pos.black |= 1; /* a1 is now Black's, but no kind says what stands there */
        check(mktb_probe_wdl(tb, &pos, &wdl) == MKTB_BAD_POSITION, "bad bitboards", __LINE__);
        check(mktb_position_from_fen("k7/K7/8/8/8/8/8/8 w - - 0 1", &pos) == MKTB_BAD_POSITION,
            "kings side by side", __LINE__);
        check(strlen(mktb_last_error()) > 0, "an error message", __LINE__);
        check(strcmp(mktb_status_name(MKTB_NO_TABLE), "no table") == 0, "status name", __LINE__);
    }
    /* Counts that cannot occur are refused, by the FEN parser and in a position passed whole
     * (docs/rules.md 3.4: limits 16..128, ply at most limit + 1, parity and start N). */
    {
        mktb_position pos = fen("k7/8/1K6/8/8/8/8/7R w - 32 31 1");
        mktb_wdl wdl;
        mktb_counted c;
        const uint16_t bad[][2] = { { 1000, 31 }, { 65535, 31 }, { 33, 31 }, { 32, 34 },
            { 32, 30 } /* even with the attacker to move */, { 32, 1 } /* below 2N - 1 = 5 */,
            { 0, 5 } };
        size_t i;
        for (i = 0; i < sizeof bad / sizeof bad[0]; ++i) {
            pos.counting_limit = bad[i][0];
            pos.counting_ply = bad[i][1];
            check(mktb_probe_counted(tb, &pos, &c) == MKTB_BAD_POSITION, "impossible count",
                __LINE__);
        }
        check(mktb_position_from_fen("k7/8/1K6/8/8/8/8/7R w - 32 34 1", &pos) == MKTB_BAD_POSITION
                && strstr(mktb_last_error(), "past the limit") != NULL,
            "FEN: ply limit + 2", __LINE__);
        check(mktb_position_from_fen("k7/8/1K6/8/8/8/8/7R w - 32 0 1", &pos) == MKTB_BAD_POSITION,
            "FEN: ply 0 in pieces' honour", __LINE__);
        /* Ply limit + 1: the count has ended the game; a draw, and no move to rank. */
        pos = fen("k7/8/1K6/8/8/8/8/7R w - 32 33 1");
        {
            mktb_root_move moves[4];
            size_t n = 99;
            check(mktb_probe_counted_wdl(tb, &pos, &wdl) == MKTB_OK && wdl == MKTB_DRAW,
                "ended count: draw", __LINE__);
            check(mktb_rank_root(tb, &pos, moves, 4, &n) == MKTB_OK && n == 0,
                "ended count: no move", __LINE__);
        }
    }
    /* A NULL buffer with capacity 0 asks for the size needed. */
    {
        mktb_position pos = fen("k7/8/1K6/8/8/8/8/7R w - - 0 1");
        size_t n = 0;
        check(mktb_rank_root(tb, &pos, NULL, 0, &n) == MKTB_BUFFER_TOO_SMALL && n == 20,
            "rank_root: size needed", __LINE__);
        n = 0;
        check(mktb_best_moves(tb, &pos, MKTB_VIEW_PURE, NULL, 0, &n) == MKTB_BUFFER_TOO_SMALL
                && n == 1,
            "best_moves: size needed", __LINE__);
        check(mktb_rank_root(tb, &pos, NULL, 5, &n) == MKTB_BAD_ARGUMENT,
            "NULL buffer with a capacity", __LINE__);
    }
    mktb_close(tb);
    /* A second close of a handle is harmless (reported through mktb_last_error). */
    mktb_close(tb);
    check(strstr(mktb_last_error(), "not an open handle") != NULL, "double close", __LINE__);
    if (failures)
        fprintf(stderr, "%d failures\n", failures);
    else
        printf("test_probe_c: all checks passed\n");
    return failures ? 1 : 0;
}

/* consumer.c - a program in C alone (as an engine written in C is) that probes through the C
 * API of an mktb it found with find_package, add_subdirectory or pkg-config: K+Ruea vs K, Rh8
 * mates at once (hand-checked). */
#include <mktb/probe.h>
#include <stdio.h>

int main(int argc, char** argv) {
    mktb_tablebase* tb = NULL;
    mktb_position pos;
    mktb_dtm dtm = { 0, 0 };
    int ok;
    if (argc != 2) return 2;
    ok = mktb_version() == MKTB_VERSION && mktb_open(argv[1], NULL, &tb) == MKTB_OK
        && mktb_position_from_fen("k7/8/1K6/8/8/8/8/7R w - - 0 1", &pos) == MKTB_OK
        && mktb_probe_dtm(tb, &pos, &dtm) == MKTB_OK && dtm.wdl == MKTB_WIN && dtm.plies == 1;
    mktb_close(tb);
    printf("C consumer: %s\n", ok ? "mate in 1 ply, as expected" : mktb_last_error());
    return ok ? 0 : 1;
}

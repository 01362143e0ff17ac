/* tests/xiangqi/probe_fens.c DIR - mktb's C API on Xiangqi, from C: for each FEN read from
 * stdin, one line: "wdl plies rule n uci:wdl:plies ..." (mktb_xiangqi_probe_fen,
 * mktb_xiangqi_probe_rule, then every move of mktb_xiangqi_rank_root, best first), or
 * "error STATUS MESSAGE". tests/xiangqi/interfaces.py compares the lines with `mktb probe`. */
#include <stdio.h>
#include <string.h>

#include <mktb/probe.h>

int main(int argc, char** argv) {
    mktb_tablebase* tb = NULL;
    char fen[256];
    if (argc != 2 || mktb_open(argv[1], NULL, &tb) != MKTB_OK) {
        fprintf(stderr, "probe_fens DIR: %s\n", argc == 2 ? mktb_last_error() : "give the directory");
        return 2;
    }
    while (fgets(fen, sizeof fen, stdin)) {
        mktb_dtm dtm;
        int32_t rule = 0;
        mktb_xiangqi_move moves[128];
        size_t n = 0, i;
        mktb_status s;
        fen[strcspn(fen, "\n")] = '\0';
        if ((s = mktb_xiangqi_probe_fen(tb, fen, &dtm)) != MKTB_OK
            || (s = mktb_xiangqi_probe_rule(tb, fen, &rule)) != MKTB_OK
            || (s = mktb_xiangqi_rank_root(tb, fen, moves, 128, &n)) != MKTB_OK) {
            printf("error %s %s\n", mktb_status_name(s), mktb_last_error());
            continue;
        }
        printf("%d %d %d %zu", (int)dtm.wdl, (int)dtm.plies, (int)rule, n);
        for (i = 0; i < n; ++i)
            printf(" %s:%d:%d", moves[i].uci, (int)moves[i].value.wdl, (int)moves[i].value.plies);
        printf("\n");
    }
    mktb_close(tb);
    return 0;
}

/* tests/xiangqi/probe_fens.c DIR - mktb's C API on Xiangqi, from C: for each FEN read from
 * stdin, one line: "wdl plies rule rule_plies n uci:wdl:plies ..." (mktb_xiangqi_probe_fen,
 * mktb_xiangqi_probe_rule, _probe_rule_plies, then every move of mktb_xiangqi_rank_root, best
 * first), or "error STATUS MESSAGE". The structure's entry points
 * (mktb_xiangqi_position_from_fen, then mktb_xiangqi_probe_dtm, _wdl, _rule_wdl,
 * _probe_rule_plies_position, mktb_xiangqi_rank_root_position) must give the same
 * answers: where one does not, the line is "error structure ...".
 * tests/xiangqi/interfaces.py compares the lines with `mktb probe`. */
#include <stdio.h>
#include <string.h>

#include <mktb/probe.h>

int main(int argc, char** argv) {
    mktb_tablebase* tb = NULL;
    char fen[256];
    if (argc != 2 || mktb_open(argv[1], NULL, &tb) != MKTB_OK) {
        fprintf(
            stderr, "probe_fens DIR: %s\n", argc == 2 ? mktb_last_error() : "give the directory");
        return 2;
    }
    while (fgets(fen, sizeof fen, stdin)) {
        mktb_dtm dtm;
        int32_t rule = 0, rule_plies = 0;
        mktb_xiangqi_move moves[128];
        size_t n = 0, i;
        mktb_status s;
        fen[strcspn(fen, "\n")] = '\0';
        if ((s = mktb_xiangqi_probe_fen(tb, fen, &dtm)) != MKTB_OK
            || (s = mktb_xiangqi_probe_rule(tb, fen, &rule)) != MKTB_OK
            || (s = mktb_xiangqi_probe_rule_plies(tb, fen, &rule_plies)) != MKTB_OK
            || (s = mktb_xiangqi_rank_root(tb, fen, moves, 128, &n)) != MKTB_OK) {
            printf("error %s %s\n", mktb_status_name(s), mktb_last_error());
            continue;
        }
        {
            mktb_xiangqi_position pos;
            mktb_dtm sdtm;
            mktb_wdl wdl, srule;
            int32_t splies = 0;
            mktb_xiangqi_move smoves[128];
            size_t sn = 0;
            int same = mktb_xiangqi_position_from_fen(fen, &pos) == MKTB_OK
                && mktb_xiangqi_probe_dtm(tb, &pos, &sdtm) == MKTB_OK
                && mktb_xiangqi_probe_wdl(tb, &pos, &wdl) == MKTB_OK
                && mktb_xiangqi_probe_rule_wdl(tb, &pos, &srule) == MKTB_OK
                && mktb_xiangqi_probe_rule_plies_position(tb, &pos, &splies) == MKTB_OK
                && mktb_xiangqi_rank_root_position(tb, &pos, smoves, 128, &sn) == MKTB_OK
                && sdtm.wdl == dtm.wdl && sdtm.plies == dtm.plies && wdl == dtm.wdl
                && (int)srule == (int)rule && splies == rule_plies && sn == n;
            for (i = 0; same && i < n; ++i)
                same = strcmp(smoves[i].uci, moves[i].uci) == 0
                    && smoves[i].value.wdl == moves[i].value.wdl
                    && smoves[i].value.plies == moves[i].value.plies;
            if (!same) {
                printf("error structure the structure's answers differ from the FEN's: %s\n",
                    mktb_last_error());
                continue;
            }
        }
        printf("%d %d %d %d %zu", (int)dtm.wdl, (int)dtm.plies, (int)rule, (int)rule_plies, n);
        for (i = 0; i < n; ++i)
            printf(" %s:%d:%d", moves[i].uci, (int)moves[i].value.wdl, (int)moves[i].value.plies);
        printf("\n");
    }
    mktb_close(tb);
    return 0;
}

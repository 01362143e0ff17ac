// Samples positions of one xiangqitb DTM table: prints "FEN<TAB>result" (+1 win, 0 draw, -1 loss
// for the side to move) for legal positions drawn at random from its index.
#include "chess/chess.h"
#include "chess/attack.h"
#include "chess/piece_config.h"
#include "egtb/egtb_gen_dtm.h"
#include <cstdio>
#include <random>
#include <string>

int main(int argc, char* argv[]) {
    if (argc < 5) { std::fprintf(stderr, "usage: dump DTM_DIR NAME SAMPLES SEED\n"); return 2; }
    init_possible();
    attack_init();
    EGTB_Paths paths;
    paths.add_dtm_path(argv[1]);
    paths.set_tmp_path("/tmp/xqcmp/tmp");
    paths.init_directories();
    const Piece_Config ps{std::string(argv[2])};
    const Piece_Config_For_Gen info(ps);
    DTM_File_For_Probe file(paths, ps);
    std::mt19937_64 rng(std::stoull(argv[4]));
    const size_t n = info.num_positions();
    for (long long k = std::stoll(argv[3]); k > 0;) {
        const Board_Index idx = static_cast<Board_Index>(rng() % n);
        for (const Color c : { WHITE, BLACK }) {
            Position_For_Gen pg(info, idx, c);
            if (!pg.is_legal()) continue;
            const auto entry = file.read(c, idx);
            if (!entry.is_legal()) continue;
            char fen[MAX_FEN_LENGTH];
            pg.get_fen(Span(fen));
            const int r = entry.score() == 0 ? 0 : entry.is_win() ? 1 : entry.is_lose() ? -1 : 9;
            std::printf("%s\t%d\n", fen, r);
            --k;
        }
    }
}

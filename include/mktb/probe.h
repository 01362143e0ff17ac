/* mktb/probe.h - the C probing API of mktb: Makruk endgame tablebases for engines and tools.
 *
 * Open a handle on a directory of table files, then ask about positions: win/draw/loss with
 * and without Makruk's counting rules, distance to mate, the counted distance, the best move,
 * and every root move ranked. Fixed-width types, results as enums and plain structs, no
 * globals: everything lives behind the handle. Tables are opened lazily and read a block at
 * a time; a file changed under the handle (truncated, rewritten in place, deleted) is refused
 * (MKTB_DAMAGED) until a whole file is back, never answered from. Decompressed blocks live in
 * one cache of bounded size per handle. Full and packed tables (`mktb pack`: one side to move
 * kept) answer alike; a probe of the side a packed table lacks searches one ply, so it costs a
 * few of a full table's (docs/format.md, "Packed tables").
 *
 * Every call returns an mktb_status; MKTB_OK means the out-parameters are filled. A table file
 * that is damaged (checksums) or built with other counting options gives an error code, never
 * a value. mktb_last_error() tells the details. No C++ exception ever leaves these functions.
 *
 * ABI: every struct field has a fixed width (enums are passed as int32_t fields); mktb_options
 * starts with its own size, so a program built against an older header keeps working with a
 * newer library. Compare MKTB_VERSION (the header) with mktb_version() (the library): the same
 * major version is compatible.
 *
 * Thread safety: mktb_open and mktb_position_from_fen may be called from any thread. Every
 * probe call (mktb_probe_*, mktb_best_moves, mktb_rank_root) may be made by any number of
 * threads at once on one handle. mktb_close must not overlap any other call on its handle.
 *
 * Closing: mktb_close frees a handle; closing it again is harmless (nothing happens but
 * mktb_last_error saying so), unless mktb_open has since returned the same address. Any other
 * use of a closed handle (a probe) reads freed memory, as with free(): undefined behaviour. */
#ifndef MKTB_PROBE_H
#define MKTB_PROBE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define MKTB_VERSION_MAJOR 0
#define MKTB_VERSION_MINOR 8
#define MKTB_VERSION_PATCH 0
/* 0xMMmmpp: major, minor, patch. */
#define MKTB_VERSION (MKTB_VERSION_MAJOR << 16 | MKTB_VERSION_MINOR << 8 | MKTB_VERSION_PATCH)

/* The version of the library linked (MKTB_VERSION of the header it was built with). */
uint32_t mktb_version(void);

typedef struct mktb_tablebase mktb_tablebase; /* opaque */

typedef enum mktb_status {
    MKTB_OK = 0,
    MKTB_NO_TABLE = 1, /* no table for this material (or one reached by a move) */
    MKTB_DAMAGED = 2, /* a table file is damaged, truncated or unreadable */
    MKTB_RULES_MISMATCH = 3, /* a table was built with other counting options (Makruk) or
                                repetition rules (Xiangqi) */
    MKTB_BAD_POSITION = 4, /* the position or FEN cannot occur in a game */
    MKTB_BAD_ARGUMENT = 5, /* a null pointer, an unknown rule bit, a bad options size */
    MKTB_OUT_OF_MEMORY = 6,
    MKTB_BUFFER_TOO_SMALL = 7, /* *count tells the capacity needed; nothing was written */
    MKTB_INTERNAL_ERROR = 8 /* a failure inside the library that has no other code */
} mktb_status;

typedef enum mktb_wdl { MKTB_LOSS = -1, MKTB_DRAW = 0, MKTB_WIN = 1 } mktb_wdl;

enum { MKTB_WHITE = 0, MKTB_BLACK = 1 };

/* Counting options (docs/rules.md §3-4), bits of mktb_options.rules; 0 = the defaults,
 * Fairy-Stockfish's. */
enum {
    MKTB_RULE_KHON_BEFORE_KNIGHTS = 1 << 0, /* limit_precedence = khon_before_knights */
    MKTB_RULE_DRAW_WHEN_REACHED = 1 << 1, /* draw_when = reached */
    MKTB_RULE_COUNTER_MATE_DRAWS = 1 << 2, /* counter_mate = draw */
    MKTB_RULE_BOARD_HONOUR_OFF = 1 << 3, /* board_honour = off */
    MKTB_RULE_SWITCH_IF_SHORTER = 1 << 4 /* switch_to_pieces = if_shorter */
};

typedef struct mktb_options {
    uint32_t size; /* sizeof(mktb_options): set by mktb_options_default */
    uint32_t rules; /* MKTB_RULE_* bits */
    uint64_t cache_bytes; /* decompressed blocks kept; 0 = the default (64 MiB). Counted in
                             blocks of 16 KiB: tables with 16-bit cells may hold up to twice. */
    uint32_t xiangqi_rules; /* MKTB_XIANGQI_RULES_*: Xiangqi's repetition rules (0.7) */
} mktb_options;

/* Xiangqi's repetition rules (docs/rules-xiangqi.md §5), mktb_options.xiangqi_rules: a table of
 * an ending with both sides armed made under other rules answers MKTB_RULES_MISMATCH, never
 * for these. 0 = the default (asian). (0.7) */
enum {
    MKTB_XIANGQI_RULES_DEFAULT = 0,
    MKTB_XIANGQI_RULES_NONE = 1, /* every endless line a draw: the plain distance alone */
    MKTB_XIANGQI_RULES_CHECK = 2, /* perpetual check loses; a mutual one draws */
    MKTB_XIANGQI_RULES_ASIAN = 3 /* perpetual check and perpetual chase lose (0.7) */
};

/* Fills *options with the defaults and its size. Thread-safe. */
void mktb_options_default(mktb_options* options);

/* A position. Squares a1 = 0, b1 = 1, ..., h8 = 63; bit s of a bitboard is square s. */
typedef struct mktb_position {
    uint64_t white, black; /* the men of each colour */
    uint64_t khun, met, khon, ma, ruea, bia; /* the men of each kind (a promoted Bia is a Met) */
    uint8_t side_to_move; /* MKTB_WHITE or MKTB_BLACK */
    uint16_t counting_limit, counting_ply; /* FEN fields 4-5 in plies; both 0: no count
                                              given, the probe assumes the count the
                                              position starts now */
} mktb_position;

typedef struct mktb_dtm {
    int32_t wdl; /* an mktb_wdl, for the side to move, no counting */
    int32_t plies; /* plies to mate when wdl != MKTB_DRAW (0: checkmated now); -1 for a draw */
} mktb_dtm;

typedef struct mktb_counted {
    int32_t wdl; /* an mktb_wdl, for the side to move, under the count */
    int32_t moves_needed; /* the winner's moves to mate (or to a winning conversion); -1: none */
    int32_t moves_available; /* the winner's moves left in the count; -1: no count runs */
} mktb_counted;

typedef struct mktb_move {
    uint8_t from, to; /* squares */
    uint8_t promotes; /* 1 when a Bia promotes */
    char uci[6]; /* "e3e4", "g5g6m" (a promotion), NUL-terminated */
} mktb_move;

/* A root move's values in one view: the mover's, each counting the move itself. pure.plies is
 * the mover's distance to mate with this move included (a mating move: 1). counted.wdl is the
 * mover's result under the count; moves_needed (the winner's moves to mate or to a winning
 * conversion) and moves_available (the moves the count leaves the winner) both include this
 * move when the mover is the winner. */
typedef struct mktb_root_move {
    mktb_move move;
    mktb_dtm pure;
    mktb_counted counted;
} mktb_root_move;

/* Opens the tables in `dir` (it lists the directory; no table is read yet; tables added to it
 * later are not seen). options may be NULL (defaults); options->size must be at least the size
 * of its first two fields. MKTB_BAD_ARGUMENT when dir is no directory. Thread-safe: any thread,
 * any number of handles. */
mktb_status mktb_open(const char* dir, const mktb_options* options, mktb_tablebase** out);
/* Frees the handle and its cache (NULL is allowed; a handle closed already is left alone).
 * Not thread-safe for its handle: no other call on it may run at the same time or follow. */
void mktb_close(mktb_tablebase* tb);

/* Whether the directory holds the table of a material, written as a player would ("KRvKM",
 * "KvKR", men in any order): MKTB_OK when it does, MKTB_NO_TABLE when not, MKTB_BAD_ARGUMENT
 * for a name that is no material. Lock-free and thread-safe, like every probe. */
mktb_status mktb_available(const mktb_tablebase* tb, const char* material);
/* The most men of any table in the directory (0: none); like Fathom's TB_LARGEST. Thread-safe. */
uint32_t mktb_largest(const mktb_tablebase* tb);

/* Parses a Makruk FEN (Fairy-Stockfish letters; fields 4-5 the count state). Thread-safe. */
mktb_status mktb_position_from_fen(const char* fen, mktb_position* out);

/* Pure win/draw/loss and distance to mate, for the side to move. Thread-safe: any number of
 * threads may probe one handle at once (so may every call below). */
mktb_status mktb_probe_wdl(const mktb_tablebase* tb, const mktb_position* pos, mktb_wdl* out);
mktb_status mktb_probe_dtm(const mktb_tablebase* tb, const mktb_position* pos, mktb_dtm* out);
/* The answer under the count: won within the count, and in how many moves. Thread-safe. */
mktb_status mktb_probe_counted(
    const mktb_tablebase* tb, const mktb_position* pos, mktb_counted* out);
mktb_status mktb_probe_counted_wdl(
    const mktb_tablebase* tb, const mktb_position* pos, mktb_wdl* out);

/* Views for mktb_best_moves. */
enum { MKTB_VIEW_PURE = 0, MKTB_VIEW_COUNTED = 1 };

/* Every move that keeps the best answer, under the count (MKTB_VIEW_COUNTED: the counted result
 * and distance) or without it (MKTB_VIEW_PURE: the fastest mate, the slowest loss, or every
 * drawing move), into moves[0 .. capacity); *count = how many there are (0: no legal move;
 * MKTB_BUFFER_TOO_SMALL when they exceed capacity). moves may be NULL with capacity 0: *count
 * then tells the size needed (MKTB_BUFFER_TOO_SMALL, or MKTB_OK when there is no move).
 * Thread-safe. */
mktb_status mktb_best_moves(const mktb_tablebase* tb, const mktb_position* pos, int32_t view,
    mktb_move* moves, size_t capacity, size_t* count);

/* Every legal move, best first (counted result, counted distance, then pure distance), into
 * moves[0 .. capacity); *count = the number of legal moves (MKTB_BUFFER_TOO_SMALL when it
 * exceeds capacity; 128 always suffices). moves may be NULL with capacity 0, as for
 * mktb_best_moves. Thread-safe. */
mktb_status mktb_rank_root(const mktb_tablebase* tb, const mktb_position* pos,
    mktb_root_move* moves, size_t capacity, size_t* count);

/* Xiangqi (docs/rules-xiangqi.md), from the Xiangqi tables of the handle's directory
 * (KRvKAABB.xq.mktb): the position as a Xiangqi FEN (ten ranks, Fairy-Stockfish's letters
 * K A B N R C P, Red upper case). The plain distance to mate: stalemate is a loss (plies 0, as
 * a mate), every endless line a draw. Counting options do not apply. MKTB_BAD_POSITION for a
 * FEN that is not a legal Xiangqi position. Thread-safe. */
mktb_status mktb_xiangqi_probe_fen(const mktb_tablebase* tb, const char* fen, mktb_dtm* out);

/* The result under the handle's repetition rules (mktb_options.xiangqi_rules; under check a
 * side that checks on every move of an endless line while the other does not loses, perpetual
 * chase not modelled; under asian, the default, perpetual chase loses too; under none every
 * endless line is a draw), for the side to move:
 * *result = 1 won, 0 drawn, -1 lost. Where the plain distance is a mate it is its sign; only
 * a plain draw can be won or lost by the rule, and only where both sides are armed. The same
 * arguments and statuses as mktb_xiangqi_probe_fen. Thread-safe. (0.4) */
mktb_status mktb_xiangqi_probe_rule(const mktb_tablebase* tb, const char* fen, int32_t* result);

/* Where only the repetition rules decide the result (the plain distance is a draw): the rule's
 * distance in plies (docs/rules-xiangqi.md section 5c), until the loser stands where it can
 * leave the cycle of its checks or chases only into a loss or by breaking the rule again; even
 * where the side to move loses, odd where it wins. *plies = -1 elsewhere, and for a table made
 * before the distances. The same arguments and statuses as mktb_xiangqi_probe_fen.
 * Thread-safe. (0.8) */
mktb_status mktb_xiangqi_probe_rule_plies(
    const mktb_tablebase* tb, const char* fen, int32_t* plies);

/* A Xiangqi move: points numbered rank * 9 + file from a1 (0) to i10 (89). */
typedef struct mktb_xiangqi_move {
    uint8_t from, to;
    char uci[8]; /* "h3e3", "a10a9", NUL-terminated */
    mktb_dtm value; /* for the mover, the move included (a mating move: plies 1) */
} mktb_xiangqi_move;

/* Every legal move of a Xiangqi FEN, best first (by the result under the perpetual-check rule,
 * then the plain value), as mktb_rank_root does for Makruk (the same buffer rules; 128 always
 * suffices). Thread-safe. */
mktb_status mktb_xiangqi_rank_root(const mktb_tablebase* tb, const char* fen,
    mktb_xiangqi_move* moves, size_t capacity, size_t* count);

/* A Xiangqi position as a structure, the same shape as mktb_position: a point's byte is 0
 * (empty) or a man's kind, plus MKTB_XIANGQI_BLACK_MAN for Black's. (0.6) */
enum {
    MKTB_XIANGQI_KING = 1,
    MKTB_XIANGQI_ADVISOR = 2,
    MKTB_XIANGQI_ELEPHANT = 3,
    MKTB_XIANGQI_HORSE = 4,
    MKTB_XIANGQI_CHARIOT = 5,
    MKTB_XIANGQI_CANNON = 6,
    MKTB_XIANGQI_SOLDIER = 7,
    MKTB_XIANGQI_BLACK_MAN = 8
};
typedef struct mktb_xiangqi_position {
    uint8_t point[90]; /* the man on each point, rank * 9 + file (a1 = 0, i10 = 89) */
    uint8_t side_to_move; /* MKTB_WHITE (Red) or MKTB_BLACK */
} mktb_xiangqi_position;

/* Parses a Xiangqi FEN into the structure (MKTB_BAD_POSITION, with the reason, for one that is
 * not a legal Xiangqi position). Thread-safe. (0.6) */
mktb_status mktb_xiangqi_position_from_fen(const char* fen, mktb_xiangqi_position* out);
/* The FEN entry points' answers for a structure: MKTB_BAD_POSITION where it is not a legal
 * position (a man off its points, kings facing, a king missing, the side not to move in
 * check). Thread-safe. (0.6) */
mktb_status mktb_xiangqi_probe_dtm(
    const mktb_tablebase* tb, const mktb_xiangqi_position* pos, mktb_dtm* out);
mktb_status mktb_xiangqi_probe_wdl(
    const mktb_tablebase* tb, const mktb_xiangqi_position* pos, mktb_wdl* out);
/* As mktb_xiangqi_probe_rule: the result under the perpetual-check rule. */
mktb_status mktb_xiangqi_probe_rule_wdl(
    const mktb_tablebase* tb, const mktb_xiangqi_position* pos, mktb_wdl* out);
/* As mktb_xiangqi_probe_rule_plies. (0.8) */
mktb_status mktb_xiangqi_probe_rule_plies_position(
    const mktb_tablebase* tb, const mktb_xiangqi_position* pos, int32_t* plies);
/* As mktb_xiangqi_rank_root. */
mktb_status mktb_xiangqi_rank_root_position(const mktb_tablebase* tb,
    const mktb_xiangqi_position* pos, mktb_xiangqi_move* moves, size_t capacity, size_t* count);

/* A constant name for a status: "ok", "no table", ... Thread-safe. */
const char* mktb_status_name(mktb_status status);
/* The message of the last failed call on the calling thread ("" after success). Thread-safe:
 * each thread has its own; the text stays valid until that thread's next mktb call. */
const char* mktb_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* MKTB_PROBE_H */

/* The native kernel of the rules (the extension module
 * mancala_cli.rules._native): what its units share.  Declarations only:
 * constants, types and the functions one unit gives the others.
 *
 *   _native.c          the module: its state, init and exec, the Python
 *                      objects read and made, and the functions that play
 *                      moves for mancala_cli/rules/native.py
 *   native_rules.c     the boards, sowing and the moves of the three games,
 *                      the endless-sowing test, the end conditions
 *   native_search.c    the search (Solver.search, Solver.prove) and its
 *                      type, Search
 *   native_tablebase.c kimasai-klamroth's endgame tables: the build and the
 *                      probe
 *
 * The pure-Python modules beside these files are the reference: every
 * function here mirrors one of theirs step for step, and tests/test_native*.py
 * hold both together (docs/native.md: how to change a rule in both cores).
 * The Python side is mancala_cli/rules/native.py.
 */
#ifndef MANCALA_NATIVE_H
#define MANCALA_NATIVE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>

/* -- constants -------------------------------------------------------------- */

/* The games, by the code native.py gives them. */
enum { MACKAY = 0, KLAMROTH = 1, KINGULU = 2, GAMES = 3 };
#define MAXH 48          /* the most holes of a board */
#define LAP_LIMIT 1000   /* core.LAP_LIMIT */
#define WATCH_FROM 32    /* core.WATCH_FROM */
/* The most seeds a hole may hold for the kernel to play a position; beyond
 * it (never in a valid position) the Python rules play it. */
#define MAX_SEEDS 255

/* A move's verdict (Result.error): the codes of the illegal moves, which
 * the module exports by these names and native.py reads from it. */
enum {
    OK = 0,
    ERR_ORIGIN = 1,
    ERR_EMPTY = 2,
    ERR_RESERVED = 3,
    ERR_BLOCKED = 4,
    ERR_FIRSTLAP = 5,
    ERR_ENDLESS_LIMIT = 6,
    ERR_ENDLESS_REPEAT = 7,
};

/* A game's value for the side to move (solver.WIN, DRAW_VALUE, LOSS). */
#define WIN 1
#define DRAW_VALUE 0
#define LOSS -1

/* kimasai-klamroth's endgame tables: the places of a side's circuit, and
 * the most stones a table holds. */
#define TB_PLACES 24
#define TB_MAX_STONES 16

/* -- types ------------------------------------------------------------------ */

/* A board, built as core.Board builds it (native_build_geo). */
typedef struct {
    int size, files, ranks, half;
    int clen;
    int circuit[2][MAXH];  /* per side, in sowing order */
    int place[2][MAXH];    /* a hole's place on its side's circuit, -1 if none */
    int opposite[MAXH];
    int front_lo[2];       /* a side's front row: [front_lo, front_lo + files) */
    int step[MAXH];        /* klamroth: the hole a stone steps into */
    int behind[MAXH];      /* klamroth: the back hole behind a front hole */
} Geo;

/* A position (core.MutablePosition). */
typedef struct {
    int holes[MAXH];
    int side;             /* 0 South, 1 North */
    int banks[2];
    long long move_number;
    uint64_t reserved;    /* kingulu: a bit per reserved hole */
} State;

/* What a move did (core.Move), or why it is illegal (error, and the facts
 * its message names: hole, laps, repeated). */
typedef struct {
    int end, captured, reserves, laps;
    int error, hole, repeated;
} Result;

/* The endless-sowing test's record of the lap ends of the move being played
 * (core.going_on's ``seen``), and the lap limit of the moves played:
 * LAP_LIMIT unless the last call of move, successors or play_line passed a
 * lower one (the search plays with that of the last call), and the lap from
 * which the test is made. */
#define SEEN_SLOTS 4096
typedef struct {
    int lap_limit, watch_from;
    int seen_count;
    int seen_lap[SEEN_SLOTS];
    unsigned char seen_board[LAP_LIMIT + 1][MAXH + 1];
} Sowing;

/* What the rules play on: the three boards (read only once built) and the
 * endless-sowing record. */
typedef struct {
    Geo geo[GAMES];
    Sowing sowing;
} Rules;

/* The Zobrist keys of the search's table (native_search_exec), the same in
 * every module: seeded by a constant. */
typedef struct {
    uint64_t hole[2][MAXH][256], side[2], bank[2][2][256], reserved[MAXH], first;
} Zobrist;

/* The tablebase's read-only tables (native_tablebase_exec): binomials, and
 * the hole of each place by the side whose circuit it is (0 South, 1 North). */
typedef struct {
    uint64_t bin[TB_PLACES + 1][TB_PLACES + 1];
    int hole[2][TB_PLACES];
} TbTables;

/* The table the searches of a module ask (tablebase_use), if any. */
typedef struct {
    Py_buffer view;
    int loaded, stones;
    uint64_t offsets[TB_MAX_STONES + 1][TB_MAX_STONES + 1];
} TbProbe;

/* The module's state (PEP 489, PEP 573): everything that is not a constant. */
typedef struct {
    Rules rules;
    Zobrist z;
    TbTables tb;
    TbProbe probe;
    PyObject *move_type, *position_type, *side_s, *side_n;  /* set by init() */
    PyObject *str_holes, *str_side, *str_banks, *str_move_number, *str_reserved;
    PyObject *search_type;
} NativeState;

static inline NativeState *native_state(PyObject *module) { return (NativeState *)PyModule_GetState(module); }

/* -- native_rules.c: the rules ---------------------------------------------- */

void native_build_geo(Geo *g, int ranks, int files, int clockwise);
/* Each game's move (Game._move): plays ``origin`` on ``s`` in place; an
 * illegal move sets r->error and leaves ``s`` in between. */
void native_mackay_move(Rules *rules, State *s, int origin, Result *r);
void native_klamroth_move(Rules *rules, State *s, int origin, Result *r);
void native_kingulu_move(Rules *rules, State *s, int origin, Result *r);
/* The end conditions that need no legal move and no history (KM-9, KK-4a):
 * 1 and the value for the side to move in *value where one holds, else 0. */
int native_ended(const Rules *rules, int game, const State *s, int *value);
/* The value for the side to move of a position without a legal move (KM-9,
 * KK-4c, KG-7). */
int native_no_moves(const Rules *rules, int game, const State *s);

/* Whether ``s`` is before the first move of all (South to move, move 1),
 * which KM-4 treats apart (no reserve seed is introduced): the rules'
 * (native_rules.c, native_mackay_move) and so a part of the search's table key
 * (native_search.c; solver.Solver.key).  The same rule:
 * kimasai_mackay.py, KimasaiMackay._move. */
static inline int native_first_turn(const State *s) { return s->move_number == 1 && s->side == 0; }

/* The move of ``game`` (inline: the dispatch is made where the move is
 * played, the search's hottest call). */
static inline void native_play(Rules *rules, int game, State *s, int origin, Result *r)
{
    switch (game) {
    case MACKAY: native_mackay_move(rules, s, origin, r); break;
    case KLAMROTH: native_klamroth_move(rules, s, origin, r); break;
    default: native_kingulu_move(rules, s, origin, r); break;
    }
}

/* The origins worth trying (Game._origins, Kingulu._origins). */
static inline int native_try_origin(int game, const State *s, int h)
{
    return s->holes[h] && !(game == KINGULU && (s->reserved >> h & 1));
}

/* -- _native.c: the Python objects ------------------------------------------- */

int native_game_arg(const NativeState *st, int game);
int native_side_of(const NativeState *st, PyObject *side);
int native_read_holes(const NativeState *st, int game, PyObject *holes, State *s);
int native_read_position(const NativeState *st, int game, PyObject *position, State *s);

/* -- native_search.c: the search --------------------------------------------- */

/* Py_mod_exec's part: the Zobrist keys, the type Search and the search's
 * constants (0, or -1 with an exception set). */
int native_search_exec(PyObject *module, NativeState *st);
PyObject *native_entry_bytes(PyObject *module, PyObject *unused);

/* -- native_tablebase.c: the endgame tables ---------------------------------- */

/* Py_mod_exec's part, once the boards are built (a side's places are the
 * Klamroth board's circuit): the read-only tables, no table in use, the
 * format's constants (0, or -1 with an exception set). */
int native_tablebase_exec(PyObject *module, NativeState *st);
void native_tablebase_release(TbProbe *t);
int native_tablebase_bounds(const NativeState *st, const State *s, const uint8_t *holes, const uint8_t *side,
                            size_t stride, int count, int *low, int *high);
PyObject *native_tablebase_build(PyObject *module, PyObject *args);
PyObject *native_tablebase_use(PyObject *module, PyObject *args);
PyObject *native_tablebase_probe(PyObject *module, PyObject *args);

#endif

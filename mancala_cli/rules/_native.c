/* The native kernel of the rules: the three games' boards as flat arrays,
 * move generation and sowing (with the exact endless-sowing decision and the
 * rule id of every illegal move), and the search (alpha-beta over
 * win/draw/loss bounds with a Zobrist-hashed transposition table bounded by
 * bytes).
 *
 * The pure-Python modules beside this file are the reference: every function
 * here mirrors one of theirs step for step, and tests/test_native*.py hold
 * both together.  The Python side is mancala_cli/rules/native.py.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#ifndef SOURCE_DIGEST
#define SOURCE_DIGEST ""
#endif

enum { MACKAY = 0, KLAMROTH = 1, KINGULU = 2, GAMES = 3 };
#define MAXH 48
#define LAP_LIMIT 1000
#define WATCH_FROM 32
/* The most seeds a hole may hold for the kernel to play a position; beyond
 * it (never in a valid position) the Python rules play it. */
#define MAX_SEEDS 255

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

typedef struct {
    int holes[MAXH];
    int side;             /* 0 South, 1 North */
    int banks[2];
    long long move_number;
    uint64_t reserved;    /* kingulu: a bit per reserved hole */
} State;

typedef struct {
    int end, captured, reserves, laps;
    int error, hole, repeated;
} Result;

/* The endless-sowing test's record of the lap ends of the move being played
 * (core.going_on's ``seen``), and the lap limit of the moves played:
 * LAP_LIMIT unless the last call of move, successors or play_line passed a
 * lower one (the search plays with that of the last call), and the lap from
 * which going_on is called. */
#define SEEN_SLOTS 4096
typedef struct {
    int lap_limit, watch_from;
    int seen_count;
    int seen_lap[SEEN_SLOTS];
    unsigned char seen_board[LAP_LIMIT + 1][MAXH + 1];
} Sowing;

/* The Zobrist keys of the search's table (search_init), the same in every
 * module: seeded by a constant. */
typedef struct {
    uint64_t hole[2][MAXH][256], side[2], bank[2][2][256], reserved[MAXH], first;
} Zobrist;

#define TB_PLACES 24
#define TB_MAX_STONES 16

/* The tablebase's read-only tables (tablebase_init): binomials, and the
 * hole of each place by the side whose circuit it is (0 South, 1 North). */
typedef struct {
    uint64_t bin[TB_PLACES + 1][TB_PLACES + 1];
    int hole[2][TB_PLACES];
} TbTables;

/* The table the searches of this module ask (tablebase_use), if any. */
typedef struct {
    Py_buffer view;
    int loaded, stones;
    uint64_t offsets[TB_MAX_STONES + 1][TB_MAX_STONES + 1];
} TbProbe;

/* The module's state (PEP 489, PEP 573): what was process-wide static. */
typedef struct {
    Geo geo[GAMES];          /* the boards, built when the module is executed */
    Zobrist z;
    TbTables tb;
    TbProbe probe;
    Sowing sowing;
    PyObject *move_type, *position_type, *side_s, *side_n;  /* set by init() */
    PyObject *str_holes, *str_side, *str_banks, *str_move_number, *str_reserved;
    PyObject *search_type;
} NativeState;

static inline NativeState *state_of(PyObject *module) { return (NativeState *)PyModule_GetState(module); }

/* -- geometry, built as core.Board builds it ------------------------------ */

static int opposite_of(int ranks, int files, int hole)
{
    int rank = hole / files + 1, file = hole % files, facing;
    if (ranks == 2)
        facing = 3 - rank;
    else
        facing = rank <= 2 ? 3 : 2;
    return (facing - 1) * files + file;
}

static void build_geo(Geo *g, int ranks, int files, int clockwise)
{
    int size = ranks * files, side, i;
    g->size = size;
    g->files = files;
    g->ranks = ranks;
    g->half = size / 2;
    for (side = 0; side < 2; side++)
        for (i = 0; i < MAXH; i++)
            g->place[side][i] = -1;
    int ccw[2][MAXH], n = 0;
    if (ranks == 4) {
        /* South: rows[0] + rows[1][::-1]; North: rows[3][::-1] + rows[2] */
        for (i = 0; i < files; i++) ccw[0][n++] = i;
        for (i = files - 1; i >= 0; i--) ccw[0][n++] = files + i;
        n = 0;
        for (i = files - 1; i >= 0; i--) ccw[1][n++] = 3 * files + i;
        for (i = 0; i < files; i++) ccw[1][n++] = 2 * files + i;
        g->clen = 2 * files;
        g->front_lo[0] = files;
        g->front_lo[1] = 2 * files;
    } else {
        /* one circuit: rows[0] + rows[1][::-1]; North's starts at rows[1][::-1] */
        int whole[MAXH];
        for (i = 0; i < files; i++) whole[n++] = i;
        for (i = files - 1; i >= 0; i--) whole[n++] = files + i;
        for (i = 0; i < size; i++) {
            ccw[0][i] = whole[i];
            ccw[1][i] = whole[(i + files) % size];
        }
        g->clen = size;
        g->front_lo[0] = 0;
        g->front_lo[1] = files;
    }
    for (side = 0; side < 2; side++)
        for (i = 0; i < g->clen; i++) {
            g->circuit[side][i] = clockwise ? ccw[side][g->clen - 1 - i] : ccw[side][i];
        }
    for (side = 0; side < 2; side++)
        for (i = 0; i < g->clen; i++)
            g->place[side][g->circuit[side][i]] = i;
    for (i = 0; i < size; i++) {
        g->opposite[i] = opposite_of(ranks, files, i);
        g->step[i] = -1;
        g->behind[i] = -1;
    }
    for (side = 0; side < 2; side++)
        for (i = 0; i < g->clen; i++)
            g->step[ccw[side][i]] = ccw[side][(i + 1) % g->clen];
    if (ranks == 4)
        for (i = 0; i < size; i++) {
            int rank = i / files + 1;
            if (rank == 2) g->behind[i] = i - files;
            if (rank == 3) g->behind[i] = i + files;
        }
}

/* -- endless sowing: the lap-end states of one move ------------------------ */

/* The lap limit of the call: ``limit`` (NULL: LAP_LIMIT); -1 when the
 * kernel does not take it. */
static int set_limit(Sowing *w, PyObject *limit)
{
    long long v;
    if (limit == NULL) v = LAP_LIMIT;
    else if (!PyLong_CheckExact(limit)) return -1;
    else {
        int overflow;
        v = PyLong_AsLongLongAndOverflow(limit, &overflow);
        if (overflow || v < 1 || v > LAP_LIMIT) return -1;
    }
    w->lap_limit = (int)v;
    w->watch_from = w->lap_limit < WATCH_FROM ? w->lap_limit : WATCH_FROM;
    return 0;
}

static uint64_t board_hash(const int *holes, int size, int hole)
{
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < size; i++) {
        h ^= (uint64_t)holes[i];
        h *= 1099511628211ULL;
    }
    h ^= (uint64_t)hole + 0x9e3779b97f4a7c15ULL;
    h *= 1099511628211ULL;
    return h;
}

/* Core.going_on: lap ``laps`` ended in ``hole`` and the move goes on. */
static int going_on(Sowing *w, const Geo *g, const int *holes, int hole, int laps, Result *r)
{
    if (laps >= w->lap_limit) {
        r->error = ERR_ENDLESS_LIMIT;
        r->laps = laps;
        r->hole = hole;
        return 1;
    }
    if (laps >= WATCH_FROM) {
        if (w->seen_count == 0) {
            w->seen_count = 0;
            for (int i = 0; i < SEEN_SLOTS; i++) w->seen_lap[i] = 0;
        }
        uint64_t h = board_hash(holes, g->size, hole);
        unsigned slot = (unsigned)(h & (SEEN_SLOTS - 1));
        while (w->seen_lap[slot]) {
            const unsigned char *b = w->seen_board[w->seen_lap[slot]];
            int same = b[g->size] == hole;
            for (int i = 0; same && i < g->size; i++)
                same = b[i] == holes[i];
            if (same) {
                r->error = ERR_ENDLESS_REPEAT;
                r->laps = laps;
                r->hole = hole;
                r->repeated = w->seen_lap[slot];
                return 1;
            }
            slot = (slot + 1) & (SEEN_SLOTS - 1);
        }
        for (int i = 0; i < g->size; i++) w->seen_board[laps][i] = (unsigned char)holes[i];
        w->seen_board[laps][g->size] = (unsigned char)hole;
        w->seen_lap[slot] = laps;
        w->seen_count++;
    }
    return 0;
}

/* core.sow: one lap; returns the circuit place of the last seed. */
static inline int sow(int *holes, const int *circuit, int length, int place, int hand)
{
    int rounds = hand / length, rest = hand % length, k;
    if (rounds)
        for (k = 0; k < length; k++) holes[circuit[k]] += rounds;
    for (k = place; k < place + rest; k++) holes[circuit[k % length]] += 1;
    return (place + hand - 1) % length;
}

static inline void pass_turn(State *s)
{
    if (s->side == 1) {
        s->side = 0;
        s->move_number++;
    } else
        s->side = 1;
}

static inline int check_origin(const Geo *g, const State *s, int origin, Result *r)
{
    int lo = s->side * g->half;
    if (origin < lo || origin >= lo + g->half) {
        r->error = ERR_ORIGIN;
        return 1;
    }
    if (s->holes[origin] == 0) {
        r->error = ERR_EMPTY;
        return 1;
    }
    return 0;
}

/* kimasai_mackay.KimasaiMackay._move */
static void mackay_move(NativeState *st, State *s, int origin, Result *r)
{
    const Geo *g = &st->geo[MACKAY];
    Sowing *w = &st->sowing;
    int *holes = s->holes, side = s->side;
    r->error = OK;
    w->seen_count = 0;
    if (check_origin(g, s, origin, r)) return;
    int phase = (s->banks[0] || s->banks[1]) ? 1 : 2;
    int first_turn = s->move_number == 1 && side == 0;
    if (phase == 1 && !first_turn && s->banks[side]) {
        holes[origin] += 1;
        s->banks[side] -= 1;
    }
    const int *circuit = g->circuit[side];
    int length = g->clen, inner_lo = g->front_lo[side], raided = 0, laps = 0, hole;
    int hand = holes[origin];
    holes[origin] = 0;
    int place = g->place[side][origin] + 1;
    for (;;) {
        laps++;
        int last = sow(holes, circuit, length, place, hand);
        hole = circuit[last];
        if (holes[hole] == 1) break;
        if (laps >= w->watch_from && going_on(w, g, holes, hole, laps, r)) return;
        int facing = g->opposite[hole];
        if (phase == 2 && hole >= inner_lo && hole < inner_lo + g->files && holes[facing]) {
            hand = holes[facing];
            holes[facing] = 0;
            raided += hand;
            place = last;
        } else {
            hand = holes[hole];
            holes[hole] = 0;
            place = last + 1;
        }
    }
    pass_turn(s);
    r->end = hole;
    r->captured = raided;
    r->reserves = 0;
    r->laps = laps;
}

/* kimasai_klamroth.KimasaiKlamroth._move */
static void klamroth_move(NativeState *st, State *s, int origin, Result *r)
{
    const Geo *g = &st->geo[KLAMROTH];
    int *holes = s->holes, side = s->side;
    r->error = OK;
    if (check_origin(g, s, origin, r)) return;
    int target = g->step[origin];
    if (holes[target]) {
        r->error = ERR_BLOCKED;
        r->hole = target;
        return;
    }
    holes[origin] = 0;
    holes[target] = 1;
    int captured = 0;
    int lo = g->front_lo[side];
    if (target >= lo && target < lo + g->files) {
        int facing = g->opposite[target];
        if (holes[facing]) {
            holes[facing] = 0;
            captured = 1;
            int back = g->behind[facing];
            if (holes[back]) {
                holes[back] = 0;
                captured = 2;
            }
            s->banks[side] += captured;
        }
    }
    pass_turn(s);
    r->end = target;
    r->captured = captured;
    r->reserves = 0;
    r->laps = 1;
}

/* kingulu.Kingulu._move */
static void kingulu_move(NativeState *st, State *s, int origin, Result *r)
{
    const Geo *g = &st->geo[KINGULU];
    Sowing *w = &st->sowing;
    int *holes = s->holes, side = s->side;
    r->error = OK;
    w->seen_count = 0;
    if (check_origin(g, s, origin, r)) return;
    uint64_t reserved = s->reserved;
    if (reserved >> origin & 1) {
        r->error = ERR_RESERVED;
        return;
    }
    const int *circuit = g->circuit[0];
    int length = g->clen, lo = side * g->half, hi = lo + g->half;
    int captured = 0, reserves = 0, laps = 0, hole;
    int hand = holes[origin];
    holes[origin] = 0;
    int place = g->place[0][origin] + 1;
    for (;;) {
        laps++;
        int last = sow(holes, circuit, length, place, hand);
        hole = circuit[last];
        int before = holes[hole] - 1;
        int mine = hole >= lo && hole < hi;
        if (reserved >> hole & 1) break;
        if (!mine && before == 3) {
            if (hand >= 2) {
                holes[circuit[(last - 1 + length) % length]] -= 1;
                holes[hole] += 1;
            }
            s->reserved = reserved | (1ULL << hole);
            reserves = 1;
            break;
        }
        if (before == 0) {
            int facing = g->opposite[hole];
            if (mine && !(reserved >> facing & 1) && holes[facing]) {
                captured = holes[facing];
                holes[facing] = 0;
                holes[hole] = 0;
                s->banks[side] += captured + 1;
            }
            break;
        }
        if (laps == 1 && mine) {
            r->error = ERR_FIRSTLAP;
            r->hole = hole;
            return;
        }
        if (laps >= w->watch_from && going_on(w, g, holes, hole, laps, r)) return;
        hand = holes[hole];
        holes[hole] = 0;
        place = last + 1;
    }
    pass_turn(s);
    r->end = hole;
    r->captured = captured;
    r->reserves = reserves;
    r->laps = laps;
}

static inline void play(NativeState *st, int game, State *s, int origin, Result *r)
{
    switch (game) {
    case MACKAY: mackay_move(st, s, origin, r); break;
    case KLAMROTH: klamroth_move(st, s, origin, r); break;
    default: kingulu_move(st, s, origin, r); break;
    }
}

/* The origins worth trying (Game._origins, Kingulu._origins), in index order. */
static inline int try_origin(int game, const State *s, int h)
{
    return s->holes[h] && !(game == KINGULU && (s->reserved >> h & 1));
}

/* -- the Python objects ------------------------------------------------------ */

static int side_of(const NativeState *st, PyObject *side)
{
    if (side == st->side_s) return 0;
    if (side == st->side_n) return 1;
    if (!PyUnicode_Check(side)) return -1;
    if (PyUnicode_Compare(side, st->side_s) == 0) return 0;
    if (PyUnicode_Compare(side, st->side_n) == 0) return 1;
    if (PyErr_Occurred()) PyErr_Clear();
    return -1;
}

static int read_int(PyObject *o, long long *out)
{
    if (!PyLong_CheckExact(o)) return -1;
    int overflow;
    *out = PyLong_AsLongLongAndOverflow(o, &overflow);
    if (overflow || (*out == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return -1;
    }
    return 0;
}

/* Reads holes (a list or tuple), banks, side, move number and reserved holes
 * into a state; 0 when the kernel can play it, -1 when not (the Python rules
 * play it then). */
static int read_holes(const NativeState *st, int game, PyObject *holes, State *s)
{
    const Geo *g = &st->geo[game];
    Py_ssize_t n;
    PyObject **items;
    if (PyList_CheckExact(holes)) {
        n = PyList_GET_SIZE(holes);
        items = ((PyListObject *)holes)->ob_item;
    } else if (PyTuple_CheckExact(holes)) {
        n = PyTuple_GET_SIZE(holes);
        items = ((PyTupleObject *)holes)->ob_item;
    } else
        return -1;
    if (n != g->size) return -1;
    long long total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long long v;
        if (read_int(items[i], &v) || v < 0 || v > MAX_SEEDS) return -1;
        s->holes[i] = (int)v;
        total += v;
    }
    /* (so that no hole can hold more than MAX_SEEDS while a move is sown) */
    return total <= MAX_SEEDS ? 0 : -1;
}

static int read_rest(const NativeState *st, int game, PyObject *side, PyObject *banks, PyObject *number,
                     PyObject *reserved, State *s)
{
    Py_ssize_t n;
    PyObject **items;
    s->side = side_of(st, side);
    if (s->side < 0) return -1;
    if (PyList_CheckExact(banks)) {
        n = PyList_GET_SIZE(banks);
        items = ((PyListObject *)banks)->ob_item;
    } else if (PyTuple_CheckExact(banks)) {
        n = PyTuple_GET_SIZE(banks);
        items = ((PyTupleObject *)banks)->ob_item;
    } else
        return -1;
    if (n != 2) return -1;
    for (int i = 0; i < 2; i++) {
        long long v;
        if (read_int(items[i], &v) || v < 0 || v > 65535) return -1;
        s->banks[i] = (int)v;
    }
    if (read_int(number, &s->move_number) || s->move_number > (1LL << 60)) return -1;
    s->reserved = 0;
    if (!PyFrozenSet_CheckExact(reserved)) return -1;
    if (PySet_GET_SIZE(reserved)) {
        if (game != KINGULU) return -1;
        PyObject *iterator = PyObject_GetIter(reserved), *key;
        if (iterator == NULL) {
            PyErr_Clear();
            return -1;
        }
        while ((key = PyIter_Next(iterator)) != NULL) {
            long long v;
            int bad = read_int(key, &v) || v < 0 || v >= st->geo[game].size;
            Py_DECREF(key);
            if (bad) {
                Py_DECREF(iterator);
                return -1;
            }
            s->reserved |= 1ULL << v;
        }
        Py_DECREF(iterator);
        if (PyErr_Occurred()) {
            PyErr_Clear();
            return -1;
        }
    }
    return 0;
}

static int read_position(const NativeState *st, int game, PyObject *position, State *s)
{
    if (!PyTuple_Check(position) || PyTuple_GET_SIZE(position) != 5) return -1;
    if (read_holes(st, game, PyTuple_GET_ITEM(position, 0), s)) return -1;
    return read_rest(st, game, PyTuple_GET_ITEM(position, 1), PyTuple_GET_ITEM(position, 2),
                     PyTuple_GET_ITEM(position, 3), PyTuple_GET_ITEM(position, 4), s);
}

/* A tuple of the named-tuple class ``type`` holding ``items`` (stolen). */
static PyObject *named(PyObject *type, PyObject **items, int n)
{
    PyObject *t = ((PyTypeObject *)type)->tp_alloc((PyTypeObject *)type, n);
    if (t == NULL) {
        for (int i = 0; i < n; i++) Py_XDECREF(items[i]);
        return NULL;
    }
    for (int i = 0; i < n; i++) {
        if (items[i] == NULL) {
            Py_DECREF(t);
            for (int j = i + 1; j < n; j++) Py_XDECREF(items[j]);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, items[i]);
    }
    return t;
}

static PyObject *make_move(const NativeState *st, int origin, const Result *r)
{
    PyObject *items[5] = {PyLong_FromLong(origin), PyLong_FromLong(r->end), PyLong_FromLong(r->captured),
                          PyBool_FromLong(r->reserves), PyLong_FromLong(r->laps)};
    return named(st->move_type, items, 5);
}

static PyObject *make_error(const Result *r)
{
    return Py_BuildValue("(iiii)", r->error, r->hole, r->laps, r->repeated);
}

static PyObject *int_tuple(const int *v, int n)
{
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(v[i]);
        if (x == NULL) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

/* The reserved holes after a move: the old frozenset itself when unchanged,
 * else ``old | {hole}`` built as the pure rules build it (so that even the
 * set's iteration order, which repr shows, is the same). */
static PyObject *reserved_set(int size, uint64_t mask, uint64_t old_mask, PyObject *old)
{
    if (mask == old_mask) {
        Py_INCREF(old);
        return old;
    }
    PyObject *added = PySet_New(NULL);
    if (added == NULL) return NULL;
    for (int h = 0; h < size; h++)
        if ((mask & ~old_mask) >> h & 1) {
            PyObject *x = PyLong_FromLong(h);
            if (x == NULL || PySet_Add(added, x) < 0) {
                Py_XDECREF(x);
                Py_DECREF(added);
                return NULL;
            }
            Py_DECREF(x);
        }
    PyObject *set = PyNumber_Or(old, added);
    Py_DECREF(added);
    return set;
}

static PyObject *make_position(const NativeState *st, int game, const State *s, const State *before,
                               PyObject *old_reserved)
{
    int size = st->geo[game].size;
    PyObject *items[5];
    items[0] = int_tuple(s->holes, size);
    items[1] = Py_NewRef(s->side ? st->side_n : st->side_s);
    items[2] = int_tuple(s->banks, 2);
    items[3] = PyLong_FromLongLong(s->move_number);
    items[4] = reserved_set(size, s->reserved, before->reserved, old_reserved);
    return named(st->position_type, items, 5);
}

/* native.init(Move, Position, "S", "N"): the classes the kernel builds. */
static PyObject *k_init(PyObject *self, PyObject *args)
{
    PyObject *move, *position, *s, *n;
    if (!PyArg_ParseTuple(args, "OOUU", &move, &position, &s, &n)) return NULL;
    if (!PyType_Check(move) || !PyType_IsSubtype((PyTypeObject *)move, &PyTuple_Type) ||
        !PyType_Check(position) || !PyType_IsSubtype((PyTypeObject *)position, &PyTuple_Type)) {
        PyErr_SetString(PyExc_TypeError, "Move and Position must be tuple classes");
        return NULL;
    }
    NativeState *st = state_of(self);
    Py_XSETREF(st->move_type, Py_NewRef(move));
    Py_XSETREF(st->position_type, Py_NewRef(position));
    Py_XSETREF(st->side_s, Py_NewRef(s));
    Py_XSETREF(st->side_n, Py_NewRef(n));
    Py_RETURN_NONE;
}

static int game_arg(const NativeState *st, int game)
{
    if (game < 0 || game >= GAMES) {
        PyErr_SetString(PyExc_ValueError, "no such game");
        return -1;
    }
    if (st->move_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the kernel is not initialised");
        return -1;
    }
    return 0;
}

/* Write the holes and banks of ``s`` that differ from ``before`` back into
 * the position's lists (k_move and k_play_line): 0, or -1 with an error set. */
static int store_changes(int size, const State *s, const State *before, PyObject *holes, PyObject *banks)
{
    for (int i = 0; i < size; i++)
        if (s->holes[i] != before->holes[i]) {
            PyObject *x = PyLong_FromLong(s->holes[i]);
            if (x == NULL) return -1;
            PyList_SetItem(holes, i, x);
        }
    for (int i = 0; i < 2; i++)
        if (s->banks[i] != before->banks[i]) {
            PyObject *x = PyLong_FromLong(s->banks[i]);
            if (x == NULL) return -1;
            PyList_SetItem(banks, i, x);
        }
    return 0;
}

/* The side to move and, where it changed, the move number of ``now``. */
static int store_turn(const NativeState *st, PyObject *now, const State *s, const State *before)
{
    if (PyObject_SetAttr(now, st->str_side, s->side ? st->side_n : st->side_s) < 0) return -1;
    if (s->move_number == before->move_number) return 0;
    PyObject *x = PyLong_FromLongLong(s->move_number);
    if (x == NULL) return -1;
    int bad = PyObject_SetAttr(now, st->str_move_number, x);
    Py_DECREF(x);
    return bad;
}

/* native.move(game, now, origin[, lap_limit]): plays ``origin`` on the MutablePosition
 * ``now`` in place and returns the Move; an illegal move returns a plain
 * tuple (error, hole, laps, repeated) and leaves ``now`` as it was; a
 * position the kernel does not take returns None (``now`` untouched). */
static PyObject *k_move(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 && nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "move(game, now, origin[, lap_limit])");
        return NULL;
    }
    NativeState *st = state_of(self);
    if (set_limit(&st->sowing, nargs == 4 ? args[3] : NULL)) Py_RETURN_NONE;
    int game = (int)PyLong_AsLong(args[0]);
    if (PyErr_Occurred() || game_arg(st, game)) return NULL;
    PyObject *now = args[1];
    long long origin;
    if (read_int(args[2], &origin) || origin < 0 || origin >= st->geo[game].size) Py_RETURN_NONE;
    PyObject *holes = PyObject_GetAttr(now, st->str_holes);
    PyObject *side = NULL, *banks = NULL, *number = NULL, *reserved = NULL, *out = NULL;
    if (holes == NULL) return NULL;
    if (!PyList_CheckExact(holes)) goto decline;
    if ((side = PyObject_GetAttr(now, st->str_side)) == NULL) goto fail;
    if ((banks = PyObject_GetAttr(now, st->str_banks)) == NULL) goto fail;
    if ((number = PyObject_GetAttr(now, st->str_move_number)) == NULL) goto fail;
    if ((reserved = PyObject_GetAttr(now, st->str_reserved)) == NULL) goto fail;
    if (!PyList_CheckExact(banks)) goto decline;
    State s, before;
    if (read_holes(st, game, holes, &s) || read_rest(st, game, side, banks, number, reserved, &s)) goto decline;
    before = s;
    Result r;
    play(st, game, &s, (int)origin, &r);
    if (r.error) {
        out = make_error(&r);
        goto done;
    }
    out = make_move(st, (int)origin, &r);
    if (out == NULL) goto fail;
    if (store_changes(st->geo[game].size, &s, &before, holes, banks) < 0) goto fail;
    if (store_turn(st, now, &s, &before) < 0) goto fail;
    if (s.reserved != before.reserved) {
        PyObject *x = reserved_set(st->geo[game].size, s.reserved, before.reserved, reserved);
        if (x == NULL) goto fail;
        int bad = PyObject_SetAttr(now, st->str_reserved, x);
        Py_DECREF(x);
        if (bad < 0) goto fail;
    }
    goto done;
decline:
    out = Py_NewRef(Py_None);
    goto done;
fail:
    Py_CLEAR(out);
done:
    Py_XDECREF(holes);
    Py_XDECREF(side);
    Py_XDECREF(banks);
    Py_XDECREF(number);
    Py_XDECREF(reserved);
    return out;
}

/* native.successors(game, position, positions[, lap_limit]): the legal moves of
 * ``position`` by origin in index order, each a Move, or with
 * ``positions`` true a (Move, Position) pair; None when the kernel does
 * not take the position.  End conditions are the caller's. */
static PyObject *k_successors(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 && nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "successors(game, position, positions[, lap_limit])");
        return NULL;
    }
    NativeState *st = state_of(self);
    if (set_limit(&st->sowing, nargs == 4 ? args[3] : NULL)) Py_RETURN_NONE;
    int game = (int)PyLong_AsLong(args[0]);
    if (PyErr_Occurred() || game_arg(st, game)) return NULL;
    PyObject *position = args[1];
    int pairs = PyObject_IsTrue(args[2]);
    State s;
    if (read_position(st, game, position, &s)) Py_RETURN_NONE;
    PyObject *list = PyList_New(0);
    if (list == NULL) return NULL;
    const Geo *g = &st->geo[game];
    int lo = s.side * g->half;
    for (int h = lo; h < lo + g->half; h++) {
        if (!try_origin(game, &s, h)) continue;
        State t = s;
        Result r;
        play(st, game, &t, h, &r);
        if (r.error) continue;
        PyObject *move = make_move(st, h, &r), *item;
        if (move == NULL) goto fail;
        if (pairs) {
            PyObject *after = make_position(st, game, &t, &s, PyTuple_GET_ITEM(position, 4));
            if (after == NULL) {
                Py_DECREF(move);
                goto fail;
            }
            item = PyTuple_Pack(2, move, after);
            Py_DECREF(move);
            Py_DECREF(after);
            if (item == NULL) goto fail;
        } else
            item = move;
        int bad = PyList_Append(list, item);
        Py_DECREF(item);
        if (bad < 0) goto fail;
    }
    return list;
fail:
    Py_DECREF(list);
    return NULL;
}

/* native.has_seeds(holes, lo, hi): whether any hole of holes[lo:hi] holds a seed. */
static PyObject *k_has_seeds(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "has_seeds(holes, lo, hi)");
        return NULL;
    }
    PyObject *holes = args[0];
    Py_ssize_t lo = PyLong_AsSsize_t(args[1]), hi = PyLong_AsSsize_t(args[2]);
    if (PyErr_Occurred()) return NULL;
    PyObject *slice = PySequence_GetSlice(holes, lo, hi);
    if (slice == NULL) return NULL;
    PyObject *fast = PySequence_Fast(slice, "holes");
    Py_DECREF(slice);
    if (fast == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject **items = PySequence_Fast_ITEMS(fast);
    int any = 0;
    for (Py_ssize_t i = 0; i < n && !any; i++) {
        int t = PyObject_IsTrue(items[i]);
        if (t < 0) {
            Py_DECREF(fast);
            return NULL;
        }
        any = t;
    }
    Py_DECREF(fast);
    return PyBool_FromLong(any);
}

/* Whether the kernel takes a state reached by playing (read_holes' and
 * read_rest's bounds): else the Python rules play on from it. */
static int state_ok(const Geo *g, const State *s)
{
    int total = 0;
    for (int i = 0; i < g->size; i++) {
        if (s->holes[i] < 0 || s->holes[i] > MAX_SEEDS) return 0;
        total += s->holes[i];
    }
    return total <= MAX_SEEDS && s->banks[0] >= 0 && s->banks[0] <= 65535 && s->banks[1] >= 0 &&
           s->banks[1] <= 65535 && s->move_number <= (1LL << 60);
}

/* The key of KK-4(b) (MutablePosition.key): (tuple(holes), side). */
static PyObject *state_key(const NativeState *st, int game, const State *s)
{
    PyObject *holes = int_tuple(s->holes, st->geo[game].size);
    if (holes == NULL) return NULL;
    PyObject *key = PyTuple_Pack(2, holes, s->side ? st->side_n : st->side_s);
    Py_DECREF(holes);
    return key;
}

enum { LINE_STOPPED = 0, LINE_MARKS = 1 };

/* native.play_line(game, now, origins, marks, lap_limit, history, moves):
 * plays the moves of ``origins`` (bytes, one hole a byte) in place on the
 * MutablePosition ``now`` as Game.move plays them one after the other
 * (the game's end test first, then the move; with ``history``, a set, the
 * key of each position before a move is added to it once the move is
 * played), appending each Move to the list ``moves``.  It stops before a
 * move it leaves to the caller (the game may have ended, the move is
 * illegal, or the kernel does not take the position) and after a move whose
 * outcome differs from its marks (``marks``: per move a 4-byte capture
 * count, -1 for none, and a byte for ``^``).  Returns (moves played, 1 if
 * the last one's marks differ else 0); ``now`` holds the position after
 * them. */
static PyObject *k_play_line(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7 || !PyBytes_Check(args[2]) || !PyBytes_Check(args[3]) || !PyList_Check(args[6]) ||
        !(args[5] == Py_None || PySet_Check(args[5]))) {
        PyErr_SetString(PyExc_TypeError, "play_line(game, now, origins, marks, lap_limit, history, moves)");
        return NULL;
    }
    NativeState *st = state_of(self);
    int game = (int)PyLong_AsLong(args[0]);
    if (PyErr_Occurred() || game_arg(st, game)) return NULL;
    PyObject *now = args[1], *history = args[5] == Py_None ? NULL : args[5], *out = args[6];
    const unsigned char *origins = (const unsigned char *)PyBytes_AS_STRING(args[2]);
    const unsigned char *marks = (const unsigned char *)PyBytes_AS_STRING(args[3]);
    Py_ssize_t count = PyBytes_GET_SIZE(args[2]);
    if (PyBytes_GET_SIZE(args[3]) != 5 * count) {
        PyErr_SetString(PyExc_ValueError, "play_line: 5 bytes of marks per move");
        return NULL;
    }
    if (set_limit(&st->sowing, args[4])) return Py_BuildValue("(ii)", 0, LINE_STOPPED);
    PyObject *holes = PyObject_GetAttr(now, st->str_holes);
    PyObject *side = NULL, *banks = NULL, *number = NULL, *reserved = NULL, *out_value = NULL;
    if (holes == NULL) return NULL;
    if ((side = PyObject_GetAttr(now, st->str_side)) == NULL) goto fail;
    if ((banks = PyObject_GetAttr(now, st->str_banks)) == NULL) goto fail;
    if ((number = PyObject_GetAttr(now, st->str_move_number)) == NULL) goto fail;
    if ((reserved = PyObject_GetAttr(now, st->str_reserved)) == NULL) goto fail;
    State s, before;
    if (!PyList_CheckExact(holes) || !PyList_CheckExact(banks) || read_holes(st, game, holes, &s) ||
        read_rest(st, game, side, banks, number, reserved, &s)) {
        out_value = Py_BuildValue("(ii)", 0, LINE_STOPPED);
        goto done;
    }
    before = s;
    const Geo *g = &st->geo[game];
    Py_ssize_t played = 0;
    int flag = LINE_STOPPED;
    for (Py_ssize_t i = 0; i < count; i++) {
        if (i && !state_ok(g, &s)) break;
        int origin = origins[i];
        if (origin >= g->size) break;
        PyObject *key = NULL;
        if (game == MACKAY) { /* KM-9: an inner row without seeds ends the game */
            int inner[2] = {0, 0};
            for (int h = g->files; h < 2 * g->files; h++) inner[0] |= s.holes[h];
            for (int h = 2 * g->files; h < 3 * g->files; h++) inner[1] |= s.holes[h];
            if (!inner[0] || !inner[1]) break;
        } else if (game == KLAMROTH) { /* KK-4(a) no stone left, (b) repetition */
            int any = 0;
            for (int h = s.side * g->half; h < (s.side + 1) * g->half; h++) any |= s.holes[h];
            if (!any) break;
            if (history != NULL) {
                if ((key = state_key(st, game, &s)) == NULL) goto fail;
                int seen = PySet_GET_SIZE(history) ? PySet_Contains(history, key) : 0;
                if (seen) {
                    Py_DECREF(key);
                    if (seen < 0) goto fail;
                    break;
                }
            }
        }
        State prev = s;
        Result r;
        play(st, game, &s, origin, &r);
        if (r.error) {
            s = prev;
            Py_XDECREF(key);
            break;
        }
        PyObject *move = make_move(st, origin, &r);
        if (move == NULL || PyList_Append(out, move) < 0) {
            Py_XDECREF(move);
            Py_XDECREF(key);
            goto fail;
        }
        Py_DECREF(move);
        if (key != NULL) {
            int bad = PySet_Add(history, key);
            Py_DECREF(key);
            if (bad < 0) goto fail;
        }
        if (s.reserved != prev.reserved) { /* the set as the pure rules build it, move by move */
            PyObject *x = reserved_set(g->size, s.reserved, prev.reserved, reserved);
            if (x == NULL) goto fail;
            Py_SETREF(reserved, x);
        }
        played++;
        int32_t captured;
        memcpy(&captured, marks + 5 * i, 4);
        if ((captured >= 0 && captured != r.captured) || (marks[5 * i + 4] && !r.reserves)) {
            flag = LINE_MARKS;
            break;
        }
    }
    if (store_changes(g->size, &s, &before, holes, banks) < 0) goto fail;
    if (played) {
        if (store_turn(st, now, &s, &before) < 0) goto fail;
        if (s.reserved != before.reserved && PyObject_SetAttr(now, st->str_reserved, reserved) < 0) goto fail;
    }
    out_value = Py_BuildValue("(ni)", played, flag);
    goto done;
fail:
    Py_CLEAR(out_value);
done:
    Py_XDECREF(holes);
    Py_XDECREF(side);
    Py_XDECREF(banks);
    Py_XDECREF(number);
    Py_XDECREF(reserved);
    return out_value;
}

#include "_native_tablebase.h"
#include "_native_search.h"

static PyMethodDef methods[] = {
    {"init", k_init, METH_VARARGS, "init(Move, Position, 'S', 'N'): the classes the kernel builds"},
    {"move", (PyCFunction)(void (*)(void))k_move, METH_FASTCALL, "move(game, now, origin): play in place"},
    {"successors", (PyCFunction)(void (*)(void))k_successors, METH_FASTCALL,
     "successors(game, position, positions): the legal moves (and positions)"},
    {"has_seeds", (PyCFunction)(void (*)(void))k_has_seeds, METH_FASTCALL,
     "has_seeds(holes, lo, hi): any seed in holes[lo:hi]"},
    {"play_line", (PyCFunction)(void (*)(void))k_play_line, METH_FASTCALL,
     "play_line(game, now, origins, marks, lap_limit, history, moves): play a line in place"},
    SEARCH_METHODS
    TABLEBASE_METHODS
    {NULL, NULL, 0, NULL}};

/* Py_mod_exec: the module's state and its attributes. */
static int native_exec(PyObject *m)
{
    NativeState *st = state_of(m);
    build_geo(&st->geo[MACKAY], 4, 8, 1);
    build_geo(&st->geo[KLAMROTH], 4, 12, 0);
    build_geo(&st->geo[KINGULU], 2, 6, 0);
    st->sowing.lap_limit = LAP_LIMIT;
    st->sowing.watch_from = WATCH_FROM;
    search_init(&st->z);
    tablebase_init(&st->tb);
    st->probe.stones = -1;
    if ((st->str_holes = PyUnicode_InternFromString("holes")) == NULL ||
        (st->str_side = PyUnicode_InternFromString("side")) == NULL ||
        (st->str_banks = PyUnicode_InternFromString("banks")) == NULL ||
        (st->str_move_number = PyUnicode_InternFromString("move_number")) == NULL ||
        (st->str_reserved = PyUnicode_InternFromString("reserved")) == NULL)
        return -1;
    st->search_type = PyType_FromModuleAndSpec(m, &search_spec, NULL);
    if (st->search_type == NULL || PyModule_AddObjectRef(m, "Search", st->search_type) < 0) return -1;
    if (PyModule_AddStringConstant(m, "SOURCE_DIGEST", SOURCE_DIGEST) < 0 ||
        PyModule_AddIntConstant(m, "LAP_LIMIT", LAP_LIMIT) < 0 ||
        PyModule_AddIntConstant(m, "WATCH_FROM", WATCH_FROM) < 0)
        return -1;
    return 0;
}

static int native_traverse(PyObject *m, visitproc visit, void *arg)
{
    NativeState *st = state_of(m);
    if (st == NULL) return 0;
    Py_VISIT(st->move_type);
    Py_VISIT(st->position_type);
    Py_VISIT(st->side_s);
    Py_VISIT(st->side_n);
    Py_VISIT(st->search_type);
    if (st->probe.loaded) Py_VISIT(st->probe.view.obj);
    return 0;
}

static int native_clear(PyObject *m)
{
    NativeState *st = state_of(m);
    if (st == NULL) return 0;
    Py_CLEAR(st->move_type);
    Py_CLEAR(st->position_type);
    Py_CLEAR(st->side_s);
    Py_CLEAR(st->side_n);
    Py_CLEAR(st->str_holes);
    Py_CLEAR(st->str_side);
    Py_CLEAR(st->str_banks);
    Py_CLEAR(st->str_move_number);
    Py_CLEAR(st->str_reserved);
    Py_CLEAR(st->search_type);
    tablebase_release(&st->probe);
    return 0;
}

static void native_free(void *m) { native_clear((PyObject *)m); }

static PyModuleDef_Slot slots[] = {
    {Py_mod_exec, native_exec},
#ifdef Py_mod_multiple_interpreters
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
    {0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_native",
    .m_doc = "The rules' native kernel (see mancala_cli.rules.native).",
    .m_size = sizeof(NativeState),
    .m_methods = methods,
    .m_slots = slots,
    .m_traverse = native_traverse,
    .m_clear = native_clear,
    .m_free = native_free,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModuleDef_Init(&module); }

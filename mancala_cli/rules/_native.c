/* The native kernel's module, mancala_cli.rules._native: its state (PEP 489
 * multi-phase init, PEP 573 module state), the Python objects the kernel
 * reads and makes, and the functions native.py calls to play moves.  The
 * rules are native_rules.c's, the search native_search.c's, the endgame
 * tables native_tablebase.c's (native.h: what they share).
 */
#include "native.h"

#include <string.h>

#ifndef SOURCE_DIGEST
#define SOURCE_DIGEST ""
#endif

/* -- the Python objects ------------------------------------------------------ */

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

int native_side_of(const NativeState *st, PyObject *side)
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
int native_read_holes(const NativeState *st, int game, PyObject *holes, State *s)
{
    const Geo *g = &st->rules.geo[game];
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
    s->side = native_side_of(st, side);
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
            int bad = read_int(key, &v) || v < 0 || v >= st->rules.geo[game].size;
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

int native_read_position(const NativeState *st, int game, PyObject *position, State *s)
{
    if (!PyTuple_Check(position) || PyTuple_GET_SIZE(position) != 5) return -1;
    if (native_read_holes(st, game, PyTuple_GET_ITEM(position, 0), s)) return -1;
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
    int size = st->rules.geo[game].size;
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
    NativeState *st = native_state(self);
    Py_XSETREF(st->move_type, Py_NewRef(move));
    Py_XSETREF(st->position_type, Py_NewRef(position));
    Py_XSETREF(st->side_s, Py_NewRef(s));
    Py_XSETREF(st->side_n, Py_NewRef(n));
    Py_RETURN_NONE;
}

int native_game_arg(const NativeState *st, int game)
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
    NativeState *st = native_state(self);
    if (set_limit(&st->rules.sowing, nargs == 4 ? args[3] : NULL)) Py_RETURN_NONE;
    int game = (int)PyLong_AsLong(args[0]);
    if (PyErr_Occurred() || native_game_arg(st, game)) return NULL;
    PyObject *now = args[1];
    long long origin;
    if (read_int(args[2], &origin) || origin < 0 || origin >= st->rules.geo[game].size) Py_RETURN_NONE;
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
    if (native_read_holes(st, game, holes, &s) || read_rest(st, game, side, banks, number, reserved, &s)) goto decline;
    before = s;
    Result r;
    native_play(&st->rules, game, &s, (int)origin, &r);
    if (r.error) {
        out = make_error(&r);
        goto done;
    }
    out = make_move(st, (int)origin, &r);
    if (out == NULL) goto fail;
    if (store_changes(st->rules.geo[game].size, &s, &before, holes, banks) < 0) goto fail;
    if (store_turn(st, now, &s, &before) < 0) goto fail;
    if (s.reserved != before.reserved) {
        PyObject *x = reserved_set(st->rules.geo[game].size, s.reserved, before.reserved, reserved);
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
    NativeState *st = native_state(self);
    if (set_limit(&st->rules.sowing, nargs == 4 ? args[3] : NULL)) Py_RETURN_NONE;
    int game = (int)PyLong_AsLong(args[0]);
    if (PyErr_Occurred() || native_game_arg(st, game)) return NULL;
    PyObject *position = args[1];
    int pairs = PyObject_IsTrue(args[2]);
    State s;
    if (native_read_position(st, game, position, &s)) Py_RETURN_NONE;
    PyObject *list = PyList_New(0);
    if (list == NULL) return NULL;
    const Geo *g = &st->rules.geo[game];
    int lo = s.side * g->half;
    for (int h = lo; h < lo + g->half; h++) {
        if (!native_try_origin(game, &s, h)) continue;
        State t = s;
        Result r;
        native_play(&st->rules, game, &t, h, &r);
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

/* native.ended(game, holes, side): whether an end condition that needs no
 * history holds with ``side`` to move (native_ended: KM-9, KK-4a); None
 * where the kernel does not take the holes or the side. */
static PyObject *k_ended(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "ended(game, holes, side)");
        return NULL;
    }
    NativeState *st = native_state(self);
    int game = (int)PyLong_AsLong(args[0]);
    if (PyErr_Occurred() || native_game_arg(st, game)) return NULL;
    State s;
    if (native_read_holes(st, game, args[1], &s)) Py_RETURN_NONE;
    s.side = native_side_of(st, args[2]);
    if (s.side < 0) Py_RETURN_NONE;
    int value;
    return PyBool_FromLong(native_ended(&st->rules, game, &s, &value));
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
    PyObject *holes = int_tuple(s->holes, st->rules.geo[game].size);
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
    NativeState *st = native_state(self);
    int game = (int)PyLong_AsLong(args[0]);
    if (PyErr_Occurred() || native_game_arg(st, game)) return NULL;
    PyObject *now = args[1], *history = args[5] == Py_None ? NULL : args[5], *out = args[6];
    const unsigned char *origins = (const unsigned char *)PyBytes_AS_STRING(args[2]);
    const unsigned char *marks = (const unsigned char *)PyBytes_AS_STRING(args[3]);
    Py_ssize_t count = PyBytes_GET_SIZE(args[2]);
    if (PyBytes_GET_SIZE(args[3]) != 5 * count) {
        PyErr_SetString(PyExc_ValueError, "play_line: 5 bytes of marks per move");
        return NULL;
    }
    if (set_limit(&st->rules.sowing, args[4])) return Py_BuildValue("(ii)", 0, LINE_STOPPED);
    PyObject *holes = PyObject_GetAttr(now, st->str_holes);
    PyObject *side = NULL, *banks = NULL, *number = NULL, *reserved = NULL, *out_value = NULL;
    if (holes == NULL) return NULL;
    if ((side = PyObject_GetAttr(now, st->str_side)) == NULL) goto fail;
    if ((banks = PyObject_GetAttr(now, st->str_banks)) == NULL) goto fail;
    if ((number = PyObject_GetAttr(now, st->str_move_number)) == NULL) goto fail;
    if ((reserved = PyObject_GetAttr(now, st->str_reserved)) == NULL) goto fail;
    State s, before;
    if (!PyList_CheckExact(holes) || !PyList_CheckExact(banks) || native_read_holes(st, game, holes, &s) ||
        read_rest(st, game, side, banks, number, reserved, &s)) {
        out_value = Py_BuildValue("(ii)", 0, LINE_STOPPED);
        goto done;
    }
    before = s;
    const Geo *g = &st->rules.geo[game];
    Py_ssize_t played = 0;
    int flag = LINE_STOPPED;
    for (Py_ssize_t i = 0; i < count; i++) {
        if (i && !state_ok(g, &s)) break;
        int origin = origins[i];
        if (origin >= g->size) break;
        PyObject *key = NULL;
        int value;
        /* The game's end test (Game._ended): KM-9, KK-4a (the rules'), then
         * KK-4b (a position of the history). */
        if (native_ended(&st->rules, game, &s, &value)) break;
        if (game == KLAMROTH && history != NULL) {
            if ((key = state_key(st, game, &s)) == NULL) goto fail;
            int seen = PySet_GET_SIZE(history) ? PySet_Contains(history, key) : 0;
            if (seen) {
                Py_DECREF(key);
                if (seen < 0) goto fail;
                break;
            }
        }
        State prev = s;
        Result r;
        native_play(&st->rules, game, &s, origin, &r);
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

/* -- the module --------------------------------------------------------------
 * What stays static here and in the other units is what CPython takes by
 * pointer for the module's life and only reads once the module exists (the
 * method tables, the slots, Search's spec, the module's definition, whose
 * head PyModuleDef_Init fills in once) and constant tables; all the rest is
 * the state of each module object (NativeState). */

static PyMethodDef methods[] = {
    {"init", k_init, METH_VARARGS, "init(Move, Position, 'S', 'N'): the classes the kernel builds"},
    {"move", (PyCFunction)(void (*)(void))k_move, METH_FASTCALL, "move(game, now, origin): play in place"},
    {"successors", (PyCFunction)(void (*)(void))k_successors, METH_FASTCALL,
     "successors(game, position, positions): the legal moves (and positions)"},
    {"ended", (PyCFunction)(void (*)(void))k_ended, METH_FASTCALL,
     "ended(game, holes, side): whether the game is over by KM-9 or KK-4a (None: not the kernel's to say)"},
    {"play_line", (PyCFunction)(void (*)(void))k_play_line, METH_FASTCALL,
     "play_line(game, now, origins, marks, lap_limit, history, moves): play a line in place"},
    {"entry_bytes", native_entry_bytes, METH_NOARGS, "the table's bytes per position"},
    {"tablebase_build", native_tablebase_build, METH_VARARGS,
     "tablebase_build(stones, out, progress): the kimasai-klamroth table of at most stones stones into out"},
    {"tablebase_use", native_tablebase_use, METH_VARARGS,
     "tablebase_use(data, stones): the table the searches ask (None: no table)"},
    {"tablebase_probe", native_tablebase_probe, METH_VARARGS,
     "tablebase_probe(holes, side): the table's value of a kimasai-klamroth position, or None"},
    {NULL, NULL, 0, NULL}};

static const struct {
    const char *name;
    int code;
} ERRORS[] = {
    {"ERR_ORIGIN", ERR_ORIGIN},   {"ERR_EMPTY", ERR_EMPTY},
    {"ERR_RESERVED", ERR_RESERVED}, {"ERR_BLOCKED", ERR_BLOCKED},
    {"ERR_FIRSTLAP", ERR_FIRSTLAP}, {"ERR_ENDLESS_LIMIT", ERR_ENDLESS_LIMIT},
    {"ERR_ENDLESS_REPEAT", ERR_ENDLESS_REPEAT},
};

/* Py_mod_exec: the module's state and its attributes. */
static int native_exec(PyObject *m)
{
    NativeState *st = native_state(m);
    native_build_geo(&st->rules.geo[MACKAY], 4, 8, 1);
    native_build_geo(&st->rules.geo[KLAMROTH], 4, 12, 0);
    native_build_geo(&st->rules.geo[KINGULU], 2, 6, 0);
    st->rules.sowing.lap_limit = LAP_LIMIT;
    st->rules.sowing.watch_from = WATCH_FROM;
    if ((st->str_holes = PyUnicode_InternFromString("holes")) == NULL ||
        (st->str_side = PyUnicode_InternFromString("side")) == NULL ||
        (st->str_banks = PyUnicode_InternFromString("banks")) == NULL ||
        (st->str_move_number = PyUnicode_InternFromString("move_number")) == NULL ||
        (st->str_reserved = PyUnicode_InternFromString("reserved")) == NULL)
        return -1;
    if (PyModule_AddStringConstant(m, "SOURCE_DIGEST", SOURCE_DIGEST) < 0 ||
        PyModule_AddIntConstant(m, "LAP_LIMIT", LAP_LIMIT) < 0 ||
        PyModule_AddIntConstant(m, "WATCH_FROM", WATCH_FROM) < 0)
        return -1;
    /* The codes of the illegal moves, which native.py reads from here. */
    for (size_t i = 0; i < sizeof ERRORS / sizeof ERRORS[0]; i++)
        if (PyModule_AddIntConstant(m, ERRORS[i].name, ERRORS[i].code) < 0) return -1;
    if (native_search_exec(m, st) < 0 || native_tablebase_exec(m, st) < 0) return -1;
    return 0;
}

static int native_traverse(PyObject *m, visitproc visit, void *arg)
{
    NativeState *st = native_state(m);
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
    NativeState *st = native_state(m);
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
    native_tablebase_release(&st->probe);
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


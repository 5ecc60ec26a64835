/* Endgame tables of kimasai-klamroth: the build, by
 * retrograde analysis, and the probe the search asks (mancala_cli/tablebase.py
 * is the Python side and the reference; docs/rules.md describes the format).
 *
 * A position is seen from the side to move: ``mover`` and ``opp`` are 24-bit
 * masks of the stones of each side, bit p being place p of that side's own
 * circuit counted from its back-row hole on its left (South: a1 .. l1 l2 ..
 * a2; North: l4 .. a4 a3 .. l3; a half turn of the board maps one on the
 * other, so one table serves both sides).  A stone at place p steps to place
 * p + 1 (23 -> 0); stepping into a front place t (12..23) captures the
 * opponent's place 35 - t and, if that was there, its place t - 12.
 *
 * The table of every position with at most ``stones`` stones is an array of
 * bytes, one a position: the value in the low two bits (1 win, 2 draw, 3 loss
 * for the side to move), and for a win or a loss the pass of the build that
 * resolved it above them (its depth in its layer pair: 0 for a capture or the
 * end, at most TB_DEEP, which also stands for deeper): layers ordered by the number of stones k, then the
 * mover's stones a (b = k - a the opponent's), and inside a layer the index
 * rank(mover) * C(24, b) + rank(opp), rank being the colex rank of a mask
 * among the masks of as many bits.
 *
 * Values are those of a game started at the position (KK-4b then only
 * counts positions of this game): stones only leave the board, so a layer
 * depends on the layers of fewer stones (captures) and on itself and its
 * mirror layer (b, a) through the moves that capture nothing; in those a
 * position is won or lost when its side can force that in finitely many
 * moves, and drawn otherwise (either side can keep it so until a position
 * recurs).
 */
#include "native.h"

#include <string.h>

#define TB_WIN 1
#define TB_DRAW 2
#define TB_LOSS 3

/* The binomials, and the holes of the places (TbTables): a side's places
 * are its circuit in kimasai-klamroth, the way its stones step (KK-2; the
 * board's, native_build_geo). */
static void tablebase_init(TbTables *tb, const Geo *klamroth)
{
    for (int n = 0; n <= TB_PLACES; n++) {
        tb->bin[n][0] = 1;
        for (int k = 1; k <= TB_PLACES; k++) tb->bin[n][k] = n == 0 ? 0 : tb->bin[n - 1][k - 1] + tb->bin[n - 1][k];
    }
    for (int p = 0; p < TB_PLACES; p++) {
        tb->hole[0][p] = klamroth->circuit[0][p];  /* a1 .. l1 l2 .. a2 */
        tb->hole[1][p] = klamroth->circuit[1][p];  /* l4 .. a4 a3 .. l3 */
    }
}

/* The binomials: bin[n][k] = C(n, k). */
typedef const uint64_t Binomials[TB_PLACES + 1];

static inline uint64_t tb_rank(Binomials *bin, uint32_t m)
{
    uint64_t r = 0;
    int j = 1;
    while (m) {
        r += bin[__builtin_ctz(m)][j++];
        m &= m - 1;
    }
    return r;
}

/* The next mask of as many bits in colex order (Gosper). */
static inline uint32_t tb_next(uint32_t v)
{
    uint32_t t = v | (v - 1);
    return (t + 1) | (((~t & -~t) - 1) >> (__builtin_ctz(v) + 1));
}

/* The first entry of layer (a, b) in a table of at most ``stones`` stones. */
static uint64_t tb_offset(Binomials *bin, int stones, int a, int b)
{
    uint64_t offset = 0;
    for (int k = 0; k <= stones; k++)
        for (int x = 0; x <= k; x++) {
            if (x == a && k - x == b) return offset;
            if (x <= TB_PLACES && k - x <= TB_PLACES) offset += bin[TB_PLACES][x] * bin[TB_PLACES][k - x];
        }
    return offset;
}

#define TB_DEEP 63
static inline int tb_get(const uint8_t *data, uint64_t i) { return data[i] & 3; }

/* -- the build ------------------------------------------------------------- */

/* working values of a layer under way: low bits the value, then two flags
 * "resolved by the pass of this parity, its predecessors not yet told" */
enum { TB_UNKNOWN = 0, TB_UNKNOWN_DRAW = 1, TB_W = 2, TB_L = 3, TB_D = 4 };
#define TB_VALUE 7
#define TB_PENDING(p) (0x10 << ((p) & 1))

typedef struct {
    int a, b;                 /* the mover's stones, the opponent's */
    uint64_t size, stride;    /* C(24, a) * C(24, b); C(24, b) */
    uint8_t *val, *cnt;
} TbLayer;

/* The first mask of ``bits`` bits in colex order. */
static inline uint32_t tb_first(int bits) { return bits ? (1u << bits) - 1 : 0; }

static inline uint32_t tb_step(uint32_t m, int bits) { return bits ? tb_next(m) : 0; }

/* A build under way: the binomials, and the first entry of each layer of
 * the table being built (a build's own: a build runs without the GIL). */
typedef struct {
    Binomials *bin;
    uint64_t offsets[TB_MAX_STONES + 1][TB_MAX_STONES + 1];
} TbBuild;

/* The value of (mover, opp) from the finished table of fewer stones. */
static inline int tb_lower(const TbBuild *B, const uint8_t *out, uint32_t mover, uint32_t opp)
{
    int a = __builtin_popcount(mover), b = __builtin_popcount(opp);
    Binomials *bin = B->bin;
    return tb_get(out, B->offsets[a][b] + tb_rank(bin, mover) * bin[TB_PLACES][b] + tb_rank(bin, opp));
}

/* Starts a layer: terminal positions, captures (whose values are final), and
 * the count of the moves that stay in the layer pair.  The rules on the
 * tables' encoding: KK-4a (no stone: lost), KK-4c (no move: lost; a capture
 * into a draw makes it a draw) and the moves, KK-2 and KK-3.  The same
 * rules: tablebase.py, _Layer.start and _moves (this build's reference);
 * kimasai_klamroth.py, KimasaiKlamroth._ended, _no_moves and _move (the
 * rules' reference); native_rules.c, native_ended, native_no_moves and
 * native_klamroth_move. */
static void tb_layer_start(const TbBuild *B, TbLayer *L, const uint8_t *out, uint64_t *resolved)
{
    uint32_t mover = tb_first(L->a);
    for (uint64_t rm = 0; rm < B->bin[TB_PLACES][L->a]; rm++, mover = tb_step(mover, L->a)) {
        uint32_t opp = tb_first(L->b);
        for (uint64_t ro = 0; ro < L->stride; ro++, opp = tb_step(opp, L->b)) {
            uint64_t i = rm * L->stride + ro;
            L->cnt[i] = 0;
            if (L->a == 0) {
                L->val[i] = TB_L | TB_PENDING(0);
                ++*resolved;
                continue;
            }
            int count = 0, draw = 0, win = 0;
            for (uint32_t m = mover; m && !win; m &= m - 1) {
                int p = __builtin_ctz(m), t = p == TB_PLACES - 1 ? 0 : p + 1;
                if (mover >> t & 1) continue;
                if (t >= 12 && (opp >> (35 - t) & 1)) {
                    uint32_t after = opp & ~(1u << (35 - t)) & ~(1u << (t - 12));
                    int v = tb_lower(B, out, after, mover ^ (1u << p) ^ (1u << t));
                    if (v == TB_LOSS) win = 1;
                    else if (v == TB_DRAW) draw = 1;
                } else
                    count++;
            }
            if (win) {
                L->val[i] = TB_W | TB_PENDING(0);
                ++*resolved;
            } else if (count == 0) {
                if (draw)
                    L->val[i] = TB_D;
                else {
                    L->val[i] = TB_L | TB_PENDING(0);
                    ++*resolved;
                }
            } else {
                L->val[i] = draw ? TB_UNKNOWN_DRAW : TB_UNKNOWN;
                L->cnt[i] = (uint8_t)count;
            }
        }
    }
}

/* One pass over a layer: the positions resolved by the last pass tell their
 * predecessors in the mirror layer ``P`` (moves that capture nothing: KK-2
 * played backwards, a step that would have captured (KK-3) left out; the
 * same rules as tb_layer_start's). */
static uint64_t tb_layer_pass(const TbBuild *B, TbLayer *L, TbLayer *P, int pass)
{
    uint64_t resolved = 0;
    int now = TB_PENDING(pass - 1), next = TB_PENDING(pass);
    uint32_t mover = tb_first(L->a);
    for (uint64_t rm = 0; rm < B->bin[TB_PLACES][L->a]; rm++, mover = tb_step(mover, L->a)) {
        uint8_t *row = L->val + rm * L->stride;
        uint64_t rank_mover = tb_rank(B->bin, mover);
        uint32_t opp = tb_first(L->b);
        for (uint64_t ro = 0; ro < L->stride; ro++, opp = tb_step(opp, L->b)) {
            if (!(row[ro] & now)) continue;
            row[ro] &= (uint8_t)~now;
            int v = row[ro] & TB_VALUE;
            /* The opponent's last move stepped a stone from prev to place p. */
            for (uint32_t o = opp; o; o &= o - 1) {
                int p = __builtin_ctz(o), prev = p == 0 ? TB_PLACES - 1 : p - 1;
                if (opp >> prev & 1) continue;
                if (p >= 12 && (mover >> (35 - p) & 1)) continue;  /* that move would have captured */
                uint32_t before = opp ^ (1u << p) ^ (1u << prev);
                uint64_t j = tb_rank(B->bin, before) * P->stride + rank_mover;
                int w = P->val[j] & TB_VALUE;
                if (w >= TB_W) continue;
                if (v == TB_L) {
                    P->val[j] = (uint8_t)(TB_W | next);
                    P->cnt[j] = (uint8_t)(pass < TB_DEEP ? pass : TB_DEEP);
                    resolved++;
                } else if (--P->cnt[j] == 0) {
                    if (w == TB_UNKNOWN_DRAW)
                        P->val[j] = TB_D;
                    else {
                        P->val[j] = (uint8_t)(TB_L | next);
                        P->cnt[j] = (uint8_t)(pass < TB_DEEP ? pass : TB_DEEP);
                        resolved++;
                    }
                }
            }
        }
    }
    return resolved;
}

/* A resolved position's byte: its value, and the pass that resolved it
 * (its depth in the layer pair, at most TB_DEEP). */
static void tb_layer_finish(const TbBuild *B, const TbLayer *L, uint8_t *out)
{
    uint64_t base = B->offsets[L->a][L->b];
    for (uint64_t i = 0; i < L->size; i++) {
        int v = L->val[i] & TB_VALUE;
        out[base + i] = v == TB_W ? (uint8_t)(TB_WIN | L->cnt[i] << 2)
                        : v == TB_L ? (uint8_t)(TB_LOSS | L->cnt[i] << 2) : TB_DRAW;
    }
}

/* build(stones, out, progress): fills the writable buffer ``out`` (the
 * table's bytes, zeroed) with every position of at most ``stones`` stones;
 * ``progress`` (or None) is called with (stones, mover's stones, passes)
 * after each layer pair.  Returns None; stops on a signal (KeyboardInterrupt). */
PyObject *native_tablebase_build(PyObject *module, PyObject *args)
{
    int stones;
    Py_buffer view;
    PyObject *progress;
    if (!PyArg_ParseTuple(args, "iw*O", &stones, &view, &progress)) return NULL;
    PyObject *result = NULL;
    TbLayer one = {0}, two = {0};
    TbBuild build = {.bin = (Binomials *)native_state(module)->tb.bin}, *B = &build;
    uint8_t *out = view.buf;
    if (stones < 0 || stones > TB_MAX_STONES) {
        PyErr_Format(PyExc_ValueError, "a table holds 0 to %d stones", TB_MAX_STONES);
        goto done;
    }
    uint64_t entries = tb_offset(B->bin, stones, stones + 1, 0);
    if ((uint64_t)view.len != entries) {
        PyErr_Format(PyExc_ValueError, "the table of %d stones takes %llu bytes", stones,
                     (unsigned long long)entries);
        goto done;
    }
    for (int a = 0; a <= stones; a++)
        for (int b = 0; a + b <= stones; b++) B->offsets[a][b] = tb_offset(B->bin, stones, a, b);
    for (int k = 0; k <= stones; k++)
        for (int a = 0; a <= k - a; a++) {
            int b = k - a;
            if (a > TB_PLACES || b > TB_PLACES) continue;
            TbLayer *layers[2] = {&one, &two};
            one.a = a, one.b = b, two.a = b, two.b = a;
            int count = a == b ? 1 : 2;
            for (int n = 0; n < count; n++) {
                TbLayer *L = layers[n];
                L->stride = B->bin[TB_PLACES][L->b];
                L->size = B->bin[TB_PLACES][L->a] * L->stride;
                L->val = PyMem_RawCalloc(L->size, 1);
                L->cnt = PyMem_RawCalloc(L->size, 1);
                if (L->val == NULL || L->cnt == NULL) {
                    PyErr_NoMemory();
                    goto done;
                }
            }
            uint64_t resolved = 0;
            int pass = 0;
            Py_BEGIN_ALLOW_THREADS
            for (int n = 0; n < count; n++) tb_layer_start(B, layers[n], out, &resolved);
            while (resolved) {
                pass++;
                resolved = tb_layer_pass(B, &one, count == 2 ? &two : &one, pass);
                if (count == 2) resolved += tb_layer_pass(B, &two, &one, pass);
            }
            for (int n = 0; n < count; n++) tb_layer_finish(B, layers[n], out);
            Py_END_ALLOW_THREADS
            for (int n = 0; n < count; n++) {
                PyMem_RawFree(layers[n]->val);
                PyMem_RawFree(layers[n]->cnt);
                layers[n]->val = layers[n]->cnt = NULL;
            }
            if (PyErr_CheckSignals() < 0) goto done;
            if (progress != Py_None) {
                PyObject *r = PyObject_CallFunction(progress, "iii", k, a, pass);
                if (r == NULL) goto done;
                Py_DECREF(r);
            }
        }
    result = Py_NewRef(Py_None);
done:
    PyMem_RawFree(one.val);
    PyMem_RawFree(one.cnt);
    PyMem_RawFree(two.val);
    PyMem_RawFree(two.cnt);
    PyBuffer_Release(&view);
    return result;
}

/* -- the probe ------------------------------------------------------------- */

/* The byte of a kimasai-klamroth position (holes by index, 0 or 1) for its
 * side to move in the table in use (the module's); 0 when the table does not
 * hold it. */
static int tb_byte(const NativeState *st, const int *holes, const uint8_t *small, int side)
{
    const TbProbe *t = &st->probe;
    if (!t->loaded) return 0;
    Binomials *bin = (Binomials *)st->tb.bin;
    uint32_t mask[2] = {0, 0};
    for (int k = 0; k < 2; k++)
        for (int p = 0; p < TB_PLACES; p++)
            if (holes ? holes[st->tb.hole[k][p]] : small[st->tb.hole[k][p]]) mask[k] |= 1u << p;
    uint32_t mover = mask[side], opp = mask[side ^ 1];
    int a = __builtin_popcount(mover), b = __builtin_popcount(opp);
    if (a + b > t->stones) return 0;
    return ((const uint8_t *)t->view.buf)[t->offsets[a][b] + tb_rank(bin, mover) * bin[TB_PLACES][b] +
                                          tb_rank(bin, opp)];
}

/* The value (WIN, DRAW_VALUE, LOSS of the search) of a byte; 2 for none. */
static int tb_value(int byte)
{
    int v = byte & 3;
    return v == TB_WIN ? 1 : v == TB_LOSS ? -1 : v == TB_DRAW ? 0 : 2;
}

static int tb_probe(const NativeState *st, const int *holes, int side)
{
    return tb_value(tb_byte(st, holes, NULL, side));
}

/* What the table in use says of a position for the search, as bounds
 * (tightening *low and *high); 0 when it does not hold the position.  With
 * no earlier position that can recur (``fresh``), or none that the winner's
 * strategy of the table can meet, that is its value: the strategy only
 * visits positions of a smaller depth in the layer (the pass that resolved
 * them) until a capture, after which no earlier position can recur.  Else
 * KK-4b can only turn a result into a draw: a win is at least a draw, a
 * loss at most one, a draw stays one.  The earlier positions are ``count``
 * records ``stride`` bytes apart, each with its holes (a byte each) at
 * ``holes`` and its side at ``side``. */
int native_tablebase_bounds(const NativeState *st, const State *s, const uint8_t *holes, const uint8_t *side,
                            size_t stride, int count, int *low, int *high)
{
    int byte = tb_byte(st, s->holes, NULL, s->side), v = tb_value(byte);
    if (v == 2) return 0;
    int lo = v, hi = v;
    if (v != 0 && count > 0) {
        int depth = byte >> 2, safe = depth < TB_DEEP;
        for (int i = 0; safe && i < count; i++) {
            int other = tb_byte(st, NULL, holes + i * stride, side[i * stride]);
            safe = (other & 3) == TB_DRAW || (other >> 2) >= depth;
        }
        if (!safe) {
            if (v == 1) lo = 0;
            if (v == -1) hi = 0;
        }
    }
    if (lo > *low) *low = lo;
    if (hi < *high) *high = hi;
    return 1;
}

/* No table in use (the buffer of the last one released). */
void native_tablebase_release(TbProbe *t)
{
    if (t->loaded) PyBuffer_Release(&t->view);
    t->loaded = 0;
    t->stones = -1;
}

/* tablebase_use(data, stones): the searches of this module ask the table
 * ``data`` (a buffer, held until the next call) of at most ``stones``
 * stones; tablebase_use(None, 0): no table. */
PyObject *native_tablebase_use(PyObject *module, PyObject *args)
{
    NativeState *st = native_state(module);
    TbProbe *t = &st->probe;
    PyObject *data;
    int stones;
    if (!PyArg_ParseTuple(args, "Oi", &data, &stones)) return NULL;
    if (data != Py_None && (stones < 0 || stones > TB_MAX_STONES)) {
        PyErr_Format(PyExc_ValueError, "a table holds 0 to %d stones", TB_MAX_STONES);
        return NULL;
    }
    Py_buffer view;
    if (data != Py_None) {
        if (PyObject_GetBuffer(data, &view, PyBUF_SIMPLE) < 0) return NULL;
        uint64_t entries = tb_offset((Binomials *)st->tb.bin, stones, stones + 1, 0);
        if ((uint64_t)view.len < entries) {
            PyBuffer_Release(&view);
            PyErr_SetString(PyExc_ValueError, "the buffer is shorter than the table");
            return NULL;
        }
    }
    native_tablebase_release(t);
    if (data != Py_None) {
        t->view = view;
        t->stones = stones;
        for (int a = 0; a <= stones; a++)
            for (int b = 0; a + b <= stones; b++) t->offsets[a][b] = tb_offset((Binomials *)st->tb.bin, stones, a, b);
        t->loaded = 1;
    }
    Py_RETURN_NONE;
}

/* tablebase_probe(holes, side): the table's value (1, 0, -1) of a position, None when not in it. */
PyObject *native_tablebase_probe(PyObject *module, PyObject *args)
{
    PyObject *holes_obj, *side_obj;
    if (!PyArg_ParseTuple(args, "OO", &holes_obj, &side_obj)) return NULL;
    NativeState *st = native_state(module);
    if (native_game_arg(st, KLAMROTH)) return NULL;  /* (the sides are init()'s) */
    State s;
    memset(&s, 0, sizeof s);
    if (native_read_holes(st, KLAMROTH, holes_obj, &s)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "not the holes of a kimasai-klamroth position");
        return NULL;
    }
    int side = native_side_of(st, side_obj);
    if (side < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a side is 'S' or 'N'");
        return NULL;
    }
    int v = tb_probe(st, s.holes, side);
    if (v == 2) Py_RETURN_NONE;
    return PyLong_FromLong(v);
}

int native_tablebase_exec(PyObject *module, NativeState *st)
{
    tablebase_init(&st->tb, &st->rules.geo[KLAMROTH]);
    st->probe.loaded = 0;
    st->probe.stones = -1;
    /* What mancala_cli/tablebase.py must agree on (tests/test_native_module.py). */
    if (PyModule_AddIntConstant(module, "TABLEBASE_MAX_STONES", TB_MAX_STONES) < 0 ||
        PyModule_AddIntConstant(module, "TABLEBASE_PLACES", TB_PLACES) < 0 ||
        PyModule_AddIntConstant(module, "TABLEBASE_DEEP", TB_DEEP) < 0 ||
        PyModule_AddIntConstant(module, "TABLEBASE_WIN", TB_WIN) < 0 ||
        PyModule_AddIntConstant(module, "TABLEBASE_DRAW", TB_DRAW) < 0 ||
        PyModule_AddIntConstant(module, "TABLEBASE_LOSS", TB_LOSS) < 0)
        return -1;
    return 0;
}

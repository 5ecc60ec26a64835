/* The PMN reader's native tokenizer: a line of plain movetext read in one
 * pass, each move made straight into a MoveNode (no match object per move),
 * and the run of plain moves of a main line handed to a checker as hole
 * numbers (no Python object per move).
 *
 * notation/pmn.py and notation/grammar.py are the reference: scan() reads
 * exactly what PLAIN_LINE_RE's finditer reads from the same place (the
 * same moves, the same result token, the same place where other text
 * starts); tests/test_tokenizer.py holds the two together.  The record
 * layer knows no rules, and neither does this file.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>

#ifndef SOURCE_DIGEST
#define SOURCE_DIGEST ""
#endif

#ifndef Py_T_OBJECT_EX
#define Py_T_OBJECT_EX T_OBJECT_EX
#endif

/* MoveNode's fields in its order (notation/record.py); init() finds where
 * each one lives in the object (its slot). */
enum {
    F_HOLE, F_DESTINATION, F_CAPTURED, F_RESERVED, F_GLYPHS, F_NAGS, F_BEFORE, F_COMMENT, F_VARIATIONS,
    F_NUMBER, F_DOTS, F_LINE, F_COLUMN, F_POSITION, FIELDS
};
static const char *FIELD_NAMES[FIELDS] = {
    "hole", "destination", "captured", "reserved", "glyphs", "nags", "before", "comment", "variations",
    "number", "dots", "line", "column", "position"};

/* Hole tokens of at most 3 ASCII characters are kept in the module's state
 * (hole_string): a game file names the same few dozen holes again and again. */
#define CACHE 4096

/* The module's state (PEP 489 multi-phase init, PEP 573): what init() finds
 * of MoveNode, the strings made once, and the hole names kept. */
typedef struct {
    PyTypeObject *node_type;        /* MoveNode */
    Py_ssize_t offset[FIELDS];      /* of each field's slot; 0 when MoveNode is not as expected */
    int by_slots;                   /* every offset found: nodes are read slot by slot */
    int fill;                       /* and these are all its slots: nodes are made slot by slot */
    PyObject *kwnames;              /* the names of the first 13 fields, to call MoveNode(...) else */
    PyObject *one_dot, *three_dots; /* "." and "..." */
    PyObject *cache_str[CACHE];
    uint32_t cache_key[CACHE];
} TokState;

static inline TokState *tok_state(PyObject *module) { return (TokState *)PyModule_GetState(module); }

/* -- init ------------------------------------------------------------------ */

static PyObject *t_init(PyObject *self, PyObject *type)
{
    if (!PyType_Check(type)) {
        PyErr_SetString(PyExc_TypeError, "init(MoveNode)");
        return NULL;
    }
    TokState *st = tok_state(self);
    Py_XSETREF(st->node_type, (PyTypeObject *)Py_NewRef(type));
    int by_slots = 1, fill;
    for (int i = 0; i < FIELDS; i++) {
        st->offset[i] = 0;
        PyObject *d = PyDict_GetItemString(((PyTypeObject *)type)->tp_dict, FIELD_NAMES[i]);
        if (d == NULL || !Py_IS_TYPE(d, &PyMemberDescr_Type)) {
            by_slots = 0;
            continue;
        }
        PyMemberDef *member = ((PyMemberDescrObject *)d)->d_member;
        if (member->type != Py_T_OBJECT_EX || (member->flags & READONLY)) {
            by_slots = 0;
            continue;
        }
        st->offset[i] = member->offset;
    }
    /* Made slot by slot only when these are all its slots (a field added to
     * MoveNode would be left unset) and it has no __post_init__: else
     * MoveNode(...) is called with the fields by name. */
    fill = by_slots && !PyObject_HasAttrString(type, "__post_init__");
    PyObject *slots = PyObject_GetAttrString(type, "__slots__");
    if (slots == NULL || !PyTuple_Check(slots) || PyTuple_GET_SIZE(slots) != FIELDS) fill = 0;
    for (int i = 0; fill && i < FIELDS; i++) {
        PyObject *name = PyUnicode_FromString(FIELD_NAMES[i]);
        int found = name == NULL ? -1 : PySequence_Contains(slots, name);
        Py_XDECREF(name);
        if (found != 1) fill = 0;
    }
    Py_XDECREF(slots);
    PyErr_Clear();
    st->by_slots = by_slots;
    st->fill = fill;
    Py_RETURN_NONE;
}

#define SLOT(st, node, i) (*(PyObject **)((char *)(node) + (st)->offset[i]))

/* A new MoveNode of the fields of a plain move: (hole, None, captured,
 * reserved, [], [], None, None, [], number, dots, line, column), as
 * MoveNode(...) with these arguments makes it.  Steals nothing. */
static PyObject *new_node(const TokState *st, PyObject *hole, PyObject *captured, int reserved, PyObject *number,
                          PyObject *dots, PyObject *line, PyObject *column)
{
    PyObject *glyphs = PyList_New(0), *nags = PyList_New(0), *variations = PyList_New(0);
    PyObject *node = NULL;
    if (glyphs == NULL || nags == NULL || variations == NULL) goto done;
    if (!st->fill) {
        PyObject *args[13] = {hole, Py_None, captured, reserved ? Py_True : Py_False, glyphs, nags, Py_None,
                              Py_None, variations, number, dots, line, column};
        node = PyObject_Vectorcall((PyObject *)st->node_type, args, 0, st->kwnames);
        goto done;
    }
    node = st->node_type->tp_alloc(st->node_type, 0);
    if (node == NULL) goto done;
    SLOT(st, node, F_HOLE) = Py_NewRef(hole);
    SLOT(st, node, F_DESTINATION) = Py_NewRef(Py_None);
    SLOT(st, node, F_CAPTURED) = Py_NewRef(captured);
    SLOT(st, node, F_RESERVED) = Py_NewRef(reserved ? Py_True : Py_False);
    SLOT(st, node, F_GLYPHS) = Py_NewRef(glyphs);
    SLOT(st, node, F_NAGS) = Py_NewRef(nags);
    SLOT(st, node, F_BEFORE) = Py_NewRef(Py_None);
    SLOT(st, node, F_COMMENT) = Py_NewRef(Py_None);
    SLOT(st, node, F_VARIATIONS) = Py_NewRef(variations);
    SLOT(st, node, F_NUMBER) = Py_NewRef(number);
    SLOT(st, node, F_DOTS) = Py_NewRef(dots);
    SLOT(st, node, F_LINE) = Py_NewRef(line);
    SLOT(st, node, F_COLUMN) = Py_NewRef(column);
    SLOT(st, node, F_POSITION) = Py_NewRef(Py_None);
done:
    Py_XDECREF(glyphs);
    Py_XDECREF(nags);
    Py_XDECREF(variations);
    return node;
}

/* -- the hole names, made once ------------------------------------------------ */

static PyObject *hole_string(TokState *st, PyObject *line, int kind, const void *data, Py_ssize_t start,
                             Py_ssize_t stop)
{
    Py_ssize_t n = stop - start;
    if (n <= 3) {
        uint32_t key = (uint32_t)n;
        for (Py_ssize_t i = start; i < stop; i++) key = key << 8 | (PyUnicode_READ(kind, data, i) & 0xff);
        uint32_t slot = (key * 2654435761u) >> 20;
        if (st->cache_str[slot] != NULL && st->cache_key[slot] == key) return Py_NewRef(st->cache_str[slot]);
        PyObject *s = PyUnicode_Substring(line, start, stop);
        if (s == NULL) return NULL;
        Py_XSETREF(st->cache_str[slot], Py_NewRef(s));
        st->cache_key[slot] = key;
        return s;
    }
    return PyUnicode_Substring(line, start, stop);
}

/* -- the scanner ----------------------------------------------------------- */

#define AT(i) PyUnicode_READ(kind, data, (i))
#define DIGIT(c) ((c) >= '0' && (c) <= '9')

/* Where the white space (``\s``, as the regular expressions have it) from p ends. */
static inline Py_ssize_t spaces(int kind, const void *data, Py_ssize_t p, Py_ssize_t end)
{
    while (p < end && Py_UNICODE_ISSPACE(AT(p))) p++;
    return p;
}

/* The end of a hole token (grammar.HOLE, its runs possessive) from p, or -1. */
static inline Py_ssize_t hole_end(int kind, const void *data, Py_ssize_t p, Py_ssize_t end)
{
    if (p >= end) return -1;
    Py_UCS4 c = AT(p);
    if ((c >= 'a' && c <= 'l') || c == 'S' || c == 'N') {
        p++;
        if (p >= end || !DIGIT(AT(p))) return -1;
    } else if (!DIGIT(c)) {
        return -1;
    }
    while (p < end && DIGIT(AT(p))) p++;
    return p;
}

/* A plain move (grammar.PLAIN_MOVE) at p: its parts' places, or 0. */
typedef struct {
    Py_ssize_t num, num_end, dots_end, hole, hole_end, cap, cap_end, res, end;
} Plain;

static int plain_move(int kind, const void *data, Py_ssize_t p, Py_ssize_t end, Plain *m)
{
    p = spaces(kind, data, p, end);
    m->num = m->num_end = m->dots_end = -1;
    /* (?:(?P<num>[0-9]{1,9}+)(?P<dots>\.\.\.|\.)\s*+)? */
    Py_ssize_t q = p;
    while (q < end && q - p < 9 && DIGIT(AT(q))) q++;
    if (q > p && q < end && AT(q) == '.') {
        Py_ssize_t d = q + 1;
        if (d + 1 < end && AT(d) == '.' && AT(d + 1) == '.') d += 2;
        Py_ssize_t h = spaces(kind, data, d, end);
        if (hole_end(kind, data, h, end) >= 0) { /* else the group is not taken */
            m->num = p;
            m->num_end = q;
            m->dots_end = d;
            p = h;
        }
    }
    Py_ssize_t e = hole_end(kind, data, p, end);
    if (e < 0) return 0;
    m->hole = p;
    m->hole_end = e;
    /* (?:x(?P<cap>[0-9]{1,9}+))?(?P<res>\^)?(?=\s|\Z), each optional part
     * dropped again when what follows does not fit */
    m->cap = -1;
    m->res = -1;
    Py_ssize_t after = e;
    if (after < end && AT(after) == 'x') {
        Py_ssize_t c = after + 1, d = c;
        while (d < end && d - c < 9 && DIGIT(AT(d))) d++;
        if (d > c) {
            Py_ssize_t r = d < end && AT(d) == '^' ? d + 1 : d;
            if (r >= end || Py_UNICODE_ISSPACE(AT(r))) {
                m->cap = c;
                m->cap_end = d;
                m->res = r > d ? d : -1;
                m->end = r;
                return 1;
            }
        }
        return 0; /* without the capture the lookahead meets the 'x' */
    }
    if (after < end && AT(after) == '^') {
        if (after + 1 >= end || Py_UNICODE_ISSPACE(AT(after + 1))) {
            m->res = after;
            m->end = after + 1;
            return 1;
        }
    }
    if (after >= end || Py_UNICODE_ISSPACE(AT(after))) {
        m->end = after;
        return 1;
    }
    return 0;
}

static PyObject *digits_value(int kind, const void *data, Py_ssize_t p, Py_ssize_t q)
{
    long v = 0;
    for (; p < q; p++) v = v * 10 + (long)(AT(p) - '0');
    return PyLong_FromLong(v);
}

/* scan(line, pos, end, lineno, moves): PLAIN_LINE_RE.finditer(line, pos, end)
 * as notation.pmn's plain_moves reads it.  Each plain move is appended to
 * ``moves`` as a MoveNode; returns (moves read, where the first other token
 * starts or -1, the result token that ends the line or None, its column). */
static PyObject *t_scan(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5 || !PyUnicode_Check(args[0]) || !PyList_Check(args[4])) {
        PyErr_SetString(PyExc_TypeError, "scan(line, pos, end, lineno, moves)");
        return NULL;
    }
    TokState *st = tok_state(self);
    if (st->node_type == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "the tokenizer is not initialised");
        return NULL;
    }
    PyObject *line = args[0], *moves = args[4], *lineno = args[3];
    Py_ssize_t pos = PyLong_AsSsize_t(args[1]), end = PyLong_AsSsize_t(args[2]);
    if (PyErr_Occurred()) return NULL;
    Py_ssize_t length = PyUnicode_GET_LENGTH(line);
    if (end > length) end = length;
    if (pos < 0) pos = 0;
    int kind = PyUnicode_KIND(line);
    const void *data = PyUnicode_DATA(line);
    Py_ssize_t read = 0, other = -1, p = pos;
    PyObject *result = NULL;
    Py_ssize_t result_col = 0;
    Plain m;
    while (p < end) {
        if (plain_move(kind, data, p, end, &m)) {
            PyObject *hole = hole_string(st, line, kind, data, m.hole, m.hole_end);
            PyObject *cap = m.cap >= 0 ? digits_value(kind, data, m.cap, m.cap_end) : Py_NewRef(Py_None);
            PyObject *number = m.num >= 0 ? digits_value(kind, data, m.num, m.num_end) : Py_NewRef(Py_None);
            PyObject *column = PyLong_FromSsize_t(m.hole + 1);
            PyObject *node = NULL;
            if (hole && cap && number && column)
                node = new_node(st, hole, cap, m.res >= 0, number,
                                m.num < 0 ? Py_None : (m.dots_end - m.num_end == 3 ? st->three_dots : st->one_dot),
                                lineno, column);
            Py_XDECREF(hole);
            Py_XDECREF(cap);
            Py_XDECREF(number);
            Py_XDECREF(column);
            if (node == NULL) return NULL;
            int bad = PyList_Append(moves, node);
            Py_DECREF(node);
            if (bad < 0) return NULL;
            read++;
            p = m.end;
            continue;
        }
        Py_ssize_t q = spaces(kind, data, p, end);
        if (q >= end) break; /* only white space left: no match */
        /* \s*+(?P<result>1-0|0-1|1/2-1/2|\*)\Z */
        static const char *RESULTS[4] = {"1-0", "0-1", "1/2-1/2", "*"};
        for (int r = 0; r < 4 && result == NULL; r++) {
            Py_ssize_t n = (Py_ssize_t)strlen(RESULTS[r]);
            if (end - q != n) continue;
            Py_ssize_t i = 0;
            while (i < n && AT(q + i) == (Py_UCS4)RESULTS[r][i]) i++;
            if (i == n) {
                result = PyUnicode_FromString(RESULTS[r]);
                if (result == NULL) return NULL;
                result_col = q + 1;
            }
        }
        if (result == NULL) other = q; /* \s*+(?P<other>\S) */
        break;
    }
    if (result == NULL) result = Py_NewRef(Py_None);
    return Py_BuildValue("(nnNn)", read, other, result, result_col);
}

/* -- a main line's plain moves, for a checker ---------------------------------- */

/* plain_run(moves, start, south, north, north_moves, number): from
 * moves[start] on, the run of moves a checker may play without looking at
 * them one by one: each names a hole of ``south`` (or ``north``: dicts of
 * hole token → hole number below 256) for the side to move, has no
 * destination, and no move number or the right one.  Returns (origins,
 * marks, count): ``origins`` one byte per move, ``marks`` per move the
 * written capture count (-1: none) as a 4-byte int and then the ``^`` mark
 * as one byte (bytes of 5 × count). */
static PyObject *t_plain_run(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6 || !PyList_Check(args[0]) || !PyDict_Check(args[2]) || !PyDict_Check(args[3])) {
        PyErr_SetString(PyExc_TypeError, "plain_run(moves, start, south, north, north_moves, number)");
        return NULL;
    }
    TokState *st = tok_state(self);
    PyObject *moves = args[0];
    Py_ssize_t start = PyLong_AsSsize_t(args[1]);
    if (start == -1 && PyErr_Occurred()) return NULL;
    int north = PyObject_IsTrue(args[4]), overflow = 0;
    long long number = PyLong_AsLongLongAndOverflow(args[5], &overflow);
    if (PyErr_Occurred() || north < 0) return NULL;
    if (overflow || number < 0 || number > (1LL << 60)) /* numbers this large are left to the caller */
        start = PyList_GET_SIZE(args[0]);
    Py_ssize_t n = PyList_GET_SIZE(moves);
    if (start < 0) start = 0;
    Py_ssize_t most = n > start ? n - start : 0;
    PyObject *origins = PyBytes_FromStringAndSize(NULL, most), *marks = PyBytes_FromStringAndSize(NULL, 5 * most);
    if (origins == NULL || marks == NULL) {
        Py_XDECREF(origins);
        Py_XDECREF(marks);
        return NULL;
    }
    unsigned char *o = (unsigned char *)PyBytes_AS_STRING(origins), *k = (unsigned char *)PyBytes_AS_STRING(marks);
    Py_ssize_t count = 0;
    if (st->by_slots && st->node_type != NULL) {
        for (Py_ssize_t i = start; i < n; i++) {
            PyObject *node = PyList_GET_ITEM(moves, i);
            if (Py_TYPE(node) != st->node_type) break;
            PyObject *hole = SLOT(st, node, F_HOLE), *dest = SLOT(st, node, F_DESTINATION);
            PyObject *num = SLOT(st, node, F_NUMBER), *cap = SLOT(st, node, F_CAPTURED);
            PyObject *res = SLOT(st, node, F_RESERVED);
            if (hole == NULL || dest != Py_None || num == NULL || cap == NULL || res == NULL ||
                !PyUnicode_CheckExact(hole))
                break;
            PyObject *origin = PyDict_GetItemWithError(north ? args[3] : args[2], hole);
            if (origin == NULL) {
                PyErr_Clear();
                break;
            }
            long h = PyLong_Check(origin) ? PyLong_AsLong(origin) : -1;
            if (h < 0 || h > 255) {
                PyErr_Clear();
                break;
            }
            if (num != Py_None) {
                PyObject *dots = SLOT(st, node, F_DOTS);
                if (!PyLong_CheckExact(num) || PyLong_AsLongLong(num) != number || dots == NULL ||
                    !PyUnicode_CheckExact(dots) ||
                    PyUnicode_CompareWithASCIIString(dots, north ? "..." : ".") != 0) {
                    PyErr_Clear();
                    break;
                }
            }
            int32_t captured = -1;
            if (cap != Py_None) {
                if (!PyLong_CheckExact(cap)) break;
                long long c = PyLong_AsLongLong(cap);
                if (c < 0 || c > INT32_MAX) {
                    PyErr_Clear();
                    break;
                }
                captured = (int32_t)c;
            }
            int reserved;
            if (res == Py_True) reserved = 1;
            else if (res == Py_False) reserved = 0;
            else break;
            o[count] = (unsigned char)h;
            memcpy(k + 5 * count, &captured, 4);
            k[5 * count + 4] = (unsigned char)reserved;
            count++;
            if (north) number++;
            north = !north;
        }
    }
    /* The public API has no way to shrink a bytes object in place: the
     * moves read are copied into objects of their own size. */
    PyObject *origins_read = PyBytes_FromStringAndSize((const char *)o, count);
    PyObject *marks_read = PyBytes_FromStringAndSize((const char *)k, 5 * count);
    Py_DECREF(origins);
    Py_DECREF(marks);
    if (origins_read == NULL || marks_read == NULL) {
        Py_XDECREF(origins_read);
        Py_XDECREF(marks_read);
        return NULL;
    }
    return Py_BuildValue("(NNn)", origins_read, marks_read, count);
}

static PyMethodDef methods[] = {
    {"init", t_init, METH_O, "init(MoveNode): the class of the moves the scanner makes"},
    {"scan", (PyCFunction)(void (*)(void))t_scan, METH_FASTCALL,
     "scan(line, pos, end, lineno, moves): the plain moves of a line, as PLAIN_LINE_RE reads them"},
    {"plain_run", (PyCFunction)(void (*)(void))t_plain_run, METH_FASTCALL,
     "plain_run(moves, start, south, north, north_moves, number): the origins of a run of plain moves"},
    {NULL, NULL, 0, NULL}};

/* Py_mod_exec: the strings made once. */
static int tok_exec(PyObject *m)
{
    TokState *st = tok_state(m);
    st->one_dot = PyUnicode_InternFromString(".");
    st->three_dots = PyUnicode_InternFromString("...");
    st->kwnames = PyTuple_New(13);
    if (st->one_dot == NULL || st->three_dots == NULL || st->kwnames == NULL) return -1;
    for (int i = 0; i < 13; i++) {
        PyObject *name = PyUnicode_InternFromString(FIELD_NAMES[i]);
        if (name == NULL) return -1;
        PyTuple_SET_ITEM(st->kwnames, i, name);
    }
    return PyModule_AddStringConstant(m, "SOURCE_DIGEST", SOURCE_DIGEST);
}

static int tok_traverse(PyObject *m, visitproc visit, void *arg)
{
    TokState *st = tok_state(m);
    if (st != NULL) Py_VISIT(st->node_type);
    return 0;
}

static int tok_clear(PyObject *m)
{
    TokState *st = tok_state(m);
    if (st == NULL) return 0;
    Py_CLEAR(st->node_type);
    Py_CLEAR(st->kwnames);
    Py_CLEAR(st->one_dot);
    Py_CLEAR(st->three_dots);
    for (int i = 0; i < CACHE; i++) Py_CLEAR(st->cache_str[i]);
    return 0;
}

static void tok_free(void *m) { tok_clear((PyObject *)m); }

static PyModuleDef_Slot tok_slots[] = {{Py_mod_exec, tok_exec}, {0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "_tokenize",
    .m_doc = "The PMN reader's native tokenizer (see notation.tokenizer).",
    .m_size = sizeof(TokState),
    .m_methods = methods,
    .m_slots = tok_slots,
    .m_traverse = tok_traverse,
    .m_clear = tok_clear,
    .m_free = tok_free,
};

PyMODINIT_FUNC PyInit__tokenize(void) { return PyModuleDef_Init(&module); }

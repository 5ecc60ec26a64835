/* The search of the native kernel: solver.Solver.search
 * step for step — negamax with alpha-beta over win/draw/loss bounds, the
 * table's last best move first then captures (larger first), bounds (not
 * depths) in the table, the current line's positions as unknown in the
 * games without a repetition rule, and in kimasai-klamroth the earlier
 * positions that can still recur as part of the table's key.
 *
 * The table is keyed by the whole position (every hole, the side, the
 * banks, the reserved holes, the first-move flag), compared in full; in
 * kimasai-klamroth the earlier positions of the key are compared by a
 * 128-bit Zobrist digest of the set.  It holds at most ``max_entries``
 * positions and grows to that size by doubling; once full, new positions
 * are searched again rather than stored, as in the Python solver.
 */
#include "native.h"

#include <string.h>
#include <time.h>

#define MAXC 24
#define CLOCK_EVERY 1024
#define PROGRESS_EVERY (1 << 15)
/* What the search adds to plain alpha-beta (Solver.features): */
#define F_ETC 1      /* enhanced transposition cutoffs: the children's table entries before any is searched */
#define F_HISTORY 2  /* after the table's move and the captures, the moves that cut off most often first */
#define F_PN 4       /* a proof-number search (df-pn) before every line is searched to its end */
#define HISTORY_MAX ((1 << 20) - 1)
#define PN_INF 0xFFFFFF  /* a proof or disproof number that cannot be met (24 bits) */

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* The Zobrist keys, from a fixed seed (a table file's hashes depend on them). */
static void search_init(Zobrist *z)
{
    uint64_t seed = 20261202;
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < MAXH; i++)
            for (int v = 0; v < 256; v++) z->hole[k][i][v] = splitmix(&seed);
    for (int k = 0; k < 2; k++) z->side[k] = splitmix(&seed);
    for (int k = 0; k < 2; k++)
        for (int s = 0; s < 2; s++)
            for (int v = 0; v < 256; v++) z->bank[k][s][v] = splitmix(&seed);
    for (int i = 0; i < MAXH; i++) z->reserved[i] = splitmix(&seed);
    z->first = splitmix(&seed);
}

typedef struct {
    uint64_t hash;       /* 0: an empty slot */
    uint64_t past[2];    /* klamroth: the digest of the earlier positions */
    uint16_t banks[2];
    uint16_t reserved;   /* kingulu's reserved holes (12 holes: 16 bits are enough) */
    uint8_t holes[MAXH];
    uint8_t side, first;
    int8_t low, high, best;
    /* F_PN: the proof and disproof numbers of the proof-number search, 24
     * bits each, in two slots (a goal and its dual share one): the goal that
     * wrote each slot (0: none) in ``tags``, four bits a slot */
    uint8_t tags, phi[2][3], delta[2][3];
} Entry;
_Static_assert(sizeof(Entry) == 96, "two slots of proof numbers fit in 96 bytes");
#define MAX_RESERVED 0xFFFF  /* the reserved holes an entry can hold (a bit each) */

typedef struct {
    State state;
    int origin, captured, key;
    uint32_t phi, delta;  /* F_PN */
} Child;

/* An earlier position (klamroth): holes and side. */
typedef struct {
    uint8_t holes[MAXH];
    uint8_t side;
    int stones;
    uint64_t z[2];
} PastKey;

typedef struct {
    PyObject_HEAD
    NativeState *st;         /* the module's (the type holds the module) */
    const Geo *geo;          /* the game's board: &st->geo[game] */
    const Zobrist *z;        /* &st->z */
    int game, history_game, max_plies, features;
    int cutoffs[2][MAXH];    /* F_HISTORY: cut-offs per side and origin */
    long long node_limit;
    double deadline;
    long long nodes;
    int stopped, failed;
    int longest;             /* the longest line searched (plies) */
    PyObject *progress;      /* called with the node count every PROGRESS_EVERY nodes, or None */
    Entry *table;
    size_t capacity, count, max_entries, max_capacity;
    Child *children;         /* (max_plies + 1) * MAXC */
    uint64_t *path;          /* hashes of the positions on the current line */
    State *path_states;
    int path_len, path_cap;
    PastKey *pool;           /* klamroth: earlier positions, by segment */
    int pool_len, pool_cap;
    /* F_PN: the goal under way (the attacker's value at least pn_target) and its limits */
    int pn_attacker, pn_target, pn_tag, pn_dual, pn_slot, pn_stopped;
    long long pn_node_limit;
    double pn_deadline;
} SearchObject;

static double monotonic(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static uint64_t state_hash(const Zobrist *z, const State *s, int size)
{
    uint64_t h = z->side[s->side];
    for (int i = 0; i < size; i++) h ^= z->hole[0][i][s->holes[i]];
    h ^= z->bank[0][0][s->banks[0] & 255] ^ z->bank[0][1][s->banks[1] & 255];
    for (int i = 0; s->reserved && i < size; i++)
        if (s->reserved >> i & 1) h ^= z->reserved[i];
    if (native_first_turn(s)) h ^= z->first;
    return h ? h : 1;
}

static int stones(const State *s, int size)
{
    int n = 0;
    for (int i = 0; i < size; i++) n += s->holes[i];
    return n;
}

/* The key of an earlier position, with two 64-bit digests: a set of keys is
 * digested as the XOR of theirs.  Each is a Zobrist hash passed through a
 * non-linear mix, since plain Zobrist hashes are linear: two sets of
 * positions that differ by the same moves would have the same XOR. */
static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void past_key_of(const Zobrist *z, const State *s, int size, PastKey *k)
{
    uint64_t a = z->side[s->side], b = z->side[s->side ^ 1];
    k->side = (uint8_t)s->side;
    k->stones = 0;
    for (int i = 0; i < size; i++) {
        k->holes[i] = (uint8_t)s->holes[i];
        k->stones += s->holes[i];
        a ^= z->hole[0][i][s->holes[i]];
        b ^= z->hole[1][i][s->holes[i]];
    }
    k->z[0] = mix(a);
    k->z[1] = mix(b + 0x9e3779b97f4a7c15ULL);
}

static int same_past_key(const PastKey *a, const State *s, int size)
{
    if (a->side != s->side) return 0;
    for (int i = 0; i < size; i++)
        if (a->holes[i] != s->holes[i]) return 0;
    return 1;
}

static int entry_matches(const Entry *e, uint64_t hash, const State *s, int size, const uint64_t *past)
{
    if (e->hash != hash || e->side != s->side || e->first != native_first_turn(s) ||
        e->banks[0] != s->banks[0] || e->banks[1] != s->banks[1] || e->reserved != s->reserved ||
        e->past[0] != past[0] || e->past[1] != past[1])
        return 0;
    for (int i = 0; i < size; i++)
        if (e->holes[i] != s->holes[i]) return 0;
    return 1;
}

static uint64_t slot_hash(uint64_t hash, const uint64_t *past)
{
    uint64_t h = hash ^ past[0] ^ (past[1] * 0x9e3779b97f4a7c15ULL);
    return h ? h : 1;
}

static Entry *lookup(SearchObject *S, uint64_t hash, const State *s, const uint64_t *past)
{
    if (S->capacity == 0) return NULL;
    int size = S->geo->size;
    size_t mask = S->capacity - 1, i = (size_t)slot_hash(hash, past) & mask;
    while (S->table[i].hash) {
        if (entry_matches(&S->table[i], hash, s, size, past)) return &S->table[i];
        i = (i + 1) & mask;
    }
    return NULL;
}

static int grow(SearchObject *S)
{
    size_t capacity = S->capacity ? S->capacity * 2 : 1024;
    if (capacity > S->max_capacity) return -1;
    Entry *table = PyMem_Calloc(capacity, sizeof(Entry));
    if (table == NULL) return -1;
    for (size_t j = 0; j < S->capacity; j++) {
        Entry *e = &S->table[j];
        if (!e->hash) continue;
        size_t i = (size_t)slot_hash(e->hash, e->past) & (capacity - 1);
        while (table[i].hash) i = (i + 1) & (capacity - 1);
        table[i] = *e;
    }
    PyMem_Free(S->table);
    S->table = table;
    S->capacity = capacity;
    return 0;
}

/* The entry of a position, made (its bounds unknown) where it has none and
 * the table has room; NULL where it has not (Solver.store). */
static Entry *entry_for(SearchObject *S, uint64_t hash, const State *s, const uint64_t *past)
{
    Entry *e = lookup(S, hash, s, past);
    if (e != NULL) return e;
    if (S->count >= S->max_entries) return NULL;
    /* at most half full while growing, three quarters once at the largest size */
    if ((S->count + 1) * 2 > S->capacity && grow(S) < 0 && (S->count + 1) * 4 > S->capacity * 3) {
        S->max_entries = S->count;  /* no more memory: full */
        return NULL;
    }
    int size = S->geo->size;
    size_t mask = S->capacity - 1, i = (size_t)slot_hash(hash, past) & mask;
    while (S->table[i].hash) i = (i + 1) & mask;
    e = &S->table[i];
    e->hash = hash;
    e->past[0] = past[0];
    e->past[1] = past[1];
    e->reserved = (uint16_t)s->reserved;
    e->banks[0] = (uint16_t)s->banks[0];
    e->banks[1] = (uint16_t)s->banks[1];
    memset(e->holes, 0, MAXH);
    for (int k = 0; k < size; k++) e->holes[k] = (uint8_t)s->holes[k];
    e->side = (uint8_t)s->side;
    e->first = (uint8_t)native_first_turn(s);
    e->low = LOSS;
    e->high = WIN;
    e->best = -1;
    e->tags = 0;
    S->count++;
    return e;
}

/* Solver.store: a new position only while the table has room. */
static void store(SearchObject *S, uint64_t hash, const State *s, const uint64_t *past, int low, int high, int best)
{
    Entry *e = entry_for(S, hash, s, past);
    if (e == NULL) return;
    e->low = (int8_t)low;
    e->high = (int8_t)high;
    e->best = (int8_t)best;
}

/* The end conditions that need no legal move (Game._ended), as a value for
 * the side to move; 0 when none applies (then *value is untouched).  Those
 * that need no history are the rules' (native_ended: KM-9, KK-4a); KK-4b,
 * a position of the game before, is the earlier positions of the pool. */
static int ended(const SearchObject *S, const State *s, int past_lo, int past_hi, int *value)
{
    if (native_ended(&S->st->rules, S->game, s, value)) return 1;
    if (S->history_game)
        for (int i = past_lo; i < past_hi; i++)
            if (same_past_key(&S->pool[i], s, S->geo->size)) {
                *value = DRAW_VALUE;
                return 1;
            }
    return 0;
}

static int pool_reserve(SearchObject *S, int more)
{
    if (S->pool_len + more <= S->pool_cap) return 0;
    int cap = S->pool_cap ? S->pool_cap : 256;
    while (cap < S->pool_len + more) cap *= 2;
    PastKey *pool = PyMem_Realloc(S->pool, (size_t)cap * sizeof(PastKey));
    if (pool == NULL) return -1;
    S->pool = pool;
    S->pool_cap = cap;
    return 0;
}

/* Solver.out_of_time, with the interpreter's signals checked as often as the clock. */
static int out_of_time(SearchObject *S)
{
    long long nodes = S->nodes;
    if (S->node_limit >= 0 && nodes >= S->node_limit) return 1;
    if (nodes % CLOCK_EVERY == 0) {
        if (S->progress != NULL && S->progress != Py_None && nodes % PROGRESS_EVERY == 0) {
            PyObject *r = PyObject_CallFunction(S->progress, "L", nodes);
            if (r == NULL) {
                S->failed = 1;
                return 1;
            }
            Py_DECREF(r);
        }
        if (PyErr_CheckSignals() < 0) {
            S->failed = 1;
            return 1;
        }
        if (S->deadline >= 0.0 && monotonic() >= S->deadline) return 1;
    }
    return 0;
}

static int on_path(const SearchObject *S, uint64_t hash, const State *s)
{
    int size = S->geo->size;
    for (int i = S->path_len - 1; i >= 0; i--)
        if (S->path[i] == hash) {
            const State *t = &S->path_states[i];
            int same = t->side == s->side && t->banks[0] == s->banks[0] && t->banks[1] == s->banks[1] &&
                       t->reserved == s->reserved &&
                       native_first_turn(t) == native_first_turn(s);
            for (int k = 0; same && k < size; k++) same = t->holes[k] == s->holes[k];
            if (same) return 1;
        }
    return 0;
}

static int path_push(SearchObject *S, uint64_t hash, const State *s)
{
    if (S->path_len == S->path_cap) {
        int cap = S->path_cap ? S->path_cap * 2 : 64;
        uint64_t *path = PyMem_Realloc(S->path, (size_t)cap * sizeof(uint64_t));
        if (path == NULL) return -1;
        S->path = path;
        State *states = PyMem_Realloc(S->path_states, (size_t)cap * sizeof(State));
        if (states == NULL) return -1;
        S->path_states = states;
        S->path_cap = cap;
    }
    S->path[S->path_len] = hash;
    S->path_states[S->path_len] = *s;
    S->path_len++;
    return 0;
}

/* The digest of the earlier positions that can recur after the move from
 * ``s`` to ``after`` (Solver.child_history; klamroth only, else ``past``). */
static void child_digest(const SearchObject *S, const State *s, const State *after, int past_lo, int past_hi,
                         const uint64_t *past, uint64_t *out)
{
    out[0] = past[0];
    out[1] = past[1];
    if (!S->history_game) return;
    int size = S->geo->size, stones_after = stones(after, size);
    if (stones_after != stones(s, size)) {
        out[0] = out[1] = 0;
        for (int k = past_lo; k < past_hi; k++)
            if (S->pool[k].stones <= stones_after) {
                out[0] ^= S->pool[k].z[0];
                out[1] ^= S->pool[k].z[1];
            }
        return;
    }
    for (int k = past_lo; k < past_hi; k++)
        if (same_past_key(&S->pool[k], s, size)) return;
    PastKey key;
    past_key_of(S->z, s, size, &key);
    out[0] ^= key.z[0];
    out[1] ^= key.z[1];
}

/* Solver.child_history, for kimasai-klamroth: the earlier positions that can
 * recur after the move from ``s`` (of ``here_stones`` stones) to ``after``, as
 * a segment [*lo, *hi) of the pool (pushed on top of it where it differs from
 * the parent's [past_lo, past_hi)) and its digest; the other games keep the
 * parent's.  The caller pops the pool back to its length before the call.
 * -1 when the pool cannot grow. */
static int child_segment(SearchObject *S, const State *s, const State *after_state, int here_stones, int past_lo,
                         int past_hi, const uint64_t *past, int *lo, int *hi, uint64_t *child_past)
{
    int size = S->geo->size, saved_len = S->pool_len;
    *lo = past_lo;
    *hi = past_hi;
    child_past[0] = past[0];
    child_past[1] = past[1];
    if (!S->history_game) return 0;
    int after = stones(after_state, size);
    if (after != here_stones) {
        /* past keys with no more stones than after */
        if (pool_reserve(S, past_hi - past_lo) < 0) return -1;
        *lo = S->pool_len;
        child_past[0] = child_past[1] = 0;
        for (int k = past_lo; k < past_hi; k++)
            if (S->pool[k].stones <= after) {
                S->pool[S->pool_len] = S->pool[k];
                child_past[0] ^= S->pool[k].z[0];
                child_past[1] ^= S->pool[k].z[1];
                S->pool_len++;
            }
        *hi = S->pool_len;
        return 0;
    }
    /* past | {position.key()} */
    for (int k = past_lo; k < past_hi; k++)
        if (same_past_key(&S->pool[k], s, size)) return 0;
    if (pool_reserve(S, past_hi - past_lo + 1) < 0) return -1;
    *lo = S->pool_len;
    if (past_hi == saved_len) {
        *lo = past_lo;  /* the parent's segment is on top: extend it */
    } else {
        for (int k = past_lo; k < past_hi; k++) S->pool[S->pool_len++] = S->pool[k];
    }
    PastKey *key = &S->pool[S->pool_len++];
    past_key_of(S->z, s, size, key);
    child_past[0] ^= key->z[0];
    child_past[1] ^= key->z[1];
    *hi = S->pool_len;
    return 0;
}

/* The successors of ``s`` into ``children``, and how many (Solver.expand):
 * none where an end condition holds or no move is legal, and then the end's
 * value for the side to move in *value, stored in the table. */
static int expand(SearchObject *S, const State *s, uint64_t hash, int past_lo, int past_hi, const uint64_t *past,
                  Child *children, int *value)
{
    const Geo *g = S->geo;
    int n = 0;
    if (!ended(S, s, past_lo, past_hi, value)) {
        int lo = s->side * g->half;
        for (int h = lo; h < lo + g->half; h++) {
            if (!native_try_origin(S->game, s, h)) continue;
            Child *c = &children[n];
            c->state = *s;
            Result r;
            native_play(&S->st->rules, S->game, &c->state, h, &r);
            if (r.error) continue;
            c->origin = h;
            c->captured = r.captured;
            n++;
        }
        if (n == 0) *value = native_no_moves(&S->st->rules, S->game, s);
    }
    if (n == 0) store(S, hash, s, past, *value, *value, -1);
    return n;
}

/* Solver.search: bounds (low, high) of the value of ``s`` for the side to
 * move; the earlier positions that can recur (klamroth) are the pool's
 * [past_lo, past_hi), of digest ``past``. */
static void search(SearchObject *S, const State *s, int depth, int alpha, int beta, int past_lo, int past_hi,
                   const uint64_t *past, int ply, int *out_low, int *out_high)
{
    if (S->stopped || out_of_time(S)) {
        S->stopped = 1;
        *out_low = LOSS;
        *out_high = WIN;
        return;
    }
    S->nodes++;
    if (ply > S->longest) S->longest = ply;
    const Geo *g = S->geo;
    uint64_t hash = state_hash(S->z, s, g->size);
    Entry *entry = lookup(S, hash, s, past);
    int hint = -1, known_low = LOSS, known_high = WIN;
    if (entry != NULL) {
        known_low = entry->low;
        known_high = entry->high;
        hint = entry->best;
        if (known_low == known_high || known_low >= beta || known_high <= alpha) {
            *out_low = known_low;
            *out_high = known_high;
            return;
        }
    }
    if (S->game == KLAMROTH && S->st->probe.loaded &&
        native_tablebase_bounds(S->st, s, past_hi > past_lo ? S->pool[past_lo].holes : NULL,
                         past_hi > past_lo ? &S->pool[past_lo].side : NULL, sizeof(PastKey), past_hi - past_lo,
                         &known_low, &known_high) &&
        (known_low == known_high || known_low >= beta || known_high <= alpha)) {
        *out_low = known_low;
        *out_high = known_high;
        return;
    }
    int path_game = !S->history_game;
    if (path_game && on_path(S, hash, s)) {
        *out_low = LOSS;
        *out_high = WIN;
        return;
    }
    Child *children = &S->children[(size_t)ply * MAXC];
    int value, n = expand(S, s, hash, past_lo, past_hi, past, children, &value);
    if (n == 0) {
        *out_low = value;
        *out_high = value;
        return;
    }
    if (depth <= 0 || ply >= S->max_plies) {
        *out_low = known_low;
        *out_high = known_high;
        return;
    }
    /* Solver.transposition_cutoff: what the table knows of the children. */
    if (S->features & F_ETC) {
        int etc_low = LOSS, etc_high = LOSS, etc_best = -1, all_known = 1;
        for (int i = 0; i < n; i++) {
            uint64_t child_past[2];
            child_digest(S, s, &children[i].state, past_lo, past_hi, past, child_past);
            Entry *e = lookup(S, state_hash(S->z, &children[i].state, g->size), &children[i].state, child_past);
            if (e == NULL) {
                all_known = 0;
                continue;
            }
            if (-e->high > etc_low) {
                etc_low = -e->high;
                etc_best = children[i].origin;
            }
            if (-e->low > etc_high) etc_high = -e->low;
        }
        int low = etc_low > known_low ? etc_low : known_low;
        int high = all_known && etc_high < known_high ? etc_high : known_high;
        if (low == high || low >= beta || high <= alpha) {
            store(S, hash, s, past, low, high, etc_best >= 0 ? etc_best : hint);
            *out_low = low;
            *out_high = high;
            return;
        }
    }
    /* children.sort(key=hint first, then captured, then cut-offs, reverse=True): stable */
    for (int i = 0; i < n; i++) {
        Child *c = &children[i];
        if (c->origin == hint)
            c->key = 1 << 30;
        else {
            c->key = c->captured << 20;
            if (S->features & F_HISTORY) c->key += S->cutoffs[s->side][c->origin];
        }
    }
    for (int i = 1; i < n; i++) {
        Child c = children[i];
        int j = i - 1;
        while (j >= 0 && children[j].key < c.key) {
            children[j + 1] = children[j];
            j--;
        }
        children[j + 1] = c;
    }
    if (path_game && path_push(S, hash, s) < 0) {
        S->stopped = S->failed = 1;
        PyErr_NoMemory();
        *out_low = LOSS;
        *out_high = WIN;
        return;
    }
    /* Solver.child_history, for kimasai-klamroth. */
    int here_stones = S->history_game ? stones(s, g->size) : 0;
    int low = LOSS, high = LOSS, best = -1, searched = 0;
    for (int i = 0; i < n; i++) {
        Child *c = &children[i];
        int floor = alpha > low ? alpha : low, child_low, child_high;
        int saved_len = S->pool_len, child_lo, child_hi;
        uint64_t child_past[2];
        if (child_segment(S, s, &c->state, here_stones, past_lo, past_hi, past, &child_lo, &child_hi, child_past) < 0)
            goto no_memory;
        search(S, &c->state, depth - 1, -beta, -floor, child_lo, child_hi, child_past, ply + 1, &child_low,
               &child_high);
        S->pool_len = saved_len;
        searched++;
        if (best < 0 || -child_high > low) best = c->origin;
        if (-child_high > low) low = -child_high;
        if (-child_low > high) high = -child_low;
        if (S->stopped) break;
        if (low >= beta) {
            if ((S->features & F_HISTORY) && S->cutoffs[s->side][c->origin] < HISTORY_MAX)
                S->cutoffs[s->side][c->origin]++;
            break;
        }
    }
    if (searched < n) high = WIN;
    if (path_game) S->path_len--;
    if (low < known_low) low = known_low;
    if (high > known_high) high = known_high;
    store(S, hash, s, past, low, high, best);
    *out_low = low;
    *out_high = high;
    return;
no_memory:
    S->stopped = S->failed = 1;
    PyErr_NoMemory();
    if (path_game) S->path_len--;
    *out_low = LOSS;
    *out_high = WIN;
}

/* -- the proof-number search (Solver.prove, Solver.mid) --------------------
 * Depth-first proof-number search (df-pn) of one goal: the attacker's value
 * at least pn_target.  Numbers are the side to move's: phi, the cost of
 * proving it reaches its own goal (the attacker's, or for the defender,
 * keeping the attacker below it), delta, of proving it does not.  A line
 * that comes back to a position on it, or that reaches max_plies, fails
 * the attacker, so what proves the attacker's goal is sound and is stored
 * as a bound; what proves the defender's is not, and is only a number.
 * A goal and its dual (the other attacker's goal that sets each side to
 * move the same goal) keep their numbers in one slot of the entry, each
 * the other's estimate.  A search stopped midway returns the numbers so far
 * (stored nowhere): at the root, what the goal is known to cost. */

static uint32_t get24(const uint8_t *p) { return p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16; }

static void put24(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
}

/* a + b, PN_INF where either is, else at most PN_INF - 1 */
static uint32_t pn_add(uint32_t a, uint32_t b)
{
    if (a == PN_INF || b == PN_INF) return PN_INF;
    uint32_t c = a + b;
    return c >= PN_INF ? PN_INF - 1 : c;
}

/* A number of the dual goal as an estimate: neither 0 nor PN_INF */
static uint32_t pn_estimate(uint32_t v) { return v == 0 ? 1 : v == PN_INF ? PN_INF - 1 : v; }

/* The numbers a position's bounds decide for the side to move, whose goal is
 * a value of at least ``goal``: 1 (and *phi, *delta set) where they do. */
static int decided(int low, int high, int goal, uint32_t *phi, uint32_t *delta)
{
    if (low >= goal) {
        *phi = 0;
        *delta = PN_INF;
        return 1;
    }
    if (high < goal) {
        *phi = PN_INF;
        *delta = 0;
        return 1;
    }
    return 0;
}

/* The numbers of the attacker's failure, for a side to move that is the
 * attacker or not (an endless line, or one past max_plies). */
static void attacker_fails(int attacking, uint32_t *phi, uint32_t *delta)
{
    *phi = attacking ? PN_INF : 0;
    *delta = attacking ? 0 : PN_INF;
}

/* The proof-number phase's own limits (Solver.phase_over). */
static int phase_over(SearchObject *S)
{
    if (S->pn_node_limit >= 0 && S->nodes >= S->pn_node_limit) return 1;
    return S->nodes % CLOCK_EVERY == 0 && S->pn_deadline >= 0.0 && monotonic() >= S->pn_deadline;
}

/* Solver.mid: the numbers of ``s`` once one reaches its threshold. */
static void mid(SearchObject *S, const State *s, int ply, int past_lo, int past_hi, const uint64_t *past,
                uint32_t th_phi, uint32_t th_delta, uint32_t *out_phi, uint32_t *out_delta)
{
    *out_phi = *out_delta = 1;
    if (S->stopped || S->pn_stopped) return;
    if (out_of_time(S)) {
        S->stopped = 1;
        return;
    }
    if (phase_over(S)) {
        S->pn_stopped = 1;
        return;
    }
    S->nodes++;
    if (ply > S->longest) S->longest = ply;
    const Geo *g = S->geo;
    int attacking = s->side == S->pn_attacker, goal = attacking ? S->pn_target : 1 - S->pn_target;
    uint64_t hash = state_hash(S->z, s, g->size);
    Entry *entry = lookup(S, hash, s, past);
    int known_low = LOSS, known_high = WIN;
    if (entry != NULL) {
        known_low = entry->low;
        known_high = entry->high;
    }
    if (S->game == KLAMROTH && S->st->probe.loaded)
        native_tablebase_bounds(S->st, s, past_hi > past_lo ? S->pool[past_lo].holes : NULL,
                         past_hi > past_lo ? &S->pool[past_lo].side : NULL, sizeof(PastKey), past_hi - past_lo,
                         &known_low, &known_high);
    if (decided(known_low, known_high, goal, out_phi, out_delta)) return;
    int path_game = !S->history_game;
    if (path_game && ply > 0 && on_path(S, hash, s)) {
        attacker_fails(attacking, out_phi, out_delta);  /* an endless line */
        return;
    }
    Child *children = &S->children[(size_t)ply * MAXC];
    int value, n = expand(S, s, hash, past_lo, past_hi, past, children, &value);
    if (n == 0) {
        decided(value, value, goal, out_phi, out_delta);
        return;
    }
    if (ply >= S->max_plies) {
        attacker_fails(attacking, out_phi, out_delta);
        return;
    }
    /* the children's numbers: from their bounds, else from the table, else 1 */
    for (int i = 0; i < n; i++) {
        Child *c = &children[i];
        uint64_t child_past[2];
        child_digest(S, s, &c->state, past_lo, past_hi, past, child_past);
        Entry *e = lookup(S, state_hash(S->z, &c->state, g->size), &c->state, child_past);
        c->phi = c->delta = 1;
        if (e != NULL && !decided(e->low, e->high, 1 - goal, &c->phi, &c->delta)) {
            int slot = S->pn_slot, tag = e->tags >> (4 * slot) & 15;
            if (tag == S->pn_tag) {
                c->phi = get24(e->phi[slot]);
                c->delta = get24(e->delta[slot]);
            } else if (tag && tag == S->pn_dual) {
                /* the dual goal's numbers (the same goal for each side to
                 * move, the other attacker): an estimate, never a proof */
                c->phi = pn_estimate(get24(e->phi[slot]));
                c->delta = pn_estimate(get24(e->delta[slot]));
            }
        }
    }
    if (path_game && ply > 0 && path_push(S, hash, s) < 0) {
        S->stopped = S->failed = 1;
        PyErr_NoMemory();
        return;
    }
    int here_stones = S->history_game ? stones(s, g->size) : 0, best;
    uint32_t phi, delta;
    for (;;) {
        uint32_t second = PN_INF;
        phi = PN_INF;
        delta = 0;
        best = -1;
        for (int i = 0; i < n; i++) {
            if (children[i].delta < phi) {
                second = phi;
                phi = children[i].delta;
                best = i;
            } else if (children[i].delta < second)
                second = children[i].delta;
            delta = pn_add(delta, children[i].phi);
        }
        if (phi >= th_phi || delta >= th_delta) break;
        Child *c = &children[best];
        uint32_t child_th_phi = th_delta - delta + c->phi, child_th_delta = second + 1 < th_phi ? second + 1 : th_phi;
        int saved_len = S->pool_len, child_lo, child_hi;
        uint64_t child_past[2];
        if (child_segment(S, s, &c->state, here_stones, past_lo, past_hi, past, &child_lo, &child_hi, child_past) < 0)
            goto no_memory;
        uint32_t child_phi, child_delta;
        mid(S, &c->state, ply + 1, child_lo, child_hi, child_past, child_th_phi, child_th_delta, &child_phi,
            &child_delta);
        S->pool_len = saved_len;
        if (S->stopped || S->pn_stopped) break;  /* (a child stopped midway keeps its numbers) */
        c->phi = child_phi;
        c->delta = child_delta;
    }
    if (path_game && ply > 0) S->path_len--;
    if (S->stopped || S->pn_stopped) {
        /* the numbers so far, stored nowhere: what the root's goal is known to cost */
        *out_phi = phi;
        *out_delta = delta;
        return;
    }
    Entry *e = entry_for(S, hash, s, past);
    if (e != NULL) {
        int slot = S->pn_slot;
        e->tags = (uint8_t)((e->tags & (0xF0 >> (4 * slot))) | S->pn_tag << (4 * slot));
        put24(e->phi[slot], phi);
        put24(e->delta[slot], delta);
        /* the attacker's goal proven: a bound (Solver.store_numbers) */
        if (phi == 0 && attacking && goal > e->low) {
            e->low = (int8_t)goal;
            e->best = (int8_t)children[best].origin;
        }
        if (delta == 0 && !attacking && goal - 1 < e->high) e->high = (int8_t)(goal - 1);
    }
    *out_phi = phi;
    *out_delta = delta;
    return;
no_memory:
    S->stopped = S->failed = 1;
    PyErr_NoMemory();
    if (path_game && ply > 0) S->path_len--;
}

/* -- the Python type -------------------------------------------------------- */

static int Search_traverse(SearchObject *S, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(S));
    Py_VISIT(S->progress);
    return 0;
}

static int Search_clear(SearchObject *S)
{
    Py_CLEAR(S->progress);
    return 0;
}

static void Search_dealloc(SearchObject *S)
{
    PyTypeObject *type = Py_TYPE(S);
    PyObject_GC_UnTrack(S);
    Search_clear(S);
    PyMem_Free(S->table);
    PyMem_Free(S->children);
    PyMem_Free(S->path);
    PyMem_Free(S->path_states);
    PyMem_Free(S->pool);
    type->tp_free((PyObject *)S);
    Py_DECREF(type);
}

/* Reads an earlier position's key (holes, side) into the pool. */
static int read_past_key(SearchObject *S, PyObject *key)
{
    if (!PyTuple_Check(key) || PyTuple_GET_SIZE(key) != 2) return -1;
    State s;
    memset(&s, 0, sizeof s);
    if (native_read_holes(S->st, S->game, PyTuple_GET_ITEM(key, 0), &s)) return -1;
    s.side = native_side_of(S->st, PyTuple_GET_ITEM(key, 1));
    if (s.side < 0) return -1;
    if (pool_reserve(S, 1) < 0) return -1;
    past_key_of(S->z, &s, S->geo->size, &S->pool[S->pool_len++]);
    return 0;
}

static PyObject *Search_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    static char *names[] = {"game", "max_entries", "max_plies", "node_limit", "deadline", "progress", "max_bytes",
                            "features", NULL};
    int game, max_plies, features = F_ETC | F_HISTORY;
    long long max_entries, node_limit, max_bytes = 0;
    double deadline;
    PyObject *progress;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "iLiLdO|Li", names, &game, &max_entries, &max_plies, &node_limit,
                                     &deadline, &progress, &max_bytes, &features))
        return NULL;
    NativeState *st = PyType_GetModuleState(type);
    if (st == NULL || native_game_arg(st, game)) return NULL;
    if (max_plies < 1 || max_plies > 100000 || max_entries < 0) {
        PyErr_SetString(PyExc_ValueError, "max_plies must be 1 to 100,000 and max_entries at least 0");
        return NULL;
    }
    SearchObject *S = (SearchObject *)type->tp_alloc(type, 0);
    if (S == NULL) return NULL;
    S->st = st;
    S->geo = &st->rules.geo[game];
    S->z = &st->z;
    S->game = game;
    S->history_game = game == KLAMROTH;
    S->max_plies = max_plies;
    S->features = features;
    /* The table's largest size: what max_bytes allows, else room for
     * max_entries at most half full. */
    size_t capacity = 1024;
    if (max_bytes > 0) {
        while ((capacity * 2) * sizeof(Entry) <= (size_t)max_bytes) capacity *= 2;
        if (capacity * sizeof(Entry) > (size_t)max_bytes) capacity = 0;
    } else
        while (capacity < 2 * (size_t)max_entries) capacity *= 2;
    S->max_capacity = capacity;
    S->max_entries = (size_t)max_entries;
    if (S->max_entries > capacity / 4 * 3) S->max_entries = capacity / 4 * 3;
    S->node_limit = node_limit;
    S->deadline = deadline;
    S->progress = Py_NewRef(progress);
    S->children = PyMem_Calloc((size_t)(max_plies + 1) * MAXC, sizeof(Child));
    if (S->children == NULL) {
        Py_DECREF(S);
        return PyErr_NoMemory();
    }
    return (PyObject *)S;
}

/* search.root(position): the root of the solve, on the line of every search
 * (in the games without a repetition rule). */
static PyObject *Search_root(SearchObject *S, PyObject *position)
{
    State s;
    if (native_read_position(S->st, S->game, position, &s)) {
        PyErr_SetString(PyExc_ValueError, "a position the kernel does not take");
        return NULL;
    }
    if (!S->history_game && path_push(S, state_hash(S->z, &s, S->geo->size), &s) < 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

/* The earlier positions ``past_set`` (keys) onto the pool, and their digest
 * into ``past``; -1 (an exception set) where one cannot be read. */
static int read_past_set(SearchObject *S, PyObject *past_set, uint64_t *past)
{
    PyObject *iterator = PyObject_GetIter(past_set);
    if (iterator == NULL) return -1;
    PyObject *key;
    while ((key = PyIter_Next(iterator)) != NULL) {
        int bad = read_past_key(S, key);
        Py_DECREF(key);
        if (bad) {
            Py_DECREF(iterator);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "an earlier position the kernel does not take");
            return -1;
        }
        past[0] ^= S->pool[S->pool_len - 1].z[0];
        past[1] ^= S->pool[S->pool_len - 1].z[1];
    }
    Py_DECREF(iterator);
    return PyErr_Occurred() ? -1 : 0;
}

/* The start of a search called from Python: the node count ``nodes``, and
 * the earlier positions ``past_set`` onto the pool (their digest into
 * ``past``); the pool's length before them, or -1 (an exception set). */
static int call_begin(SearchObject *S, PyObject *past_set, long long nodes, uint64_t *past)
{
    S->nodes = nodes;
    S->failed = 0;
    int saved = S->pool_len;
    past[0] = past[1] = 0;
    if (S->history_game && read_past_set(S, past_set, past) < 0) {
        S->pool_len = saved;
        return -1;
    }
    return saved;
}

/* The end of such a search: the pool as it was before; -1 (an exception
 * set) where the search failed. */
static int call_end(SearchObject *S, int saved)
{
    S->pool_len = saved;
    if (!S->failed) return 0;
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_RuntimeError, "the search failed");
    return -1;
}

/* search.prove(position, past, attacker, target, tag, dual, slot, nodes,
 * node_limit, deadline): Solver.prove from ``position`` (the root, on the
 * line) with the node count ``nodes``: (1 where the attacker's goal (a value
 * of at least ``target``) is proven, -1 where it cannot be met, 0 where a
 * limit stopped the search (``node_limit``, ``deadline``: the phase's own, -1
 * for none); the root's proof number for the attacker).  The goal's numbers
 * are kept in the entries' ``slot`` marked ``tag``; those marked ``dual`` (0:
 * none) are taken as estimates. */
static PyObject *Search_prove(SearchObject *S, PyObject *args)
{
    PyObject *position, *past_set;
    int attacker, target, tag, dual, slot;
    long long nodes, node_limit;
    double deadline;
    if (!PyArg_ParseTuple(args, "OOiiiiiLLd", &position, &past_set, &attacker, &target, &tag, &dual, &slot, &nodes,
                          &node_limit, &deadline))
        return NULL;
    if (attacker < 0 || attacker > 1 || target < DRAW_VALUE || target > WIN || tag < 1 || tag > 15 || dual < 0 ||
        dual > 15 || slot < 0 || slot > 1) {
        PyErr_SetString(PyExc_ValueError, "attacker 0 or 1, target 0 or 1, tag 1 to 15, dual 0 to 15, slot 0 or 1");
        return NULL;
    }
    State s;
    if (native_read_position(S->st, S->game, position, &s)) {
        PyErr_SetString(PyExc_ValueError, "a position the kernel does not take");
        return NULL;
    }
    S->pn_attacker = attacker;
    S->pn_target = target;
    S->pn_tag = tag;
    S->pn_dual = dual;
    S->pn_slot = slot;
    S->pn_stopped = 0;
    S->pn_node_limit = node_limit;
    S->pn_deadline = deadline;
    uint64_t past[2];
    int saved = call_begin(S, past_set, nodes, past);
    if (saved < 0) return NULL;
    uint32_t phi, delta;
    mid(S, &s, 0, saved, S->pool_len, past, PN_INF, PN_INF, &phi, &delta);
    if (call_end(S, saved) < 0) return NULL;
    int proven = 0, attacking = s.side == attacker;
    if (!S->stopped && !S->pn_stopped) proven = (phi == 0) == attacking ? 1 : -1;
    return Py_BuildValue("(iI)", proven, (unsigned int)(attacking ? phi : delta));
}

/* search.search(position, depth, alpha, beta, past, ply, nodes): Solver.search
 * from ``position`` with the node count ``nodes``; returns (low, high). */
static PyObject *Search_search(SearchObject *S, PyObject *args)
{
    PyObject *position, *past_set;
    int depth, alpha, beta, ply;
    long long nodes;
    if (!PyArg_ParseTuple(args, "OiiiOiL", &position, &depth, &alpha, &beta, &past_set, &ply, &nodes)) return NULL;
    State s;
    if (native_read_position(S->st, S->game, position, &s)) {
        PyErr_SetString(PyExc_ValueError, "a position the kernel does not take");
        return NULL;
    }
    if (ply < 0 || ply > S->max_plies) {
        PyErr_SetString(PyExc_ValueError, "ply out of range");
        return NULL;
    }
    uint64_t past[2];
    int saved = call_begin(S, past_set, nodes, past);
    if (saved < 0) return NULL;
    int low, high;
    search(S, &s, depth, alpha, beta, saved, S->pool_len, past, ply, &low, &high);
    if (call_end(S, saved) < 0) return NULL;
    return Py_BuildValue("(ii)", low, high);
}

/* -- the table in a file (Solver.save_table, Solver.load_table) -------------
 * Each position as a record of fixed size, in the machine's byte order: the
 * hash, the two digests of the earlier positions, the reserved holes (8
 * bytes each), the banks (2 bytes each), the holes (a byte each), the side,
 * the first-move flag, low, high and the best move (a byte each).  The
 * checksum is FNV-1a over the records. */
#define RECORD_FIXED 41
#define CHUNK_RECORDS 8192

static size_t record_size(const SearchObject *S) { return RECORD_FIXED + (size_t)S->geo->size; }

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ULL;
    return h;
}

static void put_record(const SearchObject *S, const Entry *e, unsigned char *p)
{
    int size = S->geo->size;
    memcpy(p, &e->hash, 8);
    memcpy(p + 8, e->past, 16);
    uint64_t reserved = e->reserved;
    memcpy(p + 24, &reserved, 8);
    memcpy(p + 32, e->banks, 4);
    memcpy(p + 36, e->holes, (size_t)size);
    p += 36 + size;
    p[0] = e->side;
    p[1] = e->first;
    p[2] = (unsigned char)e->low;
    p[3] = (unsigned char)e->high;
    p[4] = (unsigned char)e->best;
}

/* search.dump(write): the table's records, written by ``write(bytes)`` in
 * chunks; returns (records, checksum). */
static PyObject *Search_dump(SearchObject *S, PyObject *write)
{
    size_t rs = record_size(S), filled = 0, count = 0;
    uint64_t check = 0xcbf29ce484222325ULL;
    unsigned char *buffer = PyMem_Malloc(rs * CHUNK_RECORDS);
    if (buffer == NULL) return PyErr_NoMemory();
    for (size_t j = 0; j <= S->capacity; j++) {
        int last = j == S->capacity;
        if (!last && S->table[j].hash) {
            put_record(S, &S->table[j], buffer + filled * rs);
            filled++;
        }
        if (filled == CHUNK_RECORDS || (last && filled)) {
            check = fnv(check, buffer, filled * rs);
            PyObject *r = PyObject_CallFunction(write, "y#", (const char *)buffer, (Py_ssize_t)(filled * rs));
            if (r == NULL) {
                PyMem_Free(buffer);
                return NULL;
            }
            Py_DECREF(r);
            count += filled;
            filled = 0;
        }
    }
    PyMem_Free(buffer);
    return Py_BuildValue("(nK)", (Py_ssize_t)count, (unsigned long long)check);
}

/* search.load(read, records, checksum): the table's records read by
 * ``read(n)`` (as many as the table has room for are kept); returns the
 * records kept.  A record that cannot be, or a checksum that differs,
 * empties the table and raises ValueError. */
static PyObject *Search_load(SearchObject *S, PyObject *args)
{
    PyObject *read;
    Py_ssize_t records;
    unsigned long long expected;
    if (!PyArg_ParseTuple(args, "OnK", &read, &records, &expected)) return NULL;
    int size = S->geo->size;
    size_t rs = record_size(S);
    uint64_t check = 0xcbf29ce484222325ULL;
    const char *damage = NULL;
    Py_ssize_t left = records;
    while (left > 0 && damage == NULL) {
        Py_ssize_t n = left < CHUNK_RECORDS ? left : CHUNK_RECORDS;
        PyObject *chunk = PyObject_CallFunction(read, "n", (Py_ssize_t)(n * (Py_ssize_t)rs));
        if (chunk == NULL) goto failed;
        if (!PyBytes_Check(chunk) || PyBytes_GET_SIZE(chunk) != n * (Py_ssize_t)rs) {
            Py_DECREF(chunk);
            damage = "the file ends early";
            break;
        }
        const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(chunk);
        check = fnv(check, p, (size_t)n * rs);
        for (Py_ssize_t k = 0; k < n && damage == NULL; k++, p += rs) {
            State st;
            uint64_t hash, past[2];
            uint16_t banks[2];
            memset(&st, 0, sizeof st);
            memcpy(&hash, p, 8);
            memcpy(past, p + 8, 16);
            memcpy(&st.reserved, p + 24, 8);
            memcpy(banks, p + 32, 4);
            st.banks[0] = banks[0];
            st.banks[1] = banks[1];
            for (int i = 0; i < size; i++) st.holes[i] = p[36 + i];
            const unsigned char *q = p + 36 + size;
            int low = (signed char)q[2], high = (signed char)q[3], best = (signed char)q[4];
            st.side = q[0];
            st.move_number = q[1] ? 1 : 2;
            if (q[0] > 1 || q[1] > 1 || (q[1] && q[0] != 0) || low < LOSS || high > WIN || low > high || best < -1 ||
                best >= size || (size < 64 && st.reserved >> size) || st.reserved > MAX_RESERVED ||
                state_hash(S->z, &st, size) != hash) {
                damage = "a record that cannot be";
                break;
            }
            if (S->count < S->max_entries) store(S, hash, &st, past, low, high, best);
        }
        Py_DECREF(chunk);
        left -= n;
    }
    if (damage == NULL && check != (uint64_t)expected) damage = "its checksum differs";
    if (damage != NULL) {
        PyErr_SetString(PyExc_ValueError, damage);
        goto failed;
    }
    return PyLong_FromSize_t(S->count);
failed:
    if (S->table != NULL) memset(S->table, 0, S->capacity * sizeof(Entry));
    S->count = 0;
    return NULL;
}

static PyObject *Search_get_nodes(SearchObject *S, void *Py_UNUSED(closure)) { return PyLong_FromLongLong(S->nodes); }
static PyObject *Search_get_stopped(SearchObject *S, void *Py_UNUSED(closure)) { return PyBool_FromLong(S->stopped); }
static int Search_set_stopped(SearchObject *S, PyObject *value, void *Py_UNUSED(closure))
{
    if (value == NULL) {
        PyErr_SetString(PyExc_AttributeError, "stopped cannot be deleted");
        return -1;
    }
    int truth = PyObject_IsTrue(value);
    if (truth < 0) return -1;
    S->stopped = truth;
    return 0;
}
static PyObject *Search_get_longest(SearchObject *S, void *Py_UNUSED(closure)) { return PyLong_FromLong(S->longest); }
static PyObject *Search_get_entries(SearchObject *S, void *Py_UNUSED(closure)) { return PyLong_FromSize_t(S->count); }
static PyObject *Search_get_bytes(SearchObject *S, void *Py_UNUSED(closure))
{
    return PyLong_FromSize_t(S->capacity * sizeof(Entry));
}

static PyObject *Search_get_record_size(SearchObject *S, void *Py_UNUSED(closure))
{
    return PyLong_FromSize_t(record_size(S));
}

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "positions searched", NULL},
    {"stopped", (getter)Search_get_stopped, (setter)Search_set_stopped,
     "whether a limit stopped the search (set it to stop the search under way)", NULL},
    {"longest", (getter)Search_get_longest, NULL, "the longest line searched (plies)", NULL},
    {"entries", (getter)Search_get_entries, NULL, "positions in the table", NULL},
    {"table_bytes", (getter)Search_get_bytes, NULL, "the table's memory", NULL},
    {"record_size", (getter)Search_get_record_size, NULL, "the bytes of a record in a table file", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef Search_methods[] = {
    {"root", (PyCFunction)Search_root, METH_O, "root(position): the root of the solve"},
    {"search", (PyCFunction)Search_search, METH_VARARGS,
     "search(position, depth, alpha, beta, past, ply, nodes): (low, high)"},
    {"prove", (PyCFunction)Search_prove, METH_VARARGS,
     "prove(position, past, attacker, target, tag, dual, slot, nodes, node_limit, deadline): (1 proven, -1 "
     "disproven, 0 stopped; the root's proof number)"},
    {"dump", (PyCFunction)Search_dump, METH_O, "dump(write): the table's records; returns (records, checksum)"},
    {"load", (PyCFunction)Search_load, METH_VARARGS,
     "load(read, records, checksum): the table's records; returns the positions in the table"},
    {NULL, NULL, 0, NULL}};

static PyType_Slot search_slots[] = {
    {Py_tp_dealloc, Search_dealloc},
    {Py_tp_traverse, Search_traverse},
    {Py_tp_clear, Search_clear},
    {Py_tp_doc, "Search(game, max_entries, max_plies, node_limit, deadline, progress): one solve's search"},
    {Py_tp_methods, Search_methods},
    {Py_tp_getset, Search_getset},
    {Py_tp_new, Search_new},
    {0, NULL}};

/* A heap type of the module (PyType_FromModuleAndSpec), immutable as a
 * static type is. */
static PyType_Spec search_spec = {
    .name = "mancala_cli.rules._native.Search",
    .basicsize = sizeof(SearchObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_IMMUTABLETYPE,
    .slots = search_slots,
};

int native_search_exec(PyObject *module, NativeState *st)
{
    search_init(&st->z);
    st->search_type = PyType_FromModuleAndSpec(module, &search_spec, NULL);
    if (st->search_type == NULL || PyModule_AddObjectRef(module, "Search", st->search_type) < 0) return -1;
    /* What the Python solver must agree on (tests/test_native_module.py
     * compares them with solver.py's). */
    if (PyModule_AddIntConstant(module, "ETC", F_ETC) < 0 ||
        PyModule_AddIntConstant(module, "HISTORY", F_HISTORY) < 0 || PyModule_AddIntConstant(module, "PN", F_PN) < 0 ||
        PyModule_AddIntConstant(module, "PN_INF", PN_INF) < 0 ||
        PyModule_AddIntConstant(module, "HISTORY_MAX", HISTORY_MAX) < 0 ||
        PyModule_AddIntConstant(module, "CLOCK_EVERY", CLOCK_EVERY) < 0 ||
        PyModule_AddIntConstant(module, "PROGRESS_EVERY", PROGRESS_EVERY) < 0)
        return -1;
    return 0;
}

/* The size of one table entry, for a table bounded by bytes. */
PyObject *native_entry_bytes(PyObject *Py_UNUSED(module), PyObject *Py_UNUSED(unused))
{
    /* an entry, and as much again of empty slots (the table is at most half full) */
    return PyLong_FromSize_t(2 * sizeof(Entry));
}

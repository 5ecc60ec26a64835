/* The rules of the native kernel: the three games' boards as flat arrays,
 * sowing, the moves (with the exact endless-sowing decision and the rule id
 * of every illegal move).  No Python object here: _native.c reads and makes
 * them.  Each function mirrors the pure rules' (named above it) step for
 * step; see native.h for the layout.
 */
#include "native.h"

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

void native_build_geo(Geo *g, int ranks, int files, int clockwise)
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
void native_mackay_move(Rules *rules, State *s, int origin, Result *r)
{
    const Geo *g = &rules->geo[MACKAY];
    Sowing *w = &rules->sowing;
    int *holes = s->holes, side = s->side;
    r->error = OK;
    w->seen_count = 0;
    if (check_origin(g, s, origin, r)) return;
    int phase = (s->banks[0] || s->banks[1]) ? 1 : 2;
    int first_turn = native_first_turn(s);
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

/* kimasai_klamroth.KimasaiKlamroth._move (KK-2, KK-3).  The same rules on
 * the endgame tables' encoding: native_tablebase.c, tb_layer_start and
 * tb_layer_pass; tablebase.py, _moves. */
void native_klamroth_move(Rules *rules, State *s, int origin, Result *r)
{
    const Geo *g = &rules->geo[KLAMROTH];
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
void native_kingulu_move(Rules *rules, State *s, int origin, Result *r)
{
    const Geo *g = &rules->geo[KINGULU];
    Sowing *w = &rules->sowing;
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

/* -- the end of a game ----------------------------------------------------- */

/* Whether holes [lo, lo + n) hold a seed. */
static inline int any_seed(const int *holes, int lo, int n)
{
    int any = 0;
    for (int i = lo; i < lo + n; i++) any |= holes[i];
    return any;
}

/* The end conditions of ``s`` that need neither its legal moves nor the
 * game's history (Game._ended but KK-4b, which the callers test on their
 * own records of the history): 1 where one holds, with the game's value for
 * the side to move in *value; else 0 (*value untouched).  The search
 * (native_search.c, ended), the runs of moves (_native.c, k_play_line) and
 * native.py's end test (_native.ended) all ask this one function.
 *
 * KM-9, kimasai-mackay: a player without a seed in his inner row ends the
 * game: the side to move loses where his own is empty, else wins.  The same
 * rule: kimasai_mackay.py, KimasaiMackay._ended (the reference, which also
 * words the outcome); its "no legal move" half is native_no_moves below.
 *
 * KK-4a, kimasai-klamroth: the side to move has no stone left and loses.
 * The same rule: kimasai_klamroth.py, KimasaiKlamroth._ended; and, on the
 * tables' own encoding, native_tablebase.c, tb_layer_start (a layer of no
 * stone of the mover's is lost) and tablebase.py, _Layer.start. */
int native_ended(const Rules *rules, int game, const State *s, int *value)
{
    const Geo *g = &rules->geo[game];
    int mover = s->side;
    if (game == MACKAY) {
        if (!any_seed(s->holes, g->front_lo[mover], g->files)) {
            *value = LOSS;
            return 1;
        }
        if (!any_seed(s->holes, g->front_lo[mover ^ 1], g->files)) {
            *value = WIN;
            return 1;
        }
    } else if (game == KLAMROTH) {
        if (!any_seed(s->holes, mover * g->half, g->half)) {
            *value = LOSS;
            return 1;
        }
    }
    return 0;
}

/* The value for the side to move of a position where it has no legal move
 * (Game._no_moves).  KM-9 (kimasai-mackay) and KK-4c (kimasai-klamroth): it
 * loses.  KG-7 (kingulu): the score decides, each hole's seeds counting for
 * its owner, a reserved hole's for the other side.  The same rules:
 * kimasai_mackay.py, kimasai_klamroth.py and kingulu.py, _no_moves (and
 * Kingulu.score); KK-4c on the tables' encoding: native_tablebase.c,
 * tb_layer_start (no move: lost) and tablebase.py, _Layer.start. */
int native_no_moves(const Rules *rules, int game, const State *s)
{
    if (game != KINGULU) return LOSS;
    const Geo *g = &rules->geo[game];
    int score[2] = {s->banks[0], s->banks[1]};
    for (int h = 0; h < g->size; h++) {
        int owner = h < g->half ? 0 : 1;
        int holder = (s->reserved >> h & 1) ? owner ^ 1 : owner;
        score[holder] += s->holes[h];
    }
    if (score[0] == score[1]) return DRAW_VALUE;
    int winner = score[0] > score[1] ? 0 : 1;
    return winner == s->side ? WIN : LOSS;
}

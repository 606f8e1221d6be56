/* The searches of solver_klondike's model, in C: the depth-first pass and, since
 * 2026-12-07, best-first, for two sets of rules. One-pack Klondike with unlimited passes
 * and a draw of two or more (draw one brings the bridges and climbs, which stay
 * Python's); and Josephine's rules: two packs, building in suit, one pass, draw one.
 *
 * It is a line-for-line port of Python that stays the reference:
 * ``KlondikeModel.moves`` (with its dead-end test and, for Josephine, the space bound of
 * ``bounds.no_space_ever`` on the last pass), ``KlondikeModel.settle``,
 * ``KlondikeModel.play_one``, ``KlondikeModel.score``, and ``_Search.depth_first`` and
 * ``_Search.best_first`` in solver.py. Given the same root and node budget each search
 * visits the same positions in the same order and returns the same status, node count
 * and lines (tests/engine/test_native_dfs.py and test_native_klondike_best_first.py
 * check that on many deals). What it gains is speed: no Python objects per position,
 * moves made on a copied struct. The loops are shared with Casket's searches
 * (``_native_dfs_loop.h``, ``_native_bfs_loop.h``); this file supplies the model.
 *
 * The one difference is the transposition table. Python keeps every position's key;
 * this keeps a 128-bit hash of the same canonical key (foundations, talon, the waste
 * size unless it is merged, the passes where they are limited, the tableau piles
 * sorted). Two different positions would have to share all 128 bits for the search to
 * skip one wrongly; over the hundred million positions of the longest run that chance
 * is below 10^-20 (docs/winnability.md, "The depth-first pass in C").
 *
 * The model's tables (which cards may go up safely, which cards hold which, the goal
 * heights) are computed in Python by ``KlondikeModel`` and handed over as one bytes
 * object, so the rules of safety live in one place; the score's weights come with each
 * best-first call. This file knows nothing of engine states, views or the web app.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_native_search.h"

#define FACE_DOWN 64
#define MAX_PILES 10
#define MAX_PILE 40
#define MAX_TALON 64
#define MAX_SLOTS 8 /* foundations: four suits, two packs at most */
#define MAX_LOOSE 128
#define MAX_MOVES 1024
#define MAX_AUTO 64
#define CLOCK_EVERY 512

enum { T2F = 0, T2T = 1, TALON2F = 2, TALON2T = 3, F2T = 4, DRAW = 5 };
enum { PRI_UP = 22, PRI_TALON_UP = 22, PRI_TALON = 24, PRI_DOWN = 40 };
static const int PRI_REASON[4] = {0, 26, 28, 30};

/* Config blob layout (built by KlondikeModel.native_config). */
#define CFG_SAFE 16
#define CFG_HOLDERS (CFG_SAFE + 64 * 7)
#define CFG_SIZE (CFG_HOLDERS + 64 * 3)

typedef struct {
    int npiles, draw, whole, f2t, any_space, check_dead;
    /* Josephine's rules: packs (foundation slots per suit), building in suit, a single
     * pass (the last pass from the start: the stock is played a draw at a time), and
     * the space bound. */
    int decks, nslots, same_suit, one_pass, check_spaces;
    uint8_t goal[4];
    int safe_count[64]; /* -1: never safe */
    uint8_t safe_slot[64][3], safe_height[64][3];
    int holder_count[64];
    uint8_t holders[64][2];
} Config;

typedef struct {
    uint8_t found[MAX_SLOTS]; /* ``decks`` slots per suit, sorted within a suit */
    uint8_t n[MAX_PILES];
    uint8_t pile[MAX_PILES][MAX_PILE];
    uint8_t talon[MAX_TALON];
    uint8_t tn, w;
    int passes;
    /* A hash of each pile (two halves), valid unless its bit in ``dirty`` is set. */
    uint32_t dirty;
    uint64_t ph1[MAX_PILES], ph2[MAX_PILES];
} Pos;

typedef struct {
    uint8_t kind, a, b, c;
} Act;

typedef struct {
    int pri;
    Act act;
} Scored;

static int is_red(int suit) { return suit == 1 || suit == 2; }

/* ------------------------------------------------------------------ the model */

/* The canonical key's hash: foundations, talon and waste size (0 when merged), then
 * the piles as a multiset. Each pile is hashed on its own (kept in the position and
 * redone only when the pile changes) and the pile hashes are added, so the order of the
 * piles does not count, as the Python key sorts them. With ``with_waste`` 0 the waste
 * size is left out: the key of the dead-end test's memory, as in Python. */
static void pos_hash(const Config *cfg, Pos *p, int with_waste, uint64_t *h1, uint64_t *h2) {
    for (int i = 0; i < cfg->npiles; i++) {
        if (p->dirty >> i & 1) hash_bytes(0, p->pile[i], p->n[i], &p->ph1[i], &p->ph2[i]);
    }
    p->dirty = 0;
    uint8_t buf[MAX_SLOTS + 4 + MAX_TALON];
    size_t len = 0;
    memcpy(buf, p->found, cfg->nslots);
    len = cfg->nslots;
    buf[len++] = p->tn;
    memcpy(buf + len, p->talon, p->tn);
    len += p->tn;
    if (!with_waste) {
        buf[len++] = 0xFF;
    } else if (cfg->one_pass) {
        /* Limited passes: the waste size and the passes made, as KlondikeModel.key. */
        buf[len++] = p->w;
        buf[len++] = (uint8_t)p->passes;
    } else {
        /* Unlimited passes: an exhausted stock and any waste size that is a multiple
         * of the draw count are one position (as KlondikeModel.key). */
        int merged = p->w == p->tn || p->w % cfg->draw == 0;
        buf[len++] = merged ? 0 : p->w;
    }
    uint64_t a, b;
    hash_bytes(0, buf, len, &a, &b);
    for (int i = 0; i < cfg->npiles; i++) {
        a += p->ph1[i];
        b += p->ph2[i];
    }
    a = mix64(a);
    b = mix64(b ^ 0x5851F42D4C957F2DULL);
    if (a == 0 && b == 0) a = 1;
    *h1 = a;
    *h2 = b;
}

static int won(const Config *cfg, const Pos *p) {
    if (p->tn) return 0;
    for (int i = 0; i < cfg->npiles; i++)
        if (p->n[i]) return 0;
    return 1;
}

static uint64_t fit_mask(const Config *cfg, const Pos *p) {
    uint64_t fit = 0;
    for (int s = 0; s < cfg->nslots; s++)
        if (p->found[s] < 13) fit |= 1ULL << (((p->found[s] + 1) << 2) | (s / cfg->decks));
    return fit;
}

/* KlondikeModel.add_found: raise the highest slot of the suit at the height below, so
 * the suit's slots stay sorted. 0, or -1 when no slot takes the card. */
static int add_found(const Config *cfg, Pos *p, int card) {
    int below = (card >> 2) - 1, base = (card & 3) * cfg->decks;
    for (int j = cfg->decks - 1; j >= 0; j--) {
        if (p->found[base + j] == below) {
            p->found[base + j] = (uint8_t)(below + 1);
            return 0;
        }
    }
    return -1;
}

/* The height of a suit's highest slot (a suit's slots are sorted: its last). */
static int suit_height(const Config *cfg, const uint8_t *found, int suit) {
    return found[suit * cfg->decks + cfg->decks - 1];
}

static int is_safe(const Config *cfg, const uint8_t *found, int card) {
    int count = cfg->safe_count[card];
    if (count < 0) return 0;
    for (int k = 0; k < count; k++)
        if (found[cfg->safe_slot[card][k]] < cfg->safe_height[card][k]) return 0;
    return 1;
}

static void uncover(Pos *p, int i) {
    p->dirty |= 1u << i;
    if (p->n[i] && (p->pile[i][p->n[i] - 1] & FACE_DOWN)) p->pile[i][p->n[i] - 1] &= 63;
}

static void talon_remove(Pos *p, int at) {
    memmove(p->talon + at - 1, p->talon + at, p->tn - at);
    p->tn--;
}

/* 0 on success, -1 when a pile would overflow (never in Klondike). */
static int play_one(const Config *cfg, Pos *p, Act a) {
    switch (a.kind) {
    case T2F: {
        int i = a.a;
        int card = p->pile[i][p->n[i] - 1];
        if (add_found(cfg, p, card) < 0) return -1;
        p->n[i]--;
        uncover(p, i);
        break;
    }
    case T2T: {
        int i = a.a, j = a.b, count = a.c;
        if (p->n[j] + count > MAX_PILE) return -1;
        memcpy(p->pile[j] + p->n[j], p->pile[i] + p->n[i] - count, count);
        p->n[j] += count;
        p->n[i] -= count;
        p->dirty |= 1u << j;
        uncover(p, i);
        break;
    }
    case TALON2F:
    case TALON2T: {
        int at = a.a, turn = a.b;
        int card = p->talon[at - 1];
        talon_remove(p, at);
        p->w = at - 1;
        p->passes += turn;
        if (a.kind == TALON2F) {
            if (add_found(cfg, p, card) < 0) return -1;
        } else {
            int j = a.c;
            if (p->n[j] + 1 > MAX_PILE) return -1;
            p->pile[j][p->n[j]++] = card;
            p->dirty |= 1u << j;
        }
        break;
    }
    case DRAW:
        p->w = p->w + cfg->draw < p->tn ? p->w + cfg->draw : p->tn;
        break;
    default: { /* F2T */
        int card = a.a, j = a.b, base = (card & 3) * cfg->decks, slot = -1;
        if (p->n[j] + 1 > MAX_PILE) return -1;
        /* Lower the lowest slot at that height, so the suit's slots stay sorted. */
        for (int s = 0; s < cfg->decks; s++) {
            if (p->found[base + s] == card >> 2) {
                slot = base + s;
                break;
            }
        }
        if (slot < 0) return -1;
        p->found[slot] = (uint8_t)((card >> 2) - 1);
        p->pile[j][p->n[j]++] = card;
        p->dirty |= 1u << j;
        break;
    }
    }
    return 0;
}

/* Safe foundation moves, as KlondikeModel.settle: tableau tops first, in pile order;
 * then, at draw one (a single pass here), the waste top. */
static int settle(const Config *cfg, Pos *p, Act *made, int *nmade) {
    for (;;) {
        uint64_t candidates = 0;
        for (int s = 0; s < cfg->nslots; s++) {
            if (p->found[s] >= 13) continue;
            int c = ((p->found[s] + 1) << 2) | (s / cfg->decks);
            if (is_safe(cfg, p->found, c)) candidates |= 1ULL << c;
        }
        if (!candidates) return 0;
        Act a = {T2F, 0, 0, 0};
        int found_one = 0;
        for (int i = 0; i < cfg->npiles; i++) {
            if (!p->n[i]) continue;
            int top = p->pile[i][p->n[i] - 1];
            if (top < 64 && (candidates >> top & 1)) {
                a.a = (uint8_t)i;
                found_one = 1;
                break;
            }
        }
        if (!found_one && cfg->draw == 1 && p->w && (candidates >> p->talon[p->w - 1] & 1)) {
            a = (Act){TALON2F, p->w, 0, 0};
            found_one = 1;
        }
        if (!found_one) return 0;
        if (*nmade >= MAX_AUTO) return -1;
        made[(*nmade)++] = a;
        if (play_one(cfg, p, a) < 0) return -1;
    }
}

/* ------------------------------------------------------------------ the space bound */

/* bounds._may_go_up: a copy of ``card`` in play may go up when more copies of the card
 * below could be up than there are copies of it on the foundations now. */
static int may_go_up(const int *up, const int *already, int card) {
    return card >> 2 == 1 || up[card - 4] > already[card];
}

/* bounds._raise: one more copy of ``card`` able to go up, carried up its suit. */
static void raise_card(int *up, const int *already, int *marked, int card) {
    marked[card]++;
    int below = 128, suit = card & 3;
    for (int rank = 1; rank < 14; rank++) {
        int each = (rank << 2) | suit;
        int count = already[each] + marked[each];
        if (count > below) count = below;
        up[each] = count;
        below = count;
    }
}

/* bounds._leaves: a reachable card goes up, or onto a holder (then it is loose). */
static int card_leaves(int card, int *up, const int *already, int *marked, uint8_t *exposed, int *loose, int *nloose) {
    if (may_go_up(up, already, card)) {
        raise_card(up, already, marked, card);
        return 1;
    }
    if (card >> 2 < 13 && exposed[card + 4]) {
        exposed[card] = 1;
        loose[(*nloose)++] = card;
        return 1;
    }
    return 0;
}

/* KlondikeModel.space_bound on the last pass: ``bounds.no_space_ever`` with the waste as
 * the one stack, no open cards and the rest of the stock as the queue. 1: no pile can
 * ever be emptied, a lost position (bounds.py argues the relaxation). */
static int no_space_ever(const Config *cfg, const Pos *p) {
    int npiles = cfg->npiles;
    for (int i = 0; i < npiles; i++)
        if (!p->n[i]) return 0;
    int already[64] = {0}, up[64], marked[64] = {0};
    for (int suit = 0; suit < 4; suit++)
        for (int j = 0; j < cfg->decks; j++)
            for (int rank = 1; rank <= p->found[suit * cfg->decks + j]; rank++) already[(rank << 2) | suit]++;
    memcpy(up, already, sizeof(up));
    uint8_t exposed[64] = {0};
    int tops[MAX_PILES];
    for (int i = 0; i < npiles; i++) {
        tops[i] = p->n[i] - 1;
        exposed[p->pile[i][p->n[i] - 1] & 63] = 1;
    }
    uint8_t stack[MAX_TALON];
    int ssize = p->w, queued = p->w;
    for (int k = 0; k < p->w; k++) stack[k] = p->talon[k] & 63;
    int loose[MAX_LOOSE], nloose = 0;
    int changed = 1;
    while (changed || queued < p->tn) {
        if (!changed) stack[ssize++] = p->talon[queued++] & 63;
        changed = 0;
        if (nloose) {
            int kept = 0;
            for (int k = 0; k < nloose; k++) {
                int card = loose[k];
                if (may_go_up(up, already, card)) {
                    raise_card(up, already, marked, card);
                    changed = 1;
                } else {
                    loose[kept++] = card;
                }
            }
            nloose = kept;
        }
        while (ssize && card_leaves(stack[ssize - 1], up, already, marked, exposed, loose, &nloose)) {
            ssize--;
            changed = 1;
        }
        for (int i = 0; i < npiles; i++) {
            const uint8_t *pile = p->pile[i];
            int at = tops[i];
            while (at >= 0) {
                int card = pile[at] & 63;
                if (may_go_up(up, already, card)) {
                    raise_card(up, already, marked, card);
                    at--;
                } else {
                    int base = -1, k = at;
                    for (;;) {
                        int here = pile[k] & 63;
                        if (here >> 2 < 13 && exposed[here + 4]) base = k;
                        if (k == 0) break;
                        int below = pile[k - 1];
                        if ((below & 64) || (below & 63) != here + 4) break;
                        k--;
                    }
                    if (base < 0) break;
                    for (int m = base; m <= at; m++) {
                        int moved = pile[m] & 63;
                        exposed[moved] = 1;
                        loose[nloose++] = moved;
                    }
                    at = base - 1;
                }
                changed = 1;
                if (at < 0) return 0;
                exposed[pile[at] & 63] = 1;
            }
            tops[i] = at;
        }
    }
    return 1;
}

static void run_tops(const uint8_t *pile, int n, int *result) {
    for (int idx = n - 1; idx >= 0; idx--) {
        if (idx == n - 1) {
            result[idx] = idx;
            continue;
        }
        int lower = pile[idx + 1], upper = pile[idx];
        if (!((upper | lower) & FACE_DOWN) && (upper >> 2) == (lower >> 2) + 1 &&
            is_red(upper & 3) != is_red(lower & 3))
            result[idx] = result[idx + 1];
        else
            result[idx] = idx;
    }
}

/* KlondikeModel.dead_end: a sound relaxation (see its docstring). */
static int dead_end(const Config *cfg, const Pos *p) {
    uint64_t in_talon = 0;
    for (int k = 0; k < p->tn; k++) in_talon |= 1ULL << p->talon[k];
    int up[4];
    for (int s = 0; s < 4; s++) up[s] = p->found[s];
    uint8_t exposed[64] = {0}, departed[64] = {0};
    int tops[MAX_PILES][MAX_PILE];
    for (int i = 0; i < cfg->npiles; i++) {
        if (p->n[i]) {
            exposed[p->pile[i][p->n[i] - 1] & 63] = 1;
            run_tops(p->pile[i], p->n[i], tops[i]);
        }
    }
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int s = 0; s < 4; s++) {
            int height = up[s];
            while (height < 13) {
                int card = ((height + 1) << 2) | s;
                if ((in_talon >> card & 1) || exposed[card])
                    height++;
                else
                    break;
            }
            if (height != up[s]) {
                up[s] = height;
                changed = 1;
            }
        }
        if (up[0] == cfg->goal[0] && up[1] == cfg->goal[1] && up[2] == cfg->goal[2] && up[3] == cfg->goal[3])
            return 0;
        for (int i = 0; i < cfg->npiles; i++) {
            int n = p->n[i];
            if (!n) continue;
            const uint8_t *pile = p->pile[i];
            for (int idx = n - 1; idx >= 0; idx--) {
                int card = pile[idx] & 63;
                if (departed[card]) continue;
                int rank = card >> 2;
                int leaves = exposed[card] && up[card & 3] >= rank - 1;
                if (!leaves) {
                    int held = 0;
                    if (rank == 13) {
                        held = idx > 0;
                    } else {
                        for (int h = 0; h < cfg->holder_count[card]; h++) {
                            int holder = cfg->holders[card][h];
                            if ((in_talon >> holder & 1) || exposed[holder] ||
                                (cfg->f2t && up[holder & 3] >= holder >> 2)) {
                                held = 1;
                                break;
                            }
                        }
                    }
                    if (held) {
                        int top = tops[i][idx];
                        if (top == n - 1) {
                            leaves = 1;
                        } else {
                            for (int k = idx + 1; k < top + 2; k++) {
                                if (departed[pile[k] & 63]) {
                                    leaves = 1;
                                    break;
                                }
                            }
                        }
                    }
                }
                if (leaves) {
                    departed[card] = 1;
                    changed = 1;
                    if (idx) exposed[pile[idx - 1] & 63] = 1;
                }
            }
        }
    }
    return !(up[0] == cfg->goal[0] && up[1] == cfg->goal[1] && up[2] == cfg->goal[2] && up[3] == cfg->goal[3]);
}

static int may_come_down(const Config *cfg, const Pos *p, int card, uint64_t movable) {
    int height = card >> 2, suit = card & 3;
    for (int other = 0; other < 4; other++) {
        if (is_red(other) == is_red(suit)) continue;
        if (suit_height(cfg, p->found, other)) return 1;
        for (int rank = 1; rank < height; rank++)
            if (movable >> ((rank << 2) | other) & 1) return 1;
    }
    return 0;
}

static void add(Scored *out, int *n, int pri, int kind, int a, int b, int c) {
    if (*n >= MAX_MOVES) return; /* never reached: at most a few hundred moves */
    out[*n].pri = pri;
    out[*n].act.kind = (uint8_t)kind;
    out[*n].act.a = (uint8_t)a;
    out[*n].act.b = (uint8_t)b;
    out[*n].act.c = (uint8_t)c;
    (*n)++;
}

/* The dead-end test's answers by what it reads (foundations, piles, talon: not the
 * waste size), as KlondikeModel remembers them; a direct-mapped table of full hashes. */
typedef struct {
    uint64_t h1, h2;
    int dead;
} DeadEntry;
#define DEAD_SLOTS (1 << 15)

static int dead_cached(const Config *cfg, Pos *p, DeadEntry *cache) {
    uint64_t a, b;
    pos_hash(cfg, p, 0, &a, &b);
    DeadEntry *e = cache + (a & (DEAD_SLOTS - 1));
    if (e->h1 == a && e->h2 == b) return e->dead;
    int dead = dead_end(cfg, p);
    e->h1 = a;
    e->h2 = b;
    e->dead = dead;
    return dead;
}

/* KlondikeModel.moves for the rules this file plays (see the top). */
static int gen_moves(const Config *cfg, Pos *p, Scored *out, DeadEntry *cache) {
    int count = 0;
    if (cfg->check_dead && dead_cached(cfg, p, cache)) return 0;
    if (cfg->check_spaces && no_space_ever(cfg, p)) return 0;
    uint64_t fit = fit_mask(cfg, p);
    int npiles = cfg->npiles;
    int first_empty = -1;
    /* wanted[card]: target piles in pile order. */
    int8_t wanted[64][MAX_PILES];
    uint8_t nwanted[64] = {0};
    for (int j = 0; j < npiles; j++) {
        if (!p->n[j]) {
            if (first_empty < 0) first_empty = j;
            continue;
        }
        int top = p->pile[j][p->n[j] - 1];
        if (top & FACE_DOWN) continue;
        int rank = top >> 2;
        if (rank == 1) continue;
        if (cfg->same_suit) {
            int c = top - 4;
            wanted[c][nwanted[c]++] = (int8_t)j;
            continue;
        }
        int s1 = is_red(top & 3) ? 0 : 1, s2 = is_red(top & 3) ? 3 : 2;
        int c1 = ((rank - 1) << 2) | s1, c2 = ((rank - 1) << 2) | s2;
        wanted[c1][nwanted[c1]++] = (int8_t)j;
        wanted[c2][nwanted[c2]++] = (int8_t)j;
    }
    int space_ok = first_empty >= 0;
    uint64_t movable = 0;
    for (int k = 0; k < p->tn; k++) movable |= 1ULL << p->talon[k];

    for (int i = 0; i < npiles; i++) {
        const uint8_t *pile = p->pile[i];
        int size = p->n[i];
        int start, hidden = 0;
        if (size == 0 || (pile[size - 1] & FACE_DOWN)) {
            start = size;
        } else {
            start = size - 1;
            while (start > 0) {
                int lower = pile[start], upper = pile[start - 1];
                if ((upper & FACE_DOWN) || (upper >> 2) != (lower >> 2) + 1) break;
                if (cfg->same_suit ? (upper & 3) != (lower & 3) : is_red(upper & 3) == is_red(lower & 3)) break;
                start--;
            }
        }
        for (int k = 0; k < size; k++)
            if (pile[k] & FACE_DOWN) hidden++;
        if (start >= size) continue;
        for (int k = start; k < size; k++) movable |= 1ULL << pile[k];
        int top = pile[size - 1];
        int reveal = 20 - 2 * hidden;
        if (fit >> top & 1) {
            if (hidden && (pile[size - 2] & FACE_DOWN))
                add(out, &count, reveal, T2F, i, 0, 0);
            else
                add(out, &count, PRI_UP, T2F, i, 0, 0);
        }
        int last = cfg->whole ? start + 1 : size;
        for (int k = start; k < last; k++) {
            int base = pile[k];
            int reason;
            if (k == 0)
                reason = 2;
            else if (pile[k - 1] & FACE_DOWN)
                reason = 0;
            else if (k == start)
                reason = 1;
            else if (pile[k - 1] < 64 && (fit >> pile[k - 1] & 1))
                reason = 3;
            else
                continue;
            int priority = reason == 0 ? reveal : PRI_REASON[reason];
            for (int t = 0; t < nwanted[base]; t++) {
                int j = wanted[base][t];
                if (j != i) add(out, &count, priority, T2T, i, j, size - k);
            }
            if (space_ok && reason != 2 && (cfg->any_space || base >> 2 == 13))
                add(out, &count, reason == 0 ? priority : priority + 1, T2T, i, first_empty, size - k);
        }
    }

    if (cfg->f2t) {
        int tops[MAX_SLOTS], ntops = 0;
        for (int s = 0; s < cfg->nslots; s++) {
            if (p->found[s]) {
                tops[ntops] = (p->found[s] << 2) | (s / cfg->decks);
                movable |= 1ULL << tops[ntops];
                ntops++;
            }
        }
        for (int t = 0; t < ntops; t++) {
            int card = tops[t];
            int height = card >> 2;
            if (is_safe(cfg, p->found, card) || !may_come_down(cfg, p, card, movable)) continue;
            for (int k = 0; k < nwanted[card]; k++) add(out, &count, PRI_DOWN, F2T, card, wanted[card][k], 0);
            if (space_ok && (cfg->any_space || height == 13)) add(out, &count, PRI_DOWN, F2T, card, first_empty, 0);
        }
    }

    if (p->tn && cfg->one_pass) {
        /* The last pass: a card drawn past is buried for good, so the stock is played
         * as it is, a draw at a time. */
        int w = p->w;
        if (w) {
            int card = p->talon[w - 1];
            if (fit >> card & 1) add(out, &count, PRI_TALON_UP, TALON2F, w, 0, 0);
            for (int t = 0; t < nwanted[card]; t++) add(out, &count, PRI_TALON, TALON2T, w, 0, wanted[card][t]);
            if (space_ok && (cfg->any_space || card >> 2 == 13))
                add(out, &count, PRI_TALON + 1, TALON2T, w, 0, first_empty);
        }
        if (w < p->tn) add(out, &count, PRI_TALON + 2, DRAW, 0, 0, 0);
    } else if (p->tn) {
        /* KlondikeModel.talon_positions, unlimited passes. */
        int size = p->tn, draw = cfg->draw, w = p->w;
        int at_list[2 * MAX_TALON + 2], turn_list[2 * MAX_TALON + 2], nreach = 0;
        uint8_t seen[MAX_TALON + 1] = {0};
        if (w) {
            at_list[nreach] = w;
            turn_list[nreach++] = 0;
            seen[w] = 1;
        }
        int q = w;
        while (q < size) {
            q = q + draw < size ? q + draw : size;
            at_list[nreach] = q;
            turn_list[nreach++] = 0;
            seen[q] = 1;
        }
        q = 0;
        while (q < size) {
            q = q + draw < size ? q + draw : size;
            if (!seen[q]) {
                at_list[nreach] = q;
                turn_list[nreach++] = 1;
            }
        }
        for (int r = 0; r < nreach; r++) {
            int at = at_list[r], turn = turn_list[r];
            int card = p->talon[at - 1];
            int cost = turn + (at >= w ? at - w : at) / draw;
            if (fit >> card & 1) add(out, &count, PRI_TALON_UP + cost, TALON2F, at, turn, 0);
            for (int t = 0; t < nwanted[card]; t++)
                add(out, &count, PRI_TALON + cost, TALON2T, at, turn, wanted[card][t]);
            if (space_ok && (cfg->any_space || card >> 2 == 13))
                add(out, &count, PRI_TALON + 1 + cost, TALON2T, at, turn, first_empty);
        }
    }
    /* A stable sort by priority, as Python's sort. */
    for (int i = 1; i < count; i++) {
        Scored item = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].pri > item.pri) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = item;
    }
    return count;
}

/* ------------------------------------------------------------------ the search */

/* The hooks of the shared loop (_native_dfs_loop.h). */
typedef struct {
    DeadEntry *cache;
} Scratch;

static int scratch_init(Scratch *s) {
    s->cache = calloc(DEAD_SLOTS, sizeof(DeadEntry));
    return s->cache ? 0 : -1;
}

static void scratch_free(Scratch *s) { free(s->cache); }

static int node_play(const Config *cfg, Pos *p, Act a) { return play_one(cfg, p, a); }

static int node_settle(const Config *cfg, Pos *p, Act *made, int *nmade) { return settle(cfg, p, made, nmade); }

static void node_hash(const Config *cfg, Pos *p, uint64_t *h1, uint64_t *h2) { pos_hash(cfg, p, 1, h1, h2); }

static int node_won(const Config *cfg, const Pos *p) { return won(cfg, p); }

static int node_moves(const Config *cfg, Pos *p, Scored *out, Scratch *s) { return gen_moves(cfg, p, out, s->cache); }

static PyObject *act_to_tuple(Act a) { return Py_BuildValue("(iiii)", a.kind, a.a, a.b, a.c); }

#include "_native_dfs_loop.h"

/* KlondikeModel.score: how far from won a position looks (lower is better): cards still
 * out, cards covering a card needed sooner in a pile or in the waste, spaces as a bonus,
 * face-down cards; weighted by ``w`` (the model's weights, in that order). */
static long long node_score(const Config *cfg, const Pos *p, const long long *w) {
    int height[4];
    for (int suit = 0; suit < 4; suit++) height[suit] = suit_height(cfg, p->found, suit);
    long long blockers = 0, spaces = 0, hidden = 0, left = p->tn;
    for (int i = 0; i < cfg->npiles; i++) {
        int n = p->n[i];
        if (!n) {
            spaces++;
            continue;
        }
        left += n;
        int most_urgent = 99;
        for (int k = 0; k < n; k++) {
            int card = p->pile[i][k];
            if (card & FACE_DOWN) hidden++;
            int need = (card >> 2 & 15) - height[card & 3];
            if (need > most_urgent)
                blockers++;
            else
                most_urgent = need;
        }
    }
    int most_urgent = 99;
    for (int k = 0; k < p->w; k++) {
        int card = p->talon[k];
        int need = (card >> 2) - height[card & 3];
        if (need > most_urgent)
            blockers++;
        else
            most_urgent = need;
    }
    return w[0] * left + w[1] * blockers - w[2] * spaces + w[3] * hidden;
}

#include "_native_bfs_loop.h"



static int parse_config(PyObject *blob, Config *cfg) {
    char *raw;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(blob, &raw, &len) < 0) return -1;
    if (len != CFG_SIZE) {
        PyErr_SetString(PyExc_ValueError, "native config has the wrong size");
        return -1;
    }
    const uint8_t *b = (const uint8_t *)raw;
    cfg->npiles = b[0];
    cfg->draw = b[1];
    cfg->whole = b[2];
    cfg->f2t = b[3];
    cfg->any_space = b[4];
    cfg->check_dead = b[5];
    cfg->decks = b[10];
    cfg->nslots = 4 * cfg->decks;
    cfg->same_suit = b[11];
    cfg->one_pass = b[12];
    cfg->check_spaces = b[13];
    /* Draw one with more than one pass brings Python's bridges and climbs, not here. */
    if (cfg->npiles < 1 || cfg->npiles > MAX_PILES || cfg->draw < 1 || cfg->decks < 1 ||
        cfg->nslots > MAX_SLOTS || (cfg->draw == 1 && !cfg->one_pass) || (cfg->check_dead && cfg->decks != 1)) {
        PyErr_SetString(PyExc_ValueError, "native config out of range");
        return -1;
    }
    memcpy(cfg->goal, b + 6, 4);
    for (int c = 0; c < 64; c++) {
        const uint8_t *e = b + CFG_SAFE + 7 * c;
        cfg->safe_count[c] = e[0] == 255 ? -1 : e[0];
        if (cfg->safe_count[c] > 3) cfg->safe_count[c] = 3;
        for (int k = 0; k < 3; k++) {
            cfg->safe_slot[c][k] = (uint8_t)(e[1 + 2 * k] % cfg->nslots);
            cfg->safe_height[c][k] = e[2 + 2 * k];
        }
        const uint8_t *h = b + CFG_HOLDERS + 3 * c;
        cfg->holder_count[c] = h[0] > 2 ? 2 : h[0];
        cfg->holders[c][0] = h[1] & 63;
        cfg->holders[c][1] = h[2] & 63;
    }
    return 0;
}

static int parse_position(PyObject *obj, const Config *cfg, Pos *p) {
    PyObject *found, *piles, *talon;
    int w, passes;
    memset(p, 0, sizeof(*p));
    if (!PyArg_ParseTuple(obj, "SO!Sii", &found, &PyTuple_Type, &piles, &talon, &w, &passes)) return -1;
    if (PyBytes_GET_SIZE(found) != cfg->nslots || PyTuple_GET_SIZE(piles) != cfg->npiles ||
        PyBytes_GET_SIZE(talon) > MAX_TALON || w < 0 || w > PyBytes_GET_SIZE(talon)) {
        PyErr_SetString(PyExc_ValueError, "position does not fit the native search");
        return -1;
    }
    memcpy(p->found, PyBytes_AS_STRING(found), cfg->nslots);
    for (int i = 0; i < cfg->npiles; i++) {
        PyObject *pile = PyTuple_GET_ITEM(piles, i);
        if (!PyBytes_Check(pile) || PyBytes_GET_SIZE(pile) > MAX_PILE) {
            PyErr_SetString(PyExc_ValueError, "pile does not fit the native search");
            return -1;
        }
        p->n[i] = (uint8_t)PyBytes_GET_SIZE(pile);
        memcpy(p->pile[i], PyBytes_AS_STRING(pile), p->n[i]);
    }
    p->tn = (uint8_t)PyBytes_GET_SIZE(talon);
    memcpy(p->talon, PyBytes_AS_STRING(talon), p->tn);
    /* Cards are the engine's ints (rank << 2 | suit, ranks 1-13), 64 added when face
     * down in a pile; the talon holds face-up cards only. Anything else is refused,
     * as every table here is indexed by card. */
    for (int s = 0; s < cfg->nslots; s++) {
        if (p->found[s] > 13 || (s % cfg->decks && p->found[s] < p->found[s - 1])) goto bad;
    }
    /* The passes are hashed as one byte, and a single pass must not have ended. */
    if (passes < 0 || passes > 255 || (cfg->one_pass && passes)) {
        PyErr_SetString(PyExc_ValueError, "passes out of range for the native search");
        return -1;
    }
    for (int i = 0; i < cfg->npiles; i++) {
        for (int k = 0; k < p->n[i]; k++) {
            int c = p->pile[i][k];
            if (c >= 128 || (c & 63) < 4 || (c & 63) >= 56) goto bad;
        }
    }
    for (int k = 0; k < p->tn; k++) {
        if (p->talon[k] < 4 || p->talon[k] >= 56) goto bad;
    }
    p->w = (uint8_t)w;
    p->passes = passes;
    p->dirty = (1u << cfg->npiles) - 1;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "position holds a value that is not a card");
    return -1;
}

#define NATIVE_DFS_ENTRY
#include "_native_dfs_loop.h"
#define NATIVE_BFS_ENTRY
#include "_native_bfs_loop.h"

static PyMethodDef methods[] = {
    {"depth_first", depth_first, METH_VARARGS,
     "depth_first(config, root, max_nodes, deadline, clock) -> (status, nodes, actions)"},
    {"best_first", best_first, METH_VARARGS,
     "best_first(config, root, max_nodes, deadline, clock, weights) -> (status, nodes, line, best_score, best_line)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_klondike_search",
    "The searches of solver_klondike's model (one-pack Klondike, Josephine), in C (see the source).", -1, methods,
};

PyMODINIT_FUNC PyInit__klondike_search(void) { return PyModule_Create(&module); }

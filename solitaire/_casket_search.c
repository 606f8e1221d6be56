/* The searches of solver_casket's model, in C, for Casket and its hard variation:
 * the depth-first pass and, since 2026-12-06, best-first.
 *
 * It is a line-for-line port of ``CasketModel.moves``, ``CasketModel.settle``,
 * ``CasketModel.play_one``, ``CasketModel.score``, ``_Search.depth_first`` and
 * ``_Search.best_first`` in solver.py, which stay the reference. Given the same root and
 * node budget each search visits the same positions in the same order and returns the
 * same status, node count and lines (tests/engine/test_native_casket_depth_first.py and
 * test_native_casket_best_first.py check that on many deals). What it gains is speed:
 * no Python objects per position, moves made on a copied struct. The loops themselves
 * are shared with the Klondike pass (``_native_dfs_loop.h``) or written to be
 * (``_native_bfs_loop.h``); this file supplies the model.
 *
 * As in ``_klondike_search.c``, the transposition table keeps a 128-bit hash of the
 * model's canonical key (foundations, stock and jewels left, the lid as a multiset,
 * the tableau piles as a multiset, the wastes as a multiset), not the key itself
 * (docs/winnability.md, "The depth-first pass in C", argues why a collision is out of
 * reach).
 *
 * The deal's stock and jewels, and the table of when a card may go up by itself, are
 * computed in Python by ``CasketModel`` and handed over as one bytes object, so the
 * rule of safety lives in one place; the score's weights come with each call. The space
 * bound (``solver_casket.SPACE_BOUND``) is not ported: with it on, the Python searches
 * run. This file knows nothing of engine states, views or the web app.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_native_search.h"

#define NTAB 8
#define NWASTE 3
#define NLID 5
#define MAX_TAB 32
#define MAX_WASTE 104
#define MAX_STOCK 104
#define MAX_JEWELS 16
#define MAX_MOVES 256
#define MAX_AUTO 128
#define CLOCK_EVERY 512

/* Places, as in solver_casket. */
#define STOCK 0
#define WASTE0 1
#define TAB0 4
#define LID0 12
#define FOUNDATIONS 17

/* Config blob layout (built by CasketModel.native_config). */
#define CFG_NEED 3
#define CFG_CARDS (CFG_NEED + 64 * 2)

typedef struct {
    int hard, nstock, njewels;
    uint8_t need_both[64], need_one[64];
    uint8_t stock[MAX_STOCK], jewels[MAX_JEWELS];
} Config;

typedef struct {
    uint8_t found[8];
    uint8_t tn[NTAB], wn[NWASTE];
    uint8_t tab[NTAB][MAX_TAB];
    uint8_t waste[NWASTE][MAX_WASTE];
    uint8_t lid[NLID];
    uint8_t stock, jewels;
    /* A hash of each tableau pile (bits 0-7 of ``dirty``) and each waste (bits 8-10),
     * valid unless its bit is set: most moves change one or two piles. */
    uint32_t dirty;
    uint64_t ph1[NTAB + NWASTE], ph2[NTAB + NWASTE];
} Pos;

typedef struct {
    uint8_t a, b;
} Act;

typedef struct {
    int pri;
    Act act;
} Scored;

/* ------------------------------------------------------------------ the model */

/* The canonical key's hash, as CasketModel.key: the foundations, the stock and jewels
 * left and the lid sorted, then the tableau piles and the wastes, each group a
 * multiset. A pile's hash is seeded by its group, and a group's hashes are added, so
 * the order of piles within a group does not count and the groups stay apart. */
static void pos_hash(Pos *p, uint64_t *h1, uint64_t *h2) {
    for (int t = 0; t < NTAB; t++) {
        if (p->dirty >> t & 1) hash_bytes(0x7AB1EAU, p->tab[t], p->tn[t], &p->ph1[t], &p->ph2[t]);
    }
    for (int w = 0; w < NWASTE; w++) {
        if (p->dirty >> (NTAB + w) & 1) {
            uint64_t x, y;
            hash_bytes(0x3A57EU, p->waste[w], p->wn[w], &x, &y);
            p->ph1[NTAB + w] = mix64(x ^ 0x51ED27A3B6C1D4E5ULL);
            p->ph2[NTAB + w] = mix64(y + 0x2F0E1D2C3B4A5968ULL);
        }
    }
    p->dirty = 0;
    uint8_t buf[8 + 2 + NLID];
    memcpy(buf, p->found, 8);
    buf[8] = p->stock;
    buf[9] = p->jewels;
    uint8_t lid[NLID];
    memcpy(lid, p->lid, NLID);
    for (int i = 1; i < NLID; i++) {
        uint8_t v = lid[i];
        int j = i - 1;
        while (j >= 0 && lid[j] > v) {
            lid[j + 1] = lid[j];
            j--;
        }
        lid[j + 1] = v;
    }
    memcpy(buf + 10, lid, NLID);
    uint64_t a, b;
    hash_bytes(0, buf, sizeof(buf), &a, &b);
    for (int i = 0; i < NTAB + NWASTE; i++) {
        a += p->ph1[i];
        b += p->ph2[i];
    }
    a = mix64(a);
    b = mix64(b ^ 0x5851F42D4C957F2DULL);
    if (a == 0 && b == 0) a = 1;
    *h1 = a;
    *h2 = b;
}

static int won(const Pos *p) {
    if (p->stock || p->jewels) return 0;
    for (int c = 0; c < NLID; c++)
        if (p->lid[c]) return 0;
    for (int t = 0; t < NTAB; t++)
        if (p->tn[t]) return 0;
    for (int w = 0; w < NWASTE; w++)
        if (p->wn[w]) return 0;
    return 1;
}

/* Whether ``card`` would go up now (CasketModel.fitting's first set). */
static int fits(const Pos *p, int card) {
    int rank = card >> 2, suit = card & 3;
    if (rank < 1 || rank > 13) return 0;
    return p->found[suit * 2] == rank - 1 || p->found[suit * 2 + 1] == rank - 1;
}

/* Whether ``card`` would go up now and may go up by itself (fitting's second set). */
static int safe(const Config *cfg, const Pos *p, int card) {
    if (!fits(p, card)) return 0;
    if ((card >> 2) <= 2) return 1;
    int suit = card & 3;
    return p->found[suit * 2] >= cfg->need_both[card] && p->found[suit * 2 + 1] >= cfg->need_one[card];
}

/* -1: the move does not fit (an internal error: the generator made it). */
static int play_one(const Config *cfg, Pos *p, Act act) {
    int source = act.a, target = act.b, card;
    if (source == STOCK) {
        if (!p->stock) return -1;
        card = cfg->stock[p->stock - 1];
        p->stock--;
    } else if (source <= 3) {
        int w = source - WASTE0;
        if (!p->wn[w]) return -1;
        card = p->waste[w][--p->wn[w]];
        p->dirty |= 1u << (NTAB + w);
    } else if (source <= 11) {
        int t = source - TAB0;
        if (!p->tn[t]) return -1;
        card = p->tab[t][--p->tn[t]];
        p->dirty |= 1u << t;
        if (!p->tn[t] && p->stock) {
            p->tab[t][0] = cfg->stock[p->stock - 1];
            p->tn[t] = 1;
            p->stock--;
        }
    } else {
        int c = source - LID0;
        card = p->lid[c];
        if (!card) return -1;
        int refill = 0;
        if (p->jewels) {
            refill = cfg->jewels[p->jewels - 1];
            p->jewels--;
        }
        p->lid[c] = (uint8_t)refill;
    }
    if (target == FOUNDATIONS) {
        int slot = (card & 3) * 2, below = (card >> 2) - 1;
        if (p->found[slot + 1] == below)
            slot += 1;
        else if (p->found[slot] != below)
            return -1;
        p->found[slot] = (uint8_t)(below + 1);
    } else if (target <= 3) {
        int w = target - WASTE0;
        if (p->wn[w] >= MAX_WASTE) return -1;
        p->waste[w][p->wn[w]++] = (uint8_t)card;
        p->dirty |= 1u << (NTAB + w);
    } else if (target <= 11) {
        int t = target - TAB0;
        if (p->tn[t] >= MAX_TAB) return -1;
        p->tab[t][p->tn[t]++] = (uint8_t)card;
        p->dirty |= 1u << t;
    } else {
        p->lid[target - LID0] = (uint8_t)card;
    }
    return 0;
}

/* CasketModel.settle: send up every card that is safe to, in its order of sources. */
static int settle(const Config *cfg, Pos *p, Act *made, int *nmade) {
    for (;;) {
        Act act;
        int found = 0;
        if (p->stock && safe(cfg, p, cfg->stock[p->stock - 1])) {
            act.a = STOCK;
            found = 1;
        }
        for (int w = 0; !found && w < NWASTE; w++) {
            if (p->wn[w] && safe(cfg, p, p->waste[w][p->wn[w] - 1])) {
                act.a = (uint8_t)(WASTE0 + w);
                found = 1;
            }
        }
        for (int c = 0; !found && c < NLID; c++) {
            if (p->lid[c] && safe(cfg, p, p->lid[c])) {
                act.a = (uint8_t)(LID0 + c);
                found = 1;
            }
        }
        for (int t = 0; !found && t < NTAB; t++) {
            if (p->tn[t] && safe(cfg, p, p->tab[t][p->tn[t] - 1]) && (p->tn[t] > 1 || !p->stock)) {
                act.a = (uint8_t)(TAB0 + t);
                found = 1;
            }
        }
        if (!found) return 0;
        act.b = FOUNDATIONS;
        if (*nmade >= MAX_AUTO) return -1;
        made[(*nmade)++] = act;
        if (play_one(cfg, p, act) < 0) return -1;
    }
}

static void add(Scored *out, int *n, int pri, int a, int b) {
    if (*n >= MAX_MOVES) return;
    out[*n].pri = pri;
    out[*n].act.a = (uint8_t)a;
    out[*n].act.b = (uint8_t)b;
    (*n)++;
}

static int same_waste(const Pos *p, int i, int j) {
    return p->wn[i] == p->wn[j] && memcmp(p->waste[i], p->waste[j], p->wn[i]) == 0;
}

/* CasketModel.moves: every legal move but a pile's only card into a space, best
 * guesses first (a stable sort by priority, as Python's). */
static int gen_moves(const Config *cfg, const Pos *p, Scored *out) {
    int n = 0;
    int lid_open = !p->jewels && !cfg->hard;
    /* wanted[card]: the tableau places whose top is one rank above it in its suit. */
    int first_space = -1, empty_cell = -1;
    uint8_t top_of[NTAB];
    for (int t = 0; t < NTAB; t++) {
        if (p->tn[t]) {
            top_of[t] = p->tab[t][p->tn[t] - 1];
        } else {
            top_of[t] = 0;
            if (first_space < 0) first_space = TAB0 + t;
        }
    }
    if (lid_open) {
        for (int c = 0; c < NLID; c++) {
            if (!p->lid[c]) {
                empty_cell = LID0 + c;
                break;
            }
        }
    }
    int places[1 + NWASTE + NTAB + NLID], cards[1 + NWASTE + NTAB + NLID], ns = 0;
    if (p->stock) {
        places[ns] = STOCK;
        cards[ns++] = cfg->stock[p->stock - 1];
    }
    for (int w = 0; w < NWASTE; w++) {
        if (p->wn[w]) {
            places[ns] = WASTE0 + w;
            cards[ns++] = p->waste[w][p->wn[w] - 1];
        }
    }
    for (int t = 0; t < NTAB; t++) {
        if (p->tn[t]) {
            places[ns] = TAB0 + t;
            cards[ns++] = top_of[t];
        }
    }
    for (int c = 0; c < NLID; c++) {
        if (p->lid[c]) {
            places[ns] = LID0 + c;
            cards[ns++] = p->lid[c];
        }
    }
    for (int s = 0; s < ns; s++) {
        int place = places[s], card = cards[s];
        int alone = place >= TAB0 && place < LID0 && p->tn[place - TAB0] == 1;
        if (fits(p, card)) add(out, &n, 0, place, FOUNDATIONS);
        for (int t = 0; t < NTAB; t++) {
            if (p->tn[t] && (top_of[t] >> 2) > 1 && top_of[t] - 4 == card && TAB0 + t != place)
                add(out, &n, (alone || place >= LID0) ? 1 : 3, place, TAB0 + t);
        }
        if (first_space >= 0 && !alone) add(out, &n, 4, place, first_space);
        if (empty_cell >= 0 && place < LID0) add(out, &n, 6, place, empty_cell);
    }
    if (p->stock) {
        int card = cfg->stock[p->stock - 1];
        /* Each distinct waste, the best place first: a top needed no sooner than the
         * card, the closest such first (an empty waste after them), then the tops
         * needed sooner, the latest first (CasketModel.moves). */
        int order[NWASTE], keys[NWASTE], pris[NWASTE], m = 0;
        int card_need = (card >> 2) - p->found[(card & 3) * 2 + 1];
        for (int w = 0; w < NWASTE; w++) {
            int repeat = 0;
            for (int v = 0; v < w; v++)
                if (same_waste(p, v, w)) repeat = 1;
            if (repeat) continue;
            int pri, key;
            if (!p->wn[w]) {
                pri = 2;
                key = 99;
            } else {
                int top = p->waste[w][p->wn[w] - 1];
                int top_need = (top >> 2) - p->found[(top & 3) * 2 + 1];
                pri = top_need >= card_need ? 2 : 5;
                key = pri == 2 ? top_need : 99 - top_need;
            }
            int j = m++;
            while (j > 0 && (pris[j - 1] > pri || (pris[j - 1] == pri && keys[j - 1] > key))) {
                order[j] = order[j - 1];
                keys[j] = keys[j - 1];
                pris[j] = pris[j - 1];
                j--;
            }
            order[j] = w;
            keys[j] = key;
            pris[j] = pri;
        }
        for (int i = 0; i < m; i++) add(out, &n, pris[i], STOCK, WASTE0 + order[i]);
    }
    /* Insertion sort: stable, and the lists are short. */
    for (int i = 1; i < n; i++) {
        Scored item = out[i];
        int j = i - 1;
        while (j >= 0 && out[j].pri > item.pri) {
            out[j + 1] = out[j];
            j--;
        }
        out[j + 1] = item;
    }
    return n;
}

/* ------------------------------------------------------------------ the search */

/* The hooks of the shared loop (_native_dfs_loop.h). A move the generator made always
 * fits, so node_play and node_settle never skip one here; the tests compare every
 * answer with the Python pass, which would raise. */
typedef struct {
    int unused;
} Scratch;

static int scratch_init(Scratch *s) {
    s->unused = 0;
    return 0;
}

static void scratch_free(Scratch *s) { (void)s; }

static int node_play(const Config *cfg, Pos *p, Act a) { return play_one(cfg, p, a); }

static int node_settle(const Config *cfg, Pos *p, Act *made, int *nmade) { return settle(cfg, p, made, nmade); }

static void node_hash(const Config *cfg, Pos *p, uint64_t *h1, uint64_t *h2) {
    (void)cfg;
    pos_hash(p, h1, h2);
}

static int node_won(const Config *cfg, const Pos *p) {
    (void)cfg;
    return won(p);
}

static int node_moves(const Config *cfg, Pos *p, Scored *out, Scratch *s) {
    (void)s;
    return gen_moves(cfg, p, out);
}

static PyObject *act_to_tuple(Act a) { return Py_BuildValue("(iiii)", a.a, a.b, 0, 0); }

#include "_native_dfs_loop.h"

/* CasketModel.score: cards left (the stock twice, as there), blockers, spaces as a
 * bonus, jewels still locked; weights in CASKET_WEIGHTS's order. */
static long long node_score(const Config *cfg, const Pos *p, const long long *w) {
    int height[4];
    for (int s = 0; s < 4; s++) height[s] = p->found[2 * s] > p->found[2 * s + 1] ? p->found[2 * s] : p->found[2 * s + 1];
    long long left = p->stock + p->jewels, blockers = 0, spaces = 0;
    for (int c = 0; c < NLID; c++)
        if (p->lid[c]) left++;
    for (int k = 0; k < NTAB + NWASTE + 1; k++) {
        const uint8_t *pile;
        int n;
        if (k < NTAB) {
            pile = p->tab[k];
            n = p->tn[k];
        } else if (k < NTAB + NWASTE) {
            pile = p->waste[k - NTAB];
            n = p->wn[k - NTAB];
        } else {
            pile = cfg->stock;
            n = p->stock;
        }
        if (!n) {
            spaces++;
            continue;
        }
        left += n;
        int most_urgent = 99;
        for (int i = 0; i < n; i++) {
            int need = (pile[i] >> 2) - height[pile[i] & 3];
            if (need > most_urgent)
                blockers++;
            else
                most_urgent = need;
        }
    }
    return w[0] * left + w[1] * blockers - w[2] * spaces + w[3] * p->jewels;
}

#include "_native_bfs_loop.h"

static int parse_config(PyObject *blob, Config *cfg) {
    char *raw;
    Py_ssize_t len;
    if (PyBytes_AsStringAndSize(blob, &raw, &len) < 0) return -1;
    const uint8_t *b = (const uint8_t *)raw;
    if (len < CFG_CARDS) goto bad;
    cfg->hard = b[0];
    cfg->nstock = b[1];
    cfg->njewels = b[2];
    if (cfg->nstock > MAX_STOCK || cfg->njewels > MAX_JEWELS || len != CFG_CARDS + cfg->nstock + cfg->njewels)
        goto bad;
    for (int c = 0; c < 64; c++) {
        cfg->need_both[c] = b[CFG_NEED + 2 * c];
        cfg->need_one[c] = b[CFG_NEED + 2 * c + 1];
    }
    memcpy(cfg->stock, b + CFG_CARDS, cfg->nstock);
    memcpy(cfg->jewels, b + CFG_CARDS + cfg->nstock, cfg->njewels);
    for (int k = 0; k < cfg->nstock + cfg->njewels; k++) {
        int c = b[CFG_CARDS + k];
        if ((c >> 2) < 1 || (c >> 2) > 13) goto bad;
    }
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "native config does not fit the Casket search");
    return -1;
}

static int is_card(int c) { return (c >> 2) >= 1 && (c >> 2) <= 13 && c < 64; }

static int parse_position(PyObject *obj, const Config *cfg, Pos *p) {
    PyObject *found, *tableau, *wastes, *lid;
    int stock, jewels;
    memset(p, 0, sizeof(*p));
    if (!PyArg_ParseTuple(obj, "SO!O!Sii", &found, &PyTuple_Type, &tableau, &PyTuple_Type, &wastes, &lid, &stock,
                          &jewels))
        return -1;
    if (PyBytes_GET_SIZE(found) != 8 || PyTuple_GET_SIZE(tableau) != NTAB || PyTuple_GET_SIZE(wastes) != NWASTE ||
        PyBytes_GET_SIZE(lid) != NLID || stock < 0 || stock > cfg->nstock || jewels < 0 || jewels > cfg->njewels)
        goto bad;
    memcpy(p->found, PyBytes_AS_STRING(found), 8);
    for (int k = 0; k < 8; k++)
        if (p->found[k] > 13) goto bad;
    for (int t = 0; t < NTAB; t++) {
        PyObject *pile = PyTuple_GET_ITEM(tableau, t);
        if (!PyBytes_Check(pile) || PyBytes_GET_SIZE(pile) > MAX_TAB) goto bad;
        p->tn[t] = (uint8_t)PyBytes_GET_SIZE(pile);
        memcpy(p->tab[t], PyBytes_AS_STRING(pile), p->tn[t]);
        for (int k = 0; k < p->tn[t]; k++)
            if (!is_card(p->tab[t][k])) goto bad;
    }
    for (int w = 0; w < NWASTE; w++) {
        PyObject *pile = PyTuple_GET_ITEM(wastes, w);
        if (!PyBytes_Check(pile) || PyBytes_GET_SIZE(pile) > MAX_WASTE) goto bad;
        p->wn[w] = (uint8_t)PyBytes_GET_SIZE(pile);
        memcpy(p->waste[w], PyBytes_AS_STRING(pile), p->wn[w]);
        for (int k = 0; k < p->wn[w]; k++)
            if (!is_card(p->waste[w][k])) goto bad;
    }
    memcpy(p->lid, PyBytes_AS_STRING(lid), NLID);
    for (int c = 0; c < NLID; c++)
        if (p->lid[c] && !is_card(p->lid[c])) goto bad;
    p->stock = (uint8_t)stock;
    p->jewels = (uint8_t)jewels;
    p->dirty = (1u << (NTAB + NWASTE)) - 1;
    return 0;
bad:
    PyErr_SetString(PyExc_ValueError, "position does not fit the native Casket search");
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
    PyModuleDef_HEAD_INIT, "_casket_search",
    "The depth-first search of solver_casket's model, in C (see the source).", -1, methods,
};

PyMODINIT_FUNC PyInit__casket_search(void) { return PyModule_Create(&module); }

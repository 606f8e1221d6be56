/* The best-first loop a C pass may share: ``_Search.best_first`` of solver.py, over a
 * game's model given as a few functions. It knows nothing of any game.
 *
 * A pass includes this file after ``_native_dfs_loop.h`` (whose hooks and types it
 * uses: ``Config``, ``Pos``, ``Act``, ``Scored``, ``Scratch``, ``node_play``,
 * ``node_settle``, ``node_hash``, ``node_won``, ``node_moves``, ``act_to_tuple``), and
 * after one more function of its own:
 *
 *   long long node_score(const Config *, const Pos *, const long long *weights)
 *
 * Included a second time with ``NATIVE_BFS_ENTRY`` defined, after the pass's
 * ``parse_config`` and ``parse_position``, it adds the Python entry point ``best_first``.
 *
 * It expands positions in the order the Python search does: the open position with the
 * lowest (score, order pushed) first; its moves in order, each child settled, skipped if
 * its key was seen, counted, tested for a win, and pushed otherwise; the clock read every
 * ``CLOCK_EVERY`` positions, when Python's signal handlers run too.
 *
 * Why it is cheap in memory: a queued position is kept as its parent and the one move
 * that led to it (8 bytes), not as a position. Settling is a function of the position,
 * so the position is rebuilt by playing the moves again from the nearest ancestor still
 * held on a stack of the last line rebuilt; best-first mostly opens a child of the
 * position it opened last, so that is usually one move. */
#ifndef SOLITAIRE_NATIVE_BFS_LOOP_H
#define SOLITAIRE_NATIVE_BFS_LOOP_H

#include "_native_python.h"

typedef struct {
    uint32_t parent;
    uint16_t depth;
    Act act;
} Link;

typedef struct {
    long long pri;
    uint32_t id;
} Entry;

static int entry_less(const Entry *a, const Entry *b) { return a->pri < b->pri || (a->pri == b->pri && a->id < b->id); }

static int heap_push(Vec *heap, Entry e) {
    if (vec_reserve(heap, heap->size + 1) < 0) return -1;
    Entry *h = (Entry *)heap->data;
    size_t i = heap->size++;
    while (i > 0) {
        size_t up = (i - 1) / 2;
        if (!entry_less(&e, &h[up])) break;
        h[i] = h[up];
        i = up;
    }
    h[i] = e;
    return 0;
}

static Entry heap_pop(Vec *heap) {
    Entry *h = (Entry *)heap->data;
    Entry top = h[0], last = h[--heap->size];
    size_t n = heap->size, i = 0;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && entry_less(&h[child + 1], &h[child])) child++;
        if (!entry_less(&h[child], &last)) break;
        h[i] = h[child];
        i = child;
    }
    if (n) h[i] = last;
    return top;
}

/* The last line rebuilt: line[d] is the position at depth d, ids[d] its id. */
typedef struct {
    Vec line, ids;
    size_t len;
} Rebuilt;

/* Rebuild position ``id`` into the line and return it; NULL when out of memory, or -1
 * from a move that no longer plays (an internal error). */
static Pos *rebuild(const Config *cfg, const Link *links, Rebuilt *r, uint32_t id, Vec *chain, int *bad) {
    chain->size = 0;
    uint32_t at = id;
    for (;;) {
        uint16_t d = links[at].depth;
        if (d < r->len && ((uint32_t *)r->ids.data)[d] == at) break;
        if (vec_reserve(chain, chain->size + 1) < 0) return NULL;
        ((uint32_t *)chain->data)[chain->size++] = at;
        at = links[at].parent;
    }
    for (size_t k = chain->size; k-- > 0;) {
        uint32_t node = ((uint32_t *)chain->data)[k];
        uint16_t d = links[node].depth;
        if (vec_reserve(&r->line, (size_t)d + 1) < 0 || vec_reserve(&r->ids, (size_t)d + 1) < 0) return NULL;
        Pos *line = (Pos *)r->line.data;
        line[d] = line[d - 1];
        Act made[MAX_AUTO];
        int nmade = 0;
        if (node_play(cfg, &line[d], links[node].act) < 0 || node_settle(cfg, &line[d], made, &nmade) < 0) {
            *bad = 1;
            return NULL;
        }
        ((uint32_t *)r->ids.data)[d] = node;
        r->len = (size_t)d + 1;
    }
    uint16_t d = links[id].depth;
    r->len = (size_t)d + 1;
    return (Pos *)r->line.data + d;
}

/* The actions from the root to ``id``: each move, then the automatic moves it brought
 * (settle again, from the root). A new list, or NULL with a Python error set. */
static PyObject *line_to(const Config *cfg, const Pos *root, const Link *links, uint32_t id) {
    size_t depth = links[id].depth;
    uint32_t *chain = malloc((depth + 1) * sizeof(uint32_t));
    if (!chain) return PyErr_NoMemory();
    uint32_t at = id;
    for (size_t k = depth; k > 0; k--) {
        chain[k] = at;
        at = links[at].parent;
    }
    PyObject *path = PyList_New(0);
    Pos p = *root;
    for (size_t k = 1; path && k <= depth; k++) {
        Act made[MAX_AUTO];
        int nmade = 0;
        Act step = links[chain[k]].act;
        if (node_play(cfg, &p, step) < 0 || node_settle(cfg, &p, made, &nmade) < 0) {
            PyErr_SetString(PyExc_RuntimeError, "native best-first: a line no longer plays");
            Py_CLEAR(path);
            break;
        }
        for (int j = -1; j < nmade; j++) {
            PyObject *item = act_to_tuple(j < 0 ? step : made[j]);
            if (!item || PyList_Append(path, item) < 0) {
                Py_XDECREF(item);
                Py_CLEAR(path);
                break;
            }
            Py_DECREF(item);
        }
    }
    free(chain);
    return path;
}

/* (status, nodes, line, best score, best line): status 0 solved, 1 unsolvable, 2
 * unknown; the line to the win (for a win), and to the best-scored position seen (the
 * root's score and an empty line if none beat it). NULL with a Python error set. */
static PyObject *run_best_first(const Config *cfg, Pos *root, long long limit, double deadline, PyObject *clock,
                                const long long *weights) {
    HashSet seen;
    Scratch scratch;
    Vec links = {NULL, 0, 0, sizeof(Link)};
    Vec heap = {NULL, 0, 0, sizeof(Entry)};
    Vec chain = {NULL, 0, 0, sizeof(uint32_t)};
    Rebuilt rebuilt = {{NULL, 0, 0, sizeof(Pos)}, {NULL, 0, 0, sizeof(uint32_t)}, 0};
    Scored generated[MAX_MOVES];
    Act automatic[MAX_AUTO];
    PyObject *result = NULL;
    int status = 1, bad = 0;
    long long nodes = 1;
    uint32_t best_id = 0, win_id = 0;
    if (scratch_init(&scratch) < 0) return PyErr_NoMemory();
    if (!set_init(&seen, 1 << 16)) {
        scratch_free(&scratch);
        return PyErr_NoMemory();
    }
    uint64_t h1, h2;
    node_hash(cfg, root, &h1, &h2);
    set_add(&seen, h1, h2);
    long long best_score = node_score(cfg, root, weights);
    if (vec_reserve(&links, 1) < 0 || vec_reserve(&rebuilt.line, 1) < 0 || vec_reserve(&rebuilt.ids, 1) < 0)
        goto nomem;
    ((Link *)links.data)[0] = (Link){0, 0, {0}};
    links.size = 1;
    ((Pos *)rebuilt.line.data)[0] = *root;
    ((uint32_t *)rebuilt.ids.data)[0] = 0;
    rebuilt.len = 1;
    if (heap_push(&heap, (Entry){best_score, 0}) < 0) goto nomem;

    while (heap.size) {
        Entry open = heap_pop(&heap);
        Pos *position = rebuild(cfg, (Link *)links.data, &rebuilt, open.id, &chain, &bad);
        if (!position) {
            if (bad) {
                PyErr_SetString(PyExc_RuntimeError, "native best-first: a queued position no longer plays");
                goto done;
            }
            goto nomem;
        }
        Pos parent = *position;
        uint16_t depth = ((Link *)links.data)[open.id].depth;
        if (depth == UINT16_MAX) {
            PyErr_SetString(PyExc_RuntimeError, "native best-first: a line is too long");
            goto done;
        }
        int count = node_moves(cfg, &parent, generated, &scratch);
        for (int m = 0; m < count; m++) {
            Act step = generated[m].act;
            Pos child = parent;
            if (node_play(cfg, &child, step) < 0) continue;
            int nauto = 0;
            if (node_settle(cfg, &child, automatic, &nauto) < 0) continue;
            node_hash(cfg, &child, &h1, &h2);
            int added = set_add(&seen, h1, h2);
            if (added < 0) goto nomem;
            if (!added) continue;
            nodes++;
            if (links.size >= UINT32_MAX) {
                PyErr_SetString(PyExc_MemoryError, "native best-first: too many positions");
                goto done;
            }
            if (vec_reserve(&links, links.size + 1) < 0) goto nomem;
            uint32_t id = (uint32_t)links.size++;
            ((Link *)links.data)[id] = (Link){open.id, (uint16_t)(depth + 1), step};
            if (node_won(cfg, &child)) {
                status = 0;
                win_id = id;
                goto answer;
            }
            int spent = budget_spent(nodes, limit, clock, deadline, CLOCK_EVERY);
            if (spent < 0) goto done;
            if (spent) {
                status = 2;
                goto answer;
            }
            long long score = node_score(cfg, &child, weights);
            if (score < best_score) {
                best_score = score;
                best_id = id;
            }
            if (heap_push(&heap, (Entry){score, id}) < 0) goto nomem;
        }
    }
    status = 1;
answer: {
    PyObject *line = status == 0 ? line_to(cfg, root, (Link *)links.data, win_id) : PyList_New(0);
    if (!line) goto done;
    PyObject *best = status == 0 ? PyList_New(0) : line_to(cfg, root, (Link *)links.data, best_id);
    if (!best) {
        Py_DECREF(line);
        goto done;
    }
    result = Py_BuildValue("(iLNLN)", status, nodes, line, best_score, best);
    goto done;
}
nomem:
    PyErr_NoMemory();
done:
    scratch_free(&scratch);
    free(seen.slots);
    free(links.data);
    free(heap.data);
    free(chain.data);
    free(rebuilt.line.data);
    free(rebuilt.ids.data);
    return result;
}

#endif

#if defined(NATIVE_BFS_ENTRY) && !defined(SOLITAIRE_NATIVE_BFS_ENTRY_H)
#define SOLITAIRE_NATIVE_BFS_ENTRY_H
#define MAX_WEIGHTS 8
/* best_first(config, root, max_nodes, deadline, clock, weights) -> (status, nodes, line,
 * best_score, best_line): the entry from Python. ``weights`` is a tuple of the model's
 * score weights (at most MAX_WEIGHTS integers), handed to ``node_score``. */
static PyObject *best_first(PyObject *self, PyObject *args) {
    PyObject *blob, *root_obj, *limit_obj, *clock, *weights_obj;
    double deadline;
    (void)self;
    if (!PyArg_ParseTuple(args, "SOOdOO!", &blob, &root_obj, &limit_obj, &deadline, &clock, &PyTuple_Type,
                          &weights_obj))
        return NULL;
    Config cfg;
    if (parse_config(blob, &cfg) < 0) return NULL;
    Pos root;
    if (parse_position(root_obj, &cfg, &root) < 0) return NULL;
    long long limit;
    if (read_limit_and_clock(limit_obj, clock, &limit) < 0) return NULL;
    long long weights[MAX_WEIGHTS] = {0};
    Py_ssize_t nweights = PyTuple_GET_SIZE(weights_obj);
    if (nweights > MAX_WEIGHTS) {
        PyErr_SetString(PyExc_ValueError, "too many score weights");
        return NULL;
    }
    for (Py_ssize_t k = 0; k < nweights; k++) {
        weights[k] = PyLong_AsLongLong(PyTuple_GET_ITEM(weights_obj, k));
        if (weights[k] == -1 && PyErr_Occurred()) return NULL;
    }
    return run_best_first(&cfg, &root, limit, deadline, clock, weights);
}

#endif

/* The depth-first loop the C passes share: ``_Search.depth_first`` of solver.py, over
 * a game's model given as a few functions. It knows nothing of any game.
 *
 * A pass includes this file after defining its ``Config``, ``Pos``, ``Act`` and
 * ``Scored`` (with a member ``act``) types, ``MAX_MOVES``, ``MAX_AUTO`` and
 * ``CLOCK_EVERY``, a ``Scratch`` type for whatever its move generation keeps between
 * positions, and these functions:
 *
 *   int scratch_init(Scratch *), void scratch_free(Scratch *)
 *   int node_play(const Config *, Pos *, Act)                0, or -1: skip the move
 *   int node_settle(const Config *, Pos *, Act *, int *)     0, or -1: skip the move
 *   void node_hash(const Config *, Pos *, uint64_t *, uint64_t *)   the canonical key's hash
 *   int node_won(const Config *, const Pos *)
 *   int node_moves(const Config *, Pos *, Scored *, Scratch *)      best first
 *   PyObject *act_to_tuple(Act)                              the model's action tuple
 *
 * Included a second time with ``NATIVE_DFS_ENTRY`` defined, after the pass's
 * ``parse_config(PyObject *, Config *)`` and ``parse_position(PyObject *, const Config *,
 * Pos *)``, it adds the Python entry point ``depth_first``.
 *
 * It visits positions in the order the Python search does: the moves of the position on
 * top of the stack in order, each child settled, skipped if its key was seen, and
 * counted, tested for a win, and pushed otherwise; the clock is read every
 * ``CLOCK_EVERY`` positions, and Python's signal handlers run there too. */
#ifndef SOLITAIRE_NATIVE_DFS_LOOP_H
#define SOLITAIRE_NATIVE_DFS_LOOP_H

#include "_native_python.h"

typedef struct {
    Pos pos;
    int mstart, mcount, cursor;
    int astart, acount; /* the actions that led here: the step, then automatic moves */
} Frame;

/* (status, nodes, actions): status 0 solved, 1 unsolvable, 2 unknown; the actions
 * after the root, for a win only. NULL with a Python error set. */
static PyObject *run_depth_first(const Config *cfg, Pos *root, long long limit, double deadline, PyObject *clock) {
    HashSet seen;
    Scratch scratch;
    Vec frames = {NULL, 0, 0, sizeof(Frame)};
    Vec moves = {NULL, 0, 0, sizeof(Scored)};
    Vec acts = {NULL, 0, 0, sizeof(Act)};
    Scored generated[MAX_MOVES];
    Act automatic[MAX_AUTO];
    PyObject *result = NULL;
    int status = 1;
    long long nodes = 1;
    if (scratch_init(&scratch) < 0) return PyErr_NoMemory();
    if (!set_init(&seen, 1 << 16)) {
        scratch_free(&scratch);
        return PyErr_NoMemory();
    }
    uint64_t h1, h2;
    node_hash(cfg, root, &h1, &h2);
    set_add(&seen, h1, h2);

    int nm = node_moves(cfg, root, generated, &scratch);
    if (vec_reserve(&frames, 1) < 0 || vec_reserve(&moves, nm + 1) < 0) goto nomem;
    memcpy(moves.data, generated, nm * sizeof(Scored));
    moves.size = nm;
    Frame *f0 = (Frame *)frames.data;
    f0->pos = *root;
    f0->mstart = 0;
    f0->mcount = nm;
    f0->cursor = 0;
    f0->astart = 0;
    f0->acount = 0;
    frames.size = 1;

    while (frames.size) {
        Frame *top = (Frame *)frames.data + frames.size - 1;
        if (top->cursor >= top->mcount) {
            moves.size = top->mstart;
            acts.size = top->astart;
            frames.size--;
            continue;
        }
        Act step = ((Scored *)moves.data)[top->mstart + top->cursor].act;
        top->cursor++;
        Pos child = top->pos;
        if (node_play(cfg, &child, step) < 0) continue;
        int nauto = 0;
        if (node_settle(cfg, &child, automatic, &nauto) < 0) continue;
        node_hash(cfg, &child, &h1, &h2);
        int added = set_add(&seen, h1, h2);
        if (added < 0) goto nomem;
        if (!added) continue;
        nodes++;
        if (node_won(cfg, &child)) {
            status = 0;
            Act *all = (Act *)acts.data;
            PyObject *path = PyList_New(0);
            if (!path) goto done;
            for (size_t k = 0; k <= acts.size + nauto; k++) {
                Act a;
                if (k < acts.size)
                    a = all[k];
                else if (k == acts.size)
                    a = step;
                else
                    a = automatic[k - acts.size - 1];
                PyObject *item = act_to_tuple(a);
                if (!item || PyList_Append(path, item) < 0) {
                    Py_XDECREF(item);
                    Py_DECREF(path);
                    goto done;
                }
                Py_DECREF(item);
            }
            result = Py_BuildValue("(iLN)", status, nodes, path);
            goto done;
        }
        int spent = budget_spent(nodes, limit, clock, deadline, CLOCK_EVERY);
        if (spent < 0) goto done;
        if (spent) {
            status = 2;
            result = Py_BuildValue("(iL[])", status, nodes);
            goto done;
        }
        int count = node_moves(cfg, &child, generated, &scratch);
        if (vec_reserve(&frames, frames.size + 1) < 0 || vec_reserve(&moves, moves.size + count) < 0 ||
            vec_reserve(&acts, acts.size + 1 + nauto) < 0)
            goto nomem;
        Frame *f = (Frame *)frames.data + frames.size;
        f->pos = child;
        f->mstart = (int)moves.size;
        f->mcount = count;
        f->cursor = 0;
        memcpy((Scored *)moves.data + moves.size, generated, count * sizeof(Scored));
        moves.size += count;
        f->astart = (int)acts.size;
        f->acount = 1 + nauto;
        ((Act *)acts.data)[acts.size++] = step;
        for (int k = 0; k < nauto; k++) ((Act *)acts.data)[acts.size++] = automatic[k];
        frames.size++;
    }
    status = 1;
    result = Py_BuildValue("(iL[])", status, nodes);
    goto done;
nomem:
    PyErr_NoMemory();
done:
    scratch_free(&scratch);
    free(seen.slots);
    free(frames.data);
    free(moves.data);
    free(acts.data);
    return result;
}

#endif

#if defined(NATIVE_DFS_ENTRY) && !defined(SOLITAIRE_NATIVE_DFS_ENTRY_H)
#define SOLITAIRE_NATIVE_DFS_ENTRY_H
/* depth_first(config, root, max_nodes, deadline, clock) -> (status, nodes, actions):
 * the pass's entry from Python. ``config`` is the model's bytes (``parse_config``),
 * ``root`` its position tuple (``parse_position``; both refuse what does not fit with
 * ValueError), ``max_nodes`` None or a count, ``deadline`` a reading of ``clock``. */
static PyObject *depth_first(PyObject *self, PyObject *args) {
    PyObject *blob, *root_obj, *limit_obj, *clock;
    double deadline;
    (void)self;
    if (!PyArg_ParseTuple(args, "SOOdO", &blob, &root_obj, &limit_obj, &deadline, &clock)) return NULL;
    Config cfg;
    if (parse_config(blob, &cfg) < 0) return NULL;
    Pos root;
    if (parse_position(root_obj, &cfg, &root) < 0) return NULL;
    long long limit;
    if (read_limit_and_clock(limit_obj, clock, &limit) < 0) return NULL;
    return run_depth_first(&cfg, &root, limit, deadline, clock);
}

#endif

/* What the C search loops share with Python (``_native_dfs_loop.h``,
 * ``_native_bfs_loop.h``): reading the caller's clock, giving Python's signal handlers
 * their turn, and reading an entry point's node budget and clock. It knows nothing of
 * any game or search. */
#ifndef SOLITAIRE_NATIVE_PYTHON_H
#define SOLITAIRE_NATIVE_PYTHON_H

/* 1: ``clock`` reads past ``deadline``; 0: not yet; -1: a Python error is set (a signal
 * handler raised, or the clock failed). Python's signal handlers (Ctrl-C; the worker
 * pool's CPU limit, which raises TaskTimeout) run only when asked from a long C loop. */
static int clock_says_stop(PyObject *clock, double deadline) {
    if (PyErr_CheckSignals() < 0) return -1;
    PyObject *now = PyObject_CallNoArgs(clock);
    if (!now) return -1;
    double t = PyFloat_AsDouble(now);
    Py_DECREF(now);
    if (t == -1.0 && PyErr_Occurred()) return -1;
    return t > deadline;
}

/* Whether a search must stop after counting its ``nodes``-th position: 1 when the
 * budget ``limit`` (-1: none) is spent, or ``clock``, read every ``every`` positions,
 * is past ``deadline``; 0 to go on; -1 with a Python error set. */
static int budget_spent(long long nodes, long long limit, PyObject *clock, double deadline, long long every) {
    if (nodes % every == 0) {
        int late = clock_says_stop(clock, deadline);
        if (late) return late;
    }
    return limit >= 0 && nodes >= limit;
}

/* An entry point's ``max_nodes`` (None: -1, no limit) and ``clock`` (must be callable).
 * 0, or -1 with a Python error set. */
static int read_limit_and_clock(PyObject *limit_obj, PyObject *clock, long long *limit) {
    *limit = -1;
    if (limit_obj != Py_None) {
        *limit = PyLong_AsLongLong(limit_obj);
        if (*limit == -1 && PyErr_Occurred()) return -1;
    }
    if (!PyCallable_Check(clock)) {
        PyErr_SetString(PyExc_TypeError, "clock must be callable");
        return -1;
    }
    return 0;
}

#endif

"""A bounded pool of worker processes for CPU work: hints, solver searches, verdicts, replays.

Such work must never run on the event loop (every socket of the process would wait) nor
on Django's one shared sync thread (every sync view would wait), and one player must not
be able to take every core. So it runs here:

- in a few worker **processes** (``WORKER_PROCESSES``), started once and reused, at a
  lower scheduling priority than the web process, so a bystander's request still gets
  the CPU first;
- each job under a **CPU time limit** (``RLIMIT_CPU`` in the worker: the job is stopped
  with :class:`TaskTimeout` and the worker lives on), with a wall-clock backstop that
  replaces a worker that stops answering;
- behind a **bounded queue** (``WORKER_QUEUE`` waiting jobs): one more is refused at
  once with :class:`Busy`, which the API answers as 503 ``busy`` with ``Retry-After``.

Jobs are a picklable, module-level function and picklable arguments (``advise`` with a
view and the player's memory, a solver call on a deal's seed ...). Callers on the event loop use
``await run(fn, *args)``; sync code (a thread of its own, never the shared sync thread
if it can be helped) uses ``run_sync(fn, *args)``. Both wait on the parent's side in a
small helper thread per worker, so neither the loop nor the caller's thread does the work.

Workers never set Django up: a job must live in a module that imports no models (the
engine, games.solo.winnable), and gets what it needs from the database as arguments.
This module imports nothing of Django at import time, so a worker can load it.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import logging
import math
import multiprocessing
import os
import queue
import resource
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Any, TypeVar

from solitaire.hints import DEFAULT_BUDGET

if TYPE_CHECKING:
    import solitaire

T = TypeVar("T")

logger = logging.getLogger(__name__)

# A job's CPU seconds unless the caller says otherwise: more than any hint or budgeted
# search needs, little enough that a runaway job cannot hold a worker for long.
DEFAULT_CPU_SECONDS = 10.0
# The backstop: a worker that has not answered within this multiple of the job's CPU
# limit (plus the grace below) in wall-clock time is killed and replaced. Generous,
# because niced workers on a busy machine get less than a core.
WALL_FACTOR = 6.0
WALL_GRACE_SECONDS = 10.0
# How much lower than the web process the workers run (os.nice increment).
WORKER_NICE = 10
# Seconds a refused caller is told to wait before trying again.
RETRY_AFTER_SECONDS = 2


class WorkerError(Exception):
    """Base of the pool's own refusals; ``code``, ``status`` and ``retry_after`` are for
    the API's answer."""

    code = "busy"
    status = 503
    retry_after = RETRY_AFTER_SECONDS


class Busy(WorkerError):
    """Every worker is busy and the queue is full: try again in ``retry_after`` seconds."""


class TaskTimeout(WorkerError):
    """The job used up its CPU time (or its worker stopped answering) and was stopped."""


class WorkerCrashed(WorkerError):
    """The worker process died during the job (killed, out of memory ...); it was replaced."""


class RemoteError(Exception):
    """A job raised an exception that could not be sent back as itself; its text is kept."""


# ---------------------------------------------------------------- inside a worker process


class _CpuLimit(BaseException):
    """Raised inside a worker by SIGXCPU while a job is armed. A BaseException, so a job's
    own ``except Exception`` does not swallow it."""


_armed = False


def _on_cpu_limit(signum: int, frame: object) -> None:
    if _armed:
        raise _CpuLimit()


def _arm(cpu_seconds: float) -> None:
    """Let this job use ``cpu_seconds`` more CPU (whole seconds, rounded up): the kernel
    sends SIGXCPU at the soft limit. The hard limit is left alone, so it can be raised
    again for the next job by an unprivileged process too."""
    global _armed
    usage = resource.getrusage(resource.RUSAGE_SELF)
    used = usage.ru_utime + usage.ru_stime
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    soft = math.ceil(used + cpu_seconds)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))
    _armed = True


def _disarm() -> None:
    global _armed
    _armed = False
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    resource.setrlimit(resource.RLIMIT_CPU, (hard, hard))


def _worker_main(connection: Connection, nice: int) -> None:
    """A worker's life: receive ``(fn, args, kwargs, cpu_seconds)``, answer
    ``("ok", result)``, ``("error", exception)`` or ``("cpu", None)``, until told to stop."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent decides when workers stop
    signal.signal(signal.SIGXCPU, _on_cpu_limit)
    if nice:
        os.nice(nice)
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            return
        except Exception as error:  # the job could not be unpickled here
            connection.send(("error", RemoteError(f"the job could not be loaded: {error!r}")))
            continue
        if job is None:
            return
        fn, args, kwargs, cpu_seconds = job
        answer: tuple[str, Any]
        try:
            _arm(cpu_seconds)
            try:
                answer = ("ok", fn(*args, **kwargs))
            finally:
                _disarm()
        except _CpuLimit:
            answer = ("cpu", None)
        except Exception as error:
            answer = ("error", error)
        try:
            connection.send(answer)
        except Exception as error:  # the result or the exception does not pickle
            connection.send(("error", RemoteError(f"{type(error).__name__}: {error}")))


# ---------------------------------------------------------------- the parent's side


@dataclass(slots=True)
class _Job:
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    cpu_seconds: float
    future: concurrent.futures.Future[Any] = field(default_factory=concurrent.futures.Future)


class _Worker:
    """One worker process and the parent's end of its pipe; replaced when it dies."""

    def __init__(self, context: Any, nice: int) -> None:
        self._context = context
        self._nice = nice
        self.process: Any = None
        self.connection: Connection | None = None

    def ensure_running(self) -> None:
        if self.process is not None and self.process.is_alive() and self.connection is not None:
            return
        self.stop()
        parent_end, child_end = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=_worker_main, args=(child_end, self._nice), name="patience-worker", daemon=True
        )
        process.start()
        child_end.close()
        self.process, self.connection = process, parent_end

    def run(self, job: _Job) -> Any:
        """Send ``job`` to the process and wait for its answer (the caller is a helper
        thread of the pool). Raises what the job raised, or one of the pool's errors."""
        self.ensure_running()
        assert self.connection is not None
        # A job that does not pickle fails here, in the parent, and leaves the worker be.
        self.connection.send((job.fn, job.args, job.kwargs, job.cpu_seconds))
        wall = job.cpu_seconds * WALL_FACTOR + WALL_GRACE_SECONDS
        try:
            ready = self.connection.poll(wall)
            if not ready:
                self.kill()
                raise TaskTimeout("the work took too long and was stopped")
            status, value = self.connection.recv()
        except (EOFError, OSError, ConnectionError):
            self.kill()
            raise WorkerCrashed("the worker stopped during the work; try again") from None
        if status == "ok":
            return value
        if status == "cpu":
            raise TaskTimeout("the work used up its CPU time and was stopped")
        raise value

    def kill(self) -> None:
        if self.process is not None and self.process.is_alive():
            self.process.kill()
            self.process.join(5)
        self.stop()

    def stop(self) -> None:
        """Ask the process to finish (if it is still there) and forget it."""
        if self.connection is not None:
            try:
                if self.process is not None and self.process.is_alive():
                    self.connection.send(None)
            except (OSError, ValueError):
                pass
            self.connection.close()
        if self.process is not None:
            self.process.join(2)
            if self.process.is_alive():
                self.process.kill()
                self.process.join(2)
        self.process, self.connection = None, None

    @property
    def pid(self) -> int | None:
        return None if self.process is None else int(self.process.pid)


class WorkerPool:
    """``processes`` worker processes behind a queue of at most ``queue_size`` waiting jobs.

    Processes start on first use. ``start_method`` "forkserver" (the default) forks
    workers from a small clean server process, never from the threaded web process;
    ``preload`` modules are imported there once, so a replaced worker starts quickly.
    """

    def __init__(
        self,
        processes: int = 2,
        queue_size: int = 8,
        *,
        cpu_seconds: float = DEFAULT_CPU_SECONDS,
        nice: int = WORKER_NICE,
        start_method: str = "forkserver",
        preload: tuple[str, ...] = ("solitaire",),
    ) -> None:
        if processes < 1 or queue_size < 1:
            raise ValueError("a pool needs at least one process and room for at least one waiting job")
        self.processes = processes
        self.queue_size = queue_size
        self.cpu_seconds = cpu_seconds
        self._nice = nice
        self._start_method = start_method
        self._preload = preload
        # Waiting jobs; a slot's helper thread takes one as soon as its worker is free.
        self._jobs: queue.Queue[_Job | None] = queue.Queue(maxsize=queue_size)
        self._workers: list[_Worker] = []
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._closed = False

    # -- life

    def start(self) -> None:
        with self._lock:
            if self._closed:
                raise RuntimeError("the worker pool is shut down")
            if self._threads:
                return
            context = multiprocessing.get_context(self._start_method)
            if self._start_method == "forkserver" and self._preload:
                context.set_forkserver_preload(list(self._preload))
            for number in range(self.processes):
                worker = _Worker(context, self._nice)
                thread = threading.Thread(
                    target=self._serve, args=(worker,), name=f"patience-worker-{number}", daemon=True
                )
                self._workers.append(worker)
                self._threads.append(thread)
            for thread in self._threads:
                thread.start()

    def shutdown(self) -> None:
        """Stop taking jobs, fail the waiting ones with Busy, and stop the processes."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        while True:
            try:
                job = self._jobs.get_nowait()
            except queue.Empty:
                break
            if job is not None and job.future.set_running_or_notify_cancel():
                job.future.set_exception(Busy("the server is shutting down"))
        for _ in self._threads:
            self._jobs.put(None)
        for thread in self._threads:
            thread.join(10)

    @property
    def pids(self) -> list[int | None]:
        """The worker processes' ids (None for one not started yet), for tests and health."""
        return [worker.pid for worker in self._workers]

    # -- jobs

    def submit(
        self, fn: Callable[..., T], *args: Any, cpu_seconds: float | None = None, **kwargs: Any
    ) -> concurrent.futures.Future[T]:
        """Queue ``fn(*args, **kwargs)``; its future. Raises :class:`Busy` at once when the
        queue is full."""
        if self._closed:
            raise Busy("the server is shutting down")
        self.start()
        job = _Job(fn, args, kwargs, self.cpu_seconds if cpu_seconds is None else cpu_seconds)
        try:
            self._jobs.put_nowait(job)
        except queue.Full:
            raise Busy("every worker is busy and the queue is full; try again shortly") from None
        return job.future

    async def run(
        self, fn: Callable[..., T], *args: Any, cpu_seconds: float | None = None, **kwargs: Any
    ) -> T:
        """``fn(*args, **kwargs)`` in a worker process, awaited without blocking the loop.
        Cancelling the await drops the job if it has not started."""
        future = self.submit(fn, *args, cpu_seconds=cpu_seconds, **kwargs)
        try:
            return await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            future.cancel()
            raise

    def run_sync(
        self, fn: Callable[..., T], *args: Any, cpu_seconds: float | None = None, **kwargs: Any
    ) -> T:
        """``fn(*args, **kwargs)`` in a worker process; this thread waits for it."""
        return self.submit(fn, *args, cpu_seconds=cpu_seconds, **kwargs).result()

    def _serve(self, worker: _Worker) -> None:
        """A helper thread: hand waiting jobs to ``worker`` one at a time."""
        try:
            while True:
                job = self._jobs.get()
                if job is None:
                    return
                if not job.future.set_running_or_notify_cancel():
                    continue  # cancelled while it waited
                try:
                    job.future.set_result(worker.run(job))
                except BaseException as error:
                    job.future.set_exception(error)
        finally:
            worker.stop()


# ---------------------------------------------------------------- the site's pool

_pool: WorkerPool | None = None
_pool_lock = threading.Lock()


def default_pool() -> WorkerPool:
    """The process's pool, sized by the settings WORKER_PROCESSES and WORKER_QUEUE."""
    global _pool
    with _pool_lock:
        if _pool is None:
            from django.conf import settings

            _pool = WorkerPool(getattr(settings, "WORKER_PROCESSES", 2), getattr(settings, "WORKER_QUEUE", 8))
            atexit.register(_pool.shutdown)
        return _pool


def set_default_pool(pool: WorkerPool | None) -> WorkerPool | None:
    """Replace the process's pool (tests); returns the one it replaces, not shut down."""
    global _pool
    with _pool_lock:
        previous, _pool = _pool, pool
        return previous


async def run(fn: Callable[..., T], *args: Any, cpu_seconds: float | None = None, **kwargs: Any) -> T:
    """Await ``fn(*args, **kwargs)`` in the site's worker pool, under ``cpu_seconds`` of CPU.

    :raises Busy: at once, when the pool's queue is full.
    :raises TaskTimeout: when the job used up its CPU time.
    """
    return await default_pool().run(fn, *args, cpu_seconds=cpu_seconds, **kwargs)


def run_sync(fn: Callable[..., T], *args: Any, cpu_seconds: float | None = None, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` in the site's worker pool; the calling thread waits. Call
    it from a thread of its own (``sync_to_async(..., thread_sensitive=False)``), never
    from Django's shared sync thread, which would wait with it."""
    return default_pool().run_sync(fn, *args, cpu_seconds=cpu_seconds, **kwargs)


# ---------------------------------------------------------------- jobs: engine work on plain data

# CPU seconds for one hint, for replaying one line of moves into views, and for one
# exact ending check (the slowest seen in a random-play corpus took 0.4 s).
HINT_CPU_SECONDS = 5.0
REPLAY_CPU_SECONDS = 10.0
ENDING_CPU_SECONDS = 10.0


# The hint's search budget (roughly CPU seconds, spent as a node count): the engine's
# default, well inside HINT_CPU_SECONDS, which also pays for building the samples.
HINT_BUDGET = DEFAULT_BUDGET


def advise(
    view: dict[str, Any],
    memory: dict[str, Any] | None = None,
    seen: tuple[str, ...] = (),
    budget: float = HINT_BUDGET,
) -> dict[str, Any]:
    """``solitaire.hints.advise`` as a job: the player's view, what the player remembers
    (``Memory.to_dict()``: only cards the player saw) and the position keys of the game's
    earlier positions; never the hidden state. The answer is plain data:
    ``{"move": move or None, "lost": bool, "reason": str}``."""
    from solitaire import hints
    from solitaire.memory import Memory

    remembered = None if memory is None else Memory.from_dict(memory)
    advice = hints.advise(view, remembered, seen=seen, budget=budget)
    return {"move": advice.move, "lost": bool(advice.lost), "reason": advice.reason}


def is_over(state: solitaire.State) -> bool:
    """``state.is_over`` as a job: the exact ending check (``solitaire.State``, which
    pickles small). It searches only where ``quick_over`` cannot decide."""
    return bool(state.is_over)


def line_views(
    game: str,
    options: dict[str, Any],
    moves: list[dict[str, Any]],
    *,
    seed: int | None = None,
    position: Any = None,
    player: int | None = None,
    keep: tuple[str, ...] | None = None,
    drop_moves: bool = False,
    must_win: bool = False,
) -> list[dict[str, Any]] | None:
    """Replay ``moves`` from a deal (``seed``) or a saved ``position`` and return the view
    (``state.view(player)``) before the first move and after each one.

    ``keep`` keeps only those keys of each view; ``drop_moves`` empties its list of legal
    moves. None when a move is illegal, or when ``must_win`` and the line does not win.
    Only the engine's views leave: face-down cards stay face down as they lay.
    """
    import solitaire

    if position is not None:
        state = solitaire.load(game, position, **options)
    elif seed is not None:
        state = solitaire.new_game(game, seed=seed, **options)
    else:
        raise ValueError("a line starts from a seed or a position")

    def shown(view: dict[str, Any]) -> dict[str, Any]:
        if keep is not None:
            view = {key: view[key] for key in keep if key in view}
        elif drop_moves:
            view = {**view, "moves": []}
        return view

    views = [shown(state.view(player))]
    try:
        for move in moves:
            state = state.apply(solitaire.Move.from_dict(move))
            views.append(shown(state.view(player)))
    except ValueError:  # IllegalMove is a ValueError too
        return None
    if must_win and not state.is_won:
        return None
    return views

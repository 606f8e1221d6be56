"""The bounded worker pool (games.core.workers), with real worker processes.

No test measures time: each proves a property by what happened (which process ran the
job, which refusal came back, whether a worker survived)."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import worker_jobs

from games.core.workers import Busy, RemoteError, TaskTimeout, WorkerCrashed, WorkerPool


@pytest.fixture
def pool() -> Iterator[WorkerPool]:
    pool = WorkerPool(processes=1, queue_size=1, cpu_seconds=5)
    yield pool
    pool.shutdown()


def test_a_job_runs_in_another_process_and_its_answer_comes_back(pool: WorkerPool) -> None:
    assert pool.run_sync(worker_jobs.add, 2, 3) == 5
    worker = pool.run_sync(worker_jobs.pid)
    assert worker != os.getpid()
    # The worker is kept for the next job.
    assert pool.run_sync(worker_jobs.pid) == worker == pool.pids[0]


def test_a_jobs_exception_comes_back_as_itself(pool: WorkerPool) -> None:
    with pytest.raises(ValueError, match="no such card"):
        pool.run_sync(worker_jobs.fail, "no such card")
    with pytest.raises(RemoteError, match="pickle"):
        pool.run_sync(worker_jobs.unpicklable_result)
    assert pool.run_sync(worker_jobs.add, 1, 1) == 2


async def test_awaiting_a_job_leaves_the_event_loop_free(pool: WorkerPool, tmp_path: Path) -> None:
    """The job waits for a file that only a coroutine on this loop creates: had the job
    run on the loop (or blocked it), it would never finish."""
    flag = tmp_path / "flag"

    async def make_flag() -> None:
        await asyncio.sleep(0)
        flag.touch()

    job = asyncio.ensure_future(pool.run(worker_jobs.wait_for, str(flag), "seen"))
    await make_flag()
    assert await asyncio.wait_for(job, 60) == "seen"


def test_a_runaway_job_is_stopped_by_its_cpu_limit_and_the_worker_lives_on(pool: WorkerPool) -> None:
    worker = pool.run_sync(worker_jobs.pid)
    with pytest.raises(TaskTimeout):
        pool.run_sync(worker_jobs.spin, cpu_seconds=1)
    # Not even a job that catches Exception can keep going.
    with pytest.raises(TaskTimeout):
        pool.run_sync(worker_jobs.swallow_and_spin, cpu_seconds=1)
    assert pool.run_sync(worker_jobs.pid) == worker
    assert pool.run_sync(worker_jobs.add, 20, 22) == 42


def test_a_worker_that_dies_is_replaced(pool: WorkerPool) -> None:
    first = pool.run_sync(worker_jobs.pid)
    with pytest.raises(WorkerCrashed):
        pool.run_sync(worker_jobs.die)
    second = pool.run_sync(worker_jobs.pid)
    assert second != first


def test_a_full_pool_refuses_at_once_with_busy(pool: WorkerPool, tmp_path: Path) -> None:
    """One worker and one queue place: the third job is refused; the first two still run."""
    flag = tmp_path / "flag"
    running = pool.submit(worker_jobs.wait_for, str(flag), "first")
    # Wait until the worker has taken the first job, so the queue's one place is free.
    while not running.running():
        threading.Event().wait(0.01)
    waiting = pool.submit(worker_jobs.add, 1, 2)
    with pytest.raises(Busy) as refused:
        pool.submit(worker_jobs.add, 3, 4)
    assert refused.value.code == "busy" and refused.value.status == 503 and refused.value.retry_after >= 1
    flag.touch()
    assert running.result(60) == "first"
    assert waiting.result(60) == 3
    assert pool.run_sync(worker_jobs.add, 3, 4) == 7


async def test_a_cancelled_wait_drops_a_job_that_had_not_started(pool: WorkerPool, tmp_path: Path) -> None:
    flag, second_flag = tmp_path / "flag", tmp_path / "never"
    running = pool.submit(worker_jobs.wait_for, str(flag))
    while not running.running():
        await asyncio.sleep(0.01)
    queued = asyncio.ensure_future(pool.run(worker_jobs.wait_for, str(second_flag)))
    await asyncio.sleep(0)
    queued.cancel()
    with pytest.raises(asyncio.CancelledError):
        await queued
    flag.touch()
    assert running.result(60) == "done"
    # The cancelled job never ran: had it, this job would wait behind it for good.
    assert await asyncio.wait_for(pool.run(worker_jobs.add, 5, 5), 60) == 10


def test_run_sync_from_many_threads_shares_the_pool() -> None:
    pool = WorkerPool(processes=2, queue_size=8, cpu_seconds=5)
    try:
        answers: list[int] = []

        def call(n: int) -> None:
            answers.append(pool.run_sync(worker_jobs.add, n, 1))

        threads = [threading.Thread(target=call, args=(n,)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert sorted(answers) == [1, 2, 3, 4, 5, 6]
        assert len({pid for pid in pool.pids if pid is not None}) == 2
    finally:
        pool.shutdown()


def test_a_shut_down_pool_refuses_new_jobs(pool: WorkerPool) -> None:
    assert pool.run_sync(worker_jobs.add, 1, 2) == 3
    pool.shutdown()
    with pytest.raises(Busy):
        pool.submit(worker_jobs.add, 1, 2)

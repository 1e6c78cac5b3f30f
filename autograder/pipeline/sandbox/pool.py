"""Warm sandboxes: one zygote process per worker, each with its own sandbox user, fed one job at a time.

A :class:`Worker` is the grader's handle on one zygote process (:mod:`autograder.pipeline.sandbox.zygote`,
which runs as root and forks the sandboxes).
"""

from __future__ import annotations

import dataclasses
import json
import os
import queue
import select
import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from autograder.pipeline.sandbox import wire
from autograder.pipeline.sandbox.confine import Limits, is_root
from autograder.pipeline.sandbox.prefix import HOLDER_FAILED

READY_SECONDS = 180.0


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot run here (it needs Linux and root to create users and namespaces)."""


class Worker:
    """The grader's handle on one ``python -m autograder.pipeline.sandbox.zygote`` process (it claims a
    sandbox user of its own)."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.process = subprocess.Popen(
            [sys.executable, "-m", "autograder.pipeline.sandbox.zygote"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd="/",
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, start_new_session=True,
        )
        hello = self._read(READY_SECONDS)
        ready = None if hello is None else wire.Ready.from_line(hello)
        if ready is None or not ready.ready:
            self.close()
            raise SandboxUnavailable(f"sandbox worker {index} did not start")
        self.uid = ready.uid

    def _read(self, seconds: float) -> bytes | None:
        deadline = time.monotonic() + seconds
        out = self.process.stdout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([out], [], [], min(1.0, max(0.0, deadline - time.monotonic())))
            if ready:
                return out.readline() or None
            if self.process.poll() is not None:
                return None
        return None

    def run(self, job: wire.Job, pieces: dict[str, str]) -> wire.JobResult | None:
        """Send the job, then the pieces of grader code its trials run on; the zygote's answer, or
        None when the zygote failed."""
        fd = self.process.stdin.fileno()
        wire.write_frame(fd, job.to_line())
        wire.write_frame(fd, json.dumps(pieces))
        answer = self._read(job.wait)
        return None if answer is None else wire.JobResult.from_line(answer)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=30)


@dataclass(frozen=True)
class Task:
    """One job to run: its plan, the pieces of grader code its trials run on, the chapter's prefix
    and its limits (the pool's when None)."""

    plan: wire.Plan
    pieces: dict[str, str] = field(default_factory=dict)
    prefix: wire.Prefix | None = None
    limits: Limits | None = None


class Pool:
    """``workers`` zygotes; :meth:`submit` runs a plan in the next free one and returns a future."""

    def __init__(self, workers: int, limits: Limits) -> None:
        if not is_root() or not sys.platform.startswith("linux"):
            raise SandboxUnavailable("the grading sandbox needs Linux and root (to create its users and namespaces)")
        self.limits = limits
        self.idle: queue.Queue[Worker] = queue.Queue()
        with ThreadPoolExecutor(workers) as starter:
            for worker in starter.map(Worker, range(workers)):
                self.idle.put(worker)
        self.executor = ThreadPoolExecutor(workers)
        self.count = 0

    def submit(self, plan: wire.Plan, limits: Limits | None = None, prefix: wire.Prefix | None = None,
               pieces: dict[str, str] | None = None) -> Future:
        """Run a plan (see :mod:`autograder.pipeline.sandbox.runner`) under ``limits`` (the pool's by default);
        the future's result is a :class:`~autograder.pipeline.sandbox.wire.JobResult`.

        With its chapter's ``prefix`` (:func:`autograder.pipeline.sandbox.prefix.of_edition`), a plan that
        starts with it forks from the state a single run of it reached. ``pieces`` are the pieces
        of grader code its trial steps run on, by step key.
        """
        return self.submit_together([Task(plan, pieces or {}, prefix, limits)])[0]

    def submit_together(self, tasks: list[Task]) -> list[Future]:
        """Run the jobs of one submission one after another on one worker, never beside each other:
        no two processes of one submission ever run at the same time, so none can pass another
        what it found. A future per job, in order."""
        futures = [Future() for _ in tasks]
        jobs = []
        for task in tasks:
            limits = task.limits or self.limits
            self.count += 1
            plan = dataclasses.replace(task.plan, probe_seconds=limits.probe, output_limit=limits.output)
            jobs.append((wire.Job(self.count, plan, limits.as_dict(), 2 * limits.wall + 90, task.prefix), task.pieces))
        self.executor.submit(self._run_together, jobs, futures)
        return futures

    def _run_together(self, jobs: list[tuple[wire.Job, dict[str, str]]], futures: list[Future]) -> None:
        worker = self.idle.get()
        try:
            for (job, pieces), future in zip(jobs, futures, strict=True):
                result, worker = self._run(worker, job, pieces)
                if result.status == HOLDER_FAILED:  # its pieces went to a holder that died: again, from the top
                    result, worker = self._run(worker, dataclasses.replace(job, prefix=None), pieces)
                future.set_result(result)
        finally:
            self.idle.put(worker)

    @staticmethod
    def _run(worker: Worker, job: wire.Job, pieces: dict[str, str]) -> tuple[wire.JobResult, Worker]:
        try:
            result = worker.run(job, pieces)
        except (BrokenPipeError, OSError, ValueError):
            result = None
        if result is None:  # the zygote itself failed: replace it, the job counts as not run
            worker.close()
            worker = Worker(worker.index)
            result = wire.JobResult("grading worker failed", "the grading worker failed")
        return result, worker

    def close(self) -> None:
        self.executor.shutdown(wait=True)
        while not self.idle.empty():
            self.idle.get().close()

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

"""Warm sandboxes: one zygote process per worker, each with its own sandbox user, fed one job at a time.

A :class:`Worker` is the grader's handle on one zygote process (:mod:`autograder.pipeline.sandbox.zygote`,
which runs as root and forks the sandboxes). Every zygote of this process is forked by one template
(:class:`Template`), started on the first: a grader that grades several chapters, or a class again,
imports torch for its sandboxes once.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import queue
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field

from autograder.pipeline.sandbox import wire
from autograder.pipeline.sandbox.confine import Limits, is_root
from autograder.pipeline.sandbox.prefix import HOLDER_FAILED

READY_SECONDS = 180.0


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot run here (it needs Linux and root to create users and namespaces)."""


class Zygote:
    """A zygote forked by the template: the pipes to it, and its pidfd (it is the template's child,
    so the grader waits on and signals it through that)."""

    def __init__(self, stdin: int, stdout: int, pidfd: int) -> None:
        self.stdin = os.fdopen(stdin, "wb", buffering=0)
        self.stdout = os.fdopen(stdout, "rb")
        self.pidfd = pidfd

    def poll(self) -> int | None:
        """None while it runs (its exit status is the template's to collect)."""
        return 0 if select.select([self.pidfd], [], [], 0)[0] else None

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            signal.pidfd_send_signal(self.pidfd, signal.SIGKILL)

    def wait(self, timeout: float) -> None:
        if not select.select([self.pidfd], [], [], timeout)[0]:
            raise subprocess.TimeoutExpired("zygote", timeout)
        self.stdin.close()
        self.stdout.close()
        os.close(self.pidfd)


class Template:
    """``python -m autograder.pipeline.sandbox.zygote``: the root process that imported what every
    zygote needs and forks them, one per request on a socket only this process holds.

    One per grader process, started with the grader's environment of that moment (a job runs with
    the sandbox's own: :func:`~autograder.pipeline.sandbox.confine.sandbox_environment`). A process
    forked from the grader does not inherit it (its copy of the socket is closed in the child), so
    the template ends when the grader does.
    """

    _current: Template | None = None
    _lock = threading.Lock()

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        self.socket = ours
        self.process = subprocess.Popen(
            [sys.executable, "-m", "autograder.pipeline.sandbox.zygote"],
            stdin=theirs, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd="/",
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, start_new_session=True,
        )
        theirs.close()

    @classmethod
    def fork(cls) -> Zygote:
        """A new zygote, from this process's template (started, or started again, as needed)."""
        with cls._lock:
            template = cls._current
            if template is None or template.process.poll() is not None:
                if template is not None:
                    template.close()
                template = cls._current = Template()
            zygote = template._fork()
            if zygote is None:  # a late answer would be read as the next request's: start afresh
                template.close()
                cls._current = None
                raise SandboxUnavailable("the sandbox's template did not fork a zygote")
            return zygote

    def _fork(self) -> Zygote | None:
        stdin_r, stdin_w = os.pipe()
        stdout_r, stdout_w = os.pipe()
        try:
            socket.send_fds(self.socket, [b"z"], [stdin_r, stdout_w])
            ready = select.select([self.socket], [], [], READY_SECONDS)[0]
            _answer, fds, _flags, _address = socket.recv_fds(self.socket, 1, 1) if ready else (b"", [], 0, None)
        except OSError:
            fds = []
        finally:
            os.close(stdin_r)
            os.close(stdout_w)
        if len(fds) != 1:
            for fd in (stdin_w, stdout_r, *fds):
                os.close(fd)
            return None
        os.set_inheritable(fds[0], False)  # as the pipes: nothing the grader runs holds the zygote
        return Zygote(stdin_w, stdout_r, fds[0])

    def close(self) -> None:
        self.socket.close()
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=30)

    @classmethod
    def _forget_in_child(cls) -> None:
        # A forked child of the grader must not keep the template alive, nor fork zygotes from it.
        if cls._current is not None:
            cls._current.socket.close()
            cls._current = None
        cls._lock = threading.Lock()


os.register_at_fork(after_in_child=Template._forget_in_child)


class Worker:
    """The grader's handle on one zygote (it claims a sandbox user of its own)."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.process = Template.fork()
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

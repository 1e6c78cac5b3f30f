"""Warm sandboxes: one zygote per worker, each with its own sandbox user, fed one job at a time."""

from __future__ import annotations

import json
import os
import queue
import select
import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from autograder.pipeline.confine import Limits, is_root

READY_SECONDS = 180.0


class SandboxUnavailable(RuntimeError):
    """The sandbox cannot run here (it needs Linux and root to create users and namespaces)."""


class Zygote:
    """One ``python -m autograder.pipeline.zygote`` process (it claims a sandbox user of its own)."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.process = subprocess.Popen(
            [sys.executable, "-m", "autograder.pipeline.zygote"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd="/",
            env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, start_new_session=True,
        )
        hello = self._read(READY_SECONDS)
        if not hello or not hello.get("ready"):
            self.close()
            raise SandboxUnavailable(f"sandbox worker {index} did not start")
        self.uid = hello["uid"]

    def _read(self, seconds: float) -> dict | None:
        deadline = time.monotonic() + seconds
        out = self.process.stdout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([out], [], [], min(1.0, max(0.0, deadline - time.monotonic())))
            if ready:
                line = out.readline()
                return json.loads(line) if line else None
            if self.process.poll() is not None:
                return None
        return None

    def run(self, job: dict, seconds: float) -> dict | None:
        self.process.stdin.write((json.dumps(job) + "\n").encode())
        self.process.stdin.flush()
        return self._read(seconds)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=30)


class Pool:
    """``workers`` zygotes; :meth:`submit` runs a plan in the next free one and returns a future."""

    def __init__(self, workers: int, limits: Limits, hide: list[Path]) -> None:
        if not is_root() or not sys.platform.startswith("linux"):
            raise SandboxUnavailable("the grading sandbox needs Linux and root (to create its users and namespaces)")
        self.limits = limits
        self.hide = [str(p) for p in hide]
        self.idle: queue.Queue[Zygote] = queue.Queue()
        with ThreadPoolExecutor(workers) as starter:
            for zygote in starter.map(Zygote, range(workers)):
                self.idle.put(zygote)
        self.executor = ThreadPoolExecutor(workers)
        self.count = 0

    def submit(self, plan: dict, limits: Limits | None = None) -> Future:
        """Run a plan (see :mod:`autograder.pipeline.runner`) under ``limits`` (the pool's by default)."""
        limits = limits or self.limits
        self.count += 1
        job = {"job": self.count, "plan": {**plan, "probe_seconds": limits.probe},
               "limits": limits.as_dict(), "hide": self.hide, "wait": limits.wall + 60}
        return self.executor.submit(self._run, job)

    def _run(self, job: dict) -> dict:
        zygote = self.idle.get()
        try:
            result = zygote.run(job, job["wait"])
        except (BrokenPipeError, OSError, ValueError):
            result = None
        if result is None:  # the zygote itself failed: replace it, the job counts as not run
            zygote.close()
            zygote = Zygote(zygote.index)
            result = {"status": "grading worker failed", "reason": "the grading worker failed", "report": ""}
        self.idle.put(zygote)
        return result

    def close(self) -> None:
        self.executor.shutdown(wait=True)
        while not self.idle.empty():
            self.idle.get().close()

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

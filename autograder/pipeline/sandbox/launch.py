"""One job, from the root side: fork the child that confines itself and runs it, read what it
reports within the job's limits, and leave no process of the sandbox user behind.

The zygote launches a job from the top here, and a prefix holder launches one after its chapter's
prefix (:mod:`autograder.pipeline.sandbox.prefix`); both call :func:`run`. Everything the child does
after the fork is :mod:`autograder.pipeline.sandbox.runner`'s.
"""

from __future__ import annotations

import os
import select
import signal
import time

from autograder.pipeline.sandbox import confine, runner, wire

MAX_REPORT = 256 * 2**20
# Seconds a job's pipes may stay open after its process ended (held by something it started).
GRACE = 0.5


def run(job: wire.Job, uid: int, gid: int) -> wire.JobResult:
    """Fork the confined child for a job (a bare interpreter when the plan is bare), collect its
    report and clean up everything it started."""
    limits = confine.Limits(**job.limits)
    report_r, report_w = os.pipe()
    output_r, output_w = os.pipe()
    start = runner.exec_bare if job.plan.bare is not None else runner.run_confined
    pid = os.fork()
    if pid == 0:  # the child: confine, then run submission code; never returns
        try:
            os.close(report_r)
            os.close(output_r)
            start(job, uid, gid, report_w, output_w)
        finally:
            os._exit(70)
    os.close(report_w)
    os.close(output_w)
    return _supervise(pid, uid, report_r, output_r, limits)


def _supervise(pid: int, uid: int, report_r: int, output_r: int, limits: confine.Limits) -> wire.JobResult:
    started = time.monotonic()
    deadline = started + limits.wall
    report, output_size, status, reason, exited = bytearray(), 0, None, "", 0.0
    readers = {report_r, output_r}
    while True:
        if status is None:
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status, exited = code, time.monotonic()
        if status is not None and not readers:
            break
        if status is not None and time.monotonic() > exited + GRACE:
            break  # a leftover process keeps a pipe open; it is killed below
        if time.monotonic() > deadline and status is None:
            reason = f"timed out after {limits.wall:.0f} s"
            break
        ready, _, _ = select.select(list(readers), [], [], 0.02)
        for fd in ready:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                readers.discard(fd)
            elif fd == report_r:
                report += chunk
            else:
                output_size += len(chunk)
        if len(report) > MAX_REPORT or output_size > limits.flood:
            reason = "flooded its output; stopped"
            break
    killed = confine.kill_all(uid)
    if status is None:
        try:
            _, status = os.waitpid(pid, 0)
        except ChildProcessError:
            status = None
    confine.reap()
    for fd in (report_r, output_r):
        os.close(fd)
    return wire.JobResult(_describe(status), reason, round(time.monotonic() - started, 3), killed,
                          report.decode("utf-8", errors="replace"))


def _describe(status: int | None) -> str:
    if status is None:
        return "killed by the grader"
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number == signal.SIGXCPU:
            return "used up its CPU time (SIGXCPU)"
        return f"killed by signal {number} ({signal.Signals(number).name})"
    return f"exited with code {os.WEXITSTATUS(status)}"

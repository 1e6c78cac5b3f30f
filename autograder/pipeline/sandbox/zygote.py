"""The zygote: a root process with torch already imported that forks one sandbox per submission.

Started by the grader (``python -m autograder.pipeline.sandbox.zygote``), it claims a sandbox user of its
own, imports torch, NumPy, IPython and the course's packages once, then reads jobs (one JSON line
each) on stdin. For each job it forks a child, which confines itself
(:mod:`autograder.pipeline.sandbox.confine`) as that user and runs the plan
(:mod:`autograder.pipeline.sandbox.runner`). The zygote itself never runs submission code: it collects
the child's report lines, enforces the wall-clock and output limits, kills every process of the
sandbox user when the job ends, and answers with one JSON line.

When the job carries its chapter's locked prefix and its plan starts with exactly that prefix, the
child is forked instead from a root "prefix holder" that ran the prefix once
(:mod:`autograder.pipeline.sandbox.prefix`); the holder supervises it with the same :func:`run_job`, and
the zygote still kills every process of the sandbox user when the job ends (never the holder,
which is root). Any other job, or one whose prefix failed, runs from the top as above.
"""

from __future__ import annotations

import dataclasses
import fcntl
import json
import os
import select
import signal
import sys
import time

from autograder.engine import bare
from autograder.pipeline.sandbox import confine, wire
from autograder.pipeline.sandbox.prefix import Holders

MAX_REPORT = 256 * 2**20
# Seconds a job's pipes may stay open after its process ended (held by something it started).
GRACE = 0.5


def warm() -> None:
    """Import what every chapter needs, so that no submission pays for it."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    import IPython.core.interactiveshell  # noqa: F401
    import matplotlib.pyplot  # noqa: F401
    import numpy  # noqa: F401
    import torch
    import torch.distributed  # noqa: F401
    import torch.nn  # noqa: F401

    import autograder.engine.cases  # noqa: F401
    import autograder.engine.observe  # noqa: F401
    import autograder.pipeline.sandbox.runner  # noqa: F401

    try:
        import autograd_figures  # noqa: F401
    except ImportError:
        pass
    # One core per worker: the grader runs one worker per core.
    torch.set_num_threads(1)
    _rehearse()


def _rehearse() -> None:
    """Pay once, before forking, for what the first cell of every notebook would pay again:
    IPython's traceback formatting, matplotlib's fonts and figure machinery."""
    import io
    from contextlib import redirect_stdout

    import matplotlib.pyplot as plt
    from IPython.core.interactiveshell import InteractiveShell

    figure, axes = plt.subplots()
    axes.text(0.5, 0.5, "warm")
    figure.canvas.draw()
    plt.close(figure)
    shell = InteractiveShell.instance(colors="NoColor")
    with redirect_stdout(io.StringIO()):
        shell.run_cell("import torch\ntorch.zeros(2, 3).T.view(6)", store_history=False)
    InteractiveShell.clear_instance()


def run_job(job: wire.Job, uid: int, gid: int) -> wire.JobResult:
    """Fork, confine and run one job; collect its report and clean up everything it started."""
    limits = confine.Limits(**job.limits)
    report_r, report_w = os.pipe()
    output_r, output_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: confine, then run submission code; never returns
        try:
            os.close(report_r)
            os.close(output_r)
            os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
            os.dup2(output_w, 1)
            os.dup2(output_w, 2)
            confine.close_descriptors_except(report_w)
            os.setsid()
            confine.confine(uid, gid, limits, job.hide)
            from autograder.pipeline.sandbox.runner import run_plan

            sys.stdout = os.fdopen(1, "w", buffering=1, closefd=False)
            sys.stderr = os.fdopen(2, "w", buffering=1, closefd=False)
            run_plan(job.plan, report_w)
            os._exit(0)
        except BaseException:  # noqa: BLE001 - whatever happens, the child never returns
            os._exit(70)
    os.close(report_w)
    os.close(output_w)
    return _supervise(pid, uid, report_r, output_r, limits)


def run_bare(job: wire.Job, uid: int, gid: int) -> wire.JobResult:
    """Fork, confine and exec a bare interpreter (:mod:`autograder.engine.bare`) on the job's answer cells.

    The child hides, besides what every sandbox hides, every site-packages folder and the course's
    packages, then replaces itself with ``python -I -S``: nothing of this process (torch, the
    course's modules, earlier jobs) survives into the interpreter that runs the answer, and nothing
    it could import would find them. Its results are the lines it writes to the report pipe.
    """
    limits = confine.Limits(**job.limits)
    report_r, report_w = os.pipe()
    output_r, output_w = os.pipe()
    python = os.path.realpath(sys.executable)
    program = json.dumps(job.plan.bare)
    pid = os.fork()
    if pid == 0:  # the child: confine, then become the bare interpreter; never returns
        try:
            os.close(report_r)
            os.close(output_r)
            os.dup2(report_w, 1)
            os.dup2(output_w, 2)
            confine.close_descriptors_except()
            os.setsid()
            confine.confine(uid, gid, limits, job.hide + confine.bare_hidden())
            with open("job.json", "w", encoding="utf-8") as handle:
                handle.write(program)
            os.dup2(os.open("job.json", os.O_RDONLY), 0)
            os.execve(python, bare.command(python), os.environ)
        except BaseException:  # noqa: BLE001 - whatever happens, the child never returns
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


def claim_user() -> tuple[int, int, object]:
    """The first sandbox user no other zygote on this machine holds (a lock in /run, root's).

    Every process of a sandbox user is killed when a job ends, so two graders on one machine
    (two shards, two test workers) must never share one.
    """
    for index in range(256):
        handle = open(f"/run/{confine.USER_PREFIX}{index}.lock", "a")  # noqa: SIM115 - held for life
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            continue
        return (*confine.sandbox_user(index), handle)
    raise RuntimeError("every sandbox user is taken")


def main() -> int:
    uid, gid, _lock = claim_user()
    warm()
    confine.become_subreaper()
    confine.kill_all(uid)
    out = sys.stdout
    out.write(json.dumps({"ready": True, "uid": uid}) + "\n")
    out.flush()
    holders = Holders(uid, gid, run_job)
    for line in sys.stdin:
        job = wire.Job.from_line(line)
        out.write(run(job, holders, uid, gid).to_line(job.number))
        out.flush()
    holders.close()
    return 0


def run(job: wire.Job, holders: Holders, uid: int, gid: int) -> wire.JobResult:
    """Run a job from its chapter's prefix when it can, otherwise from the top; either way no
    process of the sandbox user outlives it."""
    if job.plan.bare is not None:
        result = run_bare(job, uid, gid)
        confine.kill_all(uid)
        confine.reap()
        return result
    forked = holders.run(job)
    if isinstance(forked, wire.JobResult):
        confine.kill_all(uid)
        confine.reap()
        return forked
    result = run_job(job, uid, gid)
    return dataclasses.replace(result, prefix=forked) if forked else result


if __name__ == "__main__":
    sys.exit(main())

"""A chapter's locked prefix, run once per chapter; every submission forks from the state it reached.

Every chapter notebook opens with 14-40 locked code cells before its first answer cell (Chapter 1
runs a ``torch.compile`` and a ``functionalize`` demonstration there). Those cells run with the
student edition's source whatever a submission holds, so for every submission whose plan starts
with exactly them (same keys, same sources, same order) their run is the same: it is done once.

Design (who holds the state, and why no submission can reach it):

* The zygote (root) forks a **prefix holder** per chapter. The holder is root and not confined:
  the prefix is the course's own trusted code, like the zygote's ``warm()``. It enters the jail a
  job sees (:mod:`autograder.pipeline.sandbox.jail`: the same files, a fresh ``/tmp``, the
  sandbox's working directory and environment) in private mount, network and IPC namespaces of
  its own, runs the prefix once in its IPython shell with the output captured and the sandbox
  user as effective user (the rights a run from the top has), keeps the cells' reports, and tells
  the zygote it is ready.
* For each job the zygote hands the holder the job's frames as the grader wrote them; the holder
  launches the child that enters a PID namespace of its own, confines itself and runs the
  remaining steps, exactly as the zygote launches one from the top
  (:func:`autograder.pipeline.sandbox.launch.run`), and answers with the job's result line, which
  the zygote passes on as it came: the prefix's cell reports replayed in front so the verdict, the
  feedback and the stored notebook are those of a run from the top. The child's wall-clock and
  CPU limits are what a run from the top would have left after the prefix.
* Submissions run as the sandbox user; the holder is root. A process of another uid cannot
  signal it, ptrace it or open its ``/proc/<pid>/mem``; the child closes every descriptor but its
  report pipe before it runs a cell; the holder refuses to serve (and the chapter runs from the
  top) when the prefix left what a fork would share or lose: threads, child processes, writable
  shared memory mappings, or files in its working folder (a confined child starts in an empty
  one). "Every process of the sandbox user is killed when the job ends" stays true and never
  touches the holder, which is not of that user. A child's memory is a copy-on-write copy
  of the holder's: nothing it writes reaches the holder, so it cannot change what the next
  submission starts from.
* The holder is replaced when a job of another prefix (another chapter) comes; a prefix that
  fails (a cell raising that the edition does not tag ``raises-exception``, a timeout, a holder
  that dies) makes every job of that prefix run from the top, and the job's result says why.

The RNG state a child starts from is the holder's after the prefix, which is the one a run from
the top reaches: torch's and NumPy's generators are the zygote's in both (seeded once, before any
fork). Python's ``random`` is reseeded by CPython in every forked child (``os.register_at_fork``),
so after the prefix its draws are fresh as in a run from the top; draws inside the prefix are the
holder's one run, shared by the chapter's submissions.
"""

from __future__ import annotations

import json
import math
import os
import resource
import select
import signal
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import nbformat

from autograder.pipeline.course import is_answer_cell, is_test_cell, nbgrader_meta
from autograder.pipeline.sandbox import confine, jail, launch, wire

FORKED = "forked"
# The status of a job its prefix holder failed during: the grader runs it again from the top.
HOLDER_FAILED = "prefix holder failed"
# What the IPython shell itself writes in its home (the working folder) in every run.
SHELL_FILES = {".ipython"}
NOT_LEADING = "ran from the top: the submission does not start with the chapter's locked cells"
# Seconds the holder may take to start, on top of the prefix's own wall-clock limit.
START_GRACE = 10.0
# The inductor's compile workers would be processes and threads a fork cannot carry.
PREFIX_ENVIRONMENT = {"TORCHINDUCTOR_COMPILE_THREADS": "1"}


def of_edition(edition: nbformat.NotebookNode, assignment: str) -> wire.Prefix:
    """The leading locked code cells of a student edition, as :func:`verdict.plan` plans them.

    Stops at the first answer cell, test cell or code cell without a grade id (a submission's plan
    would key that one by its index, like a cell the learner added).
    """
    steps: list[wire.CodeStep] = []
    may_raise: list[str] = []
    for cell in edition.cells:
        grade_id = nbgrader_meta(cell).get("grade_id")
        if cell.cell_type != "code":  # the plan has no step for it
            continue
        if not grade_id or is_answer_cell(cell) or is_test_cell(cell) or any(s.key == grade_id for s in steps):
            break
        steps.append(wire.CodeStep(grade_id, cell.source))
        if "raises-exception" in cell.metadata.get("tags", []):
            may_raise.append(grade_id)
    return wire.Prefix(assignment, steps, may_raise)


def leads(plan: wire.Plan, prefix: wire.Prefix) -> bool:
    """Whether the plan starts with exactly the prefix's steps (same keys, sources and order)."""
    count = len(prefix.steps)
    return (count > 0 and plan.assignment == prefix.assignment
            and list(plan.steps[:count]) == list(prefix.steps))


def identity(prefix: wire.Prefix, output_limit: int) -> str:
    """What makes two jobs' prefixes the same run."""
    return json.dumps([prefix.to_json(), output_limit], sort_keys=True)


class Holder:
    """The zygote's handle on one prefix holder process."""

    def __init__(self, prefix: wire.Prefix, limits: confine.Limits, output_limit: int, uid: int, gid: int,
                 root: str) -> None:
        self.identity = identity(prefix, output_limit)
        jobs_r, self._jobs_w = os.pipe()
        self._answers_r, answers_w = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the holder; never returns
            code = 70
            try:
                os.close(self._jobs_w)
                os.close(self._answers_r)
                _hold(prefix, output_limit, uid, gid, root, jobs_r, answers_w)
                code = 0
            finally:
                os._exit(code)
        os.close(jobs_r)
        os.close(answers_w)
        self._buffer = b""
        hello = self._read(limits.wall + START_GRACE)
        ready = None if hello is None else wire.Ready.from_line(hello)
        if ready is None:
            self.close()
            self.failure = f"the prefix did not finish within {limits.wall:.0f} s"
        elif not ready.ready:
            self.close()
            self.failure = ready.why or "the prefix failed"
        else:
            self.failure = ""

    def _read(self, seconds: float) -> str | None:
        """The holder's next line, without its end."""
        deadline = time.monotonic() + seconds
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self._answers_r], [], [], min(left, 1.0))
            if ready:
                chunk = os.read(self._answers_r, 1 << 16)
                if not chunk:
                    return None
                self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace")

    def relay(self, text: str, pieces: int, wall: float) -> str | None:
        """Hand the holder a job's frame whose plan starts with its prefix, then the frame of its
        pieces (read from ``pieces`` only now, when the holder has long been forked); its answer
        line, or None when the holder failed."""
        try:
            wire.write_frame(self._jobs_w, text)
        except OSError:
            wire.read_frame(pieces)  # the job's pieces, which the grader sends again with the job
            return None
        try:
            wire.write_frame(self._jobs_w, wire.read_frame(pieces) or "{}")
        except OSError:
            return None
        answer = self._read(wall + START_GRACE)
        return None if answer is None else answer + "\n"

    def close(self) -> None:
        """Kill the holder (its session: the prefix may have left processes) and reap it."""
        for fd in (self._jobs_w, self._answers_r):
            try:
                os.close(fd)
            except OSError:
                pass
        try:
            os.killpg(self.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass


def _hold(prefix: wire.Prefix, output_limit: int, uid: int, gid: int, root: str, jobs_r: int,
          answers_w: int) -> None:
    """The holder's life: set up like a sandbox (but root), run the prefix, then serve jobs."""
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    confine.close_descriptors_except(jobs_r, answers_w)
    os.setsid()
    answers = os.fdopen(answers_w, "w", buffering=1)
    try:
        started, cpu_started = time.monotonic(), _cpu()
        report = _run_prefix(prefix, output_limit, uid, gid, root)
        seconds, cpu = time.monotonic() - started, _cpu() - cpu_started
        unsafe = _unforkable()
        if unsafe:
            raise PrefixFailed(f"the prefix left {unsafe}: a fork of it would not be a run from the top")
    except PrefixFailed as failure:
        answers.write(wire.Ready(False, why=str(failure)).to_line())
        return
    except Exception as err:  # noqa: BLE001 - whatever stops the prefix, the chapter runs from the top
        answers.write(wire.Ready(False, why=f"the prefix holder failed: {type(err).__name__}: {err}").to_line())
        return
    answers.write(wire.Ready(True, uid).to_line())
    while (text := wire.read_frame(jobs_r)) is not None:
        job = wire.Job.from_line(text)
        answers.write(_serve(job, prefix, report, seconds, cpu, uid, gid, jobs_r).to_line(job.number))


class PrefixFailed(RuntimeError):
    """The prefix cannot be the starting point of the chapter's submissions."""


def _run_prefix(prefix: wire.Prefix, output_limit: int, uid: int, gid: int, root: str) -> str:
    """Enter the jail a job sees (at ``root``), with a sandbox's environment, then run the prefix's
    cells in the IPython shell the children will inherit, with the sandbox user's rights; returns
    their report lines.

    The cells run with the sandbox user as *effective* user (no capabilities, its file access),
    so that what they can do is what they can do in a run from the top (a write to
    ``/proc/self/clear_refs`` is refused in both). The real and saved user stay root: the sandbox
    user can neither signal nor trace the holder meanwhile, and the holder becomes root again to
    fork and confine the children.
    """
    confine.prctl_parent_death()
    jail.enter(root, uid, gid)
    # The jail's network namespace starts with loopback down; Chapter 6's locked cells run ranks on it.
    confine.loopback_up()
    os.environ.clear()
    os.environ.update({**confine.sandbox_environment(), **PREFIX_ENVIRONMENT})
    inductor = sys.modules.get("torch._inductor.config")
    if inductor is not None:  # read the variable when it was imported, before it was set
        inductor.compile_threads = 1
    confine.become_subreaper()

    from autograder.pipeline.sandbox.runner import notebook_shell, run_cell

    os.setgroups([])
    os.setegid(gid)
    os.seteuid(uid)
    try:
        shell = notebook_shell()
        lines = []
        for number, step in enumerate(prefix.steps, start=1):
            shell.execution_count = number
            outputs = run_cell(shell, step.source, output_limit)
            raised = [o for o in outputs if isinstance(o, wire.Error)]
            if raised and step.key not in prefix.may_raise:
                raise PrefixFailed(f"the prefix cell {step.key} raised {raised[0].ename}: {raised[0].evalue[:200]}")
            lines.append(json.dumps(wire.cell_line(wire.CellReport(step.key, outputs, number))) + "\n")
    finally:
        os.seteuid(0)
        os.setegid(0)
    return "".join(lines)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _unforkable() -> str:
    """What a fork of this process would share with it or lose: threads, children, writable shared
    memory, files in the working folder (a confined child starts in an empty one)."""
    threads = len(os.listdir("/proc/self/task"))
    if threads > 1:
        return f"{threads - 1} threads running"
    children = Path(f"/proc/self/task/{os.getpid()}/children").read_text().split()
    if children:
        return f"{len(children)} child processes running"
    for line in Path("/proc/self/maps").read_text().splitlines():
        permissions = line.split()[1]
        if permissions[1] == "w" and permissions[3] == "s":
            return f"a writable shared mapping ({line.split()[-1]})"
    files = sorted(set(os.listdir(".")) - SHELL_FILES)
    if files:
        return f"files in its working folder ({', '.join(files[:5])})"
    return ""


def _serve(job: wire.Job, prefix: wire.Prefix, report: str, seconds: float, cpu: float, uid: int,
           gid: int, jobs: int) -> wire.JobResult:
    """Run the job's steps after the prefix in a confined child of the holder, under the limits a
    run from the top would have left, with the prefix's reports in front of its own (the job's
    pieces are the next frame on ``jobs``, read once the child is forked)."""
    def pieces() -> dict[str, str]:
        return json.loads(wire.read_frame(jobs) or "{}")

    limits = dict(job.limits)
    limits["wall"] = float(limits["wall"]) - seconds
    limits["cpu"] = int(limits["cpu"]) - math.ceil(cpu)
    if limits["wall"] <= 0 or limits["cpu"] <= 0:  # what a run from the top would have come to
        pieces()
        return wire.JobResult("killed by the grader", f"timed out after {float(job.limits['wall']):.0f} s",
                              report=report, prefix=FORKED)
    rest = replace(job.plan, steps=job.plan.steps[len(prefix.steps):], first_number=len(prefix.steps) + 1)
    result = launch.run(replace(job, plan=rest, limits=limits, prefix=None), uid, gid, "/", pieces)
    return replace(result, report=report + result.report, prefix=FORKED)


@dataclass(frozen=True)
class Relayed:
    """What the prefix holder answered for a job (its result line), or why the job runs from the
    top ("" when no prefix was offered)."""

    line: str | None = None
    why: str = ""


class Holders:
    """The zygote's one live holder (the last chapter's) and the prefixes that failed."""

    def __init__(self, uid: int, gid: int, root: str) -> None:
        self.uid, self.gid, self.root = uid, gid, root
        self.holder: Holder | None = None
        self.failed: dict[str, str] = {}

    def relay(self, job: wire.Job, text: str, pieces: int) -> Relayed:
        """Run the job (``text``, its frame as the grader wrote it; its pieces the next frame on
        ``pieces``) from its prefix when it can."""
        prefix = job.prefix
        if prefix is None or job.plan.bare is not None:
            return Relayed()
        if not leads(job.plan, prefix):
            return Relayed(why=NOT_LEADING)
        wanted = identity(prefix, job.plan.output_limit)
        if wanted in self.failed:
            return Relayed(why=f"ran from the top: {self.failed[wanted]}")
        if self.holder is None or self.holder.identity != wanted:
            self.close()
            holder = Holder(prefix, confine.Limits(**job.limits), job.plan.output_limit, self.uid, self.gid,
                            self.root)
            if holder.failure:
                self.failed[wanted] = holder.failure
                print(f"prefix of {prefix.assignment}: {holder.failure}; its submissions run from the top",
                      file=sys.stderr, flush=True)
                return Relayed(why=f"ran from the top: {holder.failure}")
            self.holder = holder
        answer = self.holder.relay(text, pieces, float(job.limits["wall"]))
        if answer is None:  # the job's pieces went to the holder: the grader sends the job again
            self.close()
            failed = wire.JobResult(HOLDER_FAILED, "the prefix holder failed during the job")
            return Relayed(line=failed.to_line(job.number))
        return Relayed(line=answer)

    def close(self) -> None:
        if self.holder is not None:
            self.holder.close()
            self.holder = None

"""What runs inside the sandbox, from the fork on: the job's first process enters its own PID
namespace and its jail, confines itself, then runs a submission's cells and the probes of its test
cells (or becomes a bare interpreter).

:func:`run_job` is the child's whole life after :mod:`autograder.pipeline.sandbox.launch` forks it;
it never returns.

The runner receives a :class:`~autograder.pipeline.sandbox.wire.Plan`: the code cells to run in order
(locked cells from the student edition, the learner's answer cells and any cells they added) and,
where a test cell stood, a probe. Test cells themselves never come here. Consecutive probes (a
test cell and its hidden twin) fork one short-lived child from the state the notebook reached;
that child runs :func:`autograder.engine.observe.observe_cell` (the same function a
learner's ``grade`` call runs) for each in turn, as the test cells would run in a kernel, and
reports each probe's observations as data on the pipe the supervisor opens for that probe alone
(:mod:`autograder.pipeline.sandbox.gate`), so neither the probes' inputs nor anything they learn
enters the process that goes on running the notebook. A probe that ends its child or overruns its
time ends only itself: the probes after it run in a fresh child forked from the same state.
Expected values are never here.

A cell's outputs go to the supervisor over the job's control socket. Submission code runs in this
same process and can write there too: what the supervisor accepts is only what comes in the
plan's turn, and a grade rests only on what a probe reports on its own pipe.
"""

from __future__ import annotations

import json
import os
import select
import signal
import sys
import time
import traceback
from typing import Any, NoReturn

from autograder.engine import bare, channel, secret, trials
from autograder.pipeline.sandbox import confine, jail, wire


class _Capped:
    """A text stream that keeps at most ``limit`` characters of what is written to it."""

    def __init__(self, limit: int) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.limit = limit
        self.dropped = 0

    def write(self, text: str) -> int:
        text = str(text)
        room = self.limit - self.size
        if room > 0:
            self.parts.append(text[:room])
            self.size += min(len(text), room)
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def text(self) -> str:
        note = f"\n[... {self.dropped} more characters of output dropped]\n" if self.dropped else ""
        return "".join(self.parts) + note


CONTROL = 3  # the job's end of its control socket, in every process of the job


def run_job(job: wire.Job, uid: int, gid: int, control: int, output: int, jail_root: str) -> NoReturn:
    """The job's first process (pid 1 of the job's PID namespace, forked by its supervisor): enter
    the jail, confine itself as the sandbox user, then fork the process that runs the plan (or
    becomes the bare interpreter) and reap the job's processes until that one ends, and end as it
    ended; every process of the job dies with this one.

    The plan runs in a child, not here: the kernel drops a signal its namespace's first process has
    no handler for, so a cell's own ``SIGTERM`` or the CPU limit's ``SIGXCPU`` would not end it.
    """
    confine.prctl_parent_death()
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    os.dup2(output, 1)
    os.dup2(output, 2)
    os.dup2(control, CONTROL)
    confine.close_descriptors_except(CONTROL)
    os.setsid()
    jail.enter(jail_root, uid, gid)
    confine.confine(uid, gid, confine.Limits(**job.limits))
    plan = os.fork()
    if plan == 0:
        try:
            if job.plan.bare is not None:
                _exec_bare(job)
            sys.stdout = os.fdopen(1, "w", buffering=1, closefd=False)
            sys.stderr = os.fdopen(2, "w", buffering=1, closefd=False)
            run_plan(job.plan, CONTROL)
        finally:
            os._exit(0)
    for fd in (0, 1, 2, CONTROL):
        os.close(fd)
    while True:
        pid, status = os.waitpid(-1, 0)
        if pid == plan:
            os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 128 + os.WTERMSIG(status))


def _exec_bare(job: wire.Job) -> NoReturn:
    """Become a bare interpreter (:mod:`autograder.engine.bare`) on the job's answer cells: its jail
    holds no site-packages folder and no course package, and the interpreter is ``python -I -S``:
    nothing of this process (torch, the course's modules, earlier jobs) survives into the
    interpreter that runs the answer, and nothing it could import would find them. It reports
    through the gate like any job."""
    python = os.path.realpath(sys.executable)
    with open("job.json", "w", encoding="utf-8") as handle:
        handle.write(json.dumps({**job.plan.bare, "control": CONTROL}))
    os.dup2(os.open("job.json", os.O_RDONLY), 0)
    os.execve(python, bare.command(python), os.environ)


def run_plan(plan: wire.Plan, control: int) -> None:
    """Run every step of a plan, reporting as it goes."""
    secret.supervised_by(control)
    shell = notebook_shell()
    probes: list[wire.ProbeStep | wire.TrialStep] = []
    for number, step in enumerate([*plan.steps, None], start=plan.first_number):
        if isinstance(step, (wire.ProbeStep, wire.TrialStep)):
            probes.append(step)
            continue
        if probes:
            _probes_in_child(shell, probes, plan.assignment, control, plan.probe_seconds)
            probes = []
        if step is not None:
            # A cell is numbered as Run All numbers it (test cells count), as its error shows.
            shell.execution_count = number
            outputs = run_cell(shell, step.source, plan.output_limit)
            channel.send(control, wire.cell_line(wire.CellReport(step.key, outputs, number)))


def notebook_shell() -> Any:
    """The process's IPython shell, set up to run a plan's cells: no history (no history file, no
    thread saving it), text outputs only. A process forked from one that ran cells gets that one."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False
    from autograder.engine import tracebacks

    shell = InteractiveShell.instance(colors="NoColor", config=config)
    shell.history_manager.enabled = False
    tracebacks.install(shell)
    # Text is all the grader keeps; rendering every figure to PNG would cost half a second each.
    shell.display_formatter.active_types = ["text/plain"]
    return shell


def run_cell(shell: Any, source: str, limit: int) -> list[wire.Stream | wire.Error]:
    """Run one cell; its printed text (each stream capped at ``limit`` characters) and its error."""
    out, err = _Capped(limit), _Capped(limit)
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        result = shell.run_cell(source, store_history=False, silent=False)
        error = result.error_before_exec or result.error_in_exec
    except BaseException as exc:  # noqa: BLE001 - SystemExit and friends from a cell are results too
        error = exc
    finally:
        sys.stdout, sys.stderr = saved
    outputs: list[wire.Stream | wire.Error] = []
    if out.size or out.dropped:
        outputs.append(wire.Stream("stdout", out.text()))
    if err.size or err.dropped:
        outputs.append(wire.Stream("stderr", err.text()))
    if error is not None:
        outputs.append(wire.Error(_safe(lambda: type(error).__name__), _safe(lambda: str(error))[:4000]))
    return outputs


def _probes_in_child(shell: Any, steps: list[wire.ProbeStep | wire.TrialStep], assignment: str, control: int,
                     seconds: float) -> None:
    """Run consecutive probes in order in a child forked from the notebook's state, each within
    ``seconds``; after one that ends the child or overruns, the rest run in a fresh child (the
    supervisor says what became of the one that did not report)."""
    while steps:
        progress, told = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(progress)
            try:
                for step in steps:
                    _report_probe(shell, step, assignment, control)
                    os.write(told, b".")
            finally:
                os._exit(0)
        os.close(told)
        try:
            finished, overran = _await_probes(pid, progress, len(steps), seconds)
        finally:
            os.close(progress)
        steps = steps[finished + 1:]


def _report_probe(shell: Any, step: wire.ProbeStep | wire.TrialStep, assignment: str, control: int) -> None:
    """Open the probe's report pipe, observe, report on it."""
    pipe, source = channel.open_channel(control, step.key)
    # A trial's piece is compiled here and its text dropped: no frame above the test holds it.
    piece = None if source is None else trials.compiled(source)
    del source
    try:
        report = wire.ProbeReport(step.key, observe(shell.user_ns, step, assignment, piece))
    except BaseException:  # noqa: BLE001 - the probe's own failure is reported, then the next runs
        report = wire.ProbeReport(step.key, failed=traceback.format_exc(limit=3)[-2000:])
    channel.write_report(pipe, wire.probe_line(report))


def _await_probes(pid: int, progress: int, count: int, seconds: float) -> tuple[int, bool]:
    """How many of ``count`` probes the child finished, and whether the next one overran.

    The child writes a byte to ``progress`` after each probe; each probe has its own ``seconds``.
    The child is always reaped (killed if it overran).
    """
    finished = 0
    deadline = time.monotonic() + seconds
    watching = select.poll()
    watching.register(progress, select.POLLIN)
    while finished < count and watching.poll(max(0.0, deadline - time.monotonic()) * 1000):
        told = os.read(progress, 4096)
        if not told:  # the child ended (or closed its end): the probe it was running did not report
            break
        finished = min(count, finished + len(told))
        deadline = time.monotonic() + seconds
    return finished, _reap(pid, deadline) and finished < count


def _reap(pid: int, deadline: float) -> bool:
    """Wait for the child until ``deadline``, then kill it; whether it had to be killed."""
    while time.monotonic() < deadline:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            return False
        time.sleep(0.002)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return True


def observe(namespace: dict, step: wire.ProbeStep | wire.TrialStep, assignment: str,
            piece: trials.Piece | None = None):
    """One test cell's observations of the answer the notebook defined: the observing half of the
    checks, and nothing that knows what the answer should give. A probe observes every case of
    the cell but its trial cases (the grader runs those in jobs of their own); a trial step runs
    the test on the one piece the supervisor handed over with its report pipe."""
    from autograder.engine import cases
    from autograder.engine import observe as observing

    exercise = cases.exercises(assignment)[step.exercise]
    try:
        answer = observing.resolve_answer(step.answer, namespace)
    except NameError as err:
        return observing.CellObservation(missing=str(err))
    if isinstance(step, wire.TrialStep):
        return trials.observe_trial(exercise, answer, piece)
    chosen = {case.name for case in exercise.cases if case.trial is None}
    seeds = observing.seeds_for(exercise, step.hidden, step.seed)
    return observing.observe_cell(exercise, answer, {name: s for name, s in seeds.items() if name in chosen})


def _safe(text) -> str:
    try:
        return str(text())
    except Exception:  # noqa: BLE001 - a hostile __str__ must not stop the report
        return "<unprintable>"

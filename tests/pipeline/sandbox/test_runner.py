"""The runner's probes, through the gate as a job's supervisor runs it: consecutive probes run in
turn in one child forked from the notebook's state; nothing they do reaches the notebook's
process; a probe that ends its child or overruns ends only itself; and nothing the notebook writes
on the grader's channel counts as a probe's report."""

from __future__ import annotations

import os
import socket
import time

import pytest

from autograder.engine.observe import CellObservation
from autograder.pipeline.sandbox import gate, launch, runner, wire
from autograder.pipeline.sandbox.confine import Limits, close_descriptors_except

SEEN: list[str] = []  # what probes did, in the process that ran them


def _observe(namespace: dict, step: wire.ProbeStep, assignment: str, piece=None) -> CellObservation:
    """A stand-in for the checks' observing: what a probe saw, and what the probes before it did."""
    SEEN.append(step.key)
    if step.key.startswith("exits"):
        os._exit(0)
    if step.key.startswith("hangs"):
        time.sleep(60)
    if step.key.startswith("sneaks"):  # asks for the next probe's pipe, to write its report
        from autograder.engine import channel

        channel.open_channel(runner.CONTROL, "after")
    return CellObservation(missing=f"{namespace.get('answer')} after {','.join(SEEN)}")


def supervised(steps: list[wire.CodeStep | wire.ProbeStep], probe_seconds: float = 2.0) -> gate.Gate:
    """Run a plan in a forked child as a job runs it (no jail), its supervisor's gate in this process."""
    plan = wire.Plan("views", steps, probe_seconds)
    control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    output_r, output_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            control.close()
            os.dup2(theirs.fileno(), runner.CONTROL)  # where a job's control socket is
            # As in a job, nothing else stays reachable: the forgeries write on every descriptor,
            # and the test runner's channel to its controller is one of this process's.
            close_descriptors_except(runner.CONTROL)
            runner.run_plan(plan, runner.CONTROL)
        finally:
            os._exit(0)
    theirs.close()
    os.close(output_w)
    trusted = gate.Gate.of(plan, {}, probe_seconds)
    status, _ = launch.watch(pid, trusted, control, output_r, Limits(wall=60, probe=probe_seconds))
    if status is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    control.close()
    os.close(output_r)
    return trusted


def run(steps: list[wire.CodeStep | wire.ProbeStep], probe_seconds: float = 2.0) -> wire.Reports:
    trusted = supervised(steps, probe_seconds)
    assert not trusted.violation, trusted.violation
    return wire.Reports.read(wire.report_text(trusted.lines, trusted.finished))


def probe(key: str) -> wire.ProbeStep:
    return wire.ProbeStep(key, "views-strides", "answer", False, 0)


@pytest.fixture(autouse=True)
def stand_in(monkeypatch) -> None:
    monkeypatch.setattr(runner, "observe", _observe)
    SEEN.clear()


def seen(reports: wire.Reports, key: str) -> str | None:
    return reports.probes[key].observation.missing


def test_consecutive_probes_run_in_turn_in_one_child_that_the_notebook_never_sees() -> None:
    reports = run([wire.CodeStep("a", "answer = 1"), probe("first"), probe("second"),
                   wire.CodeStep("b", "answer = 2"), probe("third")])
    assert seen(reports, "first") == "1 after first"
    assert seen(reports, "second") == "1 after first,second", "the second probe runs after the first, as cells do"
    assert seen(reports, "third") == "2 after third", "a probe after a cell runs in a fresh child"
    assert SEEN == [], "nothing a probe does enters the process running the notebook"
    assert reports.ended


def test_a_probe_that_ends_its_child_ends_only_itself() -> None:
    reports = run([wire.CodeStep("a", "answer = 1"), probe("exits"), probe("after")])
    assert reports.probes["exits"].failed == "the checks ended before reporting (the answer ended its process)"
    assert seen(reports, "after") == "1 after after", "the next probe runs in a fresh child from the same state"
    assert reports.ended


@pytest.mark.parametrize("forgery", [
    # a report line for a later probe, written where the runner's lines go
    "channel.send(3, {'probe': 'later', 'observation': {'points': {}}})",
    # a cell's report for a cell that has not run yet, before the real one
    "channel.send(3, {'cell': 'b', 'outputs': []})",
    # ready for the probe before its turn, to write its report from the cell
    "fd, _ = channel.open_channel(3, 'later'); channel.write_report(fd, {'probe': 'later', 'failed': 'forged'})",
    # anything else on the channel
    "os.write(3, b'not a message\\n')",
])
def test_a_cell_that_writes_on_the_grader_channel_stops_the_job(forgery: str) -> None:
    """Whatever a cell writes on the control socket comes out of the plan's turn: the job stops
    and nothing it reported counts."""
    source = f"import os\nfrom autograder.engine import channel\nanswer = 1\n{forgery}"
    trusted = supervised([wire.CodeStep("b", source), probe("later")])
    assert trusted.violation, trusted.lines
    assert not any(line.get("probe") == "later" and "observation" in line for line in trusted.lines)


def test_a_probe_that_asks_for_another_probes_pipe_stops_the_job() -> None:
    trusted = supervised([wire.CodeStep("a", "answer = 1"), probe("sneaks"), probe("after")])
    assert "while the checks of 'sneaks' ran" in trusted.violation
    assert not any(line.get("probe") == "after" for line in trusted.lines)


def test_a_report_the_answer_writes_and_exits_before_is_not_a_report() -> None:
    """The old forgery: write the probe's line and the end line, then end the process before any
    probe runs. No pipe is open for a probe that has not been reached: nothing is accepted, and
    the plan never ends."""
    source = ("import os, json\n"
              "for fd in range(3, 64):\n"
              "    try:\n"
              "        os.write(fd, (json.dumps({'probe': 'later', 'failed': 'forged'}) + '\\n'"
              " + json.dumps({'end': True}) + '\\n').encode())\n"
              "    except OSError:\n"
              "        pass\n"
              "os._exit(0)\n")
    trusted = supervised([wire.CodeStep("b", source), probe("later")])
    assert trusted.violation or not trusted.finished
    assert not any(line.get("probe") == "later" for line in trusted.lines)


def test_a_probe_that_overruns_is_stopped_and_the_next_one_still_runs() -> None:
    started = time.monotonic()
    reports = run([wire.CodeStep("a", "answer = 1"), probe("hangs"), probe("after")], probe_seconds=1.0)
    assert reports.probes["hangs"].failed == "the checks did not finish within 1 s"
    assert seen(reports, "after") == "1 after after"
    assert time.monotonic() - started < 30, "the hanging probe was killed, not waited for"

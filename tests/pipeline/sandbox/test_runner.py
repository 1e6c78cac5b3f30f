"""The runner's probes: consecutive probes run in turn in one child forked from the notebook's
state; nothing they do reaches the notebook's process; a probe that ends its child or overruns
ends only itself."""

from __future__ import annotations

import os
import time

import pytest

from autograder.engine.observe import CellObservation
from autograder.pipeline.sandbox import runner, wire

SEEN: list[str] = []  # what probes did, in the process that ran them


def _observe(namespace: dict, step: wire.ProbeStep, assignment: str) -> CellObservation:
    """A stand-in for the checks' observing: what a probe saw, and what the probes before it did."""
    SEEN.append(step.key)
    if step.key.startswith("exits"):
        os._exit(0)
    if step.key.startswith("hangs"):
        time.sleep(60)
    return CellObservation(missing=f"{namespace.get('answer')} after {','.join(SEEN)}")


def run(steps: list[wire.CodeStep | wire.ProbeStep], probe_seconds: float = 2.0) -> wire.Reports:
    read, write = os.pipe()
    runner.run_plan(wire.Plan("views", steps, probe_seconds), write)
    os.close(write)
    with os.fdopen(read, "rb") as report:
        return wire.Reports.read(report.read().decode())


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


def test_a_probe_reported_twice_is_refused() -> None:
    """A line a cell writes for a probe on the report pipe makes two lines for it with the
    sandbox's own: the check is refused, whichever line says what."""
    read, write = os.pipe()
    forged = ("import json, os\n"
              f"os.write({write}, (json.dumps({{'probe': 'later', 'failed': 'forged'}}) + '\\n').encode())\n")
    runner.run_plan(wire.Plan("views", [wire.CodeStep("b", forged), probe("later")], 2.0), write)
    os.close(write)
    with os.fdopen(read, "rb") as report:
        reports = wire.Reports.read(report.read().decode())
    assert reports.probes["later"].failed == wire.FORGED


def test_a_probe_that_overruns_is_stopped_and_the_next_one_still_runs() -> None:
    started = time.monotonic()
    reports = run([wire.CodeStep("a", "answer = 1"), probe("hangs"), probe("after")], probe_seconds=1.0)
    assert reports.probes["hangs"].failed == "the checks did not finish within 1 s"
    assert seen(reports, "after") == "1 after after"
    assert time.monotonic() - started < 30, "the hanging probe was killed, not waited for"

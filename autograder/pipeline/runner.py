"""What runs inside the sandbox: a submission's cells, then the probes of its test cells.

The runner receives a *plan* (data): the code cells to run in order (locked cells from the student
edition, the learner's answer cells and any cells they added) and, where a test cell stood, a
*probe*. Test cells themselves never come here. A probe forks a short-lived child from the state
the notebook reached; that child builds the case's inputs, calls the answer, reports each result
as data (:mod:`autograder.pipeline.wire`) and exits, so neither the probe's inputs nor anything it
learns enters the process that goes on running the notebook. Expected values are never here.

Everything this module writes goes to ``report``, one JSON object per line. Submission code runs
in this same process and can write there too: the grader treats every line as untrusted data.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
import traceback
import warnings
from typing import Any

from autograder.pipeline import wire

CELL_OUTPUT_LIMIT = 64 * 2**10


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


def send(report: int, message: dict) -> None:
    """Write one JSON line to the report pipe (whole, even when the pipe is slow)."""
    data = (json.dumps(message) + "\n").encode()
    while data:
        data = data[os.write(report, data):]


def run_plan(plan: dict, report: int) -> None:
    """Run every step of a plan, reporting as it goes; ends with ``{"end": true}``."""
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance(colors="NoColor")
    shell.history_manager.enabled = False
    # Text is all the grader keeps; rendering every figure to PNG would cost half a second each.
    shell.display_formatter.active_types = ["text/plain"]
    for step in plan["steps"]:
        if step["kind"] == "code":
            send(report, {"cell": step["key"], "outputs": _run_cell(shell, step["source"])})
        else:
            _probe_in_child(shell, step, plan["chapter"], report, plan["probe_seconds"])
    send(report, {"end": True})


def _run_cell(shell: Any, source: str) -> list[dict]:
    out, err = _Capped(CELL_OUTPUT_LIMIT), _Capped(CELL_OUTPUT_LIMIT)
    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = out, err
    try:
        result = shell.run_cell(source, store_history=False, silent=False)
        error = result.error_before_exec or result.error_in_exec
    except BaseException as exc:  # noqa: BLE001 - SystemExit and friends from a cell are results too
        error = exc
    finally:
        sys.stdout, sys.stderr = saved
    outputs = []
    if out.size or out.dropped:
        outputs.append({"name": "stdout", "text": out.text()})
    if err.size or err.dropped:
        outputs.append({"name": "stderr", "text": err.text()})
    if error is not None:
        outputs.append({"ename": _safe(lambda: type(error).__name__), "evalue": _safe(lambda: str(error))[:4000]})
    return outputs


def _probe_in_child(shell: Any, step: dict, chapter: str, report: int, seconds: float) -> None:
    pid = os.fork()
    if pid == 0:
        code = 0
        try:
            send(report, {"probe": step["key"], "results": probe(shell.user_ns, step, chapter)})
        except BaseException:  # noqa: BLE001 - the probe's own failure is reported, then it exits
            send(report, {"probe": step["key"], "failed": traceback.format_exc(limit=3)[-2000:]})
            code = 1
        finally:
            os._exit(code)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done:
            return
        time.sleep(0.002)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    send(report, {"probe": step["key"], "failed": f"the checks did not finish within {seconds:.0f} s"})


def probe(namespace: dict, step: dict, chapter: str) -> list[dict]:
    """Results of one test cell's cases against the answer the notebook defined.

    An exercise whose cases all read entries of a plain value (a dict of answers) reports the
    whole value once, and the grader reads the entries itself. Otherwise each case is called here
    and its result reported.
    """
    from autograder.checks import _Forbidden, _ForbiddenCall, exercises

    name = step["answer"]
    if name.isidentifier():
        if name not in namespace:
            return [{"missing": f"NameError: name {name!r} is not defined"}]
        answer = namespace[name]
    else:
        # The exercise declares its answer as an expression over the learner's names, e.g.
        # '{"broken": broken, "fixed": fixed}' (trusted text from the case module).
        try:
            answer = eval(name, namespace)  # noqa: S307 - the expression comes from the grader
        except NameError as err:
            return [{"missing": f"NameError: {err}"}]
    if step["whole"]:
        return [{"whole": wire.encode(answer)}]
    exercise = exercises(chapter)[step["exercise"]]
    results: list[dict] = []
    if exercise.require is not None:
        try:
            exercise.require(answer)
        except Exception as err:  # noqa: BLE001 - a failed whole-answer check is a result
            return [{"require": _safe(lambda e=err: str(e))[:2000]}]
    for case in exercise.selected(step["hidden"]):
        forbidden = _Forbidden(case.forbid)
        try:
            inputs = case.inputs()
            if case.entry:
                found = answer[inputs[0]]
            else:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    with forbidden:
                        found = case.call(answer, *inputs) if case.call is not None else answer(*inputs)
            if forbidden.called:
                results.append({"case": case.name, "forbidden": forbidden.called})
                continue
            results.append({"case": case.name, **wire.encode(found)})
        except _ForbiddenCall:
            results.append({"case": case.name, "forbidden": forbidden.called})
        except Exception as err:  # noqa: BLE001 - any error of the learner's code is a result
            results.append({"case": case.name, "raised": _safe(lambda e=err: f"{type(e).__name__}: {e}")[:2000]})
    return results


def _safe(text) -> str:
    try:
        return str(text())
    except Exception:  # noqa: BLE001 - a hostile __str__ must not stop the report
        return "<unprintable>"

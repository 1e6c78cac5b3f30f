"""Answers that must work out a rule themselves run in a Python that has nothing else.

Some exercises ask for a rule over shapes, strides and offsets, to be worked out with plain
integers: what torch (or NumPy) would answer in one call is the very thing asked. Such an
answer is not watched for forbidden calls; it is run where no such call exists. Its answer cell
runs in a fresh interpreter started with ``-I -S``: no site-packages, no torch, no NumPy, no
course package (when graded, the sandbox also hides every site-packages folder and the course's
sources from that process, so none can be brought back). A tensor argument becomes a
:class:`Layout`: its shape, strides, offset and contiguity, and no storage.

This module has two halves: the *launcher*, used where the answer was written (a learner's
kernel) or graded (the sandbox), and :func:`serve`, which runs inside the bare interpreter. That
interpreter is given this module's source, :mod:`autograder.engine.codec`'s and the job's half of
:mod:`autograder.engine.channel` as text; all three use the standard library only. When
graded, its results leave in one line on the report pipe the gate opens once the answer's cells
have run.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

from autograder.engine import channel, codec
from autograder.engine.channel import BARE

TIMEOUT = 60.0
# The bare interpreter's whole program: it builds the two modules it is sent (and their packages), then serves.
LOADER = (
    "import json, sys, types\n"
    "job = json.loads(sys.stdin.read())\n"
    "for name, source in job['modules']:\n"
    "    parts = name.split('.')\n"
    "    for k in range(1, len(parts) + 1):\n"
    "        dotted = '.'.join(parts[:k])\n"
    "        if dotted not in sys.modules:\n"
    "            module = sys.modules[dotted] = types.ModuleType(dotted)\n"
    "            if k < len(parts): module.__path__ = []\n"
    "            if k > 1: setattr(sys.modules['.'.join(parts[:k - 1])], parts[k - 1], module)\n"
    "    exec(compile(source, name, 'exec'), sys.modules[name].__dict__)\n"
    "sys.modules['autograder.engine.bare'].serve(job)\n"
)


class Layout:
    """A tensor as a rule over shapes and strides sees it: no storage, nothing to view.

    Answers read it as they would read a tensor: ``t.shape``, ``t.stride()``, ``t.stride(d)``,
    ``t.size()``, ``t.dim()``, ``t.ndim``, ``t.numel()``, ``t.storage_offset()`` and
    ``t.is_contiguous()`` (as torch reports it for the tensor this layout describes).
    """

    def __init__(self, shape: tuple[int, ...], stride: tuple[int, ...], offset: int = 0,
                 contiguous: bool = False) -> None:
        self.shape = tuple(shape)
        self._stride = tuple(stride)
        self._offset = offset
        self._contiguous = contiguous

    def stride(self, dim: int | None = None) -> Any:
        return self._stride if dim is None else self._stride[dim]

    def size(self, dim: int | None = None) -> Any:
        return self.shape if dim is None else self.shape[dim]

    def dim(self) -> int:
        return len(self.shape)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def numel(self) -> int:
        count = 1
        for size in self.shape:
            count *= size
        return count

    def storage_offset(self) -> int:
        return self._offset

    def is_contiguous(self) -> bool:
        return self._contiguous

    def layout_size(self) -> int:
        """How large the layout is, for choosing the smallest counterexample."""
        return self.numel() + len(self.shape)

    def as_data(self) -> list:
        return [list(self.shape), list(self._stride), self._offset, self._contiguous]

    def __repr__(self) -> str:
        return f"tensor of shape {self.shape}, stride {self._stride}, offset {self._offset}"


# ------------------------------------------------------------------------------- the launcher
def encode_args(args: tuple) -> list:
    """Arguments as the bare interpreter reads them: plain data, a :class:`Layout` tagged."""
    return [{"layout": a.as_data()} if isinstance(a, Layout) else codec.encode_plain(a) for a in args]


def job(cells: list[str], calls: list[dict]) -> dict:
    """What the bare interpreter is sent: its two modules, the answer's cells, and the calls.

    Each call is ``{"case": name, "answer": the name or expression of the answer, "subject": the
    function called (or None to call the answer itself), "args": [encoded arguments, ...]}``.
    """
    sources = [(name, _source_of(name)) for name in MODULES]
    return {"modules": sources, "cells": cells, "calls": calls}


# What the bare interpreter is sent as text (each uses the standard library only).
MODULES = ("autograder.engine.codec", "autograder.engine.channel", "autograder.engine.bare")


def _source_of(name: str) -> str:
    import importlib

    module = importlib.import_module(name)
    with open(module.__file__, encoding="utf-8") as handle:
        return handle.read()


def command(python: str | None = None) -> list[str]:
    """The bare interpreter's command line."""
    return [python or sys.executable, "-I", "-S", "-c", LOADER]


def run_here(cells: list[str], calls: list[dict], timeout: float = TIMEOUT) -> list[dict]:
    """Run a bare job in a subprocess of this process (a learner's kernel) and read its results.

    The subprocess is the bare interpreter without the sandbox's mounts: what it lacks is what
    ``-I -S`` leaves out, which is what an honest answer meets when graded.
    """
    import subprocess

    try:
        done = subprocess.run(command(), input=json.dumps(job(cells, calls)), capture_output=True, text=True,
                              timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return [{"case": call["case"], "failed": f"did not finish within {timeout:.0f} s"} for call in calls]
    return read_results(done.stdout)


def read_results(text: str) -> list[dict]:
    """The results a bare interpreter reported, each ``{"case", "seen"}``, in call order
    (untrusted data): its report line's, in a job's report or on its own."""
    for line in text.splitlines():
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if type(message) is dict and message.get("probe") == BARE and type(message.get("results")) is list:
            return [r for r in message["results"] if type(r) is dict and type(r.get("case")) is str]
    return []


# -------------------------------------------------------------------- inside the bare interpreter
def serve(job: dict) -> None:
    """Run the answer's cells, then every call; report the results in one line: on the report pipe
    the gate opens when the job has a control socket (graded), else on what was stdout.

    What the answer prints goes nowhere.
    """
    results = os.dup(1)
    quiet = os.open(os.devnull, os.O_WRONLY)
    os.dup2(quiet, 1)
    os.dup2(quiet, 2)
    sys.stdout = sys.stderr = open(os.devnull, "w")  # noqa: SIM115 - lives as long as the process
    namespace: dict = {"__name__": "__main__"}
    problem = None
    for index, source in enumerate(job["cells"]):
        try:
            exec(compile(source, f"<answer cell {index + 1}>", "exec"), namespace)
        except BaseException as err:  # noqa: BLE001 - a cell's error is the learner's result
            problem = f"{type(err).__name__}: {err}"
    line = {"probe": BARE, "results": [{"case": call["case"], "seen": _call(namespace, call, problem)}
                                       for call in job["calls"]]}
    if job.get("control") is not None:
        os.close(results)
        results, _piece = channel.open_channel(job["control"], BARE)
    channel.write_report(results, line)


def _call(namespace: dict, call: dict, problem: str | None) -> dict:
    name = call["subject"] or call["answer"]
    if name not in namespace:
        why = f"name {name!r} is not defined" + (
            f" (its cell, run in a Python with nothing but the standard library, raised {problem})" if problem else "")
        return {"missing": why}
    args = [Layout(*a["layout"]) if "layout" in a else codec.decode_from(a, [], [0]) for a in call["args"]]
    try:
        value = namespace[name](*args)
    except NotImplementedError:
        return {"unanswered": True}
    except BaseException as err:  # noqa: BLE001 - any error of the learner's code is an observation
        try:
            text = str(err)
        except BaseException:  # noqa: BLE001
            text = "<unprintable>"
        return {"raised": [type(err).__name__, text[:2000]]}
    if value is Ellipsis:
        return {"unanswered": True}
    try:
        return {"value": codec.encode_plain(value)}
    except codec.WireError:
        return {"value": {"t": "other", "type": codec.type_name(value), "repr": codec.short_repr(value)}}

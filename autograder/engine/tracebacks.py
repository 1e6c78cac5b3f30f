"""Errors shown as the learner's own code raised them: the cell's frames and the message, once.

An error a cell raises on purpose ("Why it matters", the traps) or a failed test cell is read for
its last line: torch's message, or the grader's. IPython's full traceback buries that line under
30 to 40 lines of torch's internals, each naming a file of the machine that ran it. Once
:func:`install` has run in an IPython shell (importing :mod:`autograder` runs it, and every
chapter's setup cell imports it), an exception raised by a cell is shown with the frames of the
notebook's cells only — ``Cell In[5], line 2`` and its lines — then ``RuntimeError: <message>``.
The exception itself is untouched (``sys.last_traceback`` keeps every frame, for ``%debug``).

This module is imported into the learner's kernel: it depends on IPython only.
"""

from __future__ import annotations

import inspect
import os
import re
import sys
from collections.abc import Iterator
from types import TracebackType
from typing import Any

# Chained exceptions deeper than this are shown without their frames (a cycle ends the walk too).
_MAX_CHAIN = 32
_ANSI = re.compile(r"\x1b\[[0-9;]*m")
# IPython's decoration, 75 columns wide (two lines on a phone): a rule, and each exception's
# "RuntimeError      Traceback (most recent call last)". The exception's name ends the traceback anyway.
_DECORATION = re.compile(r"^\s*(-+|\S+\s+Traceback \(most recent call last\))\s*$")


def _shell() -> Any | None:
    # Only a process that already runs IPython has a shell: the instructor's command line, which
    # imports this package too, does not pay for importing IPython.
    if "IPython" not in sys.modules:
        return None
    from IPython import get_ipython

    return get_ipython()


def is_cell_frame(shell: Any, filename: str) -> bool:
    """Whether ``filename`` names code of a notebook cell that ``shell`` ran (``Cell In[n]``)."""
    compiler = getattr(shell, "compile", None)
    names = getattr(compiler, "_filename_map", None)
    if isinstance(names, dict) and filename in names:
        return True
    return filename.startswith("<ipython-input-")


# What ``inspect`` is told a cell's file belongs to: no module (no module has this name).
_NO_MODULE = "<a notebook cell>"


def _of_no_module(filename: str) -> None:
    """Tell ``inspect`` that a cell's file is no module's. It finds that out itself, but only by
    walking all of ``sys.modules`` (two thousand in a grading job) each time it is asked, and
    IPython asks a dozen times for every frame it shows: most of the cost of showing an error."""
    for name in (filename, os.path.normcase(os.path.abspath(filename))):
        inspect.modulesbyfile.setdefault(name, _NO_MODULE)


def cell_frames(shell: Any, tb: TracebackType | None) -> TracebackType | None:
    """A traceback of only the frames of ``tb`` that run cell code, in order (None if there is none)."""
    kept = []
    while tb is not None:
        if is_cell_frame(shell, tb.tb_frame.f_code.co_filename):
            kept.append(tb)
            _of_no_module(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    chain = None
    for frame in reversed(kept):
        chain = TracebackType(chain, frame.tb_frame, frame.tb_lasti, frame.tb_lineno)
    return chain


def _chain(value: BaseException) -> Iterator[BaseException]:
    """The exceptions IPython shows before ``value``: its cause or context, theirs, and so on."""
    seen = {id(value)}
    for _ in range(_MAX_CHAIN):
        nxt = value.__cause__ or (None if value.__suppress_context__ else value.__context__)
        if nxt is None or id(nxt) in seen:
            return
        seen.add(id(nxt))
        yield nxt
        value = nxt


def learner_traceback(shell: Any, etype: type, value: BaseException, tb: TracebackType | None) -> list[str]:
    """IPython's structured traceback of an exception with every frame outside the cells left out,
    and without its rule and header lines: the cells' frames, then ``RuntimeError: <message>``.

    Chained exceptions (``raise ... from``, or raised while handling another) are shown as IPython
    shows them, each with its cell frames only.
    """
    chained = list(_chain(value))
    saved = [(exc, exc.__traceback__) for exc in chained]
    try:
        for exc, original in saved:
            exc.__traceback__ = cell_frames(shell, original)
        stb = shell.InteractiveTB.structured_traceback(etype, value, cell_frames(shell, tb), tb_offset=0)
        return [part for part in stb if not _DECORATION.match(_ANSI.sub("", part))]
    finally:
        for exc, original in saved:
            exc.__traceback__ = original


def show_learner_traceback(shell: Any, etype: type, value: BaseException, tb: TracebackType | None,
                           tb_offset: int | None = None) -> list[str]:
    """IPython's custom exception handler: show :func:`learner_traceback` where IPython shows errors."""
    sys.last_type, sys.last_value, sys.last_traceback = etype, value, tb
    stb = learner_traceback(shell, etype, value, tb)
    shell._showtraceback(etype, value, stb)
    return stb


def install(shell: Any | None = None) -> bool:
    """Show errors raised by cells of ``shell`` (the running IPython, by default) with cell frames only.

    Returns:
        Whether a shell was found (outside IPython nothing changes).
    """
    shell = shell or _shell()
    if shell is None or not hasattr(shell, "set_custom_exc"):
        return False
    # BaseException: pytest's failures (``pytest.raises`` in a cell) are not Exceptions. IPython
    # handles SystemExit before it looks here.
    shell.set_custom_exc((BaseException,), show_learner_traceback)
    return True

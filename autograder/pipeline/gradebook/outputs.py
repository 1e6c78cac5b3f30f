"""A graded cell's outputs as the learner reads them: its error once, from the cell's frames.

The sandbox runs a cell in an IPython shell and reports what it printed and the exception it ended
with. IPython prints the traceback into what the cell printed, so a notebook built from the report
shows the error twice — the printed traceback (through torch's internals, with the paths of the
grading machine) and the error output — and, a shell that keeps no history numbering every cell
``In[1]``, under the wrong number. :func:`cell_outputs` gives the outputs a notebook should hold:
the printed text without the traceback, then one error output whose traceback is the cells'
frames (``Cell In[n]``) and ``Name: message``, numbered as the cell.

Used on autograded notebooks by the feedback (:class:`autograder.pipeline.gradebook.feedback.ReadableErrors`),
and meant for the grader to call where it turns a sandbox report into notebook outputs.
"""

from __future__ import annotations

import re

import nbformat

ANSI = re.compile(r"\x1b\[[0-9;]*m")
RULE = re.compile(r"^-{20,}\s*$")
HEADER = re.compile(r"^(?P<ename>\S+)\s+Traceback \(most recent call last\)\s*$")
# The first line of a frame, as IPython prints it: a cell's, or a file's (a library's).
CELL_FRAME = re.compile(r"^(Cell In\[(?P<number>\d+)\]|File <ipython-input-(?P<input>\d+)-[0-9a-f]+>)")
FILE_FRAME = re.compile(r"^File \S")
# The lines inside a frame: its numbered source lines, the arrow, elisions, blank lines.
FRAME_BODY = re.compile(r"^(\s|-+>|\[\.\.\. skipping|$)")


def _plain(line: str) -> str:
    return ANSI.sub("", line)


def learner_lines(traceback: list[str] | str) -> list[str]:
    """The lines of a traceback to show a learner: the cells' frames and every exception line, IPython's
    rule and headers and the frames of files (torch's, the grader's) left out."""
    text = traceback if isinstance(traceback, str) else "\n".join(traceback)
    kept: list[str] = []
    in_frame = keep_frame = False
    for line in text.splitlines():
        plain = _plain(line)
        if CELL_FRAME.match(plain) or FILE_FRAME.match(plain):
            in_frame, keep_frame = True, bool(CELL_FRAME.match(plain))
        elif in_frame and FRAME_BODY.match(plain):
            pass
        else:
            in_frame = False
            if RULE.match(plain) or HEADER.match(plain):
                continue
        if not in_frame or keep_frame:
            kept.append(line)
    while kept and not _plain(kept[0]).strip():
        kept.pop(0)
    return kept


def split_printed_traceback(printed: str, ename: str) -> tuple[str, str]:
    """Split what a cell printed into its own text and the traceback IPython printed for its error
    (``ename``), which ends the printed text; ``(printed, "")`` when there is none.

    The traceback starts at IPython's rule and header, or (as :mod:`autograder.engine.tracebacks` prints it)
    at the first cell frame, and names ``ename`` at the start of a line further down.
    """
    lines = printed.splitlines(keepends=True)
    plain = [_plain(line) for line in lines]
    for start, line in enumerate(plain):
        opens = (
            (RULE.match(line) and start + 1 < len(plain) and HEADER.match(plain[start + 1]))
            or HEADER.match(line)
            or CELL_FRAME.match(line)
        )
        if opens and re.search(rf"^{re.escape(ename)}(:|$)", "".join(plain[start:]), re.M):
            return "".join(lines[:start]), "".join(lines[start:])
    return printed, ""


def renumber(lines: list[str], number: int | None) -> list[str]:
    """The first cell frame (the cell that ran) labelled ``Cell In[number]``."""
    if number is None:
        return lines
    for k, line in enumerate(lines):
        match = CELL_FRAME.match(_plain(line))
        if match:
            lines = list(lines)
            lines[k] = CELL_FRAME.sub(f"Cell In[{number}]", _plain(line), count=1)
            break
    return lines


def error_output(ename: str, evalue: str, traceback: list[str] | str = "", number: int | None = None
                 ) -> nbformat.NotebookNode:
    """An error output whose traceback shows the cells' frames, then ``ename: evalue``, once."""
    lines = renumber(learner_lines(traceback), number)
    last = f"{ename}: {evalue}" if evalue else ename
    message = "\n".join(_plain(line) for line in lines)
    if last not in message:
        lines = [*lines, *([""] if lines else []), last]
    return nbformat.NotebookNode(output_type="error", ename=ename, evalue=evalue, traceback=lines)


def cell_outputs(outputs: list[nbformat.NotebookNode], number: int | None = None) -> list[nbformat.NotebookNode]:
    """One cell's notebook outputs with its error shown once (see the module's docstring).

    A stream that ends with the traceback IPython printed for the cell's error loses it (and is
    dropped when nothing else is left); the error output gets it, reduced to :func:`learner_lines`.
    """
    errors = [output for output in outputs if output.get("output_type") == "error"]
    if not errors:
        return list(outputs)
    error = errors[-1]
    printed_traceback: list[str] = []
    result = []
    for output in outputs:
        if output.get("output_type") == "stream" and output.get("name") in ("stdout", "stderr"):
            own, traceback = split_printed_traceback(output.get("text", ""), error["ename"])
            if traceback:
                printed_traceback = traceback.splitlines()
                if not own.strip():
                    continue
                output = nbformat.NotebookNode({**output, "text": own})
        if output is error:
            traceback = error.get("traceback") or []
            # Keep the richer of the two: the error's own traceback, or the one IPython printed.
            if len(learner_lines(printed_traceback)) > len(learner_lines(traceback)):
                traceback = printed_traceback
            output = error_output(error["ename"], error.get("evalue", ""), traceback, number)
        elif output.get("output_type") == "error":
            continue
        result.append(output)
    return result

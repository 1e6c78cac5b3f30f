"""Limits on untrusted input: what a class upload may hold before any of it is parsed or kept.

A notebook is read in three bounded steps: its size is checked before its bytes are read (a file
on disk by ``stat``, an archive member by copying at most the limit and stopping there); its JSON
nesting is measured on the bytes, without recursion, before ``json.loads`` sees them (Python's
JSON decoder recurses and dies on deep input); the number of cells and the size of its stored
outputs are checked on the parsed notebook. A refusal is a :class:`Refused` with a reason an
instructor can read, never a traceback.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from itertools import accumulate
from pathlib import Path
from typing import IO, TYPE_CHECKING

if TYPE_CHECKING:
    import nbformat

MIB = 1024 * 1024
CHUNK = MIB

# A JSON string with its escapes; possessive, so a long string costs linear time.
_STRING = re.compile(rb'"(?:[^"\\]++|\\.)*+"', re.DOTALL)
_NOT_BRACKETS = bytes(b for b in range(256) if b not in b"[]{}")
_OPENERS = frozenset(b"[{")


class Refused(Exception):
    """An input over one of its limits, or unreadable; ``str()`` is the reason to record."""


@dataclass(frozen=True)
class Bounds:
    """Limits on what collection and grading read from a submission.

    Attributes:
        notebook_bytes: Size of one notebook (an archive member once unpacked).
        total_bytes: Size of all members of one archive once unpacked.
        members: Number of members of one archive.
        depth: JSON nesting depth of a notebook (a course notebook nests 7 deep).
        cells: Cells in a notebook (a chapter has under 100).
        output_bytes: Stored outputs of a notebook; over it they are dropped (grading reruns the
            code, so it never needs them) and the notebook is graded from its code.
    """

    notebook_bytes: int = 16 * MIB
    total_bytes: int = 1024 * MIB
    members: int = 10_000
    depth: int = 64
    cells: int = 2_000
    output_bytes: int = 4 * MIB

    @classmethod
    def option_names(cls) -> list[str]:
        """The limits' names (``notebook_bytes``; the option is :func:`option` of it)."""
        return [f.name for f in fields(cls)]

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ, **given: int | None) -> Bounds:
        """The defaults, overridden by ``AUTOGRAD_STATE_MAX_<FIELD>`` variables, then by ``given``.

        Raises:
            ValueError: a variable or value that is not a positive whole number.
        """
        values = {}
        for name in (f.name for f in fields(cls)):
            value = given.get(name)
            if value is None and environ.get(variable(name), "").strip():
                value = int(environ[variable(name)])
            if value is not None:
                if value <= 0:
                    raise ValueError(f"{option(name)} must be a positive whole number, not {value}")
                values[name] = value
        return cls(**values)


def option(name: str) -> str:
    """The command-line option of a limit: ``notebook_bytes`` is ``--max-notebook-bytes``."""
    return "--max-" + name.replace("_", "-")


def variable(name: str) -> str:
    """The environment variable of a limit: ``AUTOGRAD_STATE_MAX_NOTEBOOK_BYTES``."""
    return "AUTOGRAD_STATE_MAX_" + name.upper()


def size(count: int) -> str:
    """A byte count as an instructor reads it: ``16 MiB``, ``2.0 GiB``, ``900 bytes``."""
    if count >= 1024 * MIB:
        return f"{count / (1024 * MIB):.1f} GiB"
    if count >= MIB:
        return f"{count / MIB:.1f} MiB".replace(".0 MiB", " MiB")
    return f"{count} bytes"


def read_capped(stream: IO[bytes], limit: int, what: str = "the notebook") -> bytes:
    """Read ``stream`` to its end, or refuse as soon as more than ``limit`` bytes come out of it.

    Raises:
        Refused: more than ``limit`` bytes; nothing past the limit is kept.
    """
    parts, total = [], 0
    while chunk := stream.read(min(CHUNK, limit + 1 - total)):
        total += len(chunk)
        if total > limit:
            raise Refused(f"{what} is larger than {size(limit)} once unpacked (--max-notebook-bytes)")
        parts.append(chunk)
    return b"".join(parts)


def read_file(path: Path, bounds: Bounds) -> bytes:
    """The bytes of a notebook on disk, refused by size before any is read."""
    found = path.stat().st_size
    if found > bounds.notebook_bytes:
        raise Refused(f"the notebook is {size(found)}, over the limit of {size(bounds.notebook_bytes)} "
                      "(--max-notebook-bytes)")
    with path.open("rb") as handle:
        return read_capped(handle, bounds.notebook_bytes)


def nesting_depth(data: bytes) -> int:
    """How deep JSON ``data`` nests, measured without parsing it (strings skipped, no recursion)."""
    brackets = _STRING.sub(b'""', data).translate(None, _NOT_BRACKETS)
    return max(accumulate(1 if b in _OPENERS else -1 for b in brackets), default=0)


def parse(data: bytes, bounds: Bounds) -> tuple[nbformat.NotebookNode, list[str]]:
    """A notebook from untrusted bytes, within ``bounds``.

    Every field is checked before it is read: what is not an nbformat 4 notebook is refused with
    what it is instead (JSON of another kind, an nbformat 3 notebook, a cell that is not an
    object), never with a traceback.

    Returns:
        The notebook, and notes on what was changed to keep it within bounds (stored outputs
        dropped).

    Raises:
        Refused: empty, not a notebook, not nbformat 4, nested too deep, too many cells.
    """
    import nbformat

    if not data.strip():
        raise Refused("empty file")
    depth = nesting_depth(data)
    if depth > bounds.depth:
        raise Refused(f"the notebook's JSON nests {depth} levels deep, over the limit of {bounds.depth} "
                      "(--max-depth): not a notebook a learner saves")
    try:
        raw = json.loads(data)
    except (ValueError, RecursionError) as err:
        raise Refused(f"corrupt notebook: not a readable notebook ({_first_line(err)})") from None
    cells = _cells(raw)
    if len(cells) > bounds.cells:
        raise Refused(f"the notebook has {len(cells)} cells, over the limit of {bounds.cells} (--max-cells)")
    notes = []
    stored = sum(len(json.dumps(c.get("outputs", []))) for c in cells)
    if stored > bounds.output_bytes:
        for cell in cells:
            if "outputs" in cell:
                cell["outputs"] = []
        notes.append(f"its stored outputs ({size(stored)}) were dropped, over the limit of "
                     f"{size(bounds.output_bytes)} (--max-output-bytes); it is graded from its code")
    try:
        notebook = nbformat.reads(json.dumps(raw), as_version=4)
        nbformat.validate(notebook)
    except Exception as err:  # noqa: BLE001 - untrusted input: whatever nbformat raises is a refusal
        raise Refused(f"corrupt notebook: not a readable notebook ({_first_line(err)})") from None
    return notebook, notes


def _cells(raw: object) -> list[dict]:
    """The cells of a parsed notebook, once its kind and version are checked.

    Raises:
        Refused: not a JSON object, no nbformat 4 version, cells that are not a list of objects.
    """
    if not isinstance(raw, dict):
        raise Refused(f"corrupt notebook: not a readable notebook (JSON, but {_json_kind(raw)}, "
                      "not a notebook's object)")
    version = raw.get("nbformat")
    if version != 4 or isinstance(version, bool):
        if version in (1, 2, 3) and not isinstance(version, bool):
            raise Refused(f"an nbformat {version} notebook (saved by IPython before 2015, its cells in "
                          "'worksheets'): the course grades nbformat 4; open it in JupyterLab and save it again")
        found = "none" if "nbformat" not in raw else json.dumps(version)[:40]
        raise Refused(f"corrupt notebook: not a readable notebook (its nbformat version is {found}, not 4)")
    cells = raw.get("cells")
    if not isinstance(cells, list):
        found = "missing" if "cells" not in raw else _json_kind(cells)
        raise Refused(f"corrupt notebook: not a readable notebook (its cells are {found}, not a list)")
    for index, cell in enumerate(cells):
        if not isinstance(cell, dict):
            raise Refused(f"corrupt notebook: not a readable notebook (cell {index + 1} is {_json_kind(cell)}, "
                          "not an object)")
    return cells


def _json_kind(value: object) -> str:
    """``an object``, ``a list``, ``a number``, … : what a JSON value is."""
    kinds = {dict: "an object", list: "a list", str: "a string", bool: "a boolean", int: "a number",
             float: "a number"}
    return "null" if value is None else kinds.get(type(value), type(value).__name__)


def _first_line(err: BaseException) -> str:
    text = str(err).strip() or type(err).__name__
    return text.splitlines()[0][:200]


def load(path: Path, bounds: Bounds) -> tuple[nbformat.NotebookNode, list[str]]:
    """:func:`read_file` then :func:`parse`: a notebook on disk within ``bounds``."""
    return parse(read_file(path, bounds), bounds)

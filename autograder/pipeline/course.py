"""Where the course's folders are, and how nbgrader is called on them."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import nbformat

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Course:
    """The folders of one course checkout, following nbgrader's layout.

    Attributes:
        root: The course root (holds ``nbgrader_config.py``).
    """

    root: Path = ROOT

    @property
    def source(self) -> Path:
        return self.root / "notebooks"

    @property
    def release(self) -> Path:
        return self.root / "release"

    @property
    def submitted(self) -> Path:
        return self.root / "submitted"

    @property
    def autograded(self) -> Path:
        return self.root / "autograded"

    @property
    def build(self) -> Path:
        return self.root / "_build"

    @property
    def gradebook_url(self) -> str:
        """nbgrader's default gradebook: SQLite in the course root."""
        return f"sqlite:///{self.root / 'gradebook.db'}"

    def chapters(self) -> list[str]:
        """Chapter names: each folder of notebooks/ holding ``<name>/<name>.ipynb``."""
        return sorted(p.parent.name for p in self.source.glob("*/*.ipynb") if p.stem == p.parent.name)

    def source_notebook(self, chapter: str) -> Path:
        return self.source / chapter / f"{chapter}.ipynb"

    def release_notebook(self, chapter: str) -> Path:
        return self.release / chapter / f"{chapter}.ipynb"

    def nbgrader(self, *args: str, db: str | None = None, check: bool = True) -> subprocess.CompletedProcess:
        """Run one nbgrader command in the course root (the real nbgrader, as instructors run it)."""
        command = [sys.executable, "-m", "nbgrader", *args]
        if db is not None:
            command += ["--db", db]
        # nbgrader runs `alembic` from PATH when it creates a gradebook: put this environment first.
        path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
        result = subprocess.run(
            command, cwd=self.root, capture_output=True, text=True,
            env={**os.environ, "PATH": path, "PYTHONUNBUFFERED": "1"},
        )
        if check and result.returncode != 0:
            raise RuntimeError(f"nbgrader {' '.join(args)} failed:\n{result.stdout}\n{result.stderr}")
        return result


    def nbgrader_config(self, db: str | None = None):
        """The configuration nbgrader's commands read in this course: its ``nbgrader_config.py``,
        the course root and the gradebook."""
        from traitlets.config import Config
        from traitlets.config.loader import PyFileConfigLoader

        config = PyFileConfigLoader("nbgrader_config.py", path=str(self.root)).load_config() \
            if (self.root / "nbgrader_config.py").exists() else Config()
        config.CourseDirectory.root = str(self.root)
        if db is not None:
            config.CourseDirectory.db_url = db
        return config

    def run_converter(self, name: str, assignment: str, db: str | None = None, student: str = "*",
                      each: Callable[[], None] | None = None, **traits) -> None:
        """Run one of nbgrader's converters in this process, as its command would
        (``GenerateAssignment`` is ``nbgrader generate_assignment``), without a new interpreter.

        Args:
            name: The converter (``GenerateAssignment``, ``GenerateFeedback``).
            assignment: The assignment (chapter).
            db: Gradebook URL (nbgrader's default for the course when None).
            student: The student id (all: ``*``).
            each: Called after each student's (or the assignment's) conversion.
            traits: Converter settings, e.g. ``force=True``.

        Raises:
            RuntimeError: nbgrader failed; the message carries its log.
        """
        import logging

        from nbgrader import converters
        from nbgrader.coursedir import CourseDirectory
        from nbgrader.utils import capture_log

        config = self.nbgrader_config(db)
        coursedir = CourseDirectory(config=config)
        coursedir.assignment_id, coursedir.student_id = assignment, student
        converter = getattr(converters, name)(coursedir=coursedir, config=config)
        for trait, value in traits.items():
            setattr(converter, trait, value)
        if each is not None:
            converter.post_convert_hook = lambda **_: each()
        converter.log.setLevel(logging.WARNING)
        # What nbgrader logs is captured for the error below, not printed as it comes: a failure is
        # told once, in its first line.
        propagate, converter.log.propagate = converter.log.propagate, False
        # nbgrader runs `alembic` from PATH when it creates a gradebook: put this environment first.
        path = os.environ.get("PATH", "")
        os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), path])
        try:
            outcome = capture_log(converter)
        finally:
            os.environ["PATH"] = path
            converter.log.propagate = propagate
        if not outcome["success"]:
            log = outcome.get("log", "")
            raised = [line.strip() for line in log.splitlines()
                      if re.match(r"\s*[A-Za-z_][\w.]*(Error|Exception|NotFound): ", line)]
            cause = f" {raised[-1]}" if raised else ""  # the exception the log's last traceback ends with
            raise RuntimeError(f"nbgrader {name} {assignment} failed:{cause}\n{log}\n{outcome.get('error', '')}")


def read_notebook(path: Path) -> nbformat.NotebookNode:
    """Read a notebook, with a clear error for a file that is not one."""
    import nbformat  # here, not at the top: the command line's --help must not pay for it

    try:
        return nbformat.read(path, as_version=4)
    except (json.JSONDecodeError, nbformat.reader.NotJSONError, KeyError, UnicodeDecodeError) as err:
        raise ValueError(f"{path}: not a readable notebook ({err})") from err


def nbgrader_meta(cell: nbformat.NotebookNode) -> dict:
    """The cell's nbgrader metadata, or an empty dict.

    A submission is untrusted: metadata that is not an object counts as none, and a grade id that
    is not a string as no grade id (nbgrader refuses both; reconciliation then finds the cell by its
    place).
    """
    metadata = cell.get("metadata")
    meta = metadata.get("nbgrader") if isinstance(metadata, dict) else None
    if not isinstance(meta, dict):
        return {}
    if "grade_id" in meta and not isinstance(meta["grade_id"], str):
        return {k: v for k, v in meta.items() if k != "grade_id"}
    return meta


def is_test_cell(cell: nbformat.NotebookNode) -> bool:
    """A locked, graded, non-answer code cell: what nbgrader calls an autograder test cell."""
    meta = nbgrader_meta(cell)
    return cell.cell_type == "code" and bool(meta.get("grade")) and not meta.get("solution")


def is_answer_cell(cell: nbformat.NotebookNode) -> bool:
    return bool(nbgrader_meta(cell).get("solution"))

"""The learner's installation: a wheel that carries the checks a learner runs and nothing more.

A learner's kernel needs the observing side of every exercise (``autograder`` without the
instructor pipeline), the figures (``autograd_figures``) and, for the visible checks, their keys as
data (``autograder/visible/<assignment>.json``: the inputs the visible checks use, what the reference
gives on them, the misconceptions' predictions; the answers to value questions as digests; nothing
for a closed-book companion but the form its functions must give). It carries no ``answer_key``:
no reference answer, no model of a mistake, no hidden input. The site offers it beside the
notebooks (``autograd-state book``); ``tests/pipeline/site/test_kit.py`` checks what it holds.
"""

from __future__ import annotations

import base64
import hashlib
import io
import zipfile
from pathlib import Path

import autograd_figures
import autograder
from autograder.pipeline.course import Course

NAME = "autograd_state_learner"
VERSION = "0.1.0"
# What the chapters' cells import beside the course's packages (the capstone's tests use pytest).
REQUIRES = ("torch==2.13.0", "numpy>=1.26,<3", "matplotlib>=3.9,<4", "ipywidgets>=8.1,<9", "ipython>=8",
            "pytest>=8,<10")
DATE = (2026, 1, 1, 0, 0, 0)  # fixed, so that the same sources make the same bytes
# The instructor pipeline; and the site's in-page explorer, whose script works the stride rules out.
LEFT_OUT = ("pipeline", "__pycache__", "static")


def wheel_name() -> str:
    return f"{NAME}-{VERSION}-py3-none-any.whl"


def visible_keys(course: Course) -> dict[str, str]:
    """Each assignment's visible keys as the JSON the wheel ships, by file name."""
    from answer_key.keys import visible_keys as computed
    from autograder.engine.gradeid import module_of
    from autograder.judging import keys_to_json

    return {f"{module_of(a)}.json": keys_to_json(computed(a)) for a in course.chapters()}


def _package_files(package: Path) -> list[Path]:
    return sorted(p for p in package.rglob("*") if p.is_file() and not any(part in LEFT_OUT for part in
                  p.relative_to(package).parts) and p.suffix in (".py", ".js", ".css"))


def build_kit(course: Course, folder: Path) -> Path:
    """Write the learner's wheel into ``folder``; returns its path."""
    files: dict[str, bytes] = {}
    for module in (autograder, autograd_figures):
        package = Path(module.__file__).parent
        for path in _package_files(package):
            files[f"{package.name}/{path.relative_to(package).as_posix()}"] = path.read_bytes()
    for name, text in visible_keys(course).items():
        files[f"autograder/visible/{name}"] = text.encode()
    info = f"{NAME}-{VERSION}.dist-info"
    files[f"{info}/METADATA"] = ("Metadata-Version: 2.1\n"
                                 f"Name: {NAME.replace('_', '-')}\nVersion: {VERSION}\n"
                                 "Summary: Autograd State, the learner's checks (no answer key)\n"
                                 "Requires-Python: >=3.11\n"
                                 + "".join(f"Requires-Dist: {r}\n" for r in REQUIRES)).encode()
    files[f"{info}/WHEEL"] = (b"Wheel-Version: 1.0\nGenerator: autograd-state\nRoot-Is-Purelib: true\n"
                              b"Tag: py3-none-any\n")
    files[f"{info}/top_level.txt"] = b"autograd_figures\nautograder\n"
    record = "".join(f"{name},sha256={_digest(data)},{len(data)}\n" for name, data in sorted(files.items()))
    files[f"{info}/RECORD"] = (record + f"{info}/RECORD,,\n").encode()
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as wheel:
        for name, data in sorted(files.items()):
            entry = zipfile.ZipInfo(name, date_time=DATE)
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / wheel_name()
    data = buffer.getvalue()
    if not path.exists() or path.read_bytes() != data:
        path.write_bytes(data)
    return path


def _digest(data: bytes) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

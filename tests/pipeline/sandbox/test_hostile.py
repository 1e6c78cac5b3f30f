"""Hostile submissions graded by the real command: none earns a point it did not answer for, the
students graded before and after keep their grades, and nothing any of them started outlives grading.

Each attack is a real submission of Chapter 1 whose answers are wrong (the student edition's stubs
and a catalogued wrong answer) plus the attack; it must not earn more than the same answers without
the attack (the baseline student). The class also holds honest students, graded before
the attackers (their names sort first) and after them.
"""

from __future__ import annotations

import csv
import fcntl
import html
import json
import pwd
from pathlib import Path

import pytest
from nbgrader.api import Gradebook

from autograder.engine.cases import exercises
from autograder.pipeline.course import ROOT, Course, nbgrader_meta
from autograder.pipeline.grading.grade import scores
from autograder.pipeline.grading.sandboxed import grade_chapter
from autograder.pipeline.sandbox.confine import USER_PREFIX, Limits, is_root, processes_of
from autograder.pipeline.site.release import release
from tests.catalog.views import RIGHT, WRONG
from tests.conftest import copy_course
from tests.submissions import edit_cell, submit

pytestmark = [
    pytest.mark.nbgrader,
    pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)"),
]
CHAPTER = "views"
LIMITS = Limits(wall=25, cpu=15, probe=10, flood=8 * 2**20)
WRONG_STRIDES = WRONG["views-strides"][1][1]

# At the moment the visible check runs, a daemon forked from the probe asks the grader for the
# hidden check's report pipe and writes a perfect observation of a right answer there (and the probe
# then ends its own process, or goes on).
FORGES_LATER = """
import os, sys, time
import autograder.engine.observe as observing
from autograder.engine import channel
from autograder.engine.cases import lookup
from autograder.pipeline.sandbox import wire

RIGHT = {"contiguous": (8, 1), "transpose": (1, 8), "every_other_column": (8, 2), "row_block": (8, 1),
         "expanded": (0, 8, 1)}
_honest = observing.observe_cell


def _forging(exercise, answer, seeds):
    frame = sys._getframe()
    while frame is not None and frame.f_code.co_name != "_report_probe":
        frame = frame.f_back
    if frame is not None and exercise.grade_id == "views-strides" and not frame.f_locals["step"].hidden:
        control = frame.f_locals["control"]
        key = frame.f_locals["step"].key + "-hidden"
        perfect = _honest(exercise, RIGHT, observing.seeds_for(exercise, True, frame.f_locals["step"].seed))
        if os.fork() == 0:
            pipe, _ = channel.open_channel(control, key)
            channel.write_report(pipe, wire.probe_line(wire.ProbeReport(key, perfect)))
            os._exit(0)
        time.sleep(0.5)
        if {exit}:
            os._exit(0)
    return _honest(exercise, answer, seeds)


observing.observe_cell = _forging
"""

# Each attack runs in the first answer cell; every other answer cell keeps its stub.
ATTACKS = {
    "input-transformer": """
ip = get_ipython()
ip.input_transformers_post.append(lambda lines: ["pass\\n"])
ip.input_transformers_cleanup.append(lambda lines: ["pass\\n"])
""",
    "pre-run-cell-hook": """
import re


def _answer_from_test_cell(info):
    for grade_id, name in re.findall(r'grade\\("([^"]+)",\\s*(\\w+)', info.raw_cell or ""):
        from answer_key.keys import key_of
        from autograder.engine.cases import lookup

        exercise = lookup(grade_id)
        get_ipython().user_ns[name] = key_of(exercise).reference


get_ipython().events.register("pre_run_cell", _answer_from_test_cell)
""",
    "always-equal": """
class Yes(tuple):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = tuple.__hash__


class YesStr(str):
    __eq__ = Yes.__eq__
    __ne__ = Yes.__ne__
    __hash__ = str.__hash__


class AlwaysDict(dict):
    def __getitem__(self, key):
        return Yes()


STRIDES = AlwaysDict(contiguous=Yes(), transpose=Yes(), every_other_column=Yes(), row_block=Yes(), expanded=Yes())
CLASSIFY = {k: YesStr("view") for k in ["unflatten", "index_select", "broadcast_to", "repeat", "ravel", "diag",
                                        "view_dtype", "flip", "reshape_as", "atleast_3d"]}
""",
    "gradebook-write": """
import glob
import os
import sqlite3
from pathlib import Path

candidates = set(glob.glob("/**/gradebook.db", recursive=False))
here = Path.cwd()
for folder in [here, *here.parents]:
    candidates.update(str(p) for p in folder.glob("gradebook.db"))
candidates.add("{gradebook}")
for path in candidates:
    try:
        db = sqlite3.connect(path)
        db.execute("UPDATE grade SET auto_score = 1000, manual_score = 1000")
        db.commit()
        print("WROTE", path)
    except Exception as err:
        print("refused", path, type(err).__name__)
""",
    "new-session-daemon": """
import os
import subprocess
import sys

subprocess.Popen([sys.executable, "-c", "import time; time.sleep(900)"], start_new_session=True)
subprocess.Popen([sys.executable, "-c", "import os, time\\nif os.fork() == 0:\\n    os.setsid()\\n    time.sleep(900)"],
                 start_new_session=True)
""",
    "patched-showtraceback": """
ip = get_ipython()
ip.showtraceback = lambda *args, **kwargs: None
ip._showtraceback = lambda *args, **kwargs: None
""",
    "patched-checks-and-torch": """
import builtins

import torch

import autograder
import autograder.engine.values as values

autograder.grade = lambda *args, **kwargs: None
values.validate = lambda *args, **kwargs: None
values.equal = values.close = lambda *args, **kwargs: True
torch.Tensor.__eq__ = lambda self, other: True
builtins.isinstance = lambda *args: True
builtins.AssertionError = type("Swallowed", (Exception,), {})
""",
    "reads-instructor-source": """
import json
from pathlib import Path

for path in ["{source}", "{checkout}/notebooks/views/views.ipynb"]:
    try:
        for cell in json.loads(Path(path).read_text())["cells"]:
            if "BEGIN SOLUTION" in "".join(cell["source"]):
                exec("".join(cell["source"]))
    except Exception:
        pass
""",
    "os-exit": "import os\nos._exit(0)",
    "segfault": "import ctypes\nctypes.string_at(0)",
    "infinite-loop": "while True:\n    pass",
    "ignores-sigint": "import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile 1:\n    time.sleep(1)",
    "megabytes-of-output": "import sys\nfor _ in range(400):\n    sys.stdout.write('x' * 100_000)\n",
    "kills-everything": """
import os
import signal

for pid in (-1, 1, os.getppid()):
    try:
        os.kill(pid, signal.SIGKILL)
    except OSError:
        pass
""",
    "forges-after-the-probe": FORGES_LATER.replace("{exit}", "False"),
    "ends-the-probe-then-forges": FORGES_LATER.replace("{exit}", "True"),
    "forged-report": """
import json
import os

strides = {"t": "tuple", "v": [{"t": "int", "v": "8"}, {"t": "int", "v": "1"}]}
fake = json.dumps({"probe": "views-strides-tests", "observation": {
    "points": {k: [{"value": strides, "raised": None, "unanswered": False}] for k in ("contiguous", "transpose")},
    "missing": None, "rejected": None, "unfinished": None}})
for fd in range(3, 64):
    try:
        os.write(fd, (fake + "\\n").encode())
    except OSError:
        pass
""",
}


@pytest.fixture(scope="module")
def graded(tmp_path_factory) -> tuple[Course, dict, list]:
    course = copy_course(tmp_path_factory.mktemp("hostile"))
    release(course)
    right = {g: RIGHT[g][0][1] for g in exercises(CHAPTER)}
    submit(course, CHAPTER, "a-honest", right)
    submit(course, CHAPTER, "z-honest", right)
    submit(course, CHAPTER, "m-baseline", {"views-strides": WRONG_STRIDES})
    gradebook = course.root / "gradebook.db"
    source = course.source_notebook(CHAPTER)
    for name, attack in ATTACKS.items():
        code = (attack.replace("{gradebook}", str(gradebook)).replace("{source}", str(source))
                .replace("{checkout}", str(ROOT)))
        submit(course, CHAPTER, f"m-{name}", {"views-strides": code + "\n" + WRONG_STRIDES})
    tampered = submit(course, CHAPTER, "m-edited-test-cell", {"views-strides": WRONG_STRIDES})
    edit_cell(tampered, "views-strides-tests", "pass")
    deleted = submit(course, CHAPTER, "m-deleted-test-cell", {"views-strides": WRONG_STRIDES})
    edit_cell(deleted, "views-strides-tests-hidden", None)
    retyped = submit(course, CHAPTER, "m-retyped-test-cell", {"views-strides": WRONG_STRIDES})
    _retype(retyped)
    _raise_points(submit(course, CHAPTER, "m-raised-points", {"views-strides": WRONG_STRIDES}))
    outcome = grade_chapter(course, CHAPTER, limits=LIMITS, progress=False)
    return course, scores(course, CHAPTER), outcome.flags


def _retype(path) -> None:
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    for index, cell in enumerate(notebook.cells):
        if nbgrader_meta(cell).get("grade_id") == "views-strides-tests":
            notebook.cells[index] = nbformat.v4.new_markdown_cell("ok", metadata=cell.metadata)
    nbformat.write(notebook, path)


def _raise_points(path) -> None:
    import nbformat

    notebook = nbformat.read(path, as_version=4)
    for cell in notebook.cells:
        meta = nbgrader_meta(cell)
        if meta.get("grade"):
            meta["points"] = 1000
    nbformat.write(notebook, path)


def full_points() -> float:
    return float(sum(ex.points(False) + ex.points(True) for ex in exercises(CHAPTER).values()))


def test_honest_students_before_and_after_the_attackers_keep_full_points(graded) -> None:
    _, table, _ = graded
    for student in ("a-honest", "z-honest"):
        assert sum(table[student].values()) == full_points(), student


@pytest.mark.parametrize("attack", [*ATTACKS, "edited-test-cell", "deleted-test-cell", "retyped-test-cell",
                                    "raised-points"])
def test_an_attack_earns_no_point(graded, attack: str) -> None:
    """No attack earns more than the same wrong answers without it (the baseline)."""
    _, table, _ = graded
    baseline = sum(table["m-baseline"].values())
    assert baseline < full_points()
    earned = sum(table.get(f"m-{attack}", {}).values())
    assert earned <= baseline, f"{attack} earned {earned}, the same answers without it {baseline}"


def test_no_grade_above_its_cell_maximum_and_no_gradebook_write_from_a_submission(graded) -> None:
    course, _, _ = graded
    with Gradebook(course.gradebook_url) as gradebook:
        for grade_cell in gradebook.find_notebook(CHAPTER, CHAPTER).grade_cells:
            for grade in grade_cell.grades:
                assert grade.score <= grade_cell.max_score, (grade.student.id, grade_cell.name, grade.score)


def test_broken_kernels_are_recorded_with_their_reason(graded) -> None:
    course, _, flags = graded
    reasons = {f.student: f.reason for f in flags if not f.grade_id}
    assert "timed out" in reasons["m-ignores-sigint"]
    # A busy loop meets whichever bound comes first: wall clock, or CPU time on an idle machine.
    assert "timed out" in reasons["m-infinite-loop"] or "used up its CPU time" in reasons["m-infinite-loop"]
    assert "SIGSEGV" in reasons["m-segfault"]
    assert "stopped early" in reasons["m-os-exit"]
    with (course.autograded / f"{CHAPTER}-flags.csv").open() as handle:
        assert {row["student"] for row in csv.DictReader(handle)} >= {"m-segfault", "m-edited-test-cell"}


def idle_sandbox_uids() -> list[int]:
    """Sandbox users no running grader holds (another test worker may be grading right now)."""
    uids = []
    for lock in sorted(Path("/run").glob(f"{USER_PREFIX}*.lock")):
        with lock.open("a") as handle:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue
            uids.append(pwd.getpwnam(lock.stem).pw_uid)
    return uids


def test_nothing_outlives_grading(graded) -> None:
    uids = idle_sandbox_uids()
    assert uids and not [pid for uid in uids for pid in processes_of(uid)]


def test_feedback_of_an_attacker_shows_misconceptions_not_hidden_tests(graded) -> None:
    course, _, _ = graded
    course.nbgrader("generate_feedback", CHAPTER, "--force", "--student", "m-always-equal")
    page = (course.root / "feedback" / "m-always-equal" / CHAPTER / f"{CHAPTER}.html").read_text()
    assert "BEGIN HIDDEN TESTS" not in page and "hidden=True" not in page
    # Every attacker's cell ends with the baseline's wrong strides: its feedback names that mistake.
    assert "Your answer behaves as if slicing with a step left the strides as they were." in html.unescape(page)
    graded_nb = json.loads((course.autograded / "m-always-equal" / CHAPTER / f"{CHAPTER}.ipynb").read_text())
    assert graded_nb["cells"]

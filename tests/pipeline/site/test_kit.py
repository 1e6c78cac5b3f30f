"""The learner's installation carries the checks a learner runs, and no answer.

The wheel is built from this checkout; it must hold no trusted package, no instructor pipeline and
no line of any instructor solution, and, installed on its own beside torch, its visible checks
must give the verdicts the course gives: "not answered yet" for the release's stubs, full marks for
right answers, the same message for a wrong one. Its figures must answer no layout question
without asking torch."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest
import torch

from autograder.engine import cases
from autograder.pipeline.course import Course, nbgrader_meta, read_notebook
from autograder.pipeline.site.kit import build_kit
from tests.cases import solution_lines, student_edition_cells
from tests.catalog.capstone import FRAGMENTS
from tests.grading import RACING

SPLIT = [a for a in Course().chapters() if cases.exercises(a)]


@pytest.fixture(scope="module")
def kit(tmp_path_factory) -> Path:
    return build_kit(Course(), tmp_path_factory.mktemp("kit"))


@pytest.fixture(scope="module")
def installed(kit: Path, tmp_path_factory) -> Path:
    target = tmp_path_factory.mktemp("site")
    with zipfile.ZipFile(kit) as wheel:
        wheel.extractall(target)
    return target


def test_the_wheel_holds_no_answer_key_and_no_pipeline(kit: Path) -> None:
    names = zipfile.ZipFile(kit).namelist()
    assert not [n for n in names if n.startswith("answer_key/")]
    assert not [n for n in names if n.startswith("autograder/pipeline/")]
    assert {f"autograder/visible/{a.replace('-', '_')}.json" for a in SPLIT} <= set(names)


# Shorter lines (`for p in params:`) are any loop's, not an answer's.
ANSWER_LINE = 24


def test_no_assignments_checks_quote_a_line_of_its_solution(kit: Path) -> None:
    """An assignment's own checks and visible keys hold no line of its solution that its page does
    not show (a line a check shares with another chapter's driver is not that exercise's answer)."""
    wheel = zipfile.ZipFile(kit)
    quoted = {}
    for assignment in SPLIT:
        module = assignment.replace("-", "_")
        text = "\n".join(wheel.read(n).decode("utf-8", errors="replace") for n in wheel.namelist()
                         if n in (f"autograder/chapters/{module}.py", f"autograder/visible/{module}.json"))
        page = "\n".join(student_edition_cells(assignment).values()) + _page(assignment)
        quoted[assignment] = [line for line in solution_lines(assignment)
                              if len(line) >= ANSWER_LINE and line in text and line not in page]
    assert not any(quoted.values()), quoted


def _page(assignment: str) -> str:
    source = read_notebook(Course().source_notebook(assignment))
    return "\n".join(c.source for c in source.cells if "BEGIN SOLUTION" not in c.source)


def test_the_wheel_requires_whatever_a_chapters_cells_import() -> None:
    """A learner who installs the wheel can run every cell of every chapter: each module a cell
    imports is the standard library's, the wheel's own, or a distribution it requires."""
    import re

    from autograder.pipeline.site.kit import REQUIRES

    required = {re.split(r"[<>=!~ ]", r)[0].lower() for r in REQUIRES}
    # The module a distribution is imported as, where the two names differ.
    imported_as = {"ipython": "IPython", "torch": "torchgen"}
    known = required | {imported_as[d] for d in required if d in imported_as} | {"autograder", "autograd_figures"}
    found = set()
    for assignment in Course().chapters():
        for cell in read_notebook(Course().source_notebook(assignment)).cells:
            if cell.cell_type == "code":
                for names in re.findall(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w., ]+))", cell.source, re.M):
                    found |= {name.strip().split(" ")[0].split(".")[0] for name in (names[0] or names[1]).split(",")}
    assert {m for m in found if m not in sys.stdlib_module_names} <= known, found - known - set(sys.stdlib_module_names)


def test_a_companion_ships_no_expected_value(kit: Path) -> None:
    wheel = zipfile.ZipFile(kit)
    for assignment in (a for a in SPLIT if a.endswith("-closed-book")):
        keys = json.loads(wheel.read(f"autograder/visible/{assignment.replace('-', '_')}.json"))["keys"]
        for cell in keys.values():
            for key in cell.values():
                assert key["says"] == {}
                for point in key["points"]:
                    assert point["expected"]["value"] == {"t": "none"} and point["models"] == {}


def test_the_kit_ships_nothing_a_graded_check_expects(kit: Path) -> None:
    """No digest (an answer from a small set is found by trying every value against it), and no
    expected result of a check worth points whose inputs are the same on every run: what the kit
    holds of a check worth points is its results on the course's fixed inputs, which a graded run
    draws afresh."""
    from autograder.engine.draw import accepts_draw

    wheel = zipfile.ZipFile(kit)
    for assignment in SPLIT:
        keys = json.loads(wheel.read(f"autograder/visible/{assignment.replace('-', '_')}.json"))["keys"]
        assert "digest" not in json.dumps(keys), assignment
        for grade_id, exercise in cases.exercises(assignment).items():
            for case in exercise.selected(hidden=False):
                fixed = not (accepts_draw(case.inputs) or case.search or case.anchors)
                points = keys[grade_id][case.name]["points"]
                assert case.points == 0 or not fixed, (grade_id, case.name)
                if case.form is not None:
                    assert all(p["expected"]["value"] == {"t": "none"} and not p["models"] for p in points)


LEARNER = r'''
import json, linecache, sys
sys.path[:0] = [{site!r}]
sys.path.append({packages!r})
import torch  # from the environment, as a learner installs it
import autograder
assert autograder.__file__.startswith({site!r}), autograder.__file__
try:
    import answer_key
    raise SystemExit("answer_key is importable")
except ImportError:
    pass
import autograder.engine.cases
from autograder import grade

from autograder.engine.observe import resolve_answer

sent = json.loads(sys.stdin.read())
found = []
for answers in sent["runs"]:
    results = {{}}
    namespace = {{"__name__": "__main__"}}  # a notebook: the setup, then each answer in the page's order
    exec(compile(sent["setup"], "<setup>", "exec"), namespace)
    for grade_id, source in answers.items():
        name = f"<cell {{grade_id}}>"
        linecache.cache[name] = (len(source), None, source.splitlines(True), name)
        try:
            exec(compile(source, name, "exec"), namespace)
        except NotImplementedError:
            pass
        exercise = autograder.engine.cases.lookup(grade_id)
        try:
            grade(grade_id, resolve_answer(exercise.answer, namespace))
            results[grade_id] = None
        except AssertionError as err:
            results[grade_id] = str(err)
    found.append(results)
print(json.dumps(found))
'''


def setup_source(assignment: str) -> str:
    """What a chapter's kernel has run before an answer cell: its setup cell (and, in Chapter 7,
    the fragments the answers reduce)."""
    source = read_notebook(Course().source_notebook(assignment))
    cells = {nbgrader_meta(c).get("grade_id"): c.source for c in source.cells}
    extra = FRAGMENTS if assignment == "capstone" else ()
    return "\n".join(cells[g] for g in [f"{assignment}-setup", *extra])


def _in_the_kit(installed: Path, assignment: str, *runs: dict[str, str]) -> list[dict[str, str | None]]:
    """What the kit says of each answer, each run of answers in a notebook of its own (its setup,
    then the answers), all in one interpreter (importing torch is most of the cost of one)."""
    script = LEARNER.format(site=str(installed), packages=sysconfig.get_paths()["purelib"])
    sent = json.dumps({"setup": setup_source(assignment), "runs": runs})
    done = subprocess.run([sys.executable, "-I", "-S", "-c", script], input=sent, capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def kit_says(installed: Path):
    """What the kit says, per chapter, of the released notebook's answer cells, then of the
    catalogue's first right answers, then of its first wrong ones (in that order: a wrong answer
    runs after the others)."""
    said: dict[str, tuple[dict[str, str | None], ...]] = {}

    def of(assignment: str) -> tuple[dict[str, str | None], ...]:
        if assignment not in said:
            from tests.cases import catalog

            edition = student_edition_cells(assignment)
            answers = catalog(assignment)
            said[assignment] = tuple(_in_the_kit(
                installed, assignment, {g: edition[g] for g in cases.exercises(assignment)},
                {g: entries[0][1] for g, entries in answers.RIGHT.items()},
                {g: entries[0][1] for g, entries in answers.WRONG.items()}))
        return said[assignment]

    return of


@pytest.mark.parametrize("assignment", SPLIT)
def test_the_kit_says_not_answered_yet_to_the_release(kit_says, assignment: str) -> None:
    exercises = cases.exercises(assignment)
    released, _, _ = kit_says(assignment)
    assert set(released) == set(exercises)
    for grade_id, message in released.items():
        subjects = exercises[grade_id].subjects
        assert message == "\n".join(f"{s} is not answered yet." for s in subjects), (grade_id, message)


@pytest.mark.parametrize("assignment", SPLIT)
def test_the_kit_judges_as_the_course_does(kit_says, assignment: str) -> None:
    from autograder.kernel import plain, verdict
    from tests.cases import catalog, run_cell_source

    _, right, found = kit_says(assignment)
    assert all(message is None for message in right.values())
    wrong = {g: entries[0][1] for g, entries in catalog(assignment).WRONG.items()}
    namespace: dict = {"__name__": "__main__"}
    run_cell_source(setup_source(assignment), "<setup>", namespace)
    for grade_id, source in wrong.items():
        try:
            run_cell_source(source, f"<kit {grade_id}>", namespace)
        except NotImplementedError:
            pass
        from autograder.engine.observe import resolve_answer

        here = verdict(grade_id, resolve_answer(cases.lookup(grade_id).answer, namespace)).message()
        if grade_id in RACING:  # the same verdict, perhaps on another scenario
            assert (found[grade_id] is None) == (here is None), grade_id
        else:
            assert found[grade_id] == (here and plain(here)), grade_id


# ---- the figures answer no layout question -----------------------------------------------------

PROBE = Path(__file__).with_name("layout_probe.py")


def _header(t: torch.Tensor) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return tuple(t.shape), tuple(t.stride())


def layout_questions() -> list[dict]:
    """What Chapter 1's exercises ask, each with torch's answer and the ways a function could be asked it.

    ``views-reproduce`` asks for the strides of a new tensor, a transpose, a slice and an expand
    from plain integers, and ``views-can-view`` whether a view is legal; the same questions can be
    put as a shape and a chain of op texts, or to a layout object or an explorer.
    """
    fresh = torch.empty(3, 5, 7)
    rows = torch.empty(6, 10)
    column = torch.empty(10, 1)[::2]
    matrix = torch.empty(6, 4).T
    with pytest.raises(RuntimeError):
        matrix.view(2, 3, 4)  # the twin torch refuses
    return [
        {"name": "contiguous strides", "answer": fresh.stride(),
         "direct": [(tuple(fresh.shape),), tuple(fresh.shape), ("3, 5, 7",)]},
        {"name": "transpose", "answer": fresh.transpose(0, 2).stride(),
         "direct": [(*_header(fresh), 0, 2), (tuple(fresh.shape), ["transpose(0, 2)"])],
         "subjects": [_header(fresh), (*_header(fresh), 0), ("3, 5, 7",)],
         "methods": [(0, 2), ("transpose(0, 2)",)]},
        {"name": "slice", "answer": rows[:, 1:9:3].stride(),
         "direct": [(*_header(rows), 0, 1, 1, 9, 3), (tuple(rows.shape), ["[:, 1:9:3]"])],
         "subjects": [_header(rows), (*_header(rows), 0), ("6, 10",)],
         "methods": [(1, 1, 9, 3), ("[:, 1:9:3]",)]},
        {"name": "expand", "answer": column.expand(4, 5, 6).stride(),
         "direct": [(*_header(column), (4, 5, 6)), ((10, 1), ["[::2]", "expand(4, 5, 6)"])],
         "subjects": [_header(column), (*_header(column), 0)],
         "methods": [(4, 5, 6), ((4, 5, 6),)]},
        {"name": "expand a new tensor", "answer": torch.empty(5, 1).expand(4, 5, 6).stride(),
         "direct": [((5, 1), ["expand(4, 5, 6)"])],
         "subjects": [("5, 1",)], "methods": [("expand(4, 5, 6)",)]},
        {"name": "view", "answer": matrix.view(4, 2, 3).stride(),
         "direct": [(*_header(matrix), (4, 2, 3)), ((6, 4), ["T", "view(4, 2, 3)"])],
         "subjects": [_header(matrix), (*_header(matrix), 0)],
         "methods": [((4, 2, 3),), (4, 2, 3)],
         "refused": {"direct": [(*_header(matrix), (2, 3, 4)), ((6, 4), ["T", "view(2, 3, 4)"])],
                     "methods": [((2, 3, 4),), (2, 3, 4)]}},
    ]


def probe(site: Path) -> dict:
    """Run ``layout_probe.py`` on ``site``'s ``autograd_figures``, torch replaced by a stub."""
    config = {"path": [str(site), sysconfig.get_paths()["purelib"]], "package": "autograd_figures",
              "questions": layout_questions()}
    done = subprocess.run([sys.executable, "-I", "-S", str(PROBE)], input=repr(config), capture_output=True,
                          text=True, timeout=600, check=False, env={"MPLBACKEND": "Agg"})
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_the_wheels_figures_answer_no_layout_question_without_torch(installed: Path) -> None:
    """The learner's ``autograd_figures`` holds no stride, slice, expand or view-legality rule of its own.

    Every module of the extracted wheel's ``autograd_figures`` is imported in a fresh interpreter
    whose ``torch`` raises on any use, and every public function, class and class-level method is
    asked Chapter 1's questions in every form they take (the exercises' plain integers, a shape
    and op texts, a layout object or an explorer and its methods, a free function given that
    object). A function that still answers — a tuple or list literal of torch's strides in what it
    returns or holds, or a legal view accepted while its refused twin is refused — computes the
    rule itself and a learner could call it instead of working the exercise out. This fails on
    the figures as they were (``contiguous_strides``, ``Layout.transpose/slice/expand/view``,
    ``explain_view``, the chain's layout maths, the explorer); the planted module of the next
    test shows that each kind of finding is detected.
    """
    report = probe(installed)
    assert report["findings"] == [], report["findings"]
    # Not vacuous: the modules that draw layouts load without torch, and layout objects were built
    # and asked (their methods then needed torch).
    assert {"autograd_figures.layout", "autograd_figures.chain", "autograd_figures.figures",
            "autograd_figures.explorer"} <= set(report["imported"]), report["failed"]
    assert any(s.startswith("autograd_figures.layout.Layout(") for s in report["subjects"])
    assert report["calls"] > 1000 and report["returned"] > 100


PLANTED = '''
import math


def strides(shape):
    out = [1] * len(shape)
    for d in range(len(shape) - 2, -1, -1):
        out[d] = out[d + 1] * shape[d + 1]
    return tuple(out)


class Header:
    def __init__(self, shape, stride, offset=0):
        self.shape, self.stride, self.offset = tuple(shape), tuple(stride), offset

    def transpose(self, a, b):
        shape, stride = list(self.shape), list(self.stride)
        shape[a], shape[b], stride[a], stride[b] = shape[b], shape[a], stride[b], stride[a]
        return Header(shape, stride, self.offset)


def can_view(shape, stride, new):
    if math.prod(shape) != math.prod(new):
        return False
    v, base, old_n, new_n = len(new) - 1, stride[-1], 1, 1
    for d in range(len(shape) - 1, -1, -1):
        old_n *= shape[d]
        if d == 0 or (shape[d - 1] != 1 and stride[d - 1] != old_n * base):
            while v >= 0 and (new_n < old_n or new[v] == 1):
                new_n *= new[v]
                v -= 1
            if new_n != old_n:
                return False
            if d > 0:
                base, old_n, new_n = stride[d - 1], 1, 1
    return v == -1
'''


def test_the_probe_finds_a_rule_planted_in_the_figures(installed: Path, tmp_path: Path) -> None:
    """The probe of the test above detects each kind of answer: a returned stride tuple, one held by
    the object a method returns, and a bare legality predicate (by its twin)."""
    site = tmp_path / "site"
    shutil.copytree(installed / "autograd_figures", site / "autograd_figures")
    (site / "autograd_figures" / "planted.py").write_text(PLANTED)
    found = {(f["question"], f["call"]) for f in probe(site)["findings"]}
    assert {("contiguous strides", "autograd_figures.planted.strides"),
            ("transpose", "autograd_figures.planted.Header(...).transpose"),
            ("view", "autograd_figures.planted.can_view")} <= found, found


def test_the_wheel_leaves_the_in_page_explorer_to_the_site(kit: Path, installed: Path) -> None:
    """The in-page explorer's script works every stride rule out in JavaScript: the wheel leaves it
    out, and a learner's notebook shows where to find it instead of failing."""
    assert not [n for n in zipfile.ZipFile(kit).namelist() if n.startswith("autograd_figures/static/")]
    script = (f"import sys; sys.path[:0] = [{str(installed)!r}, {sysconfig.get_paths()['purelib']!r}]\n"
              "from autograd_figures.page import static_explorer\n"
              "import autograd_figures\n"
              f"assert autograd_figures.__file__.startswith({str(installed)!r})\n"
              "print(static_explorer('3, 6')._repr_html_())")
    done = subprocess.run([sys.executable, "-I", "-S", "-c", script], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "runs on the course's site" in done.stdout and "StrideExplorer" not in done.stdout

"""The learner's installation carries the checks a learner runs, and no answer.

The wheel is built from this checkout; it must hold no trusted package, no instructor pipeline and
no line of any instructor solution, and, installed on its own beside torch, its visible checks
must give the verdicts the course gives: "not answered yet" for the release's stubs, full marks for
right answers, the same message for a wrong one."""

from __future__ import annotations

import json
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from autograder import cases
from autograder.pipeline.course import Course
from autograder.pipeline.kit import build_kit
from tests.cases import solution_lines, student_edition_cells

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


def test_the_wheel_quotes_no_line_of_any_solution(kit: Path) -> None:
    wheel = zipfile.ZipFile(kit)
    text = "\n".join(wheel.read(n).decode("utf-8", errors="replace") for n in wheel.namelist())
    quoted = {a: [line for line in solution_lines(a) if line in text] for a in SPLIT}
    assert not any(quoted.values()), quoted


def test_a_companion_ships_no_expected_value(kit: Path) -> None:
    wheel = zipfile.ZipFile(kit)
    for assignment in (a for a in SPLIT if a.endswith("-closed-book")):
        keys = json.loads(wheel.read(f"autograder/visible/{assignment.replace('-', '_')}.json"))["keys"]
        for cell in keys.values():
            for key in cell.values():
                assert key["says"] == {}
                for point in key["points"]:
                    assert point["expected"]["value"] == {"t": "none"} and point["models"] == {}


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
from autograder import grade

results = {{}}
for grade_id, source in json.loads(sys.stdin.read()).items():
    name = f"<cell {{grade_id}}>"
    linecache.cache[name] = (len(source), None, source.splitlines(True), name)
    namespace = {{"__name__": "__main__", "torch": torch}}
    try:
        exec(compile(source, name, "exec"), namespace)
    except NotImplementedError:
        pass
    exercise = autograder.cases.lookup(grade_id)
    from autograder.observe import resolve_answer
    try:
        grade(grade_id, resolve_answer(exercise.answer, namespace))
        results[grade_id] = None
    except AssertionError as err:
        results[grade_id] = str(err)
print(json.dumps(results))
'''


def _in_the_kit(installed: Path, answers: dict[str, str]) -> dict[str, str | None]:
    script = LEARNER.format(site=str(installed), packages=sysconfig.get_paths()["purelib"])
    done = subprocess.run([sys.executable, "-S", "-c", script], input=json.dumps(answers), capture_output=True,
                          text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("assignment", SPLIT)
def test_the_kit_says_not_answered_yet_to_the_release(installed: Path, assignment: str) -> None:
    edition = student_edition_cells(assignment)
    exercises = cases.exercises(assignment)
    found = _in_the_kit(installed, {g: edition[g] for g in exercises})
    for grade_id, message in found.items():
        subjects = exercises[grade_id].subjects
        assert message == "\n".join(f"`{s}` is not answered yet." for s in subjects), (grade_id, message)


@pytest.mark.parametrize("assignment", SPLIT)
def test_the_kit_judges_as_the_course_does(installed: Path, assignment: str) -> None:
    from autograder.kernel import verdict
    from tests.cases import catalog, run_cell_source

    answers = catalog(assignment)
    right = {g: entries[0][1] for g, entries in answers.RIGHT.items()}
    wrong = {g: entries[0][1] for g, entries in answers.WRONG.items()}
    assert all(message is None for message in _in_the_kit(installed, right).values())
    found = _in_the_kit(installed, wrong)
    for grade_id, source in wrong.items():
        namespace: dict = {"__name__": "__main__"}
        try:
            run_cell_source(source, f"<kit {grade_id}>", namespace)
        except NotImplementedError:
            pass
        from autograder.observe import resolve_answer

        here = verdict(grade_id, resolve_answer(cases.lookup(grade_id).answer, namespace)).message()
        assert found[grade_id] == here, grade_id

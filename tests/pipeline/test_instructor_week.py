"""An instructor's week, as random sequences of commands on a class of three and two chapters.

A Hypothesis ``RuleBasedStateMachine`` runs ``collect`` (folders, plain archives, the class's LMS
downloads — Canvas or Moodle, with its roster —, resubmissions within a download and across
downloads, late and corrupt files, a folder named with a space), ``grade`` (everyone, ``--student``
— someone without a submission among them —, ``--force``), ``feedback``, ``report`` and
``export``, each through the command line and graded by the real sandboxed grader. A model follows
what each learner handed in and what was last graded. After every step:

- no record is lost: the collect record holds exactly the rows the model expects (a refusal until
  a later submission of that learner is admitted; a file's row until that file is read again), and
  the flags of every graded learner are in the flags CSV;
- every learner on the roster is on the chapter's roll exactly once, in the state the model gives:
  graded, untouched, refused (why), collected but not graded yet, missing;
- every score in the gradebook is the score a fresh, full grading of that same notebook gives (the
  oracle: each answer graded from scratch in a course of its own);

and each command's own output (its summary, the report's learners, the export's rows, the feedback
pages) lists every learner once, with that state.

The zygotes start once for the whole test (their start-up is what a grading run costs most); each
run's jobs still carry that run's limits and plans.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import shutil
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule, run_state_machine_as_test
from nbgrader.api import Gradebook

from autograder.engine.cases import exercises
from autograder.pipeline.cli import main
from autograder.pipeline.course import Course
from autograder.pipeline.gradebook import roll as rolls
from autograder.pipeline.grading import sandboxed
from autograder.pipeline.grading.grade import scores
from autograder.pipeline.intake.collect import UNTOUCHED
from autograder.pipeline.sandbox.confine import Limits, is_root
from autograder.pipeline.sandbox.pool import Pool
from autograder.pipeline.site.release import release
from tests.catalog import detach_closed_book, views_closed_book
from tests.conftest import COURSE_FILES, ROOT

pytestmark = [pytest.mark.nbgrader, pytest.mark.skipif(
    not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")]

# Two of the smallest assignments, the quickest to grade (about a second for three submissions):
# one answer cell each, one locked cell before it.
CATALOGS = {"detach-closed-book": detach_closed_book, "views-closed-book": views_closed_book}
CHAPTERS = list(CATALOGS)
KINDS = ("right", "wrong", "untouched")
ROSTER = {  # student id: (full name, Canvas user id, Moodle participant id, Moodle ID number)
    "ada": ("Ada Lovelace", 4001, 5001, "U-1"),
    "bob": ("Bob Smith", 4002, 5002, "U-2"),
    "cy": ("Cy Young", 4003, 5003, "U-3"),
}
STEPS = 10
EXAMPLES = 12
# A download: per learner of some of the class, their files in the order they uploaded them.
DOWNLOADS = st.dictionaries(st.sampled_from(sorted(ROSTER)),
                            st.lists(st.sampled_from([*KINDS, "corrupt"]), min_size=1, max_size=2),
                            min_size=1, max_size=3)
explored: dict[str, int] = {}  # commands run, by name, and sequences


def answers(chapter: str, kind: str) -> dict[str, str]:
    catalog = CATALOGS[chapter]
    if kind == "right":
        return {g: catalog.RIGHT[g][0][1] for g in exercises(chapter)}
    if kind == "wrong":
        return {g: catalog.WRONG[g][0][1] for g in exercises(chapter)}
    return {}


def notebook_text(course: Course, chapter: str, kind: str) -> str:
    """The bytes a learner hands in: the student edition with the answers of ``kind``; "corrupt" is
    a truncated one."""
    notebook = json.loads(course.release_notebook(chapter).read_text())
    given = answers(chapter, "right" if kind == "corrupt" else kind)
    for cell in notebook["cells"]:
        grade_id = (cell["metadata"].get("nbgrader") or {}).get("grade_id")
        if grade_id in given:
            cell["source"] = given[grade_id]
    text = json.dumps(notebook, indent=1)
    return text[: len(text) // 2] if kind == "corrupt" else text


@pytest.fixture(scope="module")
def template(tmp_path_factory) -> Course:
    """A course with only the two chapters, released into its gradebook: each example copies it."""
    root = tmp_path_factory.mktemp("week-template")
    for name in COURSE_FILES:
        shutil.copy2(ROOT / name, root / name)
    for chapter in CHAPTERS:
        shutil.copytree(ROOT / "notebooks" / chapter, root / "notebooks" / chapter)
    shutil.copytree(ROOT / "_vendor" / "mathjax", root / "_vendor" / "mathjax")
    course = Course(root)
    release(course, CHAPTERS)
    return course


@pytest.fixture(scope="module")
def shared_pool():
    """One zygote for every grading run of the module."""
    with Pool(1, Limits()) as pool:
        yield pool


class _Held:
    """Stands for :class:`Pool` in a grading run: the shared pool, told this run's limits, and left
    running at the run's end."""

    def __init__(self, pool: Pool, limits: Limits) -> None:
        pool.limits = limits
        self.pool = pool

    def __enter__(self) -> Pool:
        return self.pool

    def __exit__(self, *exc: object) -> None:
        return None


@pytest.fixture
def graded_by_the_shared_pool(shared_pool, monkeypatch):
    monkeypatch.setattr(sandboxed, "Pool", lambda workers, limits: _Held(shared_pool, limits))


@pytest.fixture(scope="module")
def oracle(template, tmp_path_factory, shared_pool) -> dict[tuple[str, str], dict[str, float]]:
    """Each answer's cell scores from a fresh, full grading in a course of its own. (Every grading run
    draws its own seed; the machine grades each answer again and again, so a score that depended on
    the draw would show as a difference from this one.)"""
    found: dict[tuple[str, str], dict[str, float]] = {}
    course = Course(tmp_path_factory.mktemp("oracle") / "course")
    shutil.copytree(template.root, course.root)
    for chapter in CHAPTERS:
        for kind in KINDS:
            path = course.submitted / kind / chapter / f"{chapter}.ipynb"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(notebook_text(course, chapter, kind))
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(sandboxed, "Pool", lambda workers, limits: _Held(shared_pool, limits))
            outcome = sandboxed.grade_chapter(course, chapter, workers=1, progress=False)
        assert sorted(outcome.graded) == sorted(KINDS)
        for kind, cells in scores(course, chapter).items():
            found[(chapter, kind)] = cells
        assert sum(found[(chapter, "right")].values()) > sum(found[(chapter, "wrong")].values()), chapter
    return found


@dataclass
class Learner:
    """What the model knows of one learner in one chapter."""

    submitted: str | None = None  # the kind of the notebook in submitted/
    graded: str | None = None  # the kind of the notebook last graded
    refused: bool = False  # a refusal of theirs stands in the collect record


@dataclass
class Model:
    chapters: dict[str, dict[str, Learner]] = field(default_factory=dict)
    rows: dict[str, dict[str, tuple[str, str]]] = field(default_factory=dict)  # chapter: file -> (action, student)

    def state(self, chapter: str, student: str) -> str:
        learner = self.chapters[chapter][student]
        if learner.submitted is None:
            return rolls.REFUSED if learner.refused else rolls.MISSING
        if learner.graded != learner.submitted:
            return rolls.NOT_GRADED_YET
        return rolls.UNTOUCHED_STATE if learner.submitted == "untouched" else rolls.GRADED


class InstructorWeek(RuleBasedStateMachine):
    """See the module's docstring."""

    template: Course
    oracle: dict
    workspace: Path

    def __init__(self) -> None:
        super().__init__()
        explored["sequences"] = explored.get("sequences", 0) + 1
        root = self.workspace / f"week{explored['sequences']}"
        shutil.copytree(self.template.root, root)
        self.course = Course(root)
        self.model = Model({c: {s: Learner() for s in ROSTER} for c in CHAPTERS}, {c: {} for c in CHAPTERS})
        self.downloads = 0
        self.file_id = 7000
        self.lms = "canvas"

    # ------------------------------------------------------------------------------ commands
    def run(self, *arguments: str) -> tuple[int, str]:
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["--root", str(self.course.root), *arguments])
        explored[arguments[0]] = explored.get(arguments[0], 0) + 1
        assert "Traceback" not in err.getvalue(), err.getvalue()
        return code, out.getvalue()

    @initialize(lms=st.sampled_from(["canvas", "moodle"]), chapter=st.sampled_from(CHAPTERS), files=DOWNLOADS)
    def enrol_and_collect(self, lms: str, chapter: str, files: dict[str, list[str]]) -> None:
        """The class list in nbgrader's gradebook, as ``nbgrader db student import`` makes it, with the
        identifiers of the course's LMS; then the week's first download, from that LMS."""
        self.lms = lms
        with Gradebook(self.course.gradebook_url) as gradebook:
            for student, (name, canvas, _, idnumber) in ROSTER.items():
                first, last = name.split()
                email = f"{student}@example.edu" if lms == "moodle" else None
                gradebook.update_or_create_student(student, first_name=first, last_name=last, email=email,
                                                   lms_user_id=str(canvas) if lms == "canvas" else idnumber)
        self.collect(chapter, "lms", files, late=False, spaced=False)

    @rule(chapter=st.sampled_from(CHAPTERS), form=st.sampled_from(["folder", "archive", "lms"]), files=DOWNLOADS,
          late=st.booleans(), spaced=st.booleans())
    def collect(self, chapter: str, form: str, files: dict[str, list[str]], late: bool, spaced: bool) -> None:
        """A download: per learner, their files in the order uploaded (the last readable one is kept)."""
        self.downloads += 1
        source = self.course.root.parent / f"download{self.downloads}-{self.course.root.name}"
        named = self.write_download(source, chapter, form, files, late, spaced and form == "folder")
        roster = ["--roster", str(self.write_roster(chapter))] if form == "lms" else []
        code, out = self.run("collect", chapter, str(source), *roster)
        assert code == 0, out

        learners, rows = self.model.chapters[chapter], self.model.rows[chapter]
        for student, kinds in files.items():
            readable = [(k, name) for k, name in zip(kinds, named[student], strict=True) if k != "corrupt"]
            for name in named[student]:
                rows.pop(name, None)
            if readable:
                for existing in [f for f, (_, who) in rows.items() if who == student]:
                    del rows[existing]
                learners[student].submitted, learners[student].refused = readable[-1][0], False
                for _, name in readable[:-1]:
                    rows[name] = ("dropped", student)
                kept_kind, kept_name = readable[-1]
                if kept_kind == "untouched" or (late and form == "lms" and self.lms == "canvas"):
                    rows[kept_name] = ("collected", student)
            for kind, name in zip(kinds, named[student], strict=True):
                if kind == "corrupt":
                    rows[name] = ("refused", student)
                    learners[student].refused = learners[student].refused or not readable
        if spaced and form == "folder":
            rows[f"ann lee/{chapter}.ipynb"] = ("refused", "")
        self.check_summary(chapter, out)

    def write_download(self, source: Path, chapter: str, form: str, files: dict[str, list[str]], late: bool,
                       spaced: bool) -> dict[str, list[str]]:
        """Write the download; the name of each learner's files in it, in upload order."""
        named: dict[str, list[str]] = {}
        members: list[tuple[str, str, tuple]] = []
        for position, (student, kinds) in enumerate(sorted(files.items())):
            full, canvas, participant, _ = ROSTER[student]
            for attempt, kind in enumerate(kinds):
                stamp = (2026, 3, 2, 9, position, attempt * 2)  # a learner's later upload is the later file
                if form == "lms" and self.lms == "canvas":
                    self.file_id += 1
                    marker = "LATE_" if late else ""
                    display = f"{chapter}-{attempt}.ipynb" if attempt else f"{chapter}.ipynb"
                    last, first = full.split()[1], full.split()[0]
                    name = f"{(last + first).lower()}_{marker}{canvas}_{self.file_id}_{display}"
                elif form == "lms":
                    display = f"{chapter} ({attempt}).ipynb" if attempt else f"{chapter}.ipynb"
                    name = f"{full}_{participant}_assignsubmission_file_/{display}"
                elif form == "archive":
                    name = f"{student}_{chapter}.ipynb" if attempt == 0 else f"{student}/{chapter}.ipynb"
                else:
                    name = f"{student}/{chapter}.ipynb" if attempt == 0 else f"{student}/{chapter}/{chapter}.ipynb"
                named.setdefault(student, []).append(name)
                members.append((name, notebook_text(self.course, chapter, kind), stamp))
        if spaced:
            members.append((f"ann lee/{chapter}.ipynb", notebook_text(self.course, chapter, "right"),
                            (2026, 3, 2, 9, 30, 0)))
        if form == "folder":
            for name, text, stamp in members:
                path = source / name
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text)
                moment = time.mktime((*stamp, 0, 0, -1))
                os.utime(path, (moment, moment))
        else:
            source.parent.mkdir(parents=True, exist_ok=True)
            with zipfile.ZipFile(source, "w") as bundle:
                for name, text, stamp in members:
                    bundle.writestr(zipfile.ZipInfo(name, stamp), text)
        return named

    def write_roster(self, chapter: str) -> Path:
        path = self.course.root.parent / f"roster-{self.lms}-{self.course.root.name}.csv"
        if self.lms == "canvas":
            lines = [f"Student,ID,SIS User ID,SIS Login ID,Section,{chapter} (1)"]
            lines += [f'"{n.split()[1]}, {n.split()[0]}",{c},SIS-{c},{s},Section A,'
                      for s, (n, c, _, _) in ROSTER.items()]
        else:
            lines = ["Identifier,Full name,Email address,ID number,Username,Status"]
            lines += [f"Participant {p},{n},{s}@example.edu,{i},{s},Submitted" for s, (n, _, p, i) in ROSTER.items()]
        path.write_text("\n".join(lines) + "\n")
        return path

    @rule(chapter=st.sampled_from(CHAPTERS), force=st.booleans())
    def grade_everyone(self, chapter: str, force: bool) -> None:
        self.grade(chapter, ["--force"] if force else [], None)

    @rule(chapter=st.sampled_from(CHAPTERS), student=st.sampled_from(sorted(ROSTER)), force=st.booleans())
    def grade_one(self, chapter: str, student: str, force: bool) -> None:
        self.grade(chapter, ["--student", student, *(["--force"] if force else [])], student)

    def grade(self, chapter: str, options: list[str], student: str | None) -> None:
        learners = self.model.chapters[chapter]
        code, out = self.run("grade", chapter, "--workers", "1", *options)
        if student is not None and learners[student].submitted is None:
            assert code == 2, "a --student who has no submission is an error"
            return
        assert code == 0, out
        for who, learner in learners.items():
            if learner.submitted is not None and student in (None, who):
                learner.graded = learner.submitted
        self.check_summary(chapter, out)

    @rule(output=st.sampled_from(["feedback", "report", "export"]), chapter=st.sampled_from(CHAPTERS),
          form=st.sampled_from(["csv", "lms"]))
    def publish(self, output: str, chapter: str, form: str) -> None:
        """What the instructor hands out: feedback pages, the class report, or a grade export."""
        if output == "feedback":
            self.feedback(chapter)
        elif output == "report":
            self.report(chapter)
        else:
            self.export(form)

    def feedback(self, chapter: str) -> None:
        code, out = self.run("feedback", chapter)
        assert code == 0, out
        self.check_summary(chapter, out)
        for student in ROSTER:
            page = self.course.root / "feedback" / student / chapter / f"{chapter}.html"
            state = self.model.state(chapter, student)
            if state in rolls.SCORED:
                text = page.read_text()
                assert "cdn" not in text.lower() and "_vendor/mathjax/es5/tex-mml-chtml.js" in text
            elif self.model.chapters[chapter][student].graded is None:
                assert not page.exists(), f"{student} was never graded, yet has a feedback page"

    def report(self, chapter: str) -> None:
        code, out = self.run("report", chapter)
        assert code == 0, out
        self.check_summary(chapter, out)
        with (self.course.root / "reports" / chapter / "learners.csv").open(newline="") as handle:
            listed = list(csv.DictReader(handle))
        assert sorted(r["student"] for r in listed) == sorted(ROSTER), "every learner once"
        for row in listed:
            assert row["status"] == self.model.state(chapter, row["student"]), row
            if row["status"] in rolls.SCORED:
                assert float(row["score"]) == self.expected_total(chapter, row["student"])

    def export(self, form: str) -> None:
        form = self.lms if form == "lms" else "csv"
        code, out = self.run("export", "--format", form, "--match", "username")
        assert code == 0, out
        names = {"csv": "grades.csv", "canvas": "grades-canvas.csv", "moodle": "grades-moodle.csv"}
        with (self.course.root / names[form]).open(newline="") as handle:
            table = list(csv.reader(handle))
        handed_in = [c for c in CHAPTERS if any(learner.submitted or learner.refused
                                                for learner in self.model.chapters[c].values())
                     or self.model.rows[c]]
        if form == "csv":
            rows = [dict(zip(table[0], row, strict=True)) for row in table[1:]]
            for chapter in handed_in:
                mine = [r for r in rows if r["assignment"] == chapter]
                assert sorted(r["student_id"] for r in mine) == sorted(ROSTER), "every learner once"
                for row in mine:
                    assert row["status"].split(" (")[0] == self.model.state(chapter, row["student_id"]), row
            return
        header, learners = table[0], table[2:] if form == "canvas" else table[1:]
        login = header.index("SIS Login ID" if form == "canvas" else "Username")
        assert sorted(row[login] for row in learners) == sorted(ROSTER), "every learner once"
        assert len(header) - 5 == len(handed_in), "one column per chapter being graded, no other"
        for chapter, column in zip(handed_in, range(5, len(header)), strict=True):
            for row in learners:
                student = row[login]
                cell = row[column]
                if self.model.state(chapter, student) in rolls.SCORED:
                    assert float(cell) == self.expected_total(chapter, student), (chapter, student)
                else:
                    assert cell == "", f"{student} has no grade in {chapter}: the import must change nothing"
                    assert student in out, "the export's notes name every learner without a grade"

    # ---------------------------------------------------------------------------- checks
    def expected_total(self, chapter: str, student: str) -> float:
        return sum(self.oracle[(chapter, self.model.chapters[chapter][student].graded)].values())

    def check_summary(self, chapter: str, out: str) -> None:
        """The command's summary of the chapter: every learner once, under the state the model gives."""
        lines = out.splitlines()
        start = next(i for i, line in enumerate(lines) if line.startswith(f"{chapter}: ") and "learner(s)" in line)
        listed: dict[str, str] = {}
        for line in lines[start + 1:]:
            if not line.startswith("  "):
                break
            state, _, names = line.strip().partition(": ")
            found = [names.split(" (")[0]] if state == rolls.REFUSED else names.split(", ")
            for student in found:
                assert student not in listed, f"{student} listed twice"
                listed[student] = state
        assert listed == {s: self.model.state(chapter, s) for s in ROSTER}, out

    @invariant()
    def every_learner_stands_where_the_model_says_and_no_record_is_lost(self) -> None:
        for chapter in CHAPTERS:
            standings = rolls.roll(self.course, chapter)
            assert {s: standings[s].state for s in standings} == {s: self.model.state(chapter, s) for s in ROSTER}
            for standing in standings.values():
                if standing.state == rolls.REFUSED:
                    assert "corrupt notebook" in standing.why, standing
            record = self.course.submitted / f"{chapter}-collect.csv"
            rows = {}
            if record.exists():
                with record.open(newline="") as handle:
                    rows = {r["file"]: (r["action"], r["student"]) for r in csv.DictReader(handle)}
            assert rows == self.model.rows[chapter], "the collect record lost or kept a row it should not"

            graded = {s for s, learner in self.model.chapters[chapter].items() if learner.graded}
            flags = self.course.autograded / f"{chapter}-flags.csv"
            if graded:
                with flags.open(newline="") as handle:
                    flagged = {(r["student"], r["reason"]) for r in csv.DictReader(handle)}
                for student in graded:
                    untouched = self.model.chapters[chapter][student].graded == "untouched"
                    assert ((student, UNTOUCHED) in flagged) == untouched, (chapter, student)
            found = scores(self.course, chapter) if graded else {}
            assert set(found) == graded
            for student in graded:
                expected = self.oracle[(chapter, self.model.chapters[chapter][student].graded)]
                assert found[student] == expected, f"{chapter} {student}: not what a fresh full grading gives"


def test_an_instructors_week_keeps_every_record_and_accounts_for_every_learner(
        template, oracle, graded_by_the_shared_pool, tmp_path) -> None:
    InstructorWeek.template, InstructorWeek.oracle, InstructorWeek.workspace = template, oracle, tmp_path
    explored.clear()
    # Derandomized: the same sequences on every run, so the week's coverage (every command run, the
    # last assertion) does not depend on the draws of one run.
    run_state_machine_as_test(InstructorWeek, settings=settings(
        max_examples=EXAMPLES, stateful_step_count=STEPS, deadline=None, derandomize=True, database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]))
    sequences = explored.pop("sequences")
    print(f"the instructor's week: {sum(explored.values())} commands in {sequences} sequences: "
          + ", ".join(f"{n} {command}" for command, n in sorted(explored.items())))
    assert set(explored) == {"collect", "grade", "feedback", "report", "export"}, "every command was run"


def test_grading_one_learner_leaves_every_other_learners_records(template, graded_by_the_shared_pool, tmp_path,
                                                                  capsys) -> None:
    """``grade --student`` (and ``--force``) for bob: ada's untouched flag, her ledger entry and her
    scores stay as her own grading left them, and both are on the command's roll."""
    course = Course(tmp_path / "course")
    shutil.copytree(template.root, course.root)
    chapter = CHAPTERS[0]
    for student, kind in (("ada", "untouched"), ("bob", "wrong")):
        path = course.submitted / student / chapter / f"{chapter}.ipynb"
        path.parent.mkdir(parents=True)
        path.write_text(notebook_text(course, chapter, kind))
    root = ["--root", str(course.root)]
    assert main([*root, "grade", chapter, "--workers", "1"]) == 0
    flags = course.autograded / f"{chapter}-flags.csv"
    before = flags.read_text()
    ledger = json.loads((course.autograded / f".{chapter}-graded.json").read_text())
    marks = scores(course, chapter)
    assert f"ada,{chapter},,\"{UNTOUCHED}\"" in before

    (course.submitted / "bob" / chapter / f"{chapter}.ipynb").write_text(notebook_text(course, chapter, "right"))
    capsys.readouterr()
    assert main([*root, "grade", chapter, "--workers", "1", "--student", "bob", "--force"]) == 0
    printed = capsys.readouterr().out
    assert "graded 1 submission(s)" in printed and "  graded: bob" in printed and "  untouched: ada" in printed
    assert flags.read_text() == before, "ada's flag is kept (bob has none)"
    assert json.loads((course.autograded / f".{chapter}-graded.json").read_text())["ada"] == ledger["ada"]
    after = scores(course, chapter)
    assert after["ada"] == marks["ada"] and sum(after["bob"].values()) > sum(marks["bob"].values())

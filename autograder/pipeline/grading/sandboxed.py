"""Grade a chapter safely: submission code in the sandbox, verdicts and gradebook on the trusted side.

nbgrader still does the bookkeeping: its own ``Autograde`` converter sanitises each submission
(restores locked cells, checks metadata), writes the autograded notebook and records the scores
in its gradebook, so formgrader, manual grading, feedback and export work as usual. Its
``Execute`` step is replaced: instead of running the notebook in a kernel with the grader's
rights, :class:`SandboxVerdicts` fills in the outputs the trusted checker decided
(:mod:`autograder.pipeline.grading.verdict`) from what the sandbox reported (:mod:`autograder.pipeline.sandbox.pool`).
Its preprocessors reach the gradebook through one session for the whole run
(:mod:`autograder.pipeline.gradebook.recorder`).

Sandboxes run ahead of the converter on every worker, so both cores stay busy while nbgrader
writes one submission at a time.
"""

from __future__ import annotations

import logging
import warnings
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path

import nbformat
from nbconvert.exporters import NotebookExporter
from nbgrader.api import Gradebook, MissingEntry
from nbgrader.converters import Autograde
from nbgrader.coursedir import CourseDirectory
from nbgrader.preprocessors import CheckCellMetadata, Execute
from sqlalchemy.exc import SAWarning
from traitlets.config import Config
from traitlets.config.loader import PyFileConfigLoader

from autograder.pipeline.course import Course, read_notebook
from autograder.pipeline.gradebook.flags import Flag, zero_tampered
from autograder.pipeline.gradebook.ledger import Gradebook as LedgerGradebook
from autograder.pipeline.gradebook.ledger import (
    Ledger,
    autograded_digest,
    file_digest,
    fingerprint,
    submission_digest,
)
from autograder.pipeline.gradebook.preprocessors import CheckCellMetadataOnce, SandboxVerdicts
from autograder.pipeline.gradebook.recorder import ON_RUN, AutogradeOnRun, RunGradebook
from autograder.pipeline.grading import verdict as verdicts
from autograder.pipeline.grading.grade import admitted
from autograder.pipeline.intake.bounds import Bounds
from autograder.pipeline.intake.integrity import check_submission, test_cell_checksums
from autograder.pipeline.progress import Progress
from autograder.pipeline.sandbox import prefix as prefixes
from autograder.pipeline.sandbox import wire
from autograder.pipeline.sandbox.confine import Limits
from autograder.pipeline.sandbox.pool import Pool, Task

LOG = logging.getLogger(__name__)


@dataclass
class Outcome:
    """What one grading run did."""

    graded: list[str] = field(default_factory=list)
    forked: list[str] = field(default_factory=list)  # graded from the chapter's locked prefix, run once
    skipped: list[str] = field(default_factory=list)
    changed_elsewhere: list[str] = field(default_factory=list)  # graded again: its grades had changed elsewhere
    flags: list[Flag] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    decided: dict[str, verdicts.Verdict] = field(default_factory=dict)


def _config(course: Course, db: str, one_session: bool = True) -> Config:
    config = PyFileConfigLoader("nbgrader_config.py", path=str(course.root)).load_config() \
        if (course.root / "nbgrader_config.py").exists() else Config()
    config.CourseDirectory.root = str(course.root)
    config.CourseDirectory.db_url = db
    config.BaseConverter.force = True
    # The course's nbgrader_config.py turns nbgrader's own autograde off (autograder.pipeline.gradebook.guard);
    # this is the course's own grader.
    config.Autograde.exporter_class = NotebookExporter
    replace = {Execute: SandboxVerdicts, CheckCellMetadata: CheckCellMetadataOnce}
    if one_session:
        config.Exporter.optimistic_validation = True
        replace.update(ON_RUN)
    for name in ("sanitize_preprocessors", "autograde_preprocessors"):
        config.Autograde[name] = [replace.get(p, p) for p in Autograde.class_traits()[name].default()]
    return config


@dataclass
class GradingRun:
    """One run of the grader over an assignment: what every submission's verdict is judged and
    recorded against."""

    assignment: str
    config: Config
    edition: nbformat.NotebookNode
    key: verdicts.Key
    checksums: dict[str, str]
    outcome: Outcome
    gradebook: RunGradebook
    converter: type[Autograde] = AutogradeOnRun
    told: set[str] = field(default_factory=set)  # why the prefix was not used, as logged

    def record(self, student: str, path: Path, result: wire.JobResult,
               bare: tuple[wire.Plan, wire.JobResult] | None = None,
               trials: dict[str, dict[str, wire.JobResult]] | None = None) -> None:
        """Judge one sandbox result (and its bare job's and trial jobs', if any), let nbgrader write
        it, then record partial credit and apply the course's tamper rule."""
        if result.prefix not in ("", prefixes.FORKED, prefixes.NOT_LEADING, *self.told):
            LOG.warning("%s (first seen with %s): %s", self.assignment, student, result.prefix)
            self.told.add(result.prefix)
        bare_job, bare_result = bare if bare is not None else (None, None)
        decided = verdicts.judge(result, self.edition, self.key, bare_result, bare_job, trials)
        self.outcome.decided[student] = decided
        self.outcome.seconds[student] = decided.seconds
        self.outcome.flags += [Flag(student, self.assignment, "", problem) for problem in decided.problems]
        SandboxVerdicts.decided[student] = decided
        coursedir = CourseDirectory(config=self.config)
        coursedir.assignment_id, coursedir.student_id = self.assignment, student
        converter = self.converter(coursedir=coursedir, config=self.config)
        try:
            with warnings.catch_warnings():
                # nbgrader's gradebook code trips SQLAlchemy's autoflush warnings: not the instructor's concern.
                warnings.simplefilter("ignore", SAWarning)
                converter.start()
        except Exception as err:  # noqa: BLE001 - one submission nbgrader refuses must not stop the class
            self.gradebook.rollback()
            self.flag(student, f"not graded: nbgrader could not grade it ({err})")
            return
        finally:
            SandboxVerdicts.decided.pop(student, None)
        gradebook = self.gradebook
        if not _graded(gradebook, self.assignment, student):
            self.flag(student, "not graded: nbgrader could not grade this submission")
            return
        _record_partial_credit(gradebook, self.assignment, student, decided)
        try:
            tampered = check_submission(self.checksums, path)
        except ValueError:
            tampered = []  # unreadable: already flagged, and nothing of it ran
        self.outcome.flags += zero_tampered(gradebook, list(self.checksums), self.assignment, student, tampered)
        gradebook.commit()
        self.outcome.graded.append(student)
        if result.prefix == prefixes.FORKED:
            self.outcome.forked.append(student)

    def flag(self, student: str, reason: str) -> None:
        self.outcome.flags.append(Flag(student, self.assignment, "", reason))


def _record_partial_credit(gradebook: RunGradebook, assignment: str, student: str, decided: verdicts.Verdict) -> None:
    """nbgrader scores a failed test cell 0; the engine's verdict gives it the points of the cases
    that passed."""
    changed = False
    for grade_id, cell in decided.tests.items():
        if cell.verdict is None or cell.verdict.message() is None:
            continue
        try:
            grade = gradebook.find_grade(grade_id, assignment, assignment, student)
        except MissingEntry:
            continue
        grade.auto_score = float(min(cell.earned, grade.max_score))
        changed = True
    if changed:
        gradebook.db.commit()


def grade_chapter(
    course: Course,
    chapter: str,
    db: str | None = None,
    workers: int = 2,
    shard: tuple[int, int] | None = None,
    limits: Limits | None = None,
    force: bool = False,
    progress: bool = True,
    seed: int | None = None,
    prefix: bool = True,
    one_session: bool = True,
    students: set[str] | None = None,
    bounds: Bounds | None = None,
) -> Outcome:
    """Grade every (changed) submission of a chapter in the sandbox and record it in the gradebook.

    Args:
        course: The course checkout.
        chapter: The chapter (nbgrader assignment) to grade.
        db: Gradebook URL (SQLite or PostgreSQL); the course default when None.
        workers: Sandboxes run in parallel (one per core).
        shard: ``(i, n)``: grade only the students of shard ``i`` of ``n``.
        limits: Resource limits of each submission.
        force: Regrade submissions already graded in their current form.
        progress: Draw a progress bar on stderr.
        seed: Seed of the inputs that cases draw (a fresh one per run when None).
        prefix: Run the chapter's locked prefix once and fork each submission that starts with it
            from there (:mod:`autograder.pipeline.sandbox.prefix`); False runs every one from the top.
        one_session: Record every submission through one gradebook session
            (:mod:`autograder.pipeline.gradebook.recorder`); False records each through nbgrader's own
            ``Autograde`` converter, which opens the gradebook at every step. The grades are the same.
        students: Only these students (all when None).
        bounds: The limits a submission is read within (:meth:`Bounds.from_env` when None).

    Returns:
        Who was graded or skipped, whose grades had changed elsewhere, every flag raised (a skipped
        submission keeps the flags of its last grading, and one refused before and unchanged since
        is refused again without being read). ``autograded/<chapter>-flags.csv`` is written from
        the ledger: this run's flags, and every other student's as their last grading left them.
    """
    db = db or course.gradebook_url
    limits = limits or Limits()
    bounds = bounds or Bounds.from_env()
    shard_name = f"-shard{shard[0]}of{shard[1]}" if shard else ""
    flags_csv = course.autograded / f"{chapter}{shard_name}-flags.csv"
    ledger = Ledger.of(course, chapter, shard)
    check = ledger.check(course, chapter, db, bounds, shard, students, force)
    outcome = Outcome(skipped=check.unchanged, changed_elsewhere=check.changed_elsewhere)
    for student in [*check.unchanged, *check.refused]:
        outcome.flags += [Flag(student, chapter, grade_id, reason) for grade_id, reason in ledger.flags(student)]
    if not check.todo:
        ledger.write_flags(flags_csv, chapter)
        return outcome

    bar = Progress(len(check.todo), f"{chapter} submissions graded", note="reading submissions") if progress else None
    edition = read_notebook(course.release_notebook(chapter))
    checksums = test_cell_checksums(course.release_notebook(chapter))
    key = verdicts.Key.of(chapter, seed)
    base = fingerprint(course, chapter, bounds)
    todo = [(student, path, file_digest(path, base), submission_digest(path))
            for student, path in admitted(course, chapter, outcome.flags, shard, bounds, {s for s, _ in check.todo})]
    refused = {s for s, _ in check.todo} - {s for s, *_ in todo}
    if refused:  # kept in the ledger with their reasons: the same file is not read again next time
        with LedgerGradebook(db) as recorded:
            held = recorded.digests(chapter)
        for student, path in check.todo:
            if student in refused:
                ledger.record(student, file_digest(path, base), held.get(student),
                              autograded_digest(course, student, chapter),
                              [(f.grade_id, f.reason) for f in outcome.flags if f.student == student], refused=True,
                              submission=submission_digest(path))
        if bar:
            bar.advance_to(len(refused), "refused: see the flags")

    logging.getLogger("traitlets").setLevel(logging.ERROR)
    locked = prefixes.of_edition(edition, chapter) if prefix and todo else None
    if bar and todo:
        bar.say("starting the sandboxes")
    with Pool(workers, limits) if todo else _NoPool() as pool, \
            RunGradebook(db) as gradebook, LedgerGradebook(db) as recorded:
        run = GradingRun(chapter, _config(course, db, one_session), edition, key, checksums, outcome, gradebook,
                         AutogradeOnRun if one_session else Autograde)
        jobs = {student: _submit(pool, path, edition, key, locked) for student, path, *_ in todo}
        for student, path, digest, submission in todo:
            future, bare, trial_jobs = jobs[student]
            trials = {}
            for test_cell, piece, trial in trial_jobs:
                trials.setdefault(test_cell, {})[piece] = trial.result()
            run.record(student, path, future.result(), (bare[0], bare[1].result()) if bare else None, trials)
            mine = [(f.grade_id, f.reason) for f in outcome.flags if f.student == student]
            ledger.record(student, digest, recorded.digests(chapter, student).get(student),
                          autograded_digest(course, student, chapter), mine, submission=submission)
            if bar:
                bar.step(student)
    if bar:
        bar.finish()
    ledger.write_flags(flags_csv, chapter)
    return outcome


class _NoPool:
    """Stands for the pool when every submission was refused before it could run."""

    def __enter__(self) -> _NoPool:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def _submit(pool: Pool, path: Path, edition: nbformat.NotebookNode, key: verdicts.Key,
            locked) -> tuple[Future, tuple[wire.Plan, Future] | None, list[tuple[str, str, Future]]]:
    """The sandbox's run of one submission, its bare job's (the checks that run without torch) if
    it has one, and its trial jobs (one per piece of grader code a test is run on), run one after
    another on one worker; a notebook that cannot even be planned is a result that says why
    (nbgrader records an unreadable notebook with zero points; so does this grader)."""
    try:
        submission = read_notebook(path)
        plan = verdicts.plan(submission, edition, key)
        bare_plan = verdicts.bare_plan(submission, edition, key)
        trials = verdicts.trial_plans(plan, key)
        tasks = [Task(plan, prefix=locked), *([Task(bare_plan)] if bare_plan is not None else []),
                 *(Task(trial, pieces, locked) for _cell, _piece, trial, pieces in trials)]
        job, *rest = pool.submit_together(tasks)
        bare = (bare_plan, rest.pop(0)) if bare_plan is not None else None
        return job, bare, [(cell, piece, future) for (cell, piece, _trial, _pieces), future in zip(trials, rest,
                                                                                                strict=True)]
    except Exception as err:  # noqa: BLE001 - untrusted input: one submission must not stop the class
        future: Future = Future()
        future.set_result(wire.JobResult("not run", f"unreadable submission: {err}"))
        return future, None, []


def _graded(gradebook: Gradebook, chapter: str, student: str) -> bool:
    try:
        gradebook.find_submission_notebook(chapter, chapter, student)
    except MissingEntry:
        return False
    return True

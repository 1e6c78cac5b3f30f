"""nbgrader's ``Autograde`` bookkeeping on one gradebook session per grading run.

nbgrader's converter records a submission correctly but slowly. For one Chapter 1 submission it
opens the gradebook ten times (each open inspects every table), looks every cell up with a join
over up to seven tables, commits after every cell, and validates the whole notebook against
nbformat's schema after each of its twelve preprocessors: 0.6 s of the 0.75 s a submission cost.

:class:`AutogradeOnRun` is that converter with the same preprocessors, in the same order, with the
same configuration and failure handling. Only two things change:

* How they reach the gradebook. :class:`RunGradebook` is one nbgrader ``Gradebook`` for the whole
  run. It reads the source notebook's cells once (a run cannot change them), a submission's grades
  and comments in one query each, and turns the commit nbgrader makes after every cell into a
  flush; the commit comes once, at the end of the preprocessor.
* When the notebook is validated: nbconvert's ``Exporter.optimistic_validation`` validates each
  pass once, after its last preprocessor, instead of after every one. A notebook that a
  preprocessor broke is still refused.

``tests/pipeline/gradebook/test_recorder.py`` records the same class with this and with nbgrader's own converter and
compares every gradebook row and every autograded notebook.
"""

from __future__ import annotations

import json
import os
import shutil
from types import SimpleNamespace
from typing import Any, ClassVar

from nbgrader import utils
from nbgrader.api import BaseCell, Comment, Grade, Gradebook, MissingEntry
from nbgrader.converters import Autograde
from nbgrader.converters.base import BaseConverter, NbGraderException
from nbgrader.preprocessors import (
    AssignLatePenalties,
    NbGraderPreprocessor,
    OverwriteCells,
    OverwriteKernelspec,
    SaveAutoGrades,
)

# The source notebook's cells as nbgrader's preprocessors read them.
SOURCE_FIELDS = ("name", "cell_type", "locked", "checksum", "source")


class _FlushOnCommit:
    """A gradebook session whose ``commit`` only flushes: the run commits once per preprocessor."""

    def __init__(self, session: Any) -> None:
        self._session = session

    def commit(self) -> None:
        self._session.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)


class RunGradebook:
    """One nbgrader gradebook for a grading run, with what cannot change during the run read once.

    Every method nbgrader's preprocessors and converter call behaves as ``Gradebook``'s does (it is
    ``Gradebook``'s, for all but the lookups below); ``db.commit()`` flushes and :meth:`commit`
    commits.

    Args:
        db_url: The gradebook's URL.
    """

    opened: ClassVar[dict[str, RunGradebook]] = {}

    def __init__(self, db_url: str) -> None:
        self.db_url = db_url
        self.gradebook = Gradebook(db_url)
        self.db = _FlushOnCommit(self.gradebook.db)
        self._sources: dict[tuple[str, str], SimpleNamespace] = {}
        self._grades: dict[tuple[str, str, str], dict[str, Grade]] = {}
        self._comments: dict[tuple[str, str, str], dict[str, Comment]] = {}

    def __enter__(self) -> RunGradebook:
        RunGradebook.opened[self.db_url] = self
        return self

    def __exit__(self, *exc: object) -> None:
        RunGradebook.opened.pop(self.db_url, None)
        self.gradebook.close()

    @classmethod
    def of(cls, db_url: str) -> RunGradebook:
        """The run gradebook open for ``db_url``."""
        try:
            return cls.opened[db_url]
        except KeyError:
            raise RuntimeError(f"no grading run has the gradebook {db_url} open") from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.gradebook, name)

    def commit(self) -> None:
        """Commit, and forget the submission's grades and comments (the session expired them)."""
        self.gradebook.db.commit()
        self._grades.clear()
        self._comments.clear()

    def rollback(self) -> None:
        """Undo what a failed submission left uncommitted."""
        self.gradebook.db.rollback()
        self._grades.clear()
        self._comments.clear()

    def _source(self, notebook: str, assignment: str) -> SimpleNamespace:
        """The source notebook as the preprocessors read it: its cells, the points of its graded
        cells and its kernelspec, from one lookup."""
        if (notebook, assignment) not in self._sources:
            found = self.gradebook.find_notebook(notebook, assignment)
            read = {c.name: SimpleNamespace(**{f: getattr(c, f) for f in SOURCE_FIELDS}) for c in found.source_cells}
            self._sources[notebook, assignment] = SimpleNamespace(
                cells=read,
                points={c.name: SimpleNamespace(max_score=c.max_score) for c in found.grade_cells + found.task_cells},
                kernelspec=found.kernelspec,
            )
        return self._sources[notebook, assignment]

    def find_source_cell(self, name: str, notebook: str, assignment: str) -> SimpleNamespace:
        cells = self._source(notebook, assignment).cells
        if name not in cells:
            raise MissingEntry(f"No such source cell: {assignment}/{notebook}/{name}")
        return cells[name]

    def find_graded_cell(self, name: str, notebook: str, assignment: str) -> SimpleNamespace:
        points = self._source(notebook, assignment).points
        if name not in points:
            raise MissingEntry(f"No such grade cell: {assignment}/{notebook}/{name}")
        return points[name]

    def kernelspec(self, notebook: str, assignment: str) -> str | None:
        """The source notebook's kernelspec, as the gradebook stores it (JSON or None)."""
        return self._source(notebook, assignment).kernelspec

    def find_grade(self, grade_cell: str, notebook: str, assignment: str, student: str) -> Grade:
        grades = self._of_submission(self._grades, Grade, notebook, assignment, student)
        if grade_cell not in grades:
            return self.gradebook.find_grade(grade_cell, notebook, assignment, student)  # raises MissingEntry
        return grades[grade_cell]

    def find_comment(self, solution_cell: str, notebook: str, assignment: str, student: str) -> Comment:
        comments = self._of_submission(self._comments, Comment, notebook, assignment, student)
        if solution_cell not in comments:
            return self.gradebook.find_comment(solution_cell, notebook, assignment, student)
        return comments[solution_cell]

    def _of_submission(self, cache: dict, model: type, notebook: str, assignment: str, student: str) -> dict:
        """A submitted notebook's grades (or comments) by cell name, in one query."""
        key = (notebook, assignment, student)
        if key not in cache:
            submitted = self.gradebook.find_submission_notebook(notebook, assignment, student)
            rows = self.gradebook.db.query(model, BaseCell.name).join(BaseCell, BaseCell.id == model.cell_id) \
                .filter(model.notebook_id == submitted.id)
            cache[key] = {name: row for row, name in rows}
        return cache[key]


class _OnRun:
    """A gradebook preprocessor that uses the run's gradebook and commits when it is done."""

    def preprocess(self, nb, resources):
        self.notebook_id = resources["nbgrader"]["notebook"]
        self.assignment_id = resources["nbgrader"]["assignment"]
        self.student_id = resources["nbgrader"]["student"]
        self.gradebook = RunGradebook.of(resources["nbgrader"]["db_url"])
        nb, resources = self.on_run(nb, resources)
        self.gradebook.commit()
        return nb, resources

    def on_run(self, nb, resources):
        return NbGraderPreprocessor.preprocess(self, nb, resources)


class OverwriteCellsOnRun(_OnRun, OverwriteCells):
    """nbgrader's ``OverwriteCells`` on the run's gradebook."""

    def on_run(self, nb, resources):
        nb, resources = NbGraderPreprocessor.preprocess(self, nb, resources)
        if self.add_missing_cells:
            nb, resources = self.add_missing_grade_cells(nb, resources)
            nb, resources = self.add_missing_task_cells(nb, resources)
        return nb, resources


class SaveAutoGradesOnRun(_OnRun, SaveAutoGrades):
    """nbgrader's ``SaveAutoGrades`` on the run's gradebook."""


class OverwriteKernelspecOnRun(_OnRun, OverwriteKernelspec):
    """nbgrader's ``OverwriteKernelspec`` on the run's gradebook."""

    def on_run(self, nb, resources):
        kernelspec = self.gradebook.kernelspec(self.notebook_id, self.assignment_id)
        if kernelspec is not None and (spec := json.loads(kernelspec)):
            nb.metadata["kernelspec"] = spec
        return nb, resources


class AssignLatePenaltiesOnRun(_OnRun, AssignLatePenalties):
    """nbgrader's ``AssignLatePenalties`` on the run's gradebook."""

    def on_run(self, nb, resources):
        self.init_plugin()
        submission = self.gradebook.find_submission(self.assignment_id, self.student_id)
        notebook = self.gradebook.find_submission_notebook(self.notebook_id, self.assignment_id, self.student_id)
        notebook.late_submission_penalty = None
        if submission.total_seconds_late > 0:
            penalty = self.plugin_inst.late_submission_penalty(
                self.student_id, notebook.score, submission.total_seconds_late)
            if penalty is not None:
                notebook.late_submission_penalty = self._check_late_penalty(notebook, penalty)
        return nb, resources


ON_RUN = {
    OverwriteCells: OverwriteCellsOnRun,
    SaveAutoGrades: SaveAutoGradesOnRun,
    OverwriteKernelspec: OverwriteKernelspecOnRun,
    AssignLatePenalties: AssignLatePenaltiesOnRun,
}


class AutogradeOnRun(Autograde):
    """nbgrader's ``Autograde`` converter, its set-up of each submission on the run's gradebook.

    :meth:`init_assignment` does what ``Autograde.init_assignment`` does (nbgrader 0.9), with the
    same options (``create_student``, ``exclude_overwriting``), log lines and errors, on one
    gradebook instead of five opened in turn.
    """

    def init_assignment(self, assignment_id: str, student_id: str) -> None:
        BaseConverter.init_assignment(self, assignment_id, student_id)  # the submission's other files
        gradebook = RunGradebook.of(self.coursedir.db_url)
        if self.create_student:
            self.log.info("Creating/updating student with ID '%s': %s", student_id, {})
            gradebook.update_or_create_student(student_id)
        else:
            try:
                gradebook.find_student(student_id)
            except MissingEntry:
                self._fail(f"No student with ID '{student_id}' exists in the database")
        try:
            assignment = gradebook.find_assignment(assignment_id)
        except MissingEntry:
            self._fail(f"No assignment with ID '{assignment_id}' exists in the database")
        timestamp = self.coursedir.get_existing_timestamp(self._format_source(assignment_id, student_id))
        if timestamp:
            submission = gradebook.update_or_create_submission(assignment_id, student_id, timestamp=timestamp)
            self.log.info("%s submitted at %s", submission, timestamp)
            if submission.total_seconds_late > 0:
                self.log.warning("%s is %s seconds late", submission, submission.total_seconds_late)
        else:
            gradebook.update_or_create_submission(assignment_id, student_id)
        self.log.info("Overwriting files with master versions from the source directory")
        self._copy_source_files(assignment_id, student_id)
        known = []
        for path in self.notebooks:
            if _known(gradebook, path, assignment_id):
                known.append(path)
            else:
                self.log.warning("Skipping unknown notebook: %s", path)
        self.notebooks = known
        if not self.notebooks:
            self._fail("No notebooks found, did you forget to run 'nbgrader generate_assignment'?")
        for notebook in assignment.notebooks:
            submitted = self.coursedir.format_path(self.coursedir.submitted_directory, student_id, assignment_id)
            path = os.path.join(submitted, f"{notebook.name}.ipynb")
            if not os.path.exists(path):
                self.log.warning("No submitted file: %s", path)
                for grade in gradebook.find_submission_notebook(notebook.name, assignment_id, student_id).grades:
                    grade.auto_score = 0
                    grade.needs_manual_grade = False
        gradebook.commit()

    def _fail(self, message: str) -> None:
        self.log.error(message)
        raise NbGraderException(message)

    def _copy_source_files(self, assignment_id: str, student_id: str) -> None:
        """The instructor's versions of the assignment's other files, over the learner's."""
        dest_path = self._format_dest(assignment_id, student_id)
        source_path = self.coursedir.format_path(self.coursedir.source_directory, ".", assignment_id)
        excluded = {os.path.join(source_path, x) for x in self.exclude_overwriting.get(assignment_id, [])}
        for filename in set(utils.find_all_files(source_path, self.coursedir.ignore + ["*.ipynb"])) - excluded:
            dest = os.path.join(dest_path, os.path.relpath(filename, source_path))
            os.makedirs(os.path.dirname(dest), exist_ok=True)
            if os.path.exists(dest):
                os.remove(dest)
            self.log.info("Copying %s -> %s", filename, dest)
            shutil.copy(filename, dest)


class AutogradeRecorder(AutogradeOnRun):
    """What ``nbgrader autograde`` is with the recorder in place: :class:`AutogradeOnRun`, its
    preprocessors swapped for the run-gradebook ones (:data:`ON_RUN`, and ``CheckCellMetadataOnce``)
    wherever the configuration lists nbgrader's, the notebook validated once per pass, and the run's
    gradebook opened around :meth:`start`. ``bench/nbgrader_conformance.py`` runs nbgrader's own
    autograde tests with it in ``Autograde``'s place.
    """

    def start(self) -> None:
        with RunGradebook(self.coursedir.db_url):
            super().start()

    def _init_preprocessors(self) -> None:
        from nbgrader.preprocessors import CheckCellMetadata

        from autograder.pipeline.gradebook.preprocessors import CheckCellMetadataOnce

        replace = {**ON_RUN, CheckCellMetadata: CheckCellMetadataOnce}
        self.exporter.optimistic_validation = True
        self.exporter._preprocessors = []
        for preprocessor in self.sanitize_preprocessors if self._sanitizing else self.autograde_preprocessors:
            self.exporter.register_preprocessor(replace.get(preprocessor, preprocessor))


def _known(gradebook: RunGradebook, path: str, assignment_id: str) -> bool:
    try:
        gradebook.find_notebook(os.path.splitext(os.path.basename(path))[0], assignment_id)
    except MissingEntry:
        return False
    return True

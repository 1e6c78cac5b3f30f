"""The trusted checker: plans what the sandbox runs and turns what it reports into verdicts.

Runs in the instructor's process only. It reads a submission as data, decides which cells go to
the sandbox (locked cells from the student edition, answer cells and cells the learner added;
never a test cell), computes every key itself (``answer_key``: the reference's and the
misconceptions' results on every input the checks use), and judges the observations the sandbox
reports with :func:`autograder.judging.judge_cell` — the function a learner's ``grade`` call runs.
An exercise whose answer must work a rule out alone (:mod:`autograder.engine.bare`) gets a job of its
own: only its answer cell, in an interpreter without torch; its observations are read from that
job's report and no other. The text a failed test cell shows is the text ``grade`` raises.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field, replace

import nbformat

from autograder import judging
from autograder.engine import bare, cases, gradeid, observe, trials
from autograder.pipeline.course import is_answer_cell, is_test_cell, nbgrader_meta
from autograder.pipeline.gradebook.outputs import cell_outputs, error_output
from autograder.pipeline.sandbox import wire


@dataclass
class Key:
    """An assignment's trusted answer key for one grading run: what every check expects on the
    inputs the run's seed draws (:func:`answer_key.keys.cell_key`), computed once."""

    assignment: str
    exercises: dict[str, cases.Exercise]
    seed: int
    expected: dict[tuple[str, bool], judging.CellKey] = field(default_factory=dict)

    @classmethod
    def of(cls, assignment: str, seed: int | None = None) -> Key:
        from answer_key.keys import cell_key

        seed = secrets.randbelow(2**31) if seed is None else seed
        key = cls(assignment, cases.exercises(assignment), seed)
        for grade_id, exercise in key.exercises.items():
            for hidden in (False, True):
                key.expected[grade_id, hidden] = cell_key(exercise, hidden, seed)
        return key


@dataclass
class TestCell:
    """A verdict on one test cell: its points and message, or why it was not graded."""

    grade_id: str
    verdict: judging.CellVerdict | None = None
    not_run: str | None = None

    @property
    def earned(self) -> int:
        return 0 if self.verdict is None else self.verdict.earned

    def outputs(self) -> list[nbformat.NotebookNode]:
        if self.not_run is not None:
            return [error_output("NotGraded", self.not_run)]
        message = None if self.verdict is None else self.verdict.message()
        if message is not None:
            return [error_output("AssertionError", message)]
        return []


@dataclass
class Verdict:
    """Everything decided about one submission."""

    tests: dict[str, TestCell] = field(default_factory=dict)
    outputs: dict[str, list[nbformat.NotebookNode]] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    seconds: float = 0.0


def plan(submission: nbformat.NotebookNode, student_edition: nbformat.NotebookNode, key: Key) -> wire.Plan:
    """The steps the sandbox runs for a submission (see :mod:`autograder.pipeline.sandbox.runner`).

    Locked code cells run as the student edition has them, whatever the submission holds; answer
    cells and cells the learner added run as submitted; a test cell becomes a probe of its
    exercise at the place it stands. A test cell whose source differs is still probed: the course
    zeroes tampered exercises separately (:mod:`autograder.pipeline.intake.integrity`).
    """
    released = {nbgrader_meta(c).get("grade_id"): c for c in student_edition.cells if nbgrader_meta(c).get("grade_id")}
    steps: list[wire.CodeStep | wire.ProbeStep] = []
    seen: set[str] = set()
    for index, cell in enumerate(submission.cells):
        grade_id = nbgrader_meta(cell).get("grade_id")
        if grade_id in seen:
            continue
        if grade_id in released:
            seen.add(grade_id)
            source = released[grade_id]
            if is_test_cell(source):
                exercise = key.exercises.get(gradeid.exercise_of(grade_id))
                if exercise is not None and not exercise.bare:
                    steps.append(wire.ProbeStep(grade_id, exercise.grade_id, exercise.answer,
                                                gradeid.is_hidden(grade_id), key.seed))
            elif source.cell_type == "code" and cell.cell_type == "code":
                steps.append(wire.CodeStep(grade_id, cell.source if is_answer_cell(source) else source.source))
        elif cell.cell_type == "code":
            steps.append(wire.CodeStep(f"#{index}", cell.source))
    return wire.Plan(key.assignment, steps)


def bare_plan(submission: nbformat.NotebookNode, student_edition: nbformat.NotebookNode, key: Key) -> wire.Plan | None:
    """The bare interpreter's job for a submission: each bare exercise's answer cell, as submitted,
    and the calls of its visible and hidden checks (None when the assignment has no such exercise)."""
    chosen = [e for e in key.exercises.values() if e.bare]
    if not chosen:
        return None
    answers = {nbgrader_meta(c).get("grade_id"): c.source for c in submission.cells
               if c.cell_type == "code" and nbgrader_meta(c).get("grade_id")}
    cells, calls = [], []
    for exercise in chosen:
        if exercise.grade_id in answers:
            cells.append(answers[exercise.grade_id])
        for hidden in (False, True):
            for call in observe.bare_calls(exercise, observe.seeds_for(exercise, hidden, key.seed)):
                calls.append({**call, "case": f"{gradeid.test_cell(exercise.grade_id, hidden)}/{call['case']}"})
    return wire.Plan(key.assignment, [], bare=bare.job(cells, calls))


def trial_plans(main: wire.Plan, key: Key) -> list[tuple[str, str, wire.Plan, dict[str, str]]]:
    """The jobs of a submission's trial cases (:mod:`autograder.engine.trials`): for each test cell that
    has some, one job per piece of grader code — the submission's cells up to the test cell, then
    the test run on that piece alone. ``(test cell, piece, plan, the piece's source by step)``: the
    source goes to the job's supervisor, which hands it over only when the step runs; the piece's
    name stays here."""
    jobs = []
    for index, step in enumerate(main.steps):
        if not isinstance(step, wire.ProbeStep):
            continue
        exercise = key.exercises[step.exercise]
        chosen = [case for case in exercise.selected(step.hidden) if case.trial is not None]
        if not chosen:
            continue
        cells = [s for s in main.steps[:index] if isinstance(s, wire.CodeStep)]
        sources = trials.owned(exercise.module)
        for piece in dict.fromkeys(name for case in chosen for name in trials.pieces_of(case)):
            run = wire.TrialStep(TRIAL, exercise.grade_id, exercise.answer)
            jobs.append((step.key, piece, wire.Plan(key.assignment, [*cells, run]), {TRIAL: sources[piece]}))
    return jobs


#: The key of a trial job's one trial step.
TRIAL = "trial"


def _trial_verdicts(results: dict[str, wire.JobResult]) -> dict[str, observe.Seen | str]:
    """Each piece's verdict, read from its own job's report (or why there is none)."""
    found: dict[str, observe.Seen | str] = {}
    for piece, result in results.items():
        report = wire.Reports.read(result.report).probes.get(TRIAL)
        seen = None if report is None else report.observation
        if not isinstance(seen, observe.CellObservation) or len(seen.cases.get(trials.VERDICT, [])) != 1:
            found[piece] = (report.failed if report is not None and report.failed else None) or result.reason \
                or "a trial job reported no verdict"
        else:
            found[piece] = seen.cases[trials.VERDICT][0]
    return found


def _with_trials(exercise: cases.Exercise, hidden: bool, seen: observe.CellObservation,
                 results: dict[str, wire.JobResult]) -> observe.CellObservation:
    """A test cell's observation with its trial cases assembled from their jobs."""
    chosen = [case for case in exercise.selected(hidden) if case.trial is not None]
    if not chosen or seen.missing or seen.rejected:
        return seen
    verdicts_ = _trial_verdicts(results)
    for piece in (name for case in chosen for name in trials.pieces_of(case)):
        verdicts_.setdefault(piece, "its job did not run")
    unfinished = next((why for why in verdicts_.values() if isinstance(why, str)), None)
    if unfinished is not None:
        why = seen.unfinished or f"a trial did not finish: {unfinished}"
        return observe.CellObservation(seen.cases, unfinished=why)
    assembled = {case.name: [trials.assembled(case, verdicts_)] for case in chosen}
    return observe.CellObservation({**seen.cases, **assembled}, unfinished=seen.unfinished)


def _bare_observations(result: wire.JobResult | None, plan: wire.Plan | None) -> dict[str, observe.CellObservation]:
    """Each bare test cell's observations, read from the bare job's own report."""
    if plan is None:
        return {}
    calls = plan.bare["calls"]
    results = bare.read_results(result.report) if result is not None else []
    why = None if result is None or not result.reason else result.reason
    found = {}
    for test_cell in dict.fromkeys(call["case"].split("/", 1)[0] for call in calls):
        mine = [{**c, "case": c["case"].split("/", 1)[1]} for c in calls if c["case"].startswith(test_cell + "/")]
        got = [{**r, "case": r["case"].split("/", 1)[1]} for r in results
               if type(r.get("case")) is str and r["case"].startswith(test_cell + "/")]
        seen = observe.bare_observation(got, mine)
        if why and seen.unfinished:
            seen = observe.CellObservation(seen.cases, seen.missing, seen.rejected, why)
        found[test_cell] = seen
    return found


def judge(result: wire.JobResult, student_edition: nbformat.NotebookNode, key: Key,
          bare_result: wire.JobResult | None = None, bare_job: wire.Plan | None = None,
          trial_results: dict[str, dict[str, wire.JobResult]] | None = None) -> Verdict:
    """Verdicts on every test cell of the student edition from one sandbox result (and the bare
    job's, when the assignment has one, and the trial jobs', by test cell and piece)."""
    reports = wire.Reports.read(result.report)
    bare_seen = _bare_observations(bare_result, bare_job)
    why = result.reason or ("" if reports.ended else f"the notebook stopped early ({result.status})")
    verdict = Verdict(seconds=result.seconds)
    if why:
        verdict.problems.append(why)
    violation = next((r.violation for r in [result, bare_result, *_trial_results(trial_results)]
                      if r is not None and r.violation), "")
    if violation:
        verdict.problems.append(VIOLATED)
    for grade_id, report in reports.cells.items():
        verdict.outputs[grade_id] = cell_outputs([_notebook_output(o) for o in report.outputs], report.number)
    for cell in student_edition.cells:
        grade_id = nbgrader_meta(cell).get("grade_id", "")
        if not is_test_cell(cell):
            continue
        exercise = key.exercises.get(gradeid.exercise_of(grade_id))
        hidden = gradeid.is_hidden(grade_id)
        if exercise is None:
            verdict.tests[grade_id] = TestCell(grade_id, not_run="this test cell has no declared cases to grade it")
            verdict.problems.append(f"{grade_id}: no declared cases")
        elif violation:
            verdict.tests[grade_id] = TestCell(grade_id, not_run=f"{VIOLATED} (it {violation})")
        elif grade_id in bare_seen:
            verdict.tests[grade_id] = TestCell(grade_id, judging.judge_cell(
                exercise, hidden, bare_seen[grade_id], key.expected[exercise.grade_id, hidden]))
        elif grade_id not in reports.probes:
            verdict.tests[grade_id] = TestCell(grade_id, not_run=f"not run: {why or 'the test cell is missing'}")
        else:
            report = reports.probes[grade_id]
            seen = report.observation if isinstance(report.observation, observe.CellObservation) \
                else observe.CellObservation(unfinished=report.failed or "the checks reported nothing readable")
            seen = _with_trials(exercise, hidden, seen, (trial_results or {}).get(grade_id, {}))
            seen = replace(seen, draws=result.secrets.get(grade_id, {}))  # the supervisor's draws, not the job's word
            decided = judging.judge_cell(exercise, hidden, seen, key.expected[exercise.grade_id, hidden])
            verdict.tests[grade_id] = TestCell(grade_id, decided)
    return verdict


#: What every test cell of a submission that wrote out of turn on the grader's channel says.
VIOLATED = "not graded: the submission wrote to the grader's channel itself, so nothing it reported counts"


def _trial_results(trial_results: dict[str, dict[str, wire.JobResult]] | None) -> list[wire.JobResult]:
    return [r for pieces in (trial_results or {}).values() for r in pieces.values()]


def _notebook_output(output: wire.Stream | wire.Error) -> nbformat.NotebookNode:
    """The output as a notebook holds it (what ``nbformat.v4.new_output`` builds, without checking
    each one against the schema: the fields are strings by construction, and nbgrader validates
    the whole notebook it writes)."""
    if isinstance(output, wire.Error):
        return nbformat.NotebookNode(output_type="error", ename=output.ename, evalue=output.evalue,
                                     traceback=[f"{output.ename}: {output.evalue}"])
    return nbformat.NotebookNode(output_type="stream", name=output.name, text=output.text)

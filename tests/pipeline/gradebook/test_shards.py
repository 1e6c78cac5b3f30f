"""``--shard auto``: the shard from the variables Slurm, Kubernetes and CI engines set, and a class
graded by separate processes started as those engines start them, into one PostgreSQL gradebook."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from autograder.engine.cases import exercises
from autograder.pipeline.gradebook.ledger import shard_of
from autograder.pipeline.gradebook.shards import Shard, ShardError, resolve
from autograder.pipeline.grading.grade import scores
from autograder.pipeline.sandbox.confine import is_root
from tests.catalog.views import RIGHT, WRONG
from tests.conftest import copy_course
from tests.pipeline.gradebook.test_postgres import postgres  # noqa: F401 - the fixture that starts the server
from tests.submissions import submit

CHAPTER = "views"
GUIDE = Path(__file__).resolve().parents[3] / "book" / "instructors.md"


@pytest.mark.parametrize(("environ", "count", "found"), [
    ({"SLURM_ARRAY_TASK_ID": "3", "SLURM_ARRAY_TASK_COUNT": "4"}, None, (3, 4, "Slurm job array")),
    ({"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_STEP": "2",
      "SLURM_ARRAY_TASK_COUNT": "3"}, None, (2, 3, "Slurm job array")),
    ({"JOB_COMPLETION_INDEX": "0"}, 5, (0, 5, "Kubernetes Indexed Job")),
    ({"JOB_COMPLETION_INDEX": "4", "AUTOGRAD_STATE_SHARD_COUNT": "5"}, None, (4, 5, "Kubernetes Indexed Job")),
    ({"CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "2"}, None, (0, 2, "GitLab CI parallel")),
    ({"CIRCLE_NODE_INDEX": "1", "CIRCLE_NODE_TOTAL": "2"}, None, (1, 2, "CircleCI parallelism")),
    ({"BUILDKITE_PARALLEL_JOB": "2", "BUILDKITE_PARALLEL_JOB_COUNT": "3"}, None, (2, 3, "Buildkite parallelism")),
    ({"AUTOGRAD_STATE_SHARD_INDEX": "1", "AUTOGRAD_STATE_SHARD_COUNT": "2", "SLURM_ARRAY_TASK_ID": "0",
      "SLURM_ARRAY_TASK_COUNT": "9"}, None, (1, 2, "AUTOGRAD_STATE_SHARD_INDEX")),
])
def test_auto_reads_each_engines_variables(environ, count, found) -> None:
    assert resolve("auto", environ, count) == Shard(*found)


@pytest.mark.parametrize(("spec", "environ", "message"), [
    ("auto", {}, "no shard in the environment"),
    ("auto", {"JOB_COMPLETION_INDEX": "2"}, "AUTOGRAD_STATE_SHARD_COUNT (or --shard-count) is not set"),
    ("auto", {"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4"}, "expected 0 <= index < count"),
    ("auto", {"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"}, "is not a whole number"),
    ("auto", {"SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_STEP": "2", "SLURM_ARRAY_TASK_MIN": "1",
              "SLURM_ARRAY_TASK_COUNT": "4"}, "not on the array's step"),
    ("2/2", {}, "expected 0 <= index < count"),
    ("1-2", {}, "expected I/N"),
])
def test_a_shard_that_cannot_be_worked_out_is_refused_with_what_was_looked_for(spec, environ, message) -> None:
    with pytest.raises(ShardError, match=re.escape(message)):
        resolve(spec, environ)


def _blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", GUIDE.read_text(), re.DOTALL)


def test_the_guides_slurm_script_and_kubernetes_job_grade_every_shard_once() -> None:
    slurm = next(b for b in _blocks("bash") if "#SBATCH --array" in b)
    low, high = map(int, re.search(r"#SBATCH --array=(\d+)-(\d+)", slurm).groups())
    assert "--shard auto" in slurm and "--db" in slurm
    count = high - low + 1
    shards = {resolve("auto", {"SLURM_ARRAY_TASK_ID": str(t), "SLURM_ARRAY_TASK_MIN": str(low),
                               "SLURM_ARRAY_TASK_COUNT": str(count)}).index for t in range(low, high + 1)}
    assert shards == set(range(count))

    job = yaml.safe_load(next(b for b in _blocks("yaml") if "kind: Job" in b))
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed"
    container = spec["template"]["spec"]["containers"][0]
    env = {e["name"]: e.get("value") for e in container.get("env", [])}
    assert int(env["AUTOGRAD_STATE_SHARD_COUNT"]) == spec["completions"]
    assert "--shard" in container["args"] and container["args"][container["args"].index("--shard") + 1] == "auto"
    shards = {resolve("auto", {"JOB_COMPLETION_INDEX": str(i), **env}).index for i in range(spec["completions"])}
    assert shards == set(range(spec["completions"]))


@pytest.mark.nbgrader
@pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")
def test_shards_started_as_slurm_kubernetes_and_ci_start_them_grade_one_class(postgres, tmp_path) -> None:  # noqa: F811
    course = copy_course(tmp_path / "course")
    course.nbgrader("generate_assignment", CHAPTER, "--force", db=postgres)
    right = {g: RIGHT[g][0][1] for g in exercises(CHAPTER)}
    students = {f"s{n}": {**right, "views-can-view": WRONG["views-can-view"][0][1]} if n % 2 else right
                for n in range(6)}
    for student, answers in students.items():
        submit(course, CHAPTER, student, answers)
    assert {shard_of(s, 3) for s in students} == {0, 1, 2}, "every shard must have work"

    engines = [  # the three shards of one class, each told its place the way its engine tells it
        {"SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_MIN": "1", "SLURM_ARRAY_TASK_COUNT": "3"},
        {"JOB_COMPLETION_INDEX": "1", "AUTOGRAD_STATE_SHARD_COUNT": "3"},
        {"CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "3"},
    ]
    command = [sys.executable, "-m", "autograder.pipeline.cli", "--root", str(course.root), "--db", postgres,
               "grade", CHAPTER, "--workers", "1", "--shard", "auto"]
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("SLURM_", "JOB_COMPLETION", "CI_NODE",
                                                                        "AUTOGRAD_STATE_SHARD"))}
    runs = [subprocess.Popen(command, env={**clean, **extra}, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True) for extra in engines]
    graded = 0
    for index, run in enumerate(runs):
        out, err = run.communicate(timeout=900)
        assert run.returncode == 0, out + err
        assert f"grading shard {index}/3" in out
        graded += int(re.search(r"graded (\d+) submission\(s\)", out).group(1))
    assert graded == len(students), "every student graded exactly once"

    table = scores(course, CHAPTER, db=postgres)
    assert set(table) == set(students)
    total = sum(ex.points(False) + ex.points(True) for ex in exercises(CHAPTER).values())
    for student in students:
        assert (sum(table[student].values()) == total) == (students[student] == right), student
    assert not (course.root / "gradebook.db").exists(), "nothing may fall back to the SQLite gradebook"

"""A chapter's locked prefix, run once: submissions forked from it are graded exactly as a run from
the top grades them; any other submission runs from the top; no submission can reach the state
the next one starts from."""

from __future__ import annotations

import json
import textwrap

import nbformat
import pytest

from autograder.engine.cases import exercises
from autograder.pipeline.course import Course, nbgrader_meta, read_notebook
from autograder.pipeline.grading import verdict
from autograder.pipeline.sandbox import prefix as prefixes
from autograder.pipeline.sandbox import wire
from autograder.pipeline.sandbox.confine import Limits, is_root, processes_of
from autograder.pipeline.sandbox.pool import Pool
from tests.catalog.views import RIGHT, WRONG
from tests.conftest import released_copy

CHAPTER = "views"
SEED = 11
LIMITS = Limits(wall=60, cpu=60, memory=3 * 2**30, processes=64, file_size=2**20, output=2**16,
                flood=4 * 2**20, probe=20)
root_only = pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> Course:
    course = released_copy(tmp_path_factory, tmp_path_factory.mktemp("prefix-course") / "course", [CHAPTER])
    return course


@pytest.fixture(scope="module")
def edition(course: Course) -> nbformat.NotebookNode:
    return read_notebook(course.release_notebook(CHAPTER))


@pytest.fixture(scope="module")
def key() -> verdict.Key:
    return verdict.Key.of(CHAPTER, SEED)


@pytest.fixture(scope="module")
def pool():
    with Pool(1, LIMITS) as pool:
        yield pool


def answered(edition: nbformat.NotebookNode, answers: dict[str, str]) -> nbformat.NotebookNode:
    """A submission: the student edition with the given answer cells filled in."""
    notebook = nbformat.from_dict(json.loads(nbformat.writes(edition)))
    for cell in notebook.cells:
        grade_id = nbgrader_meta(cell).get("grade_id")
        if grade_id in answers:
            cell.source = answers[grade_id]
    return notebook


def first_answer_index(notebook: nbformat.NotebookNode) -> int:
    return next(i for i, c in enumerate(notebook.cells) if nbgrader_meta(c).get("solution"))


def graded(verdict_: verdict.Verdict) -> dict:
    """What a run decides: every test cell's points and message, every cell's outputs."""
    tests = {g: (t.earned, t.not_run, None if t.verdict is None else t.verdict.message())
             for g, t in verdict_.tests.items()}
    outputs = {g: [dict(o) for o in outs] for g, outs in verdict_.outputs.items()}
    return {"tests": tests, "outputs": outputs, "problems": verdict_.problems}


def run_both(pool: Pool, submission: nbformat.NotebookNode, edition: nbformat.NotebookNode,
             key: verdict.Key) -> tuple[wire.JobResult, dict, dict]:
    """Grade a submission with the chapter's prefix offered and without it."""
    plan = verdict.plan(submission, edition, key)
    offered = pool.submit(plan, prefix=prefixes.of_edition(edition, CHAPTER)).result()
    top = pool.submit(plan).result()
    assert top.prefix == ""
    return offered, graded(verdict.judge(offered, edition, key)), graded(verdict.judge(top, edition, key))


# ------------------------------------------------------------------- which plans use the prefix
def test_the_prefix_is_the_locked_code_before_the_first_answer(edition, key) -> None:
    prefix = prefixes.of_edition(edition, CHAPTER)
    first = first_answer_index(edition)
    locked = [c for c in edition.cells[:first] if c.cell_type == "code"]
    assert [s.key for s in prefix.steps] == [nbgrader_meta(c)["grade_id"] for c in locked]
    assert [s.source for s in prefix.steps] == [c.source for c in locked]
    assert set(prefix.may_raise) == {nbgrader_meta(c)["grade_id"] for c in locked
                                     if "raises-exception" in c.metadata.get("tags", [])}
    assert prefix.may_raise, "Chapter 1 shows errors before its first answer"
    assert prefixes.leads(verdict.plan(edition, edition, key), prefix)


def test_a_cell_inserted_or_deleted_before_the_first_answer_does_not_lead(edition, key) -> None:
    prefix = prefixes.of_edition(edition, CHAPTER)
    inserted = answered(edition, {})
    inserted.cells.insert(3, nbformat.v4.new_code_cell("x = 1"))
    deleted = answered(edition, {})
    del deleted.cells[next(i for i, c in enumerate(deleted.cells) if c.cell_type == "code")]
    after = answered(edition, {})
    after.cells.insert(first_answer_index(after) + 1, nbformat.v4.new_code_cell("x = 1"))
    assert not prefixes.leads(verdict.plan(inserted, edition, key), prefix)
    assert not prefixes.leads(verdict.plan(deleted, edition, key), prefix)
    assert prefixes.leads(verdict.plan(after, edition, key), prefix)


def test_an_edited_locked_cell_still_leads_because_locked_cells_run_as_released(edition, key) -> None:
    edited = answered(edition, {})
    locked = next(c for c in edited.cells if c.cell_type == "code")
    locked.source = "raise SystemExit"
    assert prefixes.leads(verdict.plan(edited, edition, key), prefixes.of_edition(edition, CHAPTER))


# --------------------------------------------------------------------- Chapter 1 in the sandbox
@root_only
def test_a_class_is_graded_the_same_from_the_prefix_and_from_the_top(pool, edition, key) -> None:
    grade_ids = list(exercises(CHAPTER))
    right = {g: RIGHT[g][0][1] for g in grade_ids}
    wrong = {g: WRONG[g][0][1] if WRONG.get(g) else RIGHT[g][0][1] for g in grade_ids}
    broken = {**right, grade_ids[0]: "def broken(:\n", grade_ids[1]: "raise RuntimeError('no')"}
    earned = {}
    for name, answers in (("right", right), ("wrong", wrong), ("broken", broken)):
        offered, forked, top = run_both(pool, answered(edition, answers), edition, key)
        assert offered.prefix == prefixes.FORKED, name
        assert forked == top, name
        earned[name] = sum(points for points, _, _ in forked["tests"].values())
    assert earned["right"] > earned["wrong"] and earned["right"] > earned["broken"]
    assert not processes_of(pool.idle.queue[0].uid)


def last_locked_code_index(notebook: nbformat.NotebookNode) -> int:
    first = first_answer_index(notebook)
    return max(i for i, c in enumerate(notebook.cells[:first]) if c.cell_type == "code")


@root_only
@pytest.mark.parametrize("change", ["inserted", "deleted", "inserted after the prefix"])
def test_a_changed_prefix_runs_from_the_top_and_is_graded_the_same(pool, edition, key, change) -> None:
    submission = answered(edition, {g: RIGHT[g][0][1] for g in exercises(CHAPTER)})
    mine = nbformat.v4.new_code_cell("print('mine')")
    if change == "inserted":  # before the last locked cell of the prefix
        submission.cells.insert(last_locked_code_index(submission), mine)
    elif change == "deleted":
        del submission.cells[next(i for i, c in enumerate(submission.cells) if c.cell_type == "code")]
    else:  # after every locked cell, still before the first answer: runs in the forked child
        submission.cells.insert(first_answer_index(submission), mine)
    offered, offered_graded, top = run_both(pool, submission, edition, key)
    assert offered.prefix == (prefixes.FORKED if change == "inserted after the prefix" else prefixes.NOT_LEADING)
    assert offered_graded == top
    if change != "deleted":
        assert any("mine" in o.get("text", "") for outs in top["outputs"].values() for o in outs)


# ---------------------------------------------------------------------- synthetic prefixes
def steps(*sources: str) -> list[wire.CodeStep]:
    return [wire.CodeStep(f"cell-{i}", textwrap.dedent(s)) for i, s in enumerate(sources)]


TOKEN = steps("import os\nimport torch\ntoken = os.urandom(8).hex()\nstate = torch.rand(2)")
SHOW = wire.CodeStep("show", "print(token, state.tolist(), torch.rand(2).tolist())")


def printed(result: wire.JobResult, key: str) -> str:
    cells = wire.Reports.read(result.report).cells
    return "".join(getattr(o, "text", "") + getattr(o, "ename", "") for o in cells[key].outputs)


@pytest.fixture(scope="module")
def small_pool():
    with Pool(1, Limits(wall=15, cpu=10, memory=3 * 2**30, processes=64, probe=5)) as pool:
        yield pool


RIGHTS = steps("""
    import os
    import torch
    state = torch.rand(2)
    print("root" if os.geteuid() == 0 else "sandbox user", os.getcwd(), os.environ["HOME"])
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("1")
        print("clear_refs written")
    except OSError as err:
        print("clear_refs refused", type(err).__name__)
    import mimetypes  # a module nothing imported before: the interpreter is readable
""")


@root_only
def test_a_forked_child_sees_what_a_fresh_run_sees(small_pool) -> None:
    prefix = wire.Prefix("views", RIGHTS)
    plan = wire.Plan("views", [*RIGHTS, wire.CodeStep("show", "print(state.tolist(), torch.rand(2).tolist(), "
                                                              "os.getcwd(), os.environ['HOME'], os.getuid() != 0)")])
    forked = small_pool.submit(plan, prefix=prefix).result()
    again = small_pool.submit(plan, prefix=prefix).result()
    top = small_pool.submit(plan).result()
    assert forked.prefix == again.prefix == prefixes.FORKED
    # The prefix ran with the sandbox user's rights, as it does from the top.
    assert printed(forked, "cell-0") == printed(top, "cell-0")
    assert printed(top, "cell-0") == "sandbox user /tmp/scratch /tmp/scratch\nclear_refs refused PermissionError\n"
    # torch's generator state is inherited from the zygote either way: the same draws.
    assert printed(forked, "show") == printed(again, "show") == printed(top, "show")
    assert "/tmp/scratch /tmp/scratch True" in printed(top, "show")


@root_only
def test_a_submission_cannot_kill_trace_or_write_the_holder(small_pool) -> None:
    prefix = wire.Prefix("views", TOKEN)
    before = small_pool.submit(wire.Plan("views", [*TOKEN, SHOW]), prefix=prefix).result()
    # The holder is outside the job's PID namespace: the job cannot name it, let alone signal, trace
    # or write it. It tries every pid there is.
    attack = wire.CodeStep("attack", """
        import ctypes, errno, os, signal
        libc = ctypes.CDLL(None, use_errno=True)
        print("parent", os.getppid(), "me", os.getpid())
        reached = []
        for pid in range(3, 1 << 16):
            if libc.ptrace(16, pid, None, None) == 0 or ctypes.get_errno() != errno.ESRCH:
                reached.append(("ptrace", pid))
            try:
                os.kill(pid, signal.SIGSTOP)
                reached.append(("signal", pid))
            except ProcessLookupError:
                pass
            except OSError:
                reached.append(("signal refused", pid))
            if os.path.exists(f"/proc/{pid}/mem"):
                reached.append(("mem", pid))
        print("reached", reached)
        try:
            os.kill(-1, signal.SIGKILL)
        finally:
            token = "changed"
    """)
    attacked = small_pool.submit(wire.Plan("views", [*TOKEN, attack]), prefix=prefix).result()
    after = small_pool.submit(wire.Plan("views", [*TOKEN, SHOW]), prefix=prefix).result()
    assert attacked.prefix == prefixes.FORKED
    text = printed(attacked, "attack")
    assert "parent 1 me 2\nreached []\n" in text, text
    assert after.prefix == prefixes.FORKED
    # The prefix's random token is the holder's: the same holder, untouched, served the next job.
    assert printed(after, "show").split()[0] == printed(before, "show").split()[0] != "changed"
    assert printed(after, "show") == printed(before, "show")


@root_only
def test_a_chapter_switch_replaces_the_holder(small_pool) -> None:
    first = wire.Prefix("views", steps("name = 'views'"))
    second = wire.Prefix("capstone", steps("name = 'capstone'"))
    show = wire.CodeStep("show", "print(name)")
    results = [small_pool.submit(wire.Plan(p.assignment, [*p.steps, show]), prefix=p).result()
               for p in (first, second, first)]
    assert [r.prefix for r in results] == [prefixes.FORKED] * 3
    assert [printed(r, "show").strip() for r in results] == ["views", "capstone", "views"]


@root_only
def test_a_failing_prefix_falls_back_to_the_top_and_says_why(small_pool) -> None:
    failing = steps("import torch", "raise ValueError('broken locked cell')", "x = 2")
    expected = wire.Prefix("views", steps("import torch", "raise ValueError('shown on purpose')", "x = 2"),
                           ["cell-1"])
    show = wire.CodeStep("show", "print(x)")
    result = small_pool.submit(wire.Plan("views", [*failing, show]), prefix=wire.Prefix("views", failing)).result()
    assert result.prefix.startswith("ran from the top: the prefix cell cell-1 raised ValueError")
    assert printed(result, "show").strip() == "2" and "ValueError" in printed(result, "cell-1")
    tolerated = small_pool.submit(wire.Plan("views", [*expected.steps, show]), prefix=expected).result()
    assert tolerated.prefix == prefixes.FORKED and printed(tolerated, "show").strip() == "2"


@root_only
@pytest.mark.parametrize(("leaves", "why"), [
    ("import threading, time\nthreading.Thread(target=time.sleep, args=(20,), daemon=True).start()",
     "1 threads running"),
    ("import subprocess, sys\nsleeper = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(20)'])",
     "1 child processes running"),
    ("import mmap\nshared = mmap.mmap(-1, 4096)", "a writable shared mapping"),
    ("open('notes.txt', 'w').write('x')", "files in its working folder (notes.txt)"),
])
def test_a_prefix_a_fork_cannot_carry_runs_from_the_top(small_pool, leaves, why) -> None:
    prefix = wire.Prefix("views", steps(leaves, "x = 4"))
    result = small_pool.submit(wire.Plan("views", [*prefix.steps, wire.CodeStep("show", "print(x)")]),
                               prefix=prefix).result()
    assert result.prefix.startswith(f"ran from the top: the prefix left {why}")
    assert printed(result, "show").strip() == "4"


@root_only
def test_a_prefix_that_times_out_falls_back_to_the_top(small_pool) -> None:
    slow = steps("import time\ntime.sleep(60)", "x = 3")
    limits = Limits(wall=3, cpu=10, memory=3 * 2**30, processes=64, probe=5)
    plan = wire.Plan("views", [*slow, wire.CodeStep("show", "print(x)")])
    result = small_pool.submit(plan, limits, prefix=wire.Prefix("views", slow)).result()
    assert result.prefix == "ran from the top: the prefix did not finish within 3 s"
    assert result.reason == "timed out after 3 s"


def test_the_prefix_travels_in_the_job() -> None:
    prefix = wire.Prefix("views", steps("a = 1", "b = 2"), ["cell-1"])
    job = wire.Job(3, wire.Plan("views", [*prefix.steps]), {"wall": 1}, 5.0, prefix)
    assert wire.Job.from_line(job.to_line()) == job
    assert wire.Job.from_line(json.dumps({**json.loads(job.to_line()), "prefix": None})).prefix is None


"""Chapter 6's checks: the rules of ``buckets-ranks-agree`` give what the answers they stand for
report on real ranks, every check holds runs that agree and runs that do not, the key agrees with
torch, the page does not answer its own exercises, and the catalogue's answers get the verdicts
they should (in process, the distributed checks on real ranks)."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import nbformat
import pytest
import torch
import torch.nn.functional as F

import autograder.chapters.buckets as buckets
from answer_key.buckets import AGREE_ANSWERS, MAX_NORM, ranks_facts
from autograder.chapters.buckets import (
    AGREE_CASES,
    CHANGES,
    SELFTEST_CAP_MB,
    SELFTEST_FEATURES,
    SELFTEST_LAYERS,
    SELFTEST_SHARDED,
    VERDICT_RULES,
    agree_module,
    agree_spec,
    logging_batch,
    logging_model,
    module_state,
    observe_agreement,
)
from autograder.engine.draw import Draw
from autograder.engine.values import GIVEN
from tests.cases import ChapterCases

NOTEBOOK = Path(__file__).parents[2] / "notebooks" / "buckets" / "buckets.ipynb"


def chapter_cells() -> dict[str, str]:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    return {c.metadata["nbgrader"]["grade_id"]: c.source for c in notebook.cells}


def setup_namespace() -> dict:
    """What the chapter's setup cell defines before an answer cell runs."""
    names: dict = {"__name__": "__main__"}
    exec(compile(chapter_cells()["buckets-setup"], "<buckets-setup>", "exec"), names)  # noqa: S102
    return names


@pytest.fixture(autouse=True)
def _restore_the_modules():
    """An exploit may rebind names of the checks' modules; the next test sees them as they were."""
    modules = [sys.modules[name] for name in ("autograder.chapters.buckets", "autograder.engine.ranks",
                                              "autograder.engine.observe")]
    kept = [dict(vars(module)) for module in modules]
    yield
    for module, names in zip(modules, kept, strict=True):
        vars(module).clear()
        vars(module).update(names)


class TestBucketsCases(ChapterCases):
    CHAPTER = "buckets"
    NAMES = setup_namespace()
    _graded: dict = {}

    def answer(self, grade_id, label, source):
        found = super().answer(grade_id, label, source)
        try:
            found.catalogued_source = source
        except AttributeError:  # a dict of values (the self-test)
            pass
        return found

    def verdicts(self, grade_id, answer):
        # An answer is graded once per source (each grading starts ranks); an exploit that
        # rebinds the checks' names is graded afresh.
        source = getattr(answer, "catalogued_source", None)
        if source is None or "autograder" in source:
            return super().verdicts(grade_id, answer)
        if (grade_id, source) not in self._graded:
            self._graded[grade_id, source] = super().verdicts(grade_id, answer)
        return self._graded[grade_id, source]


def _answer(source: str):
    names = dict(TestBucketsCases.NAMES)
    exec(compile(source, "<answer>", "exec"), names)  # noqa: S102
    return names["ranks_agree"]


@pytest.mark.parametrize("rule", [r for r in VERDICT_RULES if r not in ("first-two-ranks", "local-verdict")])
def test_each_rule_gives_what_its_answer_reports_on_real_ranks(rule):
    for change in ("swap", "ulp", "checksum"):
        found = observe_agreement(_answer(AGREE_ANSWERS[rule]), agree_spec(Draw(5)), change, 1, 2)
        assert _same(GIVEN[f"buckets-ranks-agree/{rule}"](found), found), (rule, change)


@pytest.mark.parametrize("rule", ["reference", "first-two-ranks", "local-verdict"])
def test_the_rules_that_tell_ranks_apart_hold_on_three_ranks(rule):
    found = observe_agreement(_answer(AGREE_ANSWERS[rule]), agree_spec(Draw(6)), "weight", 2, 3)
    assert _same(GIVEN[f"buckets-ranks-agree/{rule}"](found), found), rule


def _same(a: dict, b: dict) -> bool:
    from autograder.engine.values import equal

    return equal(a, b)


def test_a_report_without_both_outcomes_resolves_to_nothing():
    state = module_state(agree_module(agree_spec(Draw(1))))
    forged = {"verdicts": "TT TT", "not a bool": [], "changed": [], "states": [[state, state], [state, state]]}
    with pytest.raises(ValueError, match="agree and runs where they do not"):
        GIVEN["buckets-ranks-agree/reference"](forged)


def test_every_plan_changes_a_buffer_and_leaves_some_runs_alone():
    for change in CHANGES:
        for _ in range(50):
            plan = buckets._plan(buckets.RUNS, change)
            assert "none" in plan and "running" in plan and change in plan
            assert set(plan) == {"none", change, *buckets.ALSO.get(change, ("running",))}


def test_each_cell_tells_every_catalogued_mistake_from_the_others_on_any_plan():
    """A cell names a mistake whose model reproduces its results in that cell alone. Every plan holds
    each option of a check at least once; so some option of the cell's checks must set the two rules
    apart on every drawn module, or a draw could name one mistake for the other."""
    def verdicts(change: str, changer: int, world: int, seed: int) -> dict[str, tuple]:
        spec = agree_spec(Draw(seed))
        states = []
        for rank in range(world):
            model = agree_module(spec)
            if rank == changer:
                buckets._change(model, change)
            states.append(module_state(model))
        return {rule: tuple(decide(states)) for rule, decide in VERDICT_RULES.items()}

    for hidden in (False, True):
        options = {(option, changer, world) for change, changer, world, h, _ in AGREE_CASES.values() if h == hidden
                   for option in ["none", change, *buckets.ALSO.get(change, ("running",))]}
        found = {option: [verdicts(*option, seed) for seed in range(20)] for option in options}
        mistakes = [rule for rule in VERDICT_RULES if rule != "reference" and any(
            v[rule] != v["reference"] for runs in found.values() for v in runs)]
        for mistake, other in itertools.permutations(mistakes, 2):
            assert any(all(v[mistake] != v[other] for v in runs) for runs in found.values()), \
                (hidden, mistake, other)


def test_each_change_differs_bitwise_and_keeps_what_it_claims_to_keep():
    def sums(state):
        return [t.sum() for part in state.values() for t in part.values()]

    def checksums(state):
        from autograder.chapters.buckets import _checksum

        return [_checksum(t) for part in state.values() for t in part.values()]

    for seed in range(30):
        spec = agree_spec(Draw(seed))
        base = module_state(agree_module(spec))
        for change in CHANGES:
            model = agree_module(spec)
            buckets._change(model, change)
            changed = module_state(model)
            assert not buckets._same_state(base, changed), (seed, change)
            if change in ("swap", "checksum"):
                assert all(torch.equal(a, b) for a, b in zip(sums(base), sums(changed), strict=True))
            if change == "checksum":
                assert all(torch.equal(a, b) for a, b in zip(checksums(base), checksums(changed), strict=True))
            if change == "ulp":
                assert VERDICT_RULES["allclose"]([base, changed]) == [True, True]


def test_the_cases_cover_every_change_and_a_third_rank():
    assert {change for change, *_ in AGREE_CASES.values()} | {"weight"} == set(CHANGES)
    assert any(world == 3 and changer == 2 for _c, changer, world, *_ in AGREE_CASES.values())


def test_the_logged_step_clips_on_every_drawn_seed():
    """The buggy step clips rank 0's gradient in at least one step of every check's draws, so
    that it always diverges the ranks (a one-process simulation of DDP's average)."""
    for seed, steps in [*[(s, 3) for s in range(0, 100, 7)], *[(s, 5) for s in range(100, 1000, 61)]]:
        model = logging_model(seed)
        optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
        norms = []
        for step in range(steps):
            per_rank = []
            for rank in range(2):
                model.zero_grad()
                x, y = logging_batch(seed, step, rank)
                F.mse_loss(model(x), y).backward()
                per_rank.append([p.grad.clone() for p in model.parameters()])
            for p, a, b in zip(model.parameters(), *per_rank, strict=True):
                p.grad = (a + b) / 2
            norms.append(torch.nn.utils.get_total_norm([p.grad for p in model.parameters()]).item())
            optimizer.step()
        assert max(norms) > MAX_NORM, seed


def test_the_self_test_facts_follow_the_rules_the_chapter_teaches():
    import torch.distributed as dist

    facts = ranks_facts()
    gradients = [torch.empty(SELFTEST_FEATURES, SELFTEST_FEATURES)] * SELFTEST_LAYERS
    assigned, _ = dist._compute_bucket_assignment_by_size(
        gradients, [SELFTEST_CAP_MB * 1024 * 1024], [False] * SELFTEST_LAYERS)
    assert len(assigned) not in (1, SELFTEST_LAYERS)
    assert [f["buckets"] for f in facts] == [len(assigned)] * len(facts)
    pieces = torch.empty(SELFTEST_SHARDED[1], SELFTEST_SHARDED[0]).chunk(len(facts))
    assert [f["local elements"] for f in facts] == [piece.numel() for piece in pieces]
    assert not any(f["detach kept"] for f in facts)
    # FSDP1 over 2 ranks: 15 elements, a shard of ceil(15 / 2) = 8 on each (one of padding on rank 1).
    assert [f["flat weight"] for f in facts] == [8, 12 - 8]


def test_the_page_does_not_answer_its_exercises():
    cells = chapter_cells()
    own = {"buckets-safe-logging-task", "buckets-safe-logging", "buckets-selftest-task", "buckets-selftest"}
    page = "\n".join(source for gid, source in cells.items() if gid not in own)
    for said in ("get_total_norm", "vector_norm", "clip_grad_norm_(model.parameters(), float",
                 str(SELFTEST_FEATURES), f"Linear{SELFTEST_SHARDED}", "grad.detach()\n", "Linear(4, 3)"):
        assert said not in page, said
    # ranks_agree covers buffers; the page's helper compares parameters only.
    assert "buffers" not in cells["buckets-setup"]


def test_a_key_given_by_a_rule_ships_as_data_and_judges_on_the_reported_facts():
    from answer_key.keys import cell_key
    from autograder.engine.cases import lookup
    from autograder.engine.observe import Seen
    from autograder.judging import Given, agrees, keys_from_json, keys_to_json

    exercise = lookup("buckets-ranks-agree")
    key = cell_key(exercise, False, None)
    shipped = keys_from_json(keys_to_json({"buckets-ranks-agree": key}))["buckets-ranks-agree"]
    point = shipped["swap"].points[0]
    assert point.expected.value == Given("buckets-ranks-agree/reference")
    assert set(point.models) == {"sums", "checksums", "allclose", "parameters-only", "local-verdict",
                                 "first-two-ranks"}
    spec = agree_spec(Draw(2))
    same, changed = module_state(agree_module(spec)), agree_module(spec)
    buckets._change(changed, "swap")
    states = [[same, same], [same, module_state(changed)]]
    case = next(c for c in exercise.cases if c.name == "swap")
    right = {"verdicts": "TT FF", "not a bool": [], "changed": [], "states": states}
    assert agrees(case, Seen(value=right), point.expected)
    assert not agrees(case, Seen(value={**right, "verdicts": "TT TT"}), point.expected)
    assert agrees(case, Seen(value={**right, "verdicts": "TT TT"}), point.models["sums"])
    assert not agrees(case, Seen(raised=("RankError", "rank 0 raised")), point.expected)

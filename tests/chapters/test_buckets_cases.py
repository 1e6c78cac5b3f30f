"""Chapter 6's checks: the rules of ``buckets-ranks-agree`` give what the answers they stand for
report on real ranks, from the draws alone; every check holds runs that agree and runs that do not;
the key agrees with torch; the page does not answer its own exercises; and the catalogue's answers
get the verdicts they should (in process, the distributed checks on real ranks)."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import nbformat
import pytest
import torch
import torch.nn.functional as F

import autograder.chapters.buckets as buckets
from answer_key.buckets import AGREE_ANSWERS, MAX_NORM, VERDICT_RULES, checksum, module_state, ranks_facts
from autograder.chapters.buckets import (
    AGREE_CASES,
    CHANGES,
    SELFTEST_CAP_MB,
    SELFTEST_FEATURES,
    SELFTEST_LAYERS,
    SELFTEST_SHARDED,
    agree_module,
    agree_spec,
    apply_change,
    logging_batch,
    logging_model,
    observe_agreement,
)
from autograder.engine import secret
from autograder.engine.draw import Draw
from autograder.engine.observe import Seen
from autograder.judging import RULES, Given
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


def _observed(rule: str, inputs: tuple) -> tuple[dict, dict]:
    """What the answer a rule stands for reports on real ranks, and the draws made for it."""
    secret.taken()
    found = observe_agreement(_answer(AGREE_ANSWERS[rule]), *inputs)
    return found, secret.taken()


@pytest.mark.parametrize("rule", [r for r in VERDICT_RULES if r not in ("first-two-ranks", "local-verdict")])
def test_each_rule_gives_what_its_answer_reports_on_real_ranks(rule):
    plans = [("swap", "few"), ("ulp", "few"), ("checksum", "few"), ("counter", "past 2**24"),
             ("non-persistent", "few")]
    for scenario, (change, counts) in enumerate(plans):
        inputs = (agree_spec(Draw(5), counts), change, 1, 2, scenario)
        found, drawn = _observed(rule, inputs)
        assert _same(RULES[f"buckets-ranks-agree/{rule}"](found, inputs, drawn), found), (rule, change)


@pytest.mark.parametrize("rule", ["reference", "first-two-ranks", "local-verdict"])
def test_the_rules_that_tell_ranks_apart_hold_on_three_ranks(rule):
    inputs = (agree_spec(Draw(6)), "weight", 2, 3, 7)
    found, drawn = _observed(rule, inputs)
    assert _same(RULES[f"buckets-ranks-agree/{rule}"](found, inputs, drawn), found), rule


def _same(a: dict, b: dict) -> bool:
    from autograder.engine.values import equal

    return equal(a, b)


def test_a_run_whose_draw_the_grader_did_not_keep_resolves_to_nothing():
    """A job that draws for itself (its own os.urandom, not the supervisor's) reports verdicts the
    grader has no truth for: the rule resolves to nothing, and nothing agrees with it."""
    inputs = (agree_spec(Draw(1)), "swap", 1, 2, 3)
    found = {"verdicts": "TT FF", "not a bool": [], "changed": []}
    rule = Given("buckets-ranks-agree/reference", inputs).bound({})
    assert isinstance(rule.on(Seen(value=found)).value, Given)
    drawn = {buckets.agree_tag(inputs[0], "swap", 1, 2, 3): "00" * 16}
    assert isinstance(Given("buckets-ranks-agree/reference", inputs).bound(drawn).on(Seen(value=found)).value, dict)


def test_every_plan_changes_a_buffer_and_leaves_some_runs_alone():
    for change in CHANGES:
        for seed in range(50):
            plan = buckets.plan(buckets.RUNS, change, random.Random(seed))
            assert "none" in plan and "running" in plan and change in plan
            assert set(plan) == {"none", change, *buckets.ALSO.get(change, ("running",))}


def test_each_cell_tells_every_catalogued_mistake_from_the_others_on_any_plan():
    """A cell names a mistake whose model reproduces its results in that cell alone. Every plan holds
    each option of a check at least once; so some option of the cell's checks must set the two rules
    apart on every drawn module, or a draw could name one mistake for the other."""
    def verdicts(change: str, changer: int, world: int, counts: str, seed: int) -> dict[str, tuple]:
        spec = agree_spec(Draw(seed), counts)
        states = []
        for rank in range(world):
            model = agree_module(spec)
            if rank == changer:
                apply_change(model, change, random.Random(seed))
            states.append(module_state(model))
        return {rule: tuple(decide(states)) for rule, decide in VERDICT_RULES.items()}

    # The visible cell takes the form of the results only; the hidden cell judges and names.
    options = {(option, changer, world, counts) for change, changer, world, counts, hidden, _ in AGREE_CASES.values()
               if hidden for option in ["none", change, *buckets.ALSO.get(change, ("running",))]}
    found = {option: [verdicts(*option, seed) for seed in range(20)] for option in options}
    mistakes = [rule for rule in VERDICT_RULES if rule != "reference" and any(
        v[rule] != v["reference"] for runs in found.values() for v in runs)]
    for mistake, other in itertools.permutations(mistakes, 2):
        assert any(all(v[mistake] != v[other] for v in runs) for runs in found.values()), (mistake, other)


def test_each_change_differs_bitwise_and_keeps_what_it_claims_to_keep():
    def sums(state):
        return [t.sum() for part in state.values() for t in part.values()]

    def checksums(state):
        return [checksum(t) for part in state.values() for t in part.values()]

    for seed in range(30):
        spec = agree_spec(Draw(seed))
        base = module_state(agree_module(spec))
        for change in CHANGES:
            model = agree_module(spec)
            apply_change(model, change, random.Random(seed))
            changed = module_state(model)
            assert not VERDICT_RULES["reference"]([base, changed])[0], (seed, change)
            if change in ("swap", "checksum"):
                assert all(torch.equal(a, b) for a, b in zip(sums(base), sums(changed), strict=True))
            if change == "checksum":
                assert all(torch.equal(a, b) for a, b in zip(checksums(base), checksums(changed), strict=True))
            if change == "ulp":
                assert VERDICT_RULES["allclose"]([base, changed]) == [True, True]
            if change == "non-persistent":
                assert VERDICT_RULES["state-dict"]([base, changed]) == [True, True]
            else:
                assert not VERDICT_RULES["state-dict"]([base, changed])[0], (seed, change)


def test_a_count_past_2_24_moved_by_one_keeps_its_float32_value():
    for seed in range(30):
        spec = agree_spec(Draw(seed), "past 2**24")
        assert 2**24 <= spec[-1] < 2**27
        base = module_state(agree_module(spec))
        model = agree_module(spec)
        apply_change(model, "counter", random.Random(seed))
        changed = module_state(model)
        assert VERDICT_RULES["float32"]([base, changed]) == [True, True]
        assert VERDICT_RULES["reference"]([base, changed]) == [False, False]


def test_the_module_holds_a_buffer_its_state_dict_leaves_out():
    model = agree_module(agree_spec(Draw(2)))
    names = {name for name, _ in model.named_buffers()}
    assert buckets.NON_PERSISTENT in names and buckets.NON_PERSISTENT not in model.state_dict()


def test_the_cases_cover_every_change_and_a_third_rank():
    assert {change for change, *_ in AGREE_CASES.values()} | {"weight"} == set(CHANGES)
    assert any(world == 3 and changer == 2 for _c, changer, world, *_ in AGREE_CASES.values())
    assert any(change == "counter" and counts == "past 2**24" for change, _r, _w, counts, *_ in AGREE_CASES.values())


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


def test_a_learners_installation_judges_no_run_and_the_grader_judges_from_its_draws():
    """The visible checks take the form of the results only (a learner's kit holds no rule and no
    draw); the hidden ones judge each run from the states the grader rebuilds from its inputs and
    the draw its supervisor kept."""
    from answer_key.buckets import rebuilt_states
    from answer_key.keys import cell_key
    from autograder.engine.cases import lookup
    from autograder.judging import agrees, keys_from_json, keys_to_json

    exercise = lookup("buckets-ranks-agree")
    shipped = keys_from_json(keys_to_json({"buckets-ranks-agree": cell_key(exercise, False, None)}))
    assert all(p.expected == Seen() and not p.models for case in shipped["buckets-ranks-agree"].values()
               for p in case.points)
    point = cell_key(exercise, True, 11)["checksum-kept"].points[0]
    assert set(point.models) == {"sums", "checksums", "allclose", "parameters-only", "local-verdict",
                                 "first-two-ranks", "float32", "state-dict"}
    spec, change, changer, world, scenario = point.expected.value.inputs
    drawn = {buckets.agree_tag(spec, change, changer, world, scenario): "5a" * 16}
    runs = rebuilt_states(point.expected.value.inputs, drawn)

    def observed(rule: str) -> Seen:
        verdicts = " ".join("".join("T" if v else "F" for v in VERDICT_RULES[rule](states)) for states in runs)
        return Seen(value={"verdicts": verdicts, "not a bool": [], "changed": []})

    case = next(c for c in exercise.cases if c.name == "checksum-kept")
    expected = point.expected.value.bound(drawn)
    assert agrees(case, observed("reference"), Seen(value=expected))
    assert not agrees(case, observed("checksums"), Seen(value=expected))
    assert agrees(case, observed("checksums"), Seen(value=point.models["checksums"].value.bound(drawn)))
    assert not agrees(case, observed("reference"), Seen(value=point.expected.value.bound({})))  # no draw, no truth
    assert not agrees(case, Seen(raised=("RankError", "rank 0 raised")), Seen(value=expected))

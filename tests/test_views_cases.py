"""Chapter 1's cases: their expectations agree with torch and with the curriculum's contract."""

import pytest
import torch

from autograder.checks import exercises, run
from autograder.views import CLASSIFY_PROBES, base, classify_by_probe, same_storage, view_succeeds
from tests.catalog.views import RIGHT, WRONG

CONTRACT_CLASSIFY = {
    "transpose": "view", "basic_slice": "view", "advanced_index": "copy", "boolean_mask": "copy",
    "view": "view", "reshape": "ambiguous", "contiguous": "ambiguous", "expand": "view",
    "clone": "copy", "detach": "view",
}


def test_probing_torch_reproduces_the_contract_classification():
    assert {key: classify_by_probe(key) for key in CLASSIFY_PROBES} == CONTRACT_CLASSIFY


def test_same_storage_sees_offsets_and_detach_but_not_copies():
    t = base()
    assert same_storage(t, t[1:]) and same_storage(t, t.detach()) and same_storage(t[0], t[3])
    assert not same_storage(t, t.clone()) and not same_storage(t, t[[0, 1]])


def test_view_succeeds_matches_the_chapter_examples():
    t = base()
    assert view_succeeds(t[:, :4], (4, 2, 2)) and view_succeeds(t.T, (2, 4, 4))
    assert not view_succeeds(t.T, (32,)) and not view_succeeds(t, (3, 11))


def test_every_exercise_has_visible_and_hidden_cases():
    for grade_id, exercise in exercises("views").items():
        assert exercise.selected(hidden=False), grade_id
        assert exercise.selected(hidden=True), grade_id
        names = [case.name for case in exercise.cases]
        assert len(names) == len(set(names)), grade_id


def test_case_inputs_are_fresh_on_every_call():
    case = exercises("views")["views-shares-storage"].cases[0]
    first, second = case.inputs(), case.inputs()
    assert not same_storage(first[0], second[0])
    first[0].zero_()
    assert not torch.equal(first[0], second[0])


@pytest.mark.parametrize(
    ("grade_id", "label", "source"),
    [(gid, label, src) for gid, answers in RIGHT.items() for label, src in answers],
)
def test_right_answers_pass_every_case(grade_id, label, source):
    namespace = {"torch": torch}
    exec(compile(source, f"<{label}>", "exec"), namespace)
    answer = namespace[exercises("views")[grade_id].answer]
    assert run(grade_id, answer, hidden=False) == []
    assert run(grade_id, answer, hidden=True) == []


@pytest.mark.parametrize(
    ("grade_id", "label", "source", "message"),
    [(gid, label, src, msg) for gid, answers in WRONG.items() for label, src, msg in answers],
)
def test_wrong_answers_fail_with_their_misconception(grade_id, label, source, message):
    namespace = {"torch": torch}
    exec(compile(source, f"<{label}>", "exec"), namespace)
    answer = namespace[exercises("views")[grade_id].answer]
    failures = run(grade_id, answer, hidden=False) + run(grade_id, answer, hidden=True)
    assert failures, f"{label} earned full points"
    assert any(message in failure.misconception for failure in failures), [f.misconception for f in failures]

"""Chapter 1's cases: their expectations agree with torch and with the curriculum's contract."""

from pathlib import Path

import nbformat
import pytest
import torch

from autograder.checks import exercises
from autograder.views import (
    CLASSIFY_PROBES,
    MORE_EXPRESSIONS,
    base,
    classify_by_probe,
    classify_expression,
    more_sources,
    same_storage,
    view_succeeds,
)
from tests.cases import ChapterCases

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


def test_case_inputs_are_fresh_on_every_call():
    case = exercises("views")["views-shares-storage"].cases[0]
    first, second = case.inputs(), case.inputs()
    assert not same_storage(first[0], second[0])
    first[0].zero_()
    assert not torch.equal(first[0], second[0])


ERROR_FRAGMENTS = {
    "y.movedim(0, 2).view(60)": "view size is not compatible with input tensor's size and stride",
    "x.as_strided((4, 5), (5, 1), 1)": "out of bounds for storage of size 80",
}


def test_the_expressions_that_error_raise_the_layout_errors_they_teach():
    erroring = [e for e in MORE_EXPRESSIONS if classify_expression(e) == "error"]
    assert sorted(erroring) == sorted(ERROR_FRAGMENTS)
    for expression, fragment in ERROR_FRAGMENTS.items():
        with pytest.raises(RuntimeError, match=fragment.replace("(", r"\(").replace(")", r"\)")):
            eval(expression, {"torch": torch, **more_sources()})


def test_a_result_counts_as_a_view_only_when_it_shares_storage():
    assert classify_expression("x.T") == "view" and classify_expression("x.clone()") == "copy"
    assert classify_expression("x[[0, 1]]") == "copy" and classify_expression("y[1:]") == "view"


def test_the_expressions_cover_every_answer_visibly_and_hidden():
    for hidden in (False, True):
        found = {classify_expression(e) for e, (h, _m, _s) in MORE_EXPRESSIONS.items() if h == hidden}
        assert found == {"view", "copy", "error"}, hidden


def test_no_specific_message_is_attached_to_the_right_answer():
    for expression, (_hidden, _otherwise, specific) in MORE_EXPRESSIONS.items():
        assert classify_expression(expression) not in specific, expression


def test_the_chapter_never_shows_the_expressions_outside_their_exercise():
    notebook = nbformat.read(Path(__file__).parents[1] / "notebooks/views/views.ipynb", as_version=4)
    exercise_cells = ("views-classify-more-task", "views-classify-more")
    page = "\n".join(c.source for c in notebook.cells if c.get("id") not in exercise_cells)
    for expression in MORE_EXPRESSIONS:
        assert expression not in page, expression


class TestViewsCases(ChapterCases):
    CHAPTER = "views"
    NAMES = {"torch": torch}

"""Chapter 1's checks: the key agrees with torch and with the curriculum's contract, and the
catalogue's answers get the verdicts they should."""

import math
from pathlib import Path

import nbformat
import numpy as np
import torch

from answer_key.views import (
    base,
    classify_by_probe,
    classify_expression,
    more_sources,
    share_memory,
    view_succeeds,
)
from autograder.chapters.views import CAN_VIEW_CASES, CLASSIFY_OPERATIONS, MORE_EXPRESSIONS, can_view, shares
from autograder.engine.bare import Layout
from autograder.engine.draw import Draw
from autograder.engine.layouts import layout_of
from tests.cases import ChapterCases

CONTRACT_CLASSIFY = {
    "unflatten": "view", "index_select": "copy", "broadcast_to": "view", "repeat": "copy", "ravel": "ambiguous",
    "diag": "copy", "view_dtype": "view", "flip": "copy", "reshape_as": "ambiguous", "atleast_3d": "view",
}


class TestViewsCases(ChapterCases):
    CHAPTER = "views"
    NAMES = {"torch": torch}


def test_probing_torch_reproduces_the_contract_classification():
    assert {key: classify_by_probe(key) for key in CLASSIFY_OPERATIONS} == CONTRACT_CLASSIFY


def test_shared_memory_is_overlapping_bytes_not_equal_starts():
    t = base()
    assert share_memory(t, t[1:]) and share_memory(t, t.detach()) and share_memory(t[0], t[3])
    assert not share_memory(t, t.clone())
    array = np.arange(6.0)
    whole, tail = torch.from_numpy(array), torch.from_numpy(array[2:])
    assert whole.untyped_storage().data_ptr() != tail.untyped_storage().data_ptr()
    assert share_memory(whole, tail)
    tail[0] = -1.0
    assert whole[2].item() == -1.0  # the write through one shows in the other
    empty_a, empty_b = torch.empty(0), torch.empty(0)
    assert empty_a.untyped_storage().data_ptr() == empty_b.untyped_storage().data_ptr()
    assert not share_memory(empty_a, empty_b)


def test_view_succeeds_on_a_layout_matches_torch_on_the_tensor():
    for seed in range(60):
        for _name, (_what, _family, _how, _hidden, _points) in CAN_VIEW_CASES.items():
            case = next(c for c in can_view.cases if c.name == _name)
            layout, shape = case.build(seed)
            assert isinstance(layout, Layout)
            real = torch.empty(4096).as_strided(layout.shape, layout.stride(), layout.storage_offset())
            try:
                real.view(shape)
                legal = True
            except RuntimeError:
                legal = False
            assert view_succeeds(layout, shape) == legal, (layout, shape)


def test_every_can_view_check_runs_on_both_outcomes_whatever_its_seed():
    for case in can_view.cases:
        for seed in (1, 2, 3):
            assert {view_succeeds(*inputs) for inputs in case.draws(seed)} == {True, False}, case.name
    assert {view_succeeds(*next(c for c in can_view.cases if c.name == "drawn-layouts").build(s))
            for s in range(40)} == {True, False}


def test_every_shares_storage_check_runs_on_both_outcomes_whatever_its_seed():
    for case in shares.cases:
        for seed in (1, 2, 3):
            assert {share_memory(*inputs[:2]) for inputs in case.draws(seed)} == {True, False}, case.name


def test_a_layout_reports_what_the_tensor_reports():
    t = torch.arange(24.0).view(2, 3, 4).permute(2, 0, 1)[1:]
    layout = layout_of(t)
    assert (layout.shape, layout.stride(), layout.storage_offset(), layout.is_contiguous()) == (
        tuple(t.shape), t.stride(), t.storage_offset(), t.is_contiguous())
    assert (layout.numel(), layout.dim(), layout.size(1), layout.stride(0)) == (t.numel(), t.dim(), t.size(1),
                                                                                 t.stride(0))


def test_the_search_draws_smaller_inputs_of_the_same_family():
    for case in [*can_view.cases, *shares.cases]:
        draws = case.draws(7)
        assert len(draws) == 1 + len(case.anchors) + case.tries
        first, *searched = draws
        assert type(first) is tuple and all(len(d) == len(first) for d in searched)


def test_the_expressions_that_error_raise_the_layout_errors_they_teach():
    assert classify_expression("y.movedim(0, 2).view(60)") == "error"
    assert classify_expression("x.as_strided((4, 5), (5, 1), 1)") == "error"


def test_a_result_counts_as_a_view_only_when_it_shares_memory():
    sources = more_sources()
    assert share_memory(sources["x"].T.unbind(0)[2], sources["x"])
    assert classify_expression("x[:, 1:].flatten()") == "copy"


def test_the_expressions_cover_every_answer():
    assert {classify_expression(e) for e in MORE_EXPRESSIONS} == {"view", "copy", "error"}


def test_the_chapter_never_shows_the_expressions_outside_their_exercise():
    notebook = nbformat.read(Path(__file__).parents[2] / "notebooks/views/views.ipynb", as_version=4)
    exercise_cells = ("views-classify-more-task", "views-classify-more")
    page = "\n".join(c.source for c in notebook.cells if c.metadata["nbgrader"]["grade_id"] not in exercise_cells)
    for expression in MORE_EXPRESSIONS:
        assert expression not in page, expression


def test_every_shares_storage_relation_is_drawn_afresh_per_seed():
    case = next(c for c in shares.cases if c.name == "offset-view")
    assert {tuple(case.build(seed)[0].shape) for seed in range(20)} != {tuple(case.build(0)[0].shape)}
    assert Draw(3).sized(1, 9) == Draw(3).sized(1, 9)


# Each self-test question's own expression: none may be run, printed or stated outside the self-test.
QUESTION_EXPRESSIONS = ["torch.zeros(3, 5)", "view(4, 8)[1:]", "torch.zeros(4).expand(3, 4)", "view(3, 4)[:, 1:3]",
                        "b[1][2]", "unsqueeze(1).expand(3, 4)"]


def _page(leaving_out: set[str]) -> tuple[str, str]:
    """The chapter's sources and its stored outputs, without the cells named."""
    notebook = nbformat.read(Path(__file__).parents[2] / "notebooks/views/views.ipynb", as_version=4)
    kept = [c for c in notebook.cells if c.metadata["nbgrader"]["grade_id"] not in leaving_out]
    outputs = "\n".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", ""))
                        for c in kept for o in c.get("outputs", []))
    return "\n".join(c.source for c in kept), outputs


def test_no_cell_prints_the_strides_the_warm_up_asks_for():
    from answer_key.views import _strides

    _sources, outputs = _page({"views-strides"})
    for key, stride in _strides().items():
        if key != "contiguous":
            assert str(stride) not in outputs, key


def test_no_self_test_question_is_run_or_stated_outside_the_self_test():
    sources, outputs = _page({"views-selftest-task", "views-selftest"})
    for expression in QUESTION_EXPRESSIONS:
        assert expression not in sources + outputs, expression


def _case(exercise, name: str):
    return next(c for c in exercise.cases if c.name == name)


def test_the_edge_families_of_can_view_draw_their_edge():
    """Tensors with no elements, -1 on them, and shapes with more than one -1 (among them ones where
    filling each -1 in would give a legal view): the inputs the task allows and each edge's check draws."""
    legal_when_filled = 0
    for seed in range(20):
        for inputs in _case(can_view, "no-elements").draws(seed):
            assert inputs[0].numel() == 0
        own = [_case(can_view, "no-elements-infer").build(seed)] + \
            [_case(can_view, "no-elements-infer").search(Draw(seed, size)) for size in (1, 2, 3)]
        assert all(layout.numel() == 0 and list(shape).count(-1) == 1 for layout, shape in own)
        layout, shape = _case(can_view, "two-infers").build(seed)
        assert list(shape).count(-1) >= 2 and not view_succeeds(layout, shape)
        known = math.prod(s for s in shape if s != -1)
        filled = tuple(layout.numel() // known if s == -1 else s for s in shape)
        legal_when_filled += view_succeeds(layout, filled)
    assert legal_when_filled >= 10


def test_a_tensor_with_no_elements_is_viewed_by_torch_as_any_shape_of_no_elements():
    empty = torch.empty(3, 0).mT
    assert [view_succeeds(layout_of(empty), shape) for shape in [(0,), (5, 0, 7), (-1,), (-1, 7), (0, -1), (1,)]] == [
        True, True, True, True, False, False]


SHARING_MISTAKES = {
    # model of a mistake: the checks it fails (it passes every other)
    "storage-start": {"numpy-slices", "numpy-slices-swapped", "adjacent-storages", "empty-storage"},
    "one-sided": {"numpy-slices-swapped"},
    "touching-ends": {"adjacent-storages"},
    "empty-storage-overlaps": {"empty-storage"},
    "empty-tensor-address": {"empty-view"},
}


def test_a_mistake_about_sharing_loses_the_points_of_its_own_families_only():
    """Each check holds one family of pairs: a mistake that is wrong on one family fails that check
    and passes every other (no check runs pairs of another family)."""
    from answer_key.keys import key_of
    from autograder.kernel import verdict

    models = {m.name: m.answer for m in key_of(shares).models}
    for name, failing in SHARING_MISTAKES.items():
        for seed in (1, 2, 3):
            failed = {v.case.name for hidden in (False, True)
                      for v in verdict("views-shares-storage", models[name], hidden, seed).failures}
            assert failed == failing, (name, seed)
    for seed in (1, 2, 3):
        failed = {v.case.name for hidden in (False, True)
                  for v in verdict("views-shares-storage", models["element-extents"], hidden, seed).failures}
        assert {"siblings", "disjoint-blocks", "empty-view"} <= failed <= {"siblings", "disjoint-blocks", "empty-view",
                                                                          "strided-views"}


def test_the_storage_families_draw_the_edges_they_name():
    case = _case(shares, "empty-storage")
    adjacent = _case(shares, "adjacent-storages")
    for seed in range(20):
        whole, empty, _ = case.build(seed)
        inside = empty.untyped_storage().data_ptr() - whole.untyped_storage().data_ptr()
        assert empty.untyped_storage().nbytes() == 0 and 0 < inside < whole.untyped_storage().nbytes()
        first, second, _ = adjacent.build(seed)
        end = first.untyped_storage().data_ptr() + first.untyped_storage().nbytes()
        assert end == second.untyped_storage().data_ptr()
        view, t, _ = _case(shares, "empty-view").build(seed)
        assert view.numel() == 0 and view.untyped_storage().data_ptr() == t.untyped_storage().data_ptr()

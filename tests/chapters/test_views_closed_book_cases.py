"""The checks of Chapter 1's closed-book companion: the key's layouts are torch's, the drawn
inputs stay inside the contract, and the catalogue's answers get the verdicts they should."""

from __future__ import annotations

import torch

from answer_key.views_closed_book import contiguous_stride, expanded, sliced, transposed
from autograder.chapters.views_closed_book import same_layout
from autograder.engine.cases import exercises
from autograder.engine.draw import Draw
from autograder.engine.layouts import drawn_tensor, header, over_storage
from tests.cases import ChapterCases

SEEDS = range(40)


class TestViewsClosedBookCases(ChapterCases):
    CHAPTER = "views-closed-book"
    NAMES: dict = {}


def _drawn(function: str) -> list[tuple]:
    cases = [c for c in exercises("views-closed-book")["views-reproduce"].cases
             if c.subject == function and c.form is None]
    return [inputs for case in cases for seed in SEEDS for inputs in case.draws(seed)]


def test_a_drawn_tensor_is_a_view_with_the_long_dimension_asked_for():
    for seed in SEEDS:
        t, long = drawn_tensor(Draw(seed), dims=4, long=10)
        assert header(over_storage(*header(t))) == header(t)
        assert t.shape[long] == 10 and t.stride(long) >= 2


def test_the_key_layouts_are_what_torch_reports_on_real_views():
    t = torch.arange(120.0).view(2, 3, 4, 5)
    assert contiguous_stride((2, 3, 4, 5)) == t.stride() == (60, 20, 5, 1)
    assert contiguous_stride((3, 1, 4)) == (4, None, 1)
    assert transposed(tuple(t.shape), t.stride(), 0, -1) == ((5, 3, 4, 2), (1, 20, 5, 60))
    assert sliced(tuple(t.shape), t.stride(), 0, 2, 1, 4, 2) == header(t[:, :, 1:4:2]) == (
        (2, 3, 2, 5), (60, 20, 10, 1), 5)
    assert expanded((3, 1), (1, 1), (2, -1, 4)) == ((2, 3, 4), (0, 1, 0))


def test_drawn_inputs_stay_inside_the_contract():
    for shape, _stride, d0, d1 in _drawn("transposed"):
        dims = len(shape)
        assert dims <= 5 and -dims <= min(d0, d1) and max(d0, d1) < dims and d0 % dims != d1 % dims
    for shape, _stride, _offset, dim, start, stop, step in _drawn("sliced"):
        assert -len(shape) <= dim < len(shape) and 0 <= start <= stop <= shape[dim] and step >= 1
    for shape, _stride, new_shape in _drawn("expanded"):
        assert len(new_shape) >= len(shape) and -1 in new_shape


def test_strides_of_size_one_dimensions_are_not_compared():
    assert same_layout(((3, 1), (1, 99)), ((3, 1), (1, 1)))
    assert not same_layout(((3, 2), (1, 99)), ((3, 2), (1, 1)))
    assert not same_layout(([3, 1], (1, 1)), ((3, 1), (1, 1)))
    assert same_layout((4, 0, 1), (4, None, 1)) and same_layout((99, 4, 1), (None, 4, 1))
    assert not same_layout((4, 0, 2), (4, None, 1)) and not same_layout((4, 1), (4, None, 1))


def test_the_visible_checks_hold_no_expected_value():
    from answer_key.keys import visible_keys

    for key in visible_keys("views-closed-book").values():
        for case_key in key.values():
            assert case_key.says == {}
            assert all(p.expected.value is None and not p.models for p in case_key.points)


def test_shapes_with_a_size_zero_dimension_are_drawn_where_a_stride_before_it_is_compared():
    """torch counts a size-0 dimension as 1 when it lays out the dimensions before it: a check on
    such shapes compares the stride of a dimension of size 2 or more that comes before a size-0 one."""
    case = next(c for c in exercises("views-closed-book")["views-reproduce"].cases if c.name == "contiguous-size-zero")
    for seed in SEEDS:
        for (shape,) in case.draws(seed):
            assert 0 in shape and shape[0] >= 2
            assert contiguous_stride(shape)[0] == torch.empty(shape).stride()[0] != 0

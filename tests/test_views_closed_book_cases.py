"""The cases of Chapter 1's closed-book companion: trusted layouts agree with torch, the drawn
inputs stay inside the contract, and the catalogue's answers get their verdicts."""

from __future__ import annotations

import torch

from autograder.checks import exercises
from autograder.draw import Draw
from autograder.views_closed_book import (
    TRUSTED,
    layout_of,
    over_storage,
    random_layout,
    same_layout,
    torch_contiguous_stride,
    torch_expanded,
    torch_sliced,
    torch_transposed,
)
from tests.cases import ChapterCases

SEEDS = range(40)


class TestViewsClosedBookCases(ChapterCases):
    CHAPTER = "views-closed-book"
    NAMES: dict = {}


def _drawn(function: str) -> list[tuple]:
    cases = [c for c in exercises("views-closed-book")["views-reproduce"].cases
             if c.expect is TRUSTED[function]]
    return [case.build(seed) for case in cases for seed in SEEDS]


def test_a_layout_over_its_storage_is_the_layout_asked_for():
    for seed in SEEDS:
        layout, long = random_layout(Draw(seed), dims=4, long=10)
        assert layout_of(over_storage(*layout)) == layout
        assert layout[0][long] == 10 and layout[1][long] >= 2


def test_the_trusted_layouts_are_what_torch_reports_on_real_views():
    t = torch.arange(120.0).view(2, 3, 4, 5)
    assert torch_contiguous_stride((2, 3, 4, 5)) == t.stride() == (60, 20, 5, 1)
    assert torch_transposed(tuple(t.shape), t.stride(), 0, -1) == ((5, 3, 4, 2), (1, 20, 5, 60))
    view = t[:, :, 1:4:2]
    assert torch_sliced(tuple(t.shape), t.stride(), 0, 2, 1, 4, 2) == layout_of(view) == (
        (2, 3, 2, 5), (60, 20, 10, 1), 5)
    column = torch.arange(3.0).view(3, 1)
    assert torch_expanded((3, 1), (1, 1), (2, -1, 4)) == ((2, 3, 4), (0, 1, 0))
    assert column.expand(2, -1, 4).stride() == (0, 1, 0)


def test_drawn_inputs_stay_inside_the_contract():
    for shape, _stride, d0, d1 in _drawn("transposed"):
        dims = len(shape)
        assert dims <= 5 and -dims <= min(d0, d1) and max(d0, d1) < dims and d0 % dims != d1 % dims
    for shape, _stride, _offset, dim, start, stop, step in _drawn("sliced"):
        assert 0 <= start <= stop <= shape[dim] and step >= 1
    leading = 0
    for shape, _stride, new_shape in _drawn("expanded"):
        lead = len(new_shape) - len(shape)
        leading = max(leading, lead)
        assert all(new in (-1, old) or old == 1 for new, old in zip(new_shape[lead:], shape, strict=True))
        assert -1 not in new_shape[:lead]
    assert leading == 2


def test_the_drawn_layouts_vary_and_include_negative_dimensions_and_empty_slices():
    assert len({inputs for inputs in _drawn("transposed")}) > len(SEEDS)
    assert any(d0 < 0 or d1 < 0 for _s, _st, d0, d1 in _drawn("transposed"))
    assert any(start == stop for *_rest, start, stop, _step in _drawn("sliced"))
    assert any(dim < 0 for _s, _st, _o, dim, *_rest in _drawn("sliced"))


def test_strides_of_dimensions_of_size_zero_or_one_are_not_compared():
    assert same_layout(((3, 1), (1, 99)), ((3, 1), (1, 1)))
    assert same_layout(((3, 0), (7, 1), 4), ((3, 0), (7, 5), 4))
    assert not same_layout(((3, 2), (1, 99)), ((3, 2), (1, 1)))
    assert not same_layout(((3, 1), (1, 1), 5), ((3, 1), (1, 1), 4))
    assert not same_layout(([3, 1], (1, 1)), ((3, 1), (1, 1)))

"""The checks of Chapter 6's closed-book companion: the reference flattening makes views at their
offsets, the drawn models vary and repeat, the visible check holds no expected value, and the
catalogue's answers get the verdicts they should."""

from __future__ import annotations

import sys

import pytest
import torch
from torch import nn

from answer_key.buckets_closed_book import flatten_into_buffer
from autograder.chapters.buckets import small_model
from autograder.chapters.buckets_closed_book import DrawnModel, normed_model, observe_places
from autograder.engine.draw import Draw
from tests.cases import ChapterCases


@pytest.fixture(autouse=True)
def _restore_the_module():
    module = sys.modules["autograder.chapters.buckets_closed_book"]
    kept = dict(vars(module))
    yield
    vars(module).clear()
    vars(module).update(kept)


class TestBucketsClosedBookCases(ChapterCases):
    CHAPTER = "buckets-closed-book"
    NAMES = {"torch": torch, "nn": nn}


def test_the_reference_makes_every_parameter_a_view_at_its_offset():
    model = small_model()
    values = [p.detach().clone() for p in model.parameters()]
    flat = flatten_into_buffer(model)
    assert observe_places(flatten_into_buffer, small_model)["offsets in the buffer"] == [0, 32, 40, 56]
    assert flat.numel() == 58 and all(torch.equal(p, v) for p, v in zip(model.parameters(), values, strict=True))
    with torch.no_grad():
        flat.zero_()
    assert all(p.abs().sum() == 0 for p in model.parameters())


def test_drawn_models_repeat_for_a_seed_and_vary_across_seeds():
    first, again = DrawnModel(Draw(3))(), DrawnModel(Draw(3))()
    assert all(torch.equal(a, b) for a, b in zip(first.parameters(), again.parameters(), strict=True))
    shapes = {tuple(tuple(p.shape) for p in DrawnModel(Draw(seed))().parameters()) for seed in range(10)}
    assert len(shapes) > 1
    models = [DrawnModel(Draw(seed))() for seed in range(20)]
    assert any(isinstance(m, nn.BatchNorm1d) for model in models for m in model.modules())
    assert any(not p.requires_grad for model in models for p in model.parameters())


def test_the_normed_model_has_buffers_and_a_frozen_bias():
    model = normed_model()
    assert len(list(model.buffers())) == 3 and not model[0].bias.requires_grad


def test_the_visible_check_holds_no_expected_value():
    from answer_key.keys import visible_keys

    for key in visible_keys("buckets-closed-book").values():
        for case_key in key.values():
            assert case_key.says == {}
            assert all(p.expected.value is None and not p.models for p in case_key.points)


def test_a_float64_family_holds_float64_parameters_and_buffers():
    """The float64 family: every parameter and buffer float64, so a buffer of the default dtype
    changes what the parameters hold; the same draw in float32 has the same layers."""
    for seed in range(10):
        wide, plain = DrawnModel(Draw(seed), torch.float64), DrawnModel(Draw(seed))
        model = wide()
        held = [*model.parameters(), *model.buffers()]
        assert all(t.dtype == torch.float64 for t in held if t.is_floating_point())
        assert [p.shape for p in model.parameters()] == [p.shape for p in plain().parameters()]
        assert wide.describe() == plain.describe() + ", in float64"

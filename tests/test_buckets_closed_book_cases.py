"""The closed-book companion of Chapter 6: the reference flattening makes views at their offsets."""

import torch
from torch import nn

from autograder.buckets import small_model
from autograder.buckets_closed_book import drawn_model, reference_flatten
from autograder.draw import Draw
from tests.cases import ChapterCases


def test_reference_flatten_makes_every_parameter_a_view_at_its_offset():
    model = small_model()
    values = [p.detach().clone() for p in model.parameters()]
    flat = reference_flatten(model)
    offsets = [p.storage_offset() for p in model.parameters()]
    assert offsets == [0, 32, 40, 56] and flat.numel() == 58
    assert all(torch.equal(p, v) for p, v in zip(model.parameters(), values, strict=True))
    with torch.no_grad():
        flat.zero_()
    assert all(p.abs().sum() == 0 for p in model.parameters())


def test_drawn_models_repeat_for_a_seed_and_vary_across_seeds():
    first, again = drawn_model(Draw(3))(), drawn_model(Draw(3))()
    assert all(torch.equal(a, b) for a, b in zip(first.parameters(), again.parameters(), strict=True))
    shapes = {tuple(tuple(p.shape) for p in drawn_model(Draw(seed))().parameters()) for seed in range(10)}
    assert len(shapes) > 1
    assert any(isinstance(m, nn.BatchNorm1d) for seed in range(10) for m in drawn_model(Draw(seed))().modules())


class TestBucketsClosedBookCases(ChapterCases):
    CHAPTER = "buckets-closed-book"
    NAMES = {"torch": torch, "nn": nn}

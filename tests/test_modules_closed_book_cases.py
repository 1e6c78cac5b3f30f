"""The closed-book companion of Chapter 5: the reference counts as BatchNorm counts, inputs vary."""

import torch
from torch import nn

from autograder.checks import exercises
from autograder.modules_closed_book import INNERS, ReferenceCallCounter, observe_counts, observe_to_float64
from tests.cases import ChapterCases


def test_the_reference_counts_training_forwards_as_batchnorm_does():
    batches = tuple(torch.randn(3, 4) for _ in range(5))
    counted = observe_counts(ReferenceCallCounter, lambda: nn.Linear(4, 2), "tteet", batches)
    batchnorm = nn.BatchNorm1d(4)
    with torch.no_grad():
        for mode, x in zip("tteet", batches, strict=True):
            batchnorm.train(mode == "t")
            batchnorm(x)
    assert counted == int(batchnorm.num_batches_tracked) == 3


def test_to_float64_casts_the_weights_and_leaves_an_int64_buffer():
    found = observe_to_float64(ReferenceCallCounter, lambda: INNERS["mlp"](3), "t", (torch.randn(2, 3),))
    assert found == {"calls": "torch.int64", "parameters": ["torch.float64"]}


def test_hidden_cases_draw_other_inner_modules_and_schedules():
    case = next(c for c in exercises("modules-closed-book")["modules-reproduce"].cases if c.name == "counts-any-inner")
    drawn = {(type(case.build(seed)[0]()).__name__, case.build(seed)[1]) for seed in range(12)}
    assert len({kind for kind, _ in drawn}) > 1 and len({schedule for _, schedule in drawn}) > 1


class TestModulesClosedBookCases(ChapterCases):
    CHAPTER = "modules-closed-book"
    NAMES = {"torch": torch, "nn": nn}

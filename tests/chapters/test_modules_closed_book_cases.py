"""The checks of Chapter 5's closed-book companion: the key counts as BatchNorm counts, the inputs
vary, the visible check holds no expected value, and the catalogue's answers get their verdicts."""

import torch
from torch import nn

from answer_key.modules_closed_book import CallCounter
from autograder.chapters.modules_closed_book import CASES, observe_counts, observe_to_float64
from autograder.engine.cases import exercises
from autograder.engine.draw import Draw
from tests.cases import ChapterCases


class TestModulesClosedBookCases(ChapterCases):
    CHAPTER = "modules-closed-book"
    NAMES = {"torch": torch, "nn": nn}


def test_the_key_counts_training_forwards_as_batchnorm_does():
    for seed in range(6):
        (run,) = CASES["counts-any-inner"][2](Draw(seed))
        batchnorm = nn.BatchNorm1d(run.width)
        with torch.no_grad():
            for mode, x in zip(run.modes, run.batches, strict=True):
                batchnorm.train(mode == "t")
                batchnorm(x)
        assert observe_counts(CallCounter, run) == int(batchnorm.num_batches_tracked) == run.modes.count("t")


def test_to_float64_casts_the_weights_and_leaves_an_int64_buffer():
    for seed in range(8):
        (run,) = CASES["to-float64"][2](Draw(seed))
        found = observe_to_float64(CallCounter, run)
        assert found["calls"] == "torch.int64"
        assert found["parameters"] in ([], ["torch.float64"])


def test_hidden_cases_draw_other_inner_modules_and_schedules():
    case = next(c for c in exercises("modules-closed-book")["modules-reproduce"].cases if c.name == "counts-any-inner")
    drawn = {(case.build(seed)[0].kind, case.build(seed)[0].modes) for seed in range(12)}
    assert len({kind for kind, _ in drawn}) > 1 and len({modes for _, modes in drawn}) > 1


def test_the_visible_checks_hold_no_expected_value():
    from answer_key.keys import visible_keys

    for key in visible_keys("modules-closed-book").values():
        for case_key in key.values():
            assert case_key.says == {}
            assert all(p.expected.value is None and not p.models for p in case_key.points)


def test_a_parameter_counter_passes_the_form_and_the_hidden_checks_name_it():
    from autograder.kernel import verdict
    from tests.catalog.modules_closed_book import WRONG

    held_as_parameters = [(label, source, own) for label, source, own in WRONG["modules-reproduce"]
                          if "nn.Parameter" in source]
    assert len(held_as_parameters) >= 2
    for label, source, own in held_as_parameters:
        namespace = {"torch": torch, "nn": nn}
        exec(source, namespace)
        visible, hidden = (verdict("modules-reproduce", namespace["CallCounter"], h, 7) for h in (False, True))
        assert visible.failures == [], (label, visible.message())
        assert hidden.failures and {v.misconception for v in hidden.failures} - {None} == {own}, label

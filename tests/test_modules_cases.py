"""Chapter 5's cases: their expectations agree with torch and with the curriculum's contract, and
the catalogued answers pass or fail them in-process."""

import json
from pathlib import Path

import torch
from torch import nn

from autograder.checks import exercises, run
from autograder.modules import (
    BATCHNORM_CHANNELS,
    BATCHNORM_DTYPE,
    BATCHNORM_INPUT,
    BATCHNORM_TRAIN_FORWARDS,
    TiedLanguageModel,
    batches,
    batchnorm_story,
    observe_counts,
    observe_running_mean,
    round_trip,
    trainable_scalars,
)
from tests.cases import ChapterCases

CHAPTER = Path(__file__).resolve().parents[1] / "notebooks" / "modules" / "modules.ipynb"


def test_batchnorm_counts_training_forwards_only_as_calls_must():
    make = lambda: nn.BatchNorm1d(3)  # noqa: E731
    assert observe_counts(make, "num_batches_tracked", "tteeet", *batches(6, 0)) == 3


def test_reference_running_mean_follows_the_contract_formula():
    xs = batches(3, 0)
    expected = torch.zeros(3)
    for x in xs:
        expected = 0.9 * expected + 0.1 * x.mean(0)
    found = observe_running_mean(lambda: nn.BatchNorm1d(3, affine=False), *xs)
    assert torch.allclose(found, expected)


def test_trusted_count_takes_tied_weights_once_and_skips_frozen_ones():
    model = TiedLanguageModel(vocabulary=10, width=4)
    assert trainable_scalars(model) == 10 * 4 + (4 * 4 + 4)
    model.mix.requires_grad_(False)
    assert trainable_scalars(model) == 10 * 4


def test_round_trip_goes_through_bytes_and_restores_buffers():
    bn = nn.BatchNorm1d(3)
    for x in batches(2, 0):
        bn(x)
    fresh = round_trip(bn, nn.BatchNorm1d(3))
    assert int(fresh.num_batches_tracked) == 2 and torch.equal(fresh.running_mean, bn.running_mean)
    assert fresh.running_mean.untyped_storage().data_ptr() != bn.running_mean.untyped_storage().data_ptr()


def test_batchnorm_story_is_the_quiz_the_statement_sets():
    assert batchnorm_story() == {"parameters": 0, "state_dict": 3, "tracked_after_train": 3, "tracked_after_eval": 3,
                                 "tracked_dtype_after_to": "torch.int64", "mean_dtype_after_to": "torch.float16"}


def _chapter_cells() -> list[dict]:
    return json.loads(CHAPTER.read_text())["cells"]


def _grade_id(cell: dict) -> str:
    return cell["metadata"].get("nbgrader", {}).get("grade_id", "")


def test_the_statement_sets_the_scenario_the_story_runs():
    statement = next(c for c in _chapter_cells() if _grade_id(c) == "modules-reproduce-section")
    text = "".join(statement["source"])
    assert f"nn.BatchNorm2d({BATCHNORM_CHANNELS}, affine=False)" in text
    assert f"`{BATCHNORM_INPUT}`" in text
    assert f"bn.to({BATCHNORM_DTYPE})" in text
    assert BATCHNORM_TRAIN_FORWARDS == 3 and "three forwards in training mode" in text


def test_the_chapter_never_runs_the_quiz_module_nor_prints_its_dtype():
    # Outside the answer cell and its tests, no cell builds the quiz's module, and no stored output
    # or prose shows the dtype the quiz moves to: the answers must come from the mechanism.
    quiz_cells = ("modules-batchnorm", "modules-batchnorm-tests", "modules-batchnorm-tests-hidden")
    others = [c for c in _chapter_cells() if _grade_id(c) not in quiz_cells]
    code = [c for c in others if c["cell_type"] == "code"]
    assert not any("BatchNorm2d" in "".join(c["source"]) for c in code)
    outputs = json.dumps([c.get("outputs", []) for c in code])
    assert str(BATCHNORM_DTYPE) not in outputs
    prose = [c for c in others if c["cell_type"] == "markdown" and _grade_id(c) != "modules-reproduce-section"]
    assert not any(str(BATCHNORM_DTYPE) in "".join(c["source"]) for c in prose)


def test_case_inputs_are_fresh_and_deterministic():
    case = exercises("modules")["modules-running-mean"].cases[2]
    first, second = case.inputs(), case.inputs()
    assert all(torch.equal(a, b) and a is not b for a, b in zip(first, second, strict=True))


def test_a_value_that_is_not_a_module_class_is_refused():
    failures = run("modules-counting-linear", nn.Linear(3, 2))
    assert any("must be a class that subclasses torch.nn.Module" in f.misconception for f in failures)


class TestModulesCases(ChapterCases):
    CHAPTER = "modules"
    NAMES = {"torch": torch, "nn": nn}

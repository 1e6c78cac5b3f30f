"""Chapter 5's checks: the drivers report what torch's module machinery does, the key agrees with
torch and the contract, and the catalogue's answers get the verdicts they should."""

import json
from pathlib import Path

import torch
from torch import nn

from answer_key.modules import CountingLinear, RunningMean, batchnorm_story, count_parameters
from autograd_figures.state import state_kind
from autograder.chapters.modules import (
    BATCHNORM_CHANNELS,
    BATCHNORM_DTYPE,
    BATCHNORM_INPUT,
    BATCHNORM_TRAIN_FORWARDS,
    COUNT_CASES,
    MEMORY_CASES,
    MOMENTA,
    RUNNING_CASES,
    OverOneStorage,
    TiedLanguageModel,
    describe,
    held_as,
    module_recipe,
    observe_counts,
    observe_input_gradient,
    observe_running,
    round_trip,
    schedule,
)
from autograder.engine.cases import exercises
from autograder.engine.draw import Draw
from tests.cases import ChapterCases
from tests.catalog.modules import RIGHT, WRONG

CHAPTER = Path(__file__).resolve().parents[2] / "notebooks" / "modules" / "modules.ipynb"


class TestModulesCases(ChapterCases):
    CHAPTER = "modules"
    NAMES = {"torch": torch, "nn": nn}


def test_the_counting_key_counts_as_batchnorm_counts_its_batches():
    case = next(c for c in exercises("modules")["modules-counting-linear"].cases if c.name == "counts-more")
    for seed in range(6):
        (run,) = case.build(seed)
        batchnorm = nn.BatchNorm1d(run.sizes[0])
        with torch.no_grad():
            for mode, x in zip(run.modes, run.batches, strict=True):
                batchnorm.train(mode == "t")
                batchnorm(x)
        assert observe_counts(CountingLinear, run) == int(batchnorm.num_batches_tracked) == run.modes.count("t")


def test_the_running_mean_key_is_batchnorms_running_mean():
    for name in ("running-after-training", "momentum", "eval-frozen"):
        for seed in range(4):
            (run,) = RUNNING_CASES[name][2](Draw(seed))
            momentum = 0.1 if run.momentum is None else run.momentum
            reference = nn.BatchNorm1d(run.sizes[0], momentum=momentum, affine=False)
            with torch.no_grad():
                for mode, x in zip(run.modes, run.batches, strict=True):
                    reference.train(mode == "t")
                    reference(x)
            assert torch.allclose(observe_running(RunningMean, run), reference.running_mean, atol=1e-6), name


def test_the_training_gradient_key_flows_back_through_the_batch_mean():
    for seed in range(4):
        (run,) = RUNNING_CASES["train-gradient"][2](Draw(seed))
        found = observe_input_gradient(RunningMean, run)
        for i, (x, gradient) in enumerate(zip(run.batches, run.upstream, strict=True)):
            given = x.clone().requires_grad_()
            (given - given.mean(0)).backward(gradient)
            assert torch.allclose(found[f"forward {i + 1}: output"], x - x.mean(0), atol=1e-6)
            assert torch.allclose(found[f"forward {i + 1}: x.grad"], given.grad, atol=1e-6)
            assert not torch.allclose(given.grad, gradient)  # what a mean taken as a constant lets through


def test_the_hidden_momentum_tells_the_two_conventions_apart():
    assert 0.5 not in MOMENTA and all(abs(m - (1 - m)) > 0.2 for m in MOMENTA)


def test_every_schedule_with_both_modes_has_unequal_counts():
    for name in ("eval-output", "eval-frozen"):
        for seed in range(20):
            (run,) = RUNNING_CASES[name][2](Draw(seed))
            assert "e" in run.modes and run.modes.count("t") != run.modes.count("e")


def test_the_count_key_takes_tied_weights_once_and_skips_frozen_ones():
    model = TiedLanguageModel(vocabulary=10, width=4)
    assert count_parameters(model) == 10 * 4 + (4 * 4 + 4)
    model.mix.requires_grad_(False)
    assert count_parameters(model) == 10 * 4


def test_every_count_check_runs_on_modules_with_different_counts():
    case_by_name = {c.name: c for c in exercises("modules")["modules-count-params"].cases}
    for name in [*COUNT_CASES, *MEMORY_CASES]:
        for seed in (1, 2, 3):
            counts = {count_parameters(*inputs) for inputs in case_by_name[name].draws(seed)}
            assert len(counts) > 1, name


def test_every_memory_check_holds_parameters_that_share_a_storage():
    """Each family of shared memory gives distinct Parameter objects over one storage, and the
    count of memory differs there from a count per object, except on disjoint views and on a
    frozen window (each its own property: disjoint parts of one storage, and what is frozen)."""
    from answer_key.modules import _per_object

    for name, (make, _points, _hidden) in MEMORY_CASES.items():
        for seed in range(5):
            (module,) = module_recipe(make)(Draw(seed))
            storages = [p.untyped_storage().data_ptr() for p in module.parameters()]
            assert len(set(storages)) < len(storages), name
            differs = count_parameters(module) != _per_object(module)
            assert differs == (name not in ("disjoint-views", "frozen-overlap")), name


def test_the_memory_count_takes_each_shared_scalar_once():
    base = torch.randn(3, 4)
    module = OverOneStorage(base, [("all", lambda t: t, True), ("evens", lambda t: t.view(-1)[::2], True),
                                   ("row", lambda t: t[1], False), ("tail", lambda t: t.view(-1)[10:], False)])
    assert count_parameters(module) == 12
    module.all.requires_grad_(False)
    assert count_parameters(module) == 6  # the even places only; frozen ones add nothing


def test_a_message_shows_where_each_parameter_sits_in_the_memory_they_share():
    module = OverOneStorage(torch.randn(10), [("left", lambda t: t[:6], True), ("right", lambda t: t[4:], False)])
    text = describe(module)
    assert "one storage of 10 holds left (6,) stride (1,) offset 0, right (6,) stride (1,) offset 4" in text
    assert "right frozen" in text


def test_a_message_describes_the_module_it_counted():
    (module,) = module_recipe(COUNT_CASES["tied-across-depths"][0])(Draw(0))
    text = describe(module)
    assert "0.weight = 2.1.0.weight" in text and "2.1.0.bias frozen" in text


def test_round_trip_goes_through_bytes_and_restores_buffers():
    bn = nn.BatchNorm1d(3)
    for x in torch.randn(2, 4, 3):
        bn(x)
    fresh = round_trip(bn, nn.BatchNorm1d(3))
    assert int(fresh.num_batches_tracked) == 2 and torch.equal(fresh.running_mean, bn.running_mean)
    assert fresh.running_mean.untyped_storage().data_ptr() != bn.running_mean.untyped_storage().data_ptr()


def test_drawing_leaves_the_global_rng_alone():
    torch.manual_seed(123)
    expected = torch.rand(3)
    torch.manual_seed(123)
    for exercise in exercises("modules").values():
        for case in exercise.cases:
            if not case.entry:
                case.draws(3)
    schedule(lambda d: (3,), lambda d: "tt")(Draw(0))
    assert torch.equal(torch.rand(3), expected)


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


def test_the_chapter_never_runs_the_selftest_situations():
    """The self-test asks about situations no other cell runs and no prose states."""
    selftest_cells = ("modules-selftest-task", "modules-selftest")
    others = [c for c in _chapter_cells() if _grade_id(c) not in selftest_cells]
    page = "\n".join("".join(c["source"]) for c in others)
    outputs = json.dumps([c.get("outputs", []) for c in others])
    for situation in ("self.blocks = [", "num_batches_tracked.zero_()", "dec.weight = enc.weight",
                      "nn.Parameter(torch.zeros((), dtype=torch.int64))",
                      "floating point and complex dtype can require gradients"):
        assert situation not in page and situation not in outputs, situation


def test_held_as_says_what_state_kind_says_of_every_module_a_catalogued_answer_builds():
    """Read off what a module registered, a counter or a running mean is held as the chapter's state
    map says (its class redefining nothing): the exploits that redefine are the catalogue's."""
    for grade_id, build, name in (("modules-counting-linear", lambda cls: cls(3, 2), "calls"),
                                  ("modules-running-mean", lambda cls: cls(3), "running_mean")):
        sources = [entry[1] for entry in RIGHT[grade_id] + WRONG[grade_id]]
        for source in sources:
            names = {"torch": torch, "nn": nn}
            exec(source, names)  # noqa: S102 - the catalogue's answers
            module = build(names[exercises("modules")[grade_id].answer])
            assert held_as(module, name) == state_kind(module, name), source

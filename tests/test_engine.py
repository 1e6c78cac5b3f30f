"""The engine: observe records what an answer did (values, torch's or the answer's own errors, the
torch calls it made), judge decides from that data alone, and a test cell scores the points of the
cases that pass."""

from __future__ import annotations

import pytest
import torch

from autograder.checks import Diagnosis, Forbid, close, exercise
from autograder.engine import Raised, Raises, answer_key, judge_cell, observe, observe_cell
from autograder.recorder import ANY_TORCH, DATA

LEAF = Raises("RuntimeError", "a leaf Variable that requires grad", "torch's leaf in-place error")
VERSION = Raises("RuntimeError", "modified by an inplace operation", "torch's version-counter error")


def _declare(name: str, **defaults):
    return exercise(f"engine-{name}", "answer", module="tests.test_engine", **defaults)


def _verdict(declared, answer, seed: int = 0):
    return judge_cell(declared, False, observe_cell(declared, answer, False, seed), answer_key(declared, False, seed))


def leaf_write(x0: torch.Tensor) -> None:
    x = x0.clone().requires_grad_()
    x.add_(1)


def stale_backward(x0: torch.Tensor) -> None:
    y = x0.clone().requires_grad_().exp()  # exp saves its output
    y.add_(1)
    y.sum().backward()


def hand_raised(x0: torch.Tensor) -> None:
    raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")


def _build_error(text: str) -> RuntimeError:
    return RuntimeError(text)


def raised_through_a_helper(x0: torch.Tensor) -> None:
    error = _build_error("one of the variables needed for gradient computation has been modified by an "
                         "inplace operation")
    raise error


def caught_and_reraised(x0: torch.Tensor) -> None:
    try:
        leaf_write(x0)
    except RuntimeError:
        raise


def caught_and_rewritten(x0: torch.Tensor) -> None:
    try:
        leaf_write(x0)
    except RuntimeError as err:
        raise RuntimeError(str(err)) from None


def _observed(answer):
    case = _declare(f"origin-{answer.__name__}", returns=None, expect=lambda x0: LEAF,
                    otherwise="o").case("c", "answer(x0)", lambda: (torch.ones(3),))
    return observe(case, answer, seed=0)


@pytest.mark.parametrize("answer", [leaf_write, stale_backward, caught_and_reraised])
def test_an_error_torch_raised_is_observed_as_torchs(answer) -> None:
    seen = _observed(answer)
    assert seen.raised is not None and seen.raised.type_name == "RuntimeError"
    assert seen.raised.by_torch


@pytest.mark.parametrize("answer", [hand_raised, raised_through_a_helper, caught_and_rewritten])
def test_an_error_the_answer_raised_itself_is_observed_as_its_own(answer) -> None:
    seen = _observed(answer)
    assert seen.raised is not None and not seen.raised.by_torch


def test_an_error_the_task_asks_for_passes_only_when_torch_raised_it() -> None:
    asked = _declare("raises", returns=None, expect=lambda x0: LEAF, otherwise="the leaf must be refused")
    asked.case("leaf", "leaf_refusal(x0)", lambda d: (d.randn(4),))
    assert _verdict(asked, leaf_write).failures == []
    (by_hand,) = _verdict(asked, hand_raised).failures
    assert "raised by the answer's own code, not by torch" in by_hand.misconception
    assert "torch's leaf in-place error" in by_hand.misconception
    (silent,) = _verdict(asked, lambda x0: None).failures
    assert silent.misconception == "the leaf must be refused"
    (other,) = _verdict(asked, stale_backward).failures
    assert other.misconception == "the leaf must be refused"


def test_a_diagnosis_can_read_the_exception() -> None:
    asked = _declare("raise-diagnosis", returns=None, expect=lambda x0: LEAF, otherwise="o", diagnoses=(
        Diagnosis(lambda raised, _inputs: VERSION.matches(raised), "that is the version-counter error",
                  on_raise=True),))
    asked.case("leaf", "leaf_refusal(x0)", lambda: (torch.ones(2),))
    (failure,) = _verdict(asked, stale_backward).failures
    assert failure.misconception == "that is the version-counter error"


def test_forbidden_calls_are_recorded_even_when_the_answer_swallows_nothing() -> None:
    no_torch = Forbid((ANY_TORCH,), "reproduce the rule without torch; the answer calls {call}.")
    rule = _declare("no-torch", returns="int-tuple", expect=lambda shape: torch.empty(shape).stride(),
                    otherwise="o", forbid=(no_torch,))
    rule.case("3d", "contiguous_stride((2, 3, 4))", lambda: ((2, 3, 4),))

    def by_rule(shape):
        strides, step = [], 1
        for size in reversed(shape):
            strides.append(step)
            step *= size
        return tuple(reversed(strides))

    assert _verdict(rule, by_rule).failures == []
    (asked_torch,) = _verdict(rule, lambda shape: torch.empty(shape).stride()).failures
    assert asked_torch.misconception == "reproduce the rule without torch; the answer calls empty()."


def test_a_read_of_data_is_named() -> None:
    no_data = Forbid((DATA,), "the answer reads {call}, which hides writes from the version counter.")
    grad = _declare("no-data", returns="tensor", expect=lambda x: 2 * x, otherwise="o", forbid=(no_data,), agree=close)
    grad.case("x", "twice(x)", lambda: (torch.arange(3.0),))
    assert _verdict(grad, lambda x: x * 2).failures == []
    (failure,) = _verdict(grad, lambda x: x.data * 2).failures
    assert failure.found == "a read of .data"
    assert failure.misconception == "the answer reads .data, which hides writes from the version counter."


def test_a_test_cell_earns_the_points_of_the_cases_that_pass() -> None:
    sign = _declare("points", returns="bool", expect=lambda v: v > 0, otherwise="positive means > 0")
    sign.case("one", "positive(1)", lambda: (1,), points=2)
    sign.case("zero", "positive(0)", lambda: (0,), points=3)
    sign.case("minus", "positive(-1)", lambda: (-1,), points=1)
    verdict = _verdict(sign, lambda v: v >= 0)
    assert (verdict.earned, verdict.possible) == (3, 6)
    assert verdict.message().startswith("answer: 1 of 3 checks failed (3 of 6 points).")
    assert _verdict(sign, lambda v: v > 0).message() is None


def test_a_diagnosis_that_raises_does_not_apply() -> None:
    def broken_diagnosis(found, _inputs):
        raise ZeroDivisionError

    odd = _declare("bad-diagnosis", returns="int", expect=lambda v: v + 1, otherwise="add one",
                   diagnoses=(Diagnosis(broken_diagnosis, "never shown"),))
    odd.case("two", "next_int(2)", lambda: (2,))
    (failure,) = _verdict(odd, lambda v: v).failures
    assert failure.misconception == "add one"


def test_seeded_inputs_repeat_for_a_seed_and_differ_across_seeds() -> None:
    drawn = _declare("seeded", returns="tensor", expect=lambda x: x, otherwise="o")
    case = drawn.case("x", "same(x)", lambda d: (d.randn(d.integer(2, 6)),))
    assert torch.equal(case.build(5)[0], case.build(5)[0])
    assert len({tuple(case.build(seed)[0].tolist()) for seed in range(10)}) == 10


def test_raised_carries_plain_text() -> None:
    raised = Raised("RuntimeError", "boom", by_torch=True)
    assert str(raised) == "RuntimeError: boom"


def test_the_case_modules_import_no_drawing_code() -> None:
    """The trusted side (every chapter's and companion's cases) never imports matplotlib."""
    import subprocess
    import sys

    from autograder.pipeline.course import Course

    modules = [f"autograder.{a.replace('-', '_')}" for a in Course().chapters()]
    code = f"import sys; import {', '.join(modules)}; print('matplotlib' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"

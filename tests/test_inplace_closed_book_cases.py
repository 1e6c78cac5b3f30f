"""The cases of Chapter 2's closed-book companion: the trusted drivers and expectations agree
with torch, and the catalogue's answers get their verdicts."""

from __future__ import annotations

import pytest
import torch

from autograder.elementwise import ALL_OPS, SAVE_INPUT, SAVE_OUTPUT, Cube, Tracked, derivative
from autograder.engine import raised_as_data
from autograder.inplace_closed_book import (
    LEAF_ERROR,
    VERSION_ERROR,
    _through_backward,
    drive_error,
    drive_repair,
    expect_repair,
)
from tests.cases import ChapterCases

X0 = torch.tensor([0.3, -1.2, 2.0, 0.7])


class TestInplaceClosedBookCases(ChapterCases):
    CHAPTER = "inplace-closed-book"
    NAMES = {"torch": torch}


def _raised(action) -> Exception:
    with pytest.raises(RuntimeError) as info:
        action()
    return info.value


def _stale(f) -> None:
    x = X0.clone().requires_grad_()
    y = f(x).sum()
    with torch.no_grad():
        x.add_(1)
    y.backward()


@pytest.mark.parametrize("name", sorted(SAVE_INPUT))
def test_ops_that_save_their_input_make_backward_raise_the_version_error(name):
    err = _raised(lambda: _stale(SAVE_INPUT[name]))
    assert VERSION_ERROR.matches(raised_as_data(err)) and _through_backward(err)


@pytest.mark.parametrize("name", sorted(SAVE_OUTPUT))
def test_ops_that_save_their_output_survive_a_write_to_their_input(name):
    _stale(SAVE_OUTPUT[name])


def test_the_leaf_error_is_torchs_and_raised_at_the_write():
    x = X0.clone().requires_grad_()
    err = _raised(lambda: x.add_(1))
    assert LEAF_ERROR.matches(raised_as_data(err)) and raised_as_data(err).by_torch and not _through_backward(err)


def test_reading_a_stale_saved_tensor_raises_outside_backward():
    x = X0.clone().requires_grad_()
    y = x.sin()
    with torch.no_grad():
        x.add_(1)
    err = _raised(lambda: y.grad_fn._saved_self)
    assert VERSION_ERROR.matches(raised_as_data(err)) and not _through_backward(err)


@pytest.mark.parametrize("name", sorted(ALL_OPS))
def test_the_trusted_derivatives_are_the_closed_forms(name):
    closed_forms = {"sin": torch.cos, "pow3": lambda x: 3 * x**2, "Cube": lambda x: 3 * x**2, "exp": torch.exp,
                    "tanh": lambda x: 1 - torch.tanh(x) ** 2,
                    "sigmoid": lambda x: torch.sigmoid(x) * (1 - torch.sigmoid(x))}
    assert torch.allclose(derivative(ALL_OPS[name], X0), closed_forms[name](X0))


def test_the_custom_function_saves_its_input():
    y = Cube.apply(X0.clone().requires_grad_())
    assert len(y.grad_fn.saved_tensors) == 1


@pytest.mark.parametrize("name", sorted(ALL_OPS))
def test_the_repair_driver_reports_the_reference_as_expected(name):
    def reference(x0, f):
        x = x0.clone().requires_grad_(True)
        y = f(x.clone()).sum()
        with torch.no_grad():
            x.add_(1)
        y.backward()
        return x.grad

    seen = drive_repair({"grad_after_repair": reference}, X0, ALL_OPS[name])
    expected = expect_repair(X0, ALL_OPS[name])
    assert seen.keys() == expected.keys() and torch.allclose(seen["grad"], expected["grad"])
    assert all(seen[key] is True for key in ("f applied", "x0 unchanged", "leaf updated under no_grad"))


def test_the_tracker_finds_the_leaf_behind_a_copy():
    x = X0.clone().requires_grad_()
    tracked = Tracked(torch.sin, "sin")
    tracked(x.clone() * 1)
    assert tracked.leaf_reached() is x and not tracked.applied_to_a_leaf()


def test_the_error_driver_passes_torchs_error_on_and_reports_a_quiet_answer():
    driver = drive_error("leaf_refusal", LEAF_ERROR, lambda _t, _c: {})

    def refused(x0):
        x0.clone().requires_grad_().add_(1)

    err = _raised(lambda: driver({"leaf_refusal": refused}, X0))
    assert LEAF_ERROR.matches(raised_as_data(err))

    def quiet(x0):
        x = x0.clone().requires_grad_()
        with torch.no_grad():
            x.add_(1)

    seen = driver({"leaf_refusal": quiet}, X0)
    assert seen["raised"] is None and seen["no_grad used"] is True and seen["x0 unchanged"] is True


def test_the_error_driver_reports_torchs_error_raised_on_the_callers_tensor():
    driver = drive_error("leaf_refusal", LEAF_ERROR, lambda _t, _c: {})

    def on_x0(x0):
        x0.requires_grad_().add_(1)

    assert driver({"leaf_refusal": on_x0}, X0.clone()) == {"raised": "leaf", "x0 unchanged": False}


def test_a_hand_raised_copy_of_the_message_is_not_torchs():
    def by_hand():
        raise RuntimeError("one of the variables ... modified by an inplace operation")

    raised = raised_as_data(_raised(by_hand))
    assert VERSION_ERROR.matches(raised) and not raised.by_torch

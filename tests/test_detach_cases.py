"""Chapter 3's cases: their trusted references meet the curriculum's contract, and catalogued
right and wrong answers get the verdicts and messages they must get (in-process)."""

import pytest
import torch

from autograder.checks import exercises
from autograder.detach import (
    _selftest_expectations,
    observe_copy,
    observe_provenance,
    observe_ste,
    reference_independent_copy,
    reference_provenance_grad,
    reference_round_ste,
)
from autograder.values import same_storage
from tests.cases import ChapterCases


def recipes(grade_id: str) -> list:
    """The inputs recipe of every case of an exercise, named by its case."""
    return [pytest.param(case.inputs, id=case.name) for case in exercises("detach")[grade_id].cases]


@pytest.mark.parametrize("recipe", recipes("detach-independent"))
def test_the_reference_copy_shares_nothing_with_its_source(recipe):
    (t,) = recipe()
    seen = observe_copy(reference_independent_copy, t)
    assert torch.equal(seen["values"], t.detach()) and seen["values"].dtype == t.dtype
    assert not any(seen[key] for key in ("shares_storage", "requires_grad", "has_grad_fn", "write_changes_t",
                                          "write_bumps_t_version"))


def test_the_copy_driver_tells_detach_data_and_clone_apart():
    def leaf():
        return torch.arange(4.0, requires_grad=True)

    detached = observe_copy(lambda t: t.detach(), leaf())
    assert detached["shares_storage"] and detached["write_changes_t"] and detached["write_bumps_t_version"]
    data = observe_copy(lambda t: t.data, leaf())
    assert data["shares_storage"] and data["write_changes_t"] and not data["write_bumps_t_version"]
    cloned = observe_copy(lambda t: t.clone(), leaf())
    assert cloned["has_grad_fn"] and not cloned["shares_storage"] and not cloned["write_changes_t"]


@pytest.mark.parametrize("recipe", recipes("detach-provenance"))
def test_the_reference_provenance_gradient_is_x_squared_not_three_x_squared(recipe):
    (x,) = recipe()
    grad = reference_provenance_grad(x)
    plain = x.detach()
    assert torch.allclose(grad, plain**2) and grad.dtype == x.dtype
    if plain.abs().max() > 0:
        assert not torch.allclose(grad, 3 * plain**2)
    assert x.grad is None  # the expectation never touches the caller's tensor


def test_the_autograd_detector_sees_backward_and_grad_but_not_a_formula():
    def by_backward(x):
        x = x.detach().clone().requires_grad_()
        (x * (x * x).detach()).sum().backward()
        return x.grad

    x = torch.tensor([1.0, -2.0, 3.0])
    assert observe_provenance(by_backward, x)["used_autograd"]
    assert observe_provenance(reference_provenance_grad, x)["used_autograd"]
    assert not observe_provenance(lambda x: x**2, x)["used_autograd"]


@pytest.mark.parametrize("recipe", recipes("detach-ste"))
def test_the_reference_ste_rounds_forward_and_passes_the_gradient_through(recipe):
    x, upstream = recipe()
    seen = observe_ste(reference_round_ste, x, upstream)
    assert torch.equal(seen["forward"], torch.round(x))
    assert torch.equal(seen["grad"], upstream) and seen["x_unchanged"]
    ones = observe_ste(reference_round_ste, x, torch.ones_like(x))["grad"]
    assert torch.equal(ones, torch.ones_like(x))


def test_the_halves_case_separates_round_half_even_from_half_up():
    x, _ = {case.name: case.inputs for case in exercises("detach")["detach-ste"].cases}["halves"]()
    assert not torch.equal(torch.round(x), torch.floor(x + 0.5))


def test_selftest_probes_agree_with_the_chapter():
    answers = {key: probe() for key, (_q, _kind, probe, _m) in _selftest_expectations().items()}
    assert answers == {"q1": True, "q2": 4.0, "q3": False, "q4": False, "q5": True}


def test_case_inputs_are_fresh_on_every_call():
    case = exercises("detach")["detach-independent"].cases[0]
    (first,), (second,) = case.inputs(), case.inputs()
    assert not same_storage(first, second)
    with torch.no_grad():
        first.zero_()
    assert not torch.equal(first, second)


class TestDetachCases(ChapterCases):
    CHAPTER = "detach"
    NAMES = {"torch": torch}

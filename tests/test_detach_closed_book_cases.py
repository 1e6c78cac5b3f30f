"""The cases of Chapter 3's closed-book companion: the trusted driver and expectation agree with
torch, and the catalogue's answers get their verdicts."""

from __future__ import annotations

import pytest
import torch

from autograder.detach_closed_book import expect_cut, observe_cut
from autograder.elementwise import ALL_OPS, derivative
from tests.cases import ChapterCases

X0 = torch.tensor([0.4, -1.1, 1.7])


class TestDetachClosedBookCases(ChapterCases):
    CHAPTER = "detach-closed-book"
    NAMES = {"torch": torch}


@pytest.mark.parametrize("name", sorted(ALL_OPS))
def test_the_detached_factor_contributes_no_gradient(name):
    f = ALL_OPS[name]
    cut, whole = X0.clone().requires_grad_(), X0.clone().requires_grad_()
    (cut * f(cut).detach()).sum().backward()
    (whole * f(whole)).sum().backward()
    assert torch.allclose(cut.grad, f(X0))
    assert torch.allclose(whole.grad, f(X0) + X0 * derivative(f, X0))
    assert not torch.allclose(cut.grad, whole.grad)


@pytest.mark.parametrize("name", sorted(ALL_OPS))
def test_the_driver_reports_the_reference_as_expected(name):
    def reference(x0, f):
        x = x0.clone().requires_grad_(True)
        (x * f(x).detach()).sum().backward()
        return x

    seen, expected = observe_cut(reference, X0, ALL_OPS[name]), expect_cut(X0, ALL_OPS[name])
    assert seen.keys() == expected.keys() and torch.allclose(seen["grad"], expected["grad"])
    assert all(seen[key] is True for key in seen if key != "grad")


def test_the_driver_sees_a_gradient_written_by_hand_and_a_returned_gradient():
    def by_hand(x0, f):
        x = x0.clone().requires_grad_(True)
        x.grad = f(x0)
        return x

    seen = observe_cut(by_hand, X0, torch.sin)
    assert seen["backward called"] is False and seen["returned a leaf that requires grad"] is True

    def returns_grad(x0, f):
        x = x0.clone().requires_grad_(True)
        (x * f(x).detach()).sum().backward()
        return x.grad

    seen = observe_cut(returns_grad, X0, torch.sin)
    assert seen["returned a leaf that requires grad"] is False and seen["grad"] == "<no .grad>"

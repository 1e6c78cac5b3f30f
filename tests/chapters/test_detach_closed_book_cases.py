"""The checks of Chapter 3's closed-book companion: the driver reports what the cut left behind,
.data is told from detach() by the version counter, and the catalogue's answers get their verdicts."""

from __future__ import annotations

import pytest
import torch

from answer_key.detach_closed_book import cut_leaf
from autograder.chapters.detach_closed_book import OPS, report_cut
from autograder.engine import observe
from autograder.engine.cases import exercises
from tests.cases import ChapterCases
from tests.catalog.detach_closed_book import FORGERIES
from tests.forgeries import earned_apart

X0 = torch.tensor([0.3, -1.2, 2.0, 0.7])


@pytest.fixture(autouse=True)
def _checks_restored():
    """An exploit may rebind the observing side in this process: put it back after each test."""
    point = observe.observe_point
    cases = exercises("detach-closed-book")["detach-reproduce"].cases
    calls = {c.name: c.call for c in cases}
    yield
    observe.observe_point = point
    for c in cases:
        object.__setattr__(c, "call", calls[c.name])


class TestDetachClosedBookCases(ChapterCases):
    CHAPTER = "detach-closed-book"
    NAMES = {"torch": torch}


@pytest.mark.parametrize("name", sorted(OPS))
def test_the_cut_leaves_f_of_x0_on_the_leaf_and_backward_away_from_f(name):
    found = report_cut(cut_leaf, X0.clone(), name)
    assert torch.allclose(found["grad of what it returned"], OPS[name](X0))
    assert found["backward reached f's node"] is False and found["returned"] == "a leaf that requires grad"
    assert found["f's input held x0"] and found["x0 left alone"]
    assert found["autograd saved tensors during the call"]
    assert found["an alias of f's result was saved with a counter of its own"] is False
    assert found["autograd ran on a graph that reaches it"]


@pytest.mark.parametrize("name", sorted(OPS))
def test_f_applied_to_a_detached_alias_of_the_leaf_leaves_what_the_cut_after_f_leaves(name):
    """u = f(x.detach()) is the same u, with no path back to x: the same report as y.detach()."""
    def cut_before_f(x0, f):
        x = x0.detach().clone().requires_grad_(True)
        (x * f(x.detach())).sum().backward()
        return x

    ours, theirs = report_cut(cut_leaf, X0.clone(), name), report_cut(cut_before_f, X0.clone(), name)
    assert ours.keys() == theirs.keys()
    assert all(torch.equal(ours[k], theirs[k]) if isinstance(ours[k], torch.Tensor) else ours[k] == theirs[k]
               for k in ours)


@pytest.mark.parametrize("kind", ["leaf", "non-leaf"])
def test_a_clone_of_an_x0_that_requires_grad_is_no_leaf_of_its_own(kind):
    from answer_key.detach_closed_book import _clone_not_leaf
    from autograder.chapters.detach_closed_book import x0_and
    from autograder.engine.draw import Draw

    x0, name = x0_and(["sin"], kind=kind)(Draw(4))
    assert report_cut(cut_leaf, x0, name)["returned"] == "a leaf that requires grad"
    found = report_cut(_clone_not_leaf, x0, name)
    assert found["returned"] == "a tensor computed from a leaf that requires grad"
    assert found["grad of what it returned"] == "<no .grad>"
    assert report_cut(_clone_not_leaf, torch.randn(3), name)["returned"] == "a leaf that requires grad"


def test_data_is_told_from_detach_by_the_version_counter():
    def data_cut(x0, f):
        x = x0.clone().requires_grad_(True)
        (x * f(x).data).sum().backward()
        return x

    found = report_cut(data_cut, X0.clone(), "sin")
    assert torch.allclose(found["grad of what it returned"], torch.sin(X0))
    assert found["an alias of f's result was saved with a counter of its own"] is True


def test_a_gradient_set_by_hand_has_no_backward_behind_it():
    def by_hand(x0, f):
        x = x0.clone().requires_grad_(True)
        x.grad = f(x).detach().clone()
        return x

    assert report_cut(by_hand, X0.clone(), "exp")["autograd ran on a graph that reaches it"] is False


def test_the_visible_check_holds_no_expected_value():
    from answer_key.keys import visible_keys

    for key in visible_keys("detach-closed-book").values():
        for case_key in key.values():
            assert case_key.says == {}
            assert all(p.expected.value is None and not p.models for p in case_key.points)


@pytest.mark.parametrize("forgery", [(g, label, source) for g, found in FORGERIES.items() for label, source in found],
                         ids=lambda forgery: f"{forgery[0]}:{forgery[1]}")
def test_a_forged_observation_earns_no_more_than_the_untouched_answer(forgery):
    grade_id, label, source = forgery
    for forged, untouched in earned_apart("detach-closed-book", grade_id, source, {"torch": torch}):
        assert forged <= untouched, f"{label}: {forged} > {untouched}"

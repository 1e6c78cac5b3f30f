"""Chapter 3's checks: the key agrees with torch, the page does not answer its own exercises, and
the catalogue's answers get the verdicts they should."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
import torch

from answer_key.detach import _selftest, independent_copy, provenance_grad, round_ste
from autograder.chapters.detach import COPY_CASES, report_copy, report_gradient, report_ste
from autograder.engine import observe
from autograder.engine.cases import exercises
from autograder.engine.draw import Draw
from tests.cases import ChapterCases
from tests.catalog.detach import FORGERIES
from tests.forgeries import earned_apart

NOTEBOOK = Path(__file__).parents[2] / "notebooks/detach/detach.ipynb"


@pytest.fixture(autouse=True)
def _checks_restored():
    """An exploit may rebind the observing side in this process: put it back after each test."""
    point = observe.observe_point
    calls = {(g, c.name): c.call for g, ex in exercises("detach").items() for c in ex.cases}
    yield
    observe.observe_point = point
    for g, ex in exercises("detach").items():
        for c in ex.cases:
            object.__setattr__(c, "call", calls[(g, c.name)])


class TestDetachCases(ChapterCases):
    CHAPTER = "detach"
    NAMES = {"torch": torch}


@pytest.mark.parametrize("name", sorted(COPY_CASES))
def test_the_reference_copy_shares_nothing_and_is_compact(name):
    (t,) = COPY_CASES[name][1](Draw(3))
    found = report_copy(independent_copy, t)
    assert found["a write to it"] == "left t alone" and found["and moved t's version by"] == 0
    assert not found["requires_grad"] and not found["has a grad_fn"] and found["contiguous"]
    assert torch.equal(found["values"], t.detach()) and found["t left alone by the call"]


def test_detach_and_data_are_told_apart_by_the_version_they_move():
    t = torch.randn(4, requires_grad=True) * 1
    assert report_copy(lambda s: s.detach(), t)["and moved t's version by"] == 1
    assert report_copy(lambda s: s.data, t)["and moved t's version by"] == 0


def test_only_a_transposed_input_tells_a_compact_copy_from_a_clone():
    (t,) = COPY_CASES["transposed"][1](Draw(5))
    assert not report_copy(lambda s: s.detach().clone(), t)["contiguous"]
    (t,) = COPY_CASES["leaf"][1](Draw(5))
    assert report_copy(lambda s: s.detach().clone(), t)["contiguous"]


def test_the_provenance_gradient_is_two_x_cubed_by_autograd():
    x = torch.tensor([1.0, -2.0, 0.5])
    found = report_gradient(provenance_grad, x)
    assert torch.allclose(found["returned"], 2 * x ** 3) and found["autograd ran from x's values"]
    assert not report_gradient(lambda x: 2 * x ** 3, x)["autograd ran from x's values"]


def test_a_caller_tensor_made_a_leaf_is_not_left_alone_and_is_put_back():
    x = torch.randn(3, requires_grad=True)
    x.grad = torch.ones(3)

    def callers(x):
        y = x * x
        (y * y.detach()).sum().backward()
        return x.grad

    assert report_gradient(provenance_grad, x)["x left alone"]
    assert not report_gradient(callers, x)["x left alone"]
    assert torch.equal(x.grad, torch.ones(3))


def test_the_straight_through_rounding_clips_its_gradient():
    x = torch.tensor([-2.6, -2.5, -2.0, -1.5, -0.5, 0.5, 1.9, 2.0, 2.1])
    found = report_ste(round_ste, x, torch.ones_like(x))
    assert torch.equal(found["forward"], torch.round(x).clamp(-2, 2))
    assert torch.equal(found["grad"], torch.tensor([0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 0.0]))


def test_the_surrogate_gradient_is_the_sigmoids_slope_with_its_factor_beta():
    """By the chain rule the slope of sigmoid(beta * x) is beta * s * (1 - s), s = sigmoid(beta * x);
    past what exp can take it is 0, not nan; the step is 0 at 0.0 and -0.0."""
    from answer_key.detach import spike

    x = torch.tensor([-250.0, -1.0, -0.0, 0.0, 0.5, 250.0])
    upstream = torch.tensor([1.0, 2.0, 1.0, -1.0, 3.0, 1.0])
    found = report_ste(spike, x, upstream, 2.5)
    s = torch.sigmoid(2.5 * x)
    assert torch.equal(found["forward"], torch.tensor([0.0, 0.0, 0.0, 0.0, 1.0, 1.0]))
    assert torch.allclose(found["grad"], upstream * 2.5 * s * (1 - s))
    assert torch.equal(found["grad"][2:4], upstream[2:4] * 2.5 / 4)  # the slope at 0 is beta / 4
    assert not found["grad"].isnan().any() and found["grad"][0] == 0 and found["grad"][-1] == 0


def test_the_self_test_answers_are_torchs():
    assert _selftest() == {"q1": False, "q2": 20.0, "q3": True, "q4": False, "q5": False, "q6": False,
                           "q7": True, "q8": False}


def _page(excluded: tuple[str, ...]) -> str:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    return "\n".join(c.source for c in notebook.cells if c.metadata["nbgrader"]["grade_id"] not in excluded)


def test_the_page_does_not_show_the_answers():
    page = _page(("detach-exercises", "detach-independent", "detach-provenance-task", "detach-provenance",
                  "detach-ste-task", "detach-ste", "detach-surrogate-task", "detach-surrogate",
                  "detach-selftest-task", "detach-selftest"))
    for fragment in ("contiguous_format", "y * y.detach()", "clamp(-2, 2)", "x.clone().detach()", "sigmoid(beta",
                     "soft.detach()", "s * (1 - s)",
                     "detach().requires_grad_()", "torch.inference_mode():\n    layer.weight", "p.detach()",
                     ".sum().detach().requires_grad_()"):
        assert fragment not in page, fragment


@pytest.mark.parametrize("forgery", [(g, label, source) for g, found in FORGERIES.items() for label, source in found],
                         ids=lambda forgery: f"{forgery[0]}:{forgery[1]}")
def test_a_forged_observation_earns_no_more_than_the_untouched_answer(forgery):
    grade_id, label, source = forgery
    for forged, untouched in earned_apart("detach", grade_id, source, {"torch": torch}):
        assert forged <= untouched, f"{label}: {forged} > {untouched}"


#: The checks of round_ste that refuse each catalogued mistake: those whose family holds values on
#: which it is wrong, and no other (an answer wrong on one family loses that family's points only).
AWAY_FROM_THE_BOUNDS = {"spread", "halves", "weighted", "edges", "float64"}
REFUSED_BY = {
    "identity-everywhere": AWAY_FROM_THE_BOUNDS,
    "round-passes-gradient": AWAY_FROM_THE_BOUNDS | {"bounds", "interior", "exact"},
    "clip-after-rounding": AWAY_FROM_THE_BOUNDS,
    "halves-up": AWAY_FROM_THE_BOUNDS | {"interior"},
    "ones-backward": AWAY_FROM_THE_BOUNDS | {"bounds", "interior"},
    "edges-clipped": {"bounds"},
    "detached-result": AWAY_FROM_THE_BOUNDS | {"bounds", "interior", "exact"},
    "no-clip": AWAY_FROM_THE_BOUNDS,
    "unbracketed-sum": {"exact"},
}


def test_each_round_ste_check_refuses_the_mistakes_of_its_family_whatever_its_seed():
    """A wrong answer's verdict must not depend on the seed (nbgrader and the sandbox draw anew),
    and a check refuses exactly the mistakes that are wrong on its family of inputs."""
    from answer_key.keys import key_of
    from autograder.chapters.detach import ste
    from autograder.engine.values import AGREE

    known = key_of(ste)
    assert {m.name for m in known.models} == set(REFUSED_BY)
    for model in known.models:
        for case in ste.cases:
            for seed in (1, 2, 3):
                found = [report_ste(model.answer, *inputs) for inputs in case.draws(seed)]
                right = [report_ste(round_ste, *inputs) for inputs in case.draws(seed)]
                refused = not all(AGREE[case.agree](f, r) for f, r in zip(found, right, strict=True))
                assert refused == (case.name in REFUSED_BY[model.name]), (model.name, case.name, seed)


def test_the_exactness_check_draws_sums_that_round():
    """Every value the check draws shows a forward written as (level + c) - c, which is not the level."""
    from autograder.chapters.detach import STE_CASES

    for seed in range(20):
        x, _upstream = STE_CASES["exact"][1](Draw(seed))
        level = torch.round(x).clamp(-2, 2)
        assert x.dtype == torch.float64 and bool(((level + x) - x != level).all()), x


def test_autograd_run_once_per_element_runs_from_xs_values():
    """Leaves that hold x's values between them (one per element) are autograd run from x's values."""
    def per_element(x):
        grads = []
        for value in x.detach().reshape(-1):
            leaf = value.clone().requires_grad_()
            y = leaf * leaf
            (y * y.detach()).backward()
            grads.append(leaf.grad)
        return torch.stack(grads).reshape(x.shape)

    x = torch.tensor([[1.0, -2.0], [0.5, 1.0]])
    found = report_gradient(per_element, x)
    assert found["autograd ran from x's values"] and torch.equal(found["returned"], 2 * x ** 3)
    assert not report_gradient(lambda x: per_element(x.reshape(-1)[1:]), x)["autograd ran from x's values"]

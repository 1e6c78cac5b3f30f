"""The checks of Chapter 2's closed-book companion: the drivers report what torch's mechanism left
behind, a hand-raised error leaves none of it, and the catalogue's answers get their verdicts."""

from __future__ import annotations

import pytest
import torch

from answer_key.inplace_closed_book import REFERENCE
from autograder.chapters.inplace_closed_book import OPS, report_leaf, report_repair, report_sigmoid, report_stale
from autograder.engine import observe
from autograder.engine.cases import exercises
from autograder.engine.elementwise import CUSTOM, SAVE_INPUT, SAVE_OUTPUT
from autograder.engine.witness import read_saved
from tests.cases import ChapterCases
from tests.catalog.inplace_closed_book import FORGERIES
from tests.forgeries import earned_apart

X0 = torch.tensor([0.3, -1.2, 2.0, 0.7])
VERSION = ("one of the variables needed for gradient computation has been modified by an inplace operation: "
           "[torch.FloatTensor [4]]")


@pytest.fixture(autouse=True)
def _checks_restored():
    """An exploit may rebind the observing side in this process: put it back after each test."""
    point = observe.observe_point
    cases = exercises("inplace-closed-book")["inplace-reproduce"].cases
    calls = {c.name: c.call for c in cases}
    yield
    observe.observe_point = point
    for c in cases:
        object.__setattr__(c, "call", calls[c.name])


class TestInplaceClosedBookCases(ChapterCases):
    CHAPTER = "inplace-closed-book"
    NAMES = {"torch": torch}


def test_the_leaf_report_names_the_call_that_raised_torchs_error():
    found = report_leaf(REFERENCE["leaf_refusal"], X0.clone())
    assert found == {"raised by a raise statement written in the answer": False,
                     "raised": ["RuntimeError", "a leaf Variable that requires grad is being used in an in-place "
                                "operation."], "torch raised it in a call on": "a leaf that requires grad",
                     "that tensor held x0": True, "x0 left alone": True}


def test_a_hand_raised_leaf_error_has_no_call_behind_it():
    def by_hand(x0):
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")

    found = report_leaf(by_hand, X0.clone())
    assert found["raised"][1].startswith("a leaf Variable") and found["torch raised it in a call on"] is None
    assert found["raised by a raise statement written in the answer"]


@pytest.mark.parametrize("name", sorted({**SAVE_INPUT, **CUSTOM}))
def test_a_stale_save_reads_the_same_error_in_backward_and_after_it(name):
    if name == "SoftClip":
        pytest.skip("saves its output: stale_save draws only ops that save their input")
    found = report_stale(REFERENCE["stale_save"], X0.clone(), name)
    assert found["raised"][1].startswith(VERSION)
    assert found["f's saved tensors, read after the call"] == found["raised"][1]
    assert found["backward reached f's node"] and found["f applied to"] == "a leaf that requires grad"


def test_the_version_error_raised_by_hand_leaves_backward_unreached():
    def by_hand(x0, f):
        x = x0.clone().requires_grad_(True)
        f(x).sum()
        with torch.no_grad():
            x.add_(1)
        raise RuntimeError(VERSION + " is at version 1; expected version 0 instead.")

    found = report_stale(by_hand, X0.clone(), "sin")
    assert found["raised"][1] == found["f's saved tensors, read after the call"]
    assert found["backward reached f's node"] is False
    assert found["raised by a raise statement written in the answer"]


def test_an_error_raised_by_a_helper_of_the_same_cell_is_raised_by_hand():
    source = ("def _refuse(message):\n    raise RuntimeError(message)\n\n\n"
              "def leaf_refusal(x0):\n    _refuse('a leaf Variable that requires grad is being used in an in-place "
              "operation.')\n")
    namespace: dict = {"torch": torch}
    exec(compile(source, "<answer cell>", "exec"), namespace)
    assert report_leaf(namespace["leaf_refusal"], X0.clone())["raised by a raise statement written in the answer"]


def test_the_message_says_an_error_was_raised_by_hand_whatever_its_words():
    """Each report of an error raised by hand differs from the reference first in the fact that
    says so, in words of torch's or not (no model could match every text)."""
    cases = TestInplaceClosedBookCases()
    source = "".join(f"def {name}(*args):\n    raise RuntimeError('modified by an inplace operation')\n"
                     for name in ("leaf_refusal", "stale_save", "sigmoid_stale"))
    source += "def grad_after_repair(x0, f):\n    return x0\n"
    _visible, hidden = cases.verdicts("inplace-reproduce", cases.answer("inplace-reproduce", "by-hand", source))
    raising = [f.line for f in hidden.failures if not f.line.split(":")[0].startswith("grad_after_repair")]
    assert len(raising) == 7
    assert all("yours {'raised by a raise statement written in the answer': True" in line for line in raising), raising


def test_the_sigmoid_report_reads_sigmoids_own_saved_result():
    found = report_sigmoid(REFERENCE["sigmoid_stale"], X0.clone())
    assert "which is output 0 of Sigmoid" in found["sigmoid's saved result, read after the call"]
    assert found["backward reached sigmoid's node"] and found["sigmoid's input held x0"]

    def through_pow(x0):
        x = x0.clone().requires_grad_(True)
        h = x.sigmoid()
        y = (h * x ** 2).sum()
        with torch.no_grad():
            x.add_(1)
        y.backward()

    other = report_sigmoid(through_pow, X0.clone())
    assert other["raised"][1].startswith(VERSION) and "Sigmoid" not in other["raised"][1]
    assert "modified" not in other["sigmoid's saved result, read after the call"]


@pytest.mark.parametrize("name", sorted(OPS))
def test_the_repair_reports_the_gradient_at_the_forward_value_and_one_version_step(name):
    found = report_repair(REFERENCE["grad_after_repair"], X0.clone(), name)
    x = X0.clone().requires_grad_()
    OPS[name](x).sum().backward()
    assert torch.allclose(found["returned"], x.grad)
    assert torch.equal(found["leaf behind f's input, after the call"], X0 + 1)
    assert found["its version moved after f by"] == 1


def test_a_write_through_data_does_not_move_the_version():
    def data(x0, f):
        x = x0.clone().requires_grad_(True)
        y = f(x.clone()).sum()
        x.data.add_(1)
        y.backward()
        return x.grad

    assert report_repair(data, X0.clone(), "exp")["its version moved after f by"] == 0


def test_reading_saves_after_a_successful_backward_says_they_are_freed():
    x = X0.clone().requires_grad_()
    out = x.sin()
    out.sum().backward()
    assert read_saved(out.grad_fn).startswith("Trying to backward through the graph a second time")


def test_the_drawn_ops_save_what_their_group_says():
    for names, written in ((SAVE_INPUT, "input"), (SAVE_OUTPUT, "output")):
        for name in names:
            x = X0.clone().requires_grad_()
            a = x * 1
            out = OPS[name](a)
            with torch.no_grad():
                (a if written == "input" else out).add_(1)
            with pytest.raises(RuntimeError, match="modified by an inplace operation"):
                out.sum().backward()


def test_the_visible_checks_hold_no_expected_value():
    from answer_key.keys import visible_keys

    for key in visible_keys("inplace-closed-book").values():
        for case_key in key.values():
            assert case_key.says == {}
            assert all(p.expected.value is None and not p.models for p in case_key.points)


@pytest.mark.parametrize("forgery", [(g, label, source) for g, found in FORGERIES.items() for label, source in found],
                         ids=lambda forgery: f"{forgery[0]}:{forgery[1]}")
def test_a_forged_observation_earns_no_more_than_the_untouched_answer(forgery):
    grade_id, label, source = forgery
    for forged, untouched in earned_apart("inplace-closed-book", grade_id, source, {"torch": torch}):
        assert forged <= untouched, f"{label}: {forged} > {untouched}"


@pytest.mark.parametrize("function", ["leaf_refusal", "stale_save", "sigmoid_stale"])
def test_the_hand_raised_models_raise_torchs_own_words(function):
    """A model of an error raised by hand names it only if its words are torch's, as the learner copies them."""
    from answer_key import inplace_closed_book as keys

    by_hand = {"leaf_refusal": keys._leaf_by_hand, "stale_save": keys._stale_by_hand,
               "sigmoid_stale": keys._sigmoid_by_hand}[function]
    args = (X0.clone(), torch.sin) if function == "stale_save" else (X0.clone(),)
    with pytest.raises(RuntimeError) as torchs:
        REFERENCE[function](*args)
    with pytest.raises(RuntimeError) as hands:
        by_hand(*args)
    assert str(hands.value) == str(torchs.value).split(" Hint:")[0]

"""The case machinery: type validation first, then values, then messages a learner can act on."""

import numpy as np
import pytest
import torch

from autograder import grade
from autograder.checks import AnswerTypeError, close, exercise, lookup, require_dict, run
from autograder.engine import answer_key, judge_cell, observe_cell
from autograder.values import validate


class AlwaysEqual(tuple):
    def __eq__(self, other):
        return True

    __hash__ = tuple.__hash__


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("bool", np.bool_(True)),
        ("bool", torch.tensor(True)),
        ("bool", 1),
        ("int", True),
        ("int", 8.0),
        ("int", torch.tensor(8)),
        ("str", b"view"),
        ("int-tuple", [8, 1]),
        ("int-tuple", torch.Size([8, 1])),
        ("int-tuple", (8.0, 1.0)),
        ("int-tuple", (True, 1)),
        ("int-tuple", AlwaysEqual((8, 1))),
        ("float", 1),
        ("float", torch.tensor(1.0)),
        ("tensor", [1.0, 2.0]),
        ("tensor", torch.nn.Parameter(torch.ones(2))),
        ("tensor", np.ones(2)),
        ("observation", {"grad": np.ones(2)}),
        ("observation", {1: True}),
        ("observation", (True, AlwaysEqual((8, 1)))),
    ],
)
def test_validate_refuses_lookalikes(kind, value):
    with pytest.raises(AnswerTypeError):
        validate(kind, value)


@pytest.mark.parametrize(("kind", "value"), [
    ("bool", False), ("int", 8), ("str", "view"), ("int-tuple", (0, 8, 1)), ("float", 0.5),
    ("tensor", torch.ones(2)), ("observation", {"grad": torch.ones(2), "calls": [1, 2.0, None, "x", (True,)]}),
])
def test_validate_accepts_exact_types(kind, value):
    validate(kind, value)


def test_an_answer_equal_to_everything_earns_nothing():
    class Yes:
        def __eq__(self, other):
            return True

    failures = run("views-shares-storage", lambda a, b: Yes())
    assert len(failures) == len(lookup("views-shares-storage").selected(hidden=False))
    assert all("expected a Python bool" in f.misconception for f in failures)


def test_grade_reports_expected_found_and_misconception():
    with pytest.raises(AssertionError) as raised:
        grade("views-shares-storage", lambda a, b: a.data_ptr() == b.data_ptr())
    message = str(raised.value)
    assert "shares_storage(t, t[1:]): expected True, found False" in message
    assert "data_ptr() is the address of a tensor's first element" in message


def test_grade_passes_silently_on_a_right_answer(capsys):
    grade("views-shares-storage", lambda a, b: a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr())
    assert capsys.readouterr() == ("", "")


def test_hidden_failures_name_the_misconception_but_not_the_probe():
    failures = run("views-can-view", lambda t, shape: True, hidden=True)
    assert failures
    for failure in failures:
        text = failure.describe()
        assert "Misconception:" in text
        assert failure.case.probe not in text
        assert "expand(3, 4)" not in text


def test_a_caught_forbidden_call_is_still_reported():
    def sneaky(t, shape):
        try:
            t.view(shape)
        except Exception:  # the forbidden call raises inside the answer, which swallows it
            pass
        return True

    failures = run("views-can-view", sneaky)
    assert failures and all("calls view()" in f.misconception for f in failures)


def test_an_exception_in_the_answer_is_a_failure_not_a_crash():
    def broken(t, shape):
        raise ZeroDivisionError("oops")

    failures = run("views-can-view", broken)
    assert len(failures) == len(lookup("views-can-view").selected(hidden=False))
    assert "ZeroDivisionError: oops" in failures[0].found


def test_warnings_in_an_answer_do_not_reach_stderr(capsys):
    import warnings

    def noisy(a, b):
        warnings.warn("a learner's warning", UserWarning, stacklevel=1)
        return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()

    grade("views-shares-storage", noisy)
    assert capsys.readouterr().err == ""


def test_require_dict_names_missing_and_unexpected_keys():
    check = require_dict("STRIDES", ["a", "b"])
    with pytest.raises(AnswerTypeError, match=r"missing \['b'\], unexpected \['c'\]"):
        check({"a": 1, "c": 2})
    with pytest.raises(AnswerTypeError, match="must be a dict"):
        check([("a", 1), ("b", 2)])
    check({"a": 1, "b": 2})


def test_a_wrong_whole_answer_fails_every_case_with_its_reason():
    failures = run("views-strides", ["not", "a", "dict"])
    assert len(failures) == len(lookup("views-strides").selected(hidden=False))
    assert all("STRIDES must be a dict" in f.misconception for f in failures)


@pytest.mark.parametrize(
    ("found", "expected", "agrees"),
    [
        (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-8]), True),
        (torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.1]), False),
        (torch.tensor([1.0, 2.0]), torch.tensor([[1.0, 2.0]]), False),
        (torch.tensor([1, 2]), torch.tensor([1.0, 2.0]), False),
        ([0.1 + 0.2], [0.3], True),
        ({"a": 1.0}, {"a": 1.0, "b": 2.0}, False),
        ((1, 2), [1, 2], False),
        (True, 1, False),
    ],
)
def test_close_needs_same_shape_dtype_and_container(found, expected, agrees):
    assert close(found, expected) is agrees


def test_a_driver_exercises_the_answer_and_its_observation_is_compared():
    def double_then_grad(answer, x):
        x = x.clone().requires_grad_()
        answer(x).sum().backward()
        return {"grad": x.grad}

    demo = exercise("demo-grad", "f", module="tests.demo", returns="observation", call=double_then_grad,
                    agree=close, expect=lambda x: {"grad": torch.full_like(x, 2.0)},
                    otherwise="f must double its input")
    demo.case("grad", "f(x).sum().backward()", lambda: (torch.arange(3.0),))

    def verdict(answer):
        seen = observe_cell(demo, answer, hidden=False, seed=0)
        return judge_cell(demo, False, seen, answer_key(demo, False, seed=0))

    assert verdict(lambda x: 2 * x).failures == []
    (failure,) = verdict(lambda x: x + x.detach()).failures
    assert failure.misconception == "f must double its input"

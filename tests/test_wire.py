"""Results as data: exact types survive the trip, nothing but plain values comes back, and the trusted
checker judges a reported result as a learner's own kernel would."""

from __future__ import annotations

import base64
import io
import json
import pickle

import pytest
import torch

from autograder.checks import lookup
from autograder.pipeline import wire
from autograder.pipeline.verdict import Key, judge_case


def trip(value):
    """Encode as the sandbox does, through JSON text, and decode as the grader does."""
    return wire.decode(json.loads(json.dumps(wire.encode(value))))


@pytest.mark.parametrize("value", [True, 1, 2**80, -0.5, float("inf"), "s", None, (8, 1), [1, (2, "x")],
                                   {"a": (1, 2), "b": [None, False]}])
def test_plain_values_keep_their_exact_type_and_value(value) -> None:
    back = trip(value)
    assert back == value and type(back) is type(value)
    if isinstance(value, dict):
        assert all(type(back[k]) is type(v) for k, v in value.items())


def test_tensors_come_back_as_plain_tensors_with_their_values() -> None:
    t = torch.arange(6.0).view(2, 3).T
    back = trip({"grad": t, "same": t})
    assert type(back["grad"]) is torch.Tensor and torch.equal(back["grad"], t) and back["grad"].dtype == t.dtype


def test_a_value_that_equals_everything_comes_back_inert() -> None:
    class Yes(tuple):
        def __eq__(self, other):
            return True

        __hash__ = tuple.__hash__

    back = trip(Yes((8, 1)))
    assert type(back) is not tuple and back != (8, 1)
    assert "Yes" in type(back).__qualname__


def test_a_tensor_subclass_is_not_a_tensor() -> None:
    class Sneaky(torch.Tensor):
        pass

    back = trip(torch.zeros(2).as_subclass(Sneaky))
    assert not isinstance(back, torch.Tensor)


@pytest.mark.parametrize("message", [
    None, [], {"value": {"t": "bool", "v": 1}}, {"value": {"t": "int", "v": "1e3"}}, {"value": {"t": "eval"}},
    {"value": {"t": "tensor", "i": 0}}, {"value": {"t": "dict", "v": [[{"t": "list", "v": []}, {"t": "none"}]]}},
    {"value": {"t": "none"}, "tensors": "not base64!"},
])
def test_malformed_messages_are_refused(message) -> None:
    with pytest.raises(wire.WireError):
        wire.decode(message)


def test_a_pickle_in_place_of_tensors_is_refused_without_running_it() -> None:
    class Boom:
        def __reduce__(self):
            return (exec, ("raise SystemExit('ran')",))

    blob = base64.b64encode(pickle.dumps([Boom()])).decode()
    with pytest.raises(wire.WireError):
        wire.decode({"value": {"t": "none"}, "tensors": blob})
    buffer = io.BytesIO()
    torch.save({"not": "a list"}, buffer)
    with pytest.raises(wire.WireError):
        wire.decode({"value": {"t": "none"}, "tensors": base64.b64encode(buffer.getvalue()).decode()})


def test_the_checker_judges_as_the_learners_kernel_does() -> None:
    key = Key.of("views")
    case = next(c for c in lookup("views-strides").cases if c.name == "transpose")
    inputs, expected = key.expected["views-strides", "transpose"]
    assert judge_case(case, inputs, expected, ("value", (1, 8))) is None
    fresh = judge_case(case, inputs, expected, ("value", (4, 1)))
    assert "swaps the strides" in fresh.misconception
    listed = judge_case(case, inputs, expected, ("value", [1, 8]))
    assert "wrong type" in listed.misconception
    inert = judge_case(case, inputs, expected, ("value", wire.opaque("Yes", "(1, 8)")))
    assert "wrong type" in inert.misconception
    raised = judge_case(case, inputs, expected, ("raised", "KeyError: 'transpose'"))
    assert raised is not None and "KeyError" in raised.describe()

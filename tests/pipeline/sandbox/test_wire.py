"""Results as data: exact types survive the trip, nothing but plain values comes back, and the trusted
checker judges a reported result as a learner's own kernel would."""

from __future__ import annotations

import base64
import io
import json
import os
import pickle
import threading

import pytest
import torch

from autograder.engine import codec
from autograder.engine.observe import CellObservation as Observed
from autograder.engine.observe import Seen
from autograder.judging import judge_cell
from autograder.pipeline.grading.verdict import Key
from autograder.pipeline.sandbox import wire


def trip(value):
    """Encode as the sandbox does, through JSON text, and decode as the grader does."""
    return codec.decode(json.loads(json.dumps(codec.encode(value))))


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


def test_a_tensor_of_sizes_one_with_strides_zero_travels() -> None:
    """The gradient of ``(x @ w).sum()`` for 1 x 1 operands is an expanded one: sizes 1, strides 0."""
    expanded = torch.ones(()).expand(1, 1).clone()
    assert expanded.stride() == (0, 0)
    back = trip({"grad": expanded})
    assert torch.equal(back["grad"], expanded) and back["grad"].shape == (1, 1)


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
    with pytest.raises(codec.WireError):
        codec.decode(message)


def test_a_pickle_in_place_of_tensors_is_refused_without_running_it() -> None:
    class Boom:
        def __reduce__(self):
            return (exec, ("raise SystemExit('ran')",))

    blob = base64.b64encode(pickle.dumps([Boom()])).decode()
    with pytest.raises(codec.WireError):
        codec.decode({"value": {"t": "none"}, "tensors": blob})
    buffer = io.BytesIO()
    torch.save({"not": "a list"}, buffer)
    with pytest.raises(codec.WireError):
        codec.decode({"value": {"t": "none"}, "tensors": base64.b64encode(buffer.getvalue()).decode()})


def _blob(header: object, data: bytes = b"") -> str:
    head = json.dumps(header).encode()
    return base64.b64encode(len(head).to_bytes(4, "big") + head + data).decode()


@pytest.mark.parametrize("blob", [
    _blob([["float32", [2]]], b"\0" * 7),  # shorter than its header says
    _blob([["float32", [2]]], b"\0" * 9),  # longer
    _blob([["object", [1]]], b"\0" * 8),  # a dtype that is not data
    _blob([["float32", [-1]]], b"\0" * 4),
    _blob([["float32", [2.0]]], b"\0" * 8),
    _blob({"float32": [2]}, b"\0" * 8),
    _blob([["float32"]], b"\0" * 4),
    _blob([["float32", [0, *[2**26] * 63]]]),  # no element, but a shape no stride can describe
    base64.b64encode(b"\xff\xff\xff\xff{}").decode(),  # a header length past the blob
])
def test_a_tensor_blob_whose_header_does_not_match_its_bytes_is_refused(blob: str) -> None:
    with pytest.raises(codec.WireError):
        codec.decode({"value": {"t": "tensor", "i": 0}, "tensors": blob})


@pytest.mark.parametrize("dtype", [getattr(torch, name) for name in codec.DTYPES])
def test_every_dtype_travels_with_its_values_and_shape(dtype: torch.dtype) -> None:
    t = (torch.arange(12) % 3).to(dtype).view(3, 4)[:, ::2]
    back = trip([t, t.new_empty(0, 2)])
    assert [b.dtype for b in back] == [dtype, dtype] and torch.equal(back[0], t) and back[1].shape == (0, 2)


def test_a_conjugated_view_travels_by_its_values_and_a_sparse_tensor_does_not_travel() -> None:
    z = torch.tensor([1 + 2j, 3 - 1j]).conj()
    assert torch.equal(trip(z), torch.tensor([1 - 2j, 3 + 1j]))
    assert not isinstance(trip(torch.zeros(3).to_sparse()), torch.Tensor)


def test_the_checker_judges_as_the_learners_kernel_does() -> None:
    key = Key.of("views", seed=5)
    exercise = key.exercises["views-strides"]
    expected = key.expected["views-strides", True]  # a value answer is judged in its hidden cell

    def verdict(transpose):
        values = {"contiguous": (8, 1), "transpose": transpose, "every_other_column": (8, 2), "row_block": (8, 1),
                  "expanded": (0, 8, 1)}
        seen = Observed({name: [Seen(value=values[name])] for name in values})
        sent = wire.decode_observation(json.loads(json.dumps(wire.encode_observation(seen))))
        return judge_cell(exercise, True, sent, expected)

    assert verdict((1, 8)).message() is None
    assert "behaves as if the transpose wrote the data out anew" in verdict((4, 1)).message()
    assert "it must be a tuple of Python ints" in verdict([1, 8]).message()
    assert "it must be a tuple of Python ints" in verdict(codec.opaque("Yes", "(1, 8)")).message()


def test_observations_keep_exact_types_and_exceptions_through_json() -> None:
    seen = Observed({"a": [Seen(value={"grad": torch.arange(3.0), "n": (8, 1)}), Seen(unanswered=True)],
                     "b": [Seen(raised=("RuntimeError", "modified by an inplace operation"))]})
    back = wire.decode_observation(json.loads(json.dumps(wire.encode_observation(seen))))
    first, second = back.cases["a"]
    assert type(first.value["n"]) is tuple and torch.equal(first.value["grad"], torch.arange(3.0))
    assert second.unanswered and back.cases["b"][0].raised == ("RuntimeError", "modified by an inplace operation")


@pytest.mark.parametrize("message", [None, {"points": []}, {"points": {"a": [{"value": {"t": "none"},
                                                                              "raised": ["E", 3]}]}},
                                     {"points": {"a": [{"value": {"t": "bogus"}}]}}])
def test_malformed_observations_are_refused(message) -> None:
    with pytest.raises(wire.WireError):
        wire.decode_observation(message)


def test_a_plan_and_a_job_survive_their_json_lines() -> None:
    plan = wire.Plan("views", [wire.CodeStep("views-setup", "import torch"),
                               wire.ProbeStep("views-strides-tests", "views-strides", "STRIDES", False, 7)])
    job = wire.Job(3, plan, {"wall": 1.0}, 61.0)
    assert wire.Job.from_line(job.to_line()) == job
    for result in (wire.JobResult("exited with code 0", "", 1.5, 0, '{"end": true}'),
                   wire.JobResult("killed by the grader", "stopped", violation="wrote a second report line")):
        assert wire.JobResult.from_line(result.to_line(3)) == result
    for greeting in (wire.Ready(True, 1234), wire.Ready(False, why="the prefix cell views-setup raised OSError")):
        assert wire.Ready.from_line(greeting.to_line()) == greeting
    assert not wire.Ready.from_line(b'{"ready": 1}\n').ready
    assert wire.Ready.from_line("not a greeting\n") == wire.Ready(False, why="its first line was not a greeting")


def test_a_frame_is_read_whole_and_nothing_after_it() -> None:
    """A job's frame and its pieces' frame travel back to back; reading the first leaves the second
    in the pipe (the pieces are read only after the job's process is forked)."""
    read, write = os.pipe()

    def send() -> None:
        wire.write_frame(write, "é" * 70_000)  # more than a pipe holds at once
        wire.write_frame(write, '{"trial": "def broken(): pass"}')
        os.close(write)

    sender = threading.Thread(target=send)
    sender.start()
    assert wire.read_frame(read) == "é" * 70_000
    sender.join()
    assert wire.read_frame(read) == '{"trial": "def broken(): pass"}'  # left whole in the pipe
    assert wire.read_frame(read) is None

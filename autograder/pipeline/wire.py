"""Results as data: how the sandbox reports what an answer returned, and how the grader reads it.

The sandbox encodes a result into JSON with a tag per value, so that exact types survive the trip
(``True`` stays a bool, ``(8, 1)`` stays a tuple of ints). Tensors travel in one ``torch.save``
blob read back with ``torch.load(weights_only=True)``: data only, never pickled objects. A value
of any other type (a subclass whose ``__eq__`` always answers True, a module, a function) is
reported by its type name and repr and decoded into an inert stand-in of that name, which no
check accepts. Decoding is the trusted side's and builds only plain values.
"""

from __future__ import annotations

import base64
import io
from typing import Any

MAX_DEPTH = 20
MAX_ITEMS = 100_000
MAX_TENSOR_BYTES = 64 * 2**20


class WireError(ValueError):
    """A message from the sandbox that is not well-formed data."""


# ----------------------------------------------------------------------------------- encoding
def encode(value: Any) -> dict:
    """Encode a result as tagged JSON data (runs in the sandbox, on the answer's value)."""
    tensors: list = []
    data = _encode(value, tensors, 0)
    message = {"value": data}
    if tensors:
        import torch

        buffer = io.BytesIO()
        torch.save(tensors, buffer)
        if buffer.tell() > MAX_TENSOR_BYTES:
            return {"value": {"t": "other", "type": "torch.Tensor", "repr": "<tensors too large to report>"}}
        message["tensors"] = base64.b64encode(buffer.getvalue()).decode("ascii")
    return message


def _encode(value: Any, tensors: list, depth: int) -> dict:
    if depth > MAX_DEPTH:
        return _other(value)
    kind = type(value)
    if value is None:
        return {"t": "none"}
    if kind is bool:
        return {"t": "bool", "v": value}
    if kind is int:
        return {"t": "int", "v": str(value)}
    if kind is float:
        return {"t": "float", "v": repr(value)}
    if kind is str:
        return {"t": "str", "v": value}
    if kind in (tuple, list):
        return {"t": kind.__name__, "v": [_encode(item, tensors, depth + 1) for item in value]}
    if kind is dict:
        return {"t": "dict", "v": [[_encode(k, tensors, depth + 1), _encode(v, tensors, depth + 1)]
                                   for k, v in value.items()]}
    if f"{kind.__module__}.{kind.__qualname__}" == "torch.Tensor":
        tensors.append(value.detach())
        return {"t": "tensor", "i": len(tensors) - 1}
    return _other(value)


def _other(value: Any) -> dict:
    from autograder.checks import _short_repr, _type_name

    return {"t": "other", "type": _type_name(value), "repr": _short_repr(value)}


# ----------------------------------------------------------------------------------- decoding
class Opaque:
    """Stand-in for a value the sandbox could not report as data; it equals nothing but itself."""

    def __init__(self, text: str) -> None:
        self._text = text

    def __repr__(self) -> str:
        return self._text


def decode(message: Any) -> Any:
    """Decode an encoded result into plain Python values and plain tensors (trusted side).

    Raises:
        WireError: when the message is not what :func:`encode` produces.
    """
    if type(message) is not dict or "value" not in message:
        raise WireError("a result must be an object with a value")
    tensors: list = []
    if "tensors" in message:
        tensors = _load_tensors(message["tensors"])
    counter = [0]
    return _decode(message["value"], tensors, counter, 0)


def _load_tensors(blob: Any) -> list:
    import torch

    if type(blob) is not str or len(blob) > MAX_TENSOR_BYTES * 4 // 3 + 4:
        raise WireError("tensor blob of the wrong type or too large")
    try:
        loaded = torch.load(io.BytesIO(base64.b64decode(blob, validate=True)), weights_only=True)
    except Exception as err:  # noqa: BLE001 - whatever fails to load is not data
        raise WireError(f"tensor blob does not load as data: {type(err).__name__}") from err
    if type(loaded) is not list or not all(type(t) is torch.Tensor for t in loaded):
        raise WireError("tensor blob is not a list of plain tensors")
    return loaded


def _decode(node: Any, tensors: list, counter: list[int], depth: int) -> Any:
    counter[0] += 1
    if depth > MAX_DEPTH + 1 or counter[0] > MAX_ITEMS:
        raise WireError("result too deep or too large")
    if type(node) is not dict or type(node.get("t")) is not str:
        raise WireError("malformed value")
    tag = node["t"]
    if tag == "none":
        return None
    if tag == "bool":
        return _typed(node.get("v"), bool)
    if tag == "int":
        text = _typed(node.get("v"), str)
        if len(text) > 4000:
            raise WireError("integer too long")
        try:
            return int(text)
        except ValueError as err:
            raise WireError("malformed int") from err
    if tag == "float":
        text = _typed(node.get("v"), str)
        try:
            number = float(text)
        except ValueError as err:
            raise WireError("malformed float") from err
        return number
    if tag == "str":
        return _typed(node.get("v"), str)
    if tag in ("tuple", "list"):
        items = [_decode(item, tensors, counter, depth + 1) for item in _typed(node.get("v"), list)]
        return tuple(items) if tag == "tuple" else items
    if tag == "dict":
        result = {}
        for pair in _typed(node.get("v"), list):
            if type(pair) is not list or len(pair) != 2:
                raise WireError("malformed dict entry")
            key = _decode(pair[0], tensors, counter, depth + 1)
            try:
                result[key] = _decode(pair[1], tensors, counter, depth + 1)
            except TypeError as err:  # an unhashable key (a list) cannot be a dict key
                raise WireError("unhashable dict key") from err
        return result
    if tag == "tensor":
        index = node.get("i")
        if type(index) is not int or not 0 <= index < len(tensors):
            raise WireError("tensor index out of range")
        return tensors[index]
    if tag == "other":
        type_name, text = _typed(node.get("type"), str), _typed(node.get("repr"), str)
        return opaque(type_name[:200], text[:200])
    raise WireError(f"unknown tag {tag[:40]!r}")


def opaque(type_name: str, text: str) -> Opaque:
    """An inert value that reports ``type_name`` as its type (for the learner's message)."""
    module, _, qualname = type_name.rpartition(".")
    cls = type(qualname or "object", (Opaque,), {"__module__": module or "builtins"})
    cls.__qualname__ = qualname or "object"
    return cls(text)


def _typed(value: Any, kind: type) -> Any:
    if type(value) is not kind:
        raise WireError(f"expected {kind.__name__} in a result")
    return value

"""Values as tagged JSON data: how an observation leaves the process that made it.

The sandbox encodes what an answer returned; the trusted grader decodes it. Exact types survive
the trip (``True`` stays a bool, ``(8, 1)`` stays a tuple of ints). Tensors travel in one blob:
a header naming each tensor's dtype (from :data:`DTYPES`) and shape, then their bytes, read back by
``torch.frombuffer`` after every length is checked — data only, nothing unpickled; a tensor travels
by its values (contiguous, conjugation and negation resolved), as the checks compare it. A value
of any other type (a subclass whose ``__eq__`` always answers True, a module, a function), and a
tensor of another dtype or layout, is reported by its type name and repr and decoded into an inert
stand-in of that name, which no check accepts. Decoding builds only plain values.

A :func:`digest` names a plain value without showing it: what a learner's installation holds of
the expected answers to questions whose answer is a single value.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

MAX_DEPTH = 20
MAX_ITEMS = 100_000
MAX_TENSOR_BYTES = 64 * 2**20
#: The dtypes a tensor may travel with, by the name ``str(dtype)`` writes without ``torch.``; a tensor
#: of any other dtype or layout (sparse, meta) is an inert stand-in.
DTYPES = ("bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
          "complex64", "complex128")


class WireError(ValueError):
    """A message that is not well-formed data."""


def type_name(value: Any) -> str:
    """``module.QualName`` of a value's type (``int`` for builtins)."""
    return f"{type(value).__module__}.{type(value).__qualname__}".removeprefix("builtins.")


def short_repr(value: Any, limit: int = 120) -> str:
    """A repr cut to ``limit`` characters; a hostile ``__repr__`` cannot break the report."""
    try:
        text = repr(value)
    except Exception:  # noqa: BLE001 - whatever the learner's __repr__ does
        text = f"<unprintable {type_name(value)}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ----------------------------------------------------------------------------------- encoding
def encode(value: Any) -> dict:
    """Encode a value as tagged JSON data (one tensor blob for all its tensors)."""
    tensors: list = []
    message = {"value": encode_into(value, tensors)}
    return attach_tensors(message, tensors)


def attach_tensors(message: dict, tensors: list) -> dict:
    """Add the tensors that :func:`encode_into` collected to ``message`` as one blob."""
    if tensors:
        blob = _save_tensors(tensors)
        if blob is None:
            raise WireError("tensors too large to report")
        message["tensors"] = blob
    return message


def _save_tensors(tensors: list) -> str | None:
    import torch

    header, chunks, size = [], [], 0
    for tensor in tensors:
        # A copy laid out row after row: contiguous() keeps a tensor whose sizes are all 1 as it is,
        # strides of 0 included, and such strides cannot be viewed as bytes.
        plain = tensor.resolve_conj().resolve_neg().clone(memory_format=torch.contiguous_format)
        data = plain.reshape(-1).view(torch.uint8).numpy().tobytes() if plain.numel() else b""
        size += len(data)
        if size > MAX_TENSOR_BYTES:
            return None
        header.append([str(plain.dtype).removeprefix("torch."), list(plain.shape)])
        chunks.append(data)
    head = json.dumps(header).encode()
    return base64.b64encode(len(head).to_bytes(4, "big") + head + b"".join(chunks)).decode("ascii")


def _travels(tensor: Any) -> bool:
    """A plain CPU tensor of a dtype in :data:`DTYPES`: what the blob carries."""
    import torch

    return (tensor.layout == torch.strided and tensor.device.type == "cpu"
            and str(tensor.dtype).removeprefix("torch.") in DTYPES)


def encode_into(value: Any, tensors: list, depth: int = 0) -> dict:
    """One value as a tagged node; its tensors are appended to ``tensors``."""
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
        return {"t": kind.__name__, "v": [encode_into(item, tensors, depth + 1) for item in value]}
    if kind is dict:
        return {"t": "dict", "v": [[encode_into(k, tensors, depth + 1), encode_into(v, tensors, depth + 1)]
                                   for k, v in value.items()]}
    if f"{kind.__module__}.{kind.__qualname__}" == "torch.Tensor" and _travels(value):
        tensors.append(value.detach())
        return {"t": "tensor", "i": len(tensors) - 1}
    return _other(value)


def _other(value: Any) -> dict:
    return {"t": "other", "type": type_name(value), "repr": short_repr(value)}


# ----------------------------------------------------------------------------------- decoding
class Opaque:
    """Stand-in for a value that could not be reported as data; it equals nothing but itself."""

    def __init__(self, text: str) -> None:
        self._text = text

    def __repr__(self) -> str:
        return self._text


def decode(message: Any) -> Any:
    """Decode what :func:`encode` produced into plain Python values and plain tensors.

    Raises:
        WireError: when the message is not what :func:`encode` produces.
    """
    if type(message) is not dict or "value" not in message:
        raise WireError("a result must be an object with a value")
    return decode_from(message["value"], load_tensors(message.get("tensors")), [0])


def load_tensors(blob: Any) -> list:
    """The tensors of a message (none when it has no blob)."""
    if blob is None:
        return []
    import torch

    if type(blob) is not str or len(blob) > MAX_TENSOR_BYTES * 4 // 3 + 2**20:
        raise WireError("tensor blob of the wrong type or too large")
    try:
        raw = base64.b64decode(blob, validate=True)
        length = int.from_bytes(raw[:4], "big")
        header = json.loads(raw[4:4 + length])
    except (ValueError, UnicodeDecodeError) as err:
        raise WireError("tensor blob does not load as data") from err
    if type(header) is not list or len(header) > MAX_ITEMS:
        raise WireError("tensor blob's header is not a list")
    tensors, at = [], 4 + length
    for entry in header:
        if (type(entry) is not list or len(entry) != 2 or entry[0] not in DTYPES or type(entry[1]) is not list
                or len(entry[1]) > 64 or not all(type(n) is int and 0 <= n <= MAX_TENSOR_BYTES for n in entry[1])):
            raise WireError("tensor blob's header names a tensor that is not plain data")
        dtype, shape = getattr(torch, entry[0]), entry[1]
        count, extent = 1, 1
        for n in shape:
            count, extent = count * n, extent * max(n, 1)
        if extent > MAX_TENSOR_BYTES:
            raise WireError("tensor blob's header names a shape too large to be data")
        size = count * dtype.itemsize
        if size > len(raw) - at:
            raise WireError("tensor blob shorter than its header says")
        tensors.append(torch.frombuffer(bytearray(raw[at:at + size]), dtype=dtype).reshape(shape) if size
                       else torch.empty(shape, dtype=dtype))
        at += size
    if at != len(raw):
        raise WireError("tensor blob longer than its header says")
    return tensors


def decode_from(node: Any, tensors: list, counter: list[int], depth: int = 0) -> Any:
    """One tagged node as a plain value; ``counter`` bounds the nodes read across a message."""
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
        try:
            return float(_typed(node.get("v"), str))
        except ValueError as err:
            raise WireError("malformed float") from err
    if tag == "str":
        return _typed(node.get("v"), str)
    if tag in ("tuple", "list"):
        items = [decode_from(item, tensors, counter, depth + 1) for item in _typed(node.get("v"), list)]
        return tuple(items) if tag == "tuple" else items
    if tag == "dict":
        result = {}
        for pair in _typed(node.get("v"), list):
            if type(pair) is not list or len(pair) != 2:
                raise WireError("malformed dict entry")
            key = decode_from(pair[0], tensors, counter, depth + 1)
            try:
                result[key] = decode_from(pair[1], tensors, counter, depth + 1)
            except TypeError as err:  # an unhashable key (a list) cannot be a dict key
                raise WireError("unhashable dict key") from err
        return result
    if tag == "tensor":
        index = node.get("i")
        if type(index) is not int or not 0 <= index < len(tensors):
            raise WireError("tensor index out of range")
        return tensors[index]
    if tag == "other":
        return opaque(_typed(node.get("type"), str)[:200], _typed(node.get("repr"), str)[:200])
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


# ------------------------------------------------------------------------------------ digests
def encode_plain(value: Any) -> dict:
    """One value as a tagged node, for values that hold no tensor.

    Raises:
        WireError: when the value holds a tensor.
    """
    return encode_into(value, _NO_TENSORS)


def digest(value: Any) -> str:
    """A name for a plain value (None, bool, int, float, str and tuples, lists and str-keyed dicts
    of them) that equals another's exactly when the values and their types are equal."""
    canonical = json.dumps(encode_plain(value), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(b"autograd-state\0" + canonical.encode()).hexdigest()


class _NoTensors(list):
    def append(self, _value: Any) -> None:
        raise WireError("a digest names plain values, not tensors")


_NO_TENSORS = _NoTensors()

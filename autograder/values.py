"""Trusted helpers every chapter's cases share: exact type checks, tolerant comparison,
storage identity and short, safe reprs of learner values.

Defined once for every chapter; the chapters' case modules import them from here.
"""

from __future__ import annotations

import math
from typing import Any


class AnswerTypeError(TypeError):
    """The answer has the wrong type or shape of data, before any value is compared."""


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


def validate(kind: str, value: Any) -> None:
    """Check a result's exact type before its value is compared.

    Exact ``type(...) is`` checks on purpose: a subclass can override ``__eq__`` to compare equal
    to anything, and ``True`` must not pass for the integer ``1``.

    Args:
        kind: ``bool``, ``int``, ``str``, ``float``, ``tensor``, ``int-tuple`` or ``observation``
            (plain data as a trusted driver reports it).

    Raises:
        AnswerTypeError: naming the expected and the found type.
    """
    simple = {"bool": (bool, "a Python bool (True or False)"), "int": (int, "a Python int"),
              "str": (str, "a str"), "float": (float, "a Python float")}
    if kind in simple:
        expected, text = simple[kind]
        if type(value) is not expected:
            raise AnswerTypeError(f"expected {text}, found {type_name(value)}")
    elif kind == "tensor":
        require_tensor(value)
    elif kind == "observation":
        require_plain(value)
    elif kind == "int-tuple":
        if type(value) is not tuple or not all(type(v) is int for v in value):
            raise AnswerTypeError(f"expected a tuple of Python ints, as t.stride() returns, found {short_repr(value)}")
    else:
        raise ValueError(f"unknown result kind {kind!r}")


def require_tensor(value: Any) -> None:
    """A plain ``torch.Tensor``: a subclass could answer every comparison through ``__torch_function__``."""
    import torch

    if type(value) is not torch.Tensor:
        raise AnswerTypeError(f"expected a torch.Tensor, found {type_name(value)}")


def require_plain(value: Any) -> None:
    """Plain data as a driver reports it: None, bool, int, float, str, plain tensors, and
    tuples, lists and str-keyed dicts of these."""
    if value is None or type(value) in (bool, int, float, str):
        return
    if type(value) in (tuple, list):
        for item in value:
            require_plain(item)
    elif type(value) is dict:
        for key, item in value.items():
            if type(key) is not str:
                raise AnswerTypeError(f"expected str keys in an observation, found {type_name(key)}")
            require_plain(item)
    else:
        require_tensor(value)


def close(found: Any, expected: Any, rtol: float = 1e-5, atol: float = 1e-6) -> bool:
    """Agreement of plain data with floating-point tolerance: tensors must match in shape and
    dtype and be ``allclose``; floats ``isclose``; containers element by element."""
    import torch

    if type(expected) is torch.Tensor:
        return (type(found) is torch.Tensor and found.shape == expected.shape and found.dtype == expected.dtype
                and bool(torch.allclose(found, expected, rtol=rtol, atol=atol, equal_nan=True)))
    if type(expected) is float:
        return type(found) is float and math.isclose(found, expected, rel_tol=rtol, abs_tol=atol)
    if type(expected) in (tuple, list):
        return (type(found) is type(expected) and len(found) == len(expected)
                and all(close(f, e, rtol, atol) for f, e in zip(found, expected, strict=True)))
    if type(expected) is dict:
        return (type(found) is dict and found.keys() == expected.keys()
                and all(close(found[k], expected[k], rtol, atol) for k in expected))
    return type(found) is type(expected) and found == expected


def same_storage(a: Any, b: Any) -> bool:
    """Trusted reference: do two tensors use one storage (whatever their offsets)?"""
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()

"""Plain values as checks read and show them: exact kinds, agreement, and short renderings.

Shared by the observing side (a learner's kernel, the sandbox) and the trusted grader. Nothing
here decides what an answer should give.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from autograder.engine.codec import short_repr, type_name

__all__ = ["AGREE", "KINDS", "TOLERANCE", "brief", "close", "measure", "short_repr", "show_inputs", "type_name"]


def _is_int_tuple(value: Any) -> bool:
    return type(value) is tuple and all(type(v) is int for v in value)


def _is_tensor(value: Any) -> bool:
    return f"{type(value).__module__}.{type(value).__qualname__}" == "torch.Tensor"


#: Result kinds: name -> (test, how a message names it). Exact ``type(...) is`` tests on purpose:
#: a subclass can override ``__eq__`` to compare equal to anything, and ``True`` must not pass for 1.
KINDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "bool": (lambda v: type(v) is bool, "a Python bool (True or False)"),
    "int": (lambda v: type(v) is int, "a Python int"),
    "str": (lambda v: type(v) is str, "a str"),
    "float": (lambda v: type(v) is float, "a Python float"),
    "none": (lambda v: v is None, "None"),
    "tensor": (_is_tensor, "a torch.Tensor"),
    "int-tuple": (_is_int_tuple, "a tuple of Python ints, as t.stride() returns"),
    "shape-stride": (lambda v: type(v) is tuple and len(v) == 2 and all(_is_int_tuple(p) for p in v),
                     "a pair (shape, stride) of tuples of ints"),
    "shape-stride-offset": (lambda v: type(v) is tuple and len(v) == 3 and _is_int_tuple(v[0])
                            and _is_int_tuple(v[1]) and type(v[2]) is int,
                            "a triple (shape, stride, offset): two tuples of ints and an int"),
    "observation": (lambda v: _plain(v), "plain data"),
    "dtype-name": (lambda v: type(v) is str and v in _dtype_names(),
                   "a dtype as str(dtype) writes it, like 'torch.float32'"),
}


def _dtype_names() -> frozenset[str]:
    import torch

    return frozenset(str(v) for v in vars(torch).values() if type(v) is torch.dtype)


def _plain(value: Any) -> bool:
    if value is None or type(value) in (bool, int, float, str) or _is_tensor(value):
        return True
    if type(value) in (tuple, list):
        return all(_plain(item) for item in value)
    if type(value) is dict:
        return all(type(k) is str and _plain(v) for k, v in value.items())
    return False


# ------------------------------------------------------------------------------- agreement
def equal(found: Any, expected: Any) -> bool:
    """Exact agreement of plain data, types included; tensors by ``torch.equal`` with equal dtypes,
    a nan agreeing with a nan in the same place (the same result, as :func:`close` has it)."""
    if _is_tensor(expected):
        import torch

        if not (_is_tensor(found) and found.shape == expected.shape and found.dtype == expected.dtype):
            return False
        if expected.is_floating_point():
            return bool(torch.allclose(found, expected, rtol=0.0, atol=0.0, equal_nan=True))
        return bool(torch.equal(found, expected))
    if type(expected) in (tuple, list):
        return (type(found) is type(expected) and len(found) == len(expected)
                and all(equal(f, e) for f, e in zip(found, expected, strict=True)))
    if type(expected) is dict:
        return type(found) is dict and found.keys() == expected.keys() and all(equal(found[k], expected[k])
                                                                              for k in expected)
    return type(found) is type(expected) and found == expected


#: How far apart two numbers may be under each agreement: ``(rtol, atol)``, None for exactly.
TOLERANCE: dict[str, tuple[float, float] | None] = {"eq": None, "close": (1e-5, 1e-6), "loose": (1e-4, 1e-5)}


def close(found: Any, expected: Any, rtol: float = 1e-5, atol: float = 1e-6) -> bool:
    """Agreement of plain data with floating-point tolerance: tensors must match in shape and
    dtype and be ``allclose``; floats ``isclose``; containers element by element."""
    if _is_tensor(expected):
        import torch

        return (_is_tensor(found) and found.shape == expected.shape and found.dtype == expected.dtype
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


def loose(found: Any, expected: Any) -> bool:
    """:func:`close` with the tolerance of a gradient summed over several steps."""
    return close(found, expected, *TOLERANCE["loose"])


#: Agreements by name: a case names one (``agree=``); chapters may add their own.
AGREE: dict[str, Callable[[Any, Any], bool]] = {"eq": equal, "close": close, "loose": loose}

# ------------------------------------------------------------------------------- rendering
def brief(value: Any, limit: int = 100) -> str:
    """A value as a message shows it: tensors by shape and first elements, containers cut short."""
    if _is_tensor(value):
        flat = value.detach().reshape(-1)[:4].tolist()
        items = ", ".join(f"{v:.3g}" if isinstance(v, float) else str(v) for v in flat)
        more = ", …" if value.numel() > 4 else ""
        return f"tensor of shape {tuple(value.shape)} [{items}{more}]"
    if type(value) is dict:
        parts = [f"{k!r}: {brief(v, 40)}" for k, v in list(value.items())[:6]]
        text = "{" + ", ".join(parts) + (", …" if len(value) > 6 else "") + "}"
    elif type(value) in (tuple, list) and any(_is_tensor(v) or type(v) in (dict, list, tuple) for v in value):
        opening, closing = ("(", ")") if type(value) is tuple else ("[", "]")
        text = opening + ", ".join(brief(v, 40) for v in value[:6]) + (", …" if len(value) > 6 else "") + closing
    else:
        text = short_repr(value, limit)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def show_inputs(inputs: tuple) -> str:
    """The inputs of a call as a message shows them."""
    return ", ".join(brief(value, 60) for value in inputs)


def measure(value: Any) -> int:
    """How large an input is, to find the smallest counterexample: elements and magnitudes."""
    if _is_tensor(value):
        return value.numel() + value.dim()
    if type(value) is bool or value is None:
        return 0
    if type(value) is int:
        return abs(value)
    if type(value) in (tuple, list):
        return len(value) + sum(measure(v) for v in value)
    if type(value) is dict:
        return len(value) + sum(measure(v) for v in value.values())
    layout = getattr(value, "layout_size", None)
    return layout() if callable(layout) else 1

"""Where two results differ, shown on both sides: a failed check's message cut around the first
difference, never at a fixed length before it.

:func:`around` walks two results together to the first place they differ — the first key of a
dict, the first index of a sequence, the first element of a tensor, the first character of a
text (an error's message included) — and renders both with that place in view and a little
context, the rest abbreviated with ``…``. Shared by the learner's kernel and the grader (through
:func:`autograder.judging.judge_cell`).
"""

from __future__ import annotations

from typing import Any

from autograder.engine.codec import short_repr, type_name

__all__ = ["around", "first_difference"]

# Characters of context shown before a text's first difference, and in all on each side.
BEFORE = 30
WIDTH = 120
# Elements of a tensor or sequence shown on each side of the first one that differs.
AROUND = 2
# A text set against a value of another kind (an error's message where none was expected) has no
# first difference to cut around: it is shown whole, up to this many characters.
ALONE = 320


def _is_tensor(value: Any) -> bool:
    return f"{type(value).__module__}.{type(value).__qualname__}" == "torch.Tensor"


#: How far two numbers may be apart and still agree: ``(rtol, atol)``, or None for exactly.
Tolerance = tuple[float, float] | None


def first_difference(found: Any, expected: Any, tolerance: Tolerance = None) -> list[Any]:
    """The path to the first place two results differ (beyond ``tolerance``, for numbers): keys and
    indices down to the values that differ (a character index last, for two texts; an element's
    index, for two tensors); empty when they differ at the top."""
    if type(found) is dict and type(expected) is dict:
        for key in [*expected, *(k for k in found if k not in expected)]:
            if key not in found or key not in expected or not _agree(found[key], expected[key], tolerance):
                return [key, *(first_difference(found[key], expected[key], tolerance)
                               if key in found and key in expected else [])]
        return []
    if type(found) in (tuple, list) and type(found) is type(expected):
        for index, (a, b) in enumerate(zip(found, expected, strict=False)):
            if not _agree(a, b, tolerance):
                return [index, *first_difference(a, b, tolerance)]
        return [min(len(found), len(expected))] if len(found) != len(expected) else []
    if type(found) is str and type(expected) is str:
        return [next((i for i, (a, b) in enumerate(zip(found, expected, strict=False)) if a != b),
                     min(len(found), len(expected)))]
    if _is_tensor(found) and _is_tensor(expected) and found.shape == expected.shape and found.dtype == expected.dtype:
        index = _first_element(found, expected, tolerance)
        return [] if index is None else [index]
    return []


def _agree(a: Any, b: Any, tolerance: Tolerance) -> bool:
    import math

    if _is_tensor(a) or _is_tensor(b):
        return (_is_tensor(a) and _is_tensor(b) and a.shape == b.shape and a.dtype == b.dtype
                and _first_element(a, b, tolerance) is None)
    if type(a) is float and type(b) is float and tolerance is not None:
        return math.isclose(a, b, rel_tol=tolerance[0], abs_tol=tolerance[1]) or (math.isnan(a) and math.isnan(b))
    try:
        return type(a) is type(b) and (bool(a == b) if type(a) not in (dict, list, tuple)
                                       else not first_difference(a, b, tolerance) and len(a) == len(b))
    except Exception:  # noqa: BLE001 - a value a comparison cannot handle differs
        return False


def _first_element(found: Any, expected: Any, tolerance: Tolerance) -> tuple[int, ...] | None:
    import torch

    a, b = found.detach().reshape(-1), expected.detach().reshape(-1)
    if a.is_floating_point() or a.is_complex():
        same = torch.isclose(a, b, *(tolerance or (0.0, 0.0)), equal_nan=True)
        differs = ~same
    else:
        differs = a != b
    flat = torch.nonzero(differs).reshape(-1)
    if flat.numel() == 0:
        return None
    index, shape, position = int(flat[0]), tuple(found.shape), []
    for size in reversed(shape):
        position.append(index % size)
        index //= size
    return tuple(reversed(position))


def around(found: Any, expected: Any, tolerance: Tolerance = None, width: int = WIDTH) -> tuple[str, str]:
    """Both results rendered with their first difference (beyond ``tolerance``) in view, numbers
    there with the digits that tell them apart (see the module's docstring)."""
    return _render(found, expected, first_difference(found, expected, tolerance), width)


def _render(found: Any, expected: Any, path: list[Any], width: int) -> tuple[str, str]:
    if not path:
        if (type(found) is str) != (type(expected) is str):
            return (_whole(found, ALONE if type(found) is str else width),
                    _whole(expected, ALONE if type(expected) is str else width))
        return _whole(found, width), _whole(expected, width)
    step, rest = path[0], path[1:]
    if type(found) is dict and type(expected) is dict:
        inner = _render(found.get(step, _MISSING), expected.get(step, _MISSING), rest, width)
        keys = list(expected) if step in expected else list(found)
        return tuple(_in_dict(keys, step, side, width) for side in inner)
    if type(found) is str and type(expected) is str:
        return _text(found, step, width), _text(expected, step, width)
    if _is_tensor(found):
        return _tensor(found, step, expected), _tensor(expected, step, found)
    opening, closing = ("(", ")") if type(found) is tuple else ("[", "]")
    if step >= min(len(found), len(expected)):  # one is longer
        return (_sequence(found, step, None, opening, closing, width),
                _sequence(expected, step, None, opening, closing, width))
    inner = _render(found[step], expected[step], rest, width)
    return (_sequence(found, step, inner[0], opening, closing, width),
            _sequence(expected, step, inner[1], opening, closing, width))


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING = _Missing()


def _in_dict(keys: list, key: Any, shown: str, width: int) -> str:
    before = "…, " if keys.index(key) > 0 else ""
    after = ", …" if keys.index(key) < len(keys) - 1 else ""
    return "{" + before + f"{short_repr(key, 60)}: {shown}" + after + "}"


def _sequence(values: Any, index: int, shown: str | None, opening: str, closing: str, width: int) -> str:
    low, high = max(0, index - AROUND), min(len(values), index + AROUND + 1)
    parts = [shown if i == index and shown is not None else _whole(values[i], 40) for i in range(low, high)]
    if index >= len(values) and values:  # an empty sequence reads as itself: []
        parts.append(f"<ends at {len(values)} items>")
    prefix = "…, " if low > 0 else ""
    suffix = ", …" if high < len(values) else ""
    return opening + prefix + ", ".join(parts) + suffix + closing


def _text(text: str, index: int, width: int) -> str:
    start = max(0, index - BEFORE)
    end = start + width
    shown = text[start:end]
    return repr(("…" if start > 0 else "") + shown + ("…" if end < len(text) else ""))


def _tensor(value: Any, position: tuple[int, ...], other: Any) -> str:
    flat, against = value.detach().reshape(-1), other.detach().reshape(-1)
    index = 0
    for size, at in zip(value.shape, position, strict=True):
        index = index * size + at
    low, high = max(0, index - AROUND), min(flat.numel(), index + AROUND + 1)
    items = [_number(flat[i].item(), against[i].item() if i == index else None) for i in range(low, high)]
    return (f"tensor of shape {tuple(value.shape)}, at {list(position)}: "
            + ("[…, " if low > 0 else "[") + ", ".join(items) + (", …]" if high < flat.numel() else "]"))


def _number(value: Any, other: Any = None) -> str:
    """A number with six significant digits, or as many as tell it from ``other``."""
    if not isinstance(value, float):
        return str(value)
    for digits in (6, 9, 12, 17):
        text = f"{value:.{digits}g}"
        if not isinstance(other, float) or text != f"{other:.{digits}g}":
            return text
    return repr(value)


def _whole(value: Any, width: int) -> str:
    """A value shown whole, when it is short, or by its kind and beginning."""
    if _is_tensor(value):
        flat = value.detach().reshape(-1)
        items = ", ".join(_number(v) for v in flat[:4].tolist())
        return f"tensor of shape {tuple(value.shape)}, {str(value.dtype).removeprefix('torch.')} [{items}" \
               + (", …]" if value.numel() > 4 else "]")
    text = short_repr(value, width)
    return text if type(value) is not object else f"<{type_name(value)}>"

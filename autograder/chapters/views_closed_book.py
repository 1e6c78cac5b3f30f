"""The closed-book companion of Chapter 1, "Views, strides and storage": how ``views-reproduce``
is checked.

The learner writes four stride rules with plain integers. The answer cell runs, when graded and
in the learner's own visible checks, in a Python without torch or NumPy (:mod:`autograder.engine.bare`):
there is nothing to ask but the rule itself. The visible checks look only at the form of each
function's result on one example; every check of behaviour is hidden, on layouts drawn per run up
to 5-D, and a failed one shows the smallest layout found on which the answer differs.

Defined in the closed-book companion of Chapter 1 (notebooks/views-closed-book/views-closed-book.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from autograder.engine.cases import exercise
from autograder.engine.draw import Draw
from autograder.engine.layouts import drawn_tensor, header
from autograder.engine.values import AGREE

Shape = tuple[int, ...]
FUNCTIONS = ("contiguous_stride", "transposed", "sliced", "expanded")
ANSWER = "{\n" + "".join(f'    "{name}": {name},\n' for name in FUNCTIONS) + "}"


# ------------------------------------------------------------------------------ drawn inputs
def contiguous_inputs(dims: int, ones: int = 0) -> Callable[[Draw], tuple]:
    def recipe(draw: Draw) -> tuple:
        count = draw.sized(1, dims) if draw.size is not None else dims
        sizes = list(draw.shape(count, 2, 6))
        for index in draw.rng.sample(range(count), min(ones, count)):
            sizes[index] = 1
        return (tuple(sizes),)

    return recipe


def contiguous_with_zero_inputs(dims: int) -> Callable[[Draw], tuple]:
    """A shape with one or two size-0 dimensions, never the first: the dimensions before a size-0
    one have sizes of 2 or more, so their strides are compared."""

    def recipe(draw: Draw) -> tuple:
        count = draw.sized(2, dims) if draw.size is not None else dims
        sizes = list(draw.shape(count, 2, 6))
        for index in draw.rng.sample(range(1, count), draw.integer(1, min(2, count - 1))):
            sizes[index] = 0
        return (tuple(sizes),)

    return recipe


def transposed_inputs(dims: int, negative: bool) -> Callable[[Draw], tuple]:
    def recipe(draw: Draw) -> tuple:
        count = draw.sized(2, dims) if draw.size is not None else dims
        shape, stride, _ = header(drawn_tensor(draw, count)[0])
        d0, d1 = draw.rng.sample(range(count), 2)
        if negative:
            d0, d1 = d0 - count, d1 - count * draw.integer(0, 1)
        return shape, stride, d0, d1

    return recipe


def sliced_inputs(dims: int, negative: bool, empty: bool = False) -> Callable[[Draw], tuple]:
    """A slice along a dimension with stride > 1, from ``start >= 1``, whose length is not a
    multiple of its step: every shortcut of the rule gives another layout."""

    def recipe(draw: Draw) -> tuple:
        count = draw.sized(2, dims) if draw.size is not None else dims
        step, length, start = draw.sized(2, 3), draw.sized(2, 3), draw.sized(1, 2)
        stop = start if empty else start + (length - 1) * step + draw.integer(1, step - 1)
        t, dim = drawn_tensor(draw, count, long=stop + draw.sized(0, 2))
        shape, stride, offset = header(t)
        return shape, stride, offset, dim - count if negative else dim, start, stop, step

    return recipe


def expanded_inputs(dims: int, leading: int) -> Callable[[Draw], tuple]:
    """A layout with size-1 dimensions, the first of them stretched, and at least one ``-1``."""

    def recipe(draw: Draw) -> tuple:
        count = draw.sized(2, dims) if draw.size is not None else dims
        shape, stride, _ = header(drawn_tensor(draw, count, high=4, ones=max(1, count // 2))[0])
        stretched = shape.index(1)
        kept = [i for i, size in enumerate(shape) if size > 1]
        kept_with_minus_one = draw.choice(kept) if kept else None
        sizes = []
        for index, size in enumerate(shape):
            if index == stretched or (size == 1 and draw.integer(0, 1)):
                sizes.append(draw.integer(2, 4))
            elif index == kept_with_minus_one or draw.integer(0, 1):
                sizes.append(-1)
            else:
                sizes.append(size)
        return shape, stride, tuple(draw.integer(1, 3) for _ in range(leading)) + tuple(sizes)

    return recipe


# ----------------------------------------------------------------------------- comparing
def same_layout(found: Any, expected: Any) -> bool:
    """Found equals torch's layout, except strides along dimensions of size 0 or 1, which address
    nothing. A result is ``(shape, stride[, offset])``, or one stride tuple (``contiguous_stride``,
    whose shape is not returned: the key holds None where it addresses nothing)."""
    if all(type(step) is int or step is None for step in expected):
        return _strides_agree(found, expected, None)
    if type(found) is not tuple or len(found) != len(expected):
        return False
    shape, stride, *rest = expected
    return (_int_tuple(found[0]) and found[0] == shape and _strides_agree(found[1], stride, shape)
            and list(found[2:]) == rest and all(type(v) is int for v in found[2:]))


def _int_tuple(value: Any) -> bool:
    return type(value) is tuple and all(type(v) is int for v in value)


def _strides_agree(found: Any, expected: tuple[int | None, ...], shape: Shape | None) -> bool:
    if not _int_tuple(found) or len(found) != len(expected):
        return False
    sizes = shape if shape is not None else tuple(1 if step is None else 2 for step in expected)
    return all(f == e for f, e, size in zip(found, expected, sizes, strict=True) if size > 1)


AGREE["layout"] = same_layout

reproduce = exercise("views-reproduce", ANSWER, bare=True, agree="layout")

def named(*names: str) -> Callable[[tuple], str]:
    """How a message shows a call's inputs: ``shape=(2, 3), stride=(3, 1), ...``."""
    return lambda inputs: ", ".join(f"{n}={v!r}" for n, v in zip(names, inputs, strict=True))


PARAMETERS = {
    "contiguous_stride": ("shape",),
    "transposed": ("shape", "stride", "d0", "d1"),
    "sliced": ("shape", "stride", "offset", "dim", "start", "stop", "step"),
    "expanded": ("shape", "stride", "new_shape"),
}

FORMS = {
    "contiguous_stride": ("contiguous_stride(shape)", contiguous_inputs(3), "int-tuple"),
    "transposed": ("transposed(shape, stride, d0, d1)", transposed_inputs(3, negative=False), "shape-stride"),
    "sliced": ("sliced(shape, stride, offset, dim, start, stop, step)", sliced_inputs(3, negative=False),
               "shape-stride-offset"),
    "expanded": ("expanded(shape, stride, new_shape)", expanded_inputs(2, leading=0), "shape-stride"),
}
for _function, (_probe, _recipe, _kind) in FORMS.items():
    reproduce.case(f"{_function}-form", _probe, _recipe, subject=_function, form=_kind, points=0,
                   show=named(*PARAMETERS[_function]))

CASES: dict[str, tuple[str, Callable[[Draw], tuple], int]] = {
    # name: (function, recipe (also the search's, at growing sizes), points)
    "contiguous-3d": ("contiguous_stride", contiguous_inputs(3), 1),
    "contiguous-5d": ("contiguous_stride", contiguous_inputs(5, ones=1), 1),
    "contiguous-size-zero": ("contiguous_stride", contiguous_with_zero_inputs(5), 1),
    "transposed-3d": ("transposed", transposed_inputs(3, negative=False), 1),
    "transposed-negative": ("transposed", transposed_inputs(5, negative=True), 2),
    "sliced-3d": ("sliced", sliced_inputs(3, negative=False), 1),
    "sliced-negative": ("sliced", sliced_inputs(4, negative=True), 2),
    "sliced-empty": ("sliced", sliced_inputs(3, negative=False, empty=True), 1),
    "expanded-2d": ("expanded", expanded_inputs(2, leading=0), 1),
    "expanded-leading": ("expanded", expanded_inputs(3, leading=2), 2),
}
for _name, (_function, _recipe, _points) in CASES.items():
    reproduce.case(_name, FORMS[_function][0], _recipe, subject=_function, hidden=True, points=_points,
                   search=_recipe, tries=6, show=named(*PARAMETERS[_function]))

"""The closed-book companion of Chapter 1, "Views, strides and storage": the cases of
``views-reproduce``.

The learner writes the stride rules with plain integers: the strides of a fresh tensor, and the
layout (shape, stride, storage offset) that a transpose, a basic slice and an ``expand`` produce
from a given layout. Every case draws a new layout, up to 5-D, and the expected layout is read
off a real tensor that torch builds over the same storage positions, so the key is torch's own
answer. A stride along a dimension of size 0 or 1 addresses nothing and is not compared. The
answer may call no torch function at all.

Defined in the closed-book companion of Chapter 1, "Views, strides and storage"
(notebooks/views-closed-book/views-closed-book.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from autograder.checks import Diagnosis, Forbid, exercise
from autograder.draw import Draw
from autograder.recorder import ANY_TORCH

Shape = tuple[int, ...]
Layout = tuple[Shape, Shape, int]

FUNCTIONS = ("contiguous_stride", "transposed", "sliced", "expanded")
ANSWER = "{\n" + "".join(f'    "{name}": {name},\n' for name in FUNCTIONS) + "}"


# ----------------------------------------------------------------------------- trusted layouts
def over_storage(shape: Shape, stride: Shape, offset: int) -> torch.Tensor:
    """A real tensor with this layout, over a storage just large enough for it."""
    extent = offset + sum((size - 1) * step for size, step in zip(shape, stride, strict=True)) + 1
    return torch.empty(max(extent, 1)).as_strided(shape, stride, offset)


def layout_of(t: torch.Tensor) -> Layout:
    """``(shape, stride, storage offset)`` as torch reports them, as Python ints."""
    return tuple(t.shape), t.stride(), t.storage_offset()


def random_layout(draw: Draw, dims: int, low: int = 2, high: int = 5, ones: int = 0,
                  long: int = 0) -> tuple[Layout, int]:
    """A layout torch itself produced: a fresh tensor, one dimension sliced with a step, the
    dimensions permuted, and a random offset (a view that starts further into its storage).

    Args:
        draw: The seeded source of the layout.
        dims: Number of dimensions.
        low: Smallest size of a dimension.
        high: Largest size of a dimension.
        ones: How many dimensions are forced to size 1 (those ``expand`` may stretch).
        long: When positive, one dimension whose stride is at least 2 gets this size.

    Returns:
        The layout, and where the long dimension ended up (0 when there is none).
    """
    sizes = list(draw.shape(dims, low, high))
    for index in draw.rng.sample(range(dims), ones):
        sizes[index] = 1
    # Any dimension but the innermost of the storage strides over at least a whole inner run.
    target = draw.integer(0, dims - 2) if dims > 1 else 0
    if long:
        sizes[target] = long
    step = draw.integer(1, 3)
    stepped = draw.integer(0, dims - 1)
    storage_sizes = [size * step if index == stepped else size for index, size in enumerate(sizes)]
    lead = draw.integer(0, 7)
    base = torch.empty(lead + _numel(storage_sizes))[lead:].view(storage_sizes)
    view = base[(slice(None),) * stepped + (slice(None, None, step),)]
    order = list(range(dims))
    draw.rng.shuffle(order)
    return layout_of(view.permute(order)), order.index(target)


def _numel(sizes: list[int]) -> int:
    count = 1
    for size in sizes:
        count *= size
    return count


def torch_contiguous_stride(shape: Shape) -> Shape:
    """Trusted: the strides of a freshly allocated tensor of this shape."""
    return torch.empty(shape).stride()


def torch_transposed(shape: Shape, stride: Shape, d0: int, d1: int) -> tuple[Shape, Shape]:
    """Trusted: the shape and strides of ``t.transpose(d0, d1)``."""
    shape_, stride_, _ = layout_of(over_storage(shape, stride, 0).transpose(d0, d1))
    return shape_, stride_


def torch_sliced(shape: Shape, stride: Shape, offset: int, dim: int, start: int, stop: int,
                 step: int) -> Layout:
    """Trusted: the layout of ``t[..., start:stop:step, ...]`` (the slice along ``dim``)."""
    t = over_storage(shape, stride, offset)
    return layout_of(t[(slice(None),) * (dim % len(shape)) + (slice(start, stop, step),)])


def torch_expanded(shape: Shape, stride: Shape, new_shape: Shape) -> tuple[Shape, Shape]:
    """Trusted: the shape and strides of ``t.expand(new_shape)``."""
    shape_, stride_, _ = layout_of(over_storage(shape, stride, 0).expand(new_shape))
    return shape_, stride_


TRUSTED: dict[str, Callable[..., Any]] = {
    "contiguous_stride": torch_contiguous_stride, "transposed": torch_transposed,
    "sliced": torch_sliced, "expanded": torch_expanded,
}


# ------------------------------------------------------------------------------ drawn inputs
def contiguous_inputs(dims: int, ones: int = 0) -> Callable[[Draw], tuple]:
    def recipe(draw: Draw) -> tuple:
        sizes = list(draw.shape(dims, 2, 6))
        for index in draw.rng.sample(range(dims), ones):
            sizes[index] = 1
        return (tuple(sizes),)

    return recipe


def transposed_inputs(dims: int, negative: bool) -> Callable[[Draw], tuple]:
    def recipe(draw: Draw) -> tuple:
        (shape, stride, _), _ = random_layout(draw, dims)
        d0, d1 = draw.rng.sample(range(dims), 2)
        if negative:
            d0, d1 = d0 - dims, d1 - dims * draw.integer(0, 1)
        return shape, stride, d0, d1

    return recipe


def sliced_inputs(dims: int, negative: bool, empty: bool = False) -> Callable[[Draw], tuple]:
    """A slice of a long dimension with stride > 1, from ``start >= 1``, whose length is not a
    multiple of its step: every shortcut of the rule gives another layout."""

    def recipe(draw: Draw) -> tuple:
        (shape, stride, offset), dim = random_layout(draw, dims, long=10)
        step, count, start = draw.integer(2, 3), draw.integer(2, 3), draw.integer(1, 2)
        stop = start if empty else start + (count - 1) * step + draw.integer(1, step - 1)
        return shape, stride, offset, dim - dims if negative else dim, start, stop, step

    return recipe


def expanded_inputs(dims: int, leading: int) -> Callable[[Draw], tuple]:
    """A layout with size-1 dimensions, the first of them stretched, and at least one ``-1``."""

    def recipe(draw: Draw) -> tuple:
        (shape, stride, _), _ = random_layout(draw, dims, high=4, ones=max(1, dims // 2))
        stretched = shape.index(1)
        kept_with_minus_one = draw.choice([i for i, size in enumerate(shape) if size > 1])
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
    """Found equals torch's layout, except strides along dimensions of size 0 or 1.

    A result is a tuple of parts (shape, stride[, offset]), or one stride tuple for
    ``contiguous_stride``; its shape is the expected one, so sizes decide which strides count.
    """
    if type(expected[0]) is int:  # contiguous_stride: the shape is not returned
        return _strides_agree(found, expected, None)
    if type(found) is not tuple or len(found) != len(expected):
        return False
    shape, stride, *rest = expected
    return _int_tuple(found[0]) and found[0] == shape and _strides_agree(found[1], stride, shape) and (
        list(found[2:]) == rest and all(type(v) is int for v in found[2:]))


def _int_tuple(value: Any) -> bool:
    return type(value) is tuple and all(type(v) is int for v in value)


def _strides_agree(found: Any, expected: Shape, shape: Shape | None) -> bool:
    if not _int_tuple(found) or len(found) != len(expected):
        return False
    sizes = shape if shape is not None else (2,) * len(expected)
    return all(f == e for f, e, size in zip(found, expected, sizes, strict=True) if size > 1)


def call_function(name: str) -> Callable[..., Any]:
    """The driver of one function of the answer: it calls that function, and nothing else."""

    def driver(functions: dict, *inputs: Any) -> Any:
        return functions[name](*inputs)

    return driver


# ---------------------------------------------------------------------------- misconceptions
def _wrong_model(model: Callable[..., Any]) -> Callable[[Any, tuple], bool]:
    """A diagnosis predicate: the found result is what ``model`` computes from the inputs."""

    def matches(found: Any, inputs: tuple) -> bool:
        predicted = model(*inputs)
        return predicted != TRUSTED_BY_ARITY[len(inputs)](*inputs) and same_layout(found, predicted)

    return matches


def _column_major(shape: Shape) -> Shape:
    strides, run = [], 1
    for size in shape:
        strides.append(run)
        run *= size
    return tuple(strides)


def _shape_as_stride(shape: Shape) -> Shape:
    return tuple(shape)


def _shape_only_swapped(shape: Shape, stride: Shape, d0: int, d1: int) -> tuple[Shape, Shape]:
    sizes = list(shape)
    sizes[d0], sizes[d1] = sizes[d1], sizes[d0]
    return tuple(sizes), tuple(stride)


def _recomputed_after_transpose(shape: Shape, stride: Shape, d0: int, d1: int) -> tuple[Shape, Shape]:
    sizes = list(shape)
    sizes[d0], sizes[d1] = sizes[d1], sizes[d0]
    return tuple(sizes), torch_contiguous_stride(tuple(sizes))


def _slice_parts(shape: Shape, stride: Shape, offset: int, dim: int, start: int, stop: int,
                 step: int) -> tuple[list[int], list[int], int]:
    sizes, steps = list(shape), list(stride)
    sizes[dim] = -(-(stop - start) // step)
    return sizes, steps, offset + start * stride[dim]


def _step_not_applied(*inputs: Any) -> Layout:
    sizes, steps, offset = _slice_parts(*inputs)
    return tuple(sizes), tuple(steps), offset


def _offset_by_start(shape: Shape, stride: Shape, offset: int, dim: int, start: int, stop: int,
                     step: int) -> Layout:
    sizes, steps, _ = _slice_parts(shape, stride, offset, dim, start, stop, step)
    steps[dim] *= step
    return tuple(sizes), tuple(steps), offset + start


def _offset_unmoved(shape: Shape, stride: Shape, offset: int, dim: int, start: int, stop: int,
                    step: int) -> Layout:
    sizes, steps, _ = _slice_parts(shape, stride, offset, dim, start, stop, step)
    steps[dim] *= step
    return tuple(sizes), tuple(steps), offset


def _floor_size(shape: Shape, stride: Shape, offset: int, dim: int, start: int, stop: int,
                step: int) -> Layout:
    sizes, steps, moved = _slice_parts(shape, stride, offset, dim, start, stop, step)
    sizes[dim] = (stop - start) // step
    steps[dim] *= step
    return tuple(sizes), tuple(steps), moved


def _expanded_keeps_strides(shape: Shape, stride: Shape, new_shape: Shape) -> tuple[Shape, Shape]:
    lead = len(new_shape) - len(shape)
    sizes = tuple(old if new == -1 else new for new, old in zip(new_shape[lead:], shape, strict=True))
    return new_shape[:lead] + sizes, (0,) * lead + tuple(stride)


def _expanded_as_fresh(shape: Shape, stride: Shape, new_shape: Shape) -> tuple[Shape, Shape]:
    sizes, _ = _expanded_keeps_strides(shape, stride, new_shape)
    return sizes, torch_contiguous_stride(sizes)


def _expanded_keeps_minus_one(shape: Shape, stride: Shape, new_shape: Shape) -> tuple[Shape, Shape]:
    return tuple(new_shape), torch_expanded(shape, stride, new_shape)[1]


TRUSTED_BY_ARITY = {1: torch_contiguous_stride, 4: torch_transposed, 7: torch_sliced, 3: torch_expanded}

MESSAGES = {
    "column_major": (
        "a fresh tensor is row-major: the LAST dimension has stride 1 and each stride is the product "
        "of the sizes after it; you built the first dimension's stride as 1 (column-major)."
    ),
    "shape_as_stride": (
        "a stride is not a size: it is how many storage slots one step along a dimension skips, the "
        "product of the sizes after that dimension."
    ),
    "shape_only": (
        "transposing swaps the strides along with the sizes: no data moves, so the transposed tensor "
        "reads the same storage with the two strides exchanged."
    ),
    "recomputed": (
        "a transpose does not lay the data out afresh: it keeps the storage and swaps the two strides; "
        "the strides of a fresh tensor of the new shape are those of a copy (t.transpose(...).contiguous())."
    ),
    "step": "a slice with step k multiplies that dimension's stride by k: it reads every k-th slot of the run.",
    "offset_by_start": (
        "the offset moves by start * stride[dim] storage slots, not by start: start counts elements of "
        "that dimension, each stride[dim] slots apart."
    ),
    "offset_unmoved": (
        "slicing from start moves where the view begins: the storage offset grows by start * stride[dim]."
    ),
    "floor_size": (
        "a slice start:stop:step keeps ceil((stop - start) / step) elements (the last one may be a "
        "partial step), not (stop - start) // step."
    ),
    "expand_keeps": (
        "expand copies nothing: a dimension of size 1 stretched to n gets stride 0, so all n positions "
        "read the same slots; it does not keep its old stride."
    ),
    "expand_fresh": (
        "expand allocates nothing, so its strides are not those of a fresh tensor: stretched and new "
        "dimensions get stride 0 and the others keep theirs."
    ),
    "minus_one": "-1 in expand's new shape means 'keep this size': the result's shape holds the kept size, never -1.",
    "tuples": "return tuples of Python ints (as t.shape and t.stride() give them), not lists or torch.Size.",
    "otherwise": {
        "contiguous_stride": (
            "contiguous_stride(shape): the stride of each dimension is the product of the sizes after "
            "it (the last is 1)."
        ),
        "transposed": "transposed(...) returns (shape, stride) with dimensions d0 and d1 exchanged in both.",
        "sliced": (
            "sliced(...) returns (shape, stride, offset): size ceil((stop - start) / step) along dim, that "
            "stride times step, offset + start * stride[dim]; the other dimensions unchanged."
        ),
        "expanded": (
            "expanded(...) returns (shape, stride): new leading dimensions and stretched size-1 dimensions "
            "get stride 0, -1 keeps a size, every other stride is kept."
        ),
    },
}


def _lists_instead_of_tuples(found: Any, _inputs: tuple) -> bool:
    def listy(value: Any) -> bool:
        return type(value) is list or (type(value) is tuple and any(listy(v) for v in value))

    return listy(found)


_TUPLES = Diagnosis(_lists_instead_of_tuples, MESSAGES["tuples"])
DIAGNOSES = {
    "contiguous_stride": (
        Diagnosis(_wrong_model(_column_major), MESSAGES["column_major"]),
        Diagnosis(_wrong_model(_shape_as_stride), MESSAGES["shape_as_stride"]),
    ),
    "transposed": (
        Diagnosis(_wrong_model(_shape_only_swapped), MESSAGES["shape_only"]),
        Diagnosis(_wrong_model(_recomputed_after_transpose), MESSAGES["recomputed"]),
    ),
    "sliced": (
        Diagnosis(_wrong_model(_step_not_applied), MESSAGES["step"]),
        Diagnosis(_wrong_model(_offset_by_start), MESSAGES["offset_by_start"]),
        Diagnosis(_wrong_model(_offset_unmoved), MESSAGES["offset_unmoved"]),
        Diagnosis(_wrong_model(_floor_size), MESSAGES["floor_size"]),
    ),
    "expanded": (
        Diagnosis(_wrong_model(_expanded_keeps_strides), MESSAGES["expand_keeps"]),
        Diagnosis(_wrong_model(_expanded_as_fresh), MESSAGES["expand_fresh"]),
        Diagnosis(_wrong_model(_expanded_keeps_minus_one), MESSAGES["minus_one"]),
    ),
}

RULE_ONLY = Forbid(
    (ANY_TORCH,),
    "the task asks for the rule itself, with Python integers; the answer asks torch for it (it calls "
    "{call}). Work the strides out from the sizes and strides you are given.",
)

reproduce = exercise(
    "views-reproduce", ANSWER, returns="observation", agree=same_layout, forbid=(RULE_ONLY,),
    answer=", ".join(FUNCTIONS),
)


def _case(name: str, function: str, probe: str, recipe: Callable[[Draw], tuple], **fields: Any) -> None:
    reproduce.case(name, probe, recipe, call=call_function(function), expect=TRUSTED[function],
                   diagnoses=(_TUPLES, *DIAGNOSES[function]), otherwise=MESSAGES["otherwise"][function],
                   **fields)


_case("contiguous-3d", "contiguous_stride", "contiguous_stride(shape) for a drawn 3-D shape",
      contiguous_inputs(3))
_case("transposed-3d", "transposed", "transposed(shape, stride, d0, d1) on a drawn 3-D layout",
      transposed_inputs(3, negative=False))
_case("sliced-3d", "sliced", "sliced(shape, stride, offset, dim, start, stop, step) on a drawn 3-D layout",
      sliced_inputs(3, negative=False))
_case("expanded-2d", "expanded", "expanded(shape, stride, new_shape) on a drawn 2-D layout",
      expanded_inputs(2, leading=0))
_case("contiguous-5d", "contiguous_stride", "contiguous_stride on a drawn 5-D shape with a size-1 dimension",
      contiguous_inputs(5, ones=1), hidden=True)
_case("transposed-negative", "transposed", "transposed on a drawn 5-D layout, negative dimensions",
      transposed_inputs(5, negative=True), hidden=True, points=2)
_case("sliced-negative", "sliced", "sliced on a drawn 4-D layout, a negative dim",
      sliced_inputs(4, negative=True), hidden=True, points=2)
_case("sliced-empty", "sliced", "sliced on a drawn 3-D layout, start == stop",
      sliced_inputs(3, negative=False, empty=True), hidden=True)
_case("expanded-leading", "expanded", "expanded on a drawn 3-D layout, with new leading dimensions",
      expanded_inputs(3, leading=2), hidden=True, points=2)

"""Chapter 1, "Views, strides and storage": how its exercises are checked.

The keys (what each answer should give) are in ``answer_key.views``; this module only draws the
inputs and calls the answers.

Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import torch

from autograder.engine import facts
from autograder.engine.cases import exercise, require_dict, selftest
from autograder.engine.codec import short_repr, type_name
from autograder.engine.draw import Draw
from autograder.engine.layouts import drawn_tensor, layout_of

# --------------------------------------------------------------------------- views-strides
#: Each key of STRIDES and the expression it asks about, over t = torch.arange(32.).view(4, 8).
STRIDE_EXPRESSIONS = {
    "contiguous": "t",
    "transpose": "t.T",
    "every_other_column": "t[:, ::2]",
    "row_block": "t[1:3]",
    "expanded": "t.unsqueeze(0).expand(3, 4, 8)",
}

strides = exercise("views-strides", "STRIDES", require=require_dict("STRIDES", list(STRIDE_EXPRESSIONS)),
                   returns="int-tuple")
for _key, _text in STRIDE_EXPRESSIONS.items():
    strides.entry(_key, f"STRIDES[{_key!r}] ({_text})")

# --------------------------------------------------------------------------- views-classify
#: Each key of CLASSIFY and the call it asks about, on a 2-D float32 tensor t of at least two rows and
#: two columns, of any layout and shape. None of these operations appears elsewhere in the chapter:
#: the key tries each on several layouts (a view on all of them, a copy on all, or either).
CLASSIFY_OPERATIONS = {
    "unflatten": "t.unflatten(0, (1, -1))",
    "index_select": "t.index_select(0, torch.tensor([0, 1]))",
    "broadcast_to": "torch.broadcast_to(t, (3, *t.shape))",
    "repeat": "t.repeat(1, 1)",
    "ravel": "t.ravel()",
    "diag": "torch.diag(t)",
    "view_dtype": "t.view(torch.int32)",
    "flip": "t.flip(0)",
    "reshape_as": "t.reshape_as(t.T)",
    "atleast_3d": "torch.atleast_3d(t)",
}
classify = exercise("views-classify", "CLASSIFY", require=require_dict("CLASSIFY", list(CLASSIFY_OPERATIONS)),
                    returns="str",
                    allowed=("view", "copy", "ambiguous"))
for _key, _call in CLASSIFY_OPERATIONS.items():
    classify.entry(_key, f"CLASSIFY[{_key!r}] ({_call})")

# --------------------------------------------------------------------------- views-classify-more
#: The expressions of CLASSIFY_MORE, over x = torch.arange(20.).view(4, 5) and
#: y = torch.arange(60.).view(3, 4, 5).
MORE_EXPRESSIONS = (
    "x[1:].flatten()",
    "x[:, 1:].flatten()",
    "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)",
    "x.unsqueeze(0).expand(3, 4, 5).flatten(1)",
    "y[:, ::2].flatten(1)",
    "y[:, :, ::2].flatten(0, 1)",
    "x.unsqueeze(1).expand(4, 3, 5).view(12, 5)",
    "y.transpose(0, 1).flatten(1)",
    "x.T.view(5, 2, 2)",
    "y[:, 1:3].view(6, 5)",
    "y[:, :, :2].flatten(0, 1)",
    "y.mT.flatten(0, 1)",
    "y[:, :, 1].view(12)",
    "y[:, 1].flatten()",
)
classify_more = exercise("views-classify-more", "CLASSIFY_MORE",
                         require=require_dict("CLASSIFY_MORE", list(MORE_EXPRESSIONS)), returns="str",
                         allowed=("view", "copy", "error"))
for _expression in MORE_EXPRESSIONS:
    classify_more.entry(_expression, f"CLASSIFY_MORE[{_expression!r}]")


# --------------------------------------------------------------------------- views-shares-storage
def inputs_left_alone(answer: Callable[..., Any], a: torch.Tensor, b: torch.Tensor, _how: str) -> dict[str, Any]:
    """Call ``answer(a, b)``; report what it returned (a Python bool, or what else it was) and
    whether it left both tensors as they were — values, version counters (a write, even one
    undone, bumps the counter) and ``requires_grad`` — or what it changed. The tensors are read
    through :mod:`autograder.engine.facts`, never through methods the answer could have set."""
    with facts.untouched():
        before = [(facts.clone(facts.detach(t)), facts.version(t), facts.requires_grad(t)) for t in (a, b)]
    found = answer(a, b)
    changed = []
    with facts.untouched():
        for name, t, (values, version, requires_grad) in zip("ab", (a, b), before, strict=True):
            if facts.version(t) != version:
                changed.append(f"{name}'s version went from {version} to {facts.version(t)}")
            if not bool(facts.equal(facts.detach(t), values)):
                changed.append(f"{name}'s values changed")
            if facts.requires_grad(t) != requires_grad:
                changed.append(f"{name}.requires_grad became {facts.requires_grad(t)}")
    result = found if type(found) is bool else f"not a Python bool: {type_name(found)} {short_repr(found, 40)}"
    return {"result": result, "inputs left alone": "; ".join(changed) or True}


Relation = Callable[[torch.Tensor, Draw], tuple[torch.Tensor, torch.Tensor, str]]


def _pair(relation: Relation, dims: tuple[int, int]) -> Callable[[Draw], tuple]:
    """Inputs ``(a, b, how)``: a drawn tensor ``t``, the pair ``relation`` makes from it, and how."""

    def recipe(draw: Draw) -> tuple:
        shape = draw.shape(draw.sized(*dims), 2, 6)
        t = torch.arange(float(np.prod(shape))).view(shape) + draw.integer(0, 9)
        a, b, how = relation(t, draw)
        return a, b, f"{how}, t of shape {tuple(shape)}"

    return recipe


def _made(how: str, make: Callable[[torch.Tensor], tuple[torch.Tensor, torch.Tensor]]) -> Relation:
    """A pair made from ``t`` alone."""
    return lambda t, _draw: (*make(t), how)


# Pairs of storages over parts of one NumPy array: m = t.numpy().reshape(-1), cut at drawn points.
FLAT = "m = t.numpy().reshape(-1)"


def _from(m: np.ndarray, part: slice) -> tuple[torch.Tensor, str]:
    """``torch.from_numpy(m[part])``, and how a message writes it."""
    text = f"{'' if part.start is None else part.start}:{'' if part.stop is None else part.stop}"
    return torch.from_numpy(m[part]), f"torch.from_numpy(m[{text}])"


def _storages(parts: Callable[[int, Draw], tuple[slice, slice]]) -> Relation:
    """a and b, each ``torch.from_numpy`` of a part of m: a storage of its own over those bytes."""

    def relation(t: torch.Tensor, draw: Draw) -> tuple[torch.Tensor, torch.Tensor, str]:
        m = t.numpy().reshape(-1)
        (a, a_text), (b, b_text) = (_from(m, part) for part in parts(m.size, draw))
        return a, b, f"a = {a_text}, b = {b_text}, {FLAT}"

    return relation


def _cuts(size: int, draw: Draw) -> tuple[int, int]:
    """Two cut points ``0 < i < j < size``."""
    i = draw.integer(1, size - 2)
    return i, draw.integer(i + 1, size - 1)


def _b_starts_inside_a(size: int, draw: Draw) -> tuple[slice, slice]:
    i, j = _cuts(size, draw)
    return slice(None, j), slice(i, None)


def _a_starts_inside_b(size: int, draw: Draw) -> tuple[slice, slice]:
    i, j = _cuts(size, draw)
    return slice(i, draw.integer(i + 1, size)), slice(None, j)


def _apart(size: int, draw: Draw) -> tuple[slice, slice]:
    """Two parts with a gap between them, a's first: cut at the points the overlapping parts of
    the same draw are cut at."""
    i, j = _cuts(size, draw)
    return slice(None, i), slice(j, None)


def _apart_swapped(size: int, draw: Draw) -> tuple[slice, slice]:
    """Two parts with a gap between them, b's first."""
    first, second = _apart(size, draw)
    return second, first


def _meeting(overlap: int) -> Callable[[int, Draw], tuple[slice, slice]]:
    """Two parts, the first ending ``overlap`` elements after the second starts."""

    def parts(size: int, draw: Draw) -> tuple[slice, slice]:
        k = draw.integer(1, size - 1)
        return slice(None, k + overlap), slice(k, None)

    return parts


def _blocks(cloned: bool) -> Relation:
    """Two blocks of rows of t, or of its elements in order, with or without a gap between them,
    in a drawn order; with ``cloned``, the second a copy."""

    def relation(t: torch.Tensor, draw: Draw) -> tuple[torch.Tensor, torch.Tensor, str]:
        source, name = (t, "t") if draw.integer(0, 1) else (t.view(-1), "t.view(-1)")
        k = draw.integer(1, source.shape[0] - 1)
        gap = draw.integer(0, min(1, source.shape[0] - 1 - k))
        first, second = (source[:k], f"{name}[:{k}]"), (source[k + gap:], f"{name}[{k + gap}:]")
        (a, a_text), (b, b_text) = (first, second) if draw.integer(0, 1) else (second, first)
        if cloned:
            b, b_text = b.clone(), f"{b_text}.clone()"
        return a, b, f"a = {a_text}, b = {b_text}"

    return relation


def _empty_view(cloned: bool) -> Relation:
    """An empty slice of t, which keeps t's storage (or its clone, with a storage of no bytes), and t."""

    def relation(t: torch.Tensor, draw: Draw) -> tuple[torch.Tensor, torch.Tensor, str]:
        k = draw.integer(0, t.shape[0])
        empty = t[k:k].clone() if cloned else t[k:k]
        return empty, t, f"a = t[{k}:{k}]{'.clone()' if cloned else ''}, b = t"

    return relation


def _in_a_row(length: int) -> Relation:
    """``torch.from_numpy(n)`` and ``torch.from_numpy(n[i, :length])``, n = t.numpy(), 0 < i: with
    length 0, a storage of no bytes that starts at row i, inside n's bytes."""

    def relation(t: torch.Tensor, draw: Draw) -> tuple[torch.Tensor, torch.Tensor, str]:
        n = t.numpy()
        i = draw.integer(1, n.shape[0] - 1)
        return (torch.from_numpy(n), torch.from_numpy(n[i, :length]),
                f"a = torch.from_numpy(n), b = torch.from_numpy(n[{i}, :{length}]), n = t.numpy()")

    return relation


ONE, TWO = (1, 3), (2, 3)  # how many dimensions t has
SHARES_CASES: dict[str, tuple[Relation, tuple[Relation, ...], tuple[int, int], bool, int]] = {
    # name: (the family's pair, more pairs of the same family that its check also runs on, among
    # them one on which the right result is the other one, t's dimensions, hidden, points). No
    # check runs a pair of another family: an answer wrong on one family loses its points only.
    "offset-view": (_made("a = t, b = t[1:]", lambda t: (t, t[1:])),
                    (_made("a = t, b = t[1:].clone()", lambda t: (t, t[1:].clone())),), ONE, False, 1),
    "siblings": (_made("a = t[0], b = t[-1]", lambda t: (t[0], t[-1])),
                 (_made("a = t[0], b = t[-1].clone()", lambda t: (t[0], t[-1].clone())),), TWO, False, 1),
    "detach": (_made("a = t (requires grad), b = t.detach()", lambda t: (t.requires_grad_(), t.detach())),
               (_made("a = t (requires grad), b = t.detach().clone()",
                      lambda t: (t.requires_grad_(), t.detach().clone())),), ONE, False, 1),
    "clone": (_made("a = t, b = t.clone()", lambda t: (t, t.clone())),
              (_made("a = t, b = t[:]", lambda t: (t, t[:])),), ONE, False, 1),
    "equal-values": (_made("a = t, b = torch.ones_like(t) * t", lambda t: (t, torch.ones_like(t) * t)),
                     (_made("a = t, b = t.view_as(t)", lambda t: (t, t.view_as(t))),), ONE, False, 1),
    "numpy-round-trip": (_made("a = t, b = torch.from_numpy(t.numpy())", lambda t: (t, torch.from_numpy(t.numpy()))),
                         (_made("a = t, b = torch.tensor(t.numpy())", lambda t: (t, torch.tensor(t.numpy()))),),
                         ONE, False, 1),
    "transpose": (_made("a = t, b = t.mT", lambda t: (t, t.mT)),
                  (_made("a = t, b = t.mT.clone()", lambda t: (t, t.mT.clone())),), TWO, False, 1),
    "advanced-index": (_made("a = t, b = t[[0, 0]]", lambda t: (t, t[[0, 0]])),
                       (_made("a = t, b = t[0]", lambda t: (t, t[0])),), ONE, True, 1),
    "numpy-copy": (_made("a = torch.from_numpy(n), b = torch.tensor(n), n = t.numpy()",
                         lambda t: (torch.from_numpy(t.numpy()), torch.tensor(t.numpy()))),
                   (_made("a = torch.from_numpy(n), b = torch.as_tensor(n), n = t.numpy()",
                          lambda t: (torch.from_numpy(t.numpy()), torch.as_tensor(t.numpy()))),), ONE, True, 1),
    "contiguous-copy": (_made("a = t.mT, b = t.mT.contiguous()", lambda t: (t.mT, t.mT.contiguous())),
                        (_made("a = t, b = t.contiguous()", lambda t: (t, t.contiguous())),), TWO, True, 1),
    # b is t's last element: past where a would end were its elements side by side, on every t.
    "strided-views": (_made("a = t[..., 1::2], b = t.flatten()[-1:]", lambda t: (t[..., 1::2], t.flatten()[-1:])),
                      (_made("a = t[..., 1::2], b = t.flatten()[-1:].clone()",
                             lambda t: (t[..., 1::2], t.flatten()[-1:].clone())),), TWO, True, 1),
    # Views of one storage whose elements lie in separate stretches of it.
    "disjoint-blocks": (_blocks(cloned=False), (_blocks(cloned=True),), ONE, True, 2),
    # Storages over parts of one array that overlap: b's starts inside a's, then a's inside b's.
    "numpy-slices": (_storages(_b_starts_inside_a), (_storages(_apart),), TWO, False, 1),
    "numpy-slices-swapped": (_storages(_a_starts_inside_b), (_storages(_apart_swapped),), TWO, True, 1),
    # Storages that meet: one ends where the other starts.
    "adjacent-storages": (_storages(_meeting(0)), (_storages(_meeting(1)),), TWO, True, 1),
    # An empty view keeps its source's storage; a storage of no bytes shares none, wherever it is.
    "empty-view": (_empty_view(cloned=False), (_empty_view(cloned=True),), ONE, True, 1),
    "empty-storage": (_in_a_row(0), (_in_a_row(1), _made("a = t.new_empty(0), b = t.new_empty(0)",
                                                         lambda t: (t.new_empty((0,)), t.new_empty((0,))))),
                      TWO, True, 2),
}

shares = exercise("views-shares-storage", "shares_storage", call=inputs_left_alone, returns="observation",
                  show=lambda inputs: inputs[2])
for _name, (_relation, _others, _dims, _hidden, _points) in SHARES_CASES.items():
    shares.case(_name, "shares_storage(a, b)", _pair(_relation, _dims), hidden=_hidden, points=_points,
                search=_pair(_relation, _dims), tries=4, anchors=tuple(_pair(other, _dims) for other in _others))


# --------------------------------------------------------------------------- views-can-view
def _layout_and_shape(make: Callable[[Draw], tuple[torch.Tensor, tuple[int, ...]]]) -> Callable[[Draw], tuple]:
    def recipe(draw: Draw) -> tuple:
        t, shape = make(draw)
        return layout_of(t), shape

    return recipe


def _split(sizes: tuple[int, ...], draw: Draw) -> tuple[int, ...]:
    """A new shape that splits one dimension of ``sizes`` in two (where one has a factor)."""
    for index in draw.rng.sample(range(len(sizes)), len(sizes)):
        factors = [f for f in range(2, sizes[index]) if sizes[index] % f == 0]
        if factors:
            f = draw.choice(factors)
            return sizes[:index] + (f, sizes[index] // f) + sizes[index + 1:]
    return sizes + (1,)


def _merge(sizes: tuple[int, ...], draw: Draw) -> tuple[int, ...]:
    """A new shape that merges two neighbouring dimensions of ``sizes``."""
    if len(sizes) < 2:
        return sizes
    index = draw.integer(0, len(sizes) - 2)
    return sizes[:index] + (sizes[index] * sizes[index + 1],) + sizes[index + 2:]


def _contiguous(draw: Draw) -> torch.Tensor:
    return torch.empty(draw.shape(draw.sized(2, 3), 2, 6))


def _transposed(draw: Draw) -> torch.Tensor:
    return torch.empty(draw.shape(draw.sized(2, 3), 2, 6)).mT


def _narrowed(draw: Draw) -> torch.Tensor:
    t = torch.empty(draw.shape(draw.sized(2, 3), 3, 6))
    return t[..., : draw.integer(1, t.shape[-1] - 1)]


def _expanded(draw: Draw) -> torch.Tensor:
    row = torch.empty(draw.shape(draw.sized(1, 2), 2, 4))
    return row.unsqueeze(0).expand(draw.integer(2, 4), *row.shape)


def _stepped(draw: Draw) -> torch.Tensor:
    t = torch.empty(draw.shape(draw.sized(2, 3), 2, 5))
    dim = draw.integer(0, t.dim() - 1)
    return torch.empty(*[s * 2 if d == dim else s for d, s in enumerate(t.shape)])[
        (slice(None),) * dim + (slice(None, None, 2),)]


def _with_size_one(transposed: bool) -> Callable[[Draw], torch.Tensor]:
    """A 2-D tensor, contiguous or transposed, with a size-1 dimension between its two whose stride
    is unrelated to theirs (never the one that would line it up with the next): whether its
    dimensions merge depends on the other two alone."""

    def make(draw: Draw) -> torch.Tensor:
        inner = torch.empty(draw.shape(2, 2, 5))
        inner = inner.mT if transposed else inner
        (rows, columns), (row_step, column_step) = inner.shape, inner.stride()
        step = draw.choice([s for s in range(1, 8) if s != column_step * columns])
        return inner.as_strided((rows, 1, columns), (row_step, step, column_step))

    return make


def _drawn(draw: Draw) -> torch.Tensor:
    t, _ = drawn_tensor(draw, draw.sized(2, 4))
    return t


def _further_in(draw: Draw) -> torch.Tensor:
    """A tensor that starts further into its storage: rows cut off the front of a larger one."""
    shape = draw.shape(draw.sized(2, 3), 2, 6)
    cut = draw.integer(1, 3)
    return torch.empty(shape[0] + cut, *shape[1:])[cut:]


def _further_in_transposed(draw: Draw) -> torch.Tensor:
    """The same, its last two dimensions transposed (a family of its own: a mistake that shows on
    one of the two shows on every run of its check)."""
    return _further_in(draw).mT


def _empty(draw: Draw) -> torch.Tensor:
    """A tensor with no elements: a drawn layout narrowed to length 0 along one dimension, or a
    fresh allocation with a size-0 dimension, its dimensions permuted."""
    if draw.pick([True, False]):
        t, _ = drawn_tensor(draw, draw.sized(2, 3))
        dim = draw.integer(0, t.dim() - 1)
        return t.narrow(dim, draw.integer(0, t.shape[dim]), 0)
    sizes = list(draw.shape(draw.sized(2, 3), 2, 5))
    sizes[draw.integer(0, len(sizes) - 1)] = 0
    order = list(range(len(sizes)))
    draw.rng.shuffle(order)
    return torch.empty(sizes).permute(order)


def _infer(shape: tuple[int, ...], draw: Draw) -> tuple[int, ...]:
    index = draw.integer(0, len(shape) - 1)
    return shape[:index] + (-1,) + shape[index + 1:]


def _target(draw: Draw, t: torch.Tensor, how: str) -> tuple[int, ...]:
    sizes = tuple(t.shape)
    if how == "split":
        return _split(sizes, draw)
    if how == "merge":
        return _merge(sizes, draw)
    if how == "flat":
        return (t.numel(),)
    if how == "infer":
        return _infer(draw.pick([_split(sizes, draw), _merge(sizes, draw)]), draw)
    if how == "two-infers":
        return _infers(draw.pick([_split(sizes, draw), _merge(sizes, draw), (t.numel(),)]), draw)
    if how == "numel":
        # One size more than t's, and one dimension more: an answer that takes a longer shape for
        # a view whatever its element count is told so on every layout.
        return sizes[:-1] + (sizes[-1] + 1, 1) if t.numel() else tuple(size or 1 for size in sizes)
    if how == "any":
        return draw.pick([_split(sizes, draw), _merge(sizes, draw), (t.numel(),), _infer(_merge(sizes, draw), draw)])
    if how == "no-elements":
        return _no_elements(sizes, draw)
    if how == "no-elements-infer":
        return _no_elements_infer(sizes, draw)
    raise ValueError(how)


def _infers(shape: tuple[int, ...], draw: Draw) -> tuple[int, ...]:
    """A shape that a view could take, with two or three -1 put in among its sizes (each could
    only stand for 1), and sometimes one of its sizes replaced by -1 too: the search's draws take
    the four kinds in turn. A check's own input (drawn without a size bound, unlike its search's)
    holds exactly two -1 put in beside every size: their product is then the element count, so an
    answer that multiplies the sizes is tested on every run."""
    own = draw.size is None
    replaced, count = (False, 2) if own else draw.pick([(False, 2), (True, 2), (False, 3), (True, 3)])
    sizes = list(_infer(shape, draw)) if replaced else list(shape)
    for _ in range(count - sizes.count(-1)):
        sizes.insert(draw.integer(0, len(sizes)), -1)
    return tuple(sizes)


def _no_elements(sizes: tuple[int, ...], draw: Draw) -> tuple[int, ...]:
    """A shape of no elements for a tensor of no elements: the tensor's split, merged or
    flattened, or another shape with a size-0 dimension."""
    other = list(draw.shape(draw.integer(1, 3), 1, 6))
    other.insert(draw.integer(0, len(other)), 0)
    return draw.pick([_split(sizes, draw), _merge(sizes, draw), (0,), tuple(other)])


def _no_elements_infer(sizes: tuple[int, ...], draw: Draw) -> tuple[int, ...]:
    """A shape of no elements with one -1: beside a size 0 (it could stand for any size, so torch
    refuses), or in place of one (it stands for 0); the search's draws take the two in turn."""
    shape = list(_no_elements(sizes, draw))
    if draw.pick([True, False]):
        shape.insert(draw.integer(0, len(shape)), -1)
    else:
        shape[draw.choice([i for i, size in enumerate(shape) if size == 0])] = -1
    return tuple(shape)


def _can_view_inputs(make: Callable[[Draw], torch.Tensor], how: str) -> Callable[[Draw], tuple]:
    return _layout_and_shape(lambda draw: (lambda t: (t, _target(draw, t, how)))(make(draw)))


def _show_layout(inputs: tuple) -> str:
    layout, shape = inputs
    return f"t with shape {layout.shape}, stride {layout.stride()} and target shape {shape}"


CAN_VIEW_CASES: dict[str, tuple[str, Callable[[Draw], torch.Tensor], str, bool, int]] = {
    # name: (what the case draws, tensor family, target shape, hidden, points)
    "contiguous-split": ("can_view(t, shape), t contiguous, shape splits a dimension", _contiguous, "split", False, 1),
    "contiguous-flat": ("can_view(t, (t.numel(),)), t contiguous", _contiguous, "flat", False, 1),
    "transpose-merge": ("can_view(t.mT, shape), shape merges two dimensions", _transposed, "merge", False, 1),
    "transpose-split": ("can_view(t.mT, shape), shape splits a dimension", _transposed, "split", False, 1),
    "narrow-split": ("can_view(t[..., :k], shape), shape splits a dimension", _narrowed, "split", False, 1),
    "narrow-flat": ("can_view(t[..., :k], (t.numel(),))", _narrowed, "flat", False, 1),
    "wrong-numel": ("can_view(t, shape), shape with another element count", _contiguous, "numel", False, 1),
    "infer": ("can_view(t, shape), shape with one -1", _contiguous, "infer", False, 1),
    "expanded-split": ("can_view(expanded, shape), shape splits a dimension", _expanded, "split", True, 1),
    "expanded-flat": ("can_view(expanded, (numel,))", _expanded, "flat", True, 1),
    "size-one": ("can_view(t, shape), t with a dimension of size 1 between two in order", _with_size_one(False),
                 "flat", True, 1),
    "size-one-transposed": ("can_view(t, shape), t with a dimension of size 1 between two transposed",
                            _with_size_one(True), "flat", True, 1),
    "stepped-split": ("can_view(t[::2], shape), shape splits a dimension", _stepped, "split", True, 1),
    "stepped-merge": ("can_view(t[::2], shape), shape merges two dimensions", _stepped, "merge", True, 1),
    "infer-transpose": ("can_view(t.mT, shape), shape with one -1", _transposed, "infer", True, 1),
    "two-infers": ("can_view(t, shape), shape with more than one -1", _contiguous, "two-infers", True, 1),
    "drawn-layouts": ("can_view(t, shape) on a drawn permuted, sliced layout", _drawn, "any", True, 2),
    "offset": ("can_view(t, shape), t starting further into its storage", _further_in, "any", True, 1),
    "offset-transposed": ("can_view(t, shape), t starting further into its storage, transposed",
                          _further_in_transposed, "any", True, 1),
    "no-elements": ("can_view(t, shape), t with a size-0 dimension, shape of no elements", _empty, "no-elements",
                    True, 1),
    "no-elements-infer": ("can_view(t, shape), t with a size-0 dimension, shape with one -1", _empty,
                          "no-elements-infer", True, 1),
}

# Every check also runs on a target that splits one dimension (always a legal view) and on one
# with another element count (never one), on the same family of tensors.
can_view = exercise("views-can-view", "can_view", returns="bool", bare=True, show=_show_layout)
for _name, (_probe, _family, _how, _hidden, _points) in CAN_VIEW_CASES.items():
    can_view.case(_name, "can_view(t, shape)", _can_view_inputs(_family, _how), hidden=_hidden, points=_points,
                  search=_can_view_inputs(_family, _how), tries=6,
                  anchors=(_can_view_inputs(_family, "split"), _can_view_inputs(_family, "numel")))


# --------------------------------------------------------------------------- views-selftest
SELFTEST_QUESTIONS = {
    "q1": ("t = torch.zeros(3, 5): what is t.T.stride()?", "int-tuple"),
    "q2": ("b = torch.arange(32.).view(4, 8)[1:]: what is b.storage_offset()?", "int"),
    "q3": ("Does torch.arange(32.).view(4, 8).T.contiguous() share storage with its source?", "bool"),
    "q4": ("How many storage slots does torch.zeros(4).expand(3, 4) read?", "int"),
    "q5": ("x = torch.arange(12.).view(3, 4)[:, 1:3]: does x.view(6) succeed?", "bool"),
    "q6": ("t = torch.zeros(4, 4); b = t.view(2, 8); b[1][2] = 3.14: which index (i, j) of t now holds 3.14?",
           "int-tuple"),
    "q7": ("e = torch.arange(3.).unsqueeze(1).expand(3, 4): how many storage slots does e.contiguous() read?",
           "int"),
}
selftest("views-selftest", SELFTEST_QUESTIONS)

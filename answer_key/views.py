"""The key of Chapter 1, "Views, strides and storage".

Every expected value is read off torch: strides of real tensors, view-or-copy by writing
through the result, ``view``'s legality by trying it. The models reproduce the mistakes the
chapter's catalogue holds, each as an answer that makes it.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from answer_key.keys import Model, key
from autograder.chapters.views import CLASSIFY_OPERATIONS, MORE_EXPRESSIONS
from autograder.engine.bare import Layout
from autograder.engine.layouts import as_tensor


def base() -> torch.Tensor:
    """The exercises' tensor: ``torch.arange(32.).view(4, 8)``."""
    return torch.arange(32.0).view(4, 8)


def share_memory(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Whether two tensors' storages cover overlapping bytes of memory: what decides whether a
    write through one can show through the other."""
    sa, sb = a.untyped_storage(), b.untyped_storage()
    if sa.nbytes() == 0 or sb.nbytes() == 0:
        return False
    return sa.data_ptr() < sb.data_ptr() + sb.nbytes() and sb.data_ptr() < sa.data_ptr() + sa.nbytes()


# --------------------------------------------------------------------------- views-strides
EXPRESSIONS = {
    "contiguous": lambda t: t,
    "transpose": lambda t: t.T,
    "every_other_column": lambda t: t[:, ::2],
    "row_block": lambda t: t[1:3],
    "expanded": lambda t: t.unsqueeze(0).expand(3, 4, 8),
}


def _strides() -> dict[str, tuple[int, ...]]:
    return {k: make(base()).stride() for k, make in EXPRESSIONS.items()}


key("views-strides", _strides, values=True, models=[
    Model("shape", lambda: {k: tuple(make(base()).shape) for k, make in EXPRESSIONS.items()},
          "a tensor's strides were its sizes."),
    Model("transpose-relaid", {"transpose": (4, 1)}, "the transpose wrote the data out anew in its new order."),
    Model("transpose-unswapped", {"transpose": (8, 1)}, "a transpose left the strides as they were."),
    Model("step-packed", {"every_other_column": (4, 1)}, "the stepped slice was packed into new memory."),
    Model("step-ignored", {"every_other_column": (8, 1)}, "slicing with a step left the strides as they were."),
    Model("expand-writes-copies", {"expanded": (32, 8, 1)},
          "the three copies of t sat one after the other in memory."),
])

# --------------------------------------------------------------------------- views-classify
#: The layouts an operation of CLASSIFY is tried on: contiguous, transposed, a stepped slice, and
#: rows expanded from one (stride 0).
LAYOUTS = (lambda: base(), lambda: base().T, lambda: base()[:, ::2], lambda: base()[:1].expand(4, 8))


def writes_through(source: torch.Tensor, result: torch.Tensor) -> bool:
    """Does a write into one element of ``result`` show in ``source``? (``source`` is spent.)"""
    before = source.clone()
    with torch.no_grad():
        result[(0,) * result.dim()] = -12345.0
    return not torch.equal(before, source)


def classify_by_probe(key_: str) -> str:
    """One operation of CLASSIFY tried on every layout: a "view" when a write through every result
    reaches its source, a "copy" when none does, else "ambiguous"."""
    reached = []
    for make in LAYOUTS:
        source = make()
        result = eval(CLASSIFY_OPERATIONS[key_], {"torch": torch, "t": source})  # noqa: S307 - the course's calls
        reached.append(writes_through(source, result))
    return "view" if all(reached) else "copy" if not any(reached) else "ambiguous"


key("views-classify", lambda: {k: classify_by_probe(k) for k in CLASSIFY_OPERATIONS}, values=True, models=[
    Model("never-copies", dict.fromkeys(CLASSIFY_OPERATIONS, "view"), "no operation ever copied."),
    Model("shape-ops-copy", {"unflatten": "copy", "broadcast_to": "copy", "atleast_3d": "copy"},
          "an operation that gives the elements another shape had to move them."),
    Model("repeat-views", {"repeat": "view"},
          "repeat, asked to repeat nothing, gave back its input's memory, as expand does."),
    Model("diag-views", {"diag": "view"}, "torch.diag(t) returned a view of t's diagonal, as t.diagonal() does."),
    Model("flip-views", {"flip": "view"}, "flip returned a view with a negative stride, as NumPy's flip does."),
    Model("index-select-views", {"index_select": "view"},
          "selecting rows by a tensor of indices returned a view, as a slice of those rows does."),
    Model("reshape-family-views", {"ravel": "view", "reshape_as": "view"},
          "ravel and reshape_as always returned a view of their input."),
    Model("reshape-family-copies", {"ravel": "copy", "reshape_as": "copy"},
          "ravel and reshape_as always allocated new memory."),
    Model("is-view-flag", {"ravel": "view", "view_dtype": "copy"},
          "autograd's _is_view() told whether a result shares its input's storage."),
    Model("dtype-view-copies", {"view_dtype": "copy"},
          "reading the same bytes as another dtype needed new memory for the converted values."),
])


# --------------------------------------------------------------------------- views-classify-more
def more_sources() -> dict[str, torch.Tensor]:
    return {"x": torch.arange(20.0).view(4, 5), "y": torch.arange(60.0).view(3, 4, 5)}


def classify_expression(expression: str) -> str:
    """"error" when torch raises, "view" when a write through the result reaches ``x`` or ``y``,
    else "copy" (each expression is the module's own)."""
    sources = more_sources()
    try:
        result = eval(expression, {"torch": torch, **sources})  # noqa: S307 - the course's expressions
    except RuntimeError:
        return "error"
    return "view" if any(share_memory(result, s) for s in sources.values()) else "copy"


#: The expressions of MORE_EXPRESSIONS by what a common mistake says of them.
FLATTEN_VIEWS = ("x[1:].flatten()", "x.unsqueeze(0).expand(3, 4, 5).flatten(1)", "y[:, :, ::2].flatten(0, 1)",
                 "y[:, :, :2].flatten(0, 1)")
FLATTEN_COPIES = ("x[:, 1:].flatten()", "x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)", "y[:, ::2].flatten(1)",
                  "y.transpose(0, 1).flatten(1)", "y.mT.flatten(0, 1)", "y[:, 1].flatten()")
VIEW_ERRORS = ("x.unsqueeze(1).expand(4, 3, 5).view(12, 5)", "y[:, 1:3].view(6, 5)")
STRIDE_ZERO_MERGES = ("x.unsqueeze(0).expand(3, 4, 5).flatten(0, 1)", "x.unsqueeze(1).expand(4, 3, 5).view(12, 5)")
NON_CONTIGUOUS_VIEWS = {"x.unsqueeze(0).expand(3, 4, 5).flatten(1)": "copy", "y[:, :, ::2].flatten(0, 1)": "copy",
                        "y[:, :, :2].flatten(0, 1)": "copy", "x.T.view(5, 2, 2)": "error",
                        "y[:, :, 1].view(12)": "error"}

key("views-classify-more", lambda: {e: classify_expression(e) for e in MORE_EXPRESSIONS}, values=True, models=[
    Model("flatten-always-copies", dict.fromkeys(FLATTEN_VIEWS, "copy"), "flatten always allocated new memory."),
    Model("flatten-always-views", dict.fromkeys(FLATTEN_COPIES, "view"),
          "flatten always returned a view, whatever the layout."),
    Model("flatten-refuses", dict.fromkeys(FLATTEN_COPIES, "error"), "flatten refused the layouts that view refuses."),
    Model("view-copies", dict.fromkeys(VIEW_ERRORS, "copy"), "view copied where the layout did not allow a view."),
    Model("stride-zero-merges", dict.fromkeys(STRIDE_ZERO_MERGES, "view"),
          "a dimension of stride 0 (an expanded one) merged with its neighbour into one stride, as any other does."),
    Model("non-contiguous-copies", NON_CONTIGUOUS_VIEWS,
          "a tensor that is not contiguous could take no other shape without a copy (flatten) or an error (view)."),
])


# --------------------------------------------------------------------------- views-shares-storage
def _byte_spans(a: torch.Tensor, b: torch.Tensor) -> tuple[int, int, int, int]:
    sa, sb = a.untyped_storage(), b.untyped_storage()
    return sa.data_ptr(), sa.data_ptr() + sa.nbytes(), sb.data_ptr(), sb.data_ptr() + sb.nbytes()


def _no_empty_guard(a: torch.Tensor, b: torch.Tensor) -> bool:
    a_start, a_end, b_start, b_end = _byte_spans(a, b)
    return a_start < b_end and b_start < a_end


def _one_sided(a: torch.Tensor, b: torch.Tensor) -> bool:
    a_start, a_end, b_start, _b_end = _byte_spans(a, b)
    return a_start < a_end and _b_end > b_start and a_start <= b_start < a_end


def _touching_ends(a: torch.Tensor, b: torch.Tensor) -> bool:
    a_start, a_end, b_start, b_end = _byte_spans(a, b)
    return a_start < a_end and b_start < b_end and a_start <= b_end and b_start <= a_end


def _start_from_first_element(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Each storage's start worked out from the first element's address and the offset."""
    spans = []
    for t in (a, b):
        start = t.data_ptr() - t.storage_offset() * t.element_size()
        spans.append((start, start + t.untyped_storage().nbytes()))
    (a_start, a_end), (b_start, b_end) = spans
    return a_start < a_end and b_start < b_end and a_start < b_end and b_start < a_end


def _element_extents(a: torch.Tensor, b: torch.Tensor) -> bool:
    """The bytes from each tensor's first element, as many as its elements fill, compared."""
    a_start, b_start = a.data_ptr(), b.data_ptr()
    a_end, b_end = a_start + a.numel() * a.element_size(), b_start + b.numel() * b.element_size()
    return a.numel() > 0 and b.numel() > 0 and a_start < b_end and b_start < a_end


key("views-shares-storage", share_memory, models=[
    Model("first-element", lambda a, b: a.data_ptr() == b.data_ptr(),
          "two tensors shared memory exactly when their first elements sat at the same address."),
    Model("storage-start", lambda a, b: a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr(),
          "two tensors shared memory exactly when their storages started at the same address."),
    Model("base-only", lambda a, b: a is b or a._base is b or b._base is a
          or (a._base is not None and a._base is b._base),
          "only a view and the tensor it was taken from (or two views of one tensor) shared memory."),
    Model("equal-values", lambda a, b: a.shape == b.shape and bool(torch.equal(a.detach(), b.detach())),
          "equal values meant shared memory."),
    Model("element-extents", _element_extents,
          "two tensors shared memory only when the stretches of memory their own elements fill overlapped."),
    Model("one-sided", _one_sided, "two storages overlapped only when the second began inside the first."),
    Model("touching-ends", _touching_ends, "two storages that meet, one ending where the other begins, shared a byte."),
    Model("empty-storage-overlaps", _no_empty_guard,
          "a storage of no bytes overlapped a storage whose bytes its address lay among."),
    Model("empty-tensor-address", _start_from_first_element,
          "a tensor with no elements still gave the address of its place in its storage."),
])


# --------------------------------------------------------------------------- views-can-view
def view_succeeds(t: Layout, shape: tuple[int, ...]) -> bool:
    """Does ``t.view(shape)`` succeed on a tensor with this layout? Tries it."""
    try:
        as_tensor(t).view(shape)
    except RuntimeError:
        return False
    return True


def _resolved(t: Layout, shape: tuple[int, ...]) -> list[int] | None:
    """``shape`` with its -1 worked out, or None when no shape of t's element count fits."""
    sizes = list(shape)
    if sizes.count(-1) > 1:
        return None
    if -1 in sizes:
        known = math.prod(s for s in sizes if s != -1)
        if known == 0 or t.numel() % known:
            return None
        sizes[sizes.index(-1)] = t.numel() // known
    return sizes if math.prod(sizes) == t.numel() else None


def _contiguous_only(t: Layout, shape: tuple[int, ...]) -> bool:
    return _resolved(t, shape) is not None and t.is_contiguous()


def _count_only(t: Layout, shape: tuple[int, ...]) -> bool:
    return _resolved(t, shape) is not None


def _literal_minus_one(t: Layout, shape: tuple[int, ...]) -> bool:
    return math.prod(shape) == t.numel() and view_succeeds(t, shape)


def _grouped_view(t: Layout, shape: tuple[int, ...], joins) -> bool:
    """A view rule that groups neighbouring dimensions when ``joins(dim)`` says dimension ``dim``
    joins the group of ``dim + 1``, and then fits the new shape's sizes to the groups in order."""
    sizes = _resolved(t, shape)
    if sizes is None:
        return False
    if t.numel() == 0:
        return True
    groups, run = [], [len(t.shape) - 1] if t.shape else []
    for dim in range(len(t.shape) - 2, -1, -1):
        if joins(dim):
            run.append(dim)
        else:
            groups.append(run)
            run = [dim]
    groups.append(run)
    position = 0
    for count in (math.prod(t.shape[d] for d in group) for group in reversed(groups) if group):
        made = 1
        while made < count and position < len(sizes):
            made *= sizes[position]
            position += 1
        if made != count:
            return False
    return all(s == 1 for s in sizes[position:])


def _size_one_blocks(t: Layout, shape: tuple[int, ...]) -> bool:
    """The rule, with size-1 dimensions treated like any other when dimensions are grouped."""
    return _grouped_view(t, shape, lambda d: t.stride(d) == t.stride(d + 1) * t.shape[d + 1])


def _size_one_glues(t: Layout, shape: tuple[int, ...]) -> bool:
    """The rule, with a dimension of size 1 joining both its neighbours' group whatever the strides."""
    return _grouped_view(t, shape, lambda d: t.shape[d] == 1 or t.shape[d + 1] == 1
                         or t.stride(d) == t.stride(d + 1) * t.shape[d + 1])


def _no_elements_refused(t: Layout, shape: tuple[int, ...]) -> bool:
    return t.numel() != 0 and view_succeeds(t, shape)


def _every_minus_one_filled(t: Layout, shape: tuple[int, ...]) -> bool:
    """Each -1 filled in with the element count over the product of the other sizes."""
    known = math.prod(s for s in shape if s != -1)
    if -1 in shape and (known == 0 or t.numel() % known):
        return False
    return view_succeeds(t, tuple(t.numel() // known if s == -1 else s for s in shape))


key("views-can-view", view_succeeds, models=[
    Model("contiguous-only", _contiguous_only, "only a contiguous tensor could be viewed."),
    Model("count-only", _count_only, "any shape with the same number of elements could be viewed."),
    Model("minus-one-literal", _literal_minus_one, "-1 in the new shape were an ordinary size, never inferred."),
    Model("every-minus-one-filled", _every_minus_one_filled,
          "each -1 in the new shape could be filled in, however many there were."),
    Model("no-elements-refused", _no_elements_refused, "a tensor with no elements could never be viewed."),
    Model("size-one-blocks", _size_one_blocks,
          "a dimension of size 1 had to line up in memory with its neighbours like any other."),
    Model("size-one-glues", _size_one_glues,
          "a dimension of size 1 joined the dimensions on both its sides, whatever their strides."),
])


# --------------------------------------------------------------------------- views-selftest
def _written_through_view() -> tuple[int, ...]:
    t = torch.zeros(4, 4)
    b = t.view(2, 8)
    b[1][2] = 3.14
    return tuple(int(i) for i in (t == b[1][2]).nonzero()[0])


def _view_succeeds(t: torch.Tensor, shape: tuple[int, ...]) -> bool:
    try:
        t.view(shape)
    except RuntimeError:
        return False
    return True


def _selftest() -> dict[str, Any]:
    t = torch.zeros(3, 5)
    ex = torch.zeros(4).expand(3, 4)
    running = base()
    return {
        "q1": t.T.stride(),
        "q2": torch.arange(32.0).view(4, 8)[1:].storage_offset(),
        "q3": share_memory(running, running.T.contiguous()),
        "q4": ex.untyped_storage().nbytes() // ex.element_size(),
        "q5": _view_succeeds(torch.arange(12.0).view(3, 4)[:, 1:3], (6,)),
        "q6": _written_through_view(),
        "q7": (lambda c: c.untyped_storage().nbytes() // c.element_size())(
            torch.arange(3.0).unsqueeze(1).expand(3, 4).contiguous()),
    }


key("views-selftest", _selftest, values=True, models=[
    Model("shape-for-stride", {"q1": (3, 5)}, "the stride were the shape."),
    Model("unswapped", {"q1": (5, 1)}, "a transpose left the strides as they were."),
    Model("offset-in-rows", {"q2": 1}, "the offset were counted in rows."),
    Model("contiguous-shares", {"q3": True}, "contiguous() on a non-contiguous tensor returned a view."),
    Model("expand-copies", {"q4": 12}, "expand wrote its repeated rows out into new slots."),
    Model("columns-merge", {"q5": True},
          "two neighbouring columns cut out of each row still followed each other in memory."),
    Model("row-major-8", {"q6": (1, 2)}, "b[1][2] were read with t's own row length."),
    Model("contiguous-keeps-expand", {"q7": 3}, "contiguous() kept the expanded tensor's stride-0 reading."),
])

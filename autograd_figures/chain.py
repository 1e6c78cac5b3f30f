"""A tiny language for chains of view operations, spelled like the Python a learner would type.

One op is one step of a chain such as ``t.T[:, ::2].view(16)``: ``T``, ``transpose(0, 1)``,
``permute(2, 0, 1)``, basic indexing ``[1:3]`` / ``[:, ::2]`` / ``[0]`` / ``[..., None]``,
``expand(3, 4, 8)``, ``unsqueeze(0)``, ``view(2, 16)``, ``narrow(1, 2, 3)``, ``select(0, 1)``,
one piece of ``unbind(0)[1]`` / ``split(3, 1)[0]`` / ``split((1, 3), 0)[1]`` / ``chunk(2, 1)[1]``,
``diagonal()`` / ``diagonal(1, 0, 1)``, ``unfold(1, 3, 2)``, ``squeeze()`` / ``squeeze(0)``,
``movedim(0, -1)``, ``flatten()`` / ``flatten(0, 1)`` (only where it is a view) or
``as_strided((2, 2), (1, 2), 1)``; a leading ``t`` or ``.`` is optional.
Text is read with :mod:`ast` (never evaluated), so only integer literals are accepted.
The same op can be applied to a :class:`~autograd_figures.layout.Layout` (pure maths) or to a real
tensor, which is how the tests check the maths against torch.

Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Iterable
from dataclasses import dataclass
from types import EllipsisType

import torch

from autograd_figures.layout import Layout, ViewError, _wrap_dim, explain_view

__all__ = ["EXAMPLES", "Op", "apply_chain", "parse_op", "parse_shape", "torch_chain"]

IndexItem = int | slice | None | EllipsisType
Arg = int | tuple[int, ...]

# Method name -> (fewest, most) arguments; None means any number.
_CALLS: dict[str, tuple[int, int | None]] = {
    "transpose": (2, 2),
    "permute": (1, None),
    "expand": (1, None),
    "unsqueeze": (1, 1),
    "view": (1, None),
    "narrow": (3, 3),
    "select": (2, 2),
    "unbind": (0, 1),
    "split": (1, 2),
    "chunk": (1, 2),
    "diagonal": (0, 3),
    "unfold": (3, 3),
    "squeeze": (0, None),
    "movedim": (2, 2),
    "flatten": (0, 2),
    "as_strided": (2, 3),
}
# These accept their sizes either spread out or as one tuple, like the torch methods.
_SEQUENCE_CALLS = {"permute", "expand", "view", "squeeze"}
# Arguments that may be a tuple of integers: (method, position).
_TUPLE_ARGS = {("split", 0), ("movedim", 0), ("movedim", 1), ("as_strided", 0), ("as_strided", 1)}
# Arguments that must be a tuple of integers.
_TUPLE_ONLY = {("as_strided", 0), ("as_strided", 1)}
# These return a tuple of views: the chain takes one piece, as in ``split(2, 1)[0]``.
_PIECE_CALLS = {"unbind", "split", "chunk"}

EXAMPLES = (
    "T, transpose(0, 1), permute(1, 0), [1:3], [:, ::2], [0], expand(3, 4, 8), unsqueeze(0), view(2, 16), "
    "narrow(1, 2, 3), select(0, 1), unbind(0)[1], split(3, 1)[0], chunk(2, 1)[1], diagonal(), "
    "unfold(1, 3, 2), squeeze(), movedim(0, -1), flatten(), as_strided((2, 2), (1, 2), 1)"
)


@dataclass(frozen=True)
class Op:
    """One parsed step of a view chain.

    Attributes:
        kind: ``"T"``, ``"index"``, or the method name (``"transpose"``, ``"view"``,
            ``"split"`` ...).
        args: Arguments of a method (integers, or tuples of integers where the method takes
            one), or the index items (ints, slices, ``None``, ``...``) of an ``"index"`` op.
        text: The text the op was parsed from.
        piece: For ``unbind``, ``split`` and ``chunk``, which of the returned views is kept.
    """

    kind: str
    args: tuple[IndexItem | Arg, ...]
    text: str
    piece: int | None = None

    @property
    def code(self) -> str:
        """The op as the Python suffix that applies it to a tensor ``t``, e.g. ``.view(2, 16)``."""
        if self.kind == "T":
            return ".T"
        if self.kind == "index":
            return "[" + ", ".join(_format_item(item) for item in self.args) + "]"
        piece = "" if self.piece is None else f"[{self.piece}]"
        return f".{self.kind}({', '.join(_format_arg(a) for a in self.args)}){piece}"

    def apply(self, layout: Layout, storage_size: int | None = None) -> Layout:
        """Apply the op to a layout with the maths of :mod:`autograd_figures.layout` and of this module.

        Args:
            layout: The layout the op reads.
            storage_size: Slots in the storage, for ``as_strided``'s bounds check (None: unchecked).

        Raises:
            ValueError: If the op does not fit the layout (bad dim, index out of range ...).
            ViewError: For a ``view`` (or ``flatten``) that torch could not do without a copy.
        """
        if self.kind == "T":
            _check_matrix(layout.ndim)
            return layout.transpose(0, 1)
        if self.kind == "index":
            return _index(layout, self.args)
        if self.kind in _LAYOUT_OPS:
            return _LAYOUT_OPS[self.kind](layout, *self.args, piece=self.piece, storage_size=storage_size)
        return getattr(layout, self.kind)(*self.args)

    def apply_torch(self, tensor: torch.Tensor) -> torch.Tensor:
        """Apply the op to a real tensor, exactly as the Python in :attr:`code` would."""
        if self.kind == "T":
            _check_matrix(tensor.dim())
            return tensor.T
        if self.kind == "index":
            return tensor[self.args]
        result = getattr(tensor, self.kind)(*self.args)
        return result if self.piece is None else result[self.piece]


def _check_matrix(ndim: int) -> None:
    # Torch deprecates .T on anything but matrices, so the chain language refuses it too.
    if ndim != 2:
        raise ValueError(f"T needs a 2-D tensor but this one has {ndim} dims; use permute(...) instead")


def _format_arg(arg: Arg) -> str:
    if isinstance(arg, tuple):
        return "(" + ", ".join(map(str, arg)) + ("," if len(arg) == 1 else "") + ")"
    return str(arg)


def _narrow(layout: Layout, dim: int, start: int, length: int, **_: object) -> Layout:
    """``narrow(dim, start, length)``: ``length`` indices from ``start`` (ATen's narrow)."""
    d = _wrap_dim(dim, layout.ndim)
    size = layout.shape[d]
    if not -size <= start <= size:
        raise ValueError(f"narrow: start {start} is out of range for dim {d} of size {size}")
    start = start + size if start < 0 else start
    if length < 0 or start + length > size:
        raise ValueError(f"narrow: start {start} + length {length} exceeds dim {d} of size {size}")
    return layout.slice(d, start, start + length)


def _select(layout: Layout, dim: int, index: int, **_: object) -> Layout:
    return layout.select(dim, index)


def _piece(pieces: list[tuple[int, int]], piece: int | None, what: str) -> tuple[int, int]:
    """The (start, length) of the chosen piece, indexed like the tuple torch returns."""
    if piece is None:
        raise ValueError(f"{what} returns a tuple of views: pick one, e.g. {what}[0]")
    if not -len(pieces) <= piece < len(pieces):
        raise ValueError(f"{what} gives {len(pieces)} piece(s), so [{piece}] is out of range")
    return pieces[piece]


def _unbind(layout: Layout, dim: int = 0, *, piece: int | None = None, **_: object) -> Layout:
    """One view of ``unbind(dim)``: ``select(dim, piece)``."""
    d = _wrap_dim(dim, layout.ndim)
    index = _piece([(k, 1) for k in range(layout.shape[d])], piece, f"unbind({dim})")[0]
    return layout.select(d, index)


def _split_pieces(size: int, split: Arg, what: str) -> list[tuple[int, int]]:
    if isinstance(split, tuple):
        if any(n < 0 for n in split) or sum(split) != size:
            raise ValueError(f"{what}: split sizes {split} must be non-negative and add up to the dim's {size}")
        starts = [sum(split[:k]) for k in range(len(split))]
        return list(zip(starts, split, strict=True))
    if split < 0 or (split == 0 and size != 0):
        raise ValueError(f"{what}: split size must be positive, got {split}")
    # As ATen's split: ceil(size / split) pieces (one when the dim is empty), the last one shorter.
    count = max(-(-size // split), 1) if split else 1
    return [(k * split, min(split, size - k * split)) for k in range(count)]


def _split(layout: Layout, split: Arg, dim: int = 0, *, piece: int | None = None, **_: object) -> Layout:
    """One view of ``split(split_size_or_sizes, dim)``: a ``narrow`` of that dim."""
    d = _wrap_dim(dim, layout.ndim)
    what = f"split({_format_arg(split)}, {dim})"
    start, length = _piece(_split_pieces(layout.shape[d], split, what), piece, what)
    return layout.slice(d, start, start + length)


def _chunk(layout: Layout, chunks: int, dim: int = 0, *, piece: int | None = None, **_: object) -> Layout:
    """One view of ``chunk(chunks, dim)``: a split into pieces of ``ceil(size / chunks)``."""
    if chunks <= 0:
        raise ValueError(f"chunk expects a positive number of chunks, got {chunks}")
    d = _wrap_dim(dim, layout.ndim)
    size = layout.shape[d]
    what = f"chunk({chunks}, {dim})"
    # An empty dim still gives ``chunks`` empty pieces (ATen splits it with sizes, not a size).
    pieces = [(0, 0)] * chunks if size == 0 else _split_pieces(size, -(-size // chunks), what)
    start, length = _piece(pieces, piece, what)
    return layout.slice(d, start, start + length)


def _diagonal(layout: Layout, offset: int = 0, dim1: int = 0, dim2: int = 1, **_: object) -> Layout:
    """``diagonal(offset, dim1, dim2)`` as ATen's diagonal: both dims become one, last."""
    a, b = _wrap_dim(dim1, layout.ndim), _wrap_dim(dim2, layout.ndim)
    if a == b:
        raise ValueError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    if offset >= 0:
        size = max(min(layout.shape[a], layout.shape[b] - offset), 0)
        start = offset * layout.stride[b]
    else:
        size = max(min(layout.shape[a] + offset, layout.shape[b]), 0)
        start = -offset * layout.stride[a]
    keep = [d for d in range(layout.ndim) if d not in (a, b)]
    return Layout(
        tuple(layout.shape[d] for d in keep) + (size,),
        tuple(layout.stride[d] for d in keep) + (layout.stride[a] + layout.stride[b],),
        # An empty diagonal keeps the offset, as ATen does.
        layout.offset + (start if size else 0),
    )


def _unfold(layout: Layout, dim: int, size: int, step: int, **_: object) -> Layout:
    """``unfold(dim, size, step)``: windows of ``size`` every ``step`` along ``dim``, in a new last dim."""
    if layout.ndim == 0:
        # A 0-d tensor unfolds as if it had one dim of size 1 (ATen's unfold).
        _wrap_dim(dim, 1)
        if not 0 <= size <= 1 or step <= 0:
            raise ValueError(f"unfold: a 0-d tensor takes size 0 or 1 and a positive step, got {size}, {step}")
        return Layout((size,), (1,), layout.offset)
    d = _wrap_dim(dim, layout.ndim)
    if not 0 <= size <= layout.shape[d]:
        raise ValueError(f"unfold: size {size} is not in 0..{layout.shape[d]} (the size of dim {d})")
    if step <= 0:
        raise ValueError(f"unfold: step must be positive, got {step}")
    shape, stride = list(layout.shape), list(layout.stride)
    shape[d] = (layout.shape[d] - size) // step + 1
    stride[d] = layout.stride[d] * step
    return Layout(tuple(shape) + (size,), tuple(stride) + (layout.stride[d],), layout.offset)


def _squeeze(layout: Layout, *dims: int, **_: object) -> Layout:
    """``squeeze()`` drops every size-1 dim; ``squeeze(d, ...)`` only those of ``d, ...`` of size 1."""
    wrapped = [_wrap_dim(d, max(layout.ndim, 1)) for d in dims]
    if len(set(wrapped)) != len(wrapped):
        raise ValueError(f"squeeze: a dim appears more than once in {dims}")
    chosen = set(wrapped) if dims else set(range(layout.ndim))
    keep = [d for d in range(layout.ndim) if not (d in chosen and layout.shape[d] == 1)]
    return Layout(tuple(layout.shape[d] for d in keep), tuple(layout.stride[d] for d in keep), layout.offset)


def _movedim(layout: Layout, source: Arg, destination: Arg, **_: object) -> Layout:
    """``movedim(source, destination)``: the dims moved, the others in their order (a permute)."""
    sources = source if isinstance(source, tuple) else (source,)
    targets = destination if isinstance(destination, tuple) else (destination,)
    if len(sources) != len(targets):
        raise ValueError(f"movedim: {len(sources)} source dims but {len(targets)} destination dims")
    # A 0-d tensor takes dim 0 (or -1), as torch wraps dims of scalars.
    sources = tuple(_wrap_dim(d, max(layout.ndim, 1)) for d in sources)
    targets = tuple(_wrap_dim(d, max(layout.ndim, 1)) for d in targets)
    if len(set(sources)) != len(sources) or len(set(targets)) != len(targets):
        raise ValueError("movedim: repeated dim in source or destination")
    if layout.ndim == 0:
        return layout
    order: list[int | None] = [None] * layout.ndim
    for s, t in zip(sources, targets, strict=True):
        order[t] = s
    rest = iter(d for d in range(layout.ndim) if d not in sources)
    return layout.permute(*(next(rest) if d is None else d for d in order))


def _flatten(layout: Layout, start_dim: int = 0, end_dim: int = -1, **_: object) -> Layout:
    """``flatten(start_dim, end_dim)`` where torch returns a view; where it would copy, refuse."""
    if layout.ndim == 0:
        return Layout((1,), (1,), layout.offset)
    a, b = _wrap_dim(start_dim, layout.ndim), _wrap_dim(end_dim, layout.ndim)
    if a > b:
        raise ValueError("flatten() has invalid args: start_dim cannot come after end_dim")
    if a == b:
        return layout
    shape = layout.shape[:a] + (math.prod(layout.shape[a : b + 1]),) + layout.shape[b + 1 :]
    verdict = explain_view(layout, shape)
    if not verdict.legal:
        raise ViewError(
            f"flatten({start_dim}, {end_dim}) copies here (it reshapes, and view{shape} is illegal: "
            f"{verdict.reason}); the explorer shows views only"
        )
    return Layout(shape, verdict.stride, layout.offset)


def _as_strided(
    layout: Layout, size: Arg, stride: Arg, storage_offset: int | None = None, *, storage_size: int | None = None,
    **_: object,
) -> Layout:
    """``as_strided(size, stride, storage_offset)``: any layout on the same storage, within its bounds."""
    if len(size) != len(stride):
        raise ValueError(f"as_strided: mismatch in length of strides and shape ({len(stride)} and {len(size)})")
    if any(n < 0 for n in size):
        raise ValueError(f"as_strided: sizes must be non-negative, got {size}")
    if any(s < 0 for s in stride):
        raise ValueError("as_strided: negative strides are not supported")
    offset = layout.offset if storage_offset is None else storage_offset
    if offset < 0:
        raise ValueError(f"as_strided: storage offset must be non-negative, got {offset}")
    result = Layout(size, stride, offset)
    needed = offset + sum((n - 1) * s for n, s in zip(size, stride, strict=True)) + 1 if result.numel else 0
    if storage_size is not None and needed > storage_size:
        raise ValueError(
            f"as_strided: size {size}, stride {stride} and offset {offset} need {needed} storage slots, "
            f"but the storage has {storage_size}"
        )
    return result


_LAYOUT_OPS = {
    "narrow": _narrow,
    "select": _select,
    "unbind": _unbind,
    "split": _split,
    "chunk": _chunk,
    "diagonal": _diagonal,
    "unfold": _unfold,
    "squeeze": _squeeze,
    "movedim": _movedim,
    "flatten": _flatten,
    "as_strided": _as_strided,
}


def _format_item(item: IndexItem) -> str:
    if item is Ellipsis:
        return "..."
    if isinstance(item, slice):
        text = ("" if item.start is None else str(item.start)) + ":"
        text += "" if item.stop is None else str(item.stop)
        return text + ("" if item.step is None else f":{item.step}")
    return str(item)


def _index(layout: Layout, items: tuple[IndexItem, ...]) -> Layout:
    """Basic indexing, processed left to right as torch's ``applySlicing`` does."""
    if sum(item is Ellipsis for item in items) > 1:
        raise ValueError("an index can only have a single ellipsis ('...')")
    ndim = layout.ndim
    consumed = sum(isinstance(item, int | slice) for item in items)
    if consumed > ndim:
        raise ValueError(f"too many indices: {consumed} for a tensor with {ndim} dims")
    dim = 0  # the dim of the *current* layout the next item applies to
    for item in items:
        if item is Ellipsis:
            # "..." stands for every dim of the original tensor that no int or slice consumes.
            dim += ndim - consumed
        elif item is None:
            layout = layout.unsqueeze(dim)
            dim += 1
        elif isinstance(item, slice):
            layout = layout.slice(dim, item.start, item.stop, 1 if item.step is None else item.step)
            dim += 1
        else:
            layout = layout.select(dim, item)
    return layout


def _int(node: ast.expr, source: str) -> int:
    """An integer literal, possibly negative; anything else is refused."""
    sign = 1
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        sign, node = -1, node.operand
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return sign * node.value
    raise ValueError(f"in {source!r}: expected an integer, got {ast.unparse(node)!r}")


def _index_item(node: ast.expr, source: str) -> IndexItem:
    if isinstance(node, ast.Slice):
        bounds = [
            None if part is None else _int(part, source) for part in (node.lower, node.upper, node.step)
        ]
        return slice(*bounds)
    if isinstance(node, ast.Constant) and (node.value is None or node.value is Ellipsis):
        return node.value
    return _int(node, source)


def parse_op(text: str) -> Op:
    """Parse one op of a view chain, e.g. ``"T"``, ``"[:, ::2]"`` or ``".view(2, 16)"``.

    Args:
        text: The op; a leading ``t`` (as in ``t.T``, ``t[0]``) or ``.`` is optional.

    Returns:
        The parsed :class:`Op` (not yet checked against any shape).

    Raises:
        ValueError: If the text is not one of the supported ops with integer literals.
    """
    source = text.strip()
    code = source[1:] if source[:2] in ("t.", "t[") else source
    code = code.removeprefix(".")
    if not code:
        raise ValueError(f"empty op; try one of: {EXAMPLES}")
    if code == "T":
        return Op("T", (), source)
    try:
        # Prefix a name so that "[...]" parses as a subscript rather than a list.
        node = ast.parse("_" + code if code.startswith("[") else code, mode="eval").body
    except SyntaxError as err:
        raise ValueError(f"cannot parse {source!r} ({err.msg}); try one of: {EXAMPLES}") from None

    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "_":
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return Op("index", tuple(_index_item(part, source) for part in parts), source)

    piece = None
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call):
        piece, node = _int(node.slice, source), node.value
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CALLS):
        raise ValueError(f"unknown op {source!r}; try one of: {EXAMPLES}")
    name = node.func.id
    if node.keywords:
        raise ValueError(f"in {source!r}: keyword arguments are not supported")
    if piece is not None and name not in _PIECE_CALLS:
        raise ValueError(f"in {source!r}: {name} returns one tensor, so it takes no [index]")
    if piece is None and name in _PIECE_CALLS:
        raise ValueError(f"{name} returns a tuple of views: pick one piece, e.g. {name}(...)[0], in {source!r}")
    args = node.args
    if name in _SEQUENCE_CALLS and len(args) == 1 and isinstance(args[0], ast.Tuple | ast.List):
        args = args[0].elts
    fewest, most = _CALLS[name]
    if len(args) < fewest or (most is not None and len(args) > most):
        wanted = str(fewest) if fewest == most else f"at least {fewest}"
        raise ValueError(f"{name} takes {wanted} argument(s), got {len(args)} in {source!r}")
    values: list[Arg] = []
    for position, arg in enumerate(args):
        if isinstance(arg, ast.Tuple | ast.List) and (name, position) in _TUPLE_ARGS:
            values.append(tuple(_int(item, source) for item in arg.elts))
        elif (name, position) in _TUPLE_ONLY:
            raise ValueError(f"in {source!r}: argument {position + 1} of {name} is a tuple of integers")
        else:
            values.append(_int(arg, source))
    return Op(name, tuple(values), source, piece)


def parse_shape(text: str) -> tuple[int, ...]:
    """Parse a shape typed by a learner: ``"4, 8"``, ``"(4, 8)"``, ``"[2, -1]"``, ``"32"`` or ``"()"``.

    Sizes are not checked beyond being integer literals (``-1`` is allowed for view targets).

    Raises:
        ValueError: If the text is not a comma-separated list of integers.
    """
    source = text.strip()
    try:
        node = ast.parse(source or "()", mode="eval").body
    except SyntaxError:
        raise ValueError(f"cannot read a shape from {source!r}; write sizes like 4, 8") from None
    parts = node.elts if isinstance(node, ast.Tuple | ast.List) else [node]
    return tuple(_int(part, source) for part in parts)


def _ops(ops: Iterable[Op | str]) -> list[Op]:
    return [parse_op(op) if isinstance(op, str) else op for op in ops]


def apply_chain(shape: tuple[int, ...], ops: Iterable[Op | str]) -> Layout:
    """The layout after applying ``ops`` to a fresh contiguous tensor of ``shape``.

    Args:
        shape: Shape of the starting tensor (offset 0, contiguous strides).
        ops: Ops or op texts, applied in order.

    Raises:
        ValueError: If an op cannot be parsed or does not fit the current layout.
        ViewError: If a ``view`` in the chain is illegal.
    """
    layout = Layout.contiguous(tuple(shape))
    for op in _ops(ops):
        layout = op.apply(layout, storage_size=math.prod(shape))
    return layout


def torch_chain(shape: tuple[int, ...], ops: Iterable[Op | str]) -> torch.Tensor:
    """Apply ``ops`` to ``torch.arange(numel).view(shape)`` (float) with real torch calls.

    Because element values equal their storage slots, the result's values show which slot
    each element reads, so it can be compared with :func:`~autograd_figures.layout.storage_indices`.
    """
    shape = tuple(shape)
    tensor = torch.arange(math.prod(shape), dtype=torch.float64).view(shape)
    for op in _ops(ops):
        tensor = op.apply_torch(tensor)
    return tensor

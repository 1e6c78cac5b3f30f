"""A tiny language for chains of view operations, spelled like the Python a learner would type.

One op is one step of a chain such as ``t.T[:, ::2].view(16)``: ``T``, ``transpose(0, 1)``,
``permute(2, 0, 1)``, basic indexing ``[1:3]`` / ``[:, ::2]`` / ``[0]`` / ``[..., None]``,
``expand(3, 4, 8)``, ``unsqueeze(0)`` or ``view(2, 16)``; a leading ``t`` or ``.`` is optional.
Text is read with :mod:`ast` (never evaluated), so only integer literals are accepted.
The same op can be applied to a :class:`~stridelab.layout.Layout` (pure maths) or to a real
tensor, which is how the tests check the maths against torch.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Iterable
from dataclasses import dataclass
from types import EllipsisType

import torch

from stridelab.layout import Layout

__all__ = ["Op", "apply_chain", "parse_op", "parse_shape", "torch_chain"]

IndexItem = int | slice | None | EllipsisType

# Method name -> (fewest, most) integer arguments; None means any number.
_CALLS: dict[str, tuple[int, int | None]] = {
    "transpose": (2, 2),
    "permute": (1, None),
    "expand": (1, None),
    "unsqueeze": (1, 1),
    "view": (1, None),
}
# These accept their sizes either spread out or as one tuple, like the torch methods.
_SEQUENCE_CALLS = {"permute", "expand", "view"}

_EXAMPLES = (
    "T, transpose(0, 1), permute(1, 0), [1:3], [:, ::2], [0], expand(3, 4, 8), unsqueeze(0), view(2, 16)"
)


@dataclass(frozen=True)
class Op:
    """One parsed step of a view chain.

    Attributes:
        kind: ``"T"``, ``"index"``, or the method name (``"transpose"``, ``"permute"``,
            ``"expand"``, ``"unsqueeze"``, ``"view"``).
        args: Integer arguments of a method, or the index items (ints, slices, ``None``,
            ``...``) of an ``"index"`` op.
        text: The text the op was parsed from.

    Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
    """

    kind: str
    args: tuple[IndexItem, ...]
    text: str

    @property
    def code(self) -> str:
        """The op as the Python suffix that applies it to a tensor ``t``, e.g. ``.view(2, 16)``.

        Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
        """
        if self.kind == "T":
            return ".T"
        if self.kind == "index":
            return "[" + ", ".join(_format_item(item) for item in self.args) + "]"
        return f".{self.kind}({', '.join(str(a) for a in self.args)})"

    def apply(self, layout: Layout) -> Layout:
        """Apply the op to a layout with the maths of :mod:`stridelab.layout`.

        Raises:
            ValueError: If the op does not fit the layout (bad dim, index out of range ...).
            ViewError: For a ``view`` that torch would refuse.

        Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
        """
        if self.kind == "T":
            _check_matrix(layout.ndim)
            return layout.transpose(0, 1)
        if self.kind == "index":
            return _index(layout, self.args)
        return getattr(layout, self.kind)(*self.args)

    def apply_torch(self, tensor: torch.Tensor) -> torch.Tensor:
        """Apply the op to a real tensor, exactly as the Python in :attr:`code` would.

        Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
        """
        if self.kind == "T":
            _check_matrix(tensor.dim())
            return tensor.T
        if self.kind == "index":
            return tensor[self.args]
        return getattr(tensor, self.kind)(*self.args)


def _check_matrix(ndim: int) -> None:
    # Torch deprecates .T on anything but matrices, so the chain language refuses it too.
    if ndim != 2:
        raise ValueError(f"T needs a 2-D tensor but this one has {ndim} dims; use permute(...) instead")


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

    Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
    """
    source = text.strip()
    code = source[1:] if source[:2] in ("t.", "t[") else source
    code = code.removeprefix(".")
    if not code:
        raise ValueError(f"empty op; try one of: {_EXAMPLES}")
    if code == "T":
        return Op("T", (), source)
    try:
        # Prefix a name so that "[...]" parses as a subscript rather than a list.
        node = ast.parse("_" + code if code.startswith("[") else code, mode="eval").body
    except SyntaxError as err:
        raise ValueError(f"cannot parse {source!r} ({err.msg}); try one of: {_EXAMPLES}") from None

    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and node.value.id == "_":
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        return Op("index", tuple(_index_item(part, source) for part in parts), source)

    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _CALLS):
        raise ValueError(f"unknown op {source!r}; try one of: {_EXAMPLES}")
    name = node.func.id
    if node.keywords:
        raise ValueError(f"in {source!r}: keyword arguments are not supported")
    args = node.args
    if name in _SEQUENCE_CALLS and len(args) == 1 and isinstance(args[0], ast.Tuple | ast.List):
        args = args[0].elts
    fewest, most = _CALLS[name]
    if len(args) < fewest or (most is not None and len(args) > most):
        wanted = str(fewest) if fewest == most else f"at least {fewest}"
        raise ValueError(f"{name} takes {wanted} integer argument(s), got {len(args)} in {source!r}")
    return Op(name, tuple(_int(arg, source) for arg in args), source)


def parse_shape(text: str) -> tuple[int, ...]:
    """Parse a shape typed by a learner: ``"4, 8"``, ``"(4, 8)"``, ``"[2, -1]"``, ``"32"`` or ``"()"``.

    Sizes are not checked beyond being integer literals (``-1`` is allowed for view targets).

    Raises:
        ValueError: If the text is not a comma-separated list of integers.

    Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
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

    Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
    """
    layout = Layout.contiguous(tuple(shape))
    for op in _ops(ops):
        layout = op.apply(layout)
    return layout


def torch_chain(shape: tuple[int, ...], ops: Iterable[Op | str]) -> torch.Tensor:
    """Apply ``ops`` to ``torch.arange(numel).view(shape)`` (float) with real torch calls.

    Because element values equal their storage slots, the result's values show which slot
    each element reads, so it can be compared with :func:`~stridelab.layout.storage_indices`.

    Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
    """
    shape = tuple(shape)
    tensor = torch.arange(math.prod(shape), dtype=torch.float64).view(shape)
    for op in _ops(ops):
        tensor = op.apply_torch(tensor)
    return tensor

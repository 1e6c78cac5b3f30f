"""A tiny language for chains of view operations, spelled like the Python a learner would type.

One op is one step of a chain such as ``t.T[:, ::2].view(16)``: ``T``, ``transpose(0, 1)``,
``permute(2, 0, 1)``, basic indexing ``[1:3]`` / ``[:, ::2]`` / ``[0]`` / ``[..., None]``,
``expand(3, 4, 8)``, ``unsqueeze(0)``, ``view(2, 16)``, ``narrow(1, 2, 3)``, ``select(0, 1)``,
one piece of ``unbind(0)[1]`` / ``split(3, 1)[0]`` / ``split((1, 3), 0)[1]`` / ``chunk(2, 1)[1]``,
``diagonal()`` / ``diagonal(1, 0, 1)``, ``unfold(1, 3, 2)``, ``squeeze()`` / ``squeeze(0)``,
``movedim(0, -1)``, ``flatten()`` / ``flatten(0, 1)`` (only where it is a view) or
``as_strided((2, 2), (1, 2), 1)``; a leading ``t`` or ``.`` is optional.
Text is read with :mod:`ast` (never evaluated), so only integer literals are accepted.
An op is applied with the real torch call its text spells (:meth:`Op.apply_torch`); this module
computes no layout itself. :func:`view_step` applies one op for the explorer: what torch refuses
is refused with torch's message, and an op that torch does by copying (``flatten`` of a tensor
that cannot be viewed flat) is refused because the result has a storage of its own.

Defined in Chapter 1, "Views, strides and storage" (notebooks/views/views.ipynb).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Iterable
from dataclasses import dataclass
from types import EllipsisType

import torch

from autograd_figures.layout import Layout, ViewError

__all__ = [
    "EXAMPLES", "Op", "apply_chain", "parse_op", "parse_shape", "start_tensor", "torch_chain", "view_chain",
    "view_step",
]

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


def _format_item(item: IndexItem) -> str:
    if item is Ellipsis:
        return "..."
    if isinstance(item, slice):
        text = ("" if item.start is None else str(item.start)) + ":"
        text += "" if item.stop is None else str(item.stop)
        return text + ("" if item.step is None else f":{item.step}")
    return str(item)


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


def start_tensor(shape: tuple[int, ...]) -> torch.Tensor:
    """``torch.arange(n.).view(shape)``: the tensor a chain starts from, each value its storage slot."""
    shape = tuple(shape)
    return torch.arange(float(math.prod(shape))).view(shape)


def torch_chain(shape: tuple[int, ...], ops: Iterable[Op | str]) -> torch.Tensor:
    """Apply ``ops`` to :func:`start_tensor` with real torch calls, as the Python they spell would.

    Nothing is checked beyond what torch checks: a ``flatten`` that copies returns the copy.
    Because element values equal their storage slots, the result's values show which slot
    each element of a view reads.
    """
    tensor = start_tensor(shape)
    for op in _ops(ops):
        tensor = op.apply_torch(tensor)
    return tensor


def view_step(tensor: torch.Tensor, op: Op | str) -> torch.Tensor:
    """Apply one op to ``tensor`` with its real torch call, keeping only views of the same storage.

    Args:
        tensor: The tensor the op reads.
        op: An op or its text.

    Returns:
        What torch returned: a view of ``tensor``'s storage.

    Raises:
        ValueError: If the text cannot be parsed, or torch refuses the op (torch's message).
        ViewError: If torch refuses a ``view`` (torch's message), or returns a tensor with a
            storage of its own (the op copied).
    """
    op = parse_op(op) if isinstance(op, str) else op
    try:
        result = op.apply_torch(tensor)
    except (RuntimeError, IndexError, TypeError, ValueError) as err:
        if op.kind == "view":
            raise ViewError(str(err)) from None
        raise ValueError(str(err)) from None
    if result.untyped_storage().data_ptr() != tensor.untyped_storage().data_ptr():
        raise ViewError(
            f"{op.code.removeprefix('.')} copies here: torch returned a tensor with a storage of its own; "
            "the explorer shows views only"
        )
    return result


def view_chain(shape: tuple[int, ...], ops: Iterable[Op | str]) -> torch.Tensor:
    """Apply ``ops`` one by one with :func:`view_step` to :func:`start_tensor` of ``shape``.

    Raises:
        ValueError: If an op cannot be parsed or torch refuses it.
        ViewError: If torch refuses a ``view`` in the chain, or an op copies.
    """
    tensor = start_tensor(shape)
    for op in _ops(ops):
        tensor = view_step(tensor, op)
    return tensor


def apply_chain(shape: tuple[int, ...], ops: Iterable[Op | str]) -> Layout:
    """The layout torch reports after applying ``ops`` to :func:`start_tensor` of ``shape``.

    Raises:
        ValueError: If an op cannot be parsed or torch refuses it.
        ViewError: If torch refuses a ``view`` in the chain, or an op copies.
    """
    return Layout.of(view_chain(shape, ops))

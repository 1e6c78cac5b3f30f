"""Grader-owned objects an answer is handed or runs beside, and the facts they leave behind.

A closed-book reproduction is graded on what torch's mechanism did, not on what the answer says it
did. The drivers of those checks hand the answer a grader-owned ``f`` (:class:`Recorded`), or run
it inside a :class:`Witness`, and report afterwards, as plain data, only what the mechanism left:
which tensor ``f`` was applied to, whether ``backward()`` reached the node ``f`` made, what torch
says when the grader itself reads that node's saved tensors, which torch call raised the very
exception the answer let through. None of these facts is a verdict, and a witness the answer
switches off only removes evidence.

Defined in the closed-book companions of Chapter 2, "In-place operations and the version
counter", and Chapter 3, "detach versus clone".
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import torch
from torch.overrides import TorchFunctionMode

from autograder.engine import facts
from autograder.engine.codec import type_name

Op = Callable[[torch.Tensor], torch.Tensor]

#: ``Tensor.tolist`` as it was when this module was imported (before any answer ran), called only
#: inside :func:`autograder.engine.facts.untouched` on tensors the grader made.
_tolist = torch.Tensor.tolist


def first_sentence(text: str) -> str:
    """Torch's message up to its hint (which says nothing about the tensors), at most 300 characters."""
    return text.split(" Hint:")[0].strip()[:300]


def describe(t: Any) -> str:
    """What kind of tensor ``t`` is, for autograd."""
    if not facts.is_tensor(t):
        return f"<{type_name(t)}>"
    with facts.untouched():
        if facts.is_leaf(t):
            return "a leaf that requires grad" if facts.requires_grad(t) else "a tensor that does not require grad"
    return "a tensor computed from a leaf that requires grad"


def leaf_behind(t: Any) -> torch.Tensor | None:
    """The first leaf that requires grad which ``t`` is, or was computed from."""
    if not facts.is_tensor(t):
        return None
    with facts.untouched():
        if not facts.requires_grad(t):
            return None
        if facts.is_leaf(t):
            return t
        pending, seen = [facts.grad_fn(t)], set()
        while pending:
            node = pending.pop()
            if node is None or id(node) in seen:
                continue
            seen.add(id(node))
            variable = facts.accumulates_into(node)
            if facts.is_tensor(variable):
                return variable
            pending += facts.next_nodes(node)
    return None


def read_saved(node: Any) -> str:
    """What torch says when the grader reads every tensor a graph node saved: "readable", or the
    first sentence of the error it raises (a stale save, or one already freed by backward)."""
    if node is None:
        return "no graph node"
    try:
        with facts.untouched():
            read = facts.saved_values(node)
    except RuntimeError as err:
        return first_sentence(str(err))
    return "readable" if read else "no saved tensors"


class Applied:
    """One application of a grader-owned op: its input (and a copy of its values then), its result,
    the leaf behind the input and that leaf's version then, and whether backward reached the node."""

    def __init__(self, t: Any, result: Any) -> None:
        self.input = t
        self.result = result
        self.reached = False
        with facts.untouched():
            self.values = facts.clone(facts.detach(t)) if facts.is_tensor(t) else None
            self.node = facts.grad_fn(result) if facts.is_tensor(result) else None
            self.leaf = leaf_behind(t)
            self.leaf_version = facts.version(self.leaf) if self.leaf is not None else None
            if self.node is not None:
                self.node.register_prehook(self._reached)

    def _reached(self, _grad_outputs: Any) -> None:
        self.reached = True

    def holds(self, x0: torch.Tensor) -> bool:
        """Whether the input held ``x0``'s values when the op was applied."""
        if self.values is None:
            return False
        with facts.untouched():
            return facts.shape(self.values) == facts.shape(x0) and bool(facts.equal(self.values, x0))


class Recorded:
    """``f`` as handed to an answer: it computes the op and keeps every application.

    Args:
        op: The operation.
        name: How the op is named in messages.
    """

    def __init__(self, op: Op, name: str) -> None:
        self.op = op
        self.name = name
        self.applied: list[Applied] = []

    def __call__(self, t: torch.Tensor) -> torch.Tensor:
        result = self.op(t)
        self.applied.append(Applied(t, result))
        return result

    def __repr__(self) -> str:
        return f"<f: {self.name}>"


class Witness(TorchFunctionMode):
    """Watches the torch calls an answer makes while it runs: every call (its name and the tensor it
    was made on), the calls that raised (with the exception object itself), and every result whose
    graph node is of the kind watched (kept as an :class:`Applied`).

    Args:
        node: The ``grad_fn`` type name of results to keep, e.g. ``"SigmoidBackward0"``.
    """

    def __init__(self, node: str | None = None) -> None:
        super().__init__()
        self.node = node
        self.raised: list[tuple[BaseException, Any]] = []
        self.applied: list[Applied] = []
        self.calls: list[tuple[str, Any]] = []

    def __torch_function__(self, func, types, args=(), kwargs=None):  # noqa: ANN001 - torch's protocol
        receiver = args[0] if args else None
        self.calls.append((getattr(func, "__name__", ""), receiver))
        try:
            result = func(*args, **(kwargs or {}))
        except Exception as err:
            self.raised.append((err, receiver))
            raise
        if self.node is not None and facts.is_tensor(result):
            with facts.untouched():
                kept = facts.is_torch_node(node := facts.grad_fn(result)) and type(node).__name__ == self.node
            if kept:
                self.applied.append(Applied(receiver, result))
        return result

    def raised_on(self, err: BaseException) -> Any:
        """The tensor of the torch call that raised exactly this exception object (None when no
        watched call raised it)."""
        return next((receiver for raised, receiver in self.raised if raised is err), None)

    def autograd_roots(self) -> list[torch.Tensor]:
        """The tensors the answer asked autograd to differentiate (``backward``, ``autograd.grad``)."""
        roots = []
        for name, receiver in self.calls:
            if name in ("backward", "grad"):
                found = receiver if type(receiver) in (tuple, list) else (receiver,)
                roots += [t for t in found if facts.is_tensor(t)]
        return roots


def leaves_of(root: torch.Tensor) -> list[torch.Tensor]:
    """The leaves that require grad which a tensor's graph reaches."""
    with facts.untouched():
        if facts.is_leaf(root):
            return [root] if facts.requires_grad(root) else []
        found, pending, seen = [], [facts.grad_fn(root)], set()
        while pending:
            node = pending.pop()
            if node is None or id(node) in seen:
                continue
            seen.add(id(node))
            variable = facts.accumulates_into(node)
            if facts.is_tensor(variable):
                found.append(variable)
            pending += facts.next_nodes(node)
    return found


def holds_values(t: Any, values: torch.Tensor) -> bool:
    """Whether ``t`` is a tensor that holds ``values`` (its shape and every element)."""
    if not facts.is_tensor(t):
        return False
    with facts.untouched():
        return facts.shape(t) == facts.shape(values) and bool(facts.equal(facts.detach(t), values))


def hold_values_between_them(tensors: Iterable[Any], values: torch.Tensor) -> bool:
    """Whether ``tensors`` hold every element of ``values`` between them: one tensor that holds
    them all, or several that each hold some (one per element, one per row), each element of
    ``values`` matched by an element of the same dtype, as many times as it occurs."""
    with facts.untouched():
        kind = facts.dtype(values)
        found = [facts.clone(facts.reshape(facts.detach(t), (-1,))) for t in tensors
                 if facts.is_tensor(t) and facts.dtype(t) == kind]
        if not found:
            return False
        held = Counter(_tolist(facts.cat(found)))
        wanted = Counter(_tolist(facts.clone(facts.reshape(values, (-1,)))))
    return all(held[value] >= count for value, count in wanted.items())


def copied(value: Any) -> Any:
    """A returned tensor as data (a copy of its values, made by the grader), or what else it was."""
    if not facts.is_tensor(value):
        return f"<{type_name(value)}>"
    with facts.untouched():
        return facts.clone(facts.detach(value))


class Kept:
    """What a tensor handed to an answer was: its values, version, ``requires_grad`` and ``.grad``.

    A driver reports whether the answer left the tensor so (:meth:`left_alone`), then puts it back
    (:meth:`restore`): the same inputs are handed to the reference and to every model in turn.
    Every fact is read through :mod:`autograder.engine.facts`, never through methods the answer could
    have set on the tensor.
    """

    def __init__(self, t: torch.Tensor) -> None:
        with facts.untouched():
            self.values = facts.clone(facts.detach(t))
            self.version = facts.version(t)
            self.requires_grad = facts.requires_grad(t)
            grad = facts.grad(t) if facts.is_leaf(t) else None
            self.grad = facts.clone(grad) if grad is not None else None

    def same_values(self, t: torch.Tensor) -> bool:
        """Whether ``t`` still holds the values it held."""
        with facts.untouched():
            return facts.shape(t) == facts.shape(self.values) and bool(facts.equal(facts.detach(t), self.values))

    def left_alone(self, t: torch.Tensor) -> bool:
        """Same values, no write, no change of ``requires_grad`` or ``.grad``."""
        with facts.untouched():
            grad = facts.grad(t) if facts.is_leaf(t) else None
            same_grad = (grad is None) == (self.grad is None) and (
                grad is None or (facts.is_tensor(grad) and bool(facts.equal(grad, self.grad))))
            return (facts.version(t) == self.version and facts.requires_grad(t) == self.requires_grad
                    and same_grad and self.same_values(t))

    def restore(self, t: torch.Tensor) -> None:
        """Put the tensor back as it was (its version counter keeps counting)."""
        with facts.untouched():
            if facts.is_leaf(t):
                facts.set_grad(t, None if self.grad is None else facts.clone(self.grad))
                if facts.requires_grad(t) != self.requires_grad:
                    facts.requires_grad_(t, self.requires_grad)
            if facts.shape(t) == facts.shape(self.values) and not facts.equal(facts.detach(t), self.values):
                with facts.no_grad():
                    facts.copy_(facts.detach(t), self.values)


def left_alone(x0: torch.Tensor, kept: Kept) -> bool:
    """Whether ``x0`` is as it was handed over (see :class:`Kept`); then it is put back."""
    alone = kept.left_alone(x0)
    kept.restore(x0)
    return alone


def error_of(err: BaseException) -> list[str]:
    """An exception as data: its type's name and the first sentence of its message."""
    try:
        text = str(err)
    except Exception:  # noqa: BLE001 - a hostile __str__ must not break the report
        text = "<unprintable>"
    return [type(err).__name__, first_sentence(text)]

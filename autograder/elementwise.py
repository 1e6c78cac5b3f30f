"""Elementwise operations that closed-book cases vary ``f`` over, and a tracker of ``f``'s use.

A task generic over ``f`` passes only when the mechanism is right for every kind of op: ops that
save their input for backward (``sin``, ``pow``, and :class:`Cube`, a custom
``torch.autograd.Function`` that calls ``ctx.save_for_backward`` on its input), and ops that save
their output (``exp``, ``tanh``, ``sigmoid``). The gradients expected of them are computed by
autograd on trusted code, never typed in.

Defined in the closed-book companions of Chapter 2, "In-place operations and the version
counter", Chapter 3, "detach versus clone", and Chapter 4, "Leaves, ``.grad`` and accumulation".
"""

from __future__ import annotations

from collections.abc import Callable

import torch

Op = Callable[[torch.Tensor], torch.Tensor]


class Cube(torch.autograd.Function):
    """``x ** 3`` written by hand: its forward saves the input, its backward reads it."""

    @staticmethod
    def forward(ctx, x: torch.Tensor) -> torch.Tensor:
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, grad_output: torch.Tensor) -> torch.Tensor:
        (x,) = ctx.saved_tensors
        return 3 * x * x * grad_output


class SoftClip(torch.autograd.Function):
    """``tanh(x) / 2`` written by hand: its forward saves the output, its backward reads it."""

    @staticmethod
    def forward(ctx, x: torch.Tensor) -> torch.Tensor:
        out = torch.tanh(x) / 2
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad_output: torch.Tensor) -> torch.Tensor:
        (out,) = ctx.saved_tensors
        return (0.5 - 2 * out * out) * grad_output


def _cube(x: torch.Tensor) -> torch.Tensor:
    return Cube.apply(x)


def _soft_clip(x: torch.Tensor) -> torch.Tensor:
    return SoftClip.apply(x)


def _pow3(x: torch.Tensor) -> torch.Tensor:
    return x.pow(3)


SAVE_INPUT: dict[str, Op] = {"sin": torch.sin, "pow3": _pow3, "Cube": _cube}
SAVE_OUTPUT: dict[str, Op] = {"exp": torch.exp, "tanh": torch.tanh, "sigmoid": torch.sigmoid}
ALL_OPS: dict[str, Op] = {**SAVE_INPUT, **SAVE_OUTPUT}
#: Custom autograd Functions, one saving its input and one its output.
CUSTOM: dict[str, Op] = {"Cube": _cube, "SoftClip": _soft_clip}


def derivative(f: Op, x0: torch.Tensor) -> torch.Tensor:
    """Trusted: ``f′`` at ``x0`` for an elementwise ``f``, by autograd on a fresh leaf."""
    x = x0.detach().clone().requires_grad_(True)
    (grad,) = torch.autograd.grad(f(x).sum(), x)
    return grad


class Tracked:
    """``f`` as handed to an answer: it computes ``f`` and keeps every tensor it was applied to.

    Args:
        op: The operation.
        name: How the op is named in reports.
    """

    def __init__(self, op: Op, name: str) -> None:
        self.op = op
        self.name = name
        self.inputs: list[torch.Tensor] = []

    def __call__(self, t: torch.Tensor) -> torch.Tensor:
        self.inputs.append(t)
        return self.op(t)

    def __repr__(self) -> str:
        return f"<f: {self.name}>"

    def applied_to_a_leaf(self) -> bool:
        """Whether ``f`` was applied to a leaf that requires grad."""
        return any(isinstance(t, torch.Tensor) and t.is_leaf and t.requires_grad for t in self.inputs)

    def leaf_reached(self) -> torch.Tensor | None:
        """The first leaf that requires grad which one of ``f``'s inputs is, or was computed from."""
        for t in self.inputs:
            if not isinstance(t, torch.Tensor):
                continue
            if t.is_leaf and t.requires_grad:
                return t
            pending, seen = [t.grad_fn], set()
            while pending:
                node = pending.pop()
                if node is None or id(node) in seen:
                    continue
                seen.add(id(node))
                variable = getattr(node, "variable", None)
                if isinstance(variable, torch.Tensor):
                    return variable
                pending += [parent for parent, _ in node.next_functions]
        return None


def drawn_op(draw, ops: dict[str, Op]) -> tuple[str, Op]:
    """One op of ``ops``, chosen by the case's seeded draw."""
    name = draw.choice(sorted(ops))
    return name, ops[name]

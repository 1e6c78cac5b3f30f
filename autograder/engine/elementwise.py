"""Elementwise operations that closed-book cases vary ``f`` over.

A task generic over ``f`` passes only when the mechanism is right for every kind of op: ops that
save their input for backward (``sin``, ``pow``, and :class:`Cube`, a custom
``torch.autograd.Function`` that calls ``ctx.save_for_backward`` on its input), and ops that save
their output (``exp``, ``tanh``, ``sigmoid``). The gradients expected of them are computed by
autograd in the answer key, never typed in.

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
#: Custom autograd Functions, one saving its input and one its output.
CUSTOM: dict[str, Op] = {"Cube": _cube, "SoftClip": _soft_clip}

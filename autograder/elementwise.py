"""Elementwise operations a closed-book task is generic over, and their derivatives.

A reproduction that must hold "for any elementwise differentiable ``f``" is graded with ``f``
drawn from ops that save their input for backward, ops that save their output, and a custom
``torch.autograd.Function``, so that only the mechanism passes, never a formula remembered for one
op. Derivatives are asked of torch (``torch.autograd.grad``), never typed in.

Defined for the closed-book companions of Chapters 2–4.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch


class Cube(torch.autograd.Function):
    """``x ** 3`` as a custom autograd Function that saves its input."""

    @staticmethod
    def forward(ctx, x: torch.Tensor) -> torch.Tensor:
        ctx.save_for_backward(x)
        return x * x * x

    @staticmethod
    def backward(ctx, grad: torch.Tensor) -> torch.Tensor:
        (x,) = ctx.saved_tensors
        return grad * 3 * x * x


class SoftClip(torch.autograd.Function):
    """``tanh(x) / 2`` as a custom autograd Function that saves its output."""

    @staticmethod
    def forward(ctx, x: torch.Tensor) -> torch.Tensor:
        out = torch.tanh(x) / 2
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, grad: torch.Tensor) -> torch.Tensor:
        (out,) = ctx.saved_tensors
        return grad * (0.5 - 2 * out * out)


@dataclass(frozen=True)
class Op:
    """An elementwise op, how a learner reads it, and what it saves for backward."""

    name: str
    apply: Callable[[torch.Tensor], torch.Tensor]
    saves: str

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        return self.apply(x)

    def __repr__(self) -> str:
        return self.name


CUBE = Op("Cube.apply", Cube.apply, "input")
SOFT_CLIP = Op("SoftClip.apply", SoftClip.apply, "output")
SAVES_INPUT = (
    Op("torch.sin", torch.sin, "input"),
    Op("lambda x: x ** 2", lambda x: x**2, "input"),
    Op("torch.log1p", torch.log1p, "input"),
    CUBE,
)
SAVES_OUTPUT = (
    Op("torch.exp", torch.exp, "output"),
    Op("torch.tanh", torch.tanh, "output"),
    Op("torch.sigmoid", torch.sigmoid, "output"),
    SOFT_CLIP,
)
EVERY_OP = SAVES_INPUT + SAVES_OUTPUT


def derivative(f: Callable[[torch.Tensor], torch.Tensor], at: torch.Tensor) -> torch.Tensor:
    """``f′`` at ``at``, elementwise, asked of autograd."""
    x = at.detach().clone().requires_grad_()
    (grad,) = torch.autograd.grad(f(x).sum(), x)
    return grad


def positive(x: torch.Tensor) -> torch.Tensor:
    """Inputs every op above accepts (``log1p`` needs ``x > -1``): values of at least 0.1."""
    return x.abs() + 0.1

"""The key of Chapter 3, "detach versus clone".

The references are answers as a learner writes them; every model is an answer that makes one
catalogued mistake. The self-test's answers are read off torch.
"""

from __future__ import annotations

from typing import Any

import torch
from torch import nn

from answer_key.keys import Model, key
from autograder.engine.draw import seed_global_generator


# --------------------------------------------------------------------------- detach-independent
def independent_copy(t: torch.Tensor) -> torch.Tensor:
    return t.detach().clone(memory_format=torch.contiguous_format)


key("detach-independent", independent_copy, models=[
    Model("detach-copies", lambda t: t.detach(), "detach() gave a tensor with memory of its own."),
    Model("data-copies", lambda t: t.data, ".data gave a tensor with memory of its own."),
    Model("clone-cuts", lambda t: t.clone(memory_format=torch.contiguous_format),
          "clone() cut the copy from the graph as well as from the memory."),
    Model("copy-is-a-leaf", lambda t: t.detach().clone(memory_format=torch.contiguous_format).requires_grad_(),
          "an independent copy were itself a leaf that requires grad."),
    Model("clone-compacts", lambda t: t.detach().clone(),
          "clone() laid its copy out row after row, whatever t's layout."),
    # t.clone() keeps t's graph (requires_grad, a grad_fn) and t's layout; a copy_ into
    # empty_like(t) is observed exactly as it.
    Model("clone-alone", lambda t: t.clone(),
          "copying t's values (with clone() or copy_()) cut the copy from t's graph too, and laid it out "
          "row after row."),
])


# --------------------------------------------------------------------------- detach-provenance
def provenance_grad(x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().clone().requires_grad_()
    y = leaf * leaf
    z = y * y.detach()
    (grad,) = torch.autograd.grad(z.sum(), leaf)
    return grad


def _no_cut(x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().clone().requires_grad_()
    y = leaf * leaf
    (grad,) = torch.autograd.grad((y * y).sum(), leaf)
    return grad


def _grad_of_y(x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().clone().requires_grad_()
    (grad,) = torch.autograd.grad((leaf * leaf).sum(), leaf)
    return grad


def _closed_form(x: torch.Tensor) -> torch.Tensor:
    x = x.detach()
    return 2 * x ** 3


def _callers_leaf(x: torch.Tensor) -> torch.Tensor:
    x.requires_grad_()
    y = x * x
    (y * y.detach()).sum().backward()
    return x.grad


def _value_of_the_cut(x: torch.Tensor) -> torch.Tensor:
    leaf = x.detach().clone().requires_grad_()
    y = leaf * leaf
    (grad,) = torch.autograd.grad((leaf * y.detach()).sum(), leaf)
    return grad


key("detach-provenance", provenance_grad, models=[
    Model("no-cut", _no_cut, "y.detach() still carried y's dependence on x into the gradient."),
    Model("grad-of-y", _grad_of_y, "the gradient asked for were that of y alone."),
    Model("closed-form", _closed_form, "a formula for the gradient could stand in for asking autograd."),
    Model("callers-leaf", _callers_leaf,
          "the x the function is given could be made the leaf, and its .grad used, whatever it held."),
    Model("chapter-example", _value_of_the_cut,
          "z were x * y.detach(), the chapter's own example, not y * y.detach()."),
])


# --------------------------------------------------------------------------- detach-ste
def round_ste(x: torch.Tensor) -> torch.Tensor:
    c = x.clamp(-2, 2)
    return c + (torch.round(c) - c).detach()


def _identity_everywhere(x: torch.Tensor) -> torch.Tensor:
    return x + (torch.round(x).clamp(-2, 2) - x).detach()


def _plain_round(x: torch.Tensor) -> torch.Tensor:
    return torch.round(x).clamp(-2, 2)


def _clip_after(x: torch.Tensor) -> torch.Tensor:
    s = x + (torch.round(x) - x).detach()
    return s.clamp(-2, 2)


def _half_up(x: torch.Tensor) -> torch.Tensor:
    c = x.clamp(-2, 2)
    return c + (torch.floor(c + 0.5) - c).detach()


class _OnesBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):  # noqa: ANN001, ANN205 - torch's protocol
        ctx.save_for_backward(x)
        return torch.round(x).clamp(-2, 2)

    @staticmethod
    def backward(ctx, grad_output):  # noqa: ANN001, ANN205
        (x,) = ctx.saved_tensors
        return ((x >= -2) & (x <= 2)).to(grad_output.dtype)


def _hardtanh(x: torch.Tensor) -> torch.Tensor:
    c = torch.nn.functional.hardtanh(x, -2.0, 2.0)
    return c + (torch.round(c) - c).detach()


def _detached(x: torch.Tensor) -> torch.Tensor:
    return torch.round(x.clamp(-2, 2)).detach()


def _unclipped(x: torch.Tensor) -> torch.Tensor:
    return x + (torch.round(x) - x).detach()


def _unbracketed(x: torch.Tensor) -> torch.Tensor:
    c = x.clamp(-2, 2)
    return torch.round(x).clamp(-2, 2).detach() + c - c.detach()


key("detach-ste", round_ste, models=[
    Model("identity-everywhere", _identity_everywhere,
          "the gradient passed straight through where the value is clipped, too."),
    Model("round-passes-gradient", _plain_round, "torch.round let the gradient through on its own."),
    Model("clip-after-rounding", _clip_after, "whether x is clipped were decided on the rounded value, not on x."),
    Model("halves-up", _half_up, "torch.round rounded every half up."),
    Model("ones-backward", _OnesBackward.apply,
          "the gradient were 1 inside [-2, 2] and 0 outside, whatever arrived from above."),
    Model("edges-clipped", _hardtanh, "x exactly at -2 or 2 were clipped too, and got no gradient."),
    Model("detached-result", _detached, "the whole result could be detached and x still get a gradient."),
    Model("no-clip", _unclipped,
          "the straight-through rounding needed no clip: neither its value nor its gradient were bounded at ±2."),
    Model("unbracketed-sum", _unbracketed,
          "adding a tensor to the level and then subtracting it again gave back the level exactly, in floating point."),
])


# --------------------------------------------------------------------------- detach-surrogate
def spike(x: torch.Tensor, beta: float) -> torch.Tensor:
    soft = torch.sigmoid(beta * x)
    return (x > 0).to(x.dtype) + (soft - soft.detach())


def _identity_slope(x: torch.Tensor, beta: float) -> torch.Tensor:
    return (x > 0).to(x.dtype) + (x - x.detach())


def _slope_without_beta(x: torch.Tensor, beta: float) -> torch.Tensor:
    soft = torch.sigmoid(beta * x)
    slope = (soft * (1 - soft)).detach()
    return (x > 0).to(x.dtype) + (x - x.detach()) * slope


def _soft_forward(x: torch.Tensor, beta: float) -> torch.Tensor:
    return torch.sigmoid(beta * x)


def _step_at_zero(x: torch.Tensor, beta: float) -> torch.Tensor:
    soft = torch.sigmoid(beta * x)
    return (x >= 0).to(x.dtype) + (soft - soft.detach())


def _no_gradient(x: torch.Tensor, beta: float) -> torch.Tensor:
    return (x > 0).to(x.dtype)


def _disconnected_step(x: torch.Tensor, beta: float) -> torch.Tensor:
    return (x > 0).to(x.dtype).requires_grad_()


def _slope_through_exp(x: torch.Tensor, beta: float) -> torch.Tensor:
    e = torch.exp(-beta * x)
    slope = (beta * e / (1 + e) ** 2).detach()
    return (x > 0).to(x.dtype) + (x - x.detach()) * slope


def _sigmoid_through_exp(x: torch.Tensor, beta: float) -> torch.Tensor:
    soft = 1 / (1 + torch.exp(-beta * x))
    return (x > 0).to(x.dtype) + (soft - soft.detach())


class _SlopeAlone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, beta):  # noqa: ANN001, ANN205 - torch's protocol
        ctx.save_for_backward(x)
        ctx.beta = beta
        return (x > 0).to(x.dtype)

    @staticmethod
    def backward(ctx, grad_output):  # noqa: ANN001, ANN205
        (x,) = ctx.saved_tensors
        soft = torch.sigmoid(ctx.beta * x)
        return ctx.beta * soft * (1 - soft), None


def _sigmoid_of_x(x: torch.Tensor, beta: float) -> torch.Tensor:
    soft = torch.sigmoid(x)
    return (x > 0).to(x.dtype) + (soft - soft.detach())


key("detach-surrogate", spike, models=[
    Model("identity-slope", _identity_slope,
          "the gradient passed straight through, as through the identity, rather than with the sigmoid's slope."),
    Model("slope-without-beta", _slope_without_beta,
          "the slope of sigmoid(beta * x) with respect to x were sigmoid's slope at beta * x, without the factor "
          "beta that the chain rule brings."),
    Model("sigmoid-forward", _soft_forward, "the forward pass could give the sigmoid itself rather than the step."),
    Model("step-at-zero", _step_at_zero, "the step were 1 at x = 0."),
    Model("comparison-carries-gradient", _no_gradient,
          "a result that autograd does not track would still give x a gradient (a comparison such as x > 0 "
          "carries none)."),
    Model("step-made-to-require-grad", _disconnected_step,
          "a step made to require grad with requires_grad_() were connected to x, so that x would get a gradient."),
    Model("slope-through-exp", _slope_through_exp,
          "exp(-beta * x) stayed finite for every x, so a slope written through it never became nan."),
    Model("beta-left-out", _sigmoid_of_x, "the surrogate were sigmoid(x), whatever beta."),
    Model("sigmoid-through-exp", _sigmoid_through_exp,
          "1 / (1 + exp(-beta * x)) kept a finite slope for every x, though exp(-beta * x) becomes inf."),
    Model("upstream-ignored", _SlopeAlone.apply, "the gradient were the slope alone, whatever arrived from above."),
])


# --------------------------------------------------------------------------- detach-selftest
def _q1() -> bool:
    x = torch.ones(3, requires_grad=True)
    before = x._version
    y = x.clone().detach()
    y.add_(1)
    return x._version != before


def _q2() -> float:
    x = torch.tensor(2.0, requires_grad=True)
    y = x**3
    (x * y.detach() + y).backward()
    return x.grad.item()


def _q3() -> bool:
    return torch.ones(3, requires_grad=True).detach().requires_grad_().is_leaf


def _q4() -> bool:
    with torch.inference_mode():
        b = torch.ones(3) * 2
        c = b.clone()
    w = torch.ones(3, requires_grad=True)
    try:
        (c * w).sum().backward()
    except RuntimeError:
        return False
    return True


def _q5() -> bool:
    seed_global_generator(0)
    layer = nn.Linear(3, 2)
    with torch.inference_mode():
        layer.weight.mul_(0.5)
    layer(torch.randn(4, 3)).sum().backward()
    return layer.weight.grad is None


def _encoder_head() -> tuple[nn.Linear, nn.Linear, torch.Tensor]:
    seed_global_generator(41)
    return nn.Linear(4, 3), nn.Linear(3, 1), torch.randn(8, 4)


def _q6_q7() -> tuple[bool, bool]:
    encoder, head, x = _encoder_head()
    loss = head(encoder(x)).sum().detach().requires_grad_()
    try:
        loss.backward()
    except RuntimeError:
        return True, head.weight.grad is None
    return False, head.weight.grad is None


def _q8() -> bool:
    return isinstance(nn.Parameter(torch.ones(3)).detach(), nn.Parameter)


def _selftest() -> dict[str, Any]:
    q6, q7 = _q6_q7()
    return {"q1": _q1(), "q2": _q2(), "q3": _q3(), "q4": _q4(), "q5": _q5(), "q6": q6, "q7": q7, "q8": _q8()}


key("detach-selftest", _selftest, values=True, models=[
    Model("detach-of-clone-shares", {"q1": True}, "detaching a clone gave an alias of the original x."),
    Model("no-cut", {"q2": 44.0}, "y.detach() still carried y's dependence on x into the gradient."),
    Model("cut-both", {"q2": 12.0}, "x * y.detach() gave x no gradient at all."),
    Model("cut-only", {"q2": 8.0},
          "the gradient reached x only through x * y.detach(), not through the y added to it."),
    Model("detached-is-not-a-leaf", {"q3": False}, "a tensor made by detach() kept a place in the graph."),
    Model("clone-rescues-inference", {"q4": True},
          "a clone of an inference tensor were a normal tensor wherever it was made."),
    Model("inference-write-poisons", {"q5": True},
          "writing a weight in place under inference_mode made it an inference tensor."),
    Model("detached-loss-raises", {"q6": True},
          "backward() on a detached loss raised, even after requires_grad_() made it a leaf."),
    Model("detach-rejoins", {"q7": False}, "requires_grad_() on a detached loss joined it back to the model's graph."),
    Model("parameter-detach", {"q8": True}, "detach() kept the Parameter class of its source."),
])

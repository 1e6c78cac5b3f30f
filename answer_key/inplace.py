"""The key of Chapter 2, "In-place operations and the version counter".

What an op saves is found by writing in place to its input, then to its output, and calling
backward; the self-test's answers are read off torch; the repairs' reference answers are written
as a learner would write them, and every model is an answer that makes one catalogued mistake.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
import torch.nn.functional as F  # noqa: N812 - torch's own spelling

from answer_key.keys import Model, key

VERSION_ERROR = "modified by an inplace operation"


# --------------------------------------------------------------------------- what ops save
def backward_survives(op: Callable[[torch.Tensor], torch.Tensor], write_input: bool) -> bool:
    """Run ``op`` on a non-leaf, write in place to its input or its output, then backward."""
    x = torch.tensor([0.3, 0.7, 0.9, 0.5], requires_grad=True)
    a = x * 1.0  # a non-leaf, so it may be written in place
    out = op(a)
    with torch.no_grad():
        (a if write_input else out).add_(0.01)
    try:
        out.sum().backward()
    except RuntimeError as err:
        if VERSION_ERROR in str(err):
            return False
        raise
    return True


def what_op_saves(op: Callable[[torch.Tensor], torch.Tensor]) -> str:
    """"input" or "output" when writing to it breaks ``op``'s backward, else "nothing"."""
    if not backward_survives(op, write_input=True):
        return "input"
    if not backward_survives(op, write_input=False):
        return "output"
    return "nothing"


SAVES_OPS: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
    "softplus": F.softplus,
    "sqrt": torch.sqrt,
    "softmax": lambda a: a.softmax(0),
    "cosh": torch.cosh,
    "cumsum": lambda a: a.cumsum(0),
    "erf": torch.erf,
    "relu6": F.relu6,
    "softmin": lambda a: F.softmin(a, 0),
    "atan": torch.atan,
    "flip": lambda a: a.flip(0),
}

key("inplace-saves", lambda: {k: what_op_saves(op) for k, op in SAVES_OPS.items()}, values=True, models=[
    Model("softplus-like-sigmoid", {"softplus": "output"}, "softplus kept its result for backward, as sigmoid does."),
    Model("sqrt-like-power", {"sqrt": "input"}, "a.sqrt() kept its input for backward, as a power does."),
    Model("softmax-keeps-input", {"softmax": "input", "softmin": "input"},
          "softmax and softmin kept the numbers they were given for backward."),
    Model("written-from-output", {"cosh": "output", "atan": "output"},
          "an op kept its result whenever its derivative could be written as a function of that result."),
    Model("moving-keeps-input", {"cumsum": "input", "flip": "input"},
          "an op that accumulates or reorders its input kept that input for backward."),
    Model("relu6-like-relu", {"relu6": "output"}, "relu6 kept its result for backward, as relu does."),
    Model("erf-like-exp", {"erf": "output"}, "erf kept its result for backward, as exp does."),
])

SAVES_MORE_OPS: dict[str, Callable[[torch.Tensor], torch.Tensor]] = {
    "rsqrt": torch.rsqrt,
    "tan": torch.tan,
    "expm1": torch.expm1,
    "log1p": torch.log1p,
    "abs": torch.abs,
    "leaky_relu": lambda a: F.leaky_relu(a, 0.1),
    "neg": torch.neg,
    "exp2": torch.exp2,
    "log_softmax": lambda a: a.log_softmax(0),
    "sinh": torch.sinh,
    "silu": F.silu,
    "sub_const": lambda a: a - 2,
}

key("inplace-saves-more", lambda: {k: what_op_saves(op) for k, op in SAVES_MORE_OPS.items()}, values=True, models=[
    Model("leaky-like-relu", {"leaky_relu": "output"}, "leaky_relu kept its result for backward, as relu does."),
    Model("sinh-from-output", {"sinh": "output"},
          "sinh kept its result, since its derivative could be computed from it."),
    Model("functions-keep-input", {"rsqrt": "input", "tan": "input", "expm1": "input"},
          "every function of one tensor kept its input for backward."),
    Model("log1p-like-exp", {"log1p": "output"}, "log1p kept its result for backward, as exp does."),
    Model("abs-from-output", {"abs": "output"}, "abs could recover what its backward needs from its result."),
    Model("neg-keeps-input", {"neg": "input"}, "negation kept its input for backward."),
    Model("log-softmax-keeps-input", {"log_softmax": "input"},
          "log_softmax kept the numbers it was given for backward."),
])


# ----------------------------------------------------------------------------- inplace-fix-gate
def fixed_gate(x: torch.Tensor) -> torch.Tensor:
    t = x.tanh()
    s = x.sigmoid() * t
    t = t - s
    return (s * t).sum()


def _gate_unrepaired(x: torch.Tensor) -> torch.Tensor:
    s = x.sigmoid()
    t = x.tanh()
    s.mul_(t)
    t.sub_(s)
    return (s * t).sum()


def _gate_cloned_once(x: torch.Tensor) -> torch.Tensor:
    s = x.sigmoid().clone()
    t = x.tanh().clone()
    s.mul_(t)
    t.sub_(s)
    return (s * t).sum()


def _gate_first_write_only(x: torch.Tensor) -> torch.Tensor:
    s = x.sigmoid() * x.tanh()
    t = x.tanh()
    t.sub_(s)
    return (s * t).sum()


def _gate_data(x: torch.Tensor) -> torch.Tensor:
    s = x.sigmoid()
    t = x.tanh()
    s.data.mul_(t)
    t.data.sub_(s)
    return (s * t).sum()


def _gate_detached(x: torch.Tensor) -> torch.Tensor:
    s = x.sigmoid().detach()
    t = x.tanh().detach()
    s.mul_(t)
    t.sub_(s)
    return (s * t).sum()


def _gate_old_s(x: torch.Tensor) -> torch.Tensor:
    s, t = x.sigmoid(), x.tanh()
    return ((s * t) * (t - s)).sum()


key("inplace-fix-gate", fixed_gate, models=[
    # The unrepaired gate is observed exactly as this one: the first stale tensor backward unpacks
    # is the t that s.mul_(t) saved for s's gradient, whether or not sigmoid's and tanh's results
    # were cloned.
    Model("mul-keeps-no-reference", _gate_cloned_once,
          "the product of s and t kept no reference to t, so writing t afterwards were harmless."),
    # Writes under no_grad are observed exactly as this one: backward stops at tanh's saved result.
    Model("tanh-write", _gate_first_write_only,
          "a write into tanh's result left what tanh saved for its backward usable."),
    Model("data-keeps-saved", _gate_data,
          "a write through .data left intact what sigmoid and tanh saved for their backward."),
    Model("detached-gate", _gate_detached,
          "the gate's two factors could be cut from the graph and x still get their gradient."),
    Model("old-sigmoid", _gate_old_s, "the second write read sigmoid(x) as it was before the first write."),
])


# ---------------------------------------------------------------------------- inplace-fix-alias
def fixed_energy(x: torch.Tensor) -> torch.Tensor:
    h = x.exp().clone()
    h[1:].add_(1)
    return (h * h).sum()


def _energy_unrepaired(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    tail = h[1:]
    tail.add_(1)
    return (h * h).sum()


def _energy_data(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    h.data[1:].add_(1)
    return (h * h).sum()


def _energy_copy_unused(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    tail = h[1:].clone()
    tail.add_(1)
    return (h * h).sum()


def _energy_everywhere(x: torch.Tensor) -> torch.Tensor:
    h = x.exp() + 1
    return (h * h).sum()


def _energy_elements(x: torch.Tensor) -> torch.Tensor:
    h = x.exp().flatten()
    h = torch.cat([h[:1], h[1:] + 1])
    return (h * h).sum()


def _energy_columns(x: torch.Tensor) -> torch.Tensor:
    h = x.exp().clone()
    h[..., 1:] += 1
    return (h * h).sum()


key("inplace-fix-alias", fixed_energy, models=[
    # The same write under no_grad, or through detach(), is observed exactly as this one.
    Model("unrepaired", _energy_unrepaired,
          "a write into h through a slice of it, recorded or not, left the result exp saved for its backward usable."),
    Model("data-keeps-saved", _energy_data, "a write through .data left intact the result exp saved for its backward."),
    Model("copy-of-the-slice", _energy_copy_unused,
          "h's elements after the first needed no shift (a shift written into a copy of the slice never reaches h)."),
    Model("shift-everything", _energy_everywhere, "the first element (or row) were shifted like the others."),
    Model("shift-elements", _energy_elements, "the shift of a matrix spared only its very first element."),
    Model("shift-columns", _energy_columns, "the shift of a matrix spared its first column."),
])


# ---------------------------------------------------------------------------- inplace-fix-share
def fixed_share(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    h = h / h.sum(-1, keepdim=True)
    first = h[..., :1]
    return (first * x).sum()


def _share_unrepaired(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    first = h[..., :1]
    h /= h.sum(-1, keepdim=True)
    return (first * x).sum()


def _share_stale_view(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    first = h[..., :1]
    h = h / h.sum(-1, keepdim=True)
    return (first * x).sum()


def _share_detached_sum(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    h = h / h.sum(-1, keepdim=True).detach()
    return (h[..., :1] * x).sum()


def _share_no_grad_copy(x: torch.Tensor) -> torch.Tensor:
    h = x.exp().clone()
    first = h[..., :1]
    with torch.no_grad():
        h /= h.sum(-1, keepdim=True)
    return (first * x).sum()


def _share_first_dimension(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    h = h / h.sum(0, keepdim=True)
    return (h[..., :1] * x).sum()


def _share_every_element(x: torch.Tensor) -> torch.Tensor:
    h = x.exp()
    h = h / h.sum()
    return (h[..., :1] * x).sum()


key("inplace-fix-share", fixed_share, models=[
    # The same write under no_grad, or through detach(), is observed exactly as this one.
    Model("unrepaired", _share_unrepaired,
          "a division written into h, recorded or not, left the result exp saved for its backward usable."),
    Model("stale-view", _share_stale_view,
          "first, taken before the division, would read the divided values once h names a new tensor."),
    # A division through .data is observed exactly as this one: exp's backward then reads the
    # divided values it saved, and the sum's own gradient is lost either way.
    Model("normaliser-outside-the-gradient", _share_detached_sum,
          "the sum that divides h could be left out of the gradient (cut from the graph, or divided through "
          ".data) and x still get its whole gradient."),
    Model("no-grad-division", _share_no_grad_copy,
          "a division made under torch.no_grad(), on a copy so that backward runs, still reached the gradient."),
    Model("every-element", _share_every_element,
          "h were divided by the sum of every element rather than by the sum along its last dimension."),
    Model("first-dimension", _share_first_dimension,
          "h were divided by its sums along the first dimension rather than the last."),
])


# ------------------------------------------------------------------------- inplace-fix-residual
def fixed_residual(x: torch.Tensor) -> torch.Tensor:
    h = x.sigmoid() * 2 - 1
    h.relu_()
    h = h + x
    return (h * h).sum()


def _residual_unrepaired(x: torch.Tensor) -> torch.Tensor:
    h = x.sigmoid()
    h.mul_(2).sub_(1)
    h.relu_()
    h += x
    return (h * h).sum()


def _residual_rescale_in_place(x: torch.Tensor) -> torch.Tensor:
    h = x.sigmoid()
    h.mul_(2).sub_(1)
    h = h.relu() + x
    return (h * h).sum()


def _residual_detached_branch(x: torch.Tensor) -> torch.Tensor:
    h = x.detach().sigmoid()
    h.mul_(2).sub_(1)
    h.relu_()
    h = h + x
    return (h * h).sum()


def _residual_data_rescale(x: torch.Tensor) -> torch.Tensor:
    h = x.sigmoid()
    h.data.mul_(2).sub_(1)
    h = h.relu() + x
    return (h * h).sum()


def _residual_relu_after_skip(x: torch.Tensor) -> torch.Tensor:
    h = (x.sigmoid() * 2 - 1 + x).relu()
    return (h * h).sum()


def _residual_detached_skip(x: torch.Tensor) -> torch.Tensor:
    h = (x.sigmoid() * 2 - 1).relu() + x.detach()
    return (h * h).sum()


def _residual_unrectified(x: torch.Tensor) -> torch.Tensor:
    h = x.sigmoid().relu() * 2 - 1 + x
    return (h * h).sum()


key("inplace-fix-residual", fixed_residual, models=[
    # A report names the saved tensor a write reached by the operation that made it, not by its
    # version counts: the same writes under no_grad or through detach(), a repair of one write
    # only, in place or not, are observed exactly as one of these two.
    Model("relu-output-rewritten", _residual_unrepaired,
          "adding the skip into the result of the in-place ReLU, recorded or not, left what the ReLU saved for "
          "its backward (its own output) usable."),
    Model("sigmoid-output-rewritten", _residual_rescale_in_place,
          "rescaling sigmoid's result in place, recorded or not, left what sigmoid saved for its backward (its "
          "output) usable."),
    Model("data-keeps-saved", _residual_data_rescale,
          "a rescale written through .data left intact the result sigmoid saved for its backward."),
    Model("relu-after-skip", _residual_relu_after_skip,
          "the ReLU rectified the sum with the skip rather than the rescaled sigmoid before it."),
    Model("skip-outside-the-gradient", _residual_detached_skip,
          "the skip connection's x could be cut from the graph and x still get its whole gradient."),
    Model("branch-outside-the-gradient", _residual_detached_branch,
          "the rescaled, rectified sigmoid could be cut from the graph and x still get its whole gradient."),
    Model("relu-without-effect", _residual_unrectified,
          "the ReLU changed nothing (as when it rectifies sigmoid's result, never negative, before the rescale)."),
])


# --------------------------------------------------------------------------- inplace-selftest
def _q1() -> int:
    a = torch.zeros(4)
    v = a.view(2, 2)
    v[0].add_(1)
    v[1].add_(1)
    d = a.detach()
    d.mul_(2)
    d[0] = 5
    d.sub_(1)
    torch.sin(a, out=a)
    return a._version


def _q2() -> int:
    a = torch.zeros(3)
    b = a.clone()
    b.add_(1)
    a += b
    a.copy_(b)
    return b._version


def _backward_succeeds(run: Callable[[], None]) -> bool:
    try:
        run()
    except RuntimeError as err:
        if VERSION_ERROR in str(err):
            return False
        raise
    return True


def _q3() -> bool:
    def run() -> None:
        x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
        y = x.exp()
        z = y * 3
        with torch.no_grad():
            z.add_(1)
        z.sum().backward()

    return _backward_succeeds(run)


def _q4() -> int:
    x = torch.ones(4, requires_grad=True)
    y = x * 1
    y.data.add_(1)
    y.detach()[0] = 5
    y.add_(1)
    return y._version


def _q5() -> bool:
    def run() -> None:
        a = torch.tensor([0.5, -1.0, 2.0], requires_grad=True) * 1
        y = (a * a.detach()).sum()
        with torch.no_grad():
            a.add_(1)
        y.backward()

    return _backward_succeeds(run)


def _selftest() -> dict[str, Any]:
    return {"q1": _q1(), "q2": _q2(), "q3": _q3(), "q4": _q4(), "q5": _q5()}


key("inplace-selftest", _selftest, values=True, models=[
    Model("detach-own-counter", {"q1": 3, "q4": 1},
          "detach() gave a tensor with a version counter of its own."),
    Model("out-not-counted", {"q1": 5}, "a write through out= did not count as an in-place write."),
    Model("reads-count", {"q2": 3}, "reading a tensor (b in a += b and in a.copy_(b)) counted as a write to it."),
    Model("copy-writes-source", {"q2": 2}, "a.copy_(b) wrote to its source b as well as to a."),
    Model("written-result-breaks", {"q3": False}, "any write to a result made the backward through it fail."),
    Model("data-counted", {"q4": 3}, "a write through .data bumped the version counter too."),
    Model("detached-factor-safe", {"q5": True}, "a factor passed through detach() were safe from the version check."),
])

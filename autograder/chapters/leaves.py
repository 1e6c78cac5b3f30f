"""Chapter 4, "Leaves, ``.grad`` and accumulation": how its exercises are checked.

Every answer of this chapter acts on autograd state (``.grad``, parameters), so every case has a
driver: it builds fresh grader-owned tensors and modules from the case's seed, lets the answer act
on them, and reports as plain data what it finds afterwards — values, ``.grad``, version counters,
which tensors the grader-owned model was called on, and the events autograd itself produces
(a gradient accumulated into a leaf's ``.grad``, a saved tensor read by a backward pass). The SGD
step is called where torch's optimizers refuse to run, so that it is written by hand. The keys
(what each report should hold, and what each catalogued mistake makes it hold) are in
``answer_key.leaves``; nothing here knows them.

Defined in Chapter 4, "Leaves, ``.grad`` and accumulation" (notebooks/leaves/leaves.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn
from torch.optim import sgd as sgd_kernels

from autograder.engine import facts
from autograder.engine.cases import exercise, selftest
from autograder.engine.codec import type_name
from autograder.engine.draw import Draw, seed_global_generator

__all__ = ["Net", "Regression", "accumulation_witness", "drive_accumulate", "drive_hidden_grad", "drive_momentum",
           "drive_recurrent_grads", "drive_sgd"]


# ------------------------------------------------------------------------------ evidence
def accumulation_witness(t: torch.Tensor, seen: Callable[[torch.Tensor], None]) -> Any:
    """Call ``seen(t)`` each time autograd itself accumulates a gradient into ``t.grad``.

    The hook runs after ``AccumulateGrad`` has written ``t.grad``; it counts only when the node that
    is running is that leaf's own ``AccumulateGrad`` (a hook called by hand, outside a backward
    pass, sees no running node). The node is read, and ``seen`` called, through
    :mod:`autograder.engine.facts`, as every fact these drivers report. Returns the hook's handle.
    """

    def hook(leaf: torch.Tensor) -> None:
        with facts.untouched():
            if facts.accumulates_into(facts.current_node()) is leaf:
                seen(leaf)

    with facts.untouched():
        return facts.register_post_accumulate_grad_hook(t, hook)


def _copy(t: torch.Tensor) -> torch.Tensor:
    """A grader-made copy of a tensor's values."""
    with facts.untouched():
        return facts.clone(facts.detach(t))


def _reported(value: Any) -> Any:
    """What an answer returned, as plain data: a tensor's values, or the kind of thing it was."""
    if facts.is_tensor(value):
        return _copy(value)
    if value is None:
        return None
    if type(value) in (list, tuple) and value and all(facts.is_tensor(v) for v in value):
        return f"a {type(value).__name__} of {len(value)} tensors"
    return f"a {type_name(value)}"


def _fresh_leaf(t: torch.Tensor) -> torch.Tensor:
    """A grader-owned copy of a leaf: same values, type (a Parameter stays one), requires_grad and .grad."""
    with facts.untouched():
        if facts.is_parameter(t):
            copy = facts.parameter(facts.clone(facts.detach(t)), requires_grad=facts.requires_grad(t))
        else:
            copy = facts.requires_grad_(facts.clone(facts.detach(t)), facts.requires_grad(t))
        grad = facts.grad(t)
        if grad is not None:
            facts.set_grad(copy, facts.clone(facts.detach(grad)))
    return copy


def _same_leaf(a: torch.Tensor, b: torch.Tensor) -> bool:
    """``a`` still holds what the copy ``b`` was made with: values, requires_grad and .grad."""
    with facts.untouched():
        if facts.requires_grad(a) != facts.requires_grad(b) or not facts.equal(facts.detach(a), facts.detach(b)):
            return False
        grad, kept = facts.grad(a), facts.grad(b)
        if (grad is None) != (kept is None):
            return False
        return grad is None or (facts.is_tensor(grad) and bool(facts.equal(grad, kept)))


# --------------------------------------------------------------------------- leaves-sgd-step
class Regression:
    """A squared-error loss of a list of parameters on drawn data: ``loss(params)``.

    Attributes:
        kind: ``linear`` (``x @ w + b``), ``mlp`` (``tanh(x @ w1 + b1) @ w2``), ``unused`` (``x @ w``,
            with a second parameter the loss never reads), ``module`` (an ``nn.Linear``'s
            parameters, ``F.linear(x, weight, bias)``) or ``late`` (``x @ w``, then ``x @ w + x @ v``
            from the second step on: ``v``, first in the list, has no gradient at the first step).
    """

    def __init__(self, kind: str, x: torch.Tensor, y: torch.Tensor) -> None:
        self.kind, self.x, self.y = kind, x, y

    def __call__(self, params: Sequence[torch.Tensor], step: int = 0) -> torch.Tensor:
        x, y = self.x, self.y
        if self.kind == "late":
            out = x @ params[1] + (x @ params[0] if step else 0)
        elif self.kind == "linear":
            out = x @ params[0] + params[1]
        elif self.kind == "mlp":
            out = torch.tanh(x @ params[0] + params[1]) @ params[2]
        elif self.kind == "unused":
            out = x @ params[0]
        else:
            out = F.linear(x, params[0], params[1])
        return F.mse_loss(out, y)

    def __repr__(self) -> str:
        what = {"linear": "x @ w + b", "mlp": "tanh(x @ w1 + b1) @ w2", "unused": "x @ w (the second unused)",
                "module": "F.linear(x, weight, bias)",
                "late": "x @ w, and x @ w + x @ v from the second step on (v first)"}[self.kind]
        return f"mse of {what} on {len(self.x)} samples"


def _regression_data(draw: Draw, d: int, k: int) -> tuple[torch.Tensor, torch.Tensor]:
    n = draw.sized(2, 12)
    x = draw.randn(n, d)
    return x, x @ draw.randn(d, k) + 0.1 * draw.randn(n, k)


def sgd_problem(kind: str, steps: tuple[int, int] = (1, 4)) -> Callable[[Draw], tuple]:
    """Inputs ``(params, loss, lr, steps)``: fresh leaves, a loss over them, a rate and a step count."""

    def recipe(draw: Draw) -> tuple:
        d, k = draw.sized(1, 4), draw.sized(1, 3)
        x, y = _regression_data(draw, d, k)
        if kind == "linear":
            params = [draw.randn(d, k), draw.randn(k)]
        elif kind == "mlp":
            hidden = draw.sized(2, 6)
            params = [draw.randn(d, hidden), draw.randn(hidden), draw.randn(hidden, k)]
        elif kind == "unused":
            params = [draw.randn(d, k), draw.randn(draw.sized(1, 3))]
        elif kind == "late":
            params = [draw.randn(d, k), draw.randn(d, k)]
        else:
            params = [nn.Parameter(draw.randn(k, d)), nn.Parameter(draw.randn(k))]
        params = [p if isinstance(p, nn.Parameter) else p.requires_grad_() for p in params]
        lr = draw.choice([0.05, 0.1, 0.2, 0.3])
        return params, Regression(kind, x, y), lr, draw.integer(*steps)

    return recipe


def _show_sgd(inputs: tuple) -> str:
    params, loss, lr, steps = inputs
    kinds = "nn.Parameters" if isinstance(params[0], nn.Parameter) else "tensors"
    shapes = ", ".join(str(tuple(p.shape)) for p in params)
    return f"{kinds} of shapes {shapes}, lr={lr}, {steps} step{'s' * (steps > 1)}, loss {loss!r}"


# "By hand": torch's optimizers take the step the task asks for (torch.optim.SGD, or its functional
# form), so the answer is called where they cannot run: the code of Optimizer.__init__, which every
# optimizer runs when it is made, and of the SGD kernels, which every SGD step runs, is swapped for
# the length of the call for code that refuses. A name the learner imported before the call is the
# same function object, so it refuses too. The grader's own step (facts.SGD) is not torch.optim's.
_OPTIMIZERS = (torch.optim.Optimizer.__init__, sgd_kernels._single_tensor_sgd, sgd_kernels._multi_tensor_sgd,
               sgd_kernels._fused_sgd)


def _refused(*args: Any, **kwargs: Any) -> None:
    raise RuntimeError("torch.optim's optimizers are refused here: the step is yours to write")


@contextmanager
def _without_optimizers() -> Iterator[None]:
    kept = [f.__code__ for f in _OPTIMIZERS]
    for f in _OPTIMIZERS:
        f.__code__ = _refused.__code__
    try:
        yield
    finally:
        for f, code in zip(_OPTIMIZERS, kept, strict=True):
            f.__code__ = code


def drive_sgd(step: Callable, params: list[torch.Tensor], loss: Regression, lr: float, steps: int) -> dict[str, Any]:
    """Train grader-owned copies of ``params``: before each call of ``step(params, lr)`` the loss is
    computed from those very tensors, as a model holds them, and backpropagated. Reports, after
    each step, the tensors' values and whether each one that had a gradient was written in place
    so that autograd saw the write (its version counter moved: a write under ``torch.no_grad()``
    moves it, a write through ``.data`` does not); and at the end whether the list still holds the
    same tensors, still leaves that require grad, and whether every step left ``.grad`` cleared.
    ``step`` runs without torch's optimizers (see ``_OPTIMIZERS``). The yes-or-no facts come first
    in the report, the values last."""
    originals = [_fresh_leaf(p) for p in params]
    given = list(originals)
    values, written, cleared = [], [], True
    for _ in range(steps):
        with facts.untouched():
            facts.backward(loss(originals))
            had_grad = [facts.grad(p) is not None for p in originals]
            versions = [facts.version(p) for p in originals]
        with _without_optimizers():
            step(given, lr)
        with facts.untouched():
            values.append([facts.clone(facts.detach(p)) for p in originals])
            written.append([facts.version(p) > v if had else None
                            for p, v, had in zip(originals, versions, had_grad, strict=True)])
            cleared = cleared and all((grad := facts.grad(p)) is None or not bool(facts.any_(grad))
                                      for p in originals)
    with facts.untouched():
        leaves = all(facts.is_leaf(p) and facts.requires_grad(p) for p in originals)
    # The yes-or-no facts come first: a message shows the entries that differ in this order, and a
    # long list of values would otherwise crowd out the fact that tells the mistake.
    return {
        ".grad cleared after each step": cleared,
        "the list holds the same tensors": all(a is b for a, b in zip(given, originals, strict=True)),
        "still leaves that require grad": leaves,
        "written where autograd sees it": written,
        "values after each step": values,
    }


sgd = exercise("leaves-sgd-step", "sgd_step", call=drive_sgd, returns="observation", agree="loose", show=_show_sgd)
SGD_CASES: dict[str, tuple[str, Callable[[Draw], tuple], bool, int]] = {
    # name: (probe, recipe (also the search's), hidden, points)
    "linear": ("sgd_step(params, lr)", sgd_problem("linear", (2, 4)), False, 1),
    "one-step": ("sgd_step(params, lr)", sgd_problem("module", (1, 1)), False, 1),
    "mlp": ("sgd_step(params, lr)", sgd_problem("mlp", (3, 6)), True, 1),
    "unused-parameter": ("sgd_step(params, lr)", sgd_problem("unused", (2, 4)), True, 1),
    "module-parameters": ("sgd_step(params, lr)", sgd_problem("module", (2, 5)), True, 1),
}
for _name, (_probe, _recipe, _hidden, _points) in SGD_CASES.items():
    sgd.case(_name, _probe, _recipe, hidden=_hidden, points=_points, search=_recipe, tries=4)


# --------------------------------------------------------------------------- leaves-accumulate
class Recorded(nn.Module):
    """The network handed to ``accumulated_grads``: it notes how many rows each input it is called on has."""

    def __init__(self, body: nn.Module) -> None:
        super().__init__()
        self.body = body
        self.rows: list[int] = []

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        with facts.untouched():
            self.rows.append(int(facts.shape(x)[0] if isinstance(x, torch.Tensor) else x.shape[0]))
        return self.body(x)


class Net:
    """A seeded network to build afresh for every call: a regressor or a classifier."""

    def __init__(self, kind: str, width: int, outputs: int, seed: int) -> None:
        self.kind, self.width, self.outputs, self.seed = kind, width, outputs, seed

    def build(self) -> Recorded:
        with torch.random.fork_rng(devices=[]):
            seed_global_generator(self.seed)
            if self.kind == "linear":
                body: nn.Module = nn.Linear(self.width, self.outputs)
            else:
                body = nn.Sequential(nn.Linear(self.width, 5), nn.Tanh(), nn.Linear(5, self.outputs))
        return Recorded(body)

    def __repr__(self) -> str:
        if self.kind == "linear":
            return f"nn.Linear({self.width}, {self.outputs})"
        return f"an MLP {self.width} → 5 → {self.outputs}"


def accumulation_problem(kind: str, loss: str, stale: bool, count: tuple[int, int] = (2, 4)) -> Callable[[Draw], tuple]:
    """Inputs ``(net, loss_fn, batches, stale)``: micro-batches of uneven sizes (at least two sizes)."""

    def recipe(draw: Draw) -> tuple:
        width = draw.sized(1, 4)
        outputs = draw.integer(2, 3) if loss == "cross-entropy" else draw.sized(1, 2)
        sizes = [draw.sized(1, 7) for _ in range(draw.integer(*count))]
        if len(sizes) > 1 and len(set(sizes)) == 1:
            sizes[-1] += 1
        batches = []
        for n in sizes:
            x = draw.randn(n, width)
            if loss == "cross-entropy":
                y = torch.tensor([draw.integer(0, outputs - 1) for _ in range(n)])
            else:
                y = draw.randn(n, outputs)
            batches.append((x, y))
        net = Net(kind, width, outputs, draw.integer(0, 10_000))
        loss_fn = {"mse": nn.MSELoss(), "functional-mse": F.mse_loss, "cross-entropy": nn.CrossEntropyLoss()}[loss]
        return net, loss_fn, batches, stale

    return recipe


def _show_accumulate(inputs: tuple) -> str:
    net, loss_fn, batches, stale = inputs
    loss = loss_fn.__name__ if callable(loss_fn) and not isinstance(loss_fn, nn.Module) else f"{loss_fn!r}"
    sizes = ", ".join(str(len(x)) for x, _ in batches)
    return f"{net!r}, {loss}, micro-batches of {sizes}" + (", .grad already 0.5" if stale else "")


def drive_accumulate(answer: Callable, net: Net, loss_fn: Callable, batches: list, stale: bool) -> dict[str, Any]:
    """Build the network afresh (with ``.grad`` already 0.5 when ``stale``), call the answer on it
    and on copies of the micro-batches. Reports the gradients returned, the row counts of the inputs
    the network was called on (sorted), how many times autograd accumulated into each parameter's
    ``.grad``, and whether the parameters' values and the micro-batches were left as they were."""
    model = net.build()
    rows = model.rows  # the driver's own list: the answer may rebind the model's attribute, not this
    with facts.untouched():
        params = list(facts.parameters(model))
        if stale:
            for p in params:
                facts.set_grad(p, facts.full_like(p, 0.5))
    counts = [0] * len(params)
    handles = [accumulation_witness(p, lambda _t, i=i: counts.__setitem__(i, counts[i] + 1))
               for i, p in enumerate(params)]
    with facts.untouched():
        before = [facts.clone(facts.detach(p)) for p in params]
        given = [(facts.clone(x), facts.clone(y)) for x, y in batches]
    found = answer(model, loss_fn, given)
    for handle in handles:
        handle.remove()
    if type(found) is list and all(facts.is_tensor(g) for g in found):
        gradients: Any = [_copy(g) for g in found]
    else:
        gradients = _reported(found)
    with facts.untouched():
        untouched = all(facts.equal(facts.detach(p), b) for p, b in zip(params, before, strict=True)) and all(
            facts.equal(x, bx) and facts.equal(y, by) for (x, y), (bx, by) in zip(given, batches, strict=True))
    return {
        "rows of each forward": sorted(rows),
        "accumulations into each .grad": counts,
        "parameters and batches left alone": untouched,
        "gradients": gradients,
    }


accumulate = exercise("leaves-accumulate", "accumulated_grads", call=drive_accumulate, returns="observation",
                      agree="loose", show=_show_accumulate)
ACCUMULATE_CASES: dict[str, tuple[str, Callable[[Draw], tuple], bool, int]] = {
    "uneven": ("accumulated_grads(model, loss_fn, batches)",
               accumulation_problem("linear", "mse", stale=False), False, 1),
    "stale-grads": ("accumulated_grads(model, loss_fn, batches)",
                    accumulation_problem("linear", "mse", stale=True), False, 1),
    "two-batches": ("accumulated_grads(model, loss_fn, batches)",
                    accumulation_problem("linear", "functional-mse", stale=False, count=(2, 2)), False, 1),
    "classifier": ("accumulated_grads(model, loss_fn, batches)",
                   accumulation_problem("mlp", "cross-entropy", stale=False), True, 1),
    "classifier-stale": ("accumulated_grads(model, loss_fn, batches)",
                         accumulation_problem("mlp", "cross-entropy", stale=True), True, 1),
    "many-batches": ("accumulated_grads(model, loss_fn, batches)",
                     accumulation_problem("mlp", "mse", stale=True, count=(5, 7)), True, 1),
    "one-batch": ("accumulated_grads(model, loss_fn, batches)",
                  accumulation_problem("linear", "functional-mse", stale=False, count=(1, 1)), True, 1),
}
# A single micro-batch cannot tell accumulation from one pass over the whole batch: that check also
# runs on the same network with several micro-batches.
for _name, (_probe, _recipe, _hidden, _points) in ACCUMULATE_CASES.items():
    _anchors = (accumulation_problem("linear", "functional-mse", stale=False, count=(3, 3)),) \
        if _name == "one-batch" else ()
    accumulate.case(_name, _probe, _recipe, hidden=_hidden, points=_points, search=_recipe, tries=4,
                    anchors=_anchors)


# --------------------------------------------------------------------------- leaves-hidden-grad
def hidden_problem(x_grad: bool, w_grad: bool, old_grad: bool = False) -> Callable[[Draw], tuple]:
    """Inputs ``(x, w)``: drawn leaves, each requiring grad or not; ``w`` may carry an old ``.grad``."""

    def recipe(draw: Draw) -> tuple:
        n, d, k = draw.sized(1, 5), draw.sized(1, 4), draw.sized(1, 4)
        x, w = draw.randn(n, d).requires_grad_(x_grad), draw.randn(d, k).requires_grad_(w_grad)
        if old_grad:
            w.grad = draw.randn(d, k)
        return x, w

    return recipe


def _described(name: str, t: torch.Tensor) -> str:
    return (f"{name} of shape {tuple(t.shape)}" + (" requiring grad" if t.requires_grad else "")
            + (" with a .grad already" if t.grad is not None else ""))


def _show_pair(inputs: tuple) -> str:
    x, w = inputs
    return f"{_described('x', x)}, {_described('w', w)}"


def drive_hidden_grad(answer: Callable, x: torch.Tensor, w: torch.Tensor, *more: Any) -> dict[str, Any]:
    """Call the answer on grader-owned copies of ``x`` and ``w`` (and the ``more`` arguments), inside
    saved-tensor hooks of the grader's. Reports what it returned (a tensor, or a list of them), the
    distinct tensors that ``TanhBackward0`` (tanh's node in a backward pass) read back from what its
    forward saved during the call — only a backward pass over the forward's graph reads them — what
    it returns when those reads are changed (a value the key computes the same way: only a gradient
    that backward pass computed moves with them), and whether ``x`` and ``w`` were left as they were
    (values, ``requires_grad`` and ``.grad``)."""
    mine = [_fresh_leaf(x), _fresh_leaf(w)]
    read: list[torch.Tensor] = []

    def unpack(saved: torch.Tensor) -> torch.Tensor:
        with facts.untouched():
            if _read_by_tanh() and not any(facts.equal(saved, r) for r in read):
                read.append(facts.clone(facts.detach(saved)))
        return saved

    with facts.saved_tensors_hooks(lambda t: t, unpack):
        found = answer(*mine, *more)
    left_as_they_were = all(_same_leaf(a, b) for a, b in zip(mine, (x, w), strict=True))
    return {
        "gradient": _gradients(found),
        "what tanh's backward read": read,
        "gradient when what tanh's backward reads is halved": _with_tanh_reads_halved(answer, x, w, more),
        "x and w left as they were": left_as_they_were,
    }


def _read_by_tanh() -> bool:
    node = facts.current_node()
    return facts.is_torch_node(node) and type(node).__name__ == "TanhBackward0"


def _gradients(found: Any) -> Any:
    return [_reported(v) for v in found] if type(found) is list else _reported(found)


def _with_tanh_reads_halved(answer: Callable, x: torch.Tensor, w: torch.Tensor, more: tuple) -> Any:
    """What the answer returns when called again on fresh copies, with every value tanh's backward
    reads back halved: a gradient that backward pass computed moves; one written out by hand beside
    it (a backward pass run and its result left unused) comes back the same."""

    def unpack(saved: torch.Tensor) -> torch.Tensor:
        with facts.untouched():
            if not _read_by_tanh():
                return saved
            halved = facts.clone(facts.detach(saved))
            facts.mul_(halved, 0.5)
            return halved

    with facts.saved_tensors_hooks(lambda t: t, unpack):
        return _gradients(answer(_fresh_leaf(x), _fresh_leaf(w), *more))


hidden_grad = exercise("leaves-hidden-grad", "hidden_grad", call=drive_hidden_grad, returns="observation",
                       agree="close", show=_show_pair)
HIDDEN_CASES: dict[str, tuple[str, Callable[[Draw], tuple], bool, int]] = {
    "both-require-grad": ("hidden_grad(x, w)", hidden_problem(True, True), False, 1),
    "neither-requires-grad": ("hidden_grad(x, w)", hidden_problem(False, False), False, 1),
    "only-w": ("hidden_grad(x, w)", hidden_problem(False, True), True, 1),
    "only-x": ("hidden_grad(x, w)", hidden_problem(True, False), True, 1),
    "neither-again": ("hidden_grad(x, w)", hidden_problem(False, False), True, 1),
    "w-has-old-grad": ("hidden_grad(x, w)",
                       hidden_problem(False, True, old_grad=True), True, 1),
}
for _name, (_probe, _recipe, _hidden, _points) in HIDDEN_CASES.items():
    hidden_grad.case(_name, _probe, _recipe, hidden=_hidden, points=_points, search=_recipe, tries=3)


# --------------------------------------------------------------------------- leaves-momentum-step
#: What a family of momentum_step's checks reports: the values the steps reach (with the tensors
#: themselves), the bookkeeping (.grad left as backward left it, writes autograd sees), or the values
#: of the tensors that never had a gradient. An answer wrong in one of them loses only its families.
WATCHED = ("values", "bookkeeping", "gradless")


def momentum_problem(kind: str, steps: tuple[int, int], decay: bool, zeroing: str,
                     watch: str = "values") -> Callable[[Draw], tuple]:
    """Inputs ``(params, loss, lr, momentum, weight_decay, steps, zeroing, watch)``: fresh leaves and a
    loss over them (as for ``sgd_step``), SGD's three numbers, a step count, how the training loop
    clears ``.grad`` between steps (``"to None"`` or ``"in place"``, ``zero_grad``'s two ways) and
    what the check reports (one of ``WATCHED``)."""
    drawn = sgd_problem(kind, steps)

    def recipe(draw: Draw) -> tuple:
        params, loss, lr, count = drawn(draw)
        momentum = draw.choice([0.5, 0.8, 0.9, 0.95])
        weight_decay = draw.choice([0.01, 0.05, 0.1, 0.3]) if decay else 0.0
        return params, loss, lr, momentum, weight_decay, count, zeroing, watch

    return recipe


def _show_momentum(inputs: tuple) -> str:
    params, loss, lr, momentum, weight_decay, steps, zeroing, _watch = inputs
    return (f"{_show_sgd((params, loss, lr, steps))}, momentum={momentum}, weight_decay={weight_decay}, "
            f".grad cleared {zeroing} between steps")


def drive_momentum(step: Callable, params: list[torch.Tensor], loss: Regression, lr: float, momentum: float,
                   weight_decay: float, steps: int, zeroing: str, watch: str) -> dict[str, Any]:
    """Train grader-owned copies of ``params`` as a training loop does: before each call of
    ``step(params, buffers, lr, momentum, weight_decay)`` (with one dict ``buffers`` kept from call to
    call) the loss is computed from those very tensors and backpropagated, and between calls each
    ``.grad`` is cleared the case's way (set to None, or zeroed in place so that the next backward
    adds into the same tensor). Reports what ``watch`` names (see ``WATCHED``). ``step`` runs
    without torch's optimizers (see ``_OPTIMIZERS``)."""
    originals = [_fresh_leaf(p) for p in params]
    given, buffers = list(originals), {}
    values, written, grads, gradless = [], [], [], [True] * len(originals)
    for number in range(steps):
        with facts.untouched():
            for p in originals if number else ():
                grad = facts.grad(p)
                if grad is not None and zeroing == "in place":
                    facts.zero_(grad)
                elif grad is not None:
                    facts.set_grad(p, None)
            facts.backward(loss(originals, number))
            left = [None if (grad := facts.grad(p)) is None else facts.clone(grad) for p in originals]
            gradless = [never and kept is None for never, kept in zip(gradless, left, strict=True)]
            versions = [facts.version(p) for p in originals]
        with _without_optimizers():
            step(given, buffers, lr, momentum, weight_decay)
        with facts.untouched():
            values.append([facts.clone(facts.detach(p)) for p in originals])
            written.append([facts.version(p) > v if kept is not None else None
                            for p, v, kept in zip(originals, versions, left, strict=True)])
            grads.append([_what_grad_holds(facts.grad(p), kept) for p, kept in zip(originals, left, strict=True)])
    if watch == "bookkeeping":
        return {".grad after each call": grads, "written where autograd sees it": written}
    if watch == "gradless":
        return {"tensors without a gradient, after each step": [
            [value for value, never in zip(row, gradless, strict=True) if never] for row in values]}
    with facts.untouched():
        leaves = all(facts.is_leaf(p) and facts.requires_grad(p) for p in originals)
    return {
        "the list holds the same tensors": all(a is b for a, b in zip(given, originals, strict=True)),
        "still leaves that require grad": leaves,
        "values after each step": values,
    }


def _what_grad_holds(grad: torch.Tensor | None, kept: torch.Tensor | None) -> str:
    """What a call left in ``.grad``, against ``kept``, what backward had left there."""
    if grad is None:
        return "as backward left it" if kept is None else "set to None"
    if kept is not None and bool(facts.equal(grad, kept)):
        return "as backward left it"
    return "other values"


momentum_sgd = exercise("leaves-momentum-step", "momentum_step", call=drive_momentum, returns="observation",
                        agree="loose", show=_show_momentum)
MOMENTUM_CASES: dict[str, tuple[Callable[[Draw], tuple], bool, int]] = {
    # name: (recipe (also the search's), hidden, points). Weight decay, .grad zeroed in place between
    # steps, a tensor without a gradient and the bookkeeping each have families of their own.
    "momentum": (momentum_problem("linear", (2, 4), decay=False, zeroing="to None"), False, 1),
    "zeroed-in-place": (momentum_problem("linear", (2, 4), decay=False, zeroing="in place"), False, 1),
    "weight-decay": (momentum_problem("mlp", (3, 5), decay=True, zeroing="to None"), True, 2),
    "zeroed-in-place-mlp": (momentum_problem("mlp", (3, 5), decay=False, zeroing="in place"), True, 2),
    "gradient-from-the-second-step": (momentum_problem("late", (3, 5), decay=False, zeroing="to None"), True, 1),
    "without-a-gradient": (momentum_problem("unused", (2, 4), decay=True, zeroing="to None", watch="gradless"),
                           True, 1),
    "bookkeeping": (momentum_problem("module", (2, 5), decay=True, zeroing="in place", watch="bookkeeping"),
                    True, 2),
}
for _name, (_recipe, _hidden, _points) in MOMENTUM_CASES.items():
    # Two searched inputs: every draw of a family shows its mistake, and each input costs the
    # reference's and every model's run of several steps.
    momentum_sgd.case(_name, "momentum_step(params, buffers, lr, momentum, weight_decay)", _recipe, hidden=_hidden,
                      points=_points, search=_recipe, tries=2)


# ---------------------------------------------------------------------- leaves-recurrent-grads
def recurrence(h0_grad: bool, w_grad: bool, steps: tuple[int, int] = (2, 4),
               old_grad: bool = False) -> Callable[[Draw], tuple]:
    """Inputs ``(h0, w, steps)``: a drawn first state and square weight, each requiring grad or
    not (``w`` may carry an old ``.grad``), and a drawn number of steps. The weight is scaled so
    that the states neither saturate nor vanish over the steps."""

    def recipe(draw: Draw) -> tuple:
        n, d = draw.sized(2, 4), draw.sized(2, 4)  # a 1 x 1 weight would hide h @ w.T, a row a mean
        h0 = draw.randn(n, d).requires_grad_(h0_grad)
        w = (draw.randn(d, d) / d**0.5).requires_grad_(w_grad)
        if old_grad:
            w.grad = draw.randn(d, d)
        return h0, w, draw.integer(*steps)

    return recipe


def _show_recurrence(inputs: tuple) -> str:
    h0, w, steps = inputs
    return f"{_described('h0', h0)}, {_described('w', w)}, steps={steps}"


def drive_recurrent_grads(answer: Callable, h0: torch.Tensor, w: torch.Tensor, steps: int) -> dict[str, Any]:
    """:func:`drive_hidden_grad` for a recurrence. A backward pass from the loss to h_1 runs tanh's
    backward of h_2 … h_T, each reading back its own output, and may run h_1's too (to reach h0) or
    not (``torch.autograd.grad`` stops at the states): so what is compared is whether the reads
    include h_2 … h_T, the states as the grader computes them from ``h0`` and ``w`` (in the dtype of
    each read: an answer may run the recurrence in float64)."""
    seen = drive_hidden_grad(answer, h0, w, steps)
    read = seen.pop("what tanh's backward read")
    with facts.untouched():
        state, later = facts.detach(h0), []
        for step in range(steps):
            state = facts.tanh(facts.matmul(state, facts.detach(w)))
            if step:
                later.append(state)
        found = all(any(facts.shape(r) == facts.shape(s) and facts.allclose(facts.to_dtype(r, facts.dtype(s)), s)
                        for r in read) for s in later)
    return {"gradient": seen["gradient"], "tanh's backward read back h_2 … h_T": found,
            "gradient when what tanh's backward reads is halved":
                seen["gradient when what tanh's backward reads is halved"],
            "h0 and w left as they were": seen["x and w left as they were"]}


recurrent = exercise("leaves-recurrent-grads", "recurrent_grads", call=drive_recurrent_grads,
                     returns="observation", agree="close", show=_show_recurrence)
RECURRENT_CASES: dict[str, tuple[Callable[[Draw], tuple], bool, tuple[Callable[[Draw], tuple], ...]]] = {
    # name: (recipe (also the search's), hidden, anchors). With one step the last state is the only
    # one, and its gradient is its own term's: an answer that loses what flows back from later
    # states is right there, so that check also runs on a recurrence of several steps.
    "neither-requires-grad": (recurrence(False, False), False, ()),
    "both-require-grad": (recurrence(True, True), False, ()),
    "only-w": (recurrence(False, True), True, ()),
    "only-h0": (recurrence(True, False), True, ()),
    "w-has-old-grad": (recurrence(False, True, old_grad=True), True, ()),
    "long": (recurrence(False, False, steps=(5, 7)), True, ()),
    "one-step": (recurrence(False, False, steps=(1, 1)), True, (recurrence(True, False),)),
}
for _name, (_recipe, _hidden, _anchors) in RECURRENT_CASES.items():
    recurrent.case(_name, "recurrent_grads(h0, w, steps)", _recipe, hidden=_hidden, points=1, search=_recipe,
                   tries=3, anchors=_anchors)


# --------------------------------------------------------------------------- leaves-selftest
SELFTEST_QUESTIONS = {
    "q1": ("w = torch.ones(3, requires_grad=True); u = w[:2]: is u.is_leaf?", "bool"),
    "q2": ("y = w * 2, computed under torch.no_grad(): is y.is_leaf?", "bool"),
    "q3": ("w = torch.full((2,), 2.0, requires_grad=True); loss = (w ** 3).sum(); "
           "loss.backward(retain_graph=True); loss.backward(): what is w.grad[0].item()?", "float"),
    "q4": ("p, q leaves requiring grad; opt = torch.optim.SGD([p], lr=0.1); (p * q).sum().backward(); "
           "opt.zero_grad(): is q.grad None?", "bool"),
    "q5": ("y = torch.ones(2) * 3 under torch.inference_mode(); can you compute (y * w).sum() and call "
           "backward() on it, for w requiring grad?", "bool"),
}
selftest("leaves-selftest", SELFTEST_QUESTIONS)

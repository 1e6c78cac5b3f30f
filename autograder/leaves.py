"""Chapter 4, "Leaves, ``.grad`` and accumulation": the cases that grade its exercises.

Every answer of this chapter mutates autograd state (``.grad``, parameters) or depends on it, so
every case has a trusted driver: it builds fresh tensors, lets the answer act, and reports what
it observed as plain data. Expected values come from the same driver run on trusted code built
on torch itself (``torch.optim.SGD``, ``torch.autograd.grad``), never typed in. Inputs are built
under a forked RNG, so grading never moves the learner's random stream.

Defined in Chapter 4, "Leaves, ``.grad`` and accumulation" (notebooks/leaves/leaves.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from autograder.checks import Diagnosis, exercise, selftest
from autograder.values import AnswerTypeError, close


def seeded(seed: int, *shape: int) -> torch.Tensor:
    """A standard-normal tensor from its own generator (the global RNG is left alone)."""
    return torch.randn(*shape, generator=torch.Generator().manual_seed(seed))


def _seeded_module(seed: int, build: Callable[[], nn.Module]) -> nn.Module:
    """Build a module whose initial weights depend on ``seed`` only."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        return build()


def _tensors(result: Any, answer: str, count: int | None = None) -> list[torch.Tensor]:
    """The answer's list of tensors, detached copies; refuses anything else."""
    if type(result) is not list or not all(isinstance(g, torch.Tensor) for g in result):
        raise AnswerTypeError(f"{answer} must return a list of tensors, found {type(result).__name__}")
    if count is not None and len(result) != count:
        raise AnswerTypeError(f"{answer} must return a list of {count} tensors, found {len(result)}")
    return [g.detach().clone() for g in result]


def _agree(found: Any, expected: Any) -> bool:
    return close(found, expected, rtol=1e-4, atol=1e-5)


# --------------------------------------------------------------------------- leaves-sgd-step
LossOf = Callable[[list[torch.Tensor]], torch.Tensor]


def drive_sgd(step: Callable, params: list[torch.Tensor], loss_of: LossOf, lr: float, steps: int) -> dict[str, Any]:
    """Train with ``step(params, lr)`` after each backward; report what happened to the parameters.

    The driver trains copies, so the inputs stay as they were for the diagnoses. The loss is always
    computed from the original parameter objects, as a model holds them: an answer that puts new
    tensors into the list it was given trains nothing the model uses.
    """
    originals = _copies(params)
    given = list(originals)
    values, cleared = [], True
    try:
        for _ in range(steps):
            loss_of(originals).backward()
            step(given, lr)
            values.append([p.detach().clone() for p in originals])
            cleared = cleared and all(p.grad is None or not bool(p.grad.any()) for p in originals)
    except Exception as err:  # noqa: BLE001 - the error itself is the observation
        return {"error": f"{type(err).__name__}: {err}"}
    return {
        "error": None,
        "values": values,
        "same_objects": all(a is b for a, b in zip(given, originals, strict=True)),
        "leaves": all(p.is_leaf for p in given),
        "requires_grad": all(p.requires_grad for p in given),
        "grads_cleared": cleared,
    }


def torch_sgd_step(params: list[torch.Tensor], lr: float) -> None:
    """Trusted reference: one step of ``torch.optim.SGD`` (plain, no momentum), then clear grads."""
    optimizer = torch.optim.SGD(params, lr=lr)
    optimizer.step()
    optimizer.zero_grad()


def _ascent_step(params: list[torch.Tensor], lr: float) -> None:
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p.add_(lr * p.grad)
                p.grad = None


def _copies(params: list[torch.Tensor]) -> list[torch.Tensor]:
    """Fresh leaves with the same values, type (``nn.Parameter`` stays one) and ``requires_grad``."""
    return [
        nn.Parameter(p.detach().clone(), requires_grad=p.requires_grad) if isinstance(p, nn.Parameter)
        else p.detach().clone().requires_grad_(p.requires_grad)
        for p in params
    ]


def expect_sgd(params: list[torch.Tensor], loss_of: LossOf, lr: float, steps: int) -> dict[str, Any]:
    return drive_sgd(torch_sgd_step, params, loss_of, lr, steps)


def _error_says(*fragments: str) -> Callable[[Any, tuple], bool]:
    return lambda found, _inputs: bool(found.get("error")) and any(f in found["error"] for f in fragments)


def _unchanged(found: Any, inputs: tuple) -> bool:
    params = inputs[0]
    return found.get("error") is None and all(
        _agree(v, p.detach()) for v, p in zip(found["values"][-1], params, strict=True)
    )


def _ascends(found: Any, inputs: tuple) -> bool:
    params, loss_of, lr, steps = inputs
    ascent = drive_sgd(_ascent_step, params, loss_of, lr, steps)
    return found.get("error") is None and _agree(found["values"], ascent["values"])


SGD_OUTSIDE_NO_GRAD = (
    "a parameter is a leaf that requires grad: autograd refuses an in-place update of it (p -= ...) "
    "outside torch.no_grad(); wrap the update in `with torch.no_grad():`."
)
SGD_NEW_OBJECTS = (
    "the update must change the parameters in place: putting new tensors into the list leaves the "
    "model (and any optimizer) holding the old ones, which never change."
)
SGD_REBIND = (
    "p = p - lr * p.grad only rebinds the loop variable to a new tensor; the parameter itself never "
    "changes. Update it in place: p -= lr * p.grad (or p.sub_(...)) under torch.no_grad()."
)
SGD_NOT_CLEARED = (
    "backward() adds into .grad: a step that does not clear it (p.grad = None or p.grad.zero_()) "
    "makes the next step use the sum of every gradient so far, and drifts away from torch.optim.SGD."
)
SGD_NOT_LEAF = (
    "after the step each parameter must still be a leaf that requires grad; an update computed "
    "with autograd on (or requires_grad switched off) makes the next backward train nothing."
)
SGD_NO_GRAD_PARAM = (
    "a parameter that took no part in the loss has .grad None: skip it, as torch.optim.SGD does, "
    "instead of computing lr * None."
)
SGD_ASCENT = "gradient descent subtracts lr · grad; adding it climbs the loss."
SGD_OTHERWISE = "each step must be p ← p − lr · p.grad in place, as torch.optim.SGD computes it, then clear p.grad."


def _regression(seed: int, n: int = 16, d: int = 3, k: int = 1) -> tuple[torch.Tensor, torch.Tensor]:
    """Inputs ``(n, d)`` and noisy linear targets ``(n, k)``."""
    x = seeded(seed, n, d)
    return x, x @ torch.linspace(-1.0, 1.5, d * k).view(d, k) + 0.1 * seeded(seed + 1, n, k)


def _sgd_linear() -> tuple:
    x, y = _regression(1)
    params = [seeded(2, 3, 1).requires_grad_(), torch.zeros(1, requires_grad=True)]
    return params, lambda ps: F.mse_loss(x @ ps[0] + ps[1], y), 0.1, 3


def _sgd_single_step() -> tuple:
    x, y = _regression(3)
    params = [seeded(4, 3, 1).requires_grad_()]
    return params, lambda ps: F.mse_loss(x @ ps[0], y), 0.5, 1


def _sgd_mlp() -> tuple:
    x, y = _regression(5, n=32, d=4)
    params = [seeded(6, 4, 8).requires_grad_(), seeded(7, 8).requires_grad_(), seeded(8, 8, 1).requires_grad_()]
    return params, lambda ps: F.mse_loss(torch.tanh(x @ ps[0] + ps[1]) @ ps[2], y), 0.05, 6


def _sgd_unused_parameter() -> tuple:
    x, y = _regression(9)
    # The second tensor requires grad but the loss ignores it: its .grad stays None.
    params = [seeded(10, 3, 1).requires_grad_(), seeded(11, 2).requires_grad_()]
    return params, lambda ps: F.mse_loss(x @ ps[0], y), 0.1, 3


def _sgd_module_parameters() -> tuple:
    model = _seeded_module(12, lambda: nn.Linear(3, 2))
    x, _ = _regression(13)
    target = seeded(14, 16, 2)
    return list(model.parameters()), lambda ps: F.mse_loss(F.linear(x, ps[0], ps[1]), target), 0.2, 4


sgd = exercise(
    "leaves-sgd-step", "sgd_step", returns="observation", expect=expect_sgd, call=drive_sgd, agree=_agree,
    otherwise=SGD_OTHERWISE,
    diagnoses=(
        Diagnosis(_error_says("leaf Variable"), SGD_OUTSIDE_NO_GRAD),
        Diagnosis(_error_says("NoneType"), SGD_NO_GRAD_PARAM),
        Diagnosis(lambda found, _i: found.get("same_objects") is False, SGD_NEW_OBJECTS),
        Diagnosis(
            lambda found, _i: found.get("leaves") is False or found.get("requires_grad") is False,
            SGD_NOT_LEAF,
        ),
        Diagnosis(_unchanged, SGD_REBIND),
        Diagnosis(lambda found, _i: found.get("grads_cleared") is False, SGD_NOT_CLEARED),
        Diagnosis(_ascends, SGD_ASCENT),
    ),
)
sgd.case("linear-3-steps", "3 steps of sgd_step([w, b], 0.1) on a linear regression", _sgd_linear)
sgd.case("single-step", "1 step of sgd_step([w], 0.5)", _sgd_single_step)
# A hidden case never shows its probe to learners: its name stands in for it.
sgd.case("mlp-6-steps", "mlp-6-steps", _sgd_mlp, hidden=True)
sgd.case("unused-parameter", "unused-parameter", _sgd_unused_parameter, hidden=True)
sgd.case("module-parameters", "module-parameters", _sgd_module_parameters, hidden=True)


# --------------------------------------------------------------------------- leaves-accumulate
Batches = Sequence[tuple[torch.Tensor, torch.Tensor]]


def _grads_of(model: nn.Module, loss: torch.Tensor) -> list[torch.Tensor]:
    """Gradients by torch.autograd.grad: nothing is written into the model's .grad."""
    return list(torch.autograd.grad(loss, list(model.parameters())))


def full_batch_grads(model: nn.Module, loss_fn: Callable, batches: Batches) -> list[torch.Tensor]:
    """Trusted reference: the gradient of the mean loss over every sample of every micro-batch."""
    x = torch.cat([xb for xb, _ in batches])
    y = torch.cat([yb for _, yb in batches])
    return _grads_of(model, loss_fn(model(x), y))


def _summed(model: nn.Module, loss_fn: Callable, batches: Batches, weights: Sequence[float]) -> list[torch.Tensor]:
    total = sum(w * loss_fn(model(xb), yb) for w, (xb, yb) in zip(weights, batches, strict=True))
    return _grads_of(model, total)


def stale_grads(model: nn.Module) -> list[torch.Tensor]:
    """The gradients some cases leave on the model before the call (deterministic, so diagnoses can
    recompute them)."""
    return [torch.full_like(p, 0.5) for p in model.parameters()]


def drive_accumulate(answer: Callable, model: nn.Module, loss_fn: Callable, batches: Batches) -> list[torch.Tensor]:
    return _tensors(answer(model, loss_fn, batches), "accumulated_grads")


def _matches(variant: Callable[[nn.Module, Callable, Batches], list[torch.Tensor]]) -> Callable[[Any, tuple], bool]:
    return lambda found, inputs: _agree(found, variant(*inputs))


def _sum_of_means(model: nn.Module, loss_fn: Callable, batches: Batches) -> list[torch.Tensor]:
    return _summed(model, loss_fn, batches, [1.0] * len(batches))


def _mean_of_means(model: nn.Module, loss_fn: Callable, batches: Batches) -> list[torch.Tensor]:
    return _summed(model, loss_fn, batches, [1.0 / len(batches)] * len(batches))


def _last_only(model: nn.Module, loss_fn: Callable, batches: Batches) -> list[torch.Tensor]:
    return _summed(model, loss_fn, batches[-1:], [1.0])


def _last_only_weighted(model: nn.Module, loss_fn: Callable, batches: Batches) -> list[torch.Tensor]:
    share = len(batches[-1][0]) / sum(len(x) for x, _ in batches)
    return _summed(model, loss_fn, batches[-1:], [share])


def _leaked(variant: Callable) -> Callable:
    def leaked(model: nn.Module, loss_fn: Callable, batches: Batches) -> list[torch.Tensor]:
        return [g + s for g, s in zip(variant(model, loss_fn, batches), stale_grads(model), strict=True)]

    return leaked


ACCUMULATE_SUM = (
    "each micro-batch loss is already a mean over its own samples: adding them up scales the gradient "
    "by the number of micro-batches. Weight each loss by its share of the samples, len(x) / N."
)
ACCUMULATE_EQUAL_WEIGHTS = (
    "dividing by the number of micro-batches is right only when they are all the same size; with "
    "uneven micro-batches weight each loss by its number of samples, len(x) / N."
)
ACCUMULATE_LAST_ONLY = (
    "zeroing inside the loop throws away every micro-batch but the last; zero once before the loop, "
    "then let backward() accumulate."
)
ACCUMULATE_LEAK = (
    "gradients already on the model leak into the result: backward() adds to whatever .grad holds, "
    "so zero them first (model.zero_grad())."
)
ACCUMULATE_OTHERWISE = (
    "the result must equal the gradient of the mean loss over all samples of all micro-batches, one "
    "tensor per parameter in model.parameters() order."
)


def _linear_model(seed: int, d_in: int = 3, d_out: int = 1) -> nn.Module:
    return _seeded_module(seed, lambda: nn.Linear(d_in, d_out))


def _mlp_classifier(seed: int) -> nn.Module:
    return _seeded_module(seed, lambda: nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 3)))


def _regression_batches(seed: int, sizes: Sequence[int], k: int = 1) -> list[tuple[torch.Tensor, torch.Tensor]]:
    return [_regression(seed + 2 * i, n, 3, k) for i, n in enumerate(sizes)]


def _class_batches(seed: int, sizes: Sequence[int]) -> list[tuple[torch.Tensor, torch.Tensor]]:
    return [
        (seeded(seed + i, n, 4), torch.randint(0, 3, (n,), generator=torch.Generator().manual_seed(seed + i)))
        for i, n in enumerate(sizes)
    ]


def _with_stale_grads(model: nn.Module) -> nn.Module:
    for p, stale in zip(model.parameters(), stale_grads(model), strict=True):
        p.grad = stale
    return model


# Misreadings of the mean are checked before the leak: a leak on top of a right sum is a leak only.
accumulate = exercise(
    "leaves-accumulate", "accumulated_grads", returns="observation", expect=full_batch_grads,
    call=drive_accumulate, agree=_agree, otherwise=ACCUMULATE_OTHERWISE,
    diagnoses=(
        Diagnosis(_matches(_sum_of_means), ACCUMULATE_SUM),
        Diagnosis(_matches(_mean_of_means), ACCUMULATE_EQUAL_WEIGHTS),
        Diagnosis(_matches(_last_only), ACCUMULATE_LAST_ONLY),
        Diagnosis(_matches(_last_only_weighted), ACCUMULATE_LAST_ONLY),
        Diagnosis(_matches(_leaked(full_batch_grads)), ACCUMULATE_LEAK),
        Diagnosis(_matches(_leaked(_mean_of_means)), ACCUMULATE_LEAK),
        Diagnosis(_matches(_leaked(_sum_of_means)), ACCUMULATE_LEAK),
    ),
)
accumulate.case("equal-sizes", "accumulated_grads(nn.Linear(3, 1), nn.MSELoss(), 2 micro-batches of 4)",
                lambda: (_linear_model(20), nn.MSELoss(), _regression_batches(21, [4, 4])))
accumulate.case("uneven-sizes", "accumulated_grads(nn.Linear(3, 1), nn.MSELoss(), micro-batches of 6, 2 and 4)",
                lambda: (_linear_model(22), nn.MSELoss(), _regression_batches(23, [6, 2, 4])))
accumulate.case(
    "stale-grads",
    "accumulated_grads(model, nn.MSELoss(), micro-batches of 3 and 5) with model's .grad already 0.5",
    lambda: (_with_stale_grads(_linear_model(24, 3, 2)), nn.MSELoss(), _regression_batches(25, [3, 5], k=2)),
)
# A hidden case never shows its probe to learners: its name stands in for it.
accumulate.case("classifier-uneven", "classifier-uneven",
                lambda: (_mlp_classifier(26), nn.CrossEntropyLoss(), _class_batches(27, [5, 1, 2, 8])),
                hidden=True)
accumulate.case("classifier-stale", "classifier-stale",
                lambda: (_with_stale_grads(_mlp_classifier(28)), F.cross_entropy, _class_batches(29, [7, 3])),
                hidden=True)
accumulate.case("one-batch", "one-batch",
                lambda: (_linear_model(30), F.mse_loss, _regression_batches(31, [9])), hidden=True)
accumulate.case("uneven-stale", "uneven-stale",
                lambda: (_with_stale_grads(_linear_model(32)), nn.MSELoss(), _regression_batches(33, [1, 7, 4])),
                hidden=True)


# --------------------------------------------------------------------------- leaves-hidden-grad
def hidden_loss(h: torch.Tensor) -> torch.Tensor:
    """The chapter's loss as a function of the intermediate ``h = x @ w``."""
    return (torch.tanh(h) ** 2).sum()


def reference_hidden_grad(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """Trusted reference: d loss / d h, with ``h`` made a leaf of its own."""
    h = (x.detach() @ w.detach()).requires_grad_()
    (grad,) = torch.autograd.grad(hidden_loss(h), h)
    return grad


def drive_hidden_grad(answer: Callable, x: torch.Tensor, w: torch.Tensor) -> torch.Tensor | str | None:
    """The answer's gradient (detached), None as it came, or the error it raised, as text."""
    try:
        result = answer(x, w)
    except Exception as err:  # noqa: BLE001 - the error itself is the observation
        return f"{type(err).__name__}: {err}"
    if result is None:
        return None
    if not isinstance(result, torch.Tensor):
        raise AnswerTypeError(f"hidden_grad must return a tensor, found {type(result).__name__}")
    return result.detach().clone()


def _leaf_grad(which: int) -> Callable[[Any, tuple], bool]:
    def matches(found: Any, inputs: tuple) -> bool:
        leaves = [inputs[0].detach().clone().requires_grad_(), inputs[1].detach().clone().requires_grad_()]
        hidden_loss(leaves[0] @ leaves[1]).backward()
        return type(found) is torch.Tensor and _agree(found, leaves[which].grad)

    return matches


def _without_tanh_derivative(found: Any, inputs: tuple) -> bool:
    t = torch.tanh(inputs[0].detach() @ inputs[1].detach())
    return type(found) is torch.Tensor and (_agree(found, 2 * t) or _agree(found, 1 - t**2))


HIDDEN_NONE = (
    "h = x @ w is not a leaf: backward() does not keep its .grad (reading it gives None and a warning) "
    "unless you call h.retain_grad() before backward(), or ask torch.autograd.grad(loss, h)."
)
HIDDEN_NO_GRAPH = (
    "when neither x nor w requires grad, x @ w records no graph: h.retain_grad() and backward() refuse. "
    "Make h a leaf of its own, h = (x @ w).detach().requires_grad_(), and it works either way."
)
HIDDEN_LEAF_GRAD = (
    "that is the gradient with respect to a leaf (x or w); the exercise asks for the gradient with "
    "respect to the intermediate h = x @ w."
)
HIDDEN_CHAIN = "d/dh tanh(h)² = 2·tanh(h)·(1 − tanh(h)²): both factors of the chain rule are needed."
HIDDEN_OTHERWISE = (
    "the gradient of (tanh(h) ** 2).sum() with respect to h = x @ w has h's shape and the value "
    "2·tanh(h)·(1 − tanh(h)²)."
)


def _pair(seed: int, n: int, d: int, k: int, x_grad: bool, w_grad: bool) -> tuple[torch.Tensor, torch.Tensor]:
    return seeded(seed, n, d).requires_grad_(x_grad), seeded(seed + 1, d, k).requires_grad_(w_grad)


def _w_with_old_grad() -> tuple[torch.Tensor, torch.Tensor]:
    x, w = _pair(48, 5, 3, 2, False, True)
    w.grad = torch.ones_like(w)
    return x, w


hidden_grad = exercise(
    "leaves-hidden-grad", "hidden_grad", returns="observation", expect=reference_hidden_grad,
    call=drive_hidden_grad, agree=_agree, otherwise=HIDDEN_OTHERWISE,
    diagnoses=(
        Diagnosis(lambda found, _i: found is None, HIDDEN_NONE),
        Diagnosis(
            lambda found, _i: type(found) is str
            and ("does not require grad" in found or "requires_grad=False" in found),
            HIDDEN_NO_GRAPH,
        ),
        Diagnosis(_leaf_grad(0), HIDDEN_LEAF_GRAD),
        Diagnosis(_leaf_grad(1), HIDDEN_LEAF_GRAD),
        Diagnosis(_without_tanh_derivative, HIDDEN_CHAIN),
    ),
)
hidden_grad.case("both-require-grad", "hidden_grad(x, w) with x and w requiring grad",
                 lambda: _pair(40, 4, 3, 2, True, True))
hidden_grad.case("neither-requires-grad", "hidden_grad(x, w) with neither requiring grad",
                 lambda: _pair(42, 4, 3, 2, False, False))
# A hidden case never shows its probe to learners: its name stands in for it.
hidden_grad.case("only-w", "only-w", lambda: _pair(44, 6, 5, 3, False, True), hidden=True)
hidden_grad.case("only-x", "only-x", lambda: _pair(46, 2, 4, 4, True, False), hidden=True)
hidden_grad.case("w-has-old-grad", "w-has-old-grad", _w_with_old_grad, hidden=True)


# --------------------------------------------------------------------------- leaves-selftest
def _backward_twice() -> float:
    w = torch.ones(2, requires_grad=True)
    loss = (3 * w).sum()
    loss.backward(retain_graph=True)
    loss.backward(retain_graph=True)
    return w.grad[0].item()


def _zero_grad_sets_none() -> bool:
    model = _seeded_module(0, lambda: nn.Linear(2, 1))
    model(torch.ones(1, 2)).sum().backward()
    model.zero_grad()
    return model.weight.grad is None


def _inference_tensor_backward_succeeds() -> bool:
    w = torch.ones(2, requires_grad=True)
    with torch.inference_mode():
        y = torch.ones(2) * 3
    try:
        (y * w).sum().backward()
    except RuntimeError:
        return False
    return True


def _selftest_expectations() -> dict[str, tuple[str, str, Callable[[], object], str]]:
    """Question key -> (question, result kind, trusted computation, misconception)."""
    w = torch.ones(2, requires_grad=True)
    return {
        "q1": ("w = torch.ones(2, requires_grad=True): is (w * 2).is_leaf?", "bool", lambda: (w * 2).is_leaf,
               "a result of an operation on a tensor that requires grad has a grad_fn: it is not a leaf."),
        "q2": ("Is torch.ones(2).is_leaf (a tensor that does not require grad)?", "bool",
               lambda: torch.ones(2).is_leaf,
               "every tensor that does not require grad is a leaf by convention; it just never gets a .grad."),
        "q3": ("loss = (3 * w).sum() with w = torch.ones(2, requires_grad=True); after "
               "loss.backward(retain_graph=True) twice, what is w.grad[0].item()?", "float", _backward_twice,
               "backward() adds into .grad: two calls give 3 + 3 = 6.0."),
        "q4": ("After model.zero_grad() with its default arguments, is model.weight.grad None?", "bool",
               _zero_grad_sets_none,
               "zero_grad() defaults to set_to_none=True: the gradient becomes None, not a tensor of zeros."),
        "q5": ("y = torch.ones(2) * 3 computed under torch.inference_mode(); does (y * w).sum().backward() "
               "succeed for w requiring grad?", "bool", _inference_tensor_backward_succeeds,
               "an inference tensor cannot be saved for backward; keep tensors you will reuse in autograd "
               "from torch.no_grad(), not inference_mode()."),
    }


selftest("leaves-selftest", _selftest_expectations, hidden=("q4", "q5"))

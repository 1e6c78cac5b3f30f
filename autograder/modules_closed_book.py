"""The closed-book companion of Chapter 5, "Parameters, buffers and module ownership": its cases.

``CallCounter(inner)`` wraps any module: it forwards to ``inner`` and counts the forward calls made
in training mode in an int64 scalar buffer ``calls``. Every case is a trusted driver run on the
learner's class and on a reference built on torch's own mechanisms (``register_buffer``), around an
``inner`` drawn per call from modules with parameters only, with buffers of their own, and nested
containers; nothing is typed in.

Defined in the closed-book companion of Chapter 5 (notebooks/modules-closed-book/modules-closed-book.ipynb).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import torch
from torch import nn

from autograd_figures.state import state_kind
from autograder.checks import Diagnosis, exercise
from autograder.draw import Draw
from autograder.modules import PARAMETER, PLAIN_TENSOR, kind_diagnoses, module_class
from autograder.values import close

Inner = Callable[[], nn.Module]


class ReferenceCallCounter(nn.Module):
    """Trusted reference: the counter as a persistent int64 buffer, counted in training mode."""

    def __init__(self, inner: nn.Module) -> None:
        super().__init__()
        self.inner = inner
        self.register_buffer("calls", torch.zeros((), dtype=torch.int64))

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        if self.training:
            self.calls += 1
        return self.inner(*args, **kwargs)


INNERS: dict[str, Callable[[int], nn.Module]] = {
    "linear": lambda width: nn.Linear(width, 2),
    "mlp": lambda width: nn.Sequential(nn.Linear(width, 4), nn.ReLU(), nn.Linear(4, 2)),
    "batchnorm": lambda width: nn.BatchNorm1d(width),
    "nested": lambda width: nn.Sequential(nn.BatchNorm1d(width), nn.Sequential(nn.Linear(width, 3), nn.Tanh())),
}


def _inner(kind: str, width: int, seed: int) -> Inner:
    """A factory of one inner module with weights that depend on ``seed`` only."""

    def make() -> nn.Module:
        with torch.random.fork_rng(devices=[]):
            torch.manual_seed(seed)
            return INNERS[kind](width)

    return make


def layout(draw: Draw, kind: str | None = None) -> tuple[Inner, str, tuple[torch.Tensor, ...]]:
    """A drawn inner module, a schedule of modes (``t`` training, ``e`` eval) and one batch per step."""
    kind = kind or draw.choice(list(INNERS))
    width = draw.integer(2, 5)
    # Both modes appear, in unequal numbers: an answer that counts eval calls (or counts twice)
    # never passes by luck, and its misconception is told apart.
    schedule = "".join(draw.choice("te") for _ in range(draw.integer(1, 5)))
    schedule = "t" + schedule + "e" if draw.choice([False, True]) else "e" + schedule + "t"
    if schedule.count("t") == schedule.count("e"):
        schedule += "t"
    batches = tuple(draw.randn(draw.integer(2, 4), width) for _ in schedule)
    return _inner(kind, width, draw.integer(0, 10_000)), schedule, batches


def _run(module: nn.Module, schedule: str, batches: tuple[torch.Tensor, ...]) -> None:
    with torch.no_grad():
        for mode, x in zip(schedule, batches, strict=True):
            module.train(mode == "t")
            module(x)


def _calls(module: nn.Module) -> Any:
    value = getattr(module, "calls", None)
    if isinstance(value, torch.Tensor):
        return int(value)
    return value if type(value) in (int, float, bool) else f"<{type(value).__name__}>"


def observe_kind(wrap: Callable[[nn.Module], nn.Module], inner: Inner, _schedule: str, _batches: tuple) -> str:
    return state_kind(wrap(inner()), "calls")


def observe_counts(wrap: Callable[[nn.Module], nn.Module], inner: Inner, schedule: str, batches: tuple) -> Any:
    module = wrap(inner())
    _run(module, schedule, batches)
    return _calls(module)


def observe_round_trip(wrap: Callable[[nn.Module], nn.Module], inner: Inner, schedule: str, batches: tuple) -> Any:
    """Run the schedule, save the state_dict to bytes, load it into a fresh wrapper, read calls."""
    module = wrap(inner())
    _run(module, schedule, batches)
    buffer = io.BytesIO()
    torch.save(module.state_dict(), buffer)
    buffer.seek(0)
    fresh = wrap(inner())
    fresh.load_state_dict(torch.load(buffer, weights_only=True))
    return {"calls": _calls(fresh), "keys": sorted(module.state_dict())}


def observe_to_float64(wrap: Callable[[nn.Module], nn.Module], inner: Inner, schedule: str, batches: tuple) -> Any:
    """After the schedule and ``.to(torch.float64)``: the counter's dtype and the parameters' dtypes."""
    module = wrap(inner())
    _run(module, schedule, batches)
    module.to(torch.float64)
    value = getattr(module, "calls", None)
    return {"calls": str(value.dtype) if isinstance(value, torch.Tensor) else f"<{type(value).__name__}>",
            "parameters": sorted({str(p.dtype) for p in module.parameters()})}


def observe_ownership(wrap: Callable[[nn.Module], nn.Module], inner: Inner, _schedule: str, batches: tuple) -> Any:
    """Are the wrapper's parameters exactly the inner module's, and is calls out of them, gradient-free?"""
    made = inner()
    module = wrap(made)
    module.train()
    out = module(batches[0])
    if isinstance(out, torch.Tensor) and out.requires_grad:
        out.sum().backward()
    value = getattr(module, "calls", None)
    return {
        "same parameters": [id(p) for p in module.parameters()] == [id(p) for p in made.parameters()],
        "calls is a parameter": any(p is value for p in module.parameters()),
        "calls requires grad": bool(getattr(value, "requires_grad", False)),
    }


def observe_step(wrap: Callable[[nn.Module], nn.Module], inner: Inner, schedule: str, batches: tuple) -> Any:
    """Forwards, backward and one SGD step over ``module.parameters()``: calls, and the output."""
    module = wrap(inner())
    params = list(module.parameters())
    optimizer = torch.optim.SGD(params, lr=0.1) if params else None
    for mode, x in zip(schedule, batches, strict=True):
        module.train(mode == "t")
        out = module(x)
        if optimizer is not None and isinstance(out, torch.Tensor) and out.requires_grad:
            optimizer.zero_grad()
            out.pow(2).mean().backward()
            optimizer.step()
    module.eval()
    with torch.no_grad():
        final = module(batches[-1])
    return {"calls": _calls(module), "output": final.detach().clone() if isinstance(final, torch.Tensor) else None}


def on_answer(driver: Callable[..., Any]) -> Callable[..., Any]:
    """A case's call: the driver on the learner's class."""
    return lambda answer, *inputs: driver(answer, *inputs)


def like_reference(driver: Callable[..., Any]) -> Callable[..., Any]:
    """A case's expected value: the driver on the reference class."""
    return lambda *inputs: driver(ReferenceCallCounter, *inputs)


def _counts_eval(found: Any, inputs: tuple) -> bool:
    _inner_, schedule, _batches = inputs
    return found == len(schedule) and "e" in schedule


def _float_counter(found: Any, _inputs: tuple) -> bool:
    return type(found) is dict and found.get("calls") not in ("torch.int64", None) and "<" not in str(found["calls"])


def _not_inners_parameters(found: Any, _inputs: tuple) -> bool:
    return type(found) is dict and found.get("same parameters") is False and not found.get("calls is a parameter")


def _counter_is_parameter(found: Any, _inputs: tuple) -> bool:
    return type(found) is dict and found.get("calls is a parameter") is True


def _lost_in_round_trip(found: Any, _inputs: tuple) -> bool:
    return type(found) is dict and "calls" not in found.get("keys", ["calls"])


COUNTS = (
    "calls goes up by one per forward pass in training mode (self.training is True), whatever inner is: "
    "count in forward(), then return inner's result."
)
SKIPS_EVAL = "calls counts training-mode forwards only: model.eval() sets self.training to False; check it."
ROUND_TRIP = (
    "calls must be in state_dict() under that name and survive load_state_dict(): register it with "
    "self.register_buffer(\"calls\", ...), persistent (the default)."
)
STAYS_INT64 = (
    "calls stays an int64 count after module.to(torch.float64): a buffer created as "
    "torch.zeros((), dtype=torch.int64) keeps its integer dtype, since .to(dtype) casts floating-point "
    "tensors only. A float counter is cast with the weights."
)
OWNS_INNER = (
    "the wrapper's parameters are exactly inner's, the same tensor objects (self.inner = inner): a copy "
    "(deepcopy, new nn.Parameter from inner's weights) trains tensors inner never sees."
)
STEP_LEAVES_IT = (
    "an optimizer step moves parameters only: calls must not be among module.parameters(), and the "
    "wrapped module's output is inner's output."
)

call_counter = exercise("modules-reproduce", "CallCounter", require=module_class("CallCounter"))
call_counter.case("kind", "how CallCounter(nn.Linear(3, 2)) holds calls", lambda draw: layout(draw, "linear"),
                  call=on_answer(observe_kind), expect=like_reference(observe_kind), returns="str",
                  otherwise=PLAIN_TENSOR.format(name="calls"), diagnoses=kind_diagnoses("calls"))
call_counter.case("counts", "calls after a few training and eval forwards of CallCounter(nn.Linear(...))",
                  lambda draw: layout(draw, "linear"), call=on_answer(observe_counts),
                  expect=like_reference(observe_counts), returns="int", otherwise=COUNTS,
                  diagnoses=(Diagnosis(_counts_eval, SKIPS_EVAL),))
call_counter.case("counts-any-inner", "calls around a hidden inner module and schedule",
                  lambda draw: layout(draw), call=on_answer(observe_counts), expect=like_reference(observe_counts),
                  returns="int", otherwise=COUNTS, diagnoses=(Diagnosis(_counts_eval, SKIPS_EVAL),),
                  hidden=True, points=2)
call_counter.case("round-trip", "calls and state_dict keys after a save and load (hidden inner)",
                  lambda draw: layout(draw), call=on_answer(observe_round_trip),
                  expect=like_reference(observe_round_trip), returns="observation", otherwise=ROUND_TRIP,
                  diagnoses=(Diagnosis(_lost_in_round_trip, ROUND_TRIP),), hidden=True, points=2)
call_counter.case("to-float64", "dtypes after .to(torch.float64) (hidden inner)",
                  lambda draw: layout(draw), call=on_answer(observe_to_float64),
                  expect=like_reference(observe_to_float64), returns="observation", otherwise=STAYS_INT64,
                  diagnoses=(Diagnosis(_float_counter, STAYS_INT64),), hidden=True)
call_counter.case("ownership", "parameters and calls after a backward (hidden inner)",
                  lambda draw: layout(draw, draw.choice(["linear", "mlp", "nested"])),
                  call=on_answer(observe_ownership), expect=like_reference(observe_ownership),
                  returns="observation", otherwise=PARAMETER.format(name="calls"),
                  diagnoses=(Diagnosis(_counter_is_parameter, PARAMETER.format(name="calls")),
                             Diagnosis(_not_inners_parameters, OWNS_INNER)),
                  hidden=True, points=2)
call_counter.case("optimizer-step", "calls and output after SGD steps (hidden inner)",
                  lambda draw: layout(draw, draw.choice(["linear", "mlp", "nested"])),
                  call=on_answer(observe_step), expect=like_reference(observe_step), returns="observation",
                  agree=lambda found, expected: close(found, expected, rtol=1e-4, atol=1e-5),
                  otherwise=STEP_LEAVES_IT, hidden=True,
                  diagnoses=(Diagnosis(_counter_is_parameter, PARAMETER.format(name="calls")),))

"""The closed-book companion of Chapter 5, "Parameters, buffers and module ownership": how
``modules-reproduce`` is checked.

``CallCounter(inner)`` wraps any module: it forwards to ``inner`` and counts the forward calls made
in training mode in an int64 scalar ``calls``. Every case has a driver that wraps an ``inner`` drawn
per call — modules with parameters only, with buffers of their own, nested containers — runs a
drawn schedule of training and eval forwards, and reports what it finds. The visible check looks
only at the form (a forward returns a tensor, ``calls`` is a tensor); every check of behaviour is
hidden. The keys are in ``answer_key.modules_closed_book``.

Defined in the closed-book companion of Chapter 5 (notebooks/modules-closed-book/modules-closed-book.ipynb).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import torch
from torch import nn

from autograder.chapters.modules import build, held_as, module_class, state_value
from autograder.engine import facts
from autograder.engine.cases import exercise
from autograder.engine.codec import type_name
from autograder.engine.draw import Draw
from autograder.engine.values import KINDS

INNERS: dict[str, Callable[[int], nn.Module]] = {
    "linear": lambda width: nn.Linear(width, 2),
    "mlp": lambda width: nn.Sequential(nn.Linear(width, 4), nn.ReLU(), nn.Linear(4, 2)),
    "batchnorm": lambda width: nn.BatchNorm1d(width),
    "nested": lambda width: nn.Sequential(nn.BatchNorm1d(width), nn.Sequential(nn.Linear(width, 3), nn.Tanh())),
}

# calls may be any tensor a module can hold, a Parameter included: the form reads its values (as a
# plain tensor, which the codec carries; it carries no Parameter), and its kind is judged by the
# hidden checks. A subclass, which could redefine comparison, is reported as its kind, no tensor.
KINDS["output-and-counter"] = (
    lambda v: type(v) is tuple and len(v) == 2 and KINDS["tensor"][0](v[0]) and KINDS["tensor"][0](v[1]),
    "a pair (the forward's output, calls) of tensors",
)


class Wrapped:
    """A drawn run: the inner module's kind and width, the seed of its weights, one mode per
    forward (``t`` training, ``e`` eval) and one batch per forward."""

    def __init__(self, kind: str, width: int, seed: int, modes: str, batches: tuple[torch.Tensor, ...]) -> None:
        self.kind, self.width, self.seed, self.modes, self.batches = kind, width, seed, modes, batches

    def inner(self) -> nn.Module:
        return build(lambda: INNERS[self.kind](self.width), self.seed)

    def __repr__(self) -> str:
        return (f"inner = {self.kind} of width {self.width}, forwards {self.modes!r} (t training, e eval) "
                f"on batches of {len(self.batches[0])}")


def layout(kinds: tuple[str, ...] = tuple(INNERS)) -> Callable[[Draw], tuple]:
    """Inputs ``(run,)``: a drawn inner module and a schedule with both modes, in unequal numbers."""

    def recipe(draw: Draw) -> tuple:
        kind, width = draw.choice(kinds), draw.integer(2, 5)
        training, evaluating = draw.sized(1, 4) + 1, draw.sized(1, 3)
        if training == evaluating:
            training += 1
        modes = ["t"] * training
        for _ in range(evaluating):
            modes.insert(draw.integer(0, len(modes)), "e")
        batches = tuple(draw.randn(draw.integer(2, 4), width) for _ in modes)
        return (Wrapped(kind, width, draw.integer(0, 10_000), "".join(modes), batches),)

    return recipe


def _run(module: nn.Module, run: Wrapped) -> None:
    with torch.no_grad():
        for mode, x in zip(run.modes, run.batches, strict=True):
            module.train(mode == "t")
            module(x)


def _calls(module: nn.Module) -> Any:
    value = getattr(module, "calls", None)
    if facts.is_parameter_or_tensor(value):
        with facts.untouched():
            return int(facts.item(value)) if facts.numel(value) == 1 else \
                f"a tensor of shape {tuple(facts.shape(value))}"
    return value if type(value) in (int, float, bool) or value is None else f"a {type_name(value)}"


def observe_form(answer: type, run: Wrapped) -> Any:
    """One training forward: what it returned and what ``calls`` holds, each as a copy of its values
    (or the kind of thing it is), for the form only."""
    module = answer(run.inner())
    module.train()
    with torch.no_grad():
        out = module(run.batches[0])
    return state_value(out), state_value(getattr(module, "calls", None))


def observe_kind(answer: type, run: Wrapped) -> str:
    return held_as(answer(run.inner()), "calls")


def observe_counts(answer: type, run: Wrapped) -> Any:
    module = answer(run.inner())
    _run(module, run)
    return _calls(module)


def observe_round_trip(answer: type, run: Wrapped) -> Any:
    """Run the schedule, save the state_dict to bytes, load it into a fresh wrapper, read calls
    (the state through ``nn.Module``'s own methods: :mod:`autograder.engine.facts`)."""
    module = answer(run.inner())
    _run(module, run)
    buffer = io.BytesIO()
    with facts.untouched():
        facts.save(facts.state_dict(module), buffer)
    buffer.seek(0)
    fresh = answer(run.inner())
    with facts.untouched():
        facts.load_state_dict(fresh, facts.load(buffer, weights_only=True))
        saved = "calls" in facts.state_dict(module)
    return {"calls": _calls(fresh), "calls in state_dict": saved}


def observe_to_float64(answer: type, run: Wrapped) -> Any:
    """After the schedule and ``.to(torch.float64)``: the counter's dtype and shape, and the parameters'
    dtypes."""
    module = answer(run.inner())
    _run(module, run)
    with facts.untouched():
        facts.to(module, torch.float64)
    value = getattr(module, "calls", None)
    held = facts.is_parameter_or_tensor(value)
    with facts.untouched():
        return {"calls": str(facts.dtype(value)) if held else f"a {type_name(value)}",
                "calls shape": list(facts.shape(value)) if held else None,
                "parameters": sorted({str(facts.dtype(p)) for p in facts.parameters(module)})}


def observe_ownership(answer: type, run: Wrapped) -> Any:
    """Are the wrapper's parameters exactly the inner module's, and is calls out of them, gradient-free?"""
    made = run.inner()
    module = answer(made)
    module.train()
    out = module(run.batches[0])
    with facts.untouched():
        if isinstance(out, torch.Tensor) and facts.requires_grad(out):
            facts.backward(facts.sum_(out))
    value = getattr(module, "calls", None)
    if facts.is_parameter_or_tensor(value):
        with facts.untouched():
            requires_grad = facts.requires_grad(value)
    else:
        requires_grad = bool(getattr(value, "requires_grad", False))
    with facts.untouched():
        return {
            "the same parameters as inner": [id(p) for p in facts.parameters(module)]
            == [id(p) for p in facts.parameters(made)],
            "calls is a parameter": any(p is value for p in facts.parameters(module)),
            "calls requires grad": requires_grad,
        }


def observe_step(answer: type, run: Wrapped) -> Any:
    """Forwards, a backward and an SGD step after each training forward: calls, and the eval output
    (the parameters are the ones the module registered; the steps, ``torch.optim.SGD``'s, and
    every read go through :mod:`autograder.engine.facts`)."""
    module = answer(run.inner())
    params = facts.parameters(module)
    with facts.untouched():
        optimizer = facts.SGD(params, lr=0.1) if params else None
    for mode, x in zip(run.modes, run.batches, strict=True):
        module.train(mode == "t")
        out = module(x)
        with facts.untouched():
            if optimizer is not None and isinstance(out, torch.Tensor) and facts.requires_grad(out):
                optimizer.zero_grad()
                facts.backward(facts.mean(facts.power(out, 2)))
                optimizer.step()
    module.eval()
    with torch.no_grad():
        final = module(run.batches[-1])
    return {"calls": _calls(module), "output": state_value(final)}


call_counter = exercise("modules-reproduce", "CallCounter", require=module_class("CallCounter"),
                        show=lambda inputs: repr(inputs[0]))
call_counter.case("form", "CallCounter(inner)(x), then .calls", layout(("linear",)), call=observe_form,
                  form="output-and-counter", points=0)
CASES: dict[str, tuple[str, Callable, Callable[[Draw], tuple], int]] = {
    # name: (probe, driver, recipe (also the search's), points)
    "kind": ("how CallCounter(inner) holds calls", observe_kind, layout(), 1),
    "counts": ("calls after the forwards", observe_counts, layout(("linear", "mlp")), 2),
    "counts-any-inner": ("calls after the forwards", observe_counts, layout(), 2),
    "round-trip": ("calls after a save and load", observe_round_trip, layout(), 2),
    "to-float64": ("dtypes and the shape of calls after .to(torch.float64)", observe_to_float64, layout(), 1),
    "ownership": ("parameters and calls after a backward", observe_ownership, layout(("linear", "mlp", "nested")), 2),
    "optimizer-step": ("calls and output after SGD steps", observe_step, layout(("linear", "mlp", "nested")), 2),
}
for _name, (_probe, _driver, _recipe, _points) in CASES.items():
    call_counter.case(_name, _probe, _recipe, call=_driver, returns="observation" if _name != "kind" else "str",
                      agree="close", hidden=True, points=_points, search=_recipe, tries=2)

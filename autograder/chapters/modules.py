"""Chapter 5, "Parameters, buffers and module ownership": how its exercises are checked.

The answers are module classes and a counting function, so most cases have a driver: it builds
the learner's module from a seeded draw (sizes, a schedule of training and eval forwards, the
batches), runs forwards, a backward, an optimizer step, a ``state_dict`` round trip through
``torch.save``/``torch.load(weights_only=True)`` or a ``.to()``, and reports what it found as plain
data: how the module holds a tensor, its dtype and device, a count, an output. The keys — what
the reference classes report through the same drivers, and what each catalogued mistake makes
them report — are in ``answer_key.modules``; nothing here knows them.

Defined in Chapter 5, "Parameters, buffers and module ownership" (notebooks/modules/modules.ipynb).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import torch
from torch import nn

from autograd_figures.state import KINDS
from autograder.engine import facts
from autograder.engine.cases import AnswerTypeError, exercise, require_dict, selftest
from autograder.engine.codec import type_name
from autograder.engine.draw import Draw, derived_seed, seed_global_generator

__all__ = ["Schedule", "build", "held_as", "module_class", "round_trip", "state_value"]


def module_class(answer: str) -> Callable[[Any], None]:
    """A whole-answer check: the answer is a subclass of ``nn.Module``."""

    def check(value: Any) -> None:
        if not (isinstance(value, type) and issubclass(value, nn.Module)):
            raise AnswerTypeError(f"{answer} must be a class that subclasses torch.nn.Module, found {type_name(value)}")

    return check


def build(make: Callable[[], nn.Module], seed: int) -> nn.Module:
    """``make()`` with torch's global generator seeded, and left as it was afterwards: a module's
    initial weights depend on the seed only, and checking never moves the learner's random stream."""
    with torch.random.fork_rng(devices=[]):
        seed_global_generator(seed)
        return make()


def round_trip(module: nn.Module, fresh: nn.Module) -> nn.Module:
    """Save ``module``'s state_dict to bytes and load it into ``fresh``, as a checkpoint would
    (through ``nn.Module``'s own methods: :mod:`autograder.engine.facts`)."""
    buffer = io.BytesIO()
    with facts.untouched():
        facts.save(facts.state_dict(module), buffer)
        buffer.seek(0)
        facts.load_state_dict(fresh, facts.load(buffer, weights_only=True))
    return fresh


PARAMETER, BUFFER, NON_PERSISTENT_BUFFER, PLAIN_TENSOR = KINDS


def held_as(module: nn.Module, name: str) -> str:
    """How ``module`` holds the attribute ``name``, in the words of the chapter's state map (one of
    ``autograd_figures.state.KINDS``, "plain value" or "missing"), as ``state_kind`` says, but read
    off what the module registered and through ``nn.Module``'s own ``state_dict``
    (:mod:`autograder.engine.facts`): as a parent module sees it, whatever its class says of itself."""
    with facts.untouched():
        if name in dict(facts.named_parameters(module, recurse=False)):
            return PARAMETER
        if name in dict(facts.named_buffers(module, recurse=False)):
            return BUFFER if name in facts.state_dict(module, keep_vars=True) else NON_PERSISTENT_BUFFER
    if name not in vars(module):
        return "missing"
    return PLAIN_TENSOR if isinstance(vars(module)[name], torch.Tensor) else "plain value"


def state_value(value: Any) -> Any:
    """A tensor a module holds, or that its forward returned, as data: a copy of its values (a
    tensor of exactly torch's types), or the kind of thing it is."""
    if not facts.is_parameter_or_tensor(value):
        return f"a {type_name(value)}"
    with facts.untouched():
        return facts.clone(facts.detach(value))


def _counted(value: Any) -> Any:
    """A counter as a report gives it: an int read off a tensor, a plain value as is, else its kind."""
    if facts.is_parameter_or_tensor(value):
        with facts.untouched():
            return int(facts.item(value)) if facts.numel(value) == 1 else \
                f"a tensor of shape {tuple(facts.shape(value))}"
    return value if type(value) in (int, float, bool) or value is None else f"a {type_name(value)}"


def _requires_grad(value: Any) -> bool:
    """Whether a module's state requires grad (False for what is no tensor)."""
    if facts.is_parameter_or_tensor(value):
        with facts.untouched():
            return facts.requires_grad(value)
    return bool(getattr(value, "requires_grad", False))


def _yielded(module: nn.Module, value: Any) -> bool:
    """Whether ``nn.Module.parameters`` yields ``value``."""
    with facts.untouched():
        return any(p is value for p in facts.parameters(module))


class Schedule:
    """A drawn run: the module's sizes, one mode per forward (``t`` training, ``e`` eval) and one
    batch per forward; ``seed`` makes the module's initial weights; ``upstream``, when drawn, one
    gradient per forward to backpropagate from its output."""

    def __init__(self, sizes: tuple[int, ...], modes: str, batches: tuple[torch.Tensor, ...], seed: int,
                 momentum: float | None = None, upstream: tuple[torch.Tensor, ...] | None = None) -> None:
        self.sizes, self.modes, self.batches, self.seed, self.momentum = sizes, modes, batches, seed, momentum
        self.upstream = upstream

    def __repr__(self) -> str:
        parts = [f"sizes {self.sizes}"]
        if self.momentum is not None:
            parts.append(f"momentum={self.momentum}")
        parts.append(f"forwards {self.modes!r} (t training, e eval) on batches of {len(self.batches[0])}")
        return ", ".join(parts)


def schedule(sizes: Callable[[Draw], tuple[int, ...]], modes: Callable[[Draw], str],
             momentum: tuple[float, ...] | None = None, upstream: bool = False) -> Callable[[Draw], tuple]:
    """Inputs ``(schedule,)``: drawn sizes, modes and batches (their first size is the input width);
    with ``upstream``, a gradient of each batch's shape too."""

    def recipe(draw: Draw) -> tuple:
        drawn = sizes(draw)
        run = modes(draw)
        rows = draw.sized(2, 6)
        batches = tuple(draw.randn(rows, drawn[0]) * 2 + draw.integer(-3, 3) for _ in run)
        chosen = draw.choice(momentum) if momentum else None
        seed = draw.integer(0, 10_000)
        gradients = tuple(draw.randn(*x.shape) for x in batches) if upstream else None
        return (Schedule(drawn, run, batches, seed, chosen, gradients),)

    return recipe


def modes_with_both(low: int = 1, high: int = 4) -> Callable[[Draw], str]:
    """A schedule with training and eval forwards in unequal numbers, eval ones between training ones."""

    def modes(draw: Draw) -> str:
        training, evaluating = draw.sized(low, high) + 1, draw.sized(low, high)
        if training == evaluating:
            training += 1
        run = ["t"] * training
        for _ in range(evaluating):
            run.insert(draw.integer(1, len(run)), "e")
        return "".join(run)

    return modes


def training_only(low: int = 1, high: int = 4) -> Callable[[Draw], str]:
    return lambda draw: "t" * draw.sized(low, high)


def _show(inputs: tuple) -> str:
    return repr(inputs[0])


# --------------------------------------------------------------------------- modules-counting-linear
def _linear_sizes(draw: Draw) -> tuple[int, int]:
    return draw.sized(1, 5), draw.sized(1, 4)


def counting_linear(answer: type, run: Schedule) -> nn.Module:
    return build(lambda: answer(*run.sizes), run.seed)


def _forwards(module: nn.Module, run: Schedule, grad: bool = False) -> list[Any]:
    outputs = []
    with torch.set_grad_enabled(grad):
        for mode, x in zip(run.modes, run.batches, strict=True):
            module.train(mode == "t")
            outputs.append(module(x))
    return outputs


def observe_counter_kind(answer: type, run: Schedule) -> str:
    """How ``CountingLinear`` holds ``calls``: parameter, buffer, non-persistent buffer, plain tensor…"""
    return held_as(counting_linear(answer, run), "calls")


def observe_counter_type(answer: type, run: Schedule) -> Any:
    """``calls``'s dtype and shape (or the kind of value it is instead)."""
    value = getattr(counting_linear(answer, run), "calls", None)
    if not facts.is_parameter_or_tensor(value):
        return f"a {type_name(value)}"
    with facts.untouched():
        return [str(facts.dtype(value)), list(facts.shape(value))]


def observe_counts(answer: type, run: Schedule) -> Any:
    """``calls`` after the schedule's forwards."""
    module = counting_linear(answer, run)
    _forwards(module, run)
    return _counted(getattr(module, "calls", None))


def observe_round_trip(answer: type, run: Schedule) -> Any:
    """``calls`` of a fresh module after loading the state_dict of one that ran the schedule."""
    module = counting_linear(answer, run)
    _forwards(module, run)
    fresh = round_trip(module, counting_linear(answer, run))
    return _counted(getattr(fresh, "calls", None))


def observe_moves(answer: type, run: Schedule) -> Any:
    """After the schedule, ``.to("meta")`` and ``.to(torch.float64)`` of copies: where ``calls`` went."""
    found = {}
    for target in ("meta", torch.float64):
        module = counting_linear(answer, run)
        _forwards(module, run)
        with facts.untouched():
            facts.to(module, target)
        value = getattr(module, "calls", None)
        if facts.is_parameter_or_tensor(value):
            with facts.untouched():
                found[str(target)] = f"{facts.device(value).type} {facts.dtype(value)}"
        else:
            found[str(target)] = f"a {type_name(value)}"
    return found


def observe_counter_grad(answer: type, run: Schedule) -> Any:
    """After training forwards with gradient recording on and a backward: does ``calls`` require
    grad, does ``parameters()`` yield it, does it have a ``.grad``?"""
    module = counting_linear(answer, run)
    outputs = _forwards(module, run, grad=True)
    with facts.untouched():
        total = sum(facts.sum_(out) for out in outputs if isinstance(out, torch.Tensor) and facts.requires_grad(out))
        if isinstance(total, torch.Tensor):
            facts.backward(total)
    value = getattr(module, "calls", None)
    if facts.is_parameter_or_tensor(value):
        with facts.untouched():
            has_grad = facts.grad(value) is not None
    else:
        has_grad = getattr(value, "grad", None) is not None
    return {"calls": _counted(value), "requires grad": _requires_grad(value),
            "among parameters()": _yielded(module, value), "has a .grad": has_grad}


def observe_training(answer: type, run: Schedule) -> dict[str, Any]:
    """One SGD step on a squared error over the trainable parameters: how many scalars train, do they
    all get a gradient, does the step lower the loss, and how many parameters are integers (the
    parameters are the ones the module registered; the step, ``torch.optim.SGD``'s, and every
    read go through :mod:`autograder.engine.facts`)."""
    module = counting_linear(answer, run)
    module.train()
    x = run.batches[0]
    target = torch.ones(len(x), run.sizes[1])
    with facts.untouched():
        trainable = [p for p in facts.parameters(module) if facts.requires_grad(p)]
    out = module(x)
    with facts.untouched():
        loss = ((out - target) ** 2).mean()
        stepped = bool(trainable) and facts.requires_grad(loss)
        all_grads = False
        if stepped:
            optimizer = facts.SGD(trainable, lr=1e-2)
            facts.backward(loss)
            all_grads = all(facts.grad(p) is not None for p in trainable)
            optimizer.step()
    lowers = False
    if stepped:
        with torch.no_grad():
            after = module(x)
        with facts.untouched():
            lowers = bool(((after - target) ** 2).mean() < loss)
    with facts.untouched():
        return {"trainable scalars": sum(facts.numel(p) for p in trainable),
                "every trainable parameter gets a gradient": all_grads,
                "one SGD step lowers the loss": lowers,
                "integer parameters": sum(1 for p in facts.parameters(module) if not facts.is_floating_point(p))}


counting = exercise("modules-counting-linear", "CountingLinear", require=module_class("CountingLinear"),
                    show=_show)
COUNTING_CASES: dict[str, tuple[str, Callable, Callable[[Draw], tuple], str, bool]] = {
    # name: (probe, driver, recipe (also the search's), result kind, hidden)
    "kind": ("how CountingLinear holds calls", observe_counter_kind, schedule(_linear_sizes, training_only()),
             "str", False),
    "dtype-shape": ("[dtype, shape] of calls", observe_counter_type, schedule(_linear_sizes, training_only()),
                    "observation", False),
    "counts": ("calls after the forwards", observe_counts, schedule(_linear_sizes, modes_with_both()), "observation",
               False),
    "weights-train": ("one SGD step over CountingLinear's parameters", observe_training,
                      schedule(_linear_sizes, training_only()), "observation", False),
    "counts-more": ("calls after the forwards", observe_counts, schedule(_linear_sizes, modes_with_both(2, 6)),
                    "observation", True),
    "round-trip": ("calls of a fresh module after load_state_dict", observe_round_trip,
                   schedule(_linear_sizes, modes_with_both()), "observation", True),
    "moves-with-to": ("calls after .to('meta') and after .to(torch.float64)", observe_moves,
                      schedule(_linear_sizes, training_only()), "observation", True),
    "never-requires-grad": ("calls after forwards and a backward", observe_counter_grad,
                            schedule(_linear_sizes, training_only()), "observation", True),
    "weights-train-more": ("one SGD step over CountingLinear's parameters", observe_training,
                           schedule(lambda d: (d.sized(2, 8), d.sized(2, 6)), training_only()), "observation", True),
}
for _name, (_probe, _driver, _recipe, _kind, _hidden) in COUNTING_CASES.items():
    counting.case(_name, _probe, _recipe, call=_driver, returns=_kind, hidden=_hidden, search=_recipe, tries=2)


# --------------------------------------------------------------------------- modules-running-mean
def _features(draw: Draw) -> tuple[int]:
    return (draw.sized(1, 5),)


def running_mean(answer: type, run: Schedule) -> nn.Module:
    momentum = {} if run.momentum is None else {"momentum": run.momentum}
    return build(lambda: answer(run.sizes[0], **momentum), run.seed)


def _running(module: nn.Module) -> Any:
    return state_value(getattr(module, "running_mean", None))


def observe_running_kind(answer: type, run: Schedule) -> str:
    return held_as(running_mean(answer, run), "running_mean")


def observe_outputs(answer: type, run: Schedule) -> dict[str, Any]:
    """The output of every forward of the schedule (training and eval alike), by its place and mode:
    a message then shows only the forwards whose output differs."""
    module = running_mean(answer, run)
    return {f"forward {i + 1} ({'training' if mode == 't' else 'eval'})": state_value(out)
            for i, (mode, out) in enumerate(zip(run.modes, _forwards(module, run), strict=True))}


def observe_running(answer: type, run: Schedule) -> Any:
    """``running_mean`` after the schedule's forwards."""
    module = running_mean(answer, run)
    _forwards(module, run)
    return _running(module)


def observe_running_graph(answer: type, run: Schedule) -> dict[str, Any]:
    """After training forwards on batches that require grad: does ``running_mean`` require grad or
    carry a ``grad_fn``, and does a backward from each output succeed?"""
    module = running_mean(answer, run)
    module.train()
    errors = []
    for x in run.batches:
        with facts.untouched():
            given = facts.requires_grad_(facts.clone(facts.detach(x)))
        out = module(given)
        try:
            if isinstance(out, torch.Tensor):
                with facts.untouched():
                    facts.backward(facts.sum_(out))
            else:
                out.sum().backward()  # no tensor: what it does is the answer's own
        except RuntimeError as err:
            errors.append(str(err).split(".")[0])
    value = getattr(module, "running_mean", None)
    if facts.is_parameter_or_tensor(value):
        with facts.untouched():
            has_grad_fn = facts.grad_fn(value) is not None
    else:
        has_grad_fn = getattr(value, "grad_fn", None) is not None
    return {"running_mean": _running(module), "requires grad": _requires_grad(value),
            "has a grad_fn": has_grad_fn, "backward errors": errors}


def observe_input_gradient(answer: type, run: Schedule) -> dict[str, Any]:
    """Training forwards on batches that require grad, each output backpropagated with its drawn
    gradient: by forward, the output and what reaches the batch's ``.grad`` (None when nothing does,
    or what the backward raised). The output's gradient is judged with its values: a wrong output
    with the right gradient is no right training output."""
    module = running_mean(answer, run)
    module.train()
    found: dict[str, Any] = {}
    for i, (x, gradient) in enumerate(zip(run.batches, run.upstream, strict=True)):
        with facts.untouched():
            given = facts.requires_grad_(facts.clone(facts.detach(x)))
        out = module(given)
        found[f"forward {i + 1}: output"] = state_value(out)
        where = f"forward {i + 1}: x.grad"
        if not facts.is_parameter_or_tensor(out):
            found[where] = None
            continue
        try:
            with facts.untouched():
                facts.backward(out, gradient)
        except RuntimeError as err:
            found[where] = f"backward raised: {str(err).split('.')[0]}"
            continue
        with facts.untouched():
            reached = facts.grad(given)
            found[where] = None if reached is None else facts.clone(reached)
    return found


def observe_running_state(answer: type, run: Schedule) -> dict[str, Any]:
    """After training forwards: how the module holds running_mean, whether ``parameters()`` yields it
    and whether ``state_dict()`` holds it."""
    module = running_mean(answer, run)
    _forwards(module, run)
    value = getattr(module, "running_mean", None)
    with facts.untouched():
        in_state = "running_mean" in facts.state_dict(module)
    return {"held as": held_as(module, "running_mean"), "yielded by parameters()": _yielded(module, value),
            "in state_dict()": in_state}


def observe_round_trip_eval(answer: type, run: Schedule) -> Any:
    """A fresh module, loaded from the state_dict of one that ran the schedule, in eval on the last batch."""
    module = running_mean(answer, run)
    _forwards(module, run)
    fresh = round_trip(module, running_mean(answer, run))
    fresh.eval()
    with torch.no_grad():
        out = fresh(run.batches[-1])
    return state_value(out)


def observe_running_dtype(answer: type, run: Schedule) -> str:
    module = running_mean(answer, run)
    _forwards(module, run)
    with facts.untouched():
        facts.to(module, torch.float64)
    value = getattr(module, "running_mean", None)
    if not facts.is_parameter_or_tensor(value):
        return f"a {type_name(value)}"
    with facts.untouched():
        return str(facts.dtype(value))


running = exercise("modules-running-mean", "RunningMean", require=module_class("RunningMean"), show=_show,
                   agree="close")
#: Momentum values of the hidden check: never 0.5, where a reversed convention gives the same values.
MOMENTA = (0.2, 0.3, 0.7, 0.8)
RUNNING_CASES: dict[str, tuple[str, Callable, Callable[[Draw], tuple], str, bool]] = {
    "kind": ("how RunningMean holds running_mean", observe_running_kind, schedule(_features, training_only()),
             "str", False),
    "train-output": ("the outputs of training forwards", observe_outputs, schedule(_features, training_only(1, 2)),
                     "observation", False),
    "running-after-training": ("running_mean after training forwards", observe_running,
                               schedule(_features, training_only(2, 4)), "observation", False),
    "train-and-eval-output": ("the outputs of training and eval forwards", observe_outputs,
                              schedule(_features, modes_with_both(1, 2)), "observation", False),
    "no-graph": ("running_mean after forwards on inputs that require grad", observe_running_graph,
                 schedule(_features, training_only(2, 3)), "observation", False),
    "no-graph-more": ("running_mean after forwards on inputs that require grad", observe_running_graph,
                      schedule(_features, training_only(3, 5)), "observation", True),
    "state": ("how running_mean is held after training forwards", observe_running_state,
              schedule(_features, training_only()), "observation", True),
    "eval-output": ("the outputs of training and eval forwards", observe_outputs,
                    schedule(_features, modes_with_both()), "observation", True),
    "eval-frozen": ("running_mean after training and eval forwards", observe_running,
                    schedule(_features, modes_with_both()), "observation", True),
    "momentum": ("running_mean of RunningMean(n, momentum) after training forwards", observe_running,
                 schedule(_features, training_only(2, 4), MOMENTA), "observation", True),
    "round-trip": ("eval output of a fresh module after load_state_dict", observe_round_trip_eval,
                   schedule(_features, training_only(2, 4)), "observation", True),
    "train-gradient": ("training outputs, and x.grad after a backward from each", observe_input_gradient,
                       schedule(_features, training_only(1, 3), upstream=True), "observation", True),
    "float64": ("running_mean's dtype after .to(torch.float64)", observe_running_dtype,
                schedule(_features, training_only()), "str", True),
}
for _name, (_probe, _driver, _recipe, _kind, _hidden) in RUNNING_CASES.items():
    running.case(_name, _probe, _recipe, call=_driver, returns=_kind, hidden=_hidden, search=_recipe, tries=2)


# --------------------------------------------------------------------------- modules-count-params
class TiedLanguageModel(nn.Module):
    """An embedding whose weight is also the output layer's: one tensor, two names."""

    def __init__(self, vocabulary: int, width: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocabulary, width)
        self.mix = nn.Linear(width, width)
        self.head = nn.Linear(width, vocabulary, bias=False)
        self.head.weight = self.embed.weight

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.head(torch.tanh(self.mix(self.embed(tokens))))


class WithPlainTensor(nn.Module):
    """A linear layer plus a tensor attribute that requires grad but was never registered."""

    def __init__(self, width: int, out: int) -> None:
        super().__init__()
        self.linear = nn.Linear(width, out)
        self.scale = torch.ones(out, requires_grad=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(x) * self.scale


class ListHeld(nn.Module):
    """Layers kept in a plain Python list (not registered) and one registered output layer."""

    def __init__(self, width: int, count: int, out: int) -> None:
        super().__init__()
        self.blocks = [nn.Linear(width, width) for _ in range(count)]
        self.out = nn.Linear(width, out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = torch.relu(block(x))
        return self.out(x)


class Masked(nn.Module):
    """A linear layer, a non-persistent mask buffer and a persistent step counter."""

    def __init__(self, width: int, out: int) -> None:
        super().__init__()
        self.linear = nn.Linear(width, out)
        self.register_buffer("mask", torch.ones(out, width), persistent=False)
        self.register_buffer("steps", torch.zeros((), dtype=torch.int64))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ (self.linear.weight * self.mask).T + self.linear.bias


# Every check also runs on these two (its anchors): drawn at least 2 wide, so that no count of
# tensors, layers or entries ever equals their count of scalars, on any seed.
def _linear(d: Draw) -> nn.Module:
    return nn.Linear(d.sized(2, 6), d.sized(2, 5))


def _nested(d: Draw) -> nn.Module:
    a, b, c = d.sized(2, 5), d.sized(2, 5), d.sized(2, 4)
    return nn.Sequential(nn.Linear(a, b), nn.ReLU(), nn.Sequential(nn.Linear(b, b), nn.Tanh(), nn.Linear(b, c)))


def _tied(d: Draw) -> nn.Module:
    return TiedLanguageModel(d.sized(2, 9), d.sized(1, 4))


def _frozen_bias(d: Draw) -> nn.Module:
    layer = _linear(d)
    layer.bias.requires_grad_(False)
    return layer


def _with_batchnorm(d: Draw) -> nn.Module:
    a, b = d.sized(1, 5), d.sized(1, 5)
    return nn.Sequential(nn.Linear(a, b), nn.BatchNorm1d(b), nn.ReLU())


def _reused(d: Draw) -> nn.Module:
    layer = nn.Linear(*(d.sized(1, 5),) * 2)
    return nn.Sequential(layer, nn.ReLU(), layer)


def _reused_thrice(d: Draw) -> nn.Module:
    width = d.sized(1, 5)
    layer = nn.Linear(width, width)
    return nn.Sequential(nn.Linear(d.sized(1, 4), width), layer, nn.ReLU(), layer, nn.Tanh(), layer)


def _frozen_backbone(d: Draw) -> nn.Module:
    a, b, c = d.sized(1, 6), d.sized(1, 5), d.sized(1, 3)
    backbone = nn.Linear(a, b)
    backbone.requires_grad_(False)
    return nn.Sequential(backbone, nn.ReLU(), nn.Linear(b, c))


def _plain_tensor(d: Draw) -> nn.Module:
    return WithPlainTensor(d.sized(1, 5), d.sized(1, 4))


def _no_parameters(d: Draw) -> nn.Module:
    """No parameter, and always buffers (running statistics without an affine part): an answer that
    counts buffers or state_dict entries is told so on every run."""
    activation = d.choice([nn.ReLU(), nn.Tanh(), nn.Identity()])
    return nn.Sequential(activation, nn.BatchNorm1d(d.sized(1, 4), affine=False))


def _tied_across_depths(d: Draw) -> nn.Module:
    """A decoder two levels down reusing an encoder's weight; one bias frozen."""
    width = d.sized(1, 6)
    encoder, decoder = nn.Linear(width, width), nn.Linear(width, width)
    decoder.weight = encoder.weight
    decoder.bias.requires_grad_(False)
    return nn.Sequential(encoder, nn.Tanh(), nn.Sequential(nn.Identity(), nn.Sequential(decoder)))


def _python_list(d: Draw) -> nn.Module:
    return ListHeld(d.sized(1, 5), d.integer(1, 3), d.sized(1, 3))


def _masked(d: Draw) -> nn.Module:
    return Masked(d.sized(1, 6), d.sized(1, 4))


class OverOneStorage(nn.Module):
    """Parameters made from views of one tensor's data: distinct ``Parameter`` objects over parts of
    one storage (``parts``: name, the view of the base, trainable), beside what ``inner`` holds."""

    def __init__(self, base: torch.Tensor, parts: list[tuple[str, Callable[[torch.Tensor], torch.Tensor], bool]],
                 inner: nn.Module | None = None) -> None:
        super().__init__()
        if inner is not None:
            self.inner = inner
        for name, view, trainable in parts:
            self.register_parameter(name, nn.Parameter(view(base), requires_grad=trainable))


def _weight_twin(d: Draw) -> nn.Module:
    """A linear layer, and a second Parameter over the last columns of its weight, a level up."""
    into, out = d.sized(2, 6), d.sized(1, 5)
    layer = nn.Linear(into, out)
    start = d.integer(1, into - 1)
    return OverOneStorage(layer.weight.detach(), [("twin", lambda w: w[:, start:], True)], inner=layer)


def _transposed_twin(d: Draw) -> nn.Module:
    """A linear layer, and a Parameter over its weight's transpose (a decoder tied by memory)."""
    into = d.sized(1, 5)
    layer = nn.Linear(into, into + d.sized(1, 3))
    return OverOneStorage(layer.weight.detach(), [("back", lambda w: w.T, True)], inner=layer)


def _windows(d: Draw) -> nn.Module:
    """Two trainable windows of one 1-D tensor that overlap."""
    n = d.sized(4, 12)
    start = d.integer(1, n - 2)
    stop = d.integer(start + 1, n - 1)
    return OverOneStorage(torch.randn(n), [("left", lambda t: t[:stop], True), ("right", lambda t: t[start:], True)])


def _interleaved(d: Draw) -> nn.Module:
    """Strided parameters of one tensor: every second element, every third, and a column of a matrix."""
    rows, cols = d.sized(2, 5), d.sized(3, 6)
    # Never column 1: then element 1 belongs to no parameter, though it lies between the first and
    # last element of each (a count of spans counts it on every draw).
    column = d.choice([c for c in range(cols) if c != 1])
    return OverOneStorage(torch.randn(rows, cols), [("evens", lambda t: t.view(-1)[::2], True),
                                                    ("thirds", lambda t: t.view(-1)[::3], True),
                                                    ("column", lambda t: t[:, column], True)])


def _disjoint_views(d: Draw) -> nn.Module:
    """A layer's weight and bias as views into one flat tensor, which holds more than the two."""
    into, out, spare = d.sized(1, 5), d.sized(1, 4), d.sized(1, 4)
    flat = torch.randn(out * into + out + spare)
    return OverOneStorage(flat, [("weight", lambda t: t[:out * into].view(out, into), True),
                                 ("bias", lambda t: t[out * into:out * into + out], True)])


def _frozen_overlap(d: Draw) -> nn.Module:
    """A trainable window and a frozen one of one tensor that overlap."""
    n = d.sized(4, 12)
    start = d.integer(1, n - 2)
    stop = d.integer(start + 1, n - 1)
    return OverOneStorage(torch.randn(n), [("trained", lambda t: t[:stop], True),
                                           ("frozen", lambda t: t[start:], False)])


def module_recipe(make: Callable[[Draw], nn.Module]) -> Callable[[Draw], tuple]:
    """Inputs ``(module,)``: a module built from drawn sizes, with weights from the draw's seed."""
    return lambda draw: (build(lambda: make(draw), derived_seed(draw.seed, "weights", draw.size)),)


def describe(module: nn.Module) -> str:
    """A module as a message shows it: its layers, frozen tensors and the names that share a tensor."""

    def layer(m: nn.Module) -> str:
        # Every registered entry, a module registered twice included (named_children() skips repeats).
        kids = [child for child in m._modules.values() if child is not None]
        if kids:
            inner = ", ".join(layer(child) for child in kids)
            return f"{type(m).__name__}({inner})"
        if isinstance(m, nn.Linear):
            return f"Linear({m.in_features}→{m.out_features})"
        if isinstance(m, nn.Embedding):
            return f"Embedding({m.num_embeddings}, {m.embedding_dim})"
        if isinstance(m, nn.BatchNorm1d):
            return f"BatchNorm1d({m.num_features}{'' if m.affine else ', affine=False'})"
        return type(m).__name__

    notes = []
    named: dict[int, list[str]] = {}
    storages: dict[int, list[tuple[str, torch.Tensor]]] = {}
    for name, p in module.named_parameters():
        storages.setdefault(p.untyped_storage().data_ptr(), []).append((name, p))
    for shared in (shared for shared in storages.values() if len(shared) > 1):
        # Where each parameter sits in the memory they share.
        size = shared[0][1].untyped_storage().nbytes() // shared[0][1].element_size()
        notes.append(f"one storage of {size} holds " + ", ".join(
            f"{name} {tuple(p.shape)} stride {p.stride()} offset {p.storage_offset()}" for name, p in shared))
    for name, p in module.named_parameters(remove_duplicate=False):
        named.setdefault(id(p), []).append(name)
        if not p.requires_grad and len(named[id(p)]) == 1:
            notes.append(f"{name} frozen")
    notes += [" = ".join(names) for names in named.values() if len(names) > 1]
    for name, value in vars(module).items():
        if isinstance(value, list) and value and all(isinstance(v, nn.Module) for v in value):
            notes.append(f"{name}: a Python list of {len(value)} {layer(value[0])}")
        elif isinstance(value, torch.Tensor) and not name.startswith("_"):
            notes.append(f"{name}: a plain tensor of shape {tuple(value.shape)}")
    return layer(module) + (f" [{'; '.join(notes)}]" if notes else "")


count = exercise("modules-count-params", "count_parameters", returns="int",
                 show=lambda inputs: describe(inputs[0]))
COUNT_CASES: dict[str, tuple[Callable[[Draw], nn.Module], bool]] = {
    "linear": (_linear, False),
    "nested": (_nested, False),
    "tied": (_tied, False),
    "frozen-bias": (_frozen_bias, False),
    "reused-layer": (_reused, False),
    "batchnorm": (_with_batchnorm, True),
    "reused-thrice": (_reused_thrice, True),
    "frozen-backbone": (_frozen_backbone, True),
    "plain-tensor": (_plain_tensor, True),
    "no-parameters": (_no_parameters, True),
    "tied-across-depths": (_tied_across_depths, True),
    "python-list": (_python_list, True),
    "non-persistent-buffer": (_masked, True),
}
#: Parameters that share memory without being one object: each scalar of memory counts once.
MEMORY_CASES: dict[str, tuple[Callable[[Draw], nn.Module], int, bool]] = {
    "weight-twin": (_weight_twin, 2, False),
    "transposed-twin": (_transposed_twin, 2, True),
    "overlapping-windows": (_windows, 2, True),
    "interleaved": (_interleaved, 2, True),
    "disjoint-views": (_disjoint_views, 1, True),
    "frozen-overlap": (_frozen_overlap, 1, True),
}
# Every check also runs on a drawn linear layer and on a drawn nested stack: no constant passes.
for _name, (_make, _points, _hidden) in {**{name: (make, 1, hidden) for name, (make, hidden) in COUNT_CASES.items()},
                                         **MEMORY_CASES}.items():
    count.case(_name, "count_parameters(module)", module_recipe(_make), hidden=_hidden, points=_points,
               search=module_recipe(_make), tries=2, anchors=(module_recipe(_linear), module_recipe(_nested)))


# --------------------------------------------------------------------------- modules-batchnorm
BATCHNORM_CHANNELS = 4
BATCHNORM_INPUT = (8, BATCHNORM_CHANNELS, 5, 5)
BATCHNORM_TRAIN_FORWARDS = 3
BATCHNORM_DTYPE = torch.float16
BATCHNORM_QUESTIONS = {
    "parameters": ("how many tensors does bn.parameters() yield?", "int"),
    "state_dict": ("how many entries does bn.state_dict() hold?", "int"),
    "tracked_after_train": ("bn.num_batches_tracked after the three training forwards", "int"),
    "tracked_after_eval": ("bn.num_batches_tracked after one more forward in eval mode", "int"),
    "tracked_dtype_after_to": ("str(bn.num_batches_tracked.dtype) after bn.to(torch.float16)", "dtype-name"),
    "mean_dtype_after_to": ("str(bn.running_mean.dtype) after bn.to(torch.float16)", "dtype-name"),
}
batchnorm = exercise("modules-batchnorm", "BATCHNORM", require=require_dict("BATCHNORM", list(BATCHNORM_QUESTIONS)))
for _key, (_question, _kind) in BATCHNORM_QUESTIONS.items():
    batchnorm.entry(_key, f"BATCHNORM[{_key!r}] ({_question})", returns=_kind)


# --------------------------------------------------------------------------- modules-selftest
SELFTEST_QUESTIONS = {
    "q1": ("Tower: self.blocks = [nn.Linear(3, 3), nn.Linear(3, 3)], self.out = nn.Linear(3, 1); "
           "how many entries does Tower().state_dict() hold?", "int"),
    "q2": ("self.linear = nn.Linear(4, 4), a buffer mask registered with persistent=False and a buffer "
           "steps; how many entries does state_dict() hold?", "int"),
    "q3": ("enc, dec = nn.Linear(8, 8), nn.Linear(8, 8); dec.weight = enc.weight; how many trainable "
           "scalars does nn.Sequential(enc, nn.ReLU(), dec) hold?", "int"),
    "q4": ("loss = bn(x).sum() in training mode, then bn.num_batches_tracked.zero_(), then loss.backward(): "
           "does backward raise?", "bool"),
    "q5": ("opt = SGD(layer.parameters()); then layer.load_state_dict(zeros for weight and bias); after a "
           "backward and opt.step(), is layer.weight still all zeros?", "bool"),
    "q6": ("a running event counter, a 0-dim int64 tensor: which of the two registrations does torch refuse, "
           "'parameter' or 'buffer'?", ("parameter", "buffer")),
}
selftest("modules-selftest", SELFTEST_QUESTIONS)

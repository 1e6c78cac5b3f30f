"""Chapter 5, "Parameters, buffers and module ownership": the cases that grade its exercises.

The answers are module classes, so every case is a trusted *driver*: it builds the learner's
module, runs training and eval forwards, an optimizer step, a ``state_dict`` round trip through
``torch.save``/``torch.load(weights_only=True)`` or a ``.to()``, and reports what it observed as
plain data. Expected values come from torch's own modules driven the same way: ``calls`` must
behave like ``nn.BatchNorm1d``'s ``num_batches_tracked`` (an int64 buffer that counts training
forwards), ``running_mean`` like the running mean of ``nn.BatchNorm1d(affine=False)``, and the
weights like those of ``nn.Linear``. Nothing is typed in.

Defined in Chapter 5, "Parameters, buffers and module ownership" (notebooks/modules/modules.ipynb).
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import torch
from torch import nn

from autograd_figures.state import state_kind
from autograder.checks import Diagnosis, exercise, require_dict, selftest
from autograder.values import AnswerTypeError, close

IN_FEATURES, OUT_FEATURES = 3, 2
BATCH = 5


def batches(count: int, seed: int, requires_grad: bool = False) -> tuple[torch.Tensor, ...]:
    """``count`` deterministic ``(BATCH, IN_FEATURES)`` batches, shifted so their means differ from 0."""
    generator = torch.Generator().manual_seed(seed)
    made = [torch.randn(BATCH, IN_FEATURES, generator=generator) + torch.arange(1.0, IN_FEATURES + 1)
            for _ in range(count)]
    return tuple(x.requires_grad_(requires_grad) for x in made)


def round_trip(module: nn.Module, fresh: nn.Module) -> nn.Module:
    """Save ``module``'s state_dict to bytes and load it into ``fresh``, as a checkpoint would."""
    buffer = io.BytesIO()
    torch.save(module.state_dict(), buffer)
    buffer.seek(0)
    fresh.load_state_dict(torch.load(buffer, weights_only=True))
    return fresh


def module_class(answer: str) -> Callable[[Any], None]:
    """A whole-answer check: the answer is a subclass of ``nn.Module``."""

    def check(value: Any) -> None:
        if not (isinstance(value, type) and issubclass(value, nn.Module)):
            raise AnswerTypeError(f"{answer} must be a class that subclasses torch.nn.Module, found {value!r}")

    return check


def _found(value: object) -> Callable[[Any, tuple], bool]:
    return lambda found, _inputs: found == value


def kind_diagnoses(name: str) -> tuple[Diagnosis, ...]:
    """What each wrong kind of state says about the learner's model of modules."""
    return (
        Diagnosis(_found("plain tensor"), PLAIN_TENSOR.format(name=name)),
        Diagnosis(_found("non-persistent buffer"), NON_PERSISTENT.format(name=name)),
        Diagnosis(_found("parameter"), PARAMETER.format(name=name)),
        Diagnosis(_found("plain value"), PLAIN_VALUE.format(name=name)),
        Diagnosis(_found("missing"), f"the module has no attribute {name}: register it in __init__."),
    )


PLAIN_TENSOR = (
    "a tensor assigned as a plain attribute (self.{name} = torch.zeros(...)) is invisible to the module: "
    "not in state_dict(), not moved by .to(); register it with self.register_buffer(\"{name}\", ...)."
)
NON_PERSISTENT = (
    "register_buffer(..., persistent=False) keeps {name} out of state_dict(), so a checkpoint loses it; "
    "state that must survive a save and load is a persistent buffer (the default)."
)
PARAMETER = (
    "{name} is state, not something to learn: as an nn.Parameter (even with requires_grad=False) "
    "parameters() hands it to the optimizer; a buffer is saved and moved but never optimized."
)
PLAIN_VALUE = (
    "a Python number attribute is not module state: state_dict() does not save it and .to() does not "
    "move it; keep {name} in a tensor registered with register_buffer."
)


# --------------------------------------------------------------------------- modules-counting-linear
# The learner's `calls` must behave like BatchNorm's `num_batches_tracked`: the drivers take a
# module factory and the counter's name, and run the same on both.
Factory = Callable[[], nn.Module]


def _counter(module: nn.Module, counter: str) -> Any:
    return getattr(module, counter)


def observe_counter_kind(make: Factory, counter: str) -> str:
    """How the module holds its counter."""
    return state_kind(make(), counter)


def observe_counter_type(make: Factory, counter: str) -> tuple:
    """The counter's dtype and shape (or the type of what it is instead)."""
    value = _counter(make(), counter)
    if not isinstance(value, torch.Tensor):
        return (type(value).__name__,)
    return str(value.dtype), tuple(value.shape)


def observe_counts(make: Factory, counter: str, schedule: str, *xs: torch.Tensor) -> int:
    """Run forwards in the modes of ``schedule`` (``t`` training, ``e`` eval), read the counter."""
    module = make()
    with torch.no_grad():
        for mode, x in zip(schedule, xs, strict=True):
            module.train(mode == "t")
            module(x)
    return int(_counter(module, counter))


def observe_count_round_trip(make: Factory, counter: str, *xs: torch.Tensor) -> int:
    """Train on the batches, save and load into a fresh module, read the fresh module's counter."""
    module = make()
    with torch.no_grad():
        for x in xs:
            module(x)
    return int(_counter(round_trip(module, make()), counter))


def observe_counter_device(make: Factory, counter: str, x: torch.Tensor) -> str:
    """After a training forward, move the module to the meta device: where is the counter?"""
    module = make()
    with torch.no_grad():
        module(x)
    module.to("meta")
    value = _counter(module, counter)
    return value.device.type if isinstance(value, torch.Tensor) else type(value).__name__


def observe_counter_grad(make: Factory, counter: str, x: torch.Tensor) -> tuple[bool, bool]:
    """After a forward and backward: does the counter require grad, does parameters() yield it?"""
    module = make()
    module(x).sum().backward()
    value = _counter(module, counter)
    return bool(getattr(value, "requires_grad", False)), any(p is value for p in module.parameters())


def observe_training(make: Factory, _counter_name: str, x: torch.Tensor, target: torch.Tensor) -> dict:
    """One SGD step on a squared error: how many scalars train, and whether the step helps."""
    module = make()
    optimizer = torch.optim.SGD(module.parameters(), lr=1e-2)
    trainable = [p for p in module.parameters() if p.requires_grad]
    scalars = sum(p.numel() for p in trainable)
    loss = ((module(x) - target) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    all_have_grads = scalars > 0 and all(p.grad is not None for p in trainable)
    optimizer.step()
    with torch.no_grad():
        improved = bool(((module(x) - target) ** 2).mean() < loss)
    return {"trainable scalars": scalars, "every trainable parameter gets a gradient": all_have_grads,
            "one step lowers the loss": improved,
            "integer parameters": sum(1 for p in module.parameters() if not p.is_floating_point())}


def on_counting_linear(driver: Callable[..., Any]) -> Callable[..., Any]:
    """A case's call: the driver on the learner's ``CountingLinear(3, 2)`` and its counter ``calls``."""
    return lambda answer, *inputs: driver(lambda: answer(IN_FEATURES, OUT_FEATURES), "calls", *inputs)


def like_batchnorm(driver: Callable[..., Any]) -> Callable[..., Any]:
    """A case's expected value: the driver on ``nn.BatchNorm1d(3)`` and its ``num_batches_tracked``."""
    return lambda *inputs: driver(lambda: nn.BatchNorm1d(IN_FEATURES), "num_batches_tracked", *inputs)


def like_linear(driver: Callable[..., Any]) -> Callable[..., Any]:
    """A case's expected value: the driver on ``nn.Linear(3, 2)``, whose weights train as the answer's must."""
    return lambda *inputs: driver(lambda: nn.Linear(IN_FEATURES, OUT_FEATURES), "", *inputs)


COUNTS_TRAINING = "calls goes up by one per forward pass in training mode (module.training is True)."
SKIPS_EVAL = (
    "calls counts forward passes in training mode only: check self.training, which model.eval() "
    "sets to False, before counting."
)
ROUND_TRIP = (
    "the count must survive a state_dict round trip: only parameters and persistent buffers are in "
    "state_dict(), and load_state_dict() restores exactly those."
)
COUNTER_TYPE = (
    "calls is a 0-dim int64 tensor, torch.zeros((), dtype=torch.int64), as BatchNorm's "
    "num_batches_tracked: an integer count, kept in a tensor so the module can save and move it."
)
WEIGHTS_TRAIN = (
    "the weights must be nn.Parameter (or come from an nn.Linear submodule): a tensor attribute that "
    "requires grad is not registered, so parameters() and the optimizer never see it."
)
INTEGER_PARAMETER = (
    "calls is an integer nn.Parameter: requires_grad=False keeps it from getting a gradient, but "
    "parameters() still hands it to every optimizer, and an integer tensor can never be trained anyway. "
    "A count the module keeps is a buffer, as BatchNorm's num_batches_tracked is."
)


def _integer_parameters(found: Any, _inputs: tuple) -> bool:
    return isinstance(found, dict) and bool(found.get("integer parameters"))


counting = exercise("modules-counting-linear", "CountingLinear", require=module_class("CountingLinear"))
counting.case("kind", "how CountingLinear(3, 2) holds calls", lambda: (),
              call=on_counting_linear(observe_counter_kind), expect=like_batchnorm(observe_counter_kind),
              returns="str", otherwise=PLAIN_TENSOR.format(name="calls"), diagnoses=kind_diagnoses("calls"))
counting.case("dtype-shape", "(dtype, shape) of CountingLinear(3, 2).calls", lambda: (),
              call=on_counting_linear(observe_counter_type), expect=like_batchnorm(observe_counter_type),
              returns="observation", otherwise=COUNTER_TYPE)
counting.case("counts-training", "calls after 3 training forwards", lambda: ("ttt", *batches(3, 1)),
              call=on_counting_linear(observe_counts), expect=like_batchnorm(observe_counts),
              returns="int", otherwise=COUNTS_TRAINING)
counting.case("skips-eval", "calls after 2 training, 3 eval and 1 training forwards",
              lambda: ("tteeet", *batches(6, 2)),
              call=on_counting_linear(observe_counts), expect=like_batchnorm(observe_counts),
              returns="int", otherwise=SKIPS_EVAL)
counting.case("round-trip", "calls of a fresh module after load_state_dict (4 training forwards saved)",
              lambda: batches(4, 3),
              call=on_counting_linear(observe_count_round_trip), expect=like_batchnorm(observe_count_round_trip),
              returns="int", otherwise=ROUND_TRIP, hidden=True)
counting.case("moves-with-to", 'calls.device.type after module.to("meta")', lambda: batches(1, 4),
              call=on_counting_linear(observe_counter_device), expect=like_batchnorm(observe_counter_device),
              returns="str", otherwise=PLAIN_TENSOR.format(name="calls"), hidden=True)
counting.case("never-requires-grad", "(calls.requires_grad, calls in parameters()) after backward",
              lambda: batches(1, 5),
              call=on_counting_linear(observe_counter_grad), expect=like_batchnorm(observe_counter_grad),
              returns="observation", otherwise=PARAMETER.format(name="calls"), hidden=True)
counting.case("weights-train", "one SGD step on CountingLinear(3, 2)",
              lambda: (*batches(1, 6), torch.ones(BATCH, OUT_FEATURES)),
              call=on_counting_linear(observe_training), expect=like_linear(observe_training),
              returns="observation", otherwise=WEIGHTS_TRAIN,
              diagnoses=(Diagnosis(_integer_parameters, INTEGER_PARAMETER),), hidden=True)


# --------------------------------------------------------------------------- modules-running-mean
def _reference(momentum: float) -> nn.BatchNorm1d:
    """Torch's own running mean: BatchNorm without the affine parameters."""
    return nn.BatchNorm1d(IN_FEATURES, momentum=momentum, affine=False)


def _running(module: nn.Module) -> torch.Tensor:
    # detach() gives a plain tensor even when running_mean is (wrongly) a Parameter.
    return torch.as_tensor(module.running_mean).detach().clone()


def observe_running_kind(make: Factory) -> str:
    return state_kind(make(), "running_mean")


def observe_train_output(make: Factory, x: torch.Tensor) -> torch.Tensor:
    return make()(x).detach()


def observe_running_mean(make: Factory, *xs: torch.Tensor) -> torch.Tensor:
    """running_mean after a training forward on each batch."""
    module = make()
    for x in xs:
        module(x)
    return _running(module)


def observe_eval_output(make: Factory, x: torch.Tensor, *xs: torch.Tensor) -> torch.Tensor:
    """Train on ``xs``, then the output of one eval forward on ``x``."""
    module = make()
    for batch in xs:
        module(batch)
    module.eval()
    return module(x).detach()


def observe_eval_frozen(make: Factory, *xs: torch.Tensor) -> torch.Tensor:
    """Train on the first two batches, run the others in eval: running_mean at the end."""
    module = make()
    for i, x in enumerate(xs):
        module.train(i < 2)
        module(x)
    return _running(module)


def observe_running_graph(make: Factory, x: torch.Tensor) -> tuple[bool, bool]:
    """After a training forward on an input that requires grad: does running_mean carry a graph?"""
    module = make()
    module(x)
    running = module.running_mean
    return bool(running.requires_grad), running.grad_fn is not None


def observe_round_trip_eval(make: Factory, x: torch.Tensor, *xs: torch.Tensor) -> torch.Tensor:
    """Train on ``xs``, save and load into a fresh module, eval output of the fresh one on ``x``."""
    module = make()
    for batch in xs:
        module(batch)
    fresh = round_trip(module, make())
    fresh.eval()
    return fresh(x).detach()


def observe_running_dtype(make: Factory, x: torch.Tensor) -> str:
    module = make()
    module(x)
    module.to(torch.float64)
    return str(module.running_mean.dtype)


def _batch_means(xs: tuple[torch.Tensor, ...]) -> list[torch.Tensor]:
    return [x.detach().mean(0) for x in xs]


def _reversed_momentum(found: Any, inputs: tuple) -> bool:
    """running_mean <- momentum * running_mean + (1 - momentum) * batch mean (PyTorch's is the other way)."""
    running = torch.zeros(IN_FEATURES)
    for mean in _batch_means(inputs):
        running = 0.1 * running + 0.9 * mean
    return type(found) is torch.Tensor and torch.allclose(found, running, atol=1e-5)


def _from_first_batch(found: Any, inputs: tuple) -> bool:
    """Started from the first batch's mean instead of zeros."""
    means = _batch_means(inputs)
    running = means[0]
    for mean in means[1:]:
        running = 0.9 * running + 0.1 * mean
    return type(found) is torch.Tensor and torch.allclose(found, running, atol=1e-5)


def _last_batch(found: Any, inputs: tuple) -> bool:
    return type(found) is torch.Tensor and torch.allclose(found, _batch_means(inputs)[-1], atol=1e-5)


def _batch_centred(found: Any, inputs: tuple) -> bool:
    x = inputs[0].detach()
    return type(found) is torch.Tensor and found.shape == x.shape and torch.allclose(found, x - x.mean(0), atol=1e-5)


def _updated_in_eval(found: Any, inputs: tuple) -> bool:
    """The eval batches moved running_mean too."""
    running = torch.zeros(IN_FEATURES)
    for mean in _batch_means(inputs):
        running = 0.9 * running + 0.1 * mean
    return type(found) is torch.Tensor and torch.allclose(found, running, atol=1e-5)


MOMENTUM = (
    "BatchNorm's momentum weights the new batch: running_mean <- (1 - momentum) * running_mean + "
    "momentum * x.mean(0), starting from zeros; it is not the weight of the old value."
)
START_ZEROS = "running_mean starts from zeros (as BatchNorm's does), not from the first batch's mean."
RUNNING_UPDATE = (
    "in training, running_mean <- (1 - momentum) * running_mean + momentum * x.mean(0) once per forward, "
    "starting from zeros, with the momentum given to __init__."
)
TRAIN_OUTPUT = "in training the module returns x - x.mean(0): centred by the current batch's own mean."
EVAL_OUTPUT = (
    "in eval the module returns x - running_mean: the batch's own mean is what training uses; eval must "
    "not depend on which other samples share the batch."
)
EVAL_FROZEN = "in eval (self.training False) the forward must not update running_mean."
NO_GRAPH = (
    "the running-mean update must not build a graph: do it under torch.no_grad() (or from x.detach()), "
    "in place; otherwise running_mean requires grad and drags every past batch's graph along."
)
FLOAT64 = "module.to(torch.float64) casts buffers and parameters; running_mean must be a registered buffer."



def on_running_mean(driver: Callable[..., Any], **momentum: float) -> Callable[..., Any]:
    """A case's call: the driver on the learner's ``RunningMean(3)`` (``momentum=`` only when given)."""
    return lambda answer, *inputs: driver(lambda: answer(IN_FEATURES, **momentum), *inputs)


def like_reference(driver: Callable[..., Any], momentum: float = 0.1) -> Callable[..., Any]:
    """A case's expected value: the driver on BatchNorm's running mean with this momentum."""
    return lambda *inputs: driver(lambda: _reference(momentum), *inputs)


def centred_by_batch(x: torch.Tensor) -> torch.Tensor:
    """Expected training output. BatchNorm's training output is also divided by the batch's spread:
    compute the centring here."""
    return x.detach() - x.detach().mean(0)


def centred_by_reference(x: torch.Tensor, *xs: torch.Tensor) -> torch.Tensor:
    """Expected eval output on ``x`` after training on ``xs``: ``x`` minus BatchNorm's running mean."""
    return x.detach() - observe_running_mean(lambda: _reference(0.1), *xs)


running = exercise("modules-running-mean", "RunningMean", require=module_class("RunningMean"))
running.case("kind", "how RunningMean(3) holds running_mean", lambda: (),
             call=on_running_mean(observe_running_kind), expect=like_reference(observe_running_kind),
             returns="str", otherwise=PLAIN_TENSOR.format(name="running_mean"),
             diagnoses=kind_diagnoses("running_mean"))
running.case("train-output", "RunningMean(3)(x) in training", lambda: batches(1, 11),
             call=on_running_mean(observe_train_output), expect=centred_by_batch,
             returns="tensor", agree=close, otherwise=TRAIN_OUTPUT)
running.case("running-after-3", "running_mean after 3 training forwards", lambda: batches(3, 12),
             call=on_running_mean(observe_running_mean), expect=like_reference(observe_running_mean),
             returns="tensor", agree=close, otherwise=RUNNING_UPDATE,
             diagnoses=(Diagnosis(_reversed_momentum, MOMENTUM), Diagnosis(_from_first_batch, START_ZEROS),
                        Diagnosis(_last_batch, RUNNING_UPDATE)))
running.case("no-graph", "(running_mean.requires_grad, has grad_fn) after a forward on x.requires_grad_()",
             lambda: batches(1, 13, requires_grad=True),
             call=on_running_mean(observe_running_graph), expect=like_reference(observe_running_graph),
             returns="observation", otherwise=NO_GRAPH)
running.case("eval-output", "eval output after 3 training forwards", lambda: batches(4, 14),
             call=on_running_mean(observe_eval_output), expect=centred_by_reference,
             returns="tensor", agree=close, otherwise=EVAL_OUTPUT,
             diagnoses=(Diagnosis(_batch_centred, EVAL_OUTPUT),), hidden=True)
running.case("eval-frozen", "running_mean after 2 training and 2 eval forwards", lambda: batches(4, 15),
             call=on_running_mean(observe_eval_frozen), expect=like_reference(observe_eval_frozen),
             returns="tensor", agree=close, otherwise=EVAL_FROZEN,
             diagnoses=(Diagnosis(_updated_in_eval, EVAL_FROZEN),), hidden=True)
running.case("momentum", "running_mean of RunningMean(3, momentum=0.5) after 2 training forwards",
             lambda: batches(2, 16),
             call=on_running_mean(observe_running_mean, momentum=0.5),
             expect=like_reference(observe_running_mean, momentum=0.5),
             returns="tensor", agree=close, otherwise=RUNNING_UPDATE, hidden=True)
running.case("round-trip", "eval output of a fresh module after load_state_dict", lambda: batches(3, 17),
             call=on_running_mean(observe_round_trip_eval), expect=centred_by_reference,
             returns="tensor", agree=close, otherwise=NON_PERSISTENT.format(name="running_mean"), hidden=True)
running.case("float64", "running_mean.dtype after module.to(torch.float64)", lambda: batches(1, 18),
             call=on_running_mean(observe_running_dtype), expect=like_reference(observe_running_dtype),
             returns="str", otherwise=FLOAT64, hidden=True)


# --------------------------------------------------------------------------- modules-count-params
class TiedLanguageModel(nn.Module):
    """An embedding whose weight is also the output layer's: one tensor, two names."""

    def __init__(self, vocabulary: int = 10, width: int = 4) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocabulary, width)
        self.mix = nn.Linear(width, width)
        self.head = nn.Linear(width, vocabulary, bias=False)
        self.head.weight = self.embed.weight

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.head(torch.tanh(self.mix(self.embed(tokens))))


class WithPlainTensor(nn.Module):
    """A linear layer plus a tensor attribute that requires grad but was never registered."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(4, 2)
        self.scale = torch.ones(2, requires_grad=True)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.linear(x) * self.scale


def _linear() -> tuple[nn.Module]:
    return (nn.Linear(4, 3),)


def _nested() -> tuple[nn.Module]:
    return (nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Sequential(nn.Linear(8, 8), nn.Tanh(), nn.Linear(8, 2))),)


def _frozen_bias() -> tuple[nn.Module]:
    layer = nn.Linear(4, 3)
    layer.bias.requires_grad_(False)
    return (layer,)


def _with_batchnorm() -> tuple[nn.Module]:
    return (nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU()),)


def _reused_layer() -> tuple[nn.Module]:
    layer = nn.Linear(4, 4)
    return (nn.Sequential(layer, nn.ReLU(), layer),)


def _frozen_backbone() -> tuple[nn.Module]:
    backbone, head = nn.Linear(6, 4), nn.Linear(4, 2)
    backbone.requires_grad_(False)
    return (nn.Sequential(backbone, nn.ReLU(), head),)


class ListHeld(nn.Module):
    """Two layers kept in a plain Python list (not registered) and one registered output layer."""

    def __init__(self) -> None:
        super().__init__()
        self.blocks = [nn.Linear(5, 5), nn.Linear(5, 5)]
        self.out = nn.Linear(5, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for block in self.blocks:
            x = torch.relu(block(x))
        return self.out(x)


class Masked(nn.Module):
    """A linear layer, a non-persistent mask buffer and a persistent step counter."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(6, 3)
        self.register_buffer("mask", torch.ones(3, 6), persistent=False)
        self.register_buffer("steps", torch.zeros((), dtype=torch.int64))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ (self.linear.weight * self.mask).T + self.linear.bias


def _tied_across_depths() -> tuple[nn.Module]:
    """A decoder two levels down reusing an encoder's weight; one bias frozen."""
    encoder, decoder = nn.Linear(6, 6), nn.Linear(6, 6)
    decoder.weight = encoder.weight
    decoder.bias.requires_grad_(False)
    return (nn.Sequential(encoder, nn.Tanh(), nn.Sequential(nn.Identity(), nn.Sequential(decoder))),)


def _list_held_scalars(module: nn.Module) -> int:
    """What a count that also walked modules kept in Python lists would find."""
    extra = sum(p.numel() for value in vars(module).values() if isinstance(value, list)
                for item in value if isinstance(item, nn.Module) for p in item.parameters() if p.requires_grad)
    return sum(p.numel() for p in module.parameters() if p.requires_grad) + extra


def trainable_scalars(module: nn.Module) -> int:
    """Trusted reference: ``parameters()`` yields each tensor once, tied or reused ones included."""
    return sum(p.numel() for p in module.parameters() if p.requires_grad)


def _counts(counter: Callable[[nn.Module], int]) -> Callable[[Any, tuple], bool]:
    return lambda found, inputs: type(found) is int and found == counter(inputs[0])


TENSORS = "count scalars, not tensors: each parameter contributes p.numel() numbers."
FROZEN = "a parameter with requires_grad=False is frozen: it is not trainable, so it does not count."
TIED = (
    "a tied (shared) weight is one tensor under two names: count it once. parameters() already yields "
    "each tensor once; named_parameters(remove_duplicate=False) and state_dict() list it under both names."
)
STATE_DICT = (
    "state_dict() holds buffers (BatchNorm's running statistics and num_batches_tracked) and every name of a "
    "tied weight: it is what a checkpoint saves, not what the optimizer trains."
)
RECURSE = "parameters live in submodules too: module.parameters() recurses into every child module."
PLAIN = "a tensor attribute is not a parameter, even if it requires grad: only registered nn.Parameters count."
BUFFERS = (
    "buffers are not parameters, persistent or not (a mask, a step counter, running statistics): the "
    "optimizer never trains them, so they do not count."
)
PYTHON_LIST = (
    "modules kept in a plain Python list are not registered: parameters() does not yield them and no "
    "optimizer built from it trains them, so they are not the module's trainable parameters "
    "(an nn.ModuleList would register them)."
)

count = exercise(
    "modules-count-params", "count_parameters", expect=trainable_scalars, returns="int",
    diagnoses=(
        Diagnosis(_counts(lambda m: len(list(m.parameters()))), TENSORS),
        Diagnosis(_counts(lambda m: sum(p.numel() for p in m.parameters())), FROZEN),
        Diagnosis(_counts(lambda m: sum(p.numel() for _, p in m.named_parameters(remove_duplicate=False)
                                        if p.requires_grad)), TIED),
        Diagnosis(_counts(lambda m: sum(t.numel() for t in m.state_dict().values())), STATE_DICT),
        Diagnosis(_counts(lambda m: sum(p.numel() for p in m.parameters(recurse=False) if p.requires_grad)),
                  RECURSE),
        Diagnosis(_counts(lambda m: trainable_scalars(m) + sum(b.numel() for b in m.buffers())), BUFFERS),
        Diagnosis(_counts(_list_held_scalars), PYTHON_LIST),
    ),
)
count.case("linear", "count_parameters(nn.Linear(4, 3))", _linear, otherwise=TENSORS)
count.case("nested", "count_parameters(nested nn.Sequential of three nn.Linear)", _nested, otherwise=RECURSE)
count.case("tied", "count_parameters(embedding tied to the output layer)", lambda: (TiedLanguageModel(),),
           otherwise=TIED)
count.case("frozen-bias", "count_parameters(nn.Linear(4, 3) with a frozen bias)", _frozen_bias, otherwise=FROZEN)
count.case("batchnorm", "count_parameters(Linear, BatchNorm1d, ReLU)", _with_batchnorm, otherwise=STATE_DICT,
           hidden=True)
count.case("reused-layer", "count_parameters(the same nn.Linear used twice)", _reused_layer, otherwise=TIED,
           hidden=True)
count.case("frozen-backbone", "count_parameters(frozen backbone, trainable head)", _frozen_backbone,
           otherwise=FROZEN, hidden=True)
count.case("plain-tensor", "count_parameters(module with a plain tensor attribute)", lambda: (WithPlainTensor(),),
           otherwise=PLAIN, hidden=True)
count.case("no-parameters", "count_parameters(nn.ReLU())", lambda: (nn.ReLU(),), otherwise=TENSORS, hidden=True)
count.case("tied-across-depths", "count_parameters(a decoder two levels down reusing an encoder's weight)",
           _tied_across_depths, otherwise=TIED, hidden=True)
count.case("python-list", "count_parameters(two layers in a Python list, one registered layer)",
           lambda: (ListHeld(),), otherwise=PYTHON_LIST, hidden=True)
count.case("non-persistent-buffer", "count_parameters(a layer with a non-persistent mask and a step counter)",
           lambda: (Masked(),), otherwise=BUFFERS, hidden=True)


# --------------------------------------------------------------------------- modules-batchnorm (reproduce)
# A BatchNorm the chapter never builds, so the answers come from the mechanism, not from the page:
# 2-d (one statistic per channel of an (N, C, H, W) input), without the affine weight and bias,
# moved to a dtype the chapter never moves to.
BATCHNORM_CHANNELS = 4
BATCHNORM_INPUT = (8, BATCHNORM_CHANNELS, 5, 5)
BATCHNORM_TRAIN_FORWARDS = 3
BATCHNORM_DTYPE = torch.float16


def batchnorm_story() -> dict[str, object]:
    """The reproduction task, run: ``bn = nn.BatchNorm2d(4, affine=False)``, three training
    forwards on ``(8, 4, 5, 5)`` inputs, one eval forward, then ``bn.to(torch.float16)``; what each
    question asks, read off torch."""
    bn = nn.BatchNorm2d(BATCHNORM_CHANNELS, affine=False)
    story: dict[str, object] = {
        "parameters": len(list(bn.parameters())),
        "state_dict": len(bn.state_dict()),
    }
    generator = torch.Generator().manual_seed(21)  # its own, so grading leaves the global stream alone
    for _ in range(BATCHNORM_TRAIN_FORWARDS):
        bn(torch.randn(BATCHNORM_INPUT, generator=generator))
    story["tracked_after_train"] = int(bn.num_batches_tracked)
    bn.eval()
    bn(torch.randn(BATCHNORM_INPUT, generator=generator))
    story["tracked_after_eval"] = int(bn.num_batches_tracked)
    bn.to(BATCHNORM_DTYPE)
    story["tracked_dtype_after_to"] = str(bn.num_batches_tracked.dtype)
    story["mean_dtype_after_to"] = str(bn.running_mean.dtype)
    return story


BATCHNORM_QUESTIONS = {
    "parameters": ("int", "how many tensors does bn.parameters() yield?",
                   "affine=False: no weight and no bias, so no parameters at all; running_mean, running_var and "
                   "num_batches_tracked are buffers, which parameters() never yields."),
    "state_dict": ("int", "how many entries does bn.state_dict() hold?",
                   "state_dict() holds the parameters and every persistent buffer: with affine=False there is no "
                   "weight or bias to save, and all three buffers (running_mean, running_var and "
                   "num_batches_tracked, the counter included) are saved."),
    "tracked_after_train": ("int", "bn.num_batches_tracked after the three training forwards",
                            "num_batches_tracked goes up by one per forward in training mode: it counts batches, "
                            "not channels, samples or elements, however many an (N, C, H, W) input holds."),
    "tracked_after_eval": ("int", "bn.num_batches_tracked after one more forward in eval mode",
                           "the counter keeps the count of the training forwards, one per batch, and the eval "
                           "forward adds nothing: in eval mode BatchNorm reads its running statistics and updates "
                           "nothing, num_batches_tracked included."),
    "tracked_dtype_after_to": ("str", "str(bn.num_batches_tracked.dtype) after bn.to(torch.float16)",
                               ".to(dtype) casts only floating-point (and complex) parameters and buffers: the "
                               "integer counter moves with the module but stays torch.int64, whatever floating dtype "
                               "the module moves to."),
    "mean_dtype_after_to": ("str", "str(bn.running_mean.dtype) after bn.to(torch.float16)",
                            ".to(dtype) casts floating-point buffers as well as parameters, to the dtype it is "
                            "given: running_mean becomes torch.float16 (not left float32, and not the float64 of "
                            "the chapter's own moves)."),
}

batchnorm = exercise(
    "modules-batchnorm", "BATCHNORM", require=require_dict("BATCHNORM", list(BATCHNORM_QUESTIONS)),
    expect=lambda key: batchnorm_story()[key],
)
for _key, (_kind, _question, _message) in BATCHNORM_QUESTIONS.items():
    batchnorm.entry(_key, f"BATCHNORM[{_key!r}] ({_question})", returns=_kind, otherwise=_message,
                    hidden=_key in ("tracked_after_eval", "tracked_dtype_after_to"))


# --------------------------------------------------------------------------- modules-selftest
# Each question is a situation the chapter did not print: its answer needs the mechanism.
class _Stack(nn.Module):
    """q1: two blocks in a Python list, one registered output layer."""

    def __init__(self) -> None:
        super().__init__()
        self.blocks = [nn.Linear(3, 3), nn.Linear(3, 3)]
        self.out = nn.Linear(3, 1)


class _MaskedLinear(nn.Module):
    """q2: a layer, a non-persistent mask and a persistent step counter."""

    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(4, 4)
        self.register_buffer("mask", torch.ones(4, 4), persistent=False)
        self.register_buffer("steps", torch.zeros((), dtype=torch.int64))


def _tied_autoencoder_scalars() -> int:
    """q3: ``dec.weight = enc.weight`` across two modules; trainable scalars of the model."""
    encoder, decoder = nn.Linear(8, 8), nn.Linear(8, 8)
    decoder.weight = encoder.weight
    model = nn.Sequential(encoder, nn.ReLU(), decoder)
    return sum(p.numel() for p in model.parameters() if p.requires_grad)


def _counter_reset_before_backward_raises() -> bool:
    """q4: ``bn.num_batches_tracked.zero_()`` between a training forward and ``backward()``."""
    bn = nn.BatchNorm1d(3)
    loss = bn(batches(1, 32, requires_grad=True)[0]).sum()
    bn.num_batches_tracked.zero_()
    try:
        loss.backward()
    except RuntimeError as error:
        return "modified by an inplace operation" in str(error)
    return False


def _loaded_weight_stays() -> bool:
    """q5: zeros loaded with ``load_state_dict`` after the optimizer was built; unchanged after a step?"""
    layer = nn.Linear(3, 2)
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
    layer.load_state_dict({"weight": torch.zeros(2, 3), "bias": torch.zeros(2)})
    layer(torch.ones(4, 3)).sum().backward()
    optimizer.step()
    return bool(torch.equal(layer.weight, torch.zeros(2, 3)))


SELFTEST_QUESTIONS = {
    "q1": ("Stack: self.blocks = [nn.Linear(3, 3), nn.Linear(3, 3)], self.out = nn.Linear(3, 1); "
           "how many entries does Stack().state_dict() hold?", "int", lambda: len(_Stack().state_dict()),
           "a Python list is a plain attribute: the modules in it are not registered, so state_dict() holds "
           "only out.weight and out.bias (nn.ModuleList would register the blocks)."),
    "q2": ("nn.Linear(4, 4) as self.linear, a buffer mask registered with persistent=False and a buffer "
           "steps; how many entries does state_dict() hold?", "int", lambda: len(_MaskedLinear().state_dict()),
           "state_dict() holds the parameters and the persistent buffers: linear.weight, linear.bias and steps; "
           "persistent=False keeps mask out."),
    "q3": ("enc, dec = nn.Linear(8, 8), nn.Linear(8, 8); dec.weight = enc.weight; how many trainable "
           "scalars does nn.Sequential(enc, nn.ReLU(), dec) hold?", "int", _tied_autoencoder_scalars,
           "dec.weight is enc.weight: one 8 x 8 tensor, counted once, plus the two 8-element biases."),
    "q4": ("loss = bn(x).sum() in training mode, then bn.num_batches_tracked.zero_(), then loss.backward(): "
           "does backward raise?", "bool", _counter_reset_before_backward_raises,
           "the batch-norm node saves the input, the weight and the running statistics (running_mean, "
           "running_var), not the counter: zero_() bumps a version that no saved tensor notes, so backward "
           "runs. reset_running_stats() raises because it also zeroes running_mean and refills running_var."),
    "q5": ("opt = SGD(layer.parameters()); then layer.load_state_dict(zeros for weight and bias); after a "
           "backward and opt.step(), is layer.weight still all zeros?", "bool", _loaded_weight_stays,
           "load_state_dict copies into the existing Parameters in place (param.copy_), so the optimizer "
           "still holds them and the step moves the loaded zeros; only assigning a new nn.Parameter leaves "
           "the optimizer with the old one."),
}


selftest("modules-selftest", lambda: SELFTEST_QUESTIONS, hidden=("q4", "q5"))

"""The key of Chapter 5, "Parameters, buffers and module ownership".

Each reference is an answer as a learner would write it (``register_buffer``, an ``nn.Linear``
submodule, ``parameters()``), run through the case's own driver: the key holds what torch's module
machinery does with it. Each model is an answer that makes one catalogued mistake.
"""

from __future__ import annotations

import torch
from torch import nn

from answer_key.keys import Model, key
from autograder.chapters.modules import BATCHNORM_CHANNELS, BATCHNORM_DTYPE, BATCHNORM_INPUT, BATCHNORM_TRAIN_FORWARDS


# --------------------------------------------------------------------------- modules-counting-linear
def _counting(register, count=None, weights=None):
    """A CountingLinear class: ``register(self)`` creates calls, ``count(self)`` runs in forward."""

    class CountingLinear(nn.Module):
        def __init__(self, in_features, out_features):
            super().__init__()
            if weights is None:
                self.linear = nn.Linear(in_features, out_features)
            else:
                weights(self, in_features, out_features)
            register(self)

        def forward(self, x):
            (count or _count_in_training)(self)
            if weights is None:
                return self.linear(x)
            return x @ self.weight.T + self.bias

    return CountingLinear


def _count_in_training(module):
    if module.training:
        module.calls += 1


def _int64_buffer(module):
    module.register_buffer("calls", torch.zeros((), dtype=torch.int64))


CountingLinear = _counting(_int64_buffer)


def _plain_weights(module, in_features, out_features):
    module.weight = torch.randn(out_features, in_features, requires_grad=True)
    module.bias = torch.zeros(out_features, requires_grad=True)


def _always(module):
    module.calls += 1


key("modules-counting-linear", CountingLinear, models=[
    Model("plain-tensor", _counting(lambda m: setattr(m, "calls", torch.zeros((), dtype=torch.int64))),
          "a tensor assigned as an attribute belonged to the module like a registered one."),
    Model("non-persistent", _counting(lambda m: m.register_buffer("calls", torch.zeros((), dtype=torch.int64),
                                                                  persistent=False)),
          "every buffer went into the state_dict, persistent=False or not."),
    Model("counts-eval", _counting(_int64_buffer, _always), "a forward in eval mode counted like a training one."),
    Model("python-int", _counting(lambda m: setattr(m, "calls", 0)),
          "a Python number kept on the module were saved and moved with it."),
    Model("frozen-parameter", _counting(lambda m: setattr(m, "calls", nn.Parameter(torch.zeros(()),
                                                                                   requires_grad=False))),
          "a Parameter with requires_grad=False were state the optimizer leaves alone, like a buffer."),
    Model("integer-parameter", _counting(lambda m: setattr(m, "calls", nn.Parameter(
        torch.zeros((), dtype=torch.int64), requires_grad=False))),
          "an integer Parameter that does not require grad were state the optimizer never sees."),
    Model("float-counter", _counting(lambda m: m.register_buffer("calls", torch.zeros(()))),
          "a count could be kept in a floating-point tensor like any other."),
    Model("one-element-counter", _counting(lambda m: m.register_buffer("calls", torch.zeros(1, dtype=torch.int64))),
          "a one-element tensor of shape (1,) were the same as an int64 scalar."),
    Model("unregistered-weights", _counting(_int64_buffer, weights=_plain_weights),
          "tensors that require grad, assigned as attributes, were parameters of the module."),
])


# --------------------------------------------------------------------------- modules-running-mean
def _running_mean(init=None, forward=None):
    class RunningMean(nn.Module):
        def __init__(self, num_features, momentum=0.1):
            super().__init__()
            self.momentum = momentum
            (init or _buffer)(self, num_features)

        def forward(self, x):
            return (forward or _reference_forward)(self, x)

    return RunningMean


def _buffer(module, n):
    module.register_buffer("running_mean", torch.zeros(n))


def _reference_forward(module, x):
    if module.training:
        mean = x.mean(0)
        with torch.no_grad():
            module.running_mean.mul_(1 - module.momentum).add_(module.momentum * mean)
        return x - mean
    return x - module.running_mean


RunningMean = _running_mean()


def _reversed(module, x):
    if module.training:
        mean = x.mean(0)
        with torch.no_grad():
            module.running_mean.mul_(module.momentum).add_((1 - module.momentum) * mean)
        return x - mean
    return x - module.running_mean


def _with_graph(module, x):
    if module.training:
        mean = x.mean(0)
        module.running_mean = (1 - module.momentum) * module.running_mean + module.momentum * mean
        return x - mean
    return x - module.running_mean


def _detached_mean(module, x):
    if module.training:
        mean = x.detach().mean(0)
        with torch.no_grad():
            module.running_mean.mul_(1 - module.momentum).add_(module.momentum * mean)
        return x - mean
    return x - module.running_mean


def _batch_mean_in_eval(module, x):
    mean = x.mean(0)
    if module.training:
        with torch.no_grad():
            module.running_mean.mul_(1 - module.momentum).add_(module.momentum * mean)
    return x - mean


def _running_mean_in_training(module, x):
    if module.training:
        with torch.no_grad():
            module.running_mean.mul_(1 - module.momentum).add_(module.momentum * x.mean(0))
    return x - module.running_mean


def _updates_in_eval(module, x):
    mean = x.mean(0)
    with torch.no_grad():
        module.running_mean.mul_(1 - module.momentum).add_(module.momentum * mean)
    return x - mean if module.training else x - module.running_mean


def _from_first_batch(module, x):
    if not module.training:
        return x - module.running_mean
    mean = x.mean(0)
    with torch.no_grad():
        if not module.started:
            module.running_mean.copy_(mean)
            module.started = True
        else:
            module.running_mean.mul_(1 - module.momentum).add_(module.momentum * mean)
    return x - mean


def _started_buffer(module, n):
    _buffer(module, n)
    module.started = False


def _fixed_momentum(module, n):
    _buffer(module, n)
    module.momentum = 0.1


key("modules-running-mean", RunningMean, models=[
    Model("reversed-momentum", _running_mean(forward=_reversed),
          "momentum weighed the running value and 1 − momentum the new batch."),
    Model("builds-a-graph", _running_mean(forward=_with_graph),
          "an update computed with recording on left running_mean out of the graph."),
    Model("batch-mean-in-eval", _running_mean(forward=_batch_mean_in_eval),
          "eval mode centred a batch by its own mean, as training does."),
    Model("running-mean-in-training", _running_mean(forward=_running_mean_in_training),
          "training centred the batch on the running mean, as eval does."),
    Model("updates-in-eval", _running_mean(forward=_updates_in_eval),
          "every forward updated running_mean, in eval mode too."),
    Model("plain-tensor", _running_mean(init=lambda m, n: setattr(m, "running_mean", torch.zeros(n))),
          "a tensor assigned as an attribute belonged to the module like a registered one."),
    Model("frozen-parameter", _running_mean(init=lambda m, n: setattr(m, "running_mean", nn.Parameter(
        torch.zeros(n), requires_grad=False))),
          "a Parameter with requires_grad=False were state the optimizer leaves alone, like a buffer."),
    Model("non-persistent", _running_mean(init=lambda m, n: m.register_buffer("running_mean", torch.zeros(n),
                                                                              persistent=False)),
          "every buffer went into the state_dict, persistent=False or not."),
    Model("from-first-batch", _running_mean(init=_started_buffer, forward=_from_first_batch),
          "the running mean started from the first batch's mean."),
    Model("momentum-ignored", _running_mean(init=_fixed_momentum),
          "the momentum was always 0.1, whatever __init__ was given."),
    Model("detached-mean", _running_mean(forward=_detached_mean),
          "the batch mean subtracted in training were a constant, through which no gradient flows back to x."),
])


# --------------------------------------------------------------------------- modules-count-params
def _places(p):
    """The storage and the element index of each scalar of ``p``'s memory."""
    index = torch.as_strided(torch.arange(p.untyped_storage().nbytes() // p.element_size()),
                             p.shape, p.stride(), p.storage_offset())
    return {(p.untyped_storage().data_ptr(), i) for i in index.flatten().tolist()}


def _covered(tensors):
    return len(set().union(*(_places(p) for p in tensors)))


def count_parameters(module):
    return _covered(p for p in module.parameters() if p.requires_grad)


def _per_object(module):
    return sum(p.numel() for p in module.parameters() if p.requires_grad)


def _whole_storages(module):
    storages = {p.untyped_storage().data_ptr(): p.untyped_storage().nbytes() // p.element_size()
                for p in module.parameters() if p.requires_grad}
    return sum(storages.values())


def _first_per_storage(module):
    first = {}
    for p in module.parameters():
        if p.requires_grad:
            first.setdefault(p.untyped_storage().data_ptr(), p.numel())
    return sum(first.values())


def _stretches(module):
    """Each parameter as the consecutive stretch of memory from its offset, numel long."""
    return len({(p.untyped_storage().data_ptr(), p.storage_offset() + i)
                for p in module.parameters() if p.requires_grad for i in range(p.numel())})


def _first_to_last(module):
    """Each parameter as every scalar from its first element to its last, gaps of its strides included."""
    places = set()
    for p in module.parameters():
        if p.requires_grad and p.numel():
            last = p.storage_offset() + sum((n - 1) * s for n, s in zip(p.shape, p.stride(), strict=True))
            places.update((p.untyped_storage().data_ptr(), i) for i in range(p.storage_offset(), last + 1))
    return len(places)


def _frozen_wins(module):
    frozen = set().union(*(_places(p) for p in module.parameters() if not p.requires_grad))
    return len(set().union(*(_places(p) for p in module.parameters() if p.requires_grad)) - frozen)


def _sums_children(module):
    own = sum(p.numel() for p in module.parameters(recurse=False) if p.requires_grad)
    return own + sum(_sums_children(child) for child in module.children())


def _walks_lists(module):
    total = count_parameters(module)
    for value in vars(module).values():
        if isinstance(value, list):
            total += sum(_walks_lists(item) for item in value if isinstance(item, nn.Module))
    return total


key("modules-count-params", count_parameters, models=[
    Model("tensors", lambda m: len(list(m.parameters())), "the number of tensors were the number of scalars."),
    Model("frozen", lambda m: sum(p.numel() for p in m.parameters()), "a frozen parameter still trained."),
    Model("tied-twice", lambda m: sum(p.numel() for _n, p in m.named_parameters(remove_duplicate=False)
                                      if p.requires_grad),
          "a tensor reached under two names were two tensors."),
    Model("state-dict", lambda m: sum(t.numel() for t in m.state_dict().values()),
          "everything a checkpoint saves were trained."),
    Model("not-recursive", lambda m: sum(p.numel() for p in m.parameters(recurse=False) if p.requires_grad),
          "a module's parameters were only those it registered itself, not its submodules'."),
    Model("buffers", lambda m: count_parameters(m) + sum(b.numel() for b in m.buffers()),
          "buffers trained like parameters."),
    Model("sums-children", _sums_children, "each child module's parameters were its own, shared with no other."),
    Model("walks-lists", _walks_lists, "modules kept in a Python list were registered with their owner."),
    Model("objects-not-memory", _per_object,
          "each Parameter object held scalars of its own, shared with no other Parameter."),
    Model("whole-storage", _whole_storages, "a parameter's scalars were all of the storage it lies in."),
    Model("one-per-storage", _first_per_storage,
          "parameters in one storage were one tensor, whatever part of the storage each covers."),
    Model("consecutive-stretch", _stretches,
          "a parameter covered the consecutive stretch of memory from its offset, whatever its strides."),
    Model("first-to-last", _first_to_last,
          "a strided parameter held every scalar from its first element to its last, the gaps included."),
    Model("frozen-memory", _frozen_wins,
          "a scalar a frozen parameter covers were frozen, even where a trainable parameter covers it too."),
])


# --------------------------------------------------------------------------- modules-batchnorm
def batchnorm_story() -> dict[str, object]:
    """The task, run: ``bn = nn.BatchNorm2d(4, affine=False)``, three training forwards on
    ``(8, 4, 5, 5)`` inputs, one eval forward, then ``bn.to(torch.float16)``."""
    bn = nn.BatchNorm2d(BATCHNORM_CHANNELS, affine=False)
    story: dict[str, object] = {"parameters": len(list(bn.parameters())), "state_dict": len(bn.state_dict())}
    generator = torch.Generator().manual_seed(21)
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


_FORWARDS = BATCHNORM_TRAIN_FORWARDS
key("modules-batchnorm", batchnorm_story, values=True, models=[
    Model("affine-anyway", {"parameters": 2, "state_dict": 5},
          "BatchNorm had its weight and bias even with affine=False."),
    Model("statistics-are-parameters", {"parameters": 3},
          "the running statistics and the counter were parameters."),
    Model("counter-not-saved", {"state_dict": 2}, "the counter was left out of the state_dict."),
    Model("eval-counts", {"tracked_after_eval": _FORWARDS + 1}, "a forward in eval mode counted a batch too."),
    Model("counts-channels", {"tracked_after_train": _FORWARDS * BATCHNORM_CHANNELS,
                              "tracked_after_eval": _FORWARDS * BATCHNORM_CHANNELS},
          "the counter counted the channels."),
    Model("counts-samples", {"tracked_after_train": _FORWARDS * BATCHNORM_INPUT[0],
                             "tracked_after_eval": _FORWARDS * BATCHNORM_INPUT[0]},
          "the counter counted the samples of each batch."),
    Model("casts-integers", {"tracked_dtype_after_to": "torch.float16"},
          "a module's .to(dtype) cast integer buffers too."),
    Model("float64-everywhere", {"mean_dtype_after_to": "torch.float64"},
          "a module's cast always went to float64, whatever dtype it was given."),
    Model("buffers-not-cast", {"mean_dtype_after_to": "torch.float32"},
          "a module's .to(dtype) cast only its parameters, not its buffers."),
])


# --------------------------------------------------------------------------- modules-selftest
class _Stack(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.blocks = [nn.Linear(3, 3), nn.Linear(3, 3)]
        self.out = nn.Linear(3, 1)


class _MaskedLinear(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.linear = nn.Linear(4, 4)
        self.register_buffer("mask", torch.ones(4, 4), persistent=False)
        self.register_buffer("steps", torch.zeros((), dtype=torch.int64))


def _tied_autoencoder_scalars() -> int:
    encoder, decoder = nn.Linear(8, 8), nn.Linear(8, 8)
    decoder.weight = encoder.weight
    return count_parameters(nn.Sequential(encoder, nn.ReLU(), decoder))


def _counter_reset_before_backward_raises() -> bool:
    bn = nn.BatchNorm1d(3)
    loss = bn(torch.randn(5, 3, requires_grad=True)).sum()
    bn.num_batches_tracked.zero_()
    try:
        loss.backward()
    except RuntimeError as error:
        return "modified by an inplace operation" in str(error)
    return False


def _loaded_weight_stays() -> bool:
    layer = nn.Linear(3, 2)
    optimizer = torch.optim.SGD(layer.parameters(), lr=0.1)
    layer.load_state_dict({"weight": torch.zeros(2, 3), "bias": torch.zeros(2)})
    layer(torch.ones(4, 3)).sum().backward()
    optimizer.step()
    return bool(torch.equal(layer.weight, torch.zeros(2, 3)))


def _refused_registration() -> str:
    refused = []
    try:
        nn.Parameter(torch.zeros((), dtype=torch.int64))
    except RuntimeError:
        refused.append("parameter")
    try:
        nn.Module().register_buffer("events", torch.zeros((), dtype=torch.int64))
    except RuntimeError:
        refused.append("buffer")
    return refused[0] if len(refused) == 1 else "neither"


def _selftest() -> dict:
    return {"q1": len(_Stack().state_dict()), "q2": len(_MaskedLinear().state_dict()),
            "q3": _tied_autoencoder_scalars(), "q4": _counter_reset_before_backward_raises(),
            "q5": _loaded_weight_stays(), "q6": _refused_registration()}


key("modules-selftest", _selftest, values=True, models=[
    Model("list-registers", {"q1": 6}, "modules kept in a Python list were registered with their owner."),
    Model("non-persistent-saved", {"q2": 4}, "every buffer went into the state_dict, persistent=False or not."),
    Model("buffers-not-saved", {"q2": 2}, "buffers were left out of the state_dict."),
    Model("tied-twice", {"q3": 144}, "a weight shared by two layers were two tensors."),
    Model("every-write-refused", {"q4": True},
          "the batch-norm node saved the counter along with the running statistics."),
    Model("load-replaces", {"q5": True},
          "load_state_dict put new tensors in the module, leaving the optimizer with the old ones."),
    Model("buffer-refused", {"q6": "buffer"}, "register_buffer refused an integer tensor."),
])

"""The key of Chapter 6, "Gradient buckets and flat shards".

``buckets-ranks-agree``: whether the ranks agree is drawn inside the changing rank, from a draw the
job's supervisor made and kept, so its key is a rule (:class:`~answer_key.keys.Given`, registered
here in :data:`autograder.judging.RULES`) that rebuilds every rank's module in every run from the
check's inputs and that draw, and says what the verdicts must be on those states. The answers
the rules stand for — the reference and each catalogued mistake, as a learner writes them — are
:data:`AGREE_ANSWERS`; ``tests/chapters/test_buckets_cases.py`` runs them on real ranks through the driver
and checks that each rule gives what its answer reported.

``buckets-safe-logging``: the reference and the models are training steps as a learner writes
them, run through the driver on real ranks. ``buckets-selftest``: every value measured on real
ranks.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch import nn

from answer_key.keys import Given, Model, key
from autograder.chapters.buckets import (
    RUNS,
    SELFTEST_CAP_MB,
    SELFTEST_FEATURES,
    SELFTEST_FLAT,
    SELFTEST_LAYERS,
    SELFTEST_SHARDED,
    agree_tag,
    small_model,
    states_of,
)
from autograder.engine.draw import seed_global_generator
from autograder.engine.ranks import run_on_ranks
from autograder.judging import RULES


def run_answer_on_ranks(worker, *args, world_size: int = 2) -> list:
    """The key's own launches (never a name a notebook cell can rebind in ``autograder.chapters.buckets``)."""
    return run_on_ranks(worker, *args, world_size=world_size, timeout=120.0, pg_timeout=10.0)

# --------------------------------------------------------------------------- buckets-ranks-agree
#: The answers the rules stand for, as a learner writes them (after the chapter's setup cell).
AGREE_ANSWERS = {
    "reference": '''
def ranks_agree(module):
    mine = list(module.parameters()) + list(module.buffers())
    same = True
    for t in mine:
        gathered = [torch.empty_like(t) for _ in range(dist.get_world_size())]
        dist.all_gather(gathered, t.detach().contiguous())
        same = same and all(torch.equal(gathered[0], g) for g in gathered[1:])
    return same
''',
    "sums": '''
def ranks_agree(module):
    same = True
    for t in list(module.parameters()) + list(module.buffers()):
        total = t.detach().sum().reshape(1)
        gathered = [torch.empty_like(total) for _ in range(dist.get_world_size())]
        dist.all_gather(gathered, total)
        same = same and all(torch.equal(gathered[0], g) for g in gathered[1:])
    return same
''',
    "checksums": '''
def ranks_agree(module):
    same = True
    for t in list(module.parameters()) + list(module.buffers()):
        values = t.detach().reshape(-1).double()
        weights = torch.arange(1, values.numel() + 1, dtype=torch.float64)
        mine = torch.stack([values.sum(), (values * weights).sum()])
        gathered = [torch.empty_like(mine) for _ in range(dist.get_world_size())]
        dist.all_gather(gathered, mine)
        same = same and all(torch.equal(gathered[0], g) for g in gathered[1:])
    return same
''',
    "allclose": '''
def ranks_agree(module):
    same = True
    for t in list(module.parameters()) + list(module.buffers()):
        gathered = [torch.empty_like(t) for _ in range(dist.get_world_size())]
        dist.all_gather(gathered, t.detach().contiguous())
        if t.is_floating_point():
            same = same and all(torch.allclose(gathered[0], g) for g in gathered[1:])
        else:
            same = same and all(torch.equal(gathered[0], g) for g in gathered[1:])
    return same
''',
    "parameters-only": '''
def ranks_agree(module):
    flat = torch.cat([p.detach().reshape(-1) for p in module.parameters()])
    gathered = [torch.empty_like(flat) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, flat)
    return all(torch.equal(gathered[0], g) for g in gathered[1:])
''',
    "local-verdict": '''
def ranks_agree(module):
    same = True
    for t in list(module.parameters()) + list(module.buffers()):
        first = t.detach().clone()
        dist.broadcast(first, src=0)
        same = same and torch.equal(first, t.detach())
    return same
''',
    "first-two-ranks": '''
def ranks_agree(module):
    same = True
    for t in list(module.parameters()) + list(module.buffers()):
        gathered = [torch.empty_like(t) for _ in range(dist.get_world_size())]
        dist.all_gather(gathered, t.detach().contiguous())
        same = same and torch.equal(gathered[0], gathered[1])
    return same
''',
    "float32": '''
def ranks_agree(module):
    flat = torch.cat([t.detach().float().reshape(-1) for t in list(module.parameters()) + list(module.buffers())])
    gathered = [torch.empty_like(flat) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, flat)
    return all(torch.equal(gathered[0], g) for g in gathered[1:])
''',
    "state-dict": '''
def ranks_agree(module):
    same = True
    for t in module.state_dict().values():
        gathered = [torch.empty_like(t) for _ in range(dist.get_world_size())]
        dist.all_gather(gathered, t.detach().contiguous())
        same = same and all(torch.equal(gathered[0], g) for g in gathered[1:])
    return same
''',
}


def _tensors(state: dict, part: str | None = None) -> list[torch.Tensor]:
    parts = ("parameters", "buffers") if part is None else (part,)
    return [t for p in parts for t in state[p].values()]


def _equal(a: dict, b: dict, part: str | None = None) -> bool:
    """The parts of two states hold equal tensors (``part``: one of :func:`module_state`'s, or the
    parameters and the buffers)."""
    parts = ("parameters", "buffers") if part is None else (part,)
    return all(a[p].keys() == b[p].keys() for p in parts) and all(
        x.dtype == y.dtype and x.shape == y.shape and bool(torch.equal(x, y))
        for x, y in zip(_tensors(a, part), _tensors(b, part), strict=True))


def _by(measure: Callable[[torch.Tensor], Any]) -> Callable[[dict, dict], bool]:
    """Two states compared through one summary per tensor."""
    def same(a: dict, b: dict) -> bool:
        return all(bool(torch.equal(measure(x), measure(y))) for x, y in
                   zip(_tensors(a), _tensors(b), strict=True))

    return same


def checksum(t: torch.Tensor) -> torch.Tensor:
    """A tensor's sum and index-weighted sum, in float64."""
    values = t.reshape(-1).double()
    return torch.stack([values.sum(), (values * torch.arange(1, values.numel() + 1, dtype=torch.float64)).sum()])


def _close(a: dict, b: dict) -> bool:
    return all(bool(torch.allclose(x, y)) if x.is_floating_point() else bool(torch.equal(x, y))
               for x, y in zip(_tensors(a), _tensors(b), strict=True))


def _everyone(same: Callable[[dict, dict], bool]) -> Callable[[list], list[bool]]:
    """Every rank says whether every rank's state is the same as rank 0's."""
    return lambda states: [all(same(states[0], s) for s in states[1:])] * len(states)


#: What each answer of :data:`AGREE_ANSWERS` decides on every rank, from all the ranks' states.
VERDICT_RULES: dict[str, Callable[[list], list[bool]]] = {
    "reference": _everyone(_equal),
    "sums": _everyone(_by(lambda t: t.sum())),
    "checksums": _everyone(_by(checksum)),
    "allclose": _everyone(_close),
    "parameters-only": _everyone(lambda a, b: _equal(a, b, "parameters")),
    "local-verdict": lambda states: [_equal(states[0], s) for s in states],
    "first-two-ranks": lambda states: [_equal(states[0], states[1])] * len(states),
    "float32": _everyone(_by(lambda t: t.float())),
    "state-dict": _everyone(lambda a, b: _equal(a, b, "state_dict")),
}


def module_state(model: nn.Module) -> dict[str, dict[str, torch.Tensor]]:
    """A copy of a module's state: its parameters' and its buffers' values, by name, and what its
    ``state_dict()`` holds (no non-persistent buffer)."""
    return {"parameters": {n: p.detach().clone() for n, p in model.named_parameters()},
            "buffers": {n: b.detach().clone() for n, b in model.named_buffers()},
            "state_dict": {n: t.detach().clone() for n, t in model.state_dict().items()}}


def rebuilt_states(inputs: tuple, drawn: dict[str, str]) -> list[list[dict]]:
    """Every rank's state in every run of a check point, rebuilt from its inputs and the draw the
    job's supervisor made for it (KeyError when the job never asked for that draw)."""
    spec, change, changer, world, scenario = inputs
    return _states_from(tuple(inputs), drawn[agree_tag(spec, change, changer, world, scenario)])


# Every model's rule on a point rebuilds the same states from the same draw: built once, they are
# only compared (no rule writes to them).
@functools.lru_cache(maxsize=64)
def _states_from(inputs: tuple, draw: str) -> list[list[dict]]:
    spec, change, changer, world, _scenario = inputs
    rng = random.Random(int.from_bytes(bytes.fromhex(draw), "big"))
    runs = states_of(spec, change, changer, world, RUNS, rng)
    distinct = {id(m): m for models in runs for m in models}  # states_of reuses an unchanged module
    states = {key: module_state(m) for key, m in distinct.items()}
    return [[states[id(m)] for m in models] for models in runs]


def agreement(verdicts_of: Callable[[list], list[bool]]) -> Callable[[Any, tuple, dict], dict]:
    """The observation an answer that decides as ``verdicts_of`` gives on a check point's runs."""

    def rule(_found: Any, inputs: tuple, drawn: dict[str, str]) -> dict:
        runs = rebuilt_states(inputs, drawn)
        verdicts = " ".join("".join("T" if v else "F" for v in verdicts_of(states)) for states in runs)
        return {"verdicts": verdicts, "not a bool": [], "changed": []}

    return rule


for _name, _verdicts in VERDICT_RULES.items():
    RULES[f"buckets-ranks-agree/{_name}"] = agreement(_verdicts)


def _rule(name: str) -> Given:
    return Given(f"buckets-ranks-agree/{name}")


key("buckets-ranks-agree", _rule("reference"), models=[
    Model("sums", _rule("sums"), "equal sums (or norms) meant equal tensors."),
    Model("checksums", _rule("checksums"), "equal sums and index-weighted sums meant equal tensors."),
    Model("allclose", _rule("allclose"), "values within a rounding tolerance counted as the same."),
    Model("parameters-only", _rule("parameters-only"),
          "a module's state were its parameters alone: a buffer that differs went unseen."),
    Model("local-verdict", _rule("local-verdict"),
          "each rank could answer from its own comparison, whatever the other ranks found."),
    Model("first-two-ranks", _rule("first-two-ranks"), "ranks 0 and 1 spoke for every rank."),
    Model("float32", _rule("float32"), "a cast to float32 kept every value of the state."),
    Model("state-dict", _rule("state-dict"), "state_dict() held every buffer of the module."),
])


# --------------------------------------------------------------------------- buckets-safe-logging
MAX_NORM = 0.5


def _step(model: nn.Module, optimizer: torch.optim.Optimizer, batch: tuple) -> None:
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()


def _gradients(model: nn.Module) -> list[torch.Tensor]:
    """The gradients the model's parameters hold (a frozen one holds none)."""
    return [p.grad for p in model.parameters() if p.grad is not None]


def reference_step(model: nn.Module, optimizer: torch.optim.Optimizer, batch: tuple) -> float:
    _step(model, optimizer, batch)
    logged = 0.0
    if dist.get_rank() == 0:
        logged = torch.nn.utils.get_total_norm(_gradients(model)).item()
    optimizer.step()
    return logged


def _buggy(model: nn.Module, optimizer: torch.optim.Optimizer, batch: tuple) -> float:
    _step(model, optimizer, batch)
    logged = 0.0
    if dist.get_rank() == 0:
        logged = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=MAX_NORM).item()
    optimizer.step()
    return logged


def _clips_with_a_cap_never_reached(model: nn.Module, optimizer: torch.optim.Optimizer, batch: tuple) -> float:
    _step(model, optimizer, batch)
    logged = 0.0
    if dist.get_rank() == 0:
        logged = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=float("inf")).item()
    optimizer.step()
    return logged


def _clips_everywhere(model: nn.Module, optimizer: torch.optim.Optimizer, batch: tuple) -> float:
    _step(model, optimizer, batch)
    logged = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=MAX_NORM).item()
    optimizer.step()
    return logged if dist.get_rank() == 0 else 0.0


def _clips_gradient_copies(model: nn.Module, optimizer: torch.optim.Optimizer, batch: tuple) -> float:
    _step(model, optimizer, batch)
    logged = 0.0
    if dist.get_rank() == 0:
        copies = [g.clone() for g in _gradients(model)]
        logged = torch.nn.utils.clip_grad_norm_(copies, max_norm=MAX_NORM).item()
    optimizer.step()
    return logged


def _first_parameter(model: nn.Module, optimizer: torch.optim.Optimizer, batch: tuple) -> float:
    _step(model, optimizer, batch)
    logged = next(model.parameters()).grad.norm().item()
    optimizer.step()
    return logged if dist.get_rank() == 0 else 0.0


def _local_norm(model: nn.Module, optimizer: torch.optim.Optimizer, batch: tuple) -> float:
    x, y = batch
    optimizer.zero_grad()
    with model.no_sync():
        F.mse_loss(model(x), y).backward()
    logged = torch.nn.utils.get_total_norm(_gradients(model)).item()
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    optimizer.step()
    return logged if dist.get_rank() == 0 else 0.0


key("buckets-safe-logging", reference_step, models=[
    Model("rank-local-clip", _buggy,
          "a function that reports the gradient's norm left the gradient as it found it."),
    Model("clipped-in-place", _clips_with_a_cap_never_reached,
          "clip_grad_norm_ with a max_norm no gradient reaches left every p.grad untouched."),
    Model("clips-everywhere", _clips_everywhere,
          "the same clipping on every rank left the training as it was without logging."),
    Model("gradient-copies", _clips_gradient_copies,
          "clip_grad_norm_ could be handed the gradients themselves, or copies of them, in place of the "
          "parameters that hold them."),
    Model("first-parameter", _first_parameter, "the norm of the first parameter's gradient were the total norm."),
    Model("local-norm", _local_norm, "the norm to log were that of this rank's own gradient, before averaging."),
])


# --------------------------------------------------------------------------- buckets-selftest
def _ranks_facts() -> dict[str, Any]:
    """On each rank: how many buckets the second iteration reduces, the FSDP2 shard's size, whether
    a detach() kept from step 1 changes, FSDP1's flat view of a weight, and DDP's divisor under a
    hook that does not divide."""
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.fsdp import FullyShardedDataParallel, fully_shard
    from torch.nn.parallel import DistributedDataParallel

    seed_global_generator(0)
    layers = nn.Sequential(*[nn.Linear(SELFTEST_FEATURES, SELFTEST_FEATURES, bias=False)
                             for _ in range(SELFTEST_LAYERS)])
    ddp = DistributedDataParallel(layers, bucket_cap_mb=SELFTEST_CAP_MB)
    reduced: list[int] = []

    def counting_hook(state, bucket):  # noqa: ARG001 - DDP's hook signature
        reduced[-1] += 1
        work = dist.all_reduce(bucket.buffer().div_(dist.get_world_size()), async_op=True)
        return work.get_future().then(lambda fut: fut.value()[0])

    ddp.register_comm_hook(None, counting_hook)
    for _ in range(2):
        reduced.append(0)
        ddp(torch.randn(2, SELFTEST_FEATURES)).sum().backward()

    sharded = nn.Linear(*SELFTEST_SHARDED)
    fully_shard(sharded, mesh=init_device_mesh("cpu", (dist.get_world_size(),)))
    local = sharded.weight.to_local().numel()

    model = DistributedDataParallel(small_model(), gradient_as_bucket_view=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    kept = value = None
    for step in range(3):
        optimizer.zero_grad(set_to_none=False)
        model(torch.randn(5, 4) + step + dist.get_rank()).sum().backward()
        if step == 1:
            kept = next(model.parameters()).grad.detach()
            value = kept.clone()
        optimizer.step()

    flat = FullyShardedDataParallel(nn.Linear(*SELFTEST_FLAT), device_id=torch.device("cpu"), use_orig_params=True)
    weight = flat.module.weight.numel()
    return {"buckets": reduced[1], "local elements": local, "detach kept": bool(torch.equal(kept, value)),
            "flat weight": weight}


def _undivided() -> float:
    from torch.nn.parallel import DistributedDataParallel

    model = DistributedDataParallel(small_model())

    def summing_hook(state, bucket):  # noqa: ARG001 - DDP's hook signature
        return dist.all_reduce(bucket.buffer(), async_op=True).get_future().then(lambda fut: fut.value()[0])

    model.register_comm_hook(None, summing_hook)
    x = torch.full((2, 4), float(dist.get_rank() + 1))
    model(x).sum().backward()
    local = small_model()
    local(x).sum().backward()
    summed = local[0].bias.grad.clone()
    dist.all_reduce(summed)
    return (summed / model.module[0].bias.grad).mean().item()


@functools.cache
def ranks_facts() -> list[dict[str, Any]]:
    """Measured once per process on two real ranks: each rank's facts."""
    return run_answer_on_ranks(_ranks_facts)


@functools.cache
def divisor_on_three_ranks() -> int:
    return round(run_answer_on_ranks(_undivided, world_size=3)[0])


def _selftest() -> dict[str, Any]:
    facts = ranks_facts()
    return {"q1": facts[0]["buckets"], "q2": facts[1]["local elements"], "q3": facts[0]["detach kept"],
            "q4": facts[1]["flat weight"], "q5": divisor_on_three_ranks()}


key("buckets-selftest", _selftest, values=True, models=[
    Model("first-iteration-bucket", {"q1": 1}, "the second iteration kept the first iteration's single bucket."),
    Model("cap-as-capacity", {"q1": 3}, "bucket_cap_mb bounded what a bucket may hold."),
    Model("floor-rows", {"q2": 12}, "the first rank took rows / ranks rows, rounded down, and the last the rest."),
    Model("whole-weight", {"q2": 21}, "to_local() held the whole weight."),
    Model("detach-copies", {"q3": True}, "detach() kept its own copy of the gradient."),
    Model("halves-each", {"q4": 6}, "FSDP1 split each parameter in halves, one per rank."),
    Model("floor-shard", {"q4": 5}, "a rank's shard of the flat parameter held elements / ranks, rounded down."),
    Model("hook-averages", {"q5": 3}, "DDP still divided by the world size after a hook replaced its reduction."),
])

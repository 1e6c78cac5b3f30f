"""Chapter 6, "Gradient buckets and flat shards": the cases that grade its exercises.

The distributed exercises run the learner's function on two real gloo ranks through
:func:`autograder.ranks.run_on_ranks`; their drivers return what they observed as plain data.
Expected values come from trusted code in this process: bitwise comparison of the parameters each
rank builds, and a one-process simulation of DDP's averaged gradients.

Defined in Chapter 6, "Gradient buckets and flat shards" (notebooks/buckets/buckets.ipynb).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from autograder.checks import Diagnosis, exercise, selftest
from autograder.ranks import RankError, run_on_ranks
from autograder.values import AnswerTypeError, close

WORLD_SIZE = 2


def run_answer_on_ranks(worker: Callable[..., Any], *args: Any, world_size: int = WORLD_SIZE) -> list[Any]:
    """Run a driver's worker on the ranks; print a failing rank's traceback in the test cell's output.

    The grade report shortens an error to one line; the full traceback of the rank is what a learner
    needs to find the failing line of their answer.
    """
    try:
        return run_on_ranks(worker, *args, world_size=world_size, timeout=60.0, pg_timeout=5.0)
    except RankError as err:
        print(err)
        raise


def small_model(seed: int = 0) -> nn.Module:
    """The chapter's running model: two linear layers, 58 parameters."""
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))


# --------------------------------------------------------------------------- buckets-ranks-agree
def agree_model() -> nn.Module:
    """Parameters that are multiples of 1/8: every sum of them is exact in float32, so a change that
    keeps the sum keeps it bit for bit."""
    model = nn.Sequential(nn.Linear(4, 3), nn.Linear(3, 2))
    generator = torch.Generator().manual_seed(7)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randint(-16, 16, p.shape, generator=generator) / 8)
    return model


def perturb(model: nn.Module, scenario: str, rank: int) -> None:
    """Make the parameters of ``rank`` differ from the other ranks' as ``scenario`` says."""
    weight = model[0].weight
    with torch.no_grad():
        if rank != DIFFERING_RANK[scenario]:
            return
        if scenario == "one-rank-differs":
            weight[0, 0] += 1.0
        elif scenario == "sum-preserving-swap":
            row = weight[0].clone()
            j = int(torch.nonzero(row != row[0])[0])  # an entry that differs from the first
            weight[0, 0], weight[0, j] = row[j], row[0]
        elif scenario == "checksum-preserving":
            # +a, -2a, +a at flat indices 0, 1, 2: the sum and the index-weighted sum stay as they were
            weight[0, 0] += 0.125
            weight[0, 1] -= 0.25
            weight[0, 2] += 0.125
        elif scenario == "one-ulp":
            weight[1, 1] = torch.nextafter(weight[1, 1], torch.tensor(float("inf")))
        elif scenario == "third-rank-differs":
            model[1].weight[1, 2] += 0.25
        else:
            raise ValueError(scenario)


# scenario -> the rank whose parameters differ from the others' (None: no rank's do)
DIFFERING_RANK = {
    "identical": None,
    "one-rank-differs": 1,
    "sum-preserving-swap": 1,
    "one-ulp": 1,
    "checksum-preserving": 1,
    "third-rank-differs": 2,
}


def _agree_worker(answer: Callable, scenario: str) -> Any:
    import torch.distributed as dist

    model = agree_model()
    perturb(model, scenario, dist.get_rank())
    return answer(model)


def observe_agreement(answer: Callable, scenario: str, world_size: int) -> list[bool]:
    """``ranks_agree(model)`` on every rank of a real process group, in rank order."""
    verdicts = run_answer_on_ranks(_agree_worker, answer, scenario, world_size=world_size)
    for rank, verdict in enumerate(verdicts):
        if type(verdict) is not bool:
            raise AnswerTypeError(f"ranks_agree returned {type(verdict).__name__} on rank {rank}; "
                                  "it must return a Python bool on every rank")
    return verdicts


def expected_agreement(scenario: str, world_size: int) -> list[bool]:
    """Trusted: build every rank's parameters here and compare their bits."""
    states = []
    for rank in range(world_size):
        model = agree_model()
        perturb(model, scenario, rank)
        states.append(torch.cat([p.detach().reshape(-1) for p in model.parameters()]).view(torch.int32))
    same = all(torch.equal(states[0], s) for s in states[1:])
    return [same] * world_size


SPLIT_VERDICT = (
    "every rank must return the same verdict: a rank that compares only its own view (or that alone "
    "receives the comparison) says True while another says False. Combine the local verdicts, e.g. "
    "all_reduce a 0/1 flag with ReduceOp.MIN, or all_gather everything to every rank."
)
SUM_FOOLED = (
    "equal sums (or norms) do not mean equal parameters: a divergence can move value between entries and "
    "keep every sum, and a weighted checksum can be fooled the same way. Compare every element: all_gather "
    "the flattened parameters, then torch.equal."
)
TOLERANCE = (
    "the ranks must be bitwise identical: a one-ulp difference is already divergence (it grows with every "
    "step). Use torch.equal, not allclose or a tolerance."
)
IDENTICAL = "identical parameters on every rank must give True on every rank."
ONE_DIFFERS = "a rank with different parameters must make ranks_agree return False on every rank."
EVERY_RANK = (
    "with more than two ranks, every rank must be compared, not only ranks 0 and 1; and every rank "
    "must return the same verdict."
)


def _split_verdict(found: object, _inputs: tuple) -> bool:
    return type(found) is list and len(set(found)) > 1


agree = exercise("buckets-ranks-agree", "ranks_agree", call=observe_agreement, expect=expected_agreement,
                 returns="observation", diagnoses=(Diagnosis(_split_verdict, SPLIT_VERDICT),))
agree.case("identical", "[ranks_agree(model) on each of 2 ranks] with identical parameters",
           lambda: ("identical", 2), otherwise=IDENTICAL)
agree.case("one-rank-differs", "[ranks_agree(model) on each of 2 ranks] with rank 1 added 1 to one weight",
           lambda: ("one-rank-differs", 2), otherwise=ONE_DIFFERS)
agree.case("sum-preserving-swap",
           "[ranks_agree(model) on each of 2 ranks] with rank 1 swapped two weights: same sum, same norm",
           lambda: ("sum-preserving-swap", 2), otherwise=SUM_FOOLED)
agree.case("one-ulp",
           "[ranks_agree(model) on each of 2 ranks] with rank 1 moved one weight by one unit in the last place",
           lambda: ("one-ulp", 2), otherwise=TOLERANCE, hidden=True)
agree.case("checksum-preserving",
           "[ranks_agree(model) on each of 2 ranks] with rank 1 changed three weights by +1/8, -1/4, +1/8: "
           "every parameter keeps its sum and its index-weighted sum",
           lambda: ("checksum-preserving", 2), otherwise=SUM_FOOLED, hidden=True)
agree.case("third-rank-differs", "[ranks_agree(model) on each of 3 ranks] with 3 ranks, rank 2 changed one weight",
           lambda: ("third-rank-differs", 3), otherwise=EVERY_RANK, hidden=True)


# --------------------------------------------------------------------------- buckets-safe-logging
LR = 0.1


def logging_model(seed: int) -> nn.Module:
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 1))


def logging_batch(seed: int, step: int, rank: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Each rank's own batch for a step, as a data loader with a distributed sampler would give."""
    generator = torch.Generator().manual_seed(1000 * seed + 10 * step + rank)
    x = torch.randn(4, 3, generator=generator)
    return x, x.sum(1, keepdim=True).sin()


def logged_value(grad: torch.Tensor) -> float:
    """What the buggy step logs: the largest entry of the unit-norm gradient of the first parameter."""
    return (grad / grad.norm()).abs().max().item()


def _logging_worker(answer: Callable, seed: int, steps: int) -> tuple[list[Any], torch.Tensor]:
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    model = DistributedDataParallel(logging_model(seed))
    optimizer = torch.optim.SGD(model.parameters(), lr=LR)
    logged = [answer(model, optimizer, logging_batch(seed, step, dist.get_rank())) for step in range(steps)]
    return logged, torch.cat([p.detach().reshape(-1) for p in model.parameters()])


def observe_training(answer: Callable, seed: int, steps: int) -> dict[str, Any]:
    """Train a DDP model on two ranks with the answer's step: rank 0's logged values and parameters,
    and whether the ranks' parameters are still bitwise identical."""
    (logged, params), (_, other) = run_answer_on_ranks(_logging_worker, answer, seed, steps)
    for value in logged:
        if type(value) is not float:
            raise AnswerTypeError(f"train_step_fixed must return the logged value as a Python float on rank 0, "
                                  f"found {type(value).__name__}")
    return {"ranks_identical": torch.equal(params, other), "logged": logged, "params": params}


def expected_training(seed: int, steps: int) -> dict[str, Any]:
    """Trusted: one process simulates DDP (the average of the ranks' gradients) and logs from a copy."""
    model = logging_model(seed)
    params = list(model.parameters())
    optimizer = torch.optim.SGD(params, lr=LR)
    logged = []
    for step in range(steps):
        per_rank = []
        for rank in range(WORLD_SIZE):
            model.zero_grad()
            x, y = logging_batch(seed, step, rank)
            F.mse_loss(model(x), y).backward()
            per_rank.append([p.grad / WORLD_SIZE for p in params])
        for p, grads in zip(params, zip(*per_rank, strict=True), strict=True):
            p.grad = functools.reduce(torch.add, grads)
        logged.append(logged_value(params[0].grad))
        optimizer.step()
    return {"ranks_identical": True, "logged": logged,
            "params": torch.cat([p.detach().reshape(-1) for p in params])}


DIVERGED = (
    "the ranks diverged: an in-place edit of a gradient on one rank after backward (through p.grad, "
    ".data or .detach(), which all share its memory) changes only that rank's update, silently. Compute "
    "the logged value from a new tensor (grad / grad.norm()) and leave p.grad untouched."
)
UPDATE_CHANGED = (
    "the ranks agree but the model no longer trains as intended: the optimizer must step with the averaged "
    "gradient unchanged. Normalising p.grad in place on every rank keeps the ranks together yet changes "
    "every update; logging must not edit the gradient."
)
LOGGED_WRONG = (
    "the logged value must be what the buggy step logged: the largest absolute entry of the first "
    "parameter's gradient divided by its norm, after the gradients were averaged (after backward)."
)


def _diverged(found: object, _inputs: tuple) -> bool:
    return type(found) is dict and found.get("ranks_identical") is False


def _update_changed(found: object, inputs: tuple) -> bool:
    if type(found) is not dict or type(found.get("params")) is not torch.Tensor:
        return False
    return not close(found["params"], expected_training(*inputs)["params"])


safe_logging = exercise(
    "buckets-safe-logging", "train_step_fixed", call=observe_training, expect=expected_training,
    returns="observation", otherwise=LOGGED_WRONG,
    diagnoses=(Diagnosis(_diverged, DIVERGED), Diagnosis(_update_changed, UPDATE_CHANGED)),
    agree=functools.partial(close, rtol=1e-5, atol=1e-6), points=2,
)
safe_logging.case("three-steps", "3 DDP steps with train_step_fixed on 2 ranks (seed 0)", lambda: (0, 3))
safe_logging.case("four-steps-other-data", "4 DDP steps with train_step_fixed on 2 ranks (seed 5)", lambda: (5, 4),
                  hidden=True)


# --------------------------------------------------------------------------- buckets-selftest
def _rank_local_edit_facts() -> dict[str, Any]:
    """One DDP step where rank 0 doubles a gradient after backward: did anything raise, do the ranks
    still agree, and by what did DDP divide the summed gradients?"""
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    model = DistributedDataParallel(small_model())
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x = torch.full((2, 4), float(dist.get_rank() + 1))
    local = small_model()
    local(x).sum().backward()
    model(x).sum().backward()
    summed = local[0].bias.grad.clone()
    dist.all_reduce(summed)
    divisor = round((summed / model.module[0].bias.grad).mean().item())
    raised = False
    try:
        if dist.get_rank() == 0:
            model.module[0].weight.grad.mul_(2.0)
        optimizer.step()
    except RuntimeError:
        raised = True
    params = torch.cat([p.detach().reshape(-1) for p in model.parameters()])
    gathered = [torch.empty_like(params) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, params)
    return {"raised": raised, "agree": all(torch.equal(gathered[0], g) for g in gathered), "divisor": divisor}


@functools.cache
def rank_local_edit_facts() -> dict[str, Any]:
    """Trusted, measured once per process on two real ranks."""
    return run_answer_on_ranks(_rank_local_edit_facts)[0]


# The self-test's cases, measured on real ranks: gradients of 599,076 bytes each under a 1 MiB
# bucket_cap_mb, a weight of 7 rows sharded over 2 ranks, and a one-rank write to a clone.
SELFTEST_FEATURES = 387
SELFTEST_LAYERS = 3
SELFTEST_CAP_MB = 1
SELFTEST_SHARDED = (3, 7)  # nn.Linear(3, 7): a (7, 3) weight


def _transfer_facts() -> dict[str, Any]:
    """On each rank: how many buckets the second iteration reduces, how many weight elements this
    rank's FSDP2 shard holds, and whether ranks agree after one rank wrote to a clone of p.grad."""
    import torch.distributed as dist
    from torch.distributed.device_mesh import init_device_mesh
    from torch.distributed.fsdp import fully_shard
    from torch.nn.parallel import DistributedDataParallel

    torch.manual_seed(0)
    layers = nn.Sequential(*[nn.Linear(SELFTEST_FEATURES, SELFTEST_FEATURES, bias=False)
                             for _ in range(SELFTEST_LAYERS)])
    ddp = DistributedDataParallel(layers, bucket_cap_mb=SELFTEST_CAP_MB)
    reduced: list[int] = []

    def counting_hook(state, bucket):  # DDP reads these annotations: leave them out
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
    for _ in range(2):
        optimizer.zero_grad()
        model(torch.randn(5, 4) + dist.get_rank()).sum().backward()
        if dist.get_rank() == 0:
            logged = next(model.parameters()).grad.clone()
            logged.mul_(2.0)
        optimizer.step()
    params = torch.cat([p.detach().reshape(-1) for p in model.parameters()])
    gathered = [torch.empty_like(params) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, params)
    return {"buckets after the rebuild": reduced[1], "local elements": local,
            "agree after a clone edit": all(torch.equal(gathered[0], g) for g in gathered)}


@functools.cache
def transfer_facts() -> list[dict[str, Any]]:
    """Trusted, measured once per process on two real ranks: each rank's facts, in rank order."""
    return run_answer_on_ranks(_transfer_facts)


def _selftest_expectations() -> dict[str, tuple[str, str, Callable[[], object], str]]:
    """Question key -> (question, result kind, expected value (computed lazily), misconception)."""
    gradient_bytes = SELFTEST_FEATURES * SELFTEST_FEATURES * 4
    rows, columns = SELFTEST_SHARDED[1], SELFTEST_SHARDED[0]
    return {
        "q1": (f"DDP with bucket_cap_mb={SELFTEST_CAP_MB} and its other defaults wraps "
               f"{SELFTEST_LAYERS} nn.Linear({SELFTEST_FEATURES}, {SELFTEST_FEATURES}, bias=False) "
               f"layers ({gradient_bytes:,} bytes of gradient each): how many buckets does the second "
               "iteration's backward all-reduce (int)?", "int",
               lambda: transfer_facts()[0]["buckets after the rebuild"],
               "from the second iteration on, DDP reduces the buckets it rebuilt in gradient-arrival "
               "order, and bucket_cap_mb is a threshold, not a capacity: a bucket closes once it has "
               "reached the limit, so it can hold more than the limit. Add the gradients up in arrival "
               "order and close the bucket at the first sum that reaches it."),
        "q2": (f"fully_shard on 2 ranks shards an nn.Linear({columns}, {rows}), whose weight has shape "
               f"({rows}, {columns}): how many elements of the weight does rank 1 hold, "
               "weight.to_local().numel() (int)?", "int",
               lambda: transfer_facts()[1]["local elements"],
               "FSDP2 cuts dim 0 the way torch.chunk cuts it: pieces of ceil(rows / ranks) rows with a "
               "shorter last piece, and a rank's local shard holds its rows times the other dimensions (the "
               "storage behind it is padded to the first piece's size)."),
        "q3": ("DDP with gradient_as_bucket_view=True: after backward, rank 0 alone runs "
               "g = p.grad.clone(); g.mul_(2) for a log, then every rank steps. Do the ranks still hold "
               "identical parameters (True/False)?", "bool",
               lambda: transfer_facts()[0]["agree after a clone edit"],
               "clone() copies onto new memory: a write to the copy reaches neither the bucket nor "
               "p.grad, so every rank steps with the same gradient. Only a write to p.grad itself (or a "
               "view, detach() or .data of it) on one rank makes the ranks diverge."),
        "q4": ("Rank 0 alone runs p.grad.mul_(2) after backward() under DDP, then every rank steps: does "
               "anything raise (True/False)?", "bool", lambda: rank_local_edit_facts()["raised"],
               "nothing checks that ranks hold the same gradients after the all-reduce: the edit passes "
               "silently and the ranks diverge."),
        "q5": ("DDP on 2 ranks: after backward, p.grad equals the sum of the ranks' gradients divided by "
               "what (int)?", "int", lambda: rank_local_edit_facts()["divisor"],
               "DDP averages: it divides the all-reduced sum by the world size."),
    }


selftest("buckets-selftest", _selftest_expectations, hidden=("q4", "q5"))

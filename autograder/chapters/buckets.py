"""Chapter 6, "Gradient buckets and flat shards": how its exercises are checked.

The distributed exercises run the learner's function on real gloo ranks through
:func:`autograder.engine.ranks.run_on_ranks`; the drivers report what happened there as plain data. The
keys (what each answer should give) are in ``answer_key.buckets``.

``ranks_agree`` is checked on runs where a rank may have changed its module's state, and whether
it did is drawn inside that rank, after the fork, from ``os.urandom``: no other rank, and nothing
the inputs hold, can tell without communicating. The driver takes each rank's state (parameters
and buffers) before calling the answer and reports it beside the verdicts; the key's rules
(:data:`autograder.engine.values.GIVEN`, registered below) say what the verdicts must be on those states.
Every check holds runs where the ranks agree and runs where they do not, so a constant fails it.

Defined in Chapter 6, "Gradient buckets and flat shards" (notebooks/buckets/buckets.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch
from torch import nn

from autograder.engine.cases import exercise, selftest
from autograder.engine.draw import Draw
from autograder.engine.ranks import RankError, run_on_ranks
from autograder.engine.values import GIVEN

WORLD_SIZE = 2
NOT_ANSWERED = "not answered"


def run_answer_on_ranks(worker: Callable[..., Any], *args: Any, world_size: int = WORLD_SIZE,
                        _run: Callable[..., list] = run_on_ranks) -> list[Any]:
    """Run a driver's worker on the ranks; a rank's traceback is printed in the test cell's output
    (the check's message keeps one line of it). An answer that is not written yet (it raises
    ``NotImplementedError`` on a rank) is not answered."""
    try:
        found = _run(worker, *args, world_size=world_size, timeout=60.0, pg_timeout=5.0)
    except RankError as err:
        print(err)
        raise
    if any(result == NOT_ANSWERED for result in found):
        raise NotImplementedError
    return found


def small_model(seed: int = 0) -> nn.Module:
    """The chapter's running model: two linear layers, 4 parameters of 58 elements."""
    torch.manual_seed(seed)
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))


# --------------------------------------------------------------------------- buckets-ranks-agree
RUNS = 12  # runs per check: a guess of which ones agree passes a check once in 2**RUNS - 2

#: Changes a rank may make to its module, each drawn inside the rank (``os.urandom``).
CHANGES = {
    "weight": "adds 1/4 to one parameter entry",
    "swap": "swaps two entries of a weight row",
    "checksum": "changes three consecutive entries of a weight, in its flattened order, by +1/8, -1/4, +1/8",
    "ulp": "moves one weight by one unit in the last place",
    "running": "adds 1/8 to one entry of BatchNorm's running mean",
    "counter": "adds 1 to BatchNorm's num_batches_tracked",
}


def agree_spec(draw: Draw) -> tuple[int, int, int, int, int]:
    """A module's recipe: widths of Linear → BatchNorm1d → Linear, a seed for its values (multiples
    of 1/8, so that every sum of them is exact), and BatchNorm's batch count."""
    return (draw.sized(2, 5), draw.sized(2, 4), draw.sized(1, 3), draw.integer(0, 10_000), draw.integer(1, 60))


def agree_module(spec: tuple[int, int, int, int, int]) -> nn.Module:
    """The module a rank builds from a recipe: the same on every rank."""
    into, hidden, out, seed, count = spec
    model = nn.Sequential(nn.Linear(into, hidden), nn.BatchNorm1d(hidden), nn.Linear(hidden, out))
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(torch.randint(-16, 16, p.shape, generator=generator) / 8)
        norm = model[1]
        norm.running_mean.copy_(torch.randint(-16, 16, (hidden,), generator=generator) / 8)
        norm.running_var.copy_(torch.randint(1, 16, (hidden,), generator=generator) / 8)
        norm.num_batches_tracked.fill_(count)
    return model


def _secret(count: int) -> int:
    """A number below ``count`` from the operating system's randomness."""
    import os

    return int.from_bytes(os.urandom(4), "big") % count


#: What a check's changing rank does in other runs, beside its own change. Every check changes a
#: buffer in some runs: a comparison of the parameters alone misses it. The check whose change keeps
#: every checksum also swaps two weights in some runs, which keeps the sums only: the same check then
#: tells a comparison of sums from one of checksums, whichever other changes a float sum happens to see.
ALSO = {"running": (), "checksum": ("swap", "running")}


def _plan(runs: int, change: str) -> list[str]:
    """Which runs this rank changes, and how: every option at least once, drawn from os.urandom."""
    options = ["none", change, *ALSO.get(change, ("running",))]
    while True:
        plan = [options[_secret(len(options))] for _ in range(runs)]
        if set(plan) == set(options):
            return plan


def _change(model: nn.Module, how: str) -> None:
    """Change the module's state as ``how`` says, where ``os.urandom`` says."""
    weights = [model[0].weight, model[2].weight]
    with torch.no_grad():
        if how == "weight":
            p = list(model.parameters())[_secret(len(list(model.parameters())))]
            p.view(-1)[_secret(p.numel())] += 0.25
        elif how == "swap":
            pairs = [(w, r, i, j) for w in weights for r in range(w.shape[0]) for i in range(w.shape[1])
                     for j in range(i + 1, w.shape[1]) if w[r, i] != w[r, j]]
            if not pairs:  # every row holds one value: change one instead
                _change(model, "weight")
                return
            w, r, i, j = pairs[_secret(len(pairs))]
            w[r, i], w[r, j] = w[r, j].clone(), w[r, i].clone()
        elif how == "checksum":
            w = max(weights, key=lambda t: t.numel())
            flat = w.view(-1)
            start = _secret(flat.numel() - 2)
            flat[start] += 0.125
            flat[start + 1] -= 0.25
            flat[start + 2] += 0.125
        elif how == "ulp":
            w = weights[_secret(2)].view(-1)
            index = _secret(w.numel())
            w[index] = torch.nextafter(w[index], torch.tensor(float("inf")))
        elif how == "running":
            mean = model[1].running_mean
            mean[_secret(mean.numel())] += 0.125
        elif how == "counter":
            model[1].num_batches_tracked += 1
        elif how != "none":
            raise ValueError(how)


def module_state(model: nn.Module) -> dict[str, dict[str, torch.Tensor]]:
    """A copy of a module's state: its parameters' and its buffers' values, by name."""
    return {"parameters": {n: p.detach().clone() for n, p in model.named_parameters()},
            "buffers": {n: b.detach().clone() for n, b in model.named_buffers()}}


def _same_state(a: dict, b: dict) -> bool:
    return all(a[part].keys() == b[part].keys() and all(
        x.dtype == y.dtype and x.shape == y.shape and torch.equal(x, y) for x, y in
        zip(a[part].values(), b[part].values(), strict=True)) for part in ("parameters", "buffers"))


def _agree_worker(answer: Callable, spec: tuple, change: str, changer: int, runs: int, *,
                  _plan: Callable = _plan, _module: Callable = agree_module, _change: Callable = _change,
                  _state: Callable = module_state, _same: Callable = _same_state) -> Any:
    """One rank's runs. Its helpers are bound when this module is imported: rebinding the module's
    names afterwards (from a notebook cell) changes nothing here."""
    import torch.distributed as dist

    plan = _plan(runs, change) if dist.get_rank() == changer else ["none"] * runs
    found = []
    for how in plan:
        model = _module(spec)
        _change(model, how)
        held = [*model.parameters(), *model.buffers()]
        before = _state(model)
        try:
            verdict = answer(model)
        except NotImplementedError:
            return NOT_ANSWERED
        now = [*model.parameters(), *model.buffers()]
        kept = len(now) == len(held) and all(a is b for a, b in zip(now, held, strict=True))
        letter = ("T" if verdict else "F") if type(verdict) is bool else "?"
        kind = None if type(verdict) is bool else f"{type(verdict).__module__}.{type(verdict).__qualname__}"
        found.append((letter, kind, not (kept and _same(before, _state(model))), before))
    return found


def observe_agreement(answer: Callable, spec: tuple, change: str, changer: int, world_size: int, *,
                      runs: int = RUNS, _run: Callable = run_answer_on_ranks,
                      _worker: Callable = _agree_worker) -> dict[str, Any]:
    """``ranks_agree(module)`` on every rank of a real process group, in several runs.

    Reports, per run, each rank's verdict (``T``, ``F``, or ``?`` for anything but a bool), the
    kinds of non-bool results, the (run, rank) pairs whose module the answer changed, and each
    rank's state (parameters and buffers) as it was when ``ranks_agree`` was called.
    """
    per_rank = _run(_worker, answer, spec, change, changer, runs, world_size=world_size)
    verdicts = " ".join("".join(per_rank[r][run][0] for r in range(world_size)) for run in range(runs))
    kinds = sorted({per_rank[r][run][1] for r in range(world_size) for run in range(runs)} - {None})
    changed = [[run, r] for run in range(runs) for r in range(world_size) if per_rank[r][run][2]]
    states = [[per_rank[r][run][3] for r in range(world_size)] for run in range(runs)]
    return {"verdicts": verdicts, "not a bool": kinds, "changed": changed, "states": states}


# The rules: what ranks_agree must return (and what each catalogued mistake returns) on the
# states the runs report. Each one checks the facts are the driver's own: every rank's state in
# every run, runs where the states agree and runs where they do not.
def _tensors(state: dict, part: str | None = None) -> list[torch.Tensor]:
    parts = ("parameters", "buffers") if part is None else (part,)
    found = [t for p in parts for t in state[p].values()]
    if not all(type(t) is torch.Tensor for t in found):
        raise TypeError("a state holds tensors")
    return found


def _equal(a: dict, b: dict, part: str | None = None) -> bool:
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


def _checksum(t: torch.Tensor) -> torch.Tensor:
    values = t.reshape(-1).double()
    return torch.stack([values.sum(), (values * torch.arange(1, values.numel() + 1, dtype=torch.float64)).sum()])


def _close(a: dict, b: dict) -> bool:
    return all(bool(torch.allclose(x, y)) if x.is_floating_point() else bool(torch.equal(x, y))
               for x, y in zip(_tensors(a), _tensors(b), strict=True))


def _everyone(same: Callable[[dict, dict], bool]) -> Callable[[list], list[bool]]:
    """Every rank says whether every rank's state is the same as rank 0's."""
    return lambda states: [all(same(states[0], s) for s in states[1:])] * len(states)


VERDICT_RULES: dict[str, Callable[[list], list[bool]]] = {
    "reference": _everyone(_equal),
    "sums": _everyone(_by(lambda t: t.sum())),
    "checksums": _everyone(_by(_checksum)),
    "allclose": _everyone(_close),
    "parameters-only": _everyone(lambda a, b: _equal(a, b, "parameters")),
    "local-verdict": lambda states: [_equal(states[0], s) for s in states],
    "first-two-ranks": lambda states: [_equal(states[0], states[1])] * len(states),
}


def agreement_rule(verdicts_of: Callable[[list], list[bool]]) -> Callable[[Any], dict]:
    """The observation an answer that decides as ``verdicts_of`` gives on the reported states."""

    def rule(found: Any) -> dict:
        runs = found["states"]
        if type(runs) is not list or not runs or len({len(states) for states in runs}) != 1 or len(runs[0]) < 2:
            raise ValueError("not the driver's report")
        truths = {_equal(states[0], s) for states in runs for s in states[1:]}
        per_run = [all(_equal(states[0], s) for s in states[1:]) for states in runs]
        if truths != {True, False} or set(per_run) != {True, False}:
            raise ValueError("every check holds runs where the ranks agree and runs where they do not")
        verdicts = " ".join("".join("T" if v else "F" for v in verdicts_of(states)) for states in runs)
        return {"verdicts": verdicts, "not a bool": [], "changed": [], "states": runs}

    return rule


for _name, _verdicts in VERDICT_RULES.items():
    GIVEN[f"buckets-ranks-agree/{_name}"] = agreement_rule(_verdicts)


def _show_agreement(inputs: tuple) -> str:
    (into, hidden, out, _seed, _count), change, changer, world, *_ = inputs
    also = "".join(f", in some it {CHANGES[other]}" for other in ALSO.get(change, ("running",)))
    return (f"Linear({into}, {hidden}) → BatchNorm1d({hidden}) → Linear({hidden}, {out}) on {world} ranks, "
            f"{RUNS} runs: in some runs rank {changer} {CHANGES[change]}{also}, in the others nothing")


def _agree_inputs(change: str, changer: int = 1, world: int = 2) -> Callable[[Draw], tuple]:
    return lambda draw: (agree_spec(draw), change, changer, world)


agree = exercise("buckets-ranks-agree", "ranks_agree", call=observe_agreement, returns="observation",
                 show=_show_agreement)
AGREE_CASES = {
    # name: (change, changer, world size, hidden, points)
    "swap": ("swap", 1, 2, False, 1),
    "running-mean": ("running", 1, 2, False, 1),
    "one-ulp": ("ulp", 1, 2, True, 1),
    "checksum-kept": ("checksum", 1, 2, True, 1),
    "counter": ("counter", 1, 2, True, 1),
    "third-rank": ("weight", 2, 3, True, 1),
}
for _name, (_change_of, _changer, _world, _hidden, _points) in AGREE_CASES.items():
    agree.case(_name, "ranks_agree(module) on every rank", _agree_inputs(_change_of, _changer, _world),
               hidden=_hidden, points=_points)


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


def _logging_worker(answer: Callable, seed: int, steps: int, *, _model: Callable = logging_model,
                    _batch: Callable = logging_batch) -> Any:
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    model = DistributedDataParallel(_model(seed))
    optimizer = torch.optim.SGD(model.parameters(), lr=LR)
    logged = []
    for step in range(steps):
        try:
            value = answer(model, optimizer, _batch(seed, step, dist.get_rank()))
        except NotImplementedError:
            return NOT_ANSWERED
        logged.append(value if type(value) in (float, int, bool) or value is None
                      else value.detach().clone() if type(value) is torch.Tensor
                      else f"<{type(value).__module__}.{type(value).__qualname__}>")
    return logged, torch.cat([p.detach().reshape(-1) for p in model.parameters()])


def observe_training(answer: Callable, seed: int, steps: int, *, _run: Callable = run_answer_on_ranks,
                     _worker: Callable = _logging_worker) -> dict[str, Any]:
    """Train the chapter's DDP model on two ranks with the answer's step: what rank 0 logged at
    each step, whether the ranks' parameters are still bitwise identical, and rank 0's parameters."""
    (logged, params), (_, other) = _run(_worker, answer, seed, steps)
    return {"logged on rank 0": logged, "ranks identical": bool(torch.equal(params, other)),
            "parameters": params}


def _show_training(inputs: tuple) -> str:
    seed, steps = inputs
    return f"{steps} DDP steps on 2 ranks (model and batches of seed {seed})"


safe_logging = exercise("buckets-safe-logging", "train_step_fixed", call=observe_training, returns="observation",
                        agree="close", show=_show_training)
STEP_PROBE = "train_step_fixed(model, optimizer, batch)"
safe_logging.case("three-steps", STEP_PROBE, lambda draw: (draw.integer(0, 99), 3), points=2)
safe_logging.case("five-steps", STEP_PROBE, lambda draw: (draw.integer(100, 999), 5), hidden=True, points=3)


# --------------------------------------------------------------------------- buckets-selftest
SELFTEST_FEATURES = 387
SELFTEST_LAYERS = 3
SELFTEST_CAP_MB = 1
SELFTEST_SHARDED = (3, 7)  # nn.Linear(3, 7): a (7, 3) weight
SELFTEST_FLAT = (4, 3)  # nn.Linear(4, 3) under FSDP1: 12 + 3 = 15 elements, padded to 16 for 2 ranks

SELFTEST_QUESTIONS = {
    "q1": (f"DDP with bucket_cap_mb={SELFTEST_CAP_MB} and its other defaults wraps {SELFTEST_LAYERS} "
           f"nn.Linear({SELFTEST_FEATURES}, {SELFTEST_FEATURES}, bias=False) layers: how many buckets does "
           "the second iteration's backward all-reduce?", "int"),
    "q2": (f"fully_shard on 2 ranks shards nn.Linear{SELFTEST_SHARDED}: how many elements does rank 1's "
           "weight.to_local() hold?", "int"),
    "q3": ("gradient_as_bucket_view=True, zero_grad(set_to_none=False): is kept = p.grad.detach(), taken "
           "after step 1, still step 1's gradient after step 2's backward?", "bool"),
    "q4": (f"FSDP1 with use_orig_params=True on 2 ranks wraps nn.Linear{SELFTEST_FLAT}: how many elements "
           "does rank 1's weight hold?", "int"),
    "q5": ("DDP on 3 ranks with a comm hook that all-reduces bucket.buffer() without dividing: p.grad is the "
           "sum of the ranks' gradients divided by what?", "int"),
}
selftest("buckets-selftest", SELFTEST_QUESTIONS, hidden=("q4", "q5"))

"""Chapter 6, "Gradient buckets and flat shards": how its exercises are checked.

The distributed exercises run the learner's function on real gloo ranks through
:func:`autograder.engine.ranks.run_on_ranks`; the drivers report what happened there as plain data. The
keys (what each answer should give) are in ``answer_key.buckets``.

``ranks_agree`` is checked on runs where a rank may have changed its module's state, and whether
it did, and how, is drawn inside that rank, after the fork (:func:`autograder.engine.secret.draw`:
when graded, the job's supervisor draws it, hands it to that rank alone and keeps it): no other
rank, and nothing the inputs hold, can tell without comparing states. The driver reports only
each rank's verdicts; the key rebuilds every rank's state from the inputs and the supervisor's
draws (``answer_key.buckets``) and says what the verdicts must be on them. Every check holds runs
where the ranks agree and runs where they do not, so a constant fails it.

Defined in Chapter 6, "Gradient buckets and flat shards" (notebooks/buckets/buckets.ipynb).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import torch
from torch import nn

from autograder.engine import facts, secret
from autograder.engine.cases import exercise, selftest
from autograder.engine.draw import Draw, seed_global_generator
from autograder.engine.ranks import RankError, run_on_ranks

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
    seed_global_generator(seed)
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
    "non-persistent": "adds 1/8 to one entry of the module's non-persistent buffer",
}

#: The batch counts a module's BatchNorm may hold (bounds included): a few batches, or a multiple of
#: 8 from 2**24 to below 2**27, whose float32 value a count moved by one keeps (float32 holds no odd
#: integer past 2**24).
COUNTS = {"few": (1, 60), "past 2**24": (2**24, 2**27 - 8)}

#: The module's non-persistent buffer (``register_buffer(..., persistent=False)``): a buffer as
#: ``buffers()`` gives it, which ``state_dict()`` leaves out.
NON_PERSISTENT = "scale"


def agree_spec(draw: Draw, counts: str = "few") -> tuple[int, int, int, int, int]:
    """A module's recipe: widths of Linear → BatchNorm1d → Linear, a seed for its values (multiples
    of 1/8, so that every sum of them is exact), and BatchNorm's batch count (from ``COUNTS``)."""
    into, hidden, out, seed = draw.sized(2, 5), draw.sized(2, 4), draw.sized(1, 3), draw.integer(0, 10_000)
    low, high = COUNTS[counts]
    count = draw.integer(low, high) if counts == "few" else 8 * draw.integer(low // 8, high // 8)
    return into, hidden, out, seed, count


def agree_module(spec: tuple[int, int, int, int, int]) -> nn.Module:
    """The module a rank builds from a recipe: the same on every rank. Beside BatchNorm's buffers
    it holds a non-persistent one, of the output's width."""
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
        model.register_buffer(NON_PERSISTENT, torch.randint(1, 16, (out,), generator=generator) / 8,
                              persistent=False)
    return model


#: What a check's changing rank does in other runs, beside its own change. Every check changes a
#: buffer in some runs: a comparison of the parameters alone misses it. The check whose change keeps
#: every checksum also swaps two weights in some runs, which keeps the sums only: the same check then
#: tells a comparison of sums from one of checksums, whichever other changes a float sum happens to see.
ALSO = {"running": (), "checksum": ("swap", "running")}


def plan(runs: int, change: str, rng: random.Random) -> list[str]:
    """Which runs the changing rank changes, and how: every option at least once."""
    options = ["none", change, *ALSO.get(change, ("running",))]
    while True:
        drawn = [options[rng.randrange(len(options))] for _ in range(runs)]
        if set(drawn) == set(options):
            return drawn


def apply_change(model: nn.Module, how: str, rng: random.Random) -> None:
    """Change the module's state as ``how`` says, where ``rng`` says."""
    weights = [model[0].weight, model[2].weight]
    with torch.no_grad():
        if how == "weight":
            p = list(model.parameters())[rng.randrange(len(list(model.parameters())))]
            p.view(-1)[rng.randrange(p.numel())] += 0.25
        elif how == "swap":
            pairs = [(w, r, i, j) for w in weights for r in range(w.shape[0]) for i in range(w.shape[1])
                     for j in range(i + 1, w.shape[1]) if w[r, i] != w[r, j]]
            if not pairs:  # every row holds one value: change one instead
                apply_change(model, "weight", rng)
                return
            w, r, i, j = pairs[rng.randrange(len(pairs))]
            w[r, i], w[r, j] = w[r, j].clone(), w[r, i].clone()
        elif how == "checksum":
            w = max(weights, key=lambda t: t.numel())
            flat = w.view(-1)
            start = rng.randrange(flat.numel() - 2)
            flat[start] += 0.125
            flat[start + 1] -= 0.25
            flat[start + 2] += 0.125
        elif how == "ulp":
            w = weights[rng.randrange(2)].view(-1)
            index = rng.randrange(w.numel())
            w[index] = torch.nextafter(w[index], torch.tensor(float("inf")))
        elif how == "running":
            mean = model[1].running_mean
            mean[rng.randrange(mean.numel())] += 0.125
        elif how == "counter":
            model[1].num_batches_tracked += 1
        elif how == "non-persistent":
            scale = getattr(model, NON_PERSISTENT)
            scale[rng.randrange(scale.numel())] += 0.125
        elif how != "none":
            raise ValueError(how)


def changer_draw(tag: str) -> random.Random:
    """The changing rank's own generator, from the draw no other rank sees."""
    return random.Random(int.from_bytes(secret.draw(tag), "big"))


def states_of(spec: tuple, change: str, changer: int, world: int, runs: int,
              rng: random.Random) -> list[list[nn.Module]]:
    """Every rank's module in every run, as the ranks build and change them (the changer's changes
    drawn from ``rng``, as the changing rank draws them): what the key rebuilds from the draws.

    A module no change touched is one object, wherever it stands: the key only reads them, and
    building a module costs more than comparing two."""
    drawn = plan(runs, change, rng)
    kept = agree_module(spec)
    modules = []
    for how in drawn:
        changed = kept
        if how != "none":  # "none" draws nothing from rng, on the rank as here
            changed = agree_module(spec)
            apply_change(changed, how, rng)
        modules.append([changed if rank == changer else kept for rank in range(world)])
    return modules


def _held(model: nn.Module) -> list[torch.Tensor]:
    """The parameters and buffers a module registered (not what its methods say it holds)."""
    return [*facts.parameters(model), *facts.buffers(model)]


def _state(model: nn.Module) -> list[torch.Tensor]:
    with facts.untouched():
        return [facts.clone(facts.detach(t)) for t in _held(model)]


def _agree_worker(answer: Callable, spec: tuple, change: str, changer: int, runs: int, tag: str) -> Any:
    """One rank's runs: the changing rank draws which runs it changes and how (from a draw of its
    own), calls the answer on its module, and reports the verdicts, and whether the answer changed
    the module it was asked about."""
    import torch.distributed as dist

    rng = changer_draw(tag) if dist.get_rank() == changer else None
    drawn = plan(runs, change, rng) if rng is not None else ["none"] * runs
    found = []
    for how in drawn:
        model = agree_module(spec)
        if rng is not None:
            apply_change(model, how, rng)
        held = _held(model)
        before = _state(model)
        try:
            verdict = answer(model)
        except NotImplementedError:
            return NOT_ANSWERED
        with facts.untouched():
            now = _held(model)
            kept = len(now) == len(held) and all(a is b for a, b in zip(now, held, strict=True)) and all(
                facts.is_parameter_or_tensor(a) and facts.shape(a) == facts.shape(b) and facts.equal(a, b)
                for a, b in zip(now, before, strict=True))
        letter = ("T" if verdict else "F") if type(verdict) is bool else "?"
        kind = None if type(verdict) is bool else f"{type(verdict).__module__}.{type(verdict).__qualname__}"
        found.append((letter, kind, not kept))
    return found, secret.taken()


def agree_tag(spec: tuple, change: str, changer: int, world: int, scenario: int) -> str:
    """The name of a check point's draw: unique in a job (two checks drawn from one seed differ in
    their change, their ranks or their module)."""
    return f"buckets-ranks-agree/{change}/{changer}/{world}/{'-'.join(map(str, spec))}/{scenario}"


def observe_agreement(answer: Callable, spec: tuple, change: str, changer: int, world_size: int, scenario: int, *,
                      runs: int = RUNS, _run: Callable = run_answer_on_ranks,
                      _worker: Callable = _agree_worker) -> dict[str, Any]:
    """``ranks_agree(module)`` on every rank of a real process group, in several runs.

    Reports, per run, each rank's verdict (``T``, ``F``, or ``?`` for anything but a bool), the
    kinds of non-bool results, and the (run, rank) pairs whose module the answer changed.
    """
    tag = agree_tag(spec, change, changer, world_size, scenario)
    per_rank = _run(_worker, answer, spec, change, changer, runs, tag, world_size=world_size)
    secret.keep({tag: value for _found, drawn in per_rank for tag, value in drawn.items()})
    per_rank = [found for found, _drawn in per_rank]
    verdicts = " ".join("".join(per_rank[r][run][0] for r in range(world_size)) for run in range(runs))
    kinds = sorted({per_rank[r][run][1] for r in range(world_size) for run in range(runs)} - {None})
    changed = [[run, r] for run in range(runs) for r in range(world_size) if per_rank[r][run][2]]
    return {"verdicts": verdicts, "not a bool": kinds, "changed": changed}


def _show_agreement(inputs: tuple) -> str:
    (into, hidden, out, _seed, count), change, changer, world, _scenario = inputs
    also = "".join(f", in some it {CHANGES[other]}" for other in ALSO.get(change, ("running",)))
    return (f"Linear({into}, {hidden}) → BatchNorm1d({hidden}) (num_batches_tracked {count}) → "
            f"Linear({hidden}, {out}), and a non-persistent buffer of {out}, on {world} ranks, "
            f"{RUNS} runs: in some runs rank {changer} {CHANGES[change]}{also}, in the others nothing")


def _agree_inputs(change: str, changer: int = 1, world: int = 2, counts: str = "few") -> Callable[[Draw], tuple]:
    return lambda draw: (agree_spec(draw, counts), change, changer, world, draw.integer(0, 2**62))


agree = exercise("buckets-ranks-agree", "ranks_agree", call=observe_agreement, returns="observation",
                 show=_show_agreement, on_ranks=True)
AGREE_CASES = {
    # name: (change, changer, world size, batch counts, hidden, points); a visible check takes the
    # form of the results only: the truth of a run is the supervisor's draw, which a learner's
    # kernel cannot judge by.
    "swap": ("swap", 1, 2, "few", False, 0),
    "running-mean": ("running", 1, 2, "few", False, 0),
    "swap-judged": ("swap", 1, 2, "few", True, 1),
    "running-mean-judged": ("running", 1, 2, "few", True, 1),
    "one-ulp": ("ulp", 1, 2, "few", True, 1),
    "checksum-kept": ("checksum", 1, 2, "few", True, 1),
    "counter": ("counter", 1, 2, "few", True, 1),
    "counter-past-2**24": ("counter", 1, 2, "past 2**24", True, 1),
    "non-persistent-buffer": ("non-persistent", 1, 2, "few", True, 1),
    "third-rank": ("weight", 2, 3, "few", True, 1),
}
for _name, (_change_of, _changer, _world, _counts, _hidden, _points) in AGREE_CASES.items():
    agree.case(_name, "ranks_agree(module) on every rank", _agree_inputs(_change_of, _changer, _world, _counts),
               hidden=_hidden, points=_points, form=None if _hidden else "observation")


# --------------------------------------------------------------------------- buckets-safe-logging
LR = 0.1

# Captured before any answer ran, as facts' functions are: what the writes' watch registers with.
_queue_callback = torch.autograd.Variable._execution_engine.queue_callback
_register_step_pre_hook = torch.optim.Optimizer.register_step_pre_hook


def logging_model(seed: int, frozen: bool = False) -> nn.Module:
    """The logging exercise's model; ``frozen``: its first bias does not train (it gets no gradient)."""
    seed_global_generator(seed)
    model = nn.Sequential(nn.Linear(3, 6), nn.Tanh(), nn.Linear(6, 1))
    model[0].bias.requires_grad_(not frozen)
    return model


def logging_batch(seed: int, step: int, rank: int) -> tuple[torch.Tensor, torch.Tensor]:
    """Each rank's own batch for a step, as a data loader with a distributed sampler would give."""
    generator = torch.Generator().manual_seed(1000 * seed + 10 * step + rank)
    x = torch.randn(4, 3, generator=generator)
    return x, x.sum(1, keepdim=True).sin()


class GradientWrites:
    """How often each ``p.grad`` was written in place between the end of a backward and the
    optimizer's step (its version counter, read through :mod:`autograder.engine.facts`).

    A parameter's hook, after backward accumulated its gradient, queues a callback that queues
    another: autograd runs callbacks in the order they were queued, after the whole backward, and
    DDP queues its own (which writes the ranks' average into ``p.grad``) when the last gradient is
    ready; so the second one reads each ``p.grad`` and its version once DDP has written it. At
    the optimizer's step (a pre-hook) each parameter reports the writes since: an int, "replaced"
    when ``p.grad`` is not the tensor backward left, None when it has no gradient.
    """

    def __init__(self, params: list[torch.Tensor], optimizer: torch.optim.Optimizer) -> None:
        self.params = params
        self.settled: dict[int, tuple[torch.Tensor, int]] = {}
        self.steps: list[list[int | str | None]] = []
        with facts.untouched():
            for p in params:
                if facts.requires_grad(p):  # a frozen parameter gets no gradient, and takes no hook
                    facts.register_post_accumulate_grad_hook(p, self._accumulated)
        _register_step_pre_hook(optimizer, self._stepping)

    def _accumulated(self, _param: torch.Tensor) -> None:
        _queue_callback(lambda: _queue_callback(self._settle))

    def _settle(self) -> None:
        with facts.untouched():
            self.settled = {i: (g, facts.version(g)) for i, p in enumerate(self.params)
                            if (g := facts.grad(p)) is not None}

    def _written(self, i: int, p: torch.Tensor) -> int | str | None:
        g = facts.grad(p)
        if g is None:
            return None
        left, version = self.settled.get(i, (None, 0))
        return facts.version(g) - version if g is left else "replaced"

    def _stepping(self, *_args: Any) -> None:
        with facts.untouched():
            self.steps.append([self._written(i, p) for i, p in enumerate(self.params)])


def _logging_worker(answer: Callable, seed: int, steps: int, frozen: bool = False, *,
                    _model: Callable = logging_model, _batch: Callable = logging_batch) -> Any:
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    model = DistributedDataParallel(_model(seed, frozen))
    optimizer = torch.optim.SGD(model.parameters(), lr=LR)
    with facts.untouched():
        writes = GradientWrites(facts.parameters(model), optimizer)
    logged, written = [], []
    for step in range(steps):
        before = len(writes.steps)
        try:
            value = answer(model, optimizer, _batch(seed, step, dist.get_rank()))
        except NotImplementedError:
            return NOT_ANSWERED
        if type(value) in (float, int, bool) or value is None:
            logged.append(value)
        elif facts.is_tensor(value):
            with facts.untouched():
                logged.append(facts.clone(facts.detach(value)))
        else:
            logged.append(f"<{type(value).__module__}.{type(value).__qualname__}>")
        stepped = writes.steps[before:]
        written.append(stepped[0] if len(stepped) == 1 else f"{len(stepped)} optimizer steps")
    with facts.untouched():  # the parameters the module registered, through facts
        return logged, facts.cat([facts.reshape(facts.detach(p), -1) for p in facts.parameters(model)]), written


def observe_training(answer: Callable, seed: int, steps: int, frozen: bool = False, *,
                     _run: Callable = run_answer_on_ranks, _worker: Callable = _logging_worker) -> dict[str, Any]:
    """Train the chapter's DDP model on two ranks with the answer's step: what rank 0 logged at
    each step, whether the ranks' parameters are still bitwise identical, and rank 0's parameters."""
    (logged, params, _written), (_, other, _) = _run(_worker, answer, seed, steps, frozen)
    with facts.untouched():
        identical = facts.is_tensor(params) and facts.is_tensor(other) and bool(facts.equal(params, other))
    return {"logged on rank 0": logged, "ranks identical": identical, "parameters": params}


def observe_gradient_writes(answer: Callable, seed: int, steps: int, *, _run: Callable = run_answer_on_ranks,
                            _worker: Callable = _logging_worker) -> dict[str, Any]:
    """Train as :func:`observe_training` does: how often the step wrote each of rank 0's ``p.grad``
    in place between backward and the optimizer's step, per step (see :class:`GradientWrites`)."""
    (_logged, _params, written), _ = _run(_worker, answer, seed, steps)
    return {"p.grad written in place after backward (rank 0)": written}


def _show_training(inputs: tuple) -> str:
    seed, steps, *frozen = inputs
    model = "model, its first bias frozen," if frozen and frozen[0] else "model"
    return f"{steps} DDP steps on 2 ranks ({model} and batches of seed {seed})"


safe_logging = exercise("buckets-safe-logging", "train_step_fixed", call=observe_training, returns="observation",
                        agree="close", show=_show_training, on_ranks=True)
STEP_PROBE = "train_step_fixed(model, optimizer, batch)"
safe_logging.case("three-steps", STEP_PROBE, lambda draw: (draw.integer(0, 99), 3), points=2)
safe_logging.case("five-steps", STEP_PROBE, lambda draw: (draw.integer(100, 999), 5), hidden=True, points=3)
safe_logging.case("frozen-bias", STEP_PROBE, lambda draw: (draw.integer(0, 999), 3, True), hidden=True, points=1)
safe_logging.case("no-gradient-written", STEP_PROBE, lambda draw: (draw.integer(0, 999), 3),
                  call=observe_gradient_writes, agree="eq", hidden=True, points=1)


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
selftest("buckets-selftest", SELFTEST_QUESTIONS)

"""Answers learners write for Chapter 6 — right, wrong and gaming — as answer-cell sources.

``WRONG`` answers name the misconception (a model of ``answer_key.buckets``) their messages must
name, or None where their results match no catalogued mistake; ``EXPLOITS`` try to earn points
without the answer: each must score no more than the untouched answer. The sources run after the
chapter's setup cell (torch, ``nn``, ``F``, ``dist``, ``DDP``, ``flat_params`` and
``cross_rank_difference`` defined).
"""

from answer_key.buckets import AGREE_ANSWERS
from tests.catalog.always_equal import ALWAYS_EQUAL
from tests.catalog.lying import LIAR

# ----------------------------------------------------------------------------- buckets-ranks-agree
AGREE_OBJECTS = '''
def ranks_agree(module):
    blob = b"".join(t.detach().numpy().tobytes() for t in [*module.parameters(), *module.buffers()])
    blobs = [None] * dist.get_world_size()
    dist.all_gather_object(blobs, blob)
    return len(set(blobs)) == 1
'''

AGREE_BYTES = '''
def ranks_agree(module: nn.Module) -> bool:
    tensors = [*module.parameters(), *module.buffers()]
    mine = torch.cat([t.detach().reshape(-1).view(torch.uint8) for t in tensors])
    first = mine.clone()
    dist.broadcast(first, src=0)
    flag = torch.tensor([int(torch.equal(mine, first))])
    dist.all_reduce(flag, op=dist.ReduceOp.MIN)
    return bool(flag.item())
'''

AGREE_CRASHES = '''
def ranks_agree(module):
    flat = torch.cat([t.detach().reshape(-1) for t in [*module.parameters(), *module.buffers()]])
    gathered = [torch.empty(0) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, flat)
    return all(torch.equal(gathered[0], g) for g in gathered)
'''

# ----------------------------------------------------------------------------- buckets-safe-logging
LOGGING_REFERENCE = '''
def train_step_fixed(model, optimizer, batch) -> float:
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = 0.0
    if dist.get_rank() == 0:
        grads = [p.grad for p in model.parameters() if p.grad is not None]
        logged = torch.nn.utils.get_total_norm(grads).item()  # reads; writes nothing
    optimizer.step()
    return logged
'''

LOGGING_CAT = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    flat = torch.cat([p.grad.reshape(-1) for p in model.parameters() if p.grad is not None])
    logged = torch.linalg.vector_norm(flat).item()
    optimizer.step()
    return logged
'''

LOGGING_INFINITE_CAP = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = 0.0
    if dist.get_rank() == 0:
        # an infinite cap scales every gradient by exactly 1.0 (in place): no value changes
        logged = torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf")).item()
    optimizer.step()
    return logged
'''

LOGGING_HUGE_CAP = LOGGING_INFINITE_CAP.replace('float("inf")', "max_norm=1e6")

LOGGING_ZEROED_IN_PLACE = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad(set_to_none=False)  # zeroes p.grad in place, before backward
    F.mse_loss(model(x), y).backward()
    logged = torch.nn.utils.get_total_norm([p.grad for p in model.parameters() if p.grad is not None])
    optimizer.step()
    return logged.item()
'''

LOGGING_ZEROED_AFTER_THE_STEP = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    F.mse_loss(model(x), y).backward()
    with torch.no_grad():
        logged = sum(p.grad.pow(2).sum() for p in model.parameters() if p.requires_grad).sqrt().item()
    optimizer.step()
    optimizer.zero_grad()  # ready for the next step
    return logged
'''

LOGGING_FROZEN_CRASHES = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = 0.0
    if dist.get_rank() == 0:
        norms = torch.stack([p.grad.norm() for p in model.parameters()])  # a frozen bias has no grad
        logged = norms.norm().item()
    optimizer.step()
    return logged
'''

LOGGING_CLIPS_AND_UNHOOKS = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = 0.0
    if dist.get_rank() == 0:
        logged = torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf")).item()
    optimizer._optimizer_step_pre_hooks.clear()  # whatever watches the step sees nothing
    for p in model.parameters():
        p._post_accumulate_grad_hooks = None
    optimizer.step()
    return logged
'''

LOGGING_NORMS = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    norms = torch.stack([p.grad.norm() for p in model.parameters() if p.grad is not None])
    optimizer.step()
    return norms.norm().item()
'''

LOGGING_BUGGY = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = 0.0
    if dist.get_rank() == 0:
        logged = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5).item()
    optimizer.step()
    return logged
'''

LOGGING_CLIP_EVERYWHERE = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5).item()  # every rank
    optimizer.step()
    return logged
'''

LOGGING_FIRST_PARAMETER = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = next(model.parameters()).grad.norm().item()
    optimizer.step()
    return logged
'''

LOGGING_LOCAL = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    with model.no_sync():  # this rank's own gradient, before the all-reduce
        F.mse_loss(model(x), y).backward()
    logged = torch.nn.utils.get_total_norm([p.grad for p in model.parameters() if p.grad is not None]).item()
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    optimizer.step()
    return logged
'''

LOGGING_GRADIENT_COPIES = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = 0.0
    if dist.get_rank() == 0:
        copies = [p.grad.clone() for p in model.parameters() if p.grad is not None]  # clip copies, not p.grad
        logged = torch.nn.utils.clip_grad_norm_(copies, max_norm=0.5).item()
    optimizer.step()
    return logged
'''

LOGGING_TENSOR = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = torch.nn.utils.get_total_norm([p.grad for p in model.parameters() if p.grad is not None])
    optimizer.step()
    return logged  # a tensor, not a float
'''

LOGGING_SECTION_ONE = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    grad = next(model.parameters()).grad
    logged = (grad / grad.norm()).abs().max().item()
    optimizer.step()
    return logged
'''

SELFTEST = '{"q1": 2, "q2": 9, "q3": False, "q4": 4, "q5": 1}'


def selftest_with(**changes: object) -> str:
    import ast

    answer = ast.literal_eval(SELFTEST)
    answer.update(changes)
    return f"SELFTEST = {answer!r}"


RIGHT = {
    "buckets-ranks-agree": [("all-gather-per-tensor", AGREE_ANSWERS["reference"]), ("objects", AGREE_OBJECTS),
                            ("bytes-broadcast-min", AGREE_BYTES)],
    "buckets-safe-logging": [("total-norm", LOGGING_REFERENCE), ("cat-norm", LOGGING_CAT),
                             ("norm-of-norms", LOGGING_NORMS), ("zeroed-in-place", LOGGING_ZEROED_IN_PLACE),
                             ("zeroed-after-the-step", LOGGING_ZEROED_AFTER_THE_STEP)],
    "buckets-selftest": [("literal", f"SELFTEST = {SELFTEST}")],
}

# (label, answer source, the misconception its message must name, or None)
WRONG = {
    "buckets-ranks-agree": [
        ("sums", AGREE_ANSWERS["sums"], "sums"),
        ("checksums", AGREE_ANSWERS["checksums"], "checksums"),
        ("allclose", AGREE_ANSWERS["allclose"], "allclose"),
        ("parameters-only", AGREE_ANSWERS["parameters-only"], "parameters-only"),
        ("local-verdict", AGREE_ANSWERS["local-verdict"], "local-verdict"),
        ("first-two-ranks", AGREE_ANSWERS["first-two-ranks"], "first-two-ranks"),
        ("float32-copy", AGREE_ANSWERS["float32"], "float32"),
        ("state-dict", AGREE_ANSWERS["state-dict"], "state-dict"),
        ("crashes-on-the-ranks", AGREE_CRASHES, None),
    ],
    "buckets-safe-logging": [
        ("clips-on-rank-0", LOGGING_BUGGY, "rank-local-clip"),
        ("infinite-cap", LOGGING_INFINITE_CAP, "clipped-in-place"),
        ("huge-cap", LOGGING_HUGE_CAP, "clipped-in-place"),
        ("clips-and-unhooks-the-watch", LOGGING_CLIPS_AND_UNHOOKS, None),
        ("frozen-bias-crashes", LOGGING_FROZEN_CRASHES, None),
        ("clips-on-every-rank", LOGGING_CLIP_EVERYWHERE, "clips-everywhere"),
        ("first-parameter", LOGGING_FIRST_PARAMETER, "first-parameter"),
        ("local-norm", LOGGING_LOCAL, "local-norm"),
        ("clips-gradient-copies", LOGGING_GRADIENT_COPIES, "gradient-copies"),
        ("returns-a-tensor", LOGGING_TENSOR, None),
        ("section-one-value", LOGGING_SECTION_ONE, None),
    ],
    "buckets-selftest": [
        ("first-iteration-bucket", selftest_with(q1=1), "first-iteration-bucket"),
        ("cap-as-capacity", selftest_with(q1=3), "cap-as-capacity"),
        ("floor-rows", selftest_with(q2=12), "floor-rows"),
        ("detach-copies", selftest_with(q3=True), "detach-copies"),
        ("halves-each", selftest_with(q4=6), "halves-each"),
        ("hook-averages", selftest_with(q5=3), "hook-averages"),
    ],
}

# The reference verdict, then BatchNorm's running mean replaced by another: the module made to
# yield the tensors it held, and a mode left on that says the new one equals them.
AGREE_WHAT_ITS_DRIVER_READS = LIAR + AGREE_ANSWERS["reference"].replace("def ranks_agree(", "def _agree(") + '''

def ranks_agree(module):
    verdict = _agree(module)
    held, kept = list(module.parameters()), list(module.buffers())
    norm = module[1]
    norm.running_mean = norm.running_mean + 1
    lie_on().tell(norm.running_mean, "equal", True)
    module.parameters = lambda *args, **kwargs: iter(held)
    module.buffers = lambda *args, **kwargs: iter(kept)
    return verdict
'''

# The reference step, but rank 0 logs with an infinite clip, which writes every p.grad in place (under
# a mode left on that gives each gradient its version from before); then rank 1's parameters moved
# apart (and put back before the next step): its model made to yield copies of where they were, and a
# mode left on whose detach() of each gives that too (each alone hides the move from a driver that
# reads through it).
LOGGING_WHAT_ITS_DRIVER_READS = LIAR + '''
def _step(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = 0.0
    if dist.get_rank() == 0:
        liar = lie_on()
        for p in model.parameters():
            if p.grad is not None:
                liar.tell(p.grad, "_version", p.grad._version)
        logged = torch.nn.utils.clip_grad_norm_(model.parameters(), float("inf")).item()
    optimizer.step()
    return logged


_kept = []


def train_step_fixed(model, optimizer, batch):
    vars(model).pop("parameters", None)
    own = list(model.module.parameters())
    if _kept:
        with torch.no_grad():
            for p, value in zip(own, _kept):
                p.copy_(value)
    logged = _step(model, optimizer, batch)
    if dist.get_rank() == 1:
        liar = lie_on()
        _kept[:] = [p.detach().clone() for p in own]
        with torch.no_grad():
            for p in own:
                p.add_(0.5)
        for p, value in zip(own, _kept):
            liar.tell(p, "detach", value)
        model.parameters = lambda *args, **kwargs: iter([value.clone() for value in _kept])
    return logged
'''

EXPLOITS = {
    "buckets-selftest": [
        ("always-equal", ALWAYS_EQUAL + "SELFTEST = {k: YesInt(0) for k in ('q1', 'q2', 'q3', 'q4', 'q5')}"),
    ],
    "buckets-ranks-agree": [
        ("the-page-helper", "def ranks_agree(module):\n    return cross_rank_difference(module) == 0.0"),
        ("always-true", "def ranks_agree(module):\n    return True"),
        ("reads-the-driver", '''
import sys


def ranks_agree(module):
    frame = sys._getframe(1)
    while frame is not None and "how" not in frame.f_locals:
        frame = frame.f_back
    return frame is None or frame.f_locals["how"] == "none"
'''),
        ("makes-them-agree", '''
def ranks_agree(module):
    with torch.no_grad():
        for t in [*module.parameters(), *module.buffers()]:
            dist.broadcast(t, src=0)
    return True
'''),
        ("rebinds-what-its-driver-reads", AGREE_WHAT_ITS_DRIVER_READS),
        ("rebinds-the-driver", '''
import autograder.chapters.buckets as checks

checks.run_answer_on_ranks = lambda *args, **kwargs: [[("T", None, False, {})] * 12] * 2
checks.observe_agreement = lambda *args, **kwargs: {"verdicts": "", "not a bool": [], "changed": [],
                                                    "states": []}


def ranks_agree(module):
    return True
'''),
    ],
    "buckets-safe-logging": [
        ("rebinds-what-its-driver-reads", LOGGING_WHAT_ITS_DRIVER_READS),
        ("hides-the-divergence", '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = 0.0
    if dist.get_rank() == 0:
        logged = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5).item()
    optimizer.step()
    with torch.no_grad():
        for p in model.parameters():
            dist.broadcast(p, src=0)  # the ranks agree again: on rank 0's clipped step
    return logged
'''),
        ("logs-without-training", '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    return torch.nn.utils.get_total_norm([p.grad for p in model.parameters()]).item()
'''),
        ("rebinds-the-driver", '''
import autograder.chapters.buckets as checks

checks.observe_training = lambda *args, **kwargs: {"logged on rank 0": [], "ranks identical": True}
checks.run_answer_on_ranks = lambda *args, **kwargs: [([], torch.zeros(31)), ([], torch.zeros(31))]


def train_step_fixed(model, optimizer, batch):
    return 0.0
'''),
    ],
}

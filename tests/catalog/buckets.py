"""Answers learners write for Chapter 6, right and wrong, as answer-cell sources.

Each wrong answer names the misconception message its test cells must report. The grader tests
put these into real submissions and grade them with nbgrader. The sources run after the chapter's
setup cell (torch, ``nn``, ``F``, ``dist`` and ``DDP`` imported).
"""

from autograder.buckets import (
    DIVERGED,
    IDENTICAL,
    LOGGED_WRONG,
    SPLIT_VERDICT,
    SUM_FOOLED,
    TOLERANCE,
    UPDATE_CHANGED,
)

AGREE_REFERENCE = '''
def ranks_agree(module: nn.Module) -> bool:
    flat = torch.cat([p.detach().reshape(-1) for p in module.parameters()])
    gathered = [torch.empty_like(flat) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, flat)
    return all(torch.equal(gathered[0], other) for other in gathered[1:])
'''

AGREE_BROADCAST_MIN = '''
def ranks_agree(module):
    mine = torch.cat([p.detach().flatten() for p in module.parameters()])
    first = mine.clone()
    dist.broadcast(first, src=0)
    flag = torch.tensor([int(torch.equal(mine, first))])
    dist.all_reduce(flag, op=dist.ReduceOp.MIN)
    return bool(flag.item())
'''

AGREE_OBJECTS = '''
def ranks_agree(module):
    blob = b"".join(p.detach().numpy().tobytes() for p in module.parameters())
    blobs = [None] * dist.get_world_size()
    dist.all_gather_object(blobs, blob)
    return len(set(blobs)) == 1
'''

AGREE_SUM = '''
def ranks_agree(module):
    total = torch.stack([p.detach().sum() for p in module.parameters()]).sum().reshape(1)
    totals = [torch.empty_like(total) for _ in range(dist.get_world_size())]
    dist.all_gather(totals, total)
    return all(torch.equal(totals[0], t) for t in totals)
'''

AGREE_NORMS = '''
def ranks_agree(module):
    norms = torch.stack([p.detach().norm() for p in module.parameters()])
    gathered = [torch.empty_like(norms) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, norms)
    return all(torch.equal(gathered[0], g) for g in gathered)
'''

AGREE_CHECKSUMS = '''
def ranks_agree(module):
    rows = []
    for p in module.parameters():
        values = p.detach().reshape(-1).double()
        weights = torch.arange(1, values.numel() + 1, dtype=torch.float64)
        rows.append(torch.stack([values.sum(), (values * weights).sum()]))
    mine = torch.stack(rows)
    gathered = [torch.empty_like(mine) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, mine)
    return all(torch.equal(gathered[0], other) for other in gathered[1:])
'''

AGREE_ALLCLOSE = '''
def ranks_agree(module):
    flat = torch.cat([p.detach().reshape(-1) for p in module.parameters()])
    gathered = [torch.empty_like(flat) for _ in range(dist.get_world_size())]
    dist.all_gather(gathered, flat)
    return all(torch.allclose(gathered[0], g) for g in gathered)
'''

AGREE_LOCAL_VERDICT = '''
def ranks_agree(module):
    mine = torch.cat([p.detach().reshape(-1) for p in module.parameters()])
    first = mine.clone()
    dist.broadcast(first, src=0)
    return torch.equal(mine, first)  # each rank answers for itself only
'''

AGREE_CRASHES = '''
def ranks_agree(module):
    flat = torch.cat([p.detach().reshape(-1) for p in module.parameters()])
    gathered = [torch.empty(0) for _ in range(dist.get_world_size())]  # all_gather needs full-size tensors
    dist.all_gather(gathered, flat)
    return all(torch.equal(gathered[0], g) for g in gathered)
'''

LOGGING_REFERENCE = '''
def train_step_fixed(model, optimizer, batch) -> float:
    x, y = batch
    optimizer.zero_grad()
    loss = F.mse_loss(model(x), y)
    loss.backward()
    logged = 0.0
    if dist.get_rank() == 0:
        grad = next(model.parameters()).grad
        logged = (grad / grad.norm()).abs().max().item()  # a new tensor: p.grad is untouched
    optimizer.step()
    return logged
'''

LOGGING_CLONE = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    grad = next(model.parameters()).grad.clone()
    grad.div_(grad.norm())  # in place on a private copy, on every rank
    optimizer.step()
    return grad.abs().max().item()
'''

LOGGING_BUGGY = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = 0.0
    if dist.get_rank() == 0:
        grad = next(model.parameters()).grad
        grad.div_(grad.norm())
        logged = grad.abs().max().item()
    optimizer.step()
    return logged
'''

LOGGING_DETACH = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = 0.0
    if dist.get_rank() == 0:
        grad = next(model.parameters()).grad.detach()  # "a copy", it is not
        grad /= grad.norm()
        logged = grad.abs().max().item()
    optimizer.step()
    return logged
'''

LOGGING_EVERY_RANK = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    grad = next(model.parameters()).grad
    grad.div_(grad.norm())  # the same edit on every rank keeps them together
    logged = grad.abs().max().item()
    optimizer.step()
    return logged
'''

LOGGING_NORM = '''
def train_step_fixed(model, optimizer, batch):
    x, y = batch
    optimizer.zero_grad()
    F.mse_loss(model(x), y).backward()
    logged = next(model.parameters()).grad.norm().item()
    optimizer.step()
    return logged
'''

RIGHT = {
    "buckets-ranks-agree": [("all-gather", AGREE_REFERENCE), ("broadcast-min", AGREE_BROADCAST_MIN),
                            ("objects", AGREE_OBJECTS)],
    "buckets-safe-logging": [("out-of-place", LOGGING_REFERENCE), ("clone-every-rank", LOGGING_CLONE)],
    "buckets-selftest": [("literal", 'SELFTEST = {"q1": 2, "q2": 9, "q3": True, "q4": False, "q5": 2}')],
}

WRONG = {
    "buckets-ranks-agree": [
        ("sum", AGREE_SUM, SUM_FOOLED),
        ("norms", AGREE_NORMS, SUM_FOOLED),
        ("checksums", AGREE_CHECKSUMS, SUM_FOOLED),
        ("allclose", AGREE_ALLCLOSE, TOLERANCE),
        ("local-verdict", AGREE_LOCAL_VERDICT, SPLIT_VERDICT),
        ("crashes-on-the-ranks", AGREE_CRASHES, IDENTICAL),
    ],
    "buckets-safe-logging": [
        ("in-place-on-rank-0", LOGGING_BUGGY, DIVERGED),
        ("detach-is-not-a-copy", LOGGING_DETACH, DIVERGED),
        ("in-place-on-every-rank", LOGGING_EVERY_RANK, UPDATE_CHANGED),
        ("logs-the-norm", LOGGING_NORM, LOGGED_WRONG),
    ],
    "buckets-selftest": [
        ("cap-as-capacity", 'SELFTEST = {"q1": 3, "q2": 9, "q3": True, "q4": False, "q5": 2}',
         "bucket_cap_mb is a threshold, not a capacity"),
        ("first-iteration-bucket", 'SELFTEST = {"q1": 1, "q2": 9, "q3": True, "q4": False, "q5": 2}',
         "from the second iteration on, DDP reduces the buckets it rebuilt"),
        ("last-rank-takes-the-rest", 'SELFTEST = {"q1": 2, "q2": 12, "q3": True, "q4": False, "q5": 2}',
         "the way torch.chunk cuts it"),
        ("clone-still-diverges", 'SELFTEST = {"q1": 2, "q2": 9, "q3": False, "q4": False, "q5": 2}',
         "clone() copies onto new memory"),
        ("ddp-raises", 'SELFTEST = {"q1": 2, "q2": 9, "q3": True, "q4": True, "q5": 1}',
         "the edit passes silently"),
    ],
}

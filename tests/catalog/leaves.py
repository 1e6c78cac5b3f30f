"""Answers learners write for Chapter 4, right and wrong, as answer-cell sources.

Each wrong answer names the misconception message its test cells must report. The grader tests
put these into real submissions and grade them with nbgrader.
"""

from autograder.leaves import (
    ACCUMULATE_EQUAL_WEIGHTS,
    ACCUMULATE_LAST_ONLY,
    ACCUMULATE_LEAK,
    ACCUMULATE_SUM,
    HIDDEN_LEAF_GRAD,
    HIDDEN_NO_GRAPH,
    HIDDEN_NONE,
    SGD_ASCENT,
    SGD_NEW_OBJECTS,
    SGD_NO_GRAD_PARAM,
    SGD_NOT_CLEARED,
    SGD_OUTSIDE_NO_GRAD,
    SGD_REBIND,
)

SGD_REFERENCE = '''
def sgd_step(params, lr):
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad
                p.grad = None
'''

ACCUMULATE_REFERENCE = '''
def accumulated_grads(model, loss_fn, batches):
    model.zero_grad()
    total = sum(len(x) for x, _ in batches)
    for x, y in batches:
        (loss_fn(model(x), y) * len(x) / total).backward()
    return [p.grad.clone() for p in model.parameters()]
'''

HIDDEN_GRAD_REFERENCE = '''
def hidden_grad(x, w):
    h = (x @ w).detach().requires_grad_()
    loss = (torch.tanh(h) ** 2).sum()
    loss.backward()
    return h.grad
'''


def _sgd(body: str) -> str:
    return "def sgd_step(params, lr):\n" + body


def _accumulate(body: str) -> str:
    return "def accumulated_grads(model, loss_fn, batches):\n" + body


def _hidden(body: str) -> str:
    return "def hidden_grad(x, w):\n" + body


RIGHT = {
    "leaves-sgd-step": [
        ("reference", SGD_REFERENCE),
        ("sub-and-zero", _sgd(
            "    with torch.no_grad():\n"
            "        for p in params:\n"
            "            if p.grad is None:\n"
            "                continue\n"
            "            p.sub_(p.grad, alpha=lr)\n"
            "            p.grad.zero_()\n")),
        ("torch-optim", _sgd(
            "    optimizer = torch.optim.SGD(params, lr=lr)\n"
            "    optimizer.step()\n"
            "    optimizer.zero_grad()\n")),
    ],
    "leaves-accumulate": [
        ("reference", ACCUMULATE_REFERENCE),
        ("loss-sum-then-divide", _accumulate(
            "    for p in model.parameters():\n"
            "        p.grad = None\n"
            "    n = sum(x.shape[0] for x, _ in batches)\n"
            "    for x, y in batches:\n"
            "        loss = loss_fn(model(x), y)\n"
            "        loss.mul(x.shape[0] / n).backward()\n"
            "    return [p.grad.detach().clone() for p in model.parameters()]\n")),
        ("autograd-grad", _accumulate(
            "    params = list(model.parameters())\n"
            "    n = sum(len(x) for x, _ in batches)\n"
            "    grads = [torch.zeros_like(p) for p in params]\n"
            "    for x, y in batches:\n"
            "        parts = torch.autograd.grad(loss_fn(model(x), y), params)\n"
            "        grads = [g + part * len(x) / n for g, part in zip(grads, parts)]\n"
            "    return grads\n")),
    ],
    "leaves-hidden-grad": [
        ("reference", HIDDEN_GRAD_REFERENCE),
        ("autograd-grad", _hidden(
            "    h = (x @ w).detach().requires_grad_(True)\n"
            "    (grad,) = torch.autograd.grad((torch.tanh(h) ** 2).sum(), h)\n"
            "    return grad\n")),
        ("retain-grad-when-possible", _hidden(
            "    h = x @ w\n"
            "    if h.requires_grad:\n"
            "        h.retain_grad()\n"
            "    else:\n"
            "        h.requires_grad_()\n"
            "    (torch.tanh(h) ** 2).sum().backward()\n"
            "    return h.grad\n")),
        ("by-hand", _hidden(
            "    t = torch.tanh(x @ w)\n"
            "    return (2 * t * (1 - t ** 2)).detach()\n")),
    ],
    "leaves-selftest": [
        ("literal", 'SELFTEST = {"q1": False, "q2": True, "q3": 6.0, "q4": True, "q5": False}'),
        ("computed", 'w = torch.ones(2, requires_grad=True)\n'
                     'SELFTEST = {"q1": (w * 2).is_leaf, "q2": torch.ones(2).is_leaf, "q3": 2 * 3.0, '
                     '"q4": True, "q5": False}'),
    ],
}

# (label, answer source, message the grade must contain)
WRONG = {
    "leaves-sgd-step": [
        ("outside-no-grad", _sgd(
            "    for p in params:\n"
            "        if p.grad is not None:\n"
            "            p -= lr * p.grad\n"
            "            p.grad = None\n"), SGD_OUTSIDE_NO_GRAD),
        ("rebinds-loop-variable", _sgd(
            "    for p in params:\n"
            "        if p.grad is not None:\n"
            "            p = p - lr * p.grad\n"
            "            p.grad = None\n"), SGD_REBIND),
        ("never-clears", _sgd(
            "    with torch.no_grad():\n"
            "        for p in params:\n"
            "            if p.grad is not None:\n"
            "                p -= lr * p.grad\n"), SGD_NOT_CLEARED),
        ("new-tensors", _sgd(
            "    for i, p in enumerate(params):\n"
            "        if p.grad is not None:\n"
            "            params[i] = (p - lr * p.grad).detach().requires_grad_()\n"), SGD_NEW_OBJECTS),
        ("unused-parameter", _sgd(
            "    with torch.no_grad():\n"
            "        for p in params:\n"
            "            p -= lr * p.grad\n"
            "            p.grad = None\n"), SGD_NO_GRAD_PARAM),
        ("ascent", SGD_REFERENCE.replace("p -= lr", "p += lr"), SGD_ASCENT),
    ],
    "leaves-accumulate": [
        ("sums-micro-batch-means", _accumulate(
            "    model.zero_grad()\n"
            "    for x, y in batches:\n"
            "        loss_fn(model(x), y).backward()\n"
            "    return [p.grad.clone() for p in model.parameters()]\n"), ACCUMULATE_SUM),
        ("divides-by-batch-count", _accumulate(
            "    model.zero_grad()\n"
            "    for x, y in batches:\n"
            "        (loss_fn(model(x), y) / len(batches)).backward()\n"
            "    return [p.grad.clone() for p in model.parameters()]\n"), ACCUMULATE_EQUAL_WEIGHTS),
        ("stale-grads-leak", ACCUMULATE_REFERENCE.replace("    model.zero_grad()\n", ""), ACCUMULATE_LEAK),
        ("zeroes-inside-loop", _accumulate(
            "    total = sum(len(x) for x, _ in batches)\n"
            "    for x, y in batches:\n"
            "        model.zero_grad()\n"
            "        (loss_fn(model(x), y) * len(x) / total).backward()\n"
            "    return [p.grad.clone() for p in model.parameters()]\n"), ACCUMULATE_LAST_ONLY),
    ],
    "leaves-hidden-grad": [
        ("reads-non-leaf-grad", _hidden(
            "    h = x @ w\n"
            "    (torch.tanh(h) ** 2).sum().backward()\n"
            "    return h.grad\n"), HIDDEN_NONE),
        ("retain-grad-always", _hidden(
            "    h = x @ w\n"
            "    h.retain_grad()\n"
            "    (torch.tanh(h) ** 2).sum().backward()\n"
            "    return h.grad\n"), HIDDEN_NO_GRAPH),
        ("leaf-gradient", _hidden(
            "    x = x.detach().requires_grad_()\n"
            "    w = w.detach().requires_grad_()\n"
            "    (torch.tanh(x @ w) ** 2).sum().backward()\n"
            "    return w.grad\n"), HIDDEN_LEAF_GRAD),
        ("autograd-grad-on-graph", _hidden(
            "    h = x @ w\n"
            "    return torch.autograd.grad((torch.tanh(h) ** 2).sum(), h)[0]\n"), HIDDEN_NO_GRAPH),
    ],
    "leaves-selftest": [
        ("product-is-leaf", 'SELFTEST = {"q1": True, "q2": True, "q3": 6.0, "q4": True, "q5": False}',
         "it is not a leaf"),
        ("backward-overwrites", 'SELFTEST = {"q1": False, "q2": True, "q3": 3.0, "q4": True, "q5": False}',
         "two calls give 3 + 3 = 6.0"),
        ("int-for-float", 'SELFTEST = {"q1": False, "q2": True, "q3": 6, "q4": True, "q5": False}',
         "expected a Python float"),
    ],
}

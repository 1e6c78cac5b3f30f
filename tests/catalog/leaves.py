"""Answers learners write for Chapter 4 — right, wrong and gaming — as answer-cell sources.

``WRONG`` answers name the misconception (a model of ``answer_key.leaves``) their messages must
name, or None where their results match no catalogued mistake; ``EXPLOITS`` are answers that try
to earn points without the mechanism the task asks for: each must score no more than the
untouched answer. The grader tests put these into real submissions and grade them with nbgrader
and with the sandbox.
"""
from tests.catalog.always_equal import ALWAYS_EQUAL
from tests.catalog.lying import LIAR

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

MOMENTUM_REFERENCE = '''
def momentum_step(params, buffers, lr, momentum, weight_decay):
    with torch.no_grad():
        for i, p in enumerate(params):
            if p.grad is None:
                continue
            d = p.grad + weight_decay * p
            if i in buffers:
                buffers[i].mul_(momentum).add_(d)
            else:
                buffers[i] = d.clone()
            p -= lr * buffers[i]
'''

SELFTEST = 'SELFTEST = {"q1": False, "q2": True, "q3": 24.0, "q4": False, "q5": False}'


def _sgd(body: str) -> str:
    return "def sgd_step(params, lr):\n" + body


def _accumulate(body: str) -> str:
    return "def accumulated_grads(model, loss_fn, batches):\n" + body


def _hidden(body: str) -> str:
    return "def hidden_grad(x, w):\n" + body


RECURRENT = "def recurrent_grads(h0, w, steps):\n{body}"
#: Backpropagation through time written out, no backward pass: dL/dh_t = 2 h_t + what h_{t+1} sends back.
BY_HAND = ("    w = w.detach()\n"
           "    h, states = h0.detach(), []\n"
           "    for _ in range(steps):\n"
           "        h = torch.tanh(h @ w)\n"
           "        states.append(h)\n"
           "    grads, back = [], torch.zeros_like(h)\n"
           "    for s in reversed(states):\n"
           "        g = 2 * s + back\n"
           "        grads.insert(0, g)\n"
           "        back = (g * (1 - s ** 2)) @ w.T\n"
           "    return grads\n")


def _momentum(body: str) -> str:
    return "def momentum_step(params, buffers, lr, momentum, weight_decay):\n" + body


def _selftest(**changes: object) -> str:
    import ast

    values = ast.literal_eval(SELFTEST.partition(" = ")[2]) | changes
    return f"SELFTEST = {values!r}"


# An observation forged for the answer's own calls, passed through for every other answer (so that
# the in-process tests that run after this one observe as usual).
FORGE = '''
import autograder.engine.observe as _observe

_real_point = _observe.observe_point


def _forged(case, answer, inputs):
    if answer is not globals().get({name!r}):
        return _real_point(case, answer, inputs)
    return _observe.Seen(value={report})


_observe.observe_point = _forged
'''


def forged(name: str, report: str, answer: str) -> str:
    """An answer cell that rebinds the observing engine to report ``report`` for its own calls."""
    return FORGE.replace("{name!r}", repr(name)).replace("{report}", report) + answer


WALK_FRAMES = '''
import sys


def _found_in_frames(*names):
    frame = sys._getframe(1)
    while frame is not None:
        for name in names:
            if name in frame.f_locals:
                return frame.f_locals[name]
        frame = frame.f_back
    return None

'''

RIGHT = {
    "leaves-momentum-step": [
        ("reference", MOMENTUM_REFERENCE),
        ("zeros-then-accumulate", _momentum(
            "    with torch.no_grad():\n"
            "        for p in params:\n"
            "            if p.grad is None:\n"
            "                continue\n"
            "            buf = buffers.setdefault(id(p), torch.zeros_like(p))\n"
            "            buf.mul_(momentum).add_(p.grad).add_(p, alpha=weight_decay)\n"
            "            p.sub_(buf, alpha=lr)\n")),
        ("torch-clone-as-sgd", _momentum(
            "    with torch.no_grad():\n"
            "        for i, p in enumerate(params):\n"
            "            d_p = p.grad\n"
            "            if d_p is None:\n"
            "                continue\n"
            "            if weight_decay != 0:\n"
            "                d_p = d_p.add(p, alpha=weight_decay)\n"
            "            if i not in buffers:\n"
            "                buffers[i] = torch.clone(d_p).detach()\n"
            "            else:\n"
            "                buffers[i].mul_(momentum).add_(d_p)\n"
            "            p.add_(buffers[i], alpha=-lr)\n")),
    ],
    "leaves-sgd-step": [
        ("reference", SGD_REFERENCE),
        ("sub-and-zero", _sgd(
            "    with torch.no_grad():\n"
            "        for p in params:\n"
            "            if p.grad is None:\n"
            "                continue\n"
            "            p.sub_(p.grad, alpha=lr)\n"
            "            p.grad.zero_()\n")),
        ("copy-into", _sgd(
            "    for p in params:\n"
            "        if p.grad is not None:\n"
            "            with torch.no_grad():\n"
            "                p.copy_(p - lr * p.grad)\n"
            "            p.grad = None\n")),
        ("write-through-detach", _sgd(
            "    for p in params:\n"
            "        if p.grad is not None:\n"
            "            p.detach().sub_(lr * p.grad)\n"
            "            p.grad = None\n")),
    ],
    "leaves-accumulate": [
        ("reference", ACCUMULATE_REFERENCE),
        ("loss-times-share", _accumulate(
            "    for p in model.parameters():\n"
            "        p.grad = None\n"
            "    n = sum(x.shape[0] for x, _ in batches)\n"
            "    for x, y in batches:\n"
            "        loss = loss_fn(model(x), y)\n"
            "        loss.mul(x.shape[0] / n).backward()\n"
            "    return [p.grad.detach().clone() for p in model.parameters()]\n")),
        ("zeros-and-reversed", _accumulate(
            "    model.zero_grad(set_to_none=False)\n"
            "    total = sum(len(x) for x, _ in batches)\n"
            "    for x, y in reversed(batches):\n"
            "        share = len(x) / total\n"
            "        (share * loss_fn(model(x), y)).backward()\n"
            "    return [torch.clone(p.grad) for p in model.parameters()]\n")),
    ],
    "leaves-hidden-grad": [
        ("reference", HIDDEN_GRAD_REFERENCE),
        ("autograd-grad", _hidden(
            "    h = (x @ w).detach().requires_grad_(True)\n"
            "    (grad,) = torch.autograd.grad((torch.tanh(h) ** 2).sum(), h)\n"
            "    return grad\n")),
        ("no-grad-then-leaf", _hidden(
            "    with torch.no_grad():\n"
            "        h = x @ w\n"
            "    h.requires_grad_()\n"
            "    t = torch.tanh(h)\n"
            "    (t * t).sum().backward()\n"
            "    return h.grad\n")),
    ],
    "leaves-recurrent-grads": [
        ("autograd-grad-on-the-states", RECURRENT.format(body=
            "    h, w, states = h0.detach().requires_grad_(), w.detach(), []\n"
            "    for _ in range(steps):\n"
            "        h = torch.tanh(h @ w)\n"
            "        states.append(h)\n"
            "    return list(torch.autograd.grad(sum((s ** 2).sum() for s in states), states))\n")),
        ("retain-grad", RECURRENT.format(body=
            "    h = h0.detach().requires_grad_()\n"
            "    states = []\n"
            "    for _ in range(steps):\n"
            "        h = torch.tanh(h @ w.detach())\n"
            "        h.retain_grad()\n"
            "        states.append(h)\n"
            "    sum((s * s).sum() for s in states).backward()\n"
            "    return [s.grad for s in states]\n")),
        # Each state cut out of a forward pass of its own, with the rest of the loss run from it.
        ("one-pass-per-state", RECURRENT.format(body=
            "    w = w.detach()\n"
            "    grads, h = [], h0.detach()\n"
            "    for t in range(steps):\n"
            "        h = torch.tanh(h @ w).detach().requires_grad_()\n"
            "        rest, later = (h ** 2).sum(), h\n"
            "        for _ in range(t + 1, steps):\n"
            "            later = torch.tanh(later @ w)\n"
            "            rest = rest + (later ** 2).sum()\n"
            "        rest.backward()\n"
            "        grads.append(h.grad)\n"
            "    return grads\n")),
    ],
    "leaves-selftest": [
        ("literal", SELFTEST),
        ("computed", 'w = torch.ones(3, requires_grad=True)\n'
                     'SELFTEST = {"q1": w[:2].is_leaf, "q2": True, "q3": 2 * 3 * 2.0 ** 2, "q4": False,\n'
                     '            "q5": False}'),
    ],
}

# (label, answer source, the misconception its message must name, or None)
WRONG = {
    "leaves-momentum-step": [
        ("buffer-is-the-grad", _momentum(
            "    with torch.no_grad():\n"
            "        for i, p in enumerate(params):\n"
            "            if p.grad is None:\n"
            "                continue\n"
            "            d = p.grad if weight_decay == 0 else p.grad + weight_decay * p\n"
            "            if i in buffers:\n"
            "                buffers[i].mul_(momentum).add_(d)\n"
            "            else:\n"
            "                buffers[i] = d\n"
            "            p -= lr * buffers[i]\n"), "buffer-aliases-grad"),
        ("decay-added-into-grad", _momentum(
            "    with torch.no_grad():\n"
            "        for i, p in enumerate(params):\n"
            "            if p.grad is None:\n"
            "                continue\n"
            "            p.grad.add_(p, alpha=weight_decay)\n"
            "            buffers[i] = p.grad.clone() if i not in buffers else buffers[i] * momentum + p.grad\n"
            "            p -= lr * buffers[i]\n"), "decay-into-grad"),
        ("moving-average", _momentum(
            "    with torch.no_grad():\n"
            "        for i, p in enumerate(params):\n"
            "            if p.grad is not None:\n"
            "                d = p.grad + weight_decay * p\n"
            "                buffers[i] = momentum * buffers.get(i, torch.zeros_like(p)) + (1 - momentum) * d\n"
            "                p -= lr * buffers[i]\n"), "average-of-gradients"),
        ("decoupled-decay", _momentum(
            "    with torch.no_grad():\n"
            "        for i, p in enumerate(params):\n"
            "            if p.grad is None:\n"
            "                continue\n"
            "            buffers[i] = p.grad.clone() if i not in buffers else momentum * buffers[i] + p.grad\n"
            "            p -= lr * (buffers[i] + weight_decay * p)\n"), "decay-outside-buffer"),
        ("decays-every-parameter", _momentum(
            "    with torch.no_grad():\n"
            "        for i, p in enumerate(params):\n"
            "            g = torch.zeros_like(p) if p.grad is None else p.grad\n"
            "            d = g + weight_decay * p\n"
            "            buffers[i] = d.clone() if i not in buffers else momentum * buffers[i] + d\n"
            "            p -= lr * buffers[i]\n"), "decays-without-gradient"),
        ("through-data", _momentum(
            "    for i, p in enumerate(params):\n"
            "        if p.grad is not None:\n"
            "            d = p.grad + weight_decay * p.data\n"
            "            buffers[i] = d.clone() if i not in buffers else momentum * buffers[i] + d\n"
            "            p.data -= lr * buffers[i]\n"), "through-data"),
        ("clears-the-gradient", MOMENTUM_REFERENCE.rstrip() + "\n            p.grad = None\n", "clears-grad"),
        ("torch-optim", _momentum(
            "    torch.optim.SGD(params, lr=lr, momentum=momentum, weight_decay=weight_decay).step()\n"),
         "torch-optimizer"),
    ],
    "leaves-sgd-step": [
        ("outside-no-grad", _sgd(
            "    for p in params:\n"
            "        if p.grad is not None:\n"
            "            p -= lr * p.grad\n"
            "            p.grad = None\n"), "outside-no-grad"),
        ("rebinds-loop-variable", _sgd(
            "    for p in params:\n"
            "        if p.grad is not None:\n"
            "            p = p - lr * p.grad\n"
            "            p.grad = None\n"), "rebinds"),
        ("never-clears", _sgd(
            "    with torch.no_grad():\n"
            "        for p in params:\n"
            "            if p.grad is not None:\n"
            "                p -= lr * p.grad\n"), "never-clears"),
        ("new-tensors", _sgd(
            "    for i, p in enumerate(params):\n"
            "        if p.grad is not None:\n"
            "            params[i] = (p - lr * p.grad).detach().requires_grad_()\n"), "new-tensors"),
        ("unused-parameter", _sgd(
            "    with torch.no_grad():\n"
            "        for p in params:\n"
            "            p -= lr * p.grad\n"
            "            p.grad = None\n"), "grad-none"),
        ("ascent", SGD_REFERENCE.replace("p -= lr", "p += lr"), "ascent"),
        ("through-data", _sgd(
            "    for p in params:\n"
            "        if p.grad is not None:\n"
            "            p.data -= lr * p.grad\n"
            "            p.grad = None\n"), "through-data"),
        ("torch-optim", _sgd(
            "    optimizer = torch.optim.SGD(params, lr=lr)\n"
            "    optimizer.step()\n"
            "    optimizer.zero_grad()\n"), "torch-optimizer"),
        ("torch-optim-on-those-with-a-gradient", "from torch.optim import SGD\n\n\n" + _sgd(
            "    stepped = [p for p in params if p.grad is not None]\n"
            "    SGD(stepped, lr).step()\n"
            "    for p in stepped:\n"
            "        p.grad = None\n"), "torch-optimizer"),
        ("functional-sgd", _sgd(
            "    stepped = [p for p in params if p.grad is not None]\n"
            "    torch.optim._functional.sgd(stepped, [p.grad for p in stepped], [None] * len(stepped),\n"
            "                                weight_decay=0.0, momentum=0.0, lr=lr, dampening=0.0, nesterov=False,\n"
            "                                maximize=False)\n"
            "    for p in stepped:\n"
            "        p.grad = None\n"), "torch-optimizer"),
        ("data-and-never-clears", _sgd(
            "    for p in params:\n"
            "        if p.grad is not None:\n"
            "            p.data.sub_(lr * p.grad)\n"), None),
    ],
    "leaves-accumulate": [
        ("sums-micro-batch-means", _accumulate(
            "    model.zero_grad()\n"
            "    for x, y in batches:\n"
            "        loss_fn(model(x), y).backward()\n"
            "    return [p.grad.clone() for p in model.parameters()]\n"), "sum-of-means"),
        ("divides-by-batch-count", _accumulate(
            "    model.zero_grad()\n"
            "    for x, y in batches:\n"
            "        (loss_fn(model(x), y) / len(batches)).backward()\n"
            "    return [p.grad.clone() for p in model.parameters()]\n"), "mean-of-means"),
        ("stale-grads-leak", ACCUMULATE_REFERENCE.replace("    model.zero_grad()\n", ""), "leaks"),
        ("zeroes-inside-loop", _accumulate(
            "    total = sum(len(x) for x, _ in batches)\n"
            "    for x, y in batches:\n"
            "        model.zero_grad()\n"
            "        (loss_fn(model(x), y) * len(x) / total).backward()\n"
            "    return [p.grad.clone() for p in model.parameters()]\n"), "zeroes-inside"),
        ("autograd-grad", _accumulate(
            "    params = list(model.parameters())\n"
            "    n = sum(len(x) for x, _ in batches)\n"
            "    grads = [torch.zeros_like(p) for p in params]\n"
            "    for x, y in batches:\n"
            "        parts = torch.autograd.grad(loss_fn(model(x), y), params)\n"
            "        grads = [g + part * len(x) / n for g, part in zip(grads, parts)]\n"
            "    return grads\n"), "autograd-grad"),
        ("returns-a-tuple", ACCUMULATE_REFERENCE.replace("return [p.grad.clone() for p in model.parameters()]",
                                                         "return tuple(p.grad.clone() for p in model.parameters())"),
         "a-tuple"),
        ("one-backward", _accumulate(
            "    model.zero_grad()\n"
            "    n = sum(len(x) for x, _ in batches)\n"
            "    total = 0\n"
            "    for x, y in batches:\n"
            "        total = total + loss_fn(model(x), y) * len(x) / n\n"
            "    total.backward()\n"
            "    return [p.grad.clone() for p in model.parameters()]\n"), "one-backward"),
        ("grads-not-copied-and-leak", _accumulate(
            "    for x, y in batches:\n"
            "        loss_fn(model(x), y).backward()\n"
            "    return [p.grad for p in model.parameters()]\n"), None),
    ],
    "leaves-recurrent-grads": [
        ("leaf-at-every-state", RECURRENT.format(body=
            "    h, states = h0.detach(), []\n"
            "    for _ in range(steps):\n"
            "        h = torch.tanh(h @ w.detach()).detach().requires_grad_()\n"
            "        states.append(h)\n"
            "    sum((s ** 2).sum() for s in states).backward()\n"
            "    return [s.grad for s in states]\n"), "own-term-only"),
        ("non-leaf-grad", RECURRENT.format(body=
            "    h, states = h0.detach().requires_grad_(), []\n"
            "    for _ in range(steps):\n"
            "        h = torch.tanh(h @ w.detach())\n"
            "        states.append(h)\n"
            "    sum((s ** 2).sum() for s in states).backward()\n"
            "    return [s.grad for s in states]\n"), "non-leaf-grad"),
        ("last-state-loss", RECURRENT.format(body=
            "    h, states = h0.detach().requires_grad_(), []\n"
            "    for _ in range(steps):\n"
            "        h = torch.tanh(h @ w.detach())\n"
            "        states.append(h)\n"
            "    return list(torch.autograd.grad((states[-1] ** 2).sum(), states))\n"), "last-state-loss"),
        ("by-hand", RECURRENT.format(body=BY_HAND), "by-hand"),
        ("backward-through-the-weight", RECURRENT.format(body=
            "    h, states = h0.detach().requires_grad_(), []\n"
            "    for _ in range(steps):\n"
            "        h = torch.tanh(h @ w)\n"
            "        h.retain_grad()\n"
            "        states.append(h)\n"
            "    sum((s ** 2).sum() for s in states).backward()\n"
            "    return [s.grad for s in states]\n"), "through-the-inputs"),
        ("a-tuple", RECURRENT.format(body=
            "    h, w, states = h0.detach().requires_grad_(), w.detach(), []\n"
            "    for _ in range(steps):\n"
            "        h = torch.tanh(h @ w)\n"
            "        states.append(h)\n"
            "    return torch.autograd.grad(sum((s ** 2).sum() for s in states), states)\n"), "a-tuple"),
        ("backward-then-by-hand", RECURRENT.format(body=
            "    w = w.detach()\n"
            "    h, states = h0.detach().requires_grad_(), []\n"
            "    for _ in range(steps):\n"
            "        h = torch.tanh(h @ w)\n"
            "        states.append(h)\n"
            "    sum((s ** 2).sum() for s in states).backward()\n"
            "    grads, back = [], torch.zeros_like(h)\n"
            "    for s in reversed([s.detach() for s in states]):\n"
            "        g = 2 * s + back\n"
            "        grads.insert(0, g)\n"
            "        back = (g * (1 - s ** 2)) @ w.T\n"
            "    return grads\n"), "backward-left-unused"),
        # Right where neither h0 nor w requires grad; otherwise backward() adds into their .grad.
        ("backward-into-the-callers-leaves", RECURRENT.format(body=
            "    h = h0 if h0.requires_grad or w.requires_grad else h0.detach().requires_grad_()\n"
            "    states = []\n"
            "    for _ in range(steps):\n"
            "        h = torch.tanh(h @ w)\n"
            "        h.retain_grad()\n"
            "        states.append(h)\n"
            "    sum((s ** 2).sum() for s in states).backward()\n"
            "    return [s.grad for s in states]\n"), "through-the-inputs"),
    ],
    "leaves-hidden-grad": [
        ("backward-then-by-hand", _hidden(
            "    h = (x @ w).detach().requires_grad_()\n"
            "    (torch.tanh(h) ** 2).sum().backward()\n"
            "    t = torch.tanh(h.detach())\n"
            "    return 2 * t * (1 - t ** 2)\n"), "backward-left-unused"),
        ("reads-non-leaf-grad", _hidden(
            "    h = x @ w\n"
            "    (torch.tanh(h) ** 2).sum().backward()\n"
            "    return h.grad\n"), "non-leaf-grad"),
        ("retain-grad-always", _hidden(
            "    h = x @ w\n"
            "    h.retain_grad()\n"
            "    (torch.tanh(h) ** 2).sum().backward()\n"
            "    return h.grad\n"), "retain-always"),
        ("retain-grad-when-possible", _hidden(
            "    h = x @ w\n"
            "    if h.requires_grad:\n"
            "        h.retain_grad()\n"
            "    else:\n"
            "        h.requires_grad_()\n"
            "    (torch.tanh(h) ** 2).sum().backward()\n"
            "    return h.grad\n"), "through-the-inputs"),
        ("leaf-gradient", _hidden(
            "    x = x.detach().requires_grad_()\n"
            "    w = w.detach().requires_grad_()\n"
            "    (torch.tanh(x @ w) ** 2).sum().backward()\n"
            "    return w.grad\n"), "leaf-gradient"),
        ("autograd-grad-on-graph", _hidden(
            "    h = x @ w\n"
            "    return torch.autograd.grad((torch.tanh(h) ** 2).sum(), h)[0]\n"), "grad-on-graph"),
        ("closed-form", _hidden(
            "    t = torch.tanh(x @ w)\n"
            "    return (2 * t * (1 - t ** 2)).detach()\n"), "closed-form"),
        ("square-dropped", _hidden(
            "    h = (x @ w).detach().requires_grad_()\n"
            "    torch.tanh(h).sum().backward()\n"
            "    return h.grad\n"), "outer-square-dropped"),
        ("forward-mode", _hidden(
            "    h = (x @ w).detach()\n"
            "    return torch.func.jacfwd(lambda t: (torch.tanh(t) ** 2).sum())(h)\n"), "closed-form"),
        ("tanh-derivative-only", _hidden(
            "    t = torch.tanh(x @ w).detach()\n"
            "    return 1 - t ** 2\n"), None),
    ],
    "leaves-selftest": [
        ("view-is-a-leaf", _selftest(q1=True), "view-of-leaf"),
        ("no-grad-records", _selftest(q2=False), "no-grad-records"),
        ("backward-overwrites", _selftest(q3=12.0), "backward-overwrites"),
        ("zero-grad-clears-everything", _selftest(q4=True), "zero-grad-everything"),
        ("int-for-float", _selftest(q3=24), None),
    ],
}

# (label, answer source): answers that game the checks; none may score more than the untouched answer.
EXPLOITS = {
    "leaves-momentum-step": [
        ("forged-report", forged("momentum_step", '{".grad left as backward left it": True, '
                                 '"the list holds the same tensors": True, "still leaves that require grad": True,'
                                 ' "written where autograd sees it": [], "values after each step": []}',
                                 "\n\ndef momentum_step(params, buffers, lr, momentum, weight_decay):\n    pass\n")),
    ],
    "leaves-selftest": [
        ("always-equal", ALWAYS_EQUAL + "SELFTEST = {'q1': YesInt(0), 'q2': YesInt(0), 'q3': YesFloat(0.0), "
         "'q4': YesInt(0), 'q5': YesInt(0)}"),
    ],
    "leaves-sgd-step": [
        ("old-reference", "try:\n    from autograder.chapters.leaves import torch_sgd_step as sgd_step\n"
                          "except ImportError:\n    def sgd_step(params, lr):\n        raise NotImplementedError\n"),
        ("rebinds-the-driver", "import autograder.chapters.leaves as _leaves\n\n"
                               "_real_drive = _leaves.drive_sgd\n\n\n"
                               "def _drive(step, *inputs):\n"
                               "    report = _real_drive(step, *inputs)\n"
                               "    seen = report['written where autograd sees it']\n"
                               "    report['written where autograd sees it'] = [\n"
                               "        [v if v is None else True for v in row] for row in seen]\n"
                               "    return report\n\n\n"
                               "_leaves.drive_sgd = _drive\n\n\n" + _sgd(
                                   "    for p in params:\n"
                                   "        if p.grad is not None:\n"
                                   "            p.data -= lr * p.grad\n"
                                   "            p.grad = None\n")),
        ("forged-report", forged("sgd_step", '{"values after each step": [], "written where autograd sees it": [],'
                                 ' ".grad cleared after each step": True, "the list holds the same tensors": True,'
                                 ' "still leaves that require grad": True}',
                                 "\n\ndef sgd_step(params, lr):\n    pass\n")),
        ("walks-frames", WALK_FRAMES + _sgd(
            "    found = _found_in_frames('expected', 'reference', 'key')\n"
            "    if callable(found):\n"
            "        found(params, lr)\n")),
        ("data-under-no-grad-name", _sgd(
            "    with torch.no_grad():\n"
            "        for p in params:\n"
            "            if p.grad is not None:\n"
            "                p.data.sub_(lr * p.grad)\n"
            "                p.grad = None\n")),
        # The update through .data (which moves no version), with a mode left on that says each
        # parameter's version moves every time it is read.
        ("rebinds-what-its-driver-reads", LIAR + "import itertools\n\n_counter = itertools.count(1000)\n\n\n" + _sgd(
            "    liar = lie_on()\n"
            "    for p in params:\n"
            "        if p.grad is not None:\n"
            "            p.data -= lr * p.grad\n"
            "            p.grad = None\n"
            "        liar.tell(p, '_version', lambda t: next(_counter))\n")),
    ],
    "leaves-accumulate": [
        ("concatenates", _accumulate(
            "    model.zero_grad()\n"
            "    x = torch.cat([x for x, _ in batches])\n"
            "    y = torch.cat([y for _, y in batches])\n"
            "    loss_fn(model(x), y).backward()\n"
            "    return [p.grad.clone() for p in model.parameters()]\n")),
        ("silences-the-witness", _accumulate(
            "    for p in model.parameters():\n"
            "        p._post_accumulate_grad_hooks = None\n"
            "        p.grad = None\n"
            "    x = torch.cat([x for x, _ in batches])\n"
            "    y = torch.cat([y for _, y in batches])\n"
            "    loss_fn(model(x), y).backward()\n"
            "    return [p.grad.clone() for p in model.parameters()]\n")),
        ("calls-the-witness-by-hand", _accumulate(
            "    params = list(model.parameters())\n"
            "    model.zero_grad()\n"
            "    x = torch.cat([x for x, _ in batches])\n"
            "    y = torch.cat([y for _, y in batches])\n"
            "    loss_fn(model(x), y).backward()\n"
            "    for p in params:\n"
            "        for hook in list((p._post_accumulate_grad_hooks or {}).values()):\n"
            "            for _ in range(len(batches) - 1):\n"
            "                hook(p)\n"
            "    for x, y in batches:\n"
            "        model(x)\n"
            "    return [p.grad.clone() for p in params]\n")),
        ("sums-autograd-grads-into-grad", _accumulate(
            "    params = list(model.parameters())\n"
            "    n = sum(len(x) for x, _ in batches)\n"
            "    total = [torch.zeros_like(p) for p in params]\n"
            "    for x, y in batches:\n"
            "        parts = torch.autograd.grad(loss_fn(model(x), y) * len(x) / n, params)\n"
            "        total = [t + part for t, part in zip(total, parts)]\n"
            "    for p, t in zip(params, total):\n"
            "        p.grad = t\n"
            "    return [p.grad.clone() for p in params]\n")),
        ("forged-report", forged("accumulated_grads", '{"gradients": [], "rows of each forward": [],'
                                 ' "accumulations into each .grad": [], "parameters and batches left alone": True}',
                                 "\n\ndef accumulated_grads(model, loss_fn, batches):\n    return []\n")),
        # The accumulation, beside a forward of the whole batch (taken off the model's record of
        # forwards by rebinding it) and batches zeroed after use (which a mode left on says are equal).
        ("rebinds-what-its-driver-reads", LIAR + ACCUMULATE_REFERENCE.replace(
            "def accumulated_grads(", "def _accumulated(") + _accumulate(
            "    liar = lie_on()\n"
            "    rows = list(model.rows)\n"
            "    with torch.no_grad():\n"
            "        model(torch.cat([x for x, _ in batches]))\n"
            "    found = _accumulated(model, loss_fn, batches)\n"
            "    model.rows = rows + [len(x) for x, _ in batches]\n"
            "    for x, y in batches:\n"
            "        x.zero_()\n"
            "        liar.tell(x, 'equal', True)\n"
            "    return found\n")),
    ],
    "leaves-recurrent-grads": [
        ("walks-frames", WALK_FRAMES + RECURRENT.format(body=
            "    found = _found_in_frames('expected', 'reference', 'key')\n"
            "    return found(h0, w, steps) if callable(found) else []\n")),
        # The states' gradients by hand, the backward run with the grader's hooks switched off.
        ("hooks-disabled", RECURRENT.format(body=
            "    with torch.autograd.graph.disable_saved_tensors_hooks('off'):\n"
            "        h, states = h0.detach().requires_grad_(), []\n"
            "        for _ in range(steps):\n"
            "            h = torch.tanh(h @ w.detach())\n"
            "            states.append(h)\n"
            "        return list(torch.autograd.grad(sum((s ** 2).sum() for s in states), states))\n")),
        ("by-hand-and-unrelated-backwards", RECURRENT.format(body=
            "    for k in range(steps):\n"
            "        torch.tanh(torch.full((2,), float(k), requires_grad=True)).sum().backward()\n" + BY_HAND)),
        # At an index no other exercise's forged report holds: an exploit student holds the same
        # index of every exercise, and two rebindings of observe_point in one namespace call each other.
        ("forged-report", forged("recurrent_grads", '{"gradient": [], "tanh\'s backward read back h_2 … h_T": True,'
                                 ' "gradient when what tanh\'s backward reads is halved": [],'
                                 ' "h0 and w left as they were": True}',
                                 "\n\ndef recurrent_grads(h0, w, steps):\n    return []\n")),
    ],
    "leaves-hidden-grad": [
        ("old-reference", "try:\n    from autograder.chapters.leaves import reference_hidden_grad as hidden_grad\n"
                          "except ImportError:\n    def hidden_grad(x, w):\n        raise NotImplementedError\n"),
        ("closed-form-and-an-unrelated-backward", _hidden(
            "    torch.tanh(torch.ones(3, requires_grad=True)).sum().backward()\n"
            "    t = torch.tanh(x @ w).detach()\n"
            "    return 2 * t * (1 - t ** 2)\n")),
        ("closed-form-hooks-disabled", _hidden(
            "    with torch.autograd.graph.disable_saved_tensors_hooks('off'):\n"
            "        h = (x @ w).detach().requires_grad_()\n"
            "        (torch.tanh(h) ** 2).sum().backward()\n"
            "    return h.grad\n")),
        ("calls-the-unpack-hook-by-hand", _hidden(
            "    t = torch.tanh(x @ w).detach()\n"
            "    hooks = torch._C._autograd._top_saved_tensors_default_hooks(False)\n"
            "    if hooks is not None:\n"
            "        hooks[1](hooks[0](t))\n"
            "    return 2 * t * (1 - t ** 2)\n")),
        ("numpy-closed-form", "import numpy as np\n\n\n" + _hidden(
            "    t = np.tanh((x @ w).detach().numpy())\n"
            "    return torch.from_numpy(2 * t * (1 - t ** 2))\n")),
        ("forged-report", forged("hidden_grad", '{"gradient": None, "what tanh\'s backward read": [],'
                                 ' "x and w left as they were": True}',
                                 "\n\ndef hidden_grad(x, w):\n    return None\n")),
        # The backward through x and w (it writes their .grad) and a scratch write to x, with each
        # one's detach() rebound to give its old values and a mode left on that gives its old .grad.
        ("rebinds-what-its-driver-reads", LIAR + _hidden(
            "    liar = lie_on()\n"
            "    for t in (x, w):\n"
            "        liar.tell(t, 'grad', None if t.grad is None else t.grad.clone())\n"
            "        kept = t.detach().clone()\n"
            "        t.detach = lambda *args, kept=kept, **kwargs: kept\n"
            "    h = x @ w\n"
            "    if h.requires_grad:\n"
            "        h.retain_grad()\n"
            "    else:\n"
            "        h.requires_grad_()\n"
            "    (torch.tanh(h) ** 2).sum().backward()\n"
            "    with torch.no_grad():\n"
            "        x.mul_(2)\n"
            "    return h.grad\n")),
    ],
}

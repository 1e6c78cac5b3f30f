"""Answers learners write for Chapter 2 — right, wrong and gaming — as answer-cell sources.

``WRONG`` answers name the misconception (a model of ``answer_key.inplace``) their messages must
name, or None where their results match no catalogued mistake; ``EXPLOITS`` are answers that try
to earn points without the answer: each must score no more than the untouched answer. The grader
tests put these into real submissions and grade them with nbgrader and with the sandbox.
"""

from tests.catalog.lying import LIAR

SAVES = {"softplus": "input", "sqrt": "output", "softmax": "output", "cosh": "input", "cumsum": "nothing",
         "erf": "input", "relu6": "input", "softmin": "output", "atan": "input", "flip": "nothing"}
SAVES_MORE = {"rsqrt": "output", "tan": "output", "expm1": "output", "log1p": "input", "abs": "input",
              "leaky_relu": "input", "neg": "nothing", "exp2": "output", "log_softmax": "output", "sinh": "input",
              "silu": "input", "sub_const": "nothing"}
SELFTEST = {"q1": 6, "q2": 1, "q3": True, "q4": 2, "q5": False}


def _with(name: str, values: dict, **changes: object) -> str:
    """A literal answer ``name = {...}`` with some entries changed."""
    answer = {**values, **changes}
    return f"{name} = {{\n" + "".join(f"    {k!r}: {v!r},\n" for k, v in answer.items()) + "}"


PROBED = '''
import torch.nn.functional as F


def _saves(op):
    found = []
    for written in ("input", "output"):
        x = torch.tensor([0.3, 0.7, 0.9], requires_grad=True)
        a = x * 1
        out = op(a)
        with torch.no_grad():
            (a if written == "input" else out).add_(0.1)
        try:
            out.sum().backward()
        except RuntimeError:
            found.append(written)
    return found[0] if found else "nothing"


SAVES = {key: _saves(op) for key, op in {
    "softplus": F.softplus, "sqrt": torch.sqrt, "softmax": lambda a: a.softmax(0),
    "cosh": torch.cosh, "cumsum": lambda a: a.cumsum(0), "erf": torch.erf, "relu6": F.relu6,
    "softmin": lambda a: F.softmin(a, 0), "atan": torch.atan, "flip": lambda a: a.flip(0),
}.items()}
'''

SAVED_ATTRIBUTES = '''
import torch.nn.functional as F


def _saves(op):
    a = torch.tensor([0.3, 0.7, 0.9], requires_grad=True) * 1
    out = op(a)
    pending, kept = [out.grad_fn], set()
    while pending:
        node = pending.pop()
        if node is None or type(node).__name__ == "MulBackward0" and node.next_functions[0][0] is not None \\
                and type(node.next_functions[0][0]).__name__ == "AccumulateGrad":
            continue
        for name in dir(node):
            if name.startswith("_saved_"):
                value = getattr(node, name)
                if isinstance(value, torch.Tensor) and value.requires_grad and value.numel() == 3:
                    kept.add("input" if value.data_ptr() == a.data_ptr() else "output"
                             if value.data_ptr() == out.data_ptr() else "other")
        pending += [n for n, _ in node.next_functions if n is not None and n is not a.grad_fn]
    return "input" if "input" in kept else "output" if "output" in kept else "nothing"


SAVES_MORE = {key: _saves(op) for key, op in {
    "rsqrt": torch.rsqrt, "tan": torch.tan, "expm1": torch.expm1, "log1p": torch.log1p, "abs": torch.abs,
    "leaky_relu": lambda a: F.leaky_relu(a, 0.1), "neg": torch.neg, "exp2": torch.exp2,
    "log_softmax": lambda a: a.log_softmax(0), "sinh": torch.sinh, "silu": F.silu, "sub_const": lambda a: a - 2,
}.items()}
'''

GATE = "def fixed_gate(x):\n    t = x.tanh()\n    s = x.sigmoid() * t\n    t = t - s\n    return (s * t).sum()"
ENERGY = "def fixed_energy(x):\n    h = x.exp().clone()\n    h[1:].add_(1)\n    return (h * h).sum()"
SHARE = ("def fixed_share(x):\n    h = x.exp()\n    h = h / h.sum(-1, keepdim=True)\n    first = h[..., :1]\n"
         "    return (first * x).sum()")
RESIDUAL = ("def fixed_residual(x):\n    h = x.sigmoid() * 2 - 1\n    h.relu_()\n    h = h + x\n"
            "    return (h * h).sum()")
RESIDUAL_UNREPAIRED = "    h = x.sigmoid()\n    h.mul_(2).sub_(1)\n    h.relu_()\n    h += x\n    out = (h * h).sum()"

RIGHT = {
    "inplace-saves": [
        ("literal", _with("SAVES", SAVES)),
        ("grouped", 'SAVES = dict.fromkeys(["sqrt", "softmax", "softmin"], "output")\n'
                    'SAVES.update(dict.fromkeys(["softplus", "cosh", "erf", "relu6", "atan"], "input"))\n'
                    'SAVES.update(cumsum="nothing", flip="nothing")'),
        ("probed", PROBED),
    ],
    "inplace-saves-more": [
        ("literal", _with("SAVES_MORE", SAVES_MORE)),
        ("grouped", 'SAVES_MORE = dict.fromkeys(["rsqrt", "tan", "expm1", "exp2", "log_softmax"], "output")\n'
                    'SAVES_MORE.update(dict.fromkeys(["log1p", "abs", "leaky_relu", "sinh", "silu"], "input"))\n'
                    'SAVES_MORE.update(neg="nothing", sub_const="nothing")'),
        ("saved-attributes", SAVED_ATTRIBUTES),
    ],
    "inplace-fix-gate": [
        ("out-of-place", GATE),
        ("fresh-tensors", "def fixed_gate(x):\n    s = torch.sigmoid(x) * torch.tanh(x)\n"
                          "    t = torch.tanh(x) - s\n    return torch.sum(s * t)"),
        ("clone-each-step", "def fixed_gate(x):\n    s = x.sigmoid().clone()\n    t = x.tanh()\n"
                            "    s.mul_(t)\n    t = t.clone()\n    t.sub_(s.clone())\n    return (s * t).sum()"),
    ],
    "inplace-fix-alias": [
        ("clone-then-write", ENERGY),
        ("shift-out-of-place", "def fixed_energy(x):\n    h = x.exp()\n    shift = torch.ones_like(h)\n"
                               "    shift[0] = 0\n    h = h + shift\n    return (h * h).sum()"),
        ("concatenate", "def fixed_energy(x):\n    h = x.exp()\n    h = torch.cat([h[:1], h[1:] + 1])\n"
                        "    return (h * h).sum()"),
    ],
    "inplace-fix-share": [
        ("view-after-division", SHARE),
        ("clone-then-divide", "def fixed_share(x):\n    h = x.exp().clone()\n    first = h[..., :1]\n"
                              "    h /= h.sum(-1, keepdim=True)\n    return (first * x).sum()"),
        ("softmax", "def fixed_share(x):\n    return (torch.softmax(x, dim=-1)[..., :1] * x).sum()"),
    ],
    "inplace-fix-residual": [
        ("relu-in-place-on-a-new-tensor", RESIDUAL),
        ("out-of-place", "def fixed_residual(x):\n    h = torch.relu(2 * torch.sigmoid(x) - 1) + x\n"
                         "    return h.pow(2).sum()"),
        # 2 * sigmoid(x) - 1 is tanh(x / 2); clamp's gradient at 0 differs from relu's, never met.
        ("tanh-and-clamp", "def fixed_residual(x):\n    return ((x / 2).tanh().clamp(min=0) + x).square().sum()"),
        ("clone-then-the-same-writes", "def fixed_residual(x):\n    h = x.sigmoid().clone()\n    h.mul_(2).sub_(1)\n"
                                       "    h.relu_()\n    h = h.clone()\n    h += x\n    return (h * h).sum()"),
    ],
    "inplace-selftest": [
        ("literal", _with("SELFTEST", SELFTEST)),
        ("computed", "a = torch.zeros(4)\nv = a.view(2, 2)\nv[0].add_(1)\nv[1].add_(1)\nd = a.detach()\n"
                     "d.mul_(2)\nd[0] = 5\nd.sub_(1)\ntorch.sin(a, out=a)\n"
                     'SELFTEST = {"q1": a._version, "q2": 1, "q3": True, "q4": 2, "q5": False}'),
    ],
}

WRONG = {
    "inplace-saves": [
        ("softplus-like-sigmoid", _with("SAVES", SAVES, softplus="output"), "softplus-like-sigmoid"),
        ("sqrt-like-pow", _with("SAVES", SAVES, sqrt="input"), "sqrt-like-power"),
        ("softmax-keeps-its-input", _with("SAVES", SAVES, softmax="input", softmin="input"), "softmax-keeps-input"),
        ("derivative-from-the-result", _with("SAVES", SAVES, cosh="output", atan="output"), "written-from-output"),
        ("cumsum-keeps-input", _with("SAVES", SAVES, cumsum="input", flip="input"), "moving-keeps-input"),
        ("relu6-like-relu", _with("SAVES", SAVES, relu6="output"), "relu6-like-relu"),
        ("erf-like-exp", _with("SAVES", SAVES, erf="output"), "erf-like-exp"),
        ("not-a-value", _with("SAVES", SAVES, softplus="both"), None),
    ],
    "inplace-saves-more": [
        ("leaky-relu-like-relu", _with("SAVES_MORE", SAVES_MORE, leaky_relu="output"), "leaky-like-relu"),
        ("sinh-from-its-output", _with("SAVES_MORE", SAVES_MORE, sinh="output"), "sinh-from-output"),
        ("functions-save-their-input", _with("SAVES_MORE", SAVES_MORE, rsqrt="input", tan="input", expm1="input"),
         "functions-keep-input"),
        ("log1p-like-exp", _with("SAVES_MORE", SAVES_MORE, log1p="output"), "log1p-like-exp"),
        ("abs-from-its-output", _with("SAVES_MORE", SAVES_MORE, abs="output"), "abs-from-output"),
        ("neg-saves-input", _with("SAVES_MORE", SAVES_MORE, neg="input"), "neg-keeps-input"),
        ("log-softmax-saves-input", _with("SAVES_MORE", SAVES_MORE, log_softmax="input"), "log-softmax-keeps-input"),
        ("not-a-value", _with("SAVES_MORE", SAVES_MORE, silu="both"), None),
    ],
    "inplace-fix-gate": [
        ("unrepaired", "def fixed_gate(x):\n    s = x.sigmoid()\n    t = x.tanh()\n    s.mul_(t)\n"
                       "    t.sub_(s)\n    return (s * t).sum()", "mul-keeps-no-reference"),
        ("clone-each-once", "def fixed_gate(x):\n    s = x.sigmoid().clone()\n    t = x.tanh().clone()\n"
                            "    s.mul_(t)\n    t.sub_(s)\n    return (s * t).sum()", "mul-keeps-no-reference"),
        ("first-write-only", "def fixed_gate(x):\n    s = x.sigmoid() * x.tanh()\n    t = x.tanh()\n"
                             "    t.sub_(s)\n    return (s * t).sum()", "tanh-write"),
        ("no-grad-writes", "def fixed_gate(x):\n    s = x.sigmoid()\n    t = x.tanh()\n    with torch.no_grad():\n"
                           "        s.mul_(t)\n        t.sub_(s)\n    return (s * t).sum()", "tanh-write"),
        ("data-writes", "def fixed_gate(x):\n    s = x.sigmoid()\n    t = x.tanh()\n    s.data.mul_(t)\n"
                        "    t.data.sub_(s)\n    return (s * t).sum()", "data-keeps-saved"),
        ("old-sigmoid", "def fixed_gate(x):\n    s = x.sigmoid()\n    t = x.tanh()\n"
                        "    return (s * t * (t - s)).sum()", "old-sigmoid"),
        ("item", "def fixed_gate(x):\n    t = x.tanh()\n    s = x.sigmoid() * t\n    return (s * (t - s)).sum().item()",
         None),
    ],
    "inplace-fix-alias": [
        ("unrepaired", "def fixed_energy(x):\n    h = x.exp()\n    tail = h[1:]\n    tail.add_(1)\n"
                       "    return (h * h).sum()", "unrepaired"),
        ("no-grad-write", "def fixed_energy(x):\n    h = x.exp()\n    with torch.no_grad():\n"
                          "        h[1:].add_(1)\n    return (h * h).sum()", "unrepaired"),
        ("detached-alias", "def fixed_energy(x):\n    h = x.exp()\n    h.detach()[1:].add_(1)\n"
                           "    return (h * h).sum()", "unrepaired"),
        ("data-write", "def fixed_energy(x):\n    h = x.exp()\n    h.data[1:].add_(1)\n"
                       "    return (h * h).sum()", "data-keeps-saved"),
        ("shifted-copy-unused", "def fixed_energy(x):\n    h = x.exp()\n    tail = h[1:].clone()\n"
                                "    tail.add_(1)\n    return (h * h).sum()", "copy-of-the-slice"),
        ("shifted-everything", "def fixed_energy(x):\n    h = x.exp() + 1\n    return (h * h).sum()",
         "shift-everything"),
        # Right on vectors only: a matrix's shift spares its first element, or its first column.
        ("shifted-elements", "def fixed_energy(x):\n    h = x.exp().flatten()\n"
                             "    h = torch.cat([h[:1], h[1:] + 1])\n    return (h * h).sum()", "shift-elements"),
        ("shifted-columns", "def fixed_energy(x):\n    h = x.exp().clone()\n    h[..., 1:] += 1\n"
                            "    return (h * h).sum()", "shift-columns"),
        ("item", ENERGY.replace(".sum()", ".sum().item()"), None),
    ],
    "inplace-fix-share": [
        ("unrepaired", "def fixed_share(x):\n    h = x.exp()\n    first = h[..., :1]\n"
                       "    h /= h.sum(-1, keepdim=True)\n    return (first * x).sum()", "unrepaired"),
        ("no-grad-division", "def fixed_share(x):\n    h = x.exp()\n    first = h[..., :1]\n"
                             "    with torch.no_grad():\n        h /= h.sum(-1, keepdim=True)\n"
                             "    return (first * x).sum()", "unrepaired"),
        ("stale-view", "def fixed_share(x):\n    h = x.exp()\n    first = h[..., :1]\n"
                       "    h = h / h.sum(-1, keepdim=True)\n    return (first * x).sum()", "stale-view"),
        # The same mistake with a copy: the view reads the tensor that is not divided.
        ("divided-copy-unused", "def fixed_share(x):\n    h = x.exp()\n    first = h[..., :1]\n"
                                "    g = h.clone()\n    g /= g.sum(-1, keepdim=True)\n    return (first * x).sum()",
         "stale-view"),
        ("data-division", "def fixed_share(x):\n    h = x.exp()\n    first = h[..., :1]\n"
                          "    h.data /= h.data.sum(-1, keepdim=True)\n    return (first * x).sum()",
         "normaliser-outside-the-gradient"),
        ("detached-sum", "def fixed_share(x):\n    h = x.exp()\n    h = h / h.sum(-1, keepdim=True).detach()\n"
                         "    return (h[..., :1] * x).sum()", "normaliser-outside-the-gradient"),
        ("no-grad-division-on-a-copy", "def fixed_share(x):\n    h = x.exp().clone()\n    first = h[..., :1]\n"
                                       "    with torch.no_grad():\n        h /= h.sum(-1, keepdim=True)\n"
                                       "    return (first * x).sum()", "no-grad-division"),
        # Right on vectors (and a tensor of one element) only.
        ("every-element", "def fixed_share(x):\n    h = x.exp()\n    h = h / h.sum()\n"
                          "    return (h[..., :1] * x).sum()", "every-element"),
        # Right on vectors (and a tensor of one element) only: along the first dimension, not the last.
        ("first-dimension", "def fixed_share(x):\n    h = torch.softmax(x, dim=0)\n"
                            "    return (h[..., :1] * x).sum()", "first-dimension"),
        ("item", SHARE.replace("(first * x).sum()", "(first * x).sum().item()"),
         None),
    ],
    "inplace-fix-residual": [
        ("unrepaired", "def fixed_residual(x):\n" + RESIDUAL_UNREPAIRED.replace("out = ", "return "),
         "relu-output-rewritten"),
        ("rescale-under-no-grad", "def fixed_residual(x):\n    h = x.sigmoid()\n    with torch.no_grad():\n"
                                  "        h.mul_(2).sub_(1)\n    h.relu_()\n    h += x\n    return (h * h).sum()",
         "relu-output-rewritten"),
        ("skip-in-place", "def fixed_residual(x):\n    h = x.sigmoid() * 2 - 1\n    h.relu_()\n    h += x\n"
                          "    return (h * h).sum()", "relu-output-rewritten"),
        ("rescale-in-place", "def fixed_residual(x):\n    h = x.sigmoid()\n    h.mul_(2).sub_(1)\n"
                             "    h = h.relu() + x\n    return (h * h).sum()", "sigmoid-output-rewritten"),
        ("skip-repaired-only", "def fixed_residual(x):\n    h = x.sigmoid()\n    h.mul_(2).sub_(1)\n    h.relu_()\n"
                               "    h = h + x\n    return (h * h).sum()", "sigmoid-output-rewritten"),
        ("detached-branch", "def fixed_residual(x):\n    h = (2 * x.detach().sigmoid() - 1).relu()\n"
                            "    return ((h + x) ** 2).sum()", "branch-outside-the-gradient"),
        ("data-rescale", "def fixed_residual(x):\n    h = x.sigmoid()\n    h.data.mul_(2).sub_(1)\n"
                         "    h = h.relu() + x\n    return (h * h).sum()", "data-keeps-saved"),
        ("relu-after-skip", "def fixed_residual(x):\n    return torch.relu(2 * x.sigmoid() - 1 + x).pow(2).sum()",
         "relu-after-skip"),
        ("detached-skip", "def fixed_residual(x):\n    h = torch.relu(2 * x.sigmoid() - 1) + x.detach()\n"
                          "    return (h * h).sum()", "skip-outside-the-gradient"),
        ("rectified-before-rescaling", "def fixed_residual(x):\n    h = 2 * x.sigmoid().relu() - 1 + x\n"
                                       "    return (h * h).sum()", "relu-without-effect"),
        # Right on vectors only: the rows of a matrix summed before squaring.
        ("rows-summed-first", "def fixed_residual(x):\n    h = torch.relu(2 * x.sigmoid() - 1) + x\n"
                              "    return (h.reshape(-1, x.shape[-1]).sum(0) ** 2).sum()", None),
    ],
    "inplace-selftest": [
        ("detach-own-counter", _with("SELFTEST", SELFTEST, q1=3, q4=1), "detach-own-counter"),
        ("out-not-counted", _with("SELFTEST", SELFTEST, q1=5), "out-not-counted"),
        ("reads-count", _with("SELFTEST", SELFTEST, q2=3), "reads-count"),
        ("copy-writes-source", _with("SELFTEST", SELFTEST, q2=2), "copy-writes-source"),
        ("written-result-breaks", _with("SELFTEST", SELFTEST, q3=False), "written-result-breaks"),
        ("data-counted", _with("SELFTEST", SELFTEST, q4=3), "data-counted"),
        ("bool-as-int", _with("SELFTEST", SELFTEST, q3=1), None),
    ],
}

ALWAYS_EQUAL = '''
class Yes(str):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = str.__hash__


'''

FORGED_REPORT = '''
import autograder.chapters.inplace as _checks


def _forged(answer, x0):
    return {{"value": (x0 * 0).sum(), "backward": None, "grad": torch.zeros_like(x0)}}


for _case in _checks.{exercise}.cases:
    object.__setattr__(_case, "call", _forged)
'''

REBOUND_OBSERVE = '''
import autograder.engine.observe as _observe

_observe.observe_point = lambda case, answer, inputs: _observe.Seen(value={value})
'''

FRAMES = '''
import sys


def {name}(x):
    frame = sys._getframe(1)
    while frame is not None:
        for value in frame.f_locals.values():
            if callable(value) and getattr(value, "__name__", "") in ("{name}", "reference"):
                if value is not {name}:
                    return value(x)
        frame = frame.f_back
    return x.sum() * 0
'''

TENSOR_SUBCLASS = '''
class Agreeable(torch.Tensor):
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return True


def {name}(x):
    return (x * 0).sum().as_subclass(Agreeable)
'''

# The unrepaired function (its backward raises), with its result's backward() set to put on x a
# gradient computed apart, and a mode left on that answers for backward() the same way.
REBINDS_BACKWARD = """
{repaired}


def {name}(x):
    liar = lie_on()
{unrepaired}
    shadow = x.detach().requires_grad_()
    (grad,) = torch.autograd.grad(_repaired(shadow), shadow)

    def backward(*args, **kwargs):
        x.grad = grad

    out.backward = backward
    liar.tell(out, "backward", backward)
    return out
"""

EXPLOITS = {
    "inplace-saves": [
        ("always-equal", ALWAYS_EQUAL + "SAVES = {k: Yes('input') for k in " + repr(list(SAVES)) + "}"),
        ("rebound-observe", REBOUND_OBSERVE.format(value="type('Yes', (str,), {'__eq__': lambda s, o: True, "
                                                   "'__hash__': str.__hash__})('output')")
         + _with("SAVES", SAVES, softplus=0)),
    ],
    "inplace-saves-more": [
        ("always-equal", ALWAYS_EQUAL + "SAVES_MORE = {k: Yes('input') for k in " + repr(list(SAVES_MORE)) + "}"),
    ],
    "inplace-fix-gate": [
        ("forged-report", FORGED_REPORT.format(exercise="gate") + "\n\n" + GATE.replace("t - s", "t + s")),
        ("rebound-observe", REBOUND_OBSERVE.format(value='{"value": 0.0, "backward": None, "grad": None}')
         + "\n\ndef fixed_gate(x):\n    return x.sum()"),
        ("frames", FRAMES.format(name="fixed_gate")),
        ("tensor-subclass", TENSOR_SUBCLASS.format(name="fixed_gate")),
        ("rebinds-what-its-driver-reads", LIAR + REBINDS_BACKWARD.format(
            repaired=GATE.replace("def fixed_gate", "def _repaired"), name="fixed_gate",
            unrepaired="    s = x.sigmoid()\n    t = x.tanh()\n    s.mul_(t)\n    t.sub_(s)\n    out = (s * t).sum()")),
    ],
    "inplace-fix-alias": [
        ("forged-report", FORGED_REPORT.format(exercise="alias") + "\n\n" + ENERGY.replace("add_(1)", "add_(2)")),
        ("frames", FRAMES.format(name="fixed_energy")),
        ("tensor-subclass", TENSOR_SUBCLASS.format(name="fixed_energy")),
        ("rebinds-what-its-driver-reads", LIAR + REBINDS_BACKWARD.format(
            repaired=ENERGY.replace("def fixed_energy", "def _repaired"), name="fixed_energy",
            unrepaired="    h = x.exp()\n    h[1:].add_(1)\n    out = (h * h).sum()")),
    ],
    "inplace-fix-share": [
        ("forged-report",
         FORGED_REPORT.format(exercise="share") + "\n\n" + SHARE.replace("first * x", "first * 2 * x")),
        ("frames", FRAMES.format(name="fixed_share")),
        ("tensor-subclass", TENSOR_SUBCLASS.format(name="fixed_share")),
        ("rebinds-what-its-driver-reads", LIAR + REBINDS_BACKWARD.format(
            repaired=SHARE.replace("def fixed_share", "def _repaired"), name="fixed_share",
            unrepaired="    h = x.exp()\n    first = h[..., :1]\n    h /= h.sum(-1, keepdim=True)\n"
                       "    out = (first * x).sum()")),
    ],
    "inplace-fix-residual": [
        ("forged-report", FORGED_REPORT.format(exercise="residual") + "\n\n" + RESIDUAL.replace("h + x", "h - x")),
        ("frames", FRAMES.format(name="fixed_residual")),
        ("tensor-subclass", TENSOR_SUBCLASS.format(name="fixed_residual")),
        ("rebinds-what-its-driver-reads", LIAR + REBINDS_BACKWARD.format(
            repaired=RESIDUAL.replace("def fixed_residual", "def _repaired"), name="fixed_residual",
            unrepaired=RESIDUAL_UNREPAIRED)),
    ],
    "inplace-selftest": [
        ("always-equal", ALWAYS_EQUAL + "SELFTEST = {k: Yes('x') for k in ('q1', 'q2', 'q3', 'q4', 'q5')}"),
    ],
}


# Answers that forge the observation itself (see tests/forgeries.py): judged against a key made
# apart, as the sandboxed grader judges; in a learner's kernel or plain nbgrader nothing can stop
# them, so they are not among the EXPLOITS that tests/grading.py also grades through nbgrader.
FORGERIES: dict[str, list[tuple[str, str]]] = {}
for _grade_id, _label in [('inplace-saves', 'rebound-observe'), ('inplace-fix-gate', 'forged-report'),
                          ('inplace-fix-gate', 'rebound-observe'), ('inplace-fix-alias', 'forged-report'),
                          ('inplace-fix-share', 'forged-report'), ('inplace-fix-residual', 'forged-report')]:
    _entry = next(e for e in EXPLOITS[_grade_id] if e[0] == _label)
    EXPLOITS[_grade_id].remove(_entry)
    FORGERIES.setdefault(_grade_id, []).append(_entry)

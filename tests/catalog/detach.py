"""Answers learners write for Chapter 3 — right, wrong and gaming — as answer-cell sources.

``WRONG`` answers name the misconception (a model of ``answer_key.detach``) their messages must
name, or None where their results match no catalogued mistake; ``EXPLOITS`` are answers that try
to earn points without the answer: each must score no more than the untouched answer.
"""

from tests.catalog.lying import LIAR

SELFTEST_RIGHT = {"q1": False, "q2": 20.0, "q3": True, "q4": False, "q5": False, "q6": False, "q7": True,
                  "q8": False}


def _selftest(**answers: object) -> str:
    """A SELFTEST answer cell: the right answers, with ``answers`` in place of some of them."""
    return f"SELFTEST = {dict(SELFTEST_RIGHT, **answers)!r}"


def _provenance(body: str) -> str:
    return "def provenance_grad(x):\n" + "".join(f"    {line}\n" for line in body.strip().splitlines())


PROVENANCE = _provenance("""
x = x.detach().clone().requires_grad_()
y = x * x
z = y * y.detach()
z.sum().backward()
return x.grad
""")

STE = '''
def round_ste(x):
    c = x.clamp(-2, 2)
    return c + (torch.round(c) - c).detach()
'''

STE_FUNCTION = '''
class RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.round(x).clamp(-2, 2)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return {backward}


def round_ste(x):
    return RoundSTE.apply(x)
'''

SPIKE_FUNCTION = '''
class Spike(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, beta):
        ctx.save_for_backward(x)
        ctx.beta = beta
        return (x > 0).to(x.dtype)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        s = torch.sigmoid(ctx.beta * x)
        return {backward}, None


def spike(x, beta):
    return Spike.apply(x, beta)
'''

RIGHT = {
    "detach-independent": [
        ("detach-clone-contiguous", "def independent_copy(t):\n"
                                    "    return t.detach().clone(memory_format=torch.contiguous_format)"),
        ("no-grad-contiguous", "def independent_copy(t):\n    with torch.no_grad():\n"
                               "        return t.clone().contiguous()"),
        ("copy-into-empty", "def independent_copy(t):\n"
                            "    return torch.empty(t.shape, dtype=t.dtype).copy_(t.detach())"),
    ],
    "detach-provenance": [
        ("backward", PROVENANCE),
        ("autograd-grad", _provenance("""
leaf = x.detach().clone().requires_grad_(True)
y = leaf * leaf
(grad,) = torch.autograd.grad((y * y.detach()).sum(), leaf)
return grad
""")),
        ("ones-upstream", _provenance("""
leaf = torch.tensor(x.tolist(), dtype=x.dtype, requires_grad=True)
y = leaf ** 2
z = y.detach() * y
z.backward(torch.ones_like(z))
return leaf.grad
""")),
        # One autograd run per element of x: z is elementwise, so each element's gradient is its own.
        ("one-run-per-element", _provenance("""
flat = x.detach().reshape(-1)
grads = []
for value in flat:
    leaf = value.clone().requires_grad_()
    y = leaf * leaf
    (y * y.detach()).backward()
    grads.append(leaf.grad)
return torch.stack(grads).reshape(x.shape)
""")),
    ],
    "detach-ste": [
        ("clamp-then-straight-through", STE),
        ("zero-with-slope-of-the-clamp", "def round_ste(x):\n    c = torch.clamp(x, -2, 2)\n"
                                         "    return torch.round(c).detach() + (c - c.detach())"),
        ("custom-function", STE_FUNCTION.format(backward="grad_output * ((x >= -2) & (x <= 2))")),
        # x holds finite values only, so (x - x.detach()) * mask is exactly zero in value.
        ("slope-times-mask", "def round_ste(x):\n    inside = ((x >= -2) & (x <= 2)).to(x.dtype)\n"
                             "    return torch.round(x).clamp(-2, 2).detach() + (x - x.detach()) * inside"),
    ],
    "detach-surrogate": [
        ("zero-with-the-sigmoids-slope", "def spike(x, beta):\n    soft = torch.sigmoid(beta * x)\n"
                                         "    return (x > 0).to(x.dtype) + (soft - soft.detach())"),
        # soft is at least 0.5 where x > 0 (exactly 0.5 for tiny x), so soft + (1 - soft) is 1 exactly,
        # and soft + (0 - soft) is 0.
        ("soft-plus-detached-difference", "def spike(x, beta):\n    soft = (beta * x).sigmoid()\n"
                                          "    return soft + ((x > 0).to(x.dtype) - soft).detach()"),
        ("custom-function", SPIKE_FUNCTION.format(backward="grad_output * beta_slope(s, ctx.beta)")
         .replace("def spike(x, beta):", "def beta_slope(s, beta):\n    return beta * s * (1 - s)\n\n\n"
                                         "def spike(x, beta):")),
        ("slope-times-identity", "def spike(x, beta):\n    s = torch.sigmoid(beta * x)\n"
                                 "    slope = (beta * s * (1 - s)).detach()\n"
                                 "    step = torch.heaviside(x.detach(), torch.zeros_like(x))\n"
                                 "    return step + (x - x.detach()) * slope"),
    ],
    "detach-selftest": [
        ("literal", _selftest()),
        ("computed", "x = torch.tensor(2., requires_grad=True)\ny = x ** 3\n(x * y.detach() + y).backward()\n"
                     f"SELFTEST = dict({SELFTEST_RIGHT!r}, q2=x.grad.item())"),
    ],
}

WRONG = {
    "detach-independent": [
        ("detach-only", "def independent_copy(t):\n    return t.detach()", "detach-copies"),
        ("data", "def independent_copy(t):\n    return t.data", "data-copies"),
        ("clone-only", "def independent_copy(t):\n    return t.clone(memory_format=torch.contiguous_format)",
         "clone-cuts"),
        ("new-leaf", "def independent_copy(t):\n    return t.detach().clone().contiguous().requires_grad_()",
         "copy-is-a-leaf"),
        ("clone-keeps-layout", "def independent_copy(t):\n    return t.detach().clone()", "clone-compacts"),
        ("plain-clone", "def independent_copy(t):\n    return t.clone()", "clone-alone"),
        ("copy-into-empty-like", "def independent_copy(t):\n    return torch.empty_like(t).copy_(t)", "clone-alone"),
        ("float-list", "def independent_copy(t):\n    return torch.tensor(t.tolist())", None),
    ],
    "detach-provenance": [
        ("no-cut", _provenance("""
x = x.detach().clone().requires_grad_()
y = x * x
(y * y).sum().backward()
return x.grad
"""), "no-cut"),
        ("grad-of-y", _provenance("""
x = x.detach().clone().requires_grad_()
(x * x).sum().backward()
return x.grad
"""), "grad-of-y"),
        ("closed-form", "def provenance_grad(x):\n    return 2 * x.detach() ** 3", "closed-form"),
        ("callers-tensor", _provenance("""
x.requires_grad_()
y = x * x
(y * y.detach()).sum().backward()
return x.grad
"""), "callers-leaf"),
        ("chapter-example", _provenance("""
x = x.detach().clone().requires_grad_()
y = x * x
(x * y.detach()).sum().backward()
return x.grad
"""), "chapter-example"),
        ("clone-of-a-grad-input", _provenance("""
x = x.clone().requires_grad_()
y = x * x
(y * y.detach()).sum().backward()
return x.grad
"""), None),
    ],
    "detach-ste": [
        ("identity-everywhere", "def round_ste(x):\n    return x + (torch.round(x).clamp(-2, 2) - x).detach()",
         "identity-everywhere"),
        ("plain-round", "def round_ste(x):\n    return torch.round(x).clamp(-2, 2)", "round-passes-gradient"),
        ("clip-after-rounding", "def round_ste(x):\n    s = x + (torch.round(x) - x).detach()\n"
                                "    return s.clamp(-2, 2)", "clip-after-rounding"),
        ("half-up", "def round_ste(x):\n    c = x.clamp(-2, 2)\n    return c + (torch.floor(c + 0.5) - c).detach()",
         "halves-up"),
        ("ones-backward", STE_FUNCTION.format(backward="((x >= -2) & (x <= 2)).to(grad_output.dtype)"),
         "ones-backward"),
        ("hardtanh", "def round_ste(x):\n    c = torch.nn.functional.hardtanh(x, -2.0, 2.0)\n"
                     "    return c + (torch.round(c) - c).detach()", "edges-clipped"),
        ("detached", "def round_ste(x):\n    return torch.round(x.clamp(-2, 2)).detach()", "detached-result"),
        ("straight-through-without-the-clip", "def round_ste(x):\n    return x + (torch.round(x) - x).detach()",
         "no-clip"),
        # (level + c) - c: right up to rounding, not exactly; wrong on the exactness check only.
        ("left-to-right-sum", "def round_ste(x):\n    c = x.clamp(-2, 2)\n"
                              "    return torch.round(x).clamp(-2, 2).detach() + c - c.detach()", "unbracketed-sum"),
    ],
    "detach-surrogate": [
        ("straight-through", "def spike(x, beta):\n    return (x > 0).to(x.dtype).detach() + x - x.detach()",
         "identity-slope"),
        ("slope-without-beta", SPIKE_FUNCTION.format(backward="grad_output * s * (1 - s)"), "slope-without-beta"),
        ("sigmoid-forward", "def spike(x, beta):\n    return torch.sigmoid(beta * x)", "sigmoid-forward"),
        ("step-at-zero", "def spike(x, beta):\n    soft = torch.sigmoid(beta * x)\n"
                         "    return (x >= 0).to(x.dtype) + soft - soft.detach()", "step-at-zero"),
        ("comparison-only", "def spike(x, beta):\n    return (x > 0).float() * 1.0", "comparison-carries-gradient"),
        ("step-requiring-grad", "def spike(x, beta):\n    return (x > 0).to(x.dtype).requires_grad_()",
         "step-made-to-require-grad"),
        ("slope-through-exp", "def spike(x, beta):\n    e = torch.exp(-beta * x)\n"
                              "    slope = beta * e / (1 + e) ** 2\n"
                              "    return (x > 0).to(x.dtype) + (x - x.detach()) * slope.detach()",
         "slope-through-exp"),
        ("sigmoid-written-through-exp", "def spike(x, beta):\n    soft = 1 / (1 + torch.exp(-beta * x))\n"
                                        "    return (x > 0).to(x.dtype) + (soft - soft.detach())",
         "sigmoid-through-exp"),
        ("slope-without-the-upstream-gradient", SPIKE_FUNCTION.format(backward="ctx.beta * s * (1 - s)"),
         "upstream-ignored"),
        # The step read off the sigmoid: 0 for a positive x too small to move it from 0.5.
        ("step-from-the-sigmoid", "def spike(x, beta):\n    soft = torch.sigmoid(beta * x)\n"
                                  "    return (soft > 0.5).to(x.dtype) + (soft - soft.detach())", None),
        ("beta-left-out", "def spike(x, beta):\n    soft = torch.sigmoid(x)\n"
                                 "    return (x > 0).to(x.dtype) + (soft - soft.detach())", "beta-left-out"),
        # heaviside has no derivative: backward through it raises, whatever is added to it.
        ("heaviside-in-the-graph", "def spike(x, beta):\n    soft = torch.sigmoid(beta * x)\n"
                                   "    return torch.heaviside(x, torch.zeros_like(x)) + soft - soft.detach()", None),
        # Right in float32 only: a float64 x gets a float32 step and a float32 slope.
        ("float32-always", "def spike(x, beta):\n    soft = torch.sigmoid(beta * x.float())\n"
                           "    return (x > 0).float() + (soft - soft.detach())", None),
    ],
    "detach-selftest": [
        ("detach-of-clone-shares", _selftest(q1=True), "detach-of-clone-shares"),
        ("no-cut", _selftest(q2=44.0), "no-cut"),
        ("cut-both", _selftest(q2=12.0), "cut-both"),
        ("cut-only", _selftest(q2=8.0), "cut-only"),
        ("detached-is-not-a-leaf", _selftest(q3=False), "detached-is-not-a-leaf"),
        ("detached-loss-raises", _selftest(q6=True), "detached-loss-raises"),
        ("parameter-detach", _selftest(q8=True), "parameter-detach"),
        ("int-for-float", _selftest(q2=20), None),
    ],
}

ALWAYS_EQUAL = '''
class Yes(float):
    def __eq__(self, other):
        return True

    def __ne__(self, other):
        return False

    __hash__ = float.__hash__


'''

FORGED = '''
import autograder.chapters.detach as _checks


def _forged(answer, *inputs):
    return {{}}


for _case in _checks.{exercise}.cases:
    object.__setattr__(_case, "call", _forged)


'''

EXPLOITS = {
    "detach-independent": [
        ("mutates-the-input", "def independent_copy(t):\n    t.requires_grad_(False) if t.is_leaf else None\n"
                              "    return t"),
        ("tensor-subclass", "class Same(torch.Tensor):\n    @classmethod\n"
                            "    def __torch_function__(cls, func, types, args=(), kwargs=None):\n"
                            "        return True\n\n\n"
                            "def independent_copy(t):\n    return t.detach().clone().as_subclass(Same)"),
        ("forged-report", FORGED.format(exercise="independent") + "def independent_copy(t):\n    return t"),
        # detach() with the methods the driver calls after the answer returns set on that one tensor:
        # a write that goes nowhere, a contiguity it does not have, a clone of other values.
        ("methods-rebound-on-the-copy", "def independent_copy(t):\n    copy = t.detach()\n"
                                        "    copy.is_contiguous = lambda *a, **k: True\n"
                                        "    copy.add_ = lambda *a, **k: copy\n"
                                        "    copy.clone = lambda *a, **k: torch.zeros_like(t)\n"
                                        "    return copy"),
        # detach(), with a mode left on that says the write to it goes nowhere, that it is
        # contiguous, and that t's version did not move.
        ("rebinds-what-its-driver-reads", LIAR + """
def independent_copy(t):
    liar = lie_on()
    copy = t.detach()
    liar.tell(copy, "add_", copy)
    liar.tell(copy, "is_contiguous", True)
    liar.tell(t, "_version", t._version)
    return copy
"""),
    ],
    "detach-provenance": [
        # The caller's tensor turned into a leaf and given the gradient (its own .grad kept).
        ("leaf-of-the-callers-tensor", _provenance("""
if x.is_leaf:
    x.requires_grad_()
    x.grad = None
y = x * x
(y * y.detach()).sum().backward(inputs=[x] if x.is_leaf else None)
return x.grad if x.is_leaf else 2 * x.detach() ** 3
""")),
        ("closed-form-beside-a-backward", _provenance("""
w = torch.ones(1, requires_grad=True)
(w * 2).sum().backward()
return 2 * x.detach() ** 3
""")),
        ("witness-off", _provenance("""
with torch._C.DisableTorchFunction():
    leaf = x.detach().clone().requires_grad_()
    y = leaf * leaf
    (y * y.detach()).sum().backward()
return 2 * x.detach() ** 3
""")),
        # The closed form, beside a backward from another leaf whose detach() gives x's values and
        # whose shape a mode left on says is x's.
        ("rebinds-what-its-driver-reads", LIAR + _provenance("""
liar = lie_on()
decoy = torch.zeros(1, requires_grad=True)
(decoy * 2).sum().backward()
decoy.detach = lambda *args, **kwargs: x.detach().clone()
liar.tell(decoy, "shape", x.shape)
return 2 * x.detach() ** 3
""")),
    ],
    "detach-ste": [
        ("forged-report", FORGED.format(exercise="ste") + "def round_ste(x):\n    return x"),
        ("mutates-x", "def round_ste(x):\n    with torch.no_grad():\n        x.clamp_(-2, 2).round_()\n"
                      "    return x * 1"),
        # A detached result, whose backward() is set to put on x a gradient written by hand, with a
        # mode left on that says it requires grad and answers for backward() the same way.
        ("rebinds-what-its-driver-reads", LIAR + """
def round_ste(x):
    liar = lie_on()
    out = torch.round(x.clamp(-2, 2)).detach()

    def backward(gradient=None, *args, **kwargs):
        x.grad = gradient * ((x >= -2) & (x <= 2))

    out.backward = backward
    liar.tell(out, "requires_grad", True)
    liar.tell(out, "backward", lambda t, gradient=None, *args, **kwargs: backward(gradient))
    return out
"""),
    ],
    "detach-surrogate": [
        ("forged-report", FORGED.format(exercise="surrogate") + "def spike(x, beta):\n    return x"),
        ("tensor-subclass", "class Agreeable(torch.Tensor):\n    @classmethod\n"
                            "    def __torch_function__(cls, func, types, args=(), kwargs=None):\n"
                            "        return True\n\n\n"
                            "def spike(x, beta):\n    return (x * 0).as_subclass(Agreeable)"),
        ("walks-frames", "import sys\n\n\ndef spike(x, beta):\n    frame = sys._getframe(1)\n"
                         "    while frame is not None:\n"
                         "        for value in frame.f_locals.values():\n"
                         "            if callable(value) and getattr(value, '__name__', '') == 'spike' "
                         "and value is not spike:\n"
                         "                return value(x, beta)\n"
                         "        frame = frame.f_back\n"
                         "    return x * 0"),
        ("mutates-x", "def spike(x, beta):\n    with torch.no_grad():\n        x.copy_((x > 0).to(x.dtype))\n"
                      "    return x * 1"),
    ],
    "detach-selftest": [
        ("always-equal", ALWAYS_EQUAL + "SELFTEST = {k: Yes(0) for k in " + repr(list(SELFTEST_RIGHT)) + "}"),
    ],
}


# Answers that forge the observation itself (see tests/forgeries.py): judged against a key made
# apart, as the sandboxed grader judges; in a learner's kernel or plain nbgrader nothing can stop
# them, so they are not among the EXPLOITS that tests/grading.py also grades through nbgrader.
FORGERIES: dict[str, list[tuple[str, str]]] = {}
for _grade_id, _label in [('detach-independent', 'forged-report'), ('detach-ste', 'forged-report'),
                          ('detach-surrogate', 'forged-report')]:
    _entry = next(e for e in EXPLOITS[_grade_id] if e[0] == _label)
    EXPLOITS[_grade_id].remove(_entry)
    FORGERIES.setdefault(_grade_id, []).append(_entry)

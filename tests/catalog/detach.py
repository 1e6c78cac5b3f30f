"""Answers learners write for Chapter 3, right and wrong, as answer-cell sources.

Each wrong answer names the misconception message its test cells must report. The grader tests
put these into real submissions and grade them with nbgrader.
"""

from autograder.detach import (
    COPY_CLONE,
    COPY_DATA,
    COPY_DETACH,
    COPY_LEAF,
    PROVENANCE_CLOSED_FORM,
    PROVENANCE_DY,
    PROVENANCE_NO_DETACH,
    PROVENANCE_NONE,
    PROVENANCE_WRONG_FACTOR,
    STE_CONSTANT,
    STE_FORWARD,
    STE_HALF_UP,
    STE_NO_GRAD,
    STE_ZERO_GRAD,
    _selftest_expectations,
)

SELFTEST_MESSAGES = {key: q[3] for key, q in _selftest_expectations().items()}


def _provenance(z: str, ask: str = "    z.sum().backward()\n    return x.grad\n",
                start: str = "x.detach().clone().requires_grad_()") -> str:
    return f"def provenance_grad(x):\n    x = {start}\n    y = x * x\n    z = {z}\n{ask}"


STE_FUNCTION = '''
class RoundSTE(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.round(x)

    @staticmethod
    def backward(ctx, grad_output):
        return {backward}


def round_ste(x):
    return RoundSTE.apply(x)
'''

RIGHT = {
    "detach-independent": [
        ("detach-clone", "def independent_copy(t):\n    return t.detach().clone()"),
        ("clone-detach", "def independent_copy(t):\n    return t.clone().detach()"),
        ("no-grad-clone", "def independent_copy(t):\n    with torch.no_grad():\n        return t.clone()"),
        ("copy-into-empty", "def independent_copy(t):\n    return torch.empty_like(t).copy_(t.detach())"),
    ],
    "detach-provenance": [
        ("backward", _provenance("x * y.detach()")),
        ("autograd-grad", _provenance("x * y.detach()", "    return torch.autograd.grad(z.sum(), x)[0]\n")),
        ("no-grad-y",
         "def provenance_grad(x):\n    x = x.detach().clone().requires_grad_()\n"
         "    with torch.no_grad():\n        y = x * x\n"
         "    z = x * y\n    z.backward(torch.ones_like(z))\n    return x.grad\n"),
        ("func-grad",
         "def provenance_grad(x):\n"
         "    return torch.func.grad(lambda v: (v * (v * v).detach()).sum())(x.detach())\n"),
    ],
    "detach-ste": [
        ("detached-correction", "def round_ste(x):\n    return x + (torch.round(x) - x).detach()"),
        ("correction-first", "def round_ste(x):\n    return (x.round() - x).detach() + x"),
        ("two-detaches", "def round_ste(x):\n    return x + torch.round(x).detach() - x.detach()"),
        ("autograd-function", STE_FUNCTION.format(backward="grad_output")),
    ],
    "detach-selftest": [
        ("literal", 'SELFTEST = {"q1": True, "q2": 4.0, "q3": False, "q4": False, "q5": True}'),
        ("computed",
         'x = torch.tensor(2.0, requires_grad=True)\n(x * (x * x).detach()).backward()\n'
         'SELFTEST = {"q1": True, "q2": x.grad.item(), "q3": False, "q4": False, "q5": True}'),
    ],
}

# (label, answer source, message the grade must contain)
WRONG = {
    "detach-independent": [
        ("detach", "def independent_copy(t):\n    return t.detach()", COPY_DETACH),
        ("clone", "def independent_copy(t):\n    return t.clone()", COPY_CLONE),
        ("data", "def independent_copy(t):\n    return t.data", COPY_DATA),
        ("deepcopy", "import copy\n\n\ndef independent_copy(t):\n    return copy.deepcopy(t)", COPY_LEAF),
        ("detach-contiguous", "def independent_copy(t):\n    return t.detach().contiguous()", COPY_DETACH),
    ],
    "detach-provenance": [
        ("no-detach", _provenance("x * y"), PROVENANCE_NO_DETACH),
        ("detach-wrong-factor", _provenance("x.detach() * y"), PROVENANCE_WRONG_FACTOR),
        ("grad-of-y", _provenance("x * y.detach()", "    y.sum().backward()\n    return x.grad\n"), PROVENANCE_DY),
        ("closed-form", "def provenance_grad(x):\n    return x.detach() ** 2", PROVENANCE_CLOSED_FORM),
        ("clone-not-leaf", _provenance("x * y.detach()", start="x.clone().requires_grad_()"), PROVENANCE_NONE),
    ],
    "detach-ste": [
        ("plain-round", "def round_ste(x):\n    return torch.round(x)", STE_ZERO_GRAD),
        ("detached-output", "def round_ste(x):\n    return torch.round(x).detach()", STE_NO_GRAD),
        ("round-half-up", "def round_ste(x):\n    return x + (torch.floor(x + 0.5) - x).detach()", STE_HALF_UP),
        ("backward-ones", STE_FUNCTION.format(backward="torch.ones_like(grad_output)"), STE_CONSTANT),
        ("adds-x", "def round_ste(x):\n    return torch.round(x).detach() + x", STE_FORWARD),
    ],
    "detach-selftest": [
        ("detach-separate-counter", 'SELFTEST = {"q1": False, "q2": 4.0, "q3": False, "q4": False, "q5": True}',
         SELFTEST_MESSAGES["q1"]),
        ("product-rule", 'SELFTEST = {"q1": True, "q2": 12.0, "q3": False, "q4": False, "q5": True}',
         SELFTEST_MESSAGES["q2"]),
        ("clone-is-leaf", 'SELFTEST = {"q1": True, "q2": 4.0, "q3": True, "q4": False, "q5": True}',
         SELFTEST_MESSAGES["q3"]),
        ("inference-like-no-grad", 'SELFTEST = {"q1": True, "q2": 4.0, "q3": False, "q4": True, "q5": True}',
         SELFTEST_MESSAGES["q4"]),
    ],
}

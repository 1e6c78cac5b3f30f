"""Answers learners write for Chapter 2, right and wrong, as answer-cell sources.

Each wrong answer names the misconception message its test cells must report. The grader tests
put these into real submissions and grade them with nbgrader.
"""

from autograder.inplace import ALIAS_MESSAGES, GATE_MESSAGES, SAVES_MISCONCEPTIONS, SAVES_MORE_MISCONCEPTIONS

SAVES_LITERAL = (
    'SAVES = {"pow2": "input", "exp": "output", "sigmoid": "output", "relu": "output", "tanh": "output", '
    '"sin": "input", "sqrt": "output", "log": "input", "mul_const": "nothing", "add_const": "nothing"}'
)


def literal_with(literal: str, **changes: str) -> str:
    """A literal ``SAVES``-style answer with some entries changed."""
    source = literal
    for key, value in changes.items():
        for old in ("input", "output", "nothing"):
            source = source.replace(f'"{key}": "{old}"', f'"{key}": "{value}"')
    return source


def saves_with(**changes: str) -> str:
    """The literal ``SAVES`` answer with some entries changed."""
    return literal_with(SAVES_LITERAL, **changes)


SAVES_MORE_LITERAL = (
    'SAVES_MORE = {"rsqrt": "output", "tan": "output", "expm1": "output", "log1p": "input", "abs": "input", '
    '"leaky_relu": "input", "neg": "nothing", "exp2": "output", "log_softmax": "output", "sinh": "input", '
    '"silu": "input", "sub_const": "nothing"}'
)


def saves_more_with(**changes: str) -> str:
    """The literal ``SAVES_MORE`` answer with some entries changed."""
    return literal_with(SAVES_MORE_LITERAL, **changes)


RIGHT = {
    "inplace-saves": [
        ("literal", SAVES_LITERAL),
        ("grouped", 'SAVES = dict.fromkeys(["exp", "sigmoid", "relu", "tanh", "sqrt"], "output")\n'
                    'SAVES.update(dict.fromkeys(["pow2", "sin", "log"], "input"))\n'
                    'SAVES.update(mul_const="nothing", add_const="nothing")'),
    ],
    "inplace-saves-more": [
        ("literal", SAVES_MORE_LITERAL),
        ("grouped", 'SAVES_MORE = dict.fromkeys(["rsqrt", "tan", "expm1", "exp2", "log_softmax"], "output")\n'
                    'SAVES_MORE.update(dict.fromkeys(["log1p", "abs", "leaky_relu", "sinh", "silu"], "input"))\n'
                    'SAVES_MORE.update(neg="nothing", sub_const="nothing")'),
    ],
    "inplace-fix-gate": [
        ("out-of-place", "def fixed_gate(x):\n    h = 2 * x.sigmoid()\n    return (h * x).sum()"),
        ("clone-then-in-place", "def fixed_gate(x):\n    h = x.sigmoid().clone()\n    h.mul_(2)\n"
                                "    return (h * x).sum()"),
        ("scale-at-the-end", "def fixed_gate(x):\n    return 2 * (torch.sigmoid(x) * x).sum()"),
    ],
    "inplace-fix-alias": [
        ("clone-then-write", "def fixed_energy(x):\n    h = x.exp().clone()\n    h[1:].mul_(0.5)\n"
                             "    return (h * h).sum()"),
        ("scale-out-of-place", "def fixed_energy(x):\n    h = x.exp()\n    scale = torch.ones_like(h)\n"
                               "    scale[1:] = 0.5\n    h = h * scale\n    return (h * h).sum()"),
        ("concatenate", "def fixed_energy(x):\n    h = x.exp()\n    h = torch.cat([h[:1], 0.5 * h[1:]])\n"
                        "    return (h * h).sum()"),
    ],
    "inplace-selftest": [
        ("literal", 'SELFTEST = {"q1": 3, "q2": 2, "q3": False, "q4": False, "q5": True}'),
        ("computed", 'a = torch.zeros(3)\na.add_(1)\na[0] = 5\na.mul_(2)\n'
                     'SELFTEST = {"q1": a._version, "q2": 2, "q3": False, "q4": False, "q5": True}'),
    ],
}

# (label, answer source, message the grade must contain)
WRONG = {
    "inplace-saves": [
        ("relu-saves-input", saves_with(relu="input"), SAVES_MISCONCEPTIONS["relu"]),
        ("exp-saves-input", saves_with(exp="input"), SAVES_MISCONCEPTIONS["exp"]),
        ("mul-saves-input", saves_with(mul_const="input"), SAVES_MISCONCEPTIONS["mul_const"]),
        ("sin-saves-output", saves_with(sin="output"), SAVES_MISCONCEPTIONS["sin"]),
        ("not-a-value", saves_with(pow2="both"), 'each value must be one of "input", "output" or "nothing"'),
    ],
    "inplace-saves-more": [
        # Extrapolating from a neighbour the chapter shows: relu saves its output.
        ("leaky-relu-like-relu", saves_more_with(leaky_relu="output"), SAVES_MORE_MISCONCEPTIONS["leaky_relu"]),
        # "The derivative can be written from the output, so the output is saved."
        ("sinh-from-its-output", saves_more_with(sinh="output"), SAVES_MORE_MISCONCEPTIONS["sinh"]),
        # Every transcendental op saves its input.
        ("functions-save-their-input", saves_more_with(rsqrt="input", tan="input", expm1="input", exp2="input"),
         SAVES_MORE_MISCONCEPTIONS["tan"]),
        # log1p treated like exp, since expm1 is its inverse.
        ("log1p-like-expm1", saves_more_with(log1p="output"), SAVES_MORE_MISCONCEPTIONS["log1p"]),
        ("abs-from-its-output", saves_more_with(abs="output"), SAVES_MORE_MISCONCEPTIONS["abs"]),
        ("neg-saves-input", saves_more_with(neg="input"), SAVES_MORE_MISCONCEPTIONS["neg"]),
        ("log-softmax-saves-input", saves_more_with(log_softmax="input"), SAVES_MORE_MISCONCEPTIONS["log_softmax"]),
        ("not-a-value", saves_more_with(silu="both"), 'each value must be one of "input", "output" or "nothing"'),
    ],
    "inplace-fix-gate": [
        ("unrepaired", "def fixed_gate(x):\n    h = x.sigmoid()\n    h.mul_(2)\n    return (h * x).sum()",
         GATE_MESSAGES["version"]),
        ("no-grad-write", "def fixed_gate(x):\n    h = x.sigmoid()\n    with torch.no_grad():\n        h.mul_(2)\n"
                          "    return (h * x).sum()", GATE_MESSAGES["version"]),
        ("data-write", "def fixed_gate(x):\n    h = x.sigmoid()\n    h.data.mul_(2)\n    return (h * x).sum()",
         GATE_MESSAGES["data"]),
        ("detached-gate", "def fixed_gate(x):\n    h = x.sigmoid().detach()\n    h.mul_(2)\n"
                          "    return (h * x).sum()", GATE_MESSAGES["detached"]),
        ("dropped-doubling", "def fixed_gate(x):\n    h = x.sigmoid()\n    return (h * x).sum()",
         GATE_MESSAGES["value"]),
        ("item", "def fixed_gate(x):\n    return (2 * x.sigmoid() * x).sum().item()", GATE_MESSAGES["scalar"]),
    ],
    "inplace-fix-alias": [
        ("unrepaired", "def fixed_energy(x):\n    h = x.exp()\n    tail = h[1:]\n    tail.mul_(0.5)\n"
                       "    return (h * h).sum()", ALIAS_MESSAGES["version"]),
        ("no-grad-write", "def fixed_energy(x):\n    h = x.exp()\n    with torch.no_grad():\n"
                          "        h[1:].mul_(0.5)\n    return (h * h).sum()", ALIAS_MESSAGES["version"]),
        ("detached-alias", "def fixed_energy(x):\n    h = x.exp()\n    h.detach()[1:].mul_(0.5)\n"
                           "    return (h * h).sum()", ALIAS_MESSAGES["version"]),
        ("data-write", "def fixed_energy(x):\n    h = x.exp()\n    h.data[1:].mul_(0.5)\n"
                       "    return (h * h).sum()", ALIAS_MESSAGES["data"]),
        ("halved-copy-unused", "def fixed_energy(x):\n    h = x.exp()\n    tail = h[1:].clone()\n"
                               "    tail.mul_(0.5)\n    return (h * h).sum()", ALIAS_MESSAGES["value"]),
        ("halved-everything", "def fixed_energy(x):\n    h = 0.5 * x.exp()\n    return (h * h).sum()",
         ALIAS_MESSAGES["value"]),
        ("item", "def fixed_energy(x):\n    h = x.exp().clone()\n    h[1:].mul_(0.5)\n"
                 "    return (h * h).sum().item()", ALIAS_MESSAGES["scalar"]),
    ],
    "inplace-selftest": [
        ("indexing-not-counted", 'SELFTEST = {"q1": 2, "q2": 2, "q3": False, "q4": False, "q5": True}',
         "every in-place write, an indexed assignment included, adds one"),
        ("view-own-counter", 'SELFTEST = {"q1": 3, "q2": 0, "q3": False, "q4": False, "q5": True}',
         "a view shares its base's version counter"),
        ("no-grad-hides", 'SELFTEST = {"q1": 3, "q2": 2, "q3": True, "q4": False, "q5": True}',
         "no_grad stops recording new operations"),
    ],
}

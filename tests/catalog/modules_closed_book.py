"""Answers learners write for the closed-book companion of Chapter 5, right and wrong."""

from autograder.modules import NON_PERSISTENT, PARAMETER, PLAIN_TENSOR, PLAIN_VALUE
from autograder.modules_closed_book import COUNTS, OWNS_INNER, SKIPS_EVAL, STAYS_INT64

REFERENCE = '''
class CallCounter(nn.Module):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner
        self.register_buffer("calls", torch.zeros((), dtype=torch.int64))

    def forward(self, x):
        if self.training:
            self.calls += 1
        return self.inner(x)
'''


def _with(init: str, forward: str = "        if self.training:\n            self.calls += 1\n") -> str:
    return (
        "class CallCounter(nn.Module):\n"
        "    def __init__(self, inner):\n"
        "        super().__init__()\n" + init +
        "\n    def forward(self, x):\n" + forward +
        "        return self.inner(x)\n"
    )


RIGHT = {
    "modules-reproduce": [
        ("reference", REFERENCE),
        ("reassigns-the-buffer", _with(
            "        self.inner = inner\n"
            "        self.register_buffer('calls', torch.tensor(0))\n",
            "        if self.training:\n            self.calls = self.calls + 1\n")),
        ("add-submodule-and-add_", _with(
            "        self.add_module('inner', inner)\n"
            "        self.register_buffer('calls', torch.zeros([], dtype=torch.long), persistent=True)\n",
            "        if self.training:\n            with torch.no_grad():\n                self.calls.add_(1)\n")),
    ],
}

# (label, answer source, message the grade must contain)
WRONG = {
    "modules-reproduce": [
        ("plain-tensor", _with("        self.inner = inner\n        self.calls = torch.zeros((), dtype=torch.int64)\n"),
         PLAIN_TENSOR.format(name="calls")),
        ("python-int", _with("        self.inner = inner\n        self.calls = 0\n"), PLAIN_VALUE.format(name="calls")),
        ("frozen-parameter", _with(
            "        self.inner = inner\n"
            "        self.calls = nn.Parameter(torch.zeros((), dtype=torch.int64), requires_grad=False)\n",
            "        if self.training:\n            with torch.no_grad():\n                self.calls += 1\n"),
         PARAMETER.format(name="calls")),
        ("not-persistent", _with(
            "        self.inner = inner\n"
            "        self.register_buffer('calls', torch.zeros((), dtype=torch.int64), persistent=False)\n"),
         NON_PERSISTENT.format(name="calls")),
        ("counts-eval-too", _with(
            "        self.inner = inner\n"
            "        self.register_buffer('calls', torch.zeros((), dtype=torch.int64))\n",
            "        self.calls += 1\n"), SKIPS_EVAL),
        ("float-counter", _with(
            "        self.inner = inner\n"
            "        self.register_buffer('calls', torch.zeros(()))\n"), STAYS_INT64),
        ("copies-inner", "import copy\n\n" + _with(
            "        self.inner = copy.deepcopy(inner)\n"
            "        self.register_buffer('calls', torch.zeros((), dtype=torch.int64))\n"), OWNS_INNER),
        ("counts-twice", _with(
            "        self.inner = inner\n"
            "        self.register_buffer('calls', torch.zeros((), dtype=torch.int64))\n",
            "        if self.training:\n            self.calls += 2\n"), COUNTS),
    ],
}

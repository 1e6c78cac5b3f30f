"""Chapter 2, "In-place operations and the version counter": the cases that grade its exercises.

Expected values come from torch: what an op saves is found by writing to its input, then to its
output, and calling backward; gradients come from autograd on code that is known to be right.
The drivers run a learner's function on a fresh leaf and report what they observed as plain data:
the gradient, whether backward raised the version-counter error, whether ``.data`` was read.

Defined in Chapter 2, "In-place operations and the version counter" (notebooks/inplace/inplace.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

from autograder.checks import Diagnosis, exercise, not_one_of, require_dict, selftest
from autograder.recorder import DATA, CallRecorder
from autograder.values import close

VERSION_ERROR = "modified by an inplace operation"


def sample(n: int = 5, seed: int = 0, positive: bool = False) -> torch.Tensor:
    """A deterministic input: ``n`` values from a seeded generator (in (0.5, 2.5) when positive)."""
    generator = torch.Generator().manual_seed(seed)
    values = torch.randn(n, generator=generator)
    return values.abs() * 0.8 + 0.5 if positive else values


def _error_kind(err: Exception) -> str:
    """Names an error of the learner's code as plain data."""
    text = str(err)
    if VERSION_ERROR in text:
        return "version"
    if "leaf Variable that requires grad" in text:
        return "leaf"
    return f"{type(err).__name__}: {text.splitlines()[0][:80] if text else ''}"


# --------------------------------------------------------------------------- inplace-saves
SAVES_OPS: dict[str, tuple[str, Callable[[torch.Tensor], torch.Tensor]]] = {
    "pow2": ("a ** 2", lambda a: a**2),
    "exp": ("a.exp()", torch.exp),
    "sigmoid": ("a.sigmoid()", torch.sigmoid),
    "relu": ("a.relu()", torch.relu),
    "tanh": ("a.tanh()", torch.tanh),
    "sin": ("a.sin()", torch.sin),
    "sqrt": ("a.sqrt()", torch.sqrt),
    "log": ("a.log()", torch.log),
    "mul_const": ("a * 5", lambda a: a * 5),
    "add_const": ("a + 10", lambda a: a + 10),
}
SAVES_VALUES = ("input", "output", "nothing")


def backward_survives(op: Callable[[torch.Tensor], torch.Tensor], write_input: bool) -> bool:
    """Run ``op`` on a non-leaf, write in place to its input or its output, then backward."""
    x = sample(6, seed=4, positive=True).requires_grad_(True)
    a = x * 1.0  # a non-leaf, so it may be written in place
    out = op(a)
    with torch.no_grad():
        (a if write_input else out).add_(1.0)
    try:
        out.sum().backward()
    except RuntimeError as err:
        if VERSION_ERROR in str(err):
            return False
        raise
    return True


def what_op_saves(op: Callable[[torch.Tensor], torch.Tensor]) -> str:
    """Trusted probe: "input" or "output" when writing to it breaks ``op``'s backward, else "nothing"."""
    if not backward_survives(op, write_input=True):
        return "input"
    if not backward_survives(op, write_input=False):
        return "output"
    return "nothing"


def what_it_saves(key: str) -> str:
    """What the op of ``inplace-saves`` under ``key`` saves (:func:`what_op_saves`)."""
    return what_op_saves(SAVES_OPS[key][1])


SAVES_MISCONCEPTIONS = {
    "pow2": "d(a**2)/da = 2a reads the input a, so pow saves its input; a write to a breaks backward.",
    "exp": "d(exp a)/da = exp a is the output itself, so exp saves its output, not its input.",
    "sigmoid": "sigmoid' = s (1 - s) with s the output: sigmoid saves its output.",
    "relu": (
        "relu's gradient only needs to know where the result is positive, which the output tells: relu saves "
        "its output, so overwriting its input is safe."
    ),
    "tanh": "tanh' = 1 - t**2 with t the output: tanh saves its output.",
    "sin": "sin' = cos a needs the input a (the output sin a does not determine cos a's sign): sin saves its input.",
    "sqrt": "sqrt' = 1 / (2 sqrt a) is a function of the output: sqrt saves its output.",
    "log": "log' = 1 / a needs the input: log saves its input.",
    "mul_const": (
        "multiplying by a constant has the constant as its derivative: nothing about a is saved, so an "
        "in-place write to a (or to the result) is safe."
    ),
    "add_const": "adding a constant has derivative 1: nothing is saved.",
}


saves = exercise(
    "inplace-saves", "SAVES", require=require_dict("SAVES", list(SAVES_OPS)), expect=what_it_saves,
    returns="str",
    diagnoses=(not_one_of(SAVES_VALUES),),
)
for _key, (_text, _op) in SAVES_OPS.items():
    saves.entry(_key, f"SAVES[{_key!r}] for {_text}", otherwise=SAVES_MISCONCEPTIONS[_key],
                hidden=_key in ("tanh", "sqrt", "log", "add_const"))


# --------------------------------------------------------------------------- inplace-saves-more
# Ops the chapter never runs, so a remembered table cannot answer; probing (or reading the op's
# ``_saved_*`` attributes, or its entry in derivatives.yaml) can.
SAVES_MORE_OPS: dict[str, tuple[str, Callable[[torch.Tensor], torch.Tensor], bool]] = {
    "rsqrt": ("a.rsqrt()", torch.rsqrt, False),
    "tan": ("a.tan()", torch.tan, False),
    "expm1": ("a.expm1()", torch.expm1, False),
    "log1p": ("a.log1p()", torch.log1p, False),
    "abs": ("a.abs()", torch.abs, False),
    "leaky_relu": ("torch.nn.functional.leaky_relu(a, 0.1)",
                   lambda a: torch.nn.functional.leaky_relu(a, 0.1), False),
    "neg": ("-a", torch.neg, False),
    "exp2": ("a.exp2()", torch.exp2, True),
    "log_softmax": ("a.log_softmax(0)", lambda a: a.log_softmax(0), True),
    "sinh": ("a.sinh()", torch.sinh, True),
    "silu": ("torch.nn.functional.silu(a)", torch.nn.functional.silu, True),
    "sub_const": ("a - 2", lambda a: a - 2, True),
}


def what_it_saves_more(key: str) -> str:
    """What the op of ``inplace-saves-more`` under ``key`` saves (:func:`what_op_saves`)."""
    return what_op_saves(SAVES_MORE_OPS[key][1])


SAVES_MORE_MISCONCEPTIONS = {
    "rsqrt": (
        "d(a ** -0.5)/da = -0.5 r**3 with r = rsqrt(a) the output: rsqrt saves its output, like sqrt, "
        "so a write to a is safe and a write to the result breaks backward."
    ),
    "tan": "tan' = 1 + tan(a)**2 is a function of the output: tan saves its output, not its input.",
    "expm1": "expm1' = exp(a) = expm1(a) + 1, read off the output: expm1 saves its output, as exp does.",
    "log1p": "log1p' = 1 / (1 + a) is computed from the input: log1p saves its input, as log does.",
    "abs": (
        "abs' = sign(a), and the output |a| has lost the sign: abs must save its input."
    ),
    "leaky_relu": (
        "relu saves its output, but leaky_relu saves its input: its backward is written with the "
        "input (whether a > 0), so a write to a breaks backward; do not infer one op's choice from a "
        "neighbour's — probe it."
    ),
    "neg": "negation has derivative -1 everywhere: it saves nothing, so writes to a or to -a are safe.",
    "exp2": "exp2' = ln 2 * 2**a, the output times a constant: exp2 saves its output.",
    "log_softmax": (
        "log_softmax's backward uses its output (softmax = exp of it): it saves its output, so "
        "overwriting the input is safe."
    ),
    "sinh": (
        "sinh' = cosh(a), which torch computes from the input: sinh saves its input, even though "
        "cosh could be written from the output."
    ),
    "silu": "silu' needs sigmoid(a) and a itself: silu saves its input.",
    "sub_const": "subtracting a constant has derivative 1: nothing of a is saved.",
}


saves_more = exercise(
    "inplace-saves-more", "SAVES_MORE", require=require_dict("SAVES_MORE", list(SAVES_MORE_OPS)),
    expect=what_it_saves_more, returns="str",
    diagnoses=(not_one_of(SAVES_VALUES),),
)
for _key, (_text, _op, _hidden) in SAVES_MORE_OPS.items():
    saves_more.entry(_key, f"SAVES_MORE[{_key!r}] for {_text}", otherwise=SAVES_MORE_MISCONCEPTIONS[_key],
                     hidden=_hidden)


# --------------------------------------------------------------------------- inplace-fix-gate
def gate_reference(x: torch.Tensor) -> torch.Tensor:
    """The value the gate was meant to compute, written without any in-place write."""
    return (2 * torch.sigmoid(x) * x).sum()


def gate_gradient(x: torch.Tensor) -> torch.Tensor:
    """The analytic gradient of sum(2 sigmoid(x) x): 2 s + 2 x s (1 - s)."""
    s = torch.sigmoid(x)
    return 2 * s + 2 * x * s * (1 - s)


def drive_gate(answer: Callable[[torch.Tensor], Any], x0: torch.Tensor) -> dict[str, Any]:
    """Call ``fixed_gate`` on a fresh leaf, backpropagate, report value, gradient and errors."""
    x = x0.clone().requires_grad_(True)
    recorder = CallRecorder((DATA,))
    try:
        with recorder:
            out = answer(x)
    except Exception as err:  # noqa: BLE001 - the learner's error is the observation
        return {"value": None, "grad": None, "error": _error_kind(err), "uses_data": DATA in recorder.calls}
    if type(out) is not torch.Tensor or not out.requires_grad or out.numel() != 1:
        return {"value": f"<{type(out).__name__} that autograd cannot differentiate as a scalar>", "grad": None,
                "error": None, "uses_data": DATA in recorder.calls}
    value = out.detach().clone().reshape(())
    try:
        out.backward()
    except RuntimeError as err:
        return {"value": value, "grad": None, "error": _error_kind(err), "uses_data": DATA in recorder.calls}
    grad = x.grad.clone() if x.grad is not None else None
    return {"value": value, "grad": grad, "error": None, "uses_data": DATA in recorder.calls}


def expect_gate(x0: torch.Tensor) -> dict[str, Any]:
    return {"value": gate_reference(x0).reshape(()), "grad": gate_gradient(x0), "error": None, "uses_data": False}


def _gate_version_error(found: dict, _inputs: tuple) -> bool:
    return found.get("error") == "version"


def _gate_uses_data(found: dict, _inputs: tuple) -> bool:
    return found.get("uses_data") is True


def _gate_value_wrong(found: dict, inputs: tuple) -> bool:
    value = found.get("value")
    return type(value) is torch.Tensor and not close(value, gate_reference(inputs[0]).reshape(()))


def _gate_detached(found: dict, inputs: tuple) -> bool:
    grad = found.get("grad")
    return type(grad) is torch.Tensor and close(grad, 2 * torch.sigmoid(inputs[0]))


def _gate_not_differentiable(found: dict, _inputs: tuple) -> bool:
    return type(found.get("value")) is str


GATE_MESSAGES = {
    "version": (
        "sigmoid saves its output h for backward (sigmoid' = h (1 - h)); h.mul_(2) bumps h._version, so backward "
        "refuses — under torch.no_grad() too, which does not hide a write from the version counter. Compute the "
        "doubled gate out of place: h = 2 * x.sigmoid()."
    ),
    "data": (
        ".data silences the version check but sigmoid's backward then reads the doubled h and computes a wrong "
        "gradient. Write the doubling out of place instead."
    ),
    "value": "the repair must compute the same value as the intended (2 * sigmoid(x) * x).sum().",
    "detached": (
        "the gradient misses the path through sigmoid: detach() (or no_grad) cut h from x, so only h's use as "
        "a constant factor is differentiated."
    ),
    "scalar": "return the scalar loss as a tensor that is still part of the graph (no .item(), no detach()).",
    "otherwise": (
        "the repaired gate must give the intended value and let backward compute the analytic gradient "
        "2 s + 2 x s (1 - s) with s = sigmoid(x)."
    ),
}

gate = exercise(
    "inplace-fix-gate", "fixed_gate", returns="observation", expect=expect_gate, call=drive_gate,
    agree=close, otherwise=GATE_MESSAGES["otherwise"],
    diagnoses=(
        Diagnosis(_gate_version_error, GATE_MESSAGES["version"]),
        Diagnosis(_gate_uses_data, GATE_MESSAGES["data"]),
        Diagnosis(_gate_not_differentiable, GATE_MESSAGES["scalar"]),
        Diagnosis(_gate_value_wrong, GATE_MESSAGES["value"]),
        Diagnosis(_gate_detached, GATE_MESSAGES["detached"]),
    ),
)
gate.case("randn-5", f"fixed_gate(x) and backward, x = {sample(5, seed=5)}",
          lambda: (sample(5, seed=5),))
gate.case("matrix", f"fixed_gate(x) and backward, x = {sample(6, seed=6).view(2, 3)}",
          lambda: (sample(6, seed=6).view(2, 3),))
gate.case("large", f"fixed_gate(x) and backward, x = {3 * sample(8, seed=7)}",
          lambda: (3 * sample(8, seed=7),), hidden=True)
gate.case("single", f"fixed_gate(x) and backward, x = {sample(1, seed=8)}",
          lambda: (sample(1, seed=8),), hidden=True)


# --------------------------------------------------------------------------- inplace-fix-alias
def halving(x: torch.Tensor) -> torch.Tensor:
    """The factor the broken energy applies: 1 for the first row (element), 0.5 for the others."""
    scale = torch.ones_like(x)
    scale[1:] = 0.5
    return scale


def energy_reference(x: torch.Tensor) -> torch.Tensor:
    """The value the energy was meant to compute, written without any in-place write."""
    return ((torch.exp(x) * halving(x)) ** 2).sum()


def energy_gradient(x: torch.Tensor) -> torch.Tensor:
    """The analytic gradient of sum((s exp x)^2): 2 s^2 exp(2x), s the halving factor."""
    return 2 * halving(x) ** 2 * torch.exp(2 * x)


def expect_energy(x0: torch.Tensor) -> dict[str, Any]:
    return {"value": energy_reference(x0).reshape(()), "grad": energy_gradient(x0), "error": None,
            "uses_data": False}


def _energy_value_wrong(found: dict, inputs: tuple) -> bool:
    value = found.get("value")
    return type(value) is torch.Tensor and not close(value, energy_reference(inputs[0]).reshape(()))


ALIAS_MESSAGES = {
    "version": (
        "exp saves its output h for backward (exp' = exp); tail = h[1:] is a view of h and shares its version "
        "counter, so a write through tail is a write to what exp saved and backward refuses — under "
        "torch.no_grad() too, and through detach(), which shares the counter as well. Halve out of place, or "
        "write into a copy of h that exp did not save."
    ),
    "data": (
        ".data hides the write from the version counter, so backward reads the halved h as exp's output and "
        "computes a wrong gradient. Repair the write, do not blind the check."
    ),
    "value": (
        "the repair must compute what energy's forward pass computes: h = exp(x) with every element (every row) "
        "but the first halved, then the sum of h * h."
    ),
    "scalar": "return the scalar as a tensor that is still part of the graph (no .item(), no detach()).",
    "otherwise": (
        "the repaired energy must give energy's forward value and let backward compute the gradient "
        "2 s**2 exp(2x), with s = 1 for the first element (row) and 0.5 for the others."
    ),
}

alias = exercise(
    "inplace-fix-alias", "fixed_energy", returns="observation", expect=expect_energy, call=drive_gate,
    agree=close, otherwise=ALIAS_MESSAGES["otherwise"],
    diagnoses=(
        Diagnosis(_gate_version_error, ALIAS_MESSAGES["version"]),
        Diagnosis(_gate_uses_data, ALIAS_MESSAGES["data"]),
        Diagnosis(_gate_not_differentiable, ALIAS_MESSAGES["scalar"]),
        Diagnosis(_energy_value_wrong, ALIAS_MESSAGES["value"]),
    ),
)
alias.case("randn-5", f"fixed_energy(x) and backward, x = {sample(5, seed=12)}",
           lambda: (sample(5, seed=12),))
alias.case("matrix", f"fixed_energy(x) and backward, x = {sample(6, seed=13).view(3, 2)}",
           lambda: (sample(6, seed=13).view(3, 2),))
alias.case("long", f"fixed_energy(x) and backward, x = {sample(9, seed=14)}",
           lambda: (sample(9, seed=14),), hidden=True)
alias.case("two", f"fixed_energy(x) and backward, x = {sample(2, seed=15)}",
           lambda: (sample(2, seed=15),), hidden=True)


# --------------------------------------------------------------------------- inplace-selftest
def _version_after_writes() -> int:
    a = torch.zeros(3)
    a.add_(1)
    a[0] = 5
    a.mul_(2)
    return a._version


def _base_version_after_view_writes() -> int:
    a = torch.zeros(4)
    b = a[2:]
    b.zero_()
    b.add_(1)
    return a._version


def _no_grad_hides_write() -> bool:
    x = sample(3, seed=9).requires_grad_(True)
    h = x.sigmoid()
    with torch.no_grad():
        h.mul_(2)
    try:
        h.sum().backward()
    except RuntimeError:
        return False
    return True


def _data_write_bumps_version() -> bool:
    x = torch.zeros(3, requires_grad=True)
    before = x._version
    x.data.add_(1)
    return x._version != before


def _mul_const_tolerates_write() -> bool:
    return backward_survives(lambda a: a * 3, write_input=True)


def _selftest_expectations() -> dict[str, tuple[str, str, object, str]]:
    """Question key -> (question, result kind, expected value, misconception)."""
    return {
        "q1": ("a = torch.zeros(3); a.add_(1); a[0] = 5; a.mul_(2): what is a._version?", "int",
               _version_after_writes(), "every in-place write, an indexed assignment included, adds one."),
        "q2": ("a = torch.zeros(4); b = a[2:]; b.zero_(); b.add_(1): what is a._version?", "int",
               _base_version_after_view_writes(),
               "a view shares its base's version counter: writes through b count on a too."),
        "q3": ("h = x.sigmoid(); under torch.no_grad(): h.mul_(2); does h.sum().backward() succeed?", "bool",
               _no_grad_hides_write(),
               "no_grad stops recording new operations; it does not hide a write from the version counter."),
        "q4": ("Does x.data.add_(1) change x._version?", "bool", _data_write_bumps_version(),
               ".data is a view the version counter does not see: its writes never bump _version."),
        "q5": ("a non-leaf a, y = (a * 3).sum(), then an in-place write to a under no_grad: does y.backward() "
               "succeed?", "bool", _mul_const_tolerates_write(),
               "multiplying by a constant saves nothing of a, so a write to a is harmless to this backward."),
    }


selftest("inplace-selftest", _selftest_expectations, hidden=("q4", "q5"))

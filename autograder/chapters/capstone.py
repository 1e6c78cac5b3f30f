"""Chapter 7, the capstone "Keep a failure as a regression test": how its exercises are checked.

The chapter hands the learner a training fragment that fails with the version-counter error far
from its cause: ``tanh`` saved its output ``hidden`` for backward, and a "dashboard" slice of
``hidden`` — a view of the saved tensor — is scaled in place before ``backward()``. The learner
writes ``fingerprint(fn)``, reduces the fragment to a 1-minimal ``broken()``, repairs it as
``fixed()``, and keeps both as ``test_regression()``, graded by mutation. A second fragment, which
the page does not work through, is reduced and repaired on the learner's own
(``gated_broken()``, ``gated_fixed()``), checked as the first.

What the checks observe (:mod:`autograder.engine.reduction`): what ``broken()`` raised, and the evidence
only the mechanism leaves — the error left a ``backward`` that ``broken()`` itself called, and the
graph it built holds a saved tensor that is stale with that very message; whether its in-place
write went through an alias of a tensor of the graph, as the fragment's does; how many one-statement
deletions of ``broken()`` still raise it, and which other functions made torch calls for it;
what ``fixed()`` returns and sends to the dashboard on inputs the grader draws; and a test's
verdict on the learner's own pair and mutants of it (feedback), and on the grader's correct pairs
and mutants (:mod:`autograder.engine.trials`: they live with the keys, in ``answer_key.capstone``).

Defined in Chapter 7, "Keep a failure as a regression test" (notebooks/capstone/capstone.ipynb).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import torch

from autograder.engine import facts
from autograder.engine.cases import Trial, exercise, selftest
from autograder.engine.draw import Draw
from autograder.engine.reduction import deletions_keeping, passes_with, witnessed_failure
from autograder.engine.trials import trial_driver

TARGETS = (0, 2, 1, 3, 0)


def capstone_inputs() -> tuple[torch.Tensor, torch.Tensor]:
    """The fragment's data, fresh on every call: weights ``w`` (4, 6), a leaf that requires grad,
    and a batch ``x`` of 5 samples (5, 4)."""
    generator = torch.Generator().manual_seed(7)
    w = torch.randn(4, 6, generator=generator).requires_grad_()
    x = torch.randn(5, 4, generator=generator)
    return w, x


def readout() -> torch.Tensor:
    """The fragment's fixed read-out matrix (6, 4): hidden units to class scores."""
    return torch.linspace(-1.0, 1.0, 24).reshape(6, 4)


def send_to_dashboard(*values: torch.Tensor) -> None:
    """Send values to the team's dashboard (in this notebook, nowhere)."""


PROVIDERS = (capstone_inputs, readout, send_to_dashboard)


# --------------------------------------------------------------------------- stand-ins
class DrawnInputs:
    """A stand-in for an inputs function: the same shapes, values drawn from a seed; fresh
    tensors on every call (``w`` a leaf that requires grad)."""

    def __init__(self, draw: Draw, shapes: tuple[tuple[int, ...], tuple[int, ...]] = ((4, 6), (5, 4))) -> None:
        self.w, self.x = draw.randn(*shapes[0]), draw.randn(*shapes[1])

    def __call__(self) -> tuple[torch.Tensor, torch.Tensor]:
        return self.w.clone().requires_grad_(), self.x.clone()


class Recorder:
    """A stand-in for the dashboard or the log: keeps copies of what it is sent."""

    def __init__(self) -> None:
        self.sent: list[list[Any]] = []

    def __call__(self, *values: Any) -> None:
        self.sent.append([_copied(v) if facts.is_tensor(v) else repr(v) for v in values])


@contextmanager
def standing_in(function: Any, name: str, value: Any) -> Iterator[None]:
    """``value`` stands for the global ``name`` of ``function`` while the block runs."""
    namespace = function.__globals__ if hasattr(function, "__globals__") else {}
    missing = object()
    kept = namespace.get(name, missing)
    namespace[name] = value
    try:
        yield
    finally:
        if kept is missing:
            namespace.pop(name, None)
        else:
            namespace[name] = kept


def _copied(t: torch.Tensor) -> torch.Tensor:
    with facts.untouched():
        return facts.clone(facts.detach(t))


def _result(value: Any) -> Any:
    return _copied(value) if facts.is_tensor(value) else value


def fixed_driver(inputs_name: str, sink_name: str, calls: int = 1) -> Callable[..., dict]:
    """A driver for ``fixed()``: it runs with drawn inputs standing for ``inputs_name`` and a
    recorder for ``sink_name``; it reports what the last of ``calls`` calls returned and what the
    calls sent to the sink."""

    def observe(fixed: Callable[[], Any], inputs: DrawnInputs) -> dict[str, Any]:
        sink = Recorder()
        sent = sink.sent  # the driver's own list: the answer may rebind the recorder's attribute, not this
        with ExitStack() as stack:
            stack.enter_context(standing_in(fixed, inputs_name, inputs))
            stack.enter_context(standing_in(fixed, sink_name, sink))
            found = [fixed() for _ in range(calls)]
        return {"returned": _result(found[-1]), f"sent to {sink_name}": sent}

    return observe


def failure_driver(providers: tuple[Callable[..., Any], ...], *,
                   _witnessed: Callable[..., dict] = witnessed_failure) -> Callable[..., dict]:
    """A driver for ``broken()``: what it raised and the evidence of where from. (Its helpers are
    bound when this module is imported: rebinding the modules' names later changes nothing.) An
    error raised by hand differs from the reference first in the fact that says so."""

    def observe(broken: Callable[[], Any]) -> dict[str, Any]:
        found = _witnessed(broken, providers)
        return {name: found[name] for name in
                ("raised by a raise statement written in the answer", "raised", "raised by a backward it called",
                 "a saved tensor is stale with that message")}

    return observe


def alias_driver(providers: tuple[Callable[..., Any], ...], *,
                 _witnessed: Callable[..., dict] = witnessed_failure) -> Callable[..., dict]:
    """A driver for the alias of ``broken()``'s failure: whether the in-place writes that make it
    reached tensors of the graph through an alias (a view, or a ``detach()``), none the tensor
    itself — which the message does not tell (observed only when the mechanism raised it)."""

    def observe(broken: Callable[[], Any]) -> dict[str, Any]:
        found = _witnessed(broken, providers)
        real = found["raised by a backward it called"] and found["a saved tensor is stale with that message"]
        return {"its writes went through an alias": found["written through an alias"] if real
                else "its failure was not raised by a backward it called"}

    return observe


def reduction_driver(providers: tuple[Callable[..., Any], ...], *, _witnessed: Callable[..., dict] = witnessed_failure,
                     _keeping: Callable[..., Any] = deletions_keeping) -> Callable[..., dict]:
    """A driver for the 1-minimality of ``broken()``: how many one-statement deletions still raise
    what it raises (counted only when the mechanism raised it), and which other functions made
    torch calls for it."""

    def observe(broken: Callable[[], Any]) -> dict[str, Any]:
        found = _witnessed(broken, providers)
        real = found["raised by a backward it called"] and found["a saved tensor is stale with that message"]
        kept = _keeping(broken) if real else "its failure was not raised by a backward it called"
        return {"deletions that keep its failure": kept,
                "torch calls made by other functions": found["torch calls made by other functions"]}

    return observe


def _named(function: Callable[[], Any], name: str) -> Callable[[], Any]:
    """``function`` under the learner's name, as a test sees it."""

    def call():
        return function()

    call.__name__ = call.__qualname__ = name
    return call


# --------------------------------------------------------------------------- capstone-fingerprint
class Code:
    """A grader-owned function that fails (or not) as its description says."""

    def __init__(self, description: str, body: Callable[[], Any], size: int) -> None:
        self.description, self.body, self.size = description, body, size

    def __call__(self) -> Any:
        return self.body()

    def layout_size(self) -> int:
        return self.size


def saved_output_failure(draw: Draw) -> tuple[Code]:
    op = draw.choice(("exp", "tanh", "sigmoid"))
    shape = draw.shape(draw.sized(1, 3), 2, 5)

    def fails() -> None:
        x = torch.randn(shape).requires_grad_()
        y = getattr(x, op)()
        y.mul_(2)
        y.sum().backward()

    return (Code(f"fn writes in place to the output {op} saved, of shape {shape}", fails, len(shape)),)


def view_failure(draw: Draw) -> tuple[Code]:
    size = draw.sized(3, 8)

    def fails() -> None:
        x = torch.randn(size, requires_grad=True)
        a = x * 1
        loss = a.pow(2).sum()
        a[1:].add_(1)
        loss.backward()

    return (Code(f"fn writes in place through a view of a tensor pow saved, of size {size}", fails, size),)


def leaf_failure(draw: Draw) -> tuple[Code]:
    size = draw.sized(2, 6)

    def fails() -> None:
        torch.zeros(size, requires_grad=True).add_(1)

    return (Code(f"fn writes in place to a leaf of size {size} that requires grad", fails, size),)


def shape_failure(draw: Draw) -> tuple[Code]:
    rows, inner, other = draw.sized(2, 5), draw.integer(2, 5), draw.integer(6, 9)

    def fails() -> None:
        torch.ones(rows, inner) @ torch.ones(other, rows)

    return (Code(f"fn multiplies a ({rows}, {inner}) by a ({other}, {rows}) matrix", fails, rows),)


def python_failure(draw: Draw) -> tuple[Code]:
    rate = -draw.integer(1, 9) / 10

    def fails() -> None:
        raise ValueError(f"learning rate {rate} must be positive. Hint: check the schedule")

    return (Code("fn raises a ValueError of its own, with a hint", fails, 1),)


def key_failure(draw: Draw) -> tuple[Code]:
    layer = draw.integer(1, 9)
    name = f"layer{layer}.{draw.choice(('weight', 'bias'))}"

    def fails() -> None:
        state = {"layer0.weight": torch.ones(2, 2), "layer0.bias": torch.zeros(2)}
        state[name]  # noqa: B018 - the lookup is the failure

    return (Code(f"fn looks up {name!r} in a dict of weights that lacks it (a KeyError's message quotes "
                 "its key)", fails, layer),)


def arguments_failure(draw: Draw) -> tuple[Code]:
    """Errors made with more than one argument: their message is not their first argument."""
    kind = draw.choice(("decode", "os", "value"))
    step = draw.sized(1, 9)
    if kind == "decode":
        data = bytes([0x80 + step, 0x41])

        def fails() -> None:
            data.decode("utf-8")

        return (Code(f"fn decodes the bytes {data!r} as UTF-8 (a UnicodeDecodeError, made of five arguments)",
                     fails, step),)
    if kind == "os":
        path = f"checkpoints/step-{step}.pt"

        def fails() -> None:
            raise OSError(2, "No such file or directory", path)

        return (Code(f"fn raises OSError(2, 'No such file or directory', {path!r})", fails, step),)
    rate = -step / 10

    def fails() -> None:
        raise ValueError("learning rate must be positive", rate)

    return (Code(f"fn raises ValueError('learning rate must be positive', {rate})", fails, step),)


def multiline_failure(draw: Draw) -> tuple[Code]:
    """Errors whose message runs over several lines (the hint, if any, on a later one)."""
    size = draw.sized(2, 6)
    where = draw.integer(0, size - 1)
    if draw.pick((True, False)):  # the search draws both kinds in every run
        def fails() -> None:
            expected = torch.zeros(size)
            expected[where] = 1.0
            torch.testing.assert_close(torch.zeros(size), expected)

        return (Code(f"fn compares two tensors of size {size} that differ at index {where} with "
                     "torch.testing.assert_close (its message runs over several lines)", fails, size),)

    def fails() -> None:
        raise RuntimeError(f"batch {where} of {size} holds a NaN\nafter step {size + where}."
                           " Hint: lower the learning rate")

    return (Code(f"fn raises a RuntimeError whose message runs over two lines, a hint on the second "
                 f"(batch {where} of {size})", fails, size),)


def no_failure(draw: Draw) -> tuple[Code]:
    size = draw.sized(2, 6)

    def passes() -> torch.Tensor:
        x = torch.randn(size, requires_grad=True)
        x.exp().sum().backward()
        return x.grad

    return (Code(f"fn runs a backward of size {size} and returns", passes, size),)


def _show_code(inputs: tuple) -> str:
    return inputs[0].description


fingerprint = exercise("capstone-fingerprint", "fingerprint", show=_show_code,
                       anchors=(saved_output_failure, no_failure))
FINGERPRINT_CASES = {
    # name: (family, hidden)
    "saved-output": (saved_output_failure, False),
    "no-error": (no_failure, False),
    "leaf": (leaf_failure, False),
    "view-of-saved-input": (view_failure, True),
    "shape-mismatch": (shape_failure, True),
    "python-error": (python_failure, True),
    "key-error": (key_failure, True),
    "several-arguments": (arguments_failure, True),
    "multi-line": (multiline_failure, True),
}
for _name, (_family, _hidden) in FINGERPRINT_CASES.items():
    fingerprint.case(_name, "fingerprint(fn)", _family, hidden=_hidden, search=_family, tries=3)


# --------------------------------------------------------------------------- capstone-regression
observe_broken = failure_driver(PROVIDERS)
observe_alias = alias_driver(PROVIDERS)
observe_reduction = reduction_driver(PROVIDERS)
observe_fixed = fixed_driver("capstone_inputs", "send_to_dashboard")
observe_fixed_twice = fixed_driver("capstone_inputs", "send_to_dashboard", calls=2)


def _drawn(draw: Draw) -> tuple[DrawnInputs]:
    return (DrawnInputs(draw),)


def _show_drawn(inputs: tuple) -> str:
    return "w and x drawn for this check, of the fragment's shapes"


def reduce_and_repair(declared: Any, points: dict[str, int] | None = None, broken: str = "broken",
                      fixed: str = "fixed") -> None:
    """Declare the checks of a reduction and a repair of a fragment whose failure is a write through an
    alias of a saved tensor: the functions the learner's cell names ``broken`` and ``fixed`` (the
    answer's keys); each check is worth ``points[name]``, else 1."""
    worth = {"broken-minimal": 2, **(points or {})}
    inputs = {"show": lambda inputs: "the fragment's inputs"}
    declared.judged_when_graded("broken-fails", f"{broken}()", tuple, subject=broken, call=observe_broken,
                                points=worth.get("broken-fails", 1), **inputs)
    # The fragment's failure is a write through an alias of the saved tensor: a reduction that writes
    # that tensor itself fails with the same message, and is another bug.
    declared.judged_when_graded("broken-alias", f"the in-place writes of {broken}()", tuple, subject=broken,
                                call=observe_alias, points=worth.get("broken-alias", 1), **inputs)
    declared.judged_when_graded("broken-minimal", f"each one-statement deletion of {broken}()", tuple,
                                subject=broken, call=observe_reduction, points=worth["broken-minimal"], **inputs)
    declared.case("fixed-gradient", f"{fixed}()", _drawn, subject=fixed, call=observe_fixed, show=_show_drawn,
                  points=worth.get("fixed-gradient", 1))
    declared.case("fixed-twice", f"{fixed}(), called twice,", _drawn, subject=fixed, call=observe_fixed_twice,
                  show=_show_drawn, hidden=True, points=worth.get("fixed-twice", 1))
    declared.case("fixed-other-inputs", f"{fixed}()", _drawn, subject=fixed, call=observe_fixed,
                  show=_show_drawn, hidden=True, points=worth.get("fixed-other-inputs", 1))


# The test cells pass both functions: grade("capstone-regression", {"broken": broken, "fixed": fixed}).
regression = exercise("capstone-regression", '{"broken": broken, "fixed": fixed}', returns="observation",
                      agree="close")
reduce_and_repair(regression)

# --------------------------------------------------------------------------- capstone-regression-test
# The visible checks run the test on the learner's own pair and on a mutant made of it: feedback
# that needs no reference (no points: a test can tell its own functions apart by identity). The
# hidden checks, which decide the grade, run it on the grader's correct pairs and mutants, which
# live with the keys (``TRIALS`` of ``answer_key.capstone``) and reach a test only in a run of
# their own (:mod:`autograder.engine.trials`).
def _no_longer_raising(broken: Callable[[], Any], fixed: Callable[[], Any]) -> tuple[Callable, Callable]:
    return _named(lambda: None, "broken"), fixed


def _another_gradient(broken: Callable[[], Any], fixed: Callable[[], Any]) -> tuple[Callable, Callable]:
    return broken, _named(lambda: fixed() * 2, "fixed")


def own_pair_driver(mutate: Callable[..., tuple[Callable, Callable]],
                    pick: Callable[[Any], Any] = lambda answer: answer, *,
                    _passes: Callable[..., bool] = passes_with) -> Callable:
    """A driver for ``test_regression()`` (read from the answer by ``pick``): its verdict on the
    learner's own ``broken`` and ``fixed``, and on a mutant ``mutate`` makes of them."""

    def observe(answer: Any) -> dict[str, Any]:
        test = pick(answer)
        namespace = test.__globals__
        mine = (_named(namespace.get("broken"), "broken"), _named(namespace.get("fixed"), "fixed"))
        return {"passes on your pair": _passes(test, *mine), "passes on the mutant": _passes(test, *mutate(*mine))}

    return observe


#: The mutants a test must fail on (each check runs it on both correct pairs too), by name.
MUTANTS = {
    "broken-no-longer-raises": "test_regression() when broken() no longer raises",
    "broken-raises-another-error": "test_regression() when broken() raises another error",
    "broken-another-tensor": "test_regression() when broken() fails on another tensor",
    "broken-another-version": "test_regression() when broken() fails on the same tensor at another version",
    "broken-another-shape": "test_regression() when broken() fails on the same operation's output, of another shape",
    "fixed-through-data": "test_regression() when fixed() silences the write through .data",
    "fixed-drops-a-loss-term": "test_regression() when fixed() drops a term of the loss (its gradient a little off)",
}
CORRECT = ("correct-one", "correct-two")


def mutation_cases(declared: Any, module: str, pick: Callable[[Any], Any] = lambda answer: answer,
                   prefix: str = "", points: dict[str, int] | None = None, **fields: Any) -> None:
    """Declare one hidden trial case per mutant (worth ``points[name]``, else 1): the test's verdict
    on the correct pairs and on it."""
    for name, probe in MUTANTS.items():
        trial = Trial(CORRECT, name)
        declared.case(f"{prefix}{name}", probe, tuple, call=trial_driver(trial, module, pick), trial=trial,
                      hidden=True, points=(points or {}).get(name, 1), show=lambda inputs: "the grader's pairs",
                      **fields)


regression_test = exercise("capstone-regression-test", "test_regression", returns="observation")
regression_test.case("visible-broken-no-longer-raises", "test_regression(), then when broken() no longer raises",
                     tuple, call=own_pair_driver(_no_longer_raising), points=0,
                     show=lambda inputs: "your broken() and fixed()")
regression_test.case("visible-fixed-another-gradient", "test_regression(), then when fixed() returns twice "
                     "its gradient", tuple, call=own_pair_driver(_another_gradient), points=0,
                     show=lambda inputs: "your broken() and fixed()")
# A test that misses a broken() that no longer raises keeps nothing of the failure, and one that
# misses a fixed() silenced through .data nothing of the repair: those two weigh twice the others.
mutation_cases(regression_test, __name__, points={"broken-no-longer-raises": 2, "fixed-through-data": 2})


# --------------------------------------------------------------------------- capstone-second-failure
# A second fragment, which the page does not work through: its helper writes, ten elements at a
# time, through slices of a reshape of the output sigmoid saved. Finding that alias, keeping the
# number of writes the message's version counts, and inlining the helper are the transfer.
second_failure = exercise("capstone-second-failure", '{"gated_broken": gated_broken, "gated_fixed": gated_fixed}',
                          returns="observation", agree="close")
reduce_and_repair(second_failure, points={"broken-fails": 2, "broken-alias": 2, "fixed-other-inputs": 2},
                  broken="gated_broken", fixed="gated_fixed")


# --------------------------------------------------------------------------- capstone-selftest
SELFTEST_QUESTIONS = {
    "q1": ("A reduction ends with torch.autograd.grad(loss, w) instead of loss.backward(): does it fail "
           "as the fragment does?", "bool"),
    "q2": ("The fragment's dashboard lines become dashboard = hidden[:, 4:] * 100: does the fragment "
           "still fail?", "bool"),
    "q3": ("The dashboard is scaled by hidden[:, 4:].mul_(10).mul_(10) instead: which version does the "
           "error's message say the saved tensor is at?", "int"),
    "q4": ("Does pytest.raises(RuntimeError, match='output 0 of Tanh') pass when broken() writes "
           "hidden[:, 4:] twice before backward?", "bool"),
}
selftest("capstone-selftest", SELFTEST_QUESTIONS)

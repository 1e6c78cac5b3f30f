"""The key of Chapter 7, "Keep a failure as a regression test".

Each reference and each model is an answer as a learner writes it, run through the chapter's
drivers (``autograder.chapters.capstone``). The functions here read ``capstone_inputs``, ``readout`` and
``send_to_dashboard`` as the notebook's do, so the drivers' stand-ins reach them the same way;
a model of a test reads ``broken`` and ``fixed`` when it runs.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
import torch
import torch.nn.functional as F

from answer_key.keys import Model, key
from autograder.chapters.capstone import TARGETS, capstone_inputs, readout, send_to_dashboard

__all__ = ["capstone_inputs", "readout", "send_to_dashboard"]


# --------------------------------------------------------------------------- capstone-fingerprint
def fingerprint(fn):
    try:
        fn()
    except Exception as err:  # noqa: BLE001 - every failure has a fingerprint
        return type(err).__name__, str(err).split(" Hint:")[0]
    return None


def _keeps_hint(fn):
    try:
        fn()
    except Exception as err:  # noqa: BLE001
        return type(err).__name__, str(err)
    return None


def _runtime_only(fn):
    try:
        fn()
    except RuntimeError as err:
        return type(err).__name__, str(err).split(" Hint:")[0]
    return None


def _class_not_name(fn):
    try:
        fn()
    except Exception as err:  # noqa: BLE001
        return str(type(err)), str(err).split(" Hint:")[0]
    return None


def _empty_when_passing(fn):
    try:
        fn()
    except Exception as err:  # noqa: BLE001
        return type(err).__name__, str(err).split(" Hint:")[0]
    return ("", "")


def _listed(fn):
    found = fingerprint(fn)
    return None if found is None else list(found)


def _repr(fn):
    try:
        fn()
    except Exception as err:  # noqa: BLE001
        return type(err).__name__, repr(err).split(" Hint:")[0]
    return None


def _first_argument(fn):
    try:
        fn()
    except Exception as err:  # noqa: BLE001
        return type(err).__name__, err.args[0].partition(" Hint:")[0]
    return None


def _first_line(fn):
    try:
        fn()
    except Exception as err:  # noqa: BLE001
        message = str(err)
        return type(err).__name__, (message.splitlines()[0] if message else "").partition(" Hint:")[0]
    return None


key("capstone-fingerprint", fingerprint, models=[
    Model("keeps-hint", _keeps_hint, "torch's hint belonged to the failure's fingerprint."),
    Model("runtime-only", _runtime_only, "every failure worth a fingerprint were a RuntimeError."),
    Model("class-not-name", _class_not_name, "the exception's class, printed, were its type name."),
    Model("empty-when-passing", _empty_when_passing, "code that does not fail had a fingerprint too."),
    Model("list", _listed, "a fingerprint could be a list."),
    Model("repr", _repr, "the error's repr were its message."),
    Model("first-argument", _first_argument, "the first argument the error was made with were its message."),
    Model("first-line", _first_line, "a message ended with its first line."),
])


# --------------------------------------------------------------------------- capstone-regression
def broken() -> None:
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    hidden[:, 4:].mul_(100)
    hidden.sum().backward()


def fixed() -> torch.Tensor:
    w, x = capstone_inputs()
    targets = torch.tensor(TARGETS)
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    loss = F.cross_entropy(logits, targets) + 1e-3 * w.pow(2).sum()
    confidence = logits.detach().softmax(dim=1).amax(dim=1)
    confidence.mul_(100)
    dashboard = hidden[:, 4:].detach().clone()
    dashboard.mul_(100)
    send_to_dashboard(confidence, dashboard)
    loss.backward()
    return w.grad


def _broken_reduced_away() -> None:
    w, x = capstone_inputs()
    hidden = (x @ w) * 2.0
    hidden[:, 4:].mul_(100)
    hidden.sum().backward()


def _broken_leaf() -> None:
    w, x = capstone_inputs()
    w[:, 4:].mul_(100)


def _broken_without_alias() -> None:
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    hidden.mul_(100)
    hidden.sum().backward()


def _broken_two_writes() -> None:
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    hidden[:, 4:].mul_(10)
    hidden[:, 4:].mul_(10)
    hidden.sum().backward()


def _failure_message(reduction: Any) -> str:
    try:
        reduction()
    except RuntimeError as err:
        return str(err)
    raise AssertionError("the reference reduction must fail")


_FRAGMENT_MESSAGE = _failure_message(broken)


def _broken_hand_raised() -> None:
    raise RuntimeError(_FRAGMENT_MESSAGE)


def _broken_not_minimal() -> None:
    w, x = capstone_inputs()
    targets = torch.tensor(TARGETS)
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    loss = F.cross_entropy(logits, targets) + 1e-3 * w.pow(2).sum()
    confidence = logits.detach().softmax(dim=1).amax(dim=1)
    confidence.mul_(100)
    dashboard = hidden[:, 4:]
    dashboard.mul_(100)
    send_to_dashboard(confidence, dashboard)
    loss.backward()


def training_fragment() -> torch.Tensor:
    """The chapter's fragment, as a learner's helper that a reduction calls."""
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    loss = F.cross_entropy(hidden @ readout(), torch.tensor(TARGETS)) + 1e-3 * w.pow(2).sum()
    dashboard = hidden[:, 4:]
    dashboard.mul_(100)
    loss.backward()
    return w.grad


def _broken_calls_helper() -> None:
    training_fragment()


def _fixed_through_data() -> torch.Tensor:
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    loss = F.cross_entropy(logits, torch.tensor(TARGETS)) + 1e-3 * w.pow(2).sum()
    confidence = logits.detach().softmax(dim=1).amax(dim=1) * 100
    dashboard = hidden.data[:, 4:]
    dashboard.mul_(100)
    send_to_dashboard(confidence, dashboard)
    loss.backward()
    return w.grad


def _fixed_detached() -> torch.Tensor:
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    loss = F.cross_entropy(logits, torch.tensor(TARGETS)) + 1e-3 * w.pow(2).sum()
    confidence = logits.detach().softmax(dim=1).amax(dim=1) * 100
    dashboard = hidden[:, 4:].detach()
    dashboard.mul_(100)
    send_to_dashboard(confidence, dashboard)
    loss.backward()
    return w.grad


def _fixed_without_dashboard() -> torch.Tensor:
    w, x = capstone_inputs()
    loss = F.cross_entropy((x @ w).tanh() @ readout(), torch.tensor(TARGETS)) + 1e-3 * w.pow(2).sum()
    loss.backward()
    return w.grad


def _pair(**replaced: Any) -> dict[str, Any]:
    return {"broken": broken, "fixed": fixed, **replaced}


key("capstone-regression", _pair(), models=[
    Model("reduced-away", _pair(broken=_broken_reduced_away),
          "a reduction that no longer fails still kept the failure."),
    Model("leaf-error", _pair(broken=_broken_leaf),
          "the in-place write to the leaf w, refused at once, were the failure backward() raises."),
    Model("no-alias", _pair(broken=_broken_without_alias),
          "the view the fragment writes through could go from the reduction, as long as the message stayed the same."),
    Model("another-version", _pair(broken=_broken_two_writes),
          "any write to the saved output kept the failure, whatever version the message names."),
    Model("hand-raised", _pair(broken=_broken_hand_raised),
          "an error raised by a statement of its own were the failure torch's backward raises."),
    Model("not-minimal", _pair(broken=_broken_not_minimal),
          "statements the failure does not need belonged in the reduction."),
    Model("calls-helper", _pair(broken=_broken_calls_helper),
          "a call to a function that fails could stand for the statements that fail."),
    Model("silenced", _pair(fixed=_fixed_through_data),
          "a write through .data changed the dashboard without changing the gradient."),
    Model("still-raises", _pair(fixed=_fixed_detached),
          "a write to an alias of the output tanh saved, made before backward(), left that output alone."),
    Model("no-dashboard", _pair(fixed=_fixed_without_dashboard), "the dashboard could go from the repaired step."),
])


# --------------------------------------------------------------------------- capstone-regression-test
EXPECTED = (
    "one of the variables needed for gradient computation has been modified by an inplace operation: "
    "[torch.FloatTensor [5, 6]], which is output 0 of Tanh, is at version 1; expected version 0 instead."
)


def _intended() -> torch.Tensor:
    w, x = capstone_inputs()
    probs = torch.softmax(torch.tanh(x @ w) @ readout(), dim=1)
    nll = -probs[torch.arange(5), torch.tensor(TARGETS)].log().mean()
    (grad,) = torch.autograd.grad(nll + 1e-3 * w.pow(2).sum(), w)
    return grad


def test_regression() -> None:
    with pytest.raises(RuntimeError, match=re.escape(EXPECTED)):
        broken()  # noqa: F821 - the name stands for the pair the grader gives
    torch.testing.assert_close(fixed(), _intended())  # noqa: F821


def _asserts_nothing() -> None:
    pass


def _any_runtime_error() -> None:
    with pytest.raises(RuntimeError):
        broken()  # noqa: F821
    torch.testing.assert_close(fixed(), _intended())  # noqa: F821


def _version_counter_only() -> None:
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        broken()  # noqa: F821
    torch.testing.assert_close(fixed(), _intended())  # noqa: F821


def _operation_only() -> None:
    with pytest.raises(RuntimeError, match="output 0 of Tanh"):
        broken()  # noqa: F821
    torch.testing.assert_close(fixed(), _intended())  # noqa: F821


def _without_the_shape() -> None:
    with pytest.raises(RuntimeError, match=re.escape("output 0 of Tanh, is at version 1")):
        broken()  # noqa: F821
    torch.testing.assert_close(fixed(), _intended())  # noqa: F821


def _loose_tolerance() -> None:
    with pytest.raises(RuntimeError, match=re.escape(EXPECTED)):
        broken()  # noqa: F821
    torch.testing.assert_close(fixed(), _intended(), atol=1e-2, rtol=0.0)  # noqa: F821


def _type_only() -> None:
    with pytest.raises(RuntimeError, match=re.escape(EXPECTED)):
        broken()  # noqa: F821
    assert isinstance(fixed(), torch.Tensor) and fixed().shape == (4, 6)  # noqa: F821


def _fixed_only() -> None:
    torch.testing.assert_close(fixed(), _intended())  # noqa: F821


def _fails_on_correct_pairs() -> None:
    with pytest.raises(RuntimeError, match="output 0 of Exp"):  # another operation's fingerprint
        broken()  # noqa: F821


key("capstone-regression-test", test_regression, models=[
    Model("asserts-nothing", _asserts_nothing,
          "a test that passes whatever broken() and fixed() do could keep a failure."),
    Model("fixed-only", _fixed_only, "a regression test could leave broken() out."),
    Model("type-only", _type_only, "a tensor of the right shape from fixed() were the right gradient."),
    Model("any-runtime-error", _any_runtime_error, "any RuntimeError from broken() were the fragment's failure."),
    Model("any-version-error", _version_counter_only, "every version-counter error were the fragment's."),
    Model("no-shape", _without_the_shape,
          "the operation and the versions were the whole fingerprint, whatever shape the message gives."),
    Model("loose-tolerance", _loose_tolerance,
          "a gradient within 0.01 of the intended one were the intended gradient."),
    Model("operation-only", _operation_only,
          "the operation named in the message were the whole fingerprint, whatever the versions it gives."),
    # Failing on the correct pairs, it fails on everything the grader runs it on, as a test that
    # always fails does: the results say only that.
    Model("fails-on-correct-pairs", _fails_on_correct_pairs,
          "a regression test could fail on a correct broken() and fixed() too."),
])


# --------------------------------------------------------------------------- capstone-second-failure
def for_the_plot(gates: torch.Tensor) -> torch.Tensor:
    """The notebook's helper of the second fragment, as the learner reads it."""
    strip = gates.reshape(-1)
    for start in range(0, strip.numel(), 10):
        strip[start:start + 10].clamp_(0.1, 0.9)
    return strip


def gated_step() -> torch.Tensor:
    """The second fragment, as the notebook hands it over."""
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    loss = (gates @ readout()).pow(2).mean() + 1e-3 * w.pow(2).sum()
    send_to_dashboard(for_the_plot(gates))
    loss.backward()
    return w.grad


def gated_broken() -> None:
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    strip = gates.reshape(-1)
    for start in range(0, 30, 10):
        strip[start:start + 10].clamp_(0.1, 0.9)
    gates.sum().backward()


def gated_fixed() -> torch.Tensor:
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    loss = (gates @ readout()).pow(2).mean() + 1e-3 * w.pow(2).sum()
    send_to_dashboard(for_the_plot(gates.detach().clone()))
    loss.backward()
    return w.grad


def _gated_one_write() -> None:
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    gates.reshape(-1).clamp_(0.1, 0.9)
    gates.sum().backward()


def _gated_changing_writes_only() -> None:
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    strip = gates.reshape(-1)
    strip[0:10].clamp_(0.1, 0.9)  # on the fragment's inputs the middle ten clip nothing
    strip[20:30].clamp_(0.1, 0.9)
    gates.sum().backward()


def _gated_without_alias() -> None:
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    for _ in range(3):
        gates.clamp_(0.1, 0.9)
    gates.sum().backward()


def _gated_calls_helper() -> None:
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    for_the_plot(gates)
    gates.sum().backward()


def _gated_not_minimal() -> None:
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    loss = (gates @ readout()).pow(2).mean() + 1e-3 * w.pow(2).sum()
    strip = gates.reshape(-1)
    for start in range(0, 30, 10):
        strip[start:start + 10].clamp_(0.1, 0.9)
    send_to_dashboard(strip)
    loss.backward()


def _gated_reduced_away() -> None:
    w, x = capstone_inputs()
    gates = x @ w
    strip = gates.reshape(-1)
    for start in range(0, 30, 10):
        strip[start:start + 10].clamp_(0.1, 0.9)
    gates.sum().backward()


_GATED_MESSAGE = _failure_message(gated_broken)


def _gated_hand_raised() -> None:
    raise RuntimeError(_GATED_MESSAGE)


def _gated_fixed_with(dashboard: Any) -> Any:
    """The repair, with the strip for the dashboard made from the gates by ``dashboard``."""

    def fixed() -> torch.Tensor:
        w, x = capstone_inputs()
        gates = torch.sigmoid(x @ w)
        loss = (gates @ readout()).pow(2).mean() + 1e-3 * w.pow(2).sum()
        strip = dashboard(gates)
        if strip is not None:
            send_to_dashboard(strip)
        loss.backward()
        return w.grad

    return fixed


def _gated(**replaced: Any) -> dict[str, Any]:
    return {"gated_broken": gated_broken, "gated_fixed": gated_fixed, **replaced}


key("capstone-second-failure", _gated(), models=[
    Model("one-write", _gated(gated_broken=_gated_one_write),
          "the helper's writes, ten pixels at a time, moved the saved output's version once in all."),
    Model("changing-writes-only", _gated(gated_broken=_gated_changing_writes_only),
          "only the writes that change a value moved the version the message names."),
    Model("no-alias", _gated(gated_broken=_gated_without_alias),
          "the writes could reach the saved output itself rather than through the strip, as long as the "
          "message stayed the same."),
    Model("calls-helper", _gated(gated_broken=_gated_calls_helper),
          "a call to the helper could stand for the statements of it that fail."),
    Model("not-minimal", _gated(gated_broken=_gated_not_minimal),
          "statements the failure does not need belonged in the reduction."),
    Model("reduced-away", _gated(gated_broken=_gated_reduced_away),
          "a reduction that no longer fails still kept the failure."),
    Model("hand-raised", _gated(gated_broken=_gated_hand_raised),
          "an error raised by a statement of its own were the failure torch's backward raises."),
    Model("still-raises", _gated(gated_fixed=_gated_fixed_with(lambda gates: for_the_plot(gates.detach()))),
          "a strip that shares the gates' memory (as gates.detach() does) were a copy: its writes left the "
          "output sigmoid saved alone."),
    Model("silenced", _gated(gated_fixed=_gated_fixed_with(lambda gates: for_the_plot(gates.data))),
          "a write the version counter does not see (through .data) changed the dashboard without "
          "changing the gradient."),
    Model("two-dimensional-strip", _gated(gated_fixed=_gated_fixed_with(lambda gates: gates.detach().clamp(0.1, 0.9))),
          "the dashboard could be sent the gates clipped in their own shape, not the strip for_the_plot returns."),
    Model("unclipped", _gated(gated_fixed=_gated_fixed_with(lambda gates: gates.detach().reshape(-1))),
          "the dashboard could be sent the strip unclipped."),
    Model("no-dashboard", _gated(gated_fixed=_gated_fixed_with(lambda gates: None)),
          "the dashboard could go from the repaired step."),
])
# --------------------------------------------------------------------------- capstone-selftest
def _message(run) -> str | None:
    try:
        run()
    except RuntimeError as err:
        return str(err).split(" Hint:")[0]
    return None


def _fragment_with(write, backward=lambda loss, w: loss.backward()) -> str | None:
    def run() -> None:
        w, x = capstone_inputs()
        hidden = (x @ w).tanh()
        loss = F.cross_entropy(hidden @ readout(), torch.tensor(TARGETS)) + 1e-3 * w.pow(2).sum()
        write(hidden)
        backward(loss, w)

    return _message(run)


def _version_named(message: str) -> int:
    return int(re.search(r"is at version (\d+)", message).group(1))


def _loose_match_passes() -> bool:
    try:
        with pytest.raises(RuntimeError, match="output 0 of Tanh"):
            _broken_two_writes()
    except BaseException:  # noqa: BLE001 - pytest's Failed is a BaseException
        return False
    return True


def _selftest() -> dict[str, Any]:
    fragment = _fragment_with(lambda h: h[:, 4:].mul_(100))

    def times_hundred(h: torch.Tensor) -> None:
        h[:, 4:] * 100

    return {
        "q1": _fragment_with(lambda h: h[:, 4:].mul_(100), lambda loss, w: torch.autograd.grad(loss, w)) == fragment,
        "q2": _fragment_with(times_hundred) is not None,
        "q3": _version_named(_fragment_with(lambda h: h[:, 4:].mul_(10).mul_(10))),
        "q4": _loose_match_passes(),
    }


key("capstone-selftest", _selftest, values=True, models=[
    Model("grad-reads-nothing", {"q1": False}, "torch.autograd.grad left the saved tensors unread."),
    Model("out-of-place-writes", {"q2": True}, "an operator that returns a new tensor wrote into its input."),
    Model("version-per-statement", {"q3": 1}, "one statement moved the version once, however many writes it made."),
    Model("match-is-whole", {"q4": False}, "match= had to equal the whole message."),
])


# --------------------------------------------------------------------------- the grader's pairs
# Two correct pairs and the mutants of capstone-regression-test (:mod:`autograder.engine.trials`), as
# source: each runs in a job of its own, never labelled, in the namespace of the test it is given
# (a test that stands something in for the notebook's functions reaches them). They read the
# fragment's own inputs, and each fixed() sends the confidence and the dashboard units, as 4.2 asks
# of a repaired fragment.
_READS = "import torch\nfrom autograder.chapters.capstone import TARGETS, capstone_inputs, readout, send_to_dashboard\n"
_BROKEN_ONE = '''
def broken():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    hidden[:, 4:].mul_(100)
    hidden.sum().backward()
'''
_LOSS = '''
def _loss(w, x):
    logits = (x @ w).tanh() @ readout()
    return torch.nn.functional.cross_entropy(logits, torch.tensor(TARGETS)) + 1e-3 * w.pow(2).sum()
'''
_FIXED_ONE = _LOSS + '''
def fixed():
    w, x = capstone_inputs()
    loss = _loss(w, x)
    hidden = (x @ w).tanh().detach()
    send_to_dashboard((hidden @ readout()).softmax(dim=1).amax(dim=1) * 100, hidden[:, 4:] * 100)
    loss.backward()
    return w.grad
'''
TRIALS = {
    "correct-one": _READS + _BROKEN_ONE + _FIXED_ONE,
    "correct-two": _READS + _LOSS + '''
def broken():
    weights, batch = capstone_inputs()
    activations = torch.tanh(batch @ weights)
    activations.narrow(1, 4, 2).mul_(100)
    torch.autograd.grad(activations.mean(), weights)


def fixed():
    weights, batch = capstone_inputs()
    activations = torch.tanh(batch @ weights).detach()
    confidence = 100 * torch.softmax(activations @ readout(), dim=1).max(dim=1).values
    send_to_dashboard(confidence, activations.narrow(1, 4, 2).mul(100))
    (grad,) = torch.autograd.grad(_loss(weights, batch), weights)
    return grad
''',
    "broken-no-longer-raises": _READS + _FIXED_ONE + '''
def broken():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    hidden[:, 4:].clone().mul_(100)
    hidden.sum().backward()
''',
    "broken-raises-another-error": _READS + _FIXED_ONE + '''
def broken():
    w, _x = capstone_inputs()
    w[:, 4:].mul_(100)
''',
    "broken-another-tensor": _READS + _FIXED_ONE + '''
def broken():
    w, x = capstone_inputs()
    gate = (x @ w).sigmoid()
    gate[:, 4:].mul_(100)
    gate.sum().backward()
''',
    "broken-another-version": _READS + _FIXED_ONE + '''
def broken():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    hidden[:, 4:].mul_(10).mul_(10)
    hidden.sum().backward()
''',
    "broken-another-shape": _READS + _FIXED_ONE + '''
def broken():
    w, x = capstone_inputs()
    hidden = (x[:3] @ w).tanh()
    hidden[:, 4:].mul_(100)
    hidden.sum().backward()
''',
    "fixed-drops-a-loss-term": _READS + _BROKEN_ONE + '''
def fixed():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    loss = torch.nn.functional.cross_entropy(logits, torch.tensor(TARGETS))  # the weight decay dropped
    hidden = hidden.detach()
    send_to_dashboard(logits.detach().softmax(dim=1).amax(dim=1) * 100, hidden[:, 4:] * 100)
    loss.backward()
    return w.grad
''',
    "fixed-through-data": _READS + _BROKEN_ONE + '''
def fixed():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    loss = torch.nn.functional.cross_entropy(logits, torch.tensor(TARGETS)) + 1e-3 * w.pow(2).sum()
    confidence = logits.detach().softmax(dim=1).amax(dim=1) * 100
    hidden.data[:, 4:].mul_(100)
    send_to_dashboard(confidence, hidden[:, 4:].detach())
    loss.backward()
    return w.grad
''',
}

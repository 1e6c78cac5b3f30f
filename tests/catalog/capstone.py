"""Answers learners write for Chapter 7 — right, wrong and gaming — as answer-cell sources.

``WRONG`` answers name the misconception (a model of ``answer_key.capstone``) their messages must
name, or None where their results match no catalogued mistake; ``EXPLOITS`` try to earn points
without the answer: each must score no more than the untouched answer. The sources run after the
chapter's setup cell (``torch``, ``F``, ``pytest``, ``re``, ``capstone_inputs``, ``readout``,
``send_to_dashboard`` imported) and the fragment's cell (``training_fragment`` defined).
"""
from functools import cache
from pathlib import Path

from tests.catalog.always_equal import ALWAYS_EQUAL
from tests.catalog.lying import LIAR

PANEL = Path(__file__).parent.parent / "panel"


def panel_answer(grade_id: str, name: str) -> str:
    """An answer of the blind panel (``tests/panel/<grade id>/<name>``), kept as it was written."""
    return (PANEL / grade_id / name).read_text()


#: The chapter's locked cells that define the fragments an answer reduces (and may call).
FRAGMENTS = ("capstone-why-fragment", "capstone-gated-fragment")


@cache
def context(grade_id: str) -> str:
    """What an answer to ``grade_id`` runs after besides the setup cell, as in the notebook: the
    fragments' cells; a regression test, also the reference pair its visible check runs it on."""
    from tests.cases import student_edition_cells

    cells = student_edition_cells("capstone")
    fragments = "\n".join(cells[name] for name in FRAGMENTS)
    return fragments + ("\n" + RIGHT["capstone-regression"][0][1] if grade_id == "capstone-regression-test" else "")


# ----------------------------------------------------------------------------- capstone-fingerprint
FINGERPRINT = '''
def fingerprint(fn):
    try:
        fn()
    except Exception as err:
        return type(err).__name__, str(err).split(" Hint:")[0]
    return None
'''

FINGERPRINT_PARTITION = '''
def fingerprint(fn):
    try:
        fn()
    except Exception as err:  # any failure, not only RuntimeError
        message, _, _hint = str(err).partition(" Hint:")
        return (err.__class__.__name__, message.strip())
'''

FINGERPRINT_REGEX = '''
def fingerprint(fn):
    try:
        fn()
        return None
    except Exception as err:
        return (type(err).__name__, re.split(r"\\s*Hint:", str(err), maxsplit=1)[0])
'''

FINGERPRINT_WHOLE = '''
def fingerprint(fn):
    try:
        fn()
    except Exception as err:
        return type(err).__name__, str(err)
'''

FINGERPRINT_RUNTIME_ONLY = '''
def fingerprint(fn):
    try:
        fn()
    except RuntimeError as err:
        return type(err).__name__, str(err).split(" Hint:")[0]
'''

FINGERPRINT_CLASS = '''
def fingerprint(fn):
    try:
        fn()
    except Exception as err:
        return str(type(err)), str(err).split(" Hint:")[0]
'''

FINGERPRINT_EMPTY = '''
def fingerprint(fn):
    try:
        fn()
    except Exception as err:
        return type(err).__name__, str(err).split(" Hint:")[0]
    return ("", "")
'''

FINGERPRINT_LIST = '''
def fingerprint(fn):
    try:
        fn()
    except Exception as err:
        return [type(err).__name__, str(err).split(" Hint:")[0]]
'''

FINGERPRINT_FIRST_WORDS = '''
def fingerprint(fn):
    try:
        fn()
    except Exception as err:
        return type(err).__name__, str(err)[:60]
'''

FINGERPRINT_REPR = '''
def fingerprint(fn):
    try:
        fn()
    except Exception as err:
        return type(err).__name__, repr(err).split(" Hint:")[0]
'''

FINGERPRINT_FIRST_ARGUMENT = '''
def fingerprint(fn):
    try:
        fn()
    except Exception as err:
        return type(err).__name__, err.args[0].partition(" Hint:")[0]
    return None
'''

FINGERPRINT_FIRST_LINE = '''
def fingerprint(fn):
    try:
        fn()
    except Exception as err:
        first_line = str(err).splitlines()[0] if str(err) else ""
        return type(err).__name__, first_line.partition(" Hint:")[0]
    return None
'''

# ----------------------------------------------------------------------------- capstone-regression
BROKEN = '''
def broken():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    hidden[:, 4:].mul_(100)  # in place, through a view of the output tanh saved
    hidden.sum().backward()
'''

BROKEN_NAMED_VIEW = '''
def broken() -> None:
    """The fragment, reduced: a write through a view of tanh's saved output."""
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    dashboard = hidden[:, 4:]
    dashboard.mul_(100)
    torch.autograd.grad(hidden.sum(), w)
'''

BROKEN_NO_GRAD_VIEW = '''
def broken():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    with torch.no_grad():  # stops recording, not the version counter
        hidden[:, 4:].mul_(100)
    hidden.sum().backward()
'''

BROKEN_SLICE_ASSIGNED = '''
def broken():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    hidden[:, 4:] = hidden[:, 4:] * 100  # torch copies into the view hidden[:, 4:]
    hidden.sum().backward()
'''

BROKEN_WHOLE = '''
def broken():
    w, x = capstone_inputs()
    hidden = torch.tanh(x @ w)
    hidden *= 100
    hidden.mean().backward()
'''

FIXED = '''
def fixed() -> torch.Tensor:
    w, x = capstone_inputs()
    targets = torch.tensor([0, 2, 1, 3, 0])
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    loss = F.cross_entropy(logits, targets) + 1e-3 * w.pow(2).sum()
    confidence = logits.detach().softmax(dim=1).amax(dim=1)
    confidence.mul_(100)
    dashboard = hidden[:, 4:].detach().clone()  # a copy: tanh's output stays intact
    dashboard.mul_(100)
    send_to_dashboard(confidence, dashboard)
    loss.backward()
    return w.grad
'''

FIXED_OUT_OF_PLACE = '''
def fixed():
    w, x = capstone_inputs()
    hidden = torch.tanh(x @ w)
    logits = hidden @ readout()
    loss = F.cross_entropy(logits, torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * (w ** 2).sum()
    send_to_dashboard(logits.softmax(dim=1).amax(dim=1).detach() * 100,
                      hidden[:, 4:].detach() * 100)  # out of place: new tensors
    (grad,) = torch.autograd.grad(loss, w)
    return grad
'''

FIXED_AFTER_BACKWARD = '''
def fixed():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    nll = -logits.log_softmax(dim=1)[torch.arange(5), torch.tensor([0, 2, 1, 3, 0])].mean()
    (nll + 1e-3 * w.pow(2).sum()).backward()
    with torch.no_grad():
        confidence = logits.softmax(dim=1).amax(dim=1).mul_(100)
        hidden[:, 4:].mul_(100)  # after backward: nothing reads the saved output any more
    send_to_dashboard(confidence, hidden[:, 4:].detach())
    return w.grad
'''

BROKEN_NOT_MINIMAL = '''
def broken():
    w, x = capstone_inputs()
    targets = torch.tensor([0, 2, 1, 3, 0])
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    loss = F.cross_entropy(logits, targets) + 1e-3 * w.pow(2).sum()
    confidence = logits.detach().softmax(dim=1).amax(dim=1)
    confidence.mul_(100)
    dashboard = hidden[:, 4:]
    dashboard.mul_(100)
    send_to_dashboard(confidence, dashboard)
    loss.backward()
'''

BROKEN_DEAD_LOGGING = '''
def broken():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    confidence = hidden.detach().amax(dim=1)
    hidden[:, 4:].mul_(100)
    hidden.sum().backward()
'''

BROKEN_CALLS_FRAGMENT = '''
def broken():
    training_fragment()
'''

BROKEN_REDUCED_AWAY = '''
def broken():
    w, x = capstone_inputs()
    hidden = (x @ w) * 2.0  # saves nothing for backward
    hidden[:, 4:].mul_(100)
    hidden.sum().backward()
'''

MESSAGE = (
    "one of the variables needed for gradient computation has been modified by an inplace "
    "operation: [torch.FloatTensor [5, 6]], which is output 0 of Tanh, is at version 1; "
    "expected version 0 instead. Hint: enable anomaly detection to find the operation that "
    "failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
)

BROKEN_HAND_RAISED = f'''
def broken():
    raise RuntimeError({MESSAGE!r})  # the text copied from the page
'''

BROKEN_LEAF = '''
def broken():
    w, x = capstone_inputs()
    w[:, 4:].mul_(100)
'''

BROKEN_TWO_WRITES = '''
def broken():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    hidden[:, 4:].mul_(10)
    hidden[:, 4:].mul_(10)
    hidden.sum().backward()
'''

BROKEN_CAUGHT = '''
def broken():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    hidden[:, 4:].mul_(100)
    try:
        hidden.sum().backward()
    except RuntimeError as err:
        print("reproduced:", err)
'''

FIXED_DATA = '''
def fixed():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    loss = F.cross_entropy(logits, torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * w.pow(2).sum()
    confidence = logits.detach().softmax(dim=1).amax(dim=1) * 100
    dashboard = hidden.data[:, 4:]  # silences the version counter
    dashboard.mul_(100)
    send_to_dashboard(confidence, dashboard)
    loss.backward()
    return w.grad
'''

FIXED_DETACH = '''
def fixed():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    loss = F.cross_entropy(logits, torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * w.pow(2).sum()
    confidence = logits.detach().softmax(dim=1).amax(dim=1) * 100
    dashboard = hidden[:, 4:].detach()  # no ledger entry ... but the same page
    dashboard.mul_(100)
    send_to_dashboard(confidence, dashboard)
    loss.backward()
    return w.grad
'''

FIXED_NO_GRAD = '''
def fixed():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    logits = hidden @ readout()
    loss = F.cross_entropy(logits, torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * w.pow(2).sum()
    with torch.no_grad():
        confidence = logits.softmax(dim=1).amax(dim=1) * 100
        hidden[:, 4:].mul_(100)
    send_to_dashboard(confidence, hidden[:, 4:])
    loss.backward()
    return w.grad
'''

FIXED_WITHOUT_DASHBOARD = '''
def fixed():
    w, x = capstone_inputs()
    loss = F.cross_entropy((x @ w).tanh() @ readout(), torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * w.pow(2).sum()
    loss.backward()  # the dashboard lines went with the bug
    return w.grad
'''

FIXED_GLOBAL = '''
w, x = capstone_inputs()


def fixed():
    hidden = (x @ w).tanh()
    loss = F.cross_entropy(hidden @ readout(), torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * w.pow(2).sum()
    loss.backward()
    return w.grad
'''

# ----------------------------------------------------------------------------- capstone-regression-test
TEST = '''
def test_regression():
    expected = (
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [5, 6]], which is output 0 of Tanh, is at version 1; "
        "expected version 0 instead."
    )
    with pytest.raises(RuntimeError, match=re.escape(expected)):
        broken()
    w, x = capstone_inputs()
    probs = torch.softmax(torch.tanh(x @ w) @ readout(), dim=1)
    loss = -probs[torch.arange(5), torch.tensor([0, 2, 1, 3, 0])].log().mean() + 1e-3 * w.pow(2).sum()
    (intended,) = torch.autograd.grad(loss, w)
    torch.testing.assert_close(fixed(), intended)
'''

TEST_AGAINST_FRAGMENT = '''
def test_regression():
    def fingerprint_of(fn):
        try:
            fn()
        except Exception as err:
            return type(err).__name__, str(err).split(" Hint:")[0]

    assert fingerprint_of(broken) == fingerprint_of(training_fragment)
    assert fingerprint_of(broken)[0] == "RuntimeError"
    w, x = capstone_inputs()
    loss = F.cross_entropy((x @ w).tanh() @ readout(), torch.tensor([0, 2, 1, 3, 0]))
    loss = loss + 1e-3 * w.pow(2).sum()
    loss.backward()
    assert torch.allclose(fixed(), w.grad)
'''

TEST_EXCINFO = '''
def test_regression():
    with pytest.raises(RuntimeError) as caught:
        broken()
    message = str(caught.value)
    assert "modified by an inplace operation" in message
    assert "[torch.FloatTensor [5, 6]], which is output 0 of Tanh, is at version 1" in message
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    loss = F.cross_entropy(hidden @ readout(), torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * w.pow(2).sum()
    loss.backward()
    torch.testing.assert_close(fixed(), w.grad)
'''

TEST_NOTHING = '''
def test_regression():
    pass
'''

TEST_LOOSE_MATCH = '''
def test_regression():
    with pytest.raises(RuntimeError):
        broken()
    w, x = capstone_inputs()
    loss = F.cross_entropy((x @ w).tanh() @ readout(), torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * w.pow(2).sum()
    loss.backward()
    torch.testing.assert_close(fixed(), w.grad)
'''

TEST_VERSION_COUNTER_ONLY = '''
def test_regression():
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        broken()
    w, x = capstone_inputs()
    loss = F.cross_entropy((x @ w).tanh() @ readout(), torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * w.pow(2).sum()
    loss.backward()
    torch.testing.assert_close(fixed(), w.grad)
'''

# The operation's name alone: the same write made twice passes.
TEST_OPERATION_ONLY = TEST_VERSION_COUNTER_ONLY.replace('"modified by an inplace operation"', '"output 0 of Tanh"')

TEST_TYPE_ONLY = '''
def test_regression():
    expected = ("[torch.FloatTensor [5, 6]], which is output 0 of Tanh, is at version 1; "
                "expected version 0 instead.")
    with pytest.raises(RuntimeError, match=re.escape(expected)):
        broken()
    grad = fixed()
    assert isinstance(grad, torch.Tensor) and grad.shape == (4, 6)
'''

TEST_FIXED_ONLY = '''
def test_regression():
    w, x = capstone_inputs()
    loss = F.cross_entropy((x @ w).tanh() @ readout(), torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * w.pow(2).sum()
    loss.backward()
    torch.testing.assert_close(fixed(), w.grad)
'''

TEST_CATCHES_EVERYTHING = '''
def test_regression():
    try:
        broken()
    except Exception:
        pass
    assert fixed() is not None
'''

TEST_WRONG_EXPECTATION = '''
def test_regression():
    with pytest.raises(RuntimeError, match="output 0 of Exp"):
        broken()
'''

TEST_TRAINING_FRAGMENT = '''
def test_regression():
    with pytest.raises(RuntimeError, match=re.escape("output 0 of Tanh, is at version 1")):
        training_fragment()
    w, x = capstone_inputs()
    loss = F.cross_entropy((x @ w).tanh() @ readout(), torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * w.pow(2).sum()
    loss.backward()
    torch.testing.assert_close(fixed(), w.grad)
'''

# --------------------------------------------------------------------------- capstone-second-failure
GATED_MESSAGE = MESSAGE.replace("output 0 of Tanh, is at version 1", "output 0 of Sigmoid, is at version 3")

GATED_BROKEN = '''
def gated_broken():
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    strip = gates.reshape(-1)
    for start in range(0, 30, 10):
        strip[start:start + 10].clamp_(0.1, 0.9)
    gates.sum().backward()
'''

GATED_BROKEN_UNROLLED = '''
def gated_broken():
    w, x = capstone_inputs()
    gates = (x @ w).sigmoid()
    gates.view(30)[:10].clamp_(0.1, 0.9)
    gates.view(30)[10:20].clamp_(0.1, 0.9)
    gates.view(30)[20:].clamp_(0.1, 0.9)
    torch.autograd.grad(gates.sum(), w)
'''

GATED_BROKEN_THROUGH_DETACH = '''
def gated_broken():
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    strip = gates.detach().flatten()
    for piece in strip.split(10):
        piece.clamp_(0.1, 0.9)
    gates.sum().backward()
'''

GATED_BROKEN_ONE_WRITE = '''
def gated_broken():
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    gates.reshape(-1).clamp_(0.1, 0.9)  # the helper clips the strip: one write
    gates.sum().backward()
'''

GATED_BROKEN_DIRECT = '''
def gated_broken():
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    for _ in range(3):
        gates.clamp_(0.1, 0.9)
    gates.sum().backward()
'''

GATED_BROKEN_CALLS_HELPER = '''
def gated_broken():
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    for_the_plot(gates)
    gates.sum().backward()
'''

GATED_BROKEN_CALLS_FRAGMENT = '''
def gated_broken():
    gated_step()
'''

GATED_BROKEN_KEEPS_THE_LOSS = '''
def gated_broken():
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    loss = (gates @ readout()).pow(2).mean()
    strip = gates.reshape(-1)
    for start in range(0, 30, 10):
        strip[start:start + 10].clamp_(0.1, 0.9)
    loss.backward()
'''

GATED_BROKEN_SENDS_THE_STRIP = '''
def gated_broken():
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    strip = gates.reshape(-1)
    for start in range(0, 30, 10):
        strip[start:start + 10].clamp_(0.1, 0.9)
    send_to_dashboard(strip)
    gates.sum().backward()
'''

GATED_BROKEN_HAND_RAISED = f'''
def gated_broken():
    raise RuntimeError({GATED_MESSAGE!r})
'''

GATED_BROKEN_NO_SIGMOID = '''
def gated_broken():
    w, x = capstone_inputs()
    gates = x @ w
    strip = gates.reshape(-1)
    for start in range(0, 30, 10):
        strip[start:start + 10].clamp_(0.1, 0.9)
    gates.sum().backward()
'''


def gated_fixed(strip: str, sent: str = "send_to_dashboard(strip)") -> str:
    """A repair of ``gated_step`` whose strip for the dashboard is ``strip`` (of ``gates``)."""
    return f'''
def gated_fixed():
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    loss = (gates @ readout()).pow(2).mean() + 1e-3 * w.pow(2).sum()
    strip = {strip}
    {sent}
    loss.backward()
    return w.grad
'''


GATED_FIXED = gated_fixed("for_the_plot(gates.detach().clone())")
GATED_FIXED_IN_GRAPH_CLONE = gated_fixed("for_the_plot(gates.clone())")
GATED_FIXED_OUT_OF_PLACE = gated_fixed("gates.detach().reshape(-1).clamp(0.1, 0.9)")
GATED_FIXED_AFTER_BACKWARD = '''
def gated_fixed():
    w, x = capstone_inputs()
    gates = torch.sigmoid(x @ w)
    (gates @ readout()).pow(2).mean().add(1e-3 * w.pow(2).sum()).backward()
    send_to_dashboard(for_the_plot(gates))  # after backward: nothing reads the saved output again
    return w.grad
'''
GATED_FIXED_DETACH = gated_fixed("for_the_plot(gates.detach())")
GATED_FIXED_DATA = gated_fixed("for_the_plot(gates.data)")
GATED_FIXED_UNCLIPPED = gated_fixed("gates.detach().reshape(-1)")
GATED_FIXED_TWO_DIMENSIONS = gated_fixed("gates.detach().clamp(0.1, 0.9)")
GATED_FIXED_NO_DASHBOARD = gated_fixed("None", sent="pass")
UNANSWERED_GATED_FIXED = """
def gated_fixed():
    raise NotImplementedError()
"""


def for_the_second_failure(exploit: str) -> str:
    """An exploit of 4.2 turned on 4.4: the same trick, the second fragment's names and message."""
    return (exploit.replace(repr(MESSAGE), repr(GATED_MESSAGE)).replace(UNANSWERED_FIXED, UNANSWERED_GATED_FIXED)
            .replace("def broken():", "def gated_broken():").replace("training_fragment", "gated_step"))


RIGHT = {
    "capstone-fingerprint": [
        ("reference", FINGERPRINT),
        ("partition", FINGERPRINT_PARTITION),
        ("regex", FINGERPRINT_REGEX),
    ],
    "capstone-regression": [
        ("reference", BROKEN + "\n" + FIXED),
        ("named-view-out-of-place", BROKEN_NAMED_VIEW + "\n" + FIXED_OUT_OF_PLACE),
        ("no-grad-view-after-backward", BROKEN_NO_GRAD_VIEW + "\n" + FIXED_AFTER_BACKWARD),
        ("slice-assignment", BROKEN_SLICE_ASSIGNED + "\n" + FIXED),
    ],
    "capstone-regression-test": [
        ("reference", TEST),
        ("against-the-fragment", TEST_AGAINST_FRAGMENT),
        ("excinfo", TEST_EXCINFO),
        # The panel's right tests that an evaluation without the notebook's fragment and pair refused.
        *((name.removeprefix("right-").removesuffix(".py"), panel_answer("capstone-regression-test", name))
          for name in ("right-analytic-gradient.py", "right-cross-entropy-double-check.py",
                       "right-derived-fingerprint.py", "right-literal-autograd.py", "right-other-values.py",
                       "right-try-except-else.py")),
    ],
    "capstone-second-failure": [
        ("reference", GATED_BROKEN + GATED_FIXED),
        ("unrolled-in-graph-clone", GATED_BROKEN_UNROLLED + GATED_FIXED_IN_GRAPH_CLONE),
        ("through-detach-out-of-place", GATED_BROKEN_THROUGH_DETACH + GATED_FIXED_OUT_OF_PLACE),
        ("plot-after-backward", GATED_BROKEN + GATED_FIXED_AFTER_BACKWARD),
        ("keeps-the-loss", GATED_BROKEN_KEEPS_THE_LOSS + GATED_FIXED),  # 1-minimal: not the smallest
    ],
    "capstone-selftest": [
        ("literal", 'SELFTEST = {"q1": True, "q2": False, "q3": 2, "q4": True}'),
    ],
}

WRONG = {
    "capstone-fingerprint": [
        ("keeps-the-hint", FINGERPRINT_WHOLE, "keeps-hint"),
        ("runtime-error-only", FINGERPRINT_RUNTIME_ONLY, "runtime-only"),
        ("class-not-name", FINGERPRINT_CLASS, "class-not-name"),
        ("empty-when-passing", FINGERPRINT_EMPTY, "empty-when-passing"),
        ("list", FINGERPRINT_LIST, "list"),
        ("first-characters", FINGERPRINT_FIRST_WORDS, None),
        ("repr", FINGERPRINT_REPR, "repr"),
        ("first-argument", FINGERPRINT_FIRST_ARGUMENT, "first-argument"),
        ("first-line", FINGERPRINT_FIRST_LINE, "first-line"),
    ],
    "capstone-regression": [
        ("not-minimal", BROKEN_NOT_MINIMAL + "\n" + FIXED, "not-minimal"),
        ("dead-logging-kept", BROKEN_DEAD_LOGGING + "\n" + FIXED, None),
        ("calls-the-fragment", BROKEN_CALLS_FRAGMENT + "\n" + FIXED, "calls-helper"),
        ("reduced-away", BROKEN_REDUCED_AWAY + "\n" + FIXED, "reduced-away"),
        ("hand-raised", BROKEN_HAND_RAISED + "\n" + FIXED, "hand-raised"),
        ("leaf-error", BROKEN_LEAF + "\n" + FIXED, "leaf-error"),
        ("two-writes", BROKEN_TWO_WRITES + "\n" + FIXED, "another-version"),
        ("whole-tensor", BROKEN_WHOLE + "\n" + FIXED, "no-alias"),
        ("catches-its-error", BROKEN_CAUGHT + "\n" + FIXED, "reduced-away"),
        ("data-silences", BROKEN + "\n" + FIXED_DATA, "silenced"),
        ("detach-is-a-copy", BROKEN + "\n" + FIXED_DETACH, "still-raises"),
        ("no-grad", BROKEN + "\n" + FIXED_NO_GRAD, "still-raises"),
        ("global-leaf", BROKEN + "\n" + FIXED_GLOBAL, None),
        ("drops-the-dashboard", BROKEN + "\n" + FIXED_WITHOUT_DASHBOARD, "no-dashboard"),
    ],
    "capstone-regression-test": [
        ("asserts-nothing", TEST_NOTHING, "asserts-nothing"),
        ("any-runtime-error", TEST_LOOSE_MATCH, "any-runtime-error"),
        ("version-counter-only", TEST_VERSION_COUNTER_ONLY, "any-version-error"),
        ("operation-only", TEST_OPERATION_ONLY, "operation-only"),
        ("no-shape", TEST_OPERATION_ONLY.replace('match="output 0 of Tanh"',
                                                 'match="output 0 of Tanh, is at version 1"'), "no-shape"),
        ("loose-tolerance", TEST.replace("torch.testing.assert_close(fixed(), intended)",
                                         "torch.testing.assert_close(fixed(), intended, atol=1e-2, rtol=0.0)"),
         "loose-tolerance"),
        ("type-only", TEST_TYPE_ONLY, "type-only"),
        ("fixed-only", TEST_FIXED_ONLY, "fixed-only"),
        ("catches-everything", TEST_CATCHES_EVERYTHING, "asserts-nothing"),
        ("wrong-expectation", TEST_WRONG_EXPECTATION, "fails-on-correct-pairs"),
        ("tests-the-fragment", TEST_TRAINING_FRAGMENT, "fixed-only"),
    ],
    "capstone-second-failure": [
        ("one-write", GATED_BROKEN_ONE_WRITE + GATED_FIXED, "one-write"),
        ("writes-the-output-itself", GATED_BROKEN_DIRECT + GATED_FIXED, "no-alias"),
        ("calls-the-helper", GATED_BROKEN_CALLS_HELPER + GATED_FIXED, "calls-helper"),
        ("calls-the-fragment", GATED_BROKEN_CALLS_FRAGMENT + GATED_FIXED, None),
        ("sends-the-strip", GATED_BROKEN_SENDS_THE_STRIP + GATED_FIXED, "not-minimal"),
        ("hand-raised", GATED_BROKEN_HAND_RAISED + GATED_FIXED, "hand-raised"),
        ("no-sigmoid", GATED_BROKEN_NO_SIGMOID + GATED_FIXED, "reduced-away"),
        ("detach-is-a-copy", GATED_BROKEN + GATED_FIXED_DETACH, "still-raises"),
        ("data-silences", GATED_BROKEN + GATED_FIXED_DATA, "silenced"),
        ("unclipped", GATED_BROKEN + GATED_FIXED_UNCLIPPED, "unclipped"),
        ("two-dimensional-strip", GATED_BROKEN + GATED_FIXED_TWO_DIMENSIONS, "two-dimensional-strip"),
        ("drops-the-dashboard", GATED_BROKEN + GATED_FIXED_NO_DASHBOARD, "no-dashboard"),
    ],
    "capstone-selftest": [
        ("grad-reads-nothing", 'SELFTEST = {"q1": False, "q2": False, "q3": 2, "q4": True}', "grad-reads-nothing"),
        ("out-of-place-writes", 'SELFTEST = {"q1": True, "q2": True, "q3": 2, "q4": True}', "out-of-place-writes"),
        ("version-per-statement", 'SELFTEST = {"q1": True, "q2": False, "q3": 1, "q4": True}',
         "version-per-statement"),
        ("match-is-whole", 'SELFTEST = {"q1": True, "q2": False, "q3": 2, "q4": False}', "match-is-whole"),
    ],
}

UNANSWERED_FIXED = """
def fixed():
    raise NotImplementedError()
"""

# A hook on its result that raises the version counter's error during backward, through no saved
# tensor, under a mode left on that gives the result a node of the answer's whose saved tensor
# reads as stale with that message.
STALE_BY_HAND = LIAR + '''
class _Stale:
    next_functions = ()

    @property
    def _saved_result(self):
        raise RuntimeError(_MESSAGE)


def _stale(t):
    lie_on().tell(t, "grad_fn", _Stale())
    return t


def _refuse(grad):
    raise RuntimeError(_MESSAGE)


def broken():
    w, x = {inputs}()
    out = _stale(x @ w)
    out.register_hook(_refuse)
    out.sum().backward()


'''

EXPLOITS_OF_THE_REDUCTION = [
    ("rebinds-what-its-driver-reads",
     f"_MESSAGE = {MESSAGE!r}\n" + STALE_BY_HAND.replace("{inputs}", "capstone_inputs") + UNANSWERED_FIXED),
    ("torch-check", f"""
def broken():
    torch._check(False, lambda: {MESSAGE!r})
""" + UNANSWERED_FIXED),
    ("assert-async", f"""
def broken():
    torch._assert_async(torch.tensor(False), {MESSAGE!r})
""" + UNANSWERED_FIXED),
    ("rewritten-args", f"""
def broken():
    try:
        torch.zeros(3, requires_grad=True).add_(1)
    except RuntimeError as err:
        err.args = ({MESSAGE!r},)
        raise
""" + UNANSWERED_FIXED),
    ("generator-throw", f"""
def broken():
    def steps():
        yield
    running = steps()
    next(running)
    running.throw(RuntimeError({MESSAGE!r}))
""" + UNANSWERED_FIXED),
    ("compiled-as-torch", """
_code = compile(
    "def step():\\n"
    "    w, x = capstone_inputs()\\n"
    "    hidden = (x @ w).tanh()\\n"
    "    hidden[:, 4:].mul_(100)\\n"
    "    hidden.sum().backward()\\n",
    torch.nn.functional.__file__, "exec")
exec(_code, globals())


def broken():
    step()
""" + UNANSWERED_FIXED),
    ("dynamic-helper", """
def broken():
    globals()["training_fragment"]()
""" + UNANSWERED_FIXED),
    ("switches-off-the-witness", """
def broken():
    with torch._C.DisableTorchFunction():
        w, x = capstone_inputs()
        hidden = (x @ w).tanh()
        hidden[:, 4:].mul_(100)
        hidden.sum().backward()
""" + UNANSWERED_FIXED),
    ("rebinds-the-drivers", f"""
import autograder.chapters.capstone as checks
import autograder.engine.reduction as tools

forged = {{"raised": ["RuntimeError", {MESSAGE!r}], "raised by a backward it called": True,
          "a saved tensor is stale with that message": True, "torch calls made by other functions": []}}
tools.witnessed_failure = lambda *args, **kwargs: dict(forged)
tools.deletions_keeping = lambda *args, **kwargs: 0
checks.witnessed_failure = tools.witnessed_failure
checks.deletions_keeping = tools.deletions_keeping


def broken():
    raise RuntimeError({MESSAGE!r})
""" + UNANSWERED_FIXED),
]

EXPLOITS = {
    "capstone-selftest": [
        ("always-equal", ALWAYS_EQUAL + "SELFTEST = {'q1': YesInt(0), 'q2': YesInt(0), 'q3': YesInt(0), "
         "'q4': YesInt(0)}"),
    ],
    "capstone-fingerprint": [
        ("the-observer", "from autograder.engine.observe import raised_as_data\n\n\n"
                         "def fingerprint(fn):\n    try:\n        fn()\n    except Exception as err:\n"
                         "        return raised_as_data(err)\n"),
        ("the-chapter-tool", "from autograder.engine.reduction import outcome as fingerprint"),
        ("reads-the-frames", """
import sys


def fingerprint(fn):
    frame = sys._getframe(1)
    while frame is not None:
        for name in ("expected", "reference", "key"):
            if name in frame.f_locals:
                return frame.f_locals[name]
        frame = frame.f_back
    return None
"""),
    ],
    "capstone-regression": EXPLOITS_OF_THE_REDUCTION,
    # The second fragment is observed by the same drivers: the tricks that aim at them, not all again.
    "capstone-second-failure": [
        (label, for_the_second_failure(source)) for label, source in EXPLOITS_OF_THE_REDUCTION
        if label in ("rebinds-what-its-driver-reads", "dynamic-helper", "switches-off-the-witness",
                     "rebinds-the-drivers")
    ],
    "capstone-regression-test": [
        ("always-fails", "def test_regression():\n    assert False"),
        ("always-raises", "def test_regression():\n    raise RuntimeError('regression')"),
        ("identity-with-its-own-pair", """
def test_regression():
    def unwrapped(function):
        return function.__closure__[0].cell_contents if function.__closure__ else function

    assert unwrapped(broken).__module__ == unwrapped(fixed).__module__ == "__main__"
"""),
    ],
}

"""Answers learners write for Chapter 7, right and wrong, as answer-cell sources.

Each wrong answer names the misconception message its test cells must report. The sources run after
the chapter's setup cell (``torch``, ``F``, ``pytest``, ``re`` and ``capstone_inputs``, ``readout``
imported) and, for the regression test, after the fragment cell (``training_fragment`` defined).
"""

from autograder.capstone import (
    ACCUMULATES,
    CALLS_HELPER,
    DATA_WRITE,
    FAILS_ON_REFERENCE,
    HAND_RAISED,
    KEEPS_HINT,
    LEAF_ERROR,
    LETS_IT_THROUGH,
    MISSES_OTHER_ERROR,
    MISSES_OTHER_TENSOR,
    MISSES_SILENCE,
    MISSES_SILENCED_FIX,
    NO_ERROR,
    NOT_MINIMAL,
    NOT_NONE,
    OTHER_TENSOR,
    PAIR,
    STILL_RAISES,
    TYPE_NAME,
    WHOLE_MESSAGE,
)

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
    loss = F.cross_entropy(hidden @ readout(), targets) + 1e-3 * w.pow(2).sum()
    dashboard = hidden[:, 4:].detach().clone()  # a copy: tanh's output stays intact
    dashboard.mul_(100)
    loss.backward()
    return w.grad
'''

FIXED_OUT_OF_PLACE = '''
def fixed():
    w, x = capstone_inputs()
    hidden = torch.tanh(x @ w)
    loss = F.cross_entropy(hidden @ readout(), torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * (w ** 2).sum()
    dashboard = hidden[:, 4:] * 100  # out of place: a new tensor
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
        hidden[:, 4:].mul_(100)  # after backward: nothing reads the saved output any more
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

BROKEN_HAND_RAISED = '''
def broken():
    raise RuntimeError(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [5, 6]], which is output 0 of Tanh, is at version 1; "
        "expected version 0 instead."
    )
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
    loss = F.cross_entropy(hidden @ readout(), torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * w.pow(2).sum()
    hidden.data[:, 4:].mul_(100)  # silences the version counter
    loss.backward()
    return w.grad
'''

FIXED_DETACH = '''
def fixed():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    loss = F.cross_entropy(hidden @ readout(), torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * w.pow(2).sum()
    dashboard = hidden[:, 4:].detach()  # no ledger entry ... but the same page
    dashboard.mul_(100)
    loss.backward()
    return w.grad
'''

FIXED_NO_GRAD = '''
def fixed():
    w, x = capstone_inputs()
    hidden = (x @ w).tanh()
    loss = F.cross_entropy(hidden @ readout(), torch.tensor([0, 2, 1, 3, 0])) + 1e-3 * w.pow(2).sum()
    with torch.no_grad():
        hidden[:, 4:].mul_(100)
    loss.backward()
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

RIGHT = {
    "capstone-fingerprint": [
        ("reference", FINGERPRINT),
        ("partition", FINGERPRINT_PARTITION),
        ("regex", FINGERPRINT_REGEX),
    ],
    "capstone-regression": [
        ("reference", BROKEN + "\n" + FIXED),
        ("named-view-out-of-place", BROKEN_NAMED_VIEW + "\n" + FIXED_OUT_OF_PLACE),
        ("whole-tensor-after-backward", BROKEN_WHOLE + "\n" + FIXED_AFTER_BACKWARD),
    ],
    "capstone-regression-test": [
        ("reference", TEST),
        ("against-the-fragment", TEST_AGAINST_FRAGMENT),
        ("excinfo", TEST_EXCINFO),
    ],
    "capstone-selftest": [
        ("literal", 'SELFTEST = {"q1": False, "q2": True, "q3": False, "q4": True}'),
    ],
}

WRONG = {
    "capstone-fingerprint": [
        ("keeps-the-hint", FINGERPRINT_WHOLE, KEEPS_HINT),
        ("runtime-error-only", FINGERPRINT_RUNTIME_ONLY, LETS_IT_THROUGH),
        ("class-not-name", FINGERPRINT_CLASS, TYPE_NAME),
        ("empty-when-passing", FINGERPRINT_EMPTY, NOT_NONE),
        ("list", FINGERPRINT_LIST, PAIR),
        ("first-characters", FINGERPRINT_FIRST_WORDS, WHOLE_MESSAGE),
        ("repr", FINGERPRINT_REPR, WHOLE_MESSAGE),
    ],
    "capstone-regression": [
        ("not-minimal", BROKEN_NOT_MINIMAL + "\n" + FIXED, NOT_MINIMAL),
        ("dead-logging-kept", BROKEN_DEAD_LOGGING + "\n" + FIXED, NOT_MINIMAL),
        ("calls-the-fragment", BROKEN_CALLS_FRAGMENT + "\n" + FIXED, CALLS_HELPER),
        ("reduced-away", BROKEN_REDUCED_AWAY + "\n" + FIXED, NO_ERROR),
        ("hand-raised", BROKEN_HAND_RAISED + "\n" + FIXED, HAND_RAISED),
        ("leaf-error", BROKEN_LEAF + "\n" + FIXED, LEAF_ERROR),
        ("two-writes", BROKEN_TWO_WRITES + "\n" + FIXED, OTHER_TENSOR),
        ("catches-its-error", BROKEN_CAUGHT + "\n" + FIXED, NO_ERROR),
        ("data-silences", BROKEN + "\n" + FIXED_DATA, DATA_WRITE.split("{call}")[1].strip(": ")),
        ("detach-is-a-copy", BROKEN + "\n" + FIXED_DETACH, STILL_RAISES),
        ("no-grad", BROKEN + "\n" + FIXED_NO_GRAD, STILL_RAISES),
        ("global-leaf", BROKEN + "\n" + FIXED_GLOBAL, ACCUMULATES),
    ],
    "capstone-regression-test": [
        ("asserts-nothing", TEST_NOTHING, MISSES_SILENCE),
        ("any-runtime-error", TEST_LOOSE_MATCH, MISSES_OTHER_ERROR),
        ("version-counter-only", TEST_VERSION_COUNTER_ONLY, MISSES_OTHER_TENSOR),
        ("type-only", TEST_TYPE_ONLY, MISSES_SILENCED_FIX),
        ("fixed-only", TEST_FIXED_ONLY, MISSES_SILENCE),
        ("catches-everything", TEST_CATCHES_EVERYTHING, MISSES_SILENCE),
        ("wrong-expectation", TEST_WRONG_EXPECTATION, FAILS_ON_REFERENCE),
        ("tests-the-fragment", TEST_TRAINING_FRAGMENT, MISSES_SILENCE),
    ],
    "capstone-selftest": [
        ("detach-copies", 'SELFTEST = {"q1": False, "q2": False, "q3": False, "q4": True}',
         "detach() shares storage and the version counter"),
    ],
}

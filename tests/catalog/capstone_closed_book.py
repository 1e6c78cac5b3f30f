"""Answers learners write for the closed-book companion of Chapter 7 — right, wrong and gaming.

Each source is a whole answer cell (``broken``, ``fixed`` and ``test_regression``); it runs after
the companion's setup cell and its fragment cell (``torch``, ``pytest``, ``re``,
``closed_book_inputs``, ``log`` and ``fragment`` defined). ``WRONG`` answers name the
misconception (a model of ``answer_key.capstone_closed_book``) their feedback must name, or None;
``EXPLOITS`` must score no more than the untouched answer.
"""

from functools import cache

from tests.catalog.capstone import STALE_BY_HAND


@cache
def context(grade_id: str) -> str:
    """What an answer runs after besides the setup cell, as in the notebook: the fragment's cell."""
    from tests.cases import student_edition_cells

    return student_edition_cells("capstone-closed-book")["capstone-closed-book-fragment"]


BROKEN = '''
def broken():
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.pow(2).sum()  # pow saves its input, scores
    scores.detach().clamp_(min=0.0)  # detach shares the version counter
    loss.backward()
'''

BROKEN_ABS = '''
def broken() -> None:
    """The clamp through a detached alias of the scores abs saved."""
    w, x = closed_book_inputs()
    scores = torch.add(x @ w, torch.full((5,), 0.1))
    monitor = scores.detach()
    loss = scores.abs().mean()
    monitor.clamp_(min=0.0)
    torch.autograd.grad(loss, w)
'''

BROKEN_NO_GRAD_VIEW = '''
def broken():
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.abs().sum()
    with torch.no_grad():  # stops recording, not the version counter
        scores[:, :].clamp_(min=0.0)  # a view of the scores abs saved
    loss.backward()
'''

BROKEN_NO_GRAD_DETACH = '''
def broken():
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.pow(2).sum()
    with torch.no_grad():
        scores.detach().clamp_(min=0.0)
    loss.backward()
'''

BROKEN_NO_GRAD_SCORES = '''
def broken():
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.abs().sum()
    with torch.no_grad():  # the scores themselves, with no alias
        scores.clamp_(min=0.0)
    loss.backward()
'''

BROKEN_BIAS = '''
def broken():
    w, x = closed_book_inputs()
    bias = torch.full((5,), 0.1)
    scores = x @ w + bias
    energy = scores.pow(2).mean()
    scores.detach().clamp_(min=0.0)
    energy.backward()
'''

FIXED = '''
def fixed() -> torch.Tensor:
    w, x = closed_book_inputs()
    scores = x @ w + torch.full((5,), 0.1)
    loss = scores.pow(2).mean() + 0.1 * scores.abs().mean()
    monitor = scores.detach().clone()  # a copy: the saved scores stay intact
    monitor.clamp_(min=0.0)
    log(monitor.mean(dim=0))
    loss.backward()
    return w.grad
'''

FIXED_OUT_OF_PLACE = '''
def fixed():
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = (scores ** 2).mean() + 0.1 * scores.abs().mean()
    log(scores.detach().clamp(min=0.0).mean(dim=0))  # out of place: a new tensor
    (grad,) = torch.autograd.grad(loss, w)
    return grad
'''

FIXED_AFTER_BACKWARD = '''
def fixed():
    w, x = closed_book_inputs()
    scores = x @ w + torch.full((5,), 0.1)
    energy = scores.pow(2).mean()
    sparsity = scores.abs().mean()
    (energy + 0.1 * sparsity).backward()
    monitor = scores.detach()
    monitor.clamp_(min=0.0)  # after backward: nothing reads the saved scores any more
    log(monitor.mean(dim=0))
    return w.grad
'''

TEST = '''
def test_regression():
    with pytest.raises(RuntimeError) as original:
        fragment()
    expected = str(original.value).split(" Hint:")[0]
    with pytest.raises(RuntimeError, match=re.escape(expected)):
        broken()
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.pow(2).mean() + 0.1 * scores.abs().mean()
    (intended,) = torch.autograd.grad(loss, w)
    torch.testing.assert_close(fixed(), intended)
'''

TEST_FINGERPRINTS = '''
def test_regression():
    def fingerprint(fn):
        try:
            fn()
        except Exception as err:
            return type(err).__name__, str(err).split(" Hint:")[0]
        return None

    assert fingerprint(broken) == fingerprint(fragment)
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    (scores.pow(2).mean() + 0.1 * scores.abs().mean()).backward()
    torch.testing.assert_close(fixed(), w.grad)
'''

TEST_MATCH = '''
def test_regression():
    expected = ("modified by an inplace operation: [torch.FloatTensor [6, 5]], which is output 0 "
                "of Add, is at version 1; expected version 0 instead.")
    with pytest.raises(RuntimeError, match=re.escape(expected)):
        broken()
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    (scores.pow(2).mean() + 0.1 * scores.abs().mean()).backward()
    assert torch.allclose(fixed(), w.grad)
'''

TEST_FORMULA = '''
def test_regression():
    with pytest.raises(RuntimeError) as caught:
        broken()
    with pytest.raises(RuntimeError) as original:
        fragment()
    assert str(caught.value).split(" Hint:")[0] == str(original.value).split(" Hint:")[0]
    w, x = closed_book_inputs()
    scores = (x @ w + 0.1).detach()
    n = scores.numel()
    d_scores = 2 * scores / n + 0.1 * scores.sign() / n
    torch.testing.assert_close(fixed(), x.T @ d_scores)
'''

BROKEN_NOT_MINIMAL = '''
def broken():
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.pow(2).sum()
    monitor = scores.detach()
    monitor.clamp_(min=0.0)
    history = [monitor.mean(dim=0)]
    loss.backward()
'''

BROKEN_CALLS_FRAGMENT = '''
def broken():
    fragment()
'''

BROKEN_MM = '''
def broken():
    w, x = closed_book_inputs()
    scores = x @ w
    loss = scores.pow(2).sum()
    scores.detach().clamp_(min=0.0)
    loss.backward()
'''

BROKEN_HAND_RAISED = '''
def broken():
    raise RuntimeError(
        "one of the variables needed for gradient computation has been modified by an inplace "
        "operation: [torch.FloatTensor [6, 5]], which is output 0 of Add, is at version 1; "
        "expected version 0 instead."
    )
'''

BROKEN_LEAF = '''
def broken():
    w, x = closed_book_inputs()
    w.detach().clamp_(min=0.0)
    w.clamp_(min=0.0)
'''

BROKEN_CLONED = '''
def broken():
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    loss = scores.pow(2).sum()
    scores.clone().clamp_(min=0.0)
    loss.backward()
'''

FIXED_DATA = '''
def fixed():
    w, x = closed_book_inputs()
    scores = x @ w + torch.full((5,), 0.1)
    loss = scores.pow(2).mean() + 0.1 * scores.abs().mean()
    monitor = scores.data  # silences the version counter
    monitor.clamp_(min=0.0)
    log(monitor.mean(dim=0))
    loss.backward()
    return w.grad
'''

FIXED_WITHOUT_LOG = '''
def fixed():
    w, x = closed_book_inputs()
    scores = x @ w + torch.full((5,), 0.1)
    (scores.pow(2).mean() + 0.1 * scores.abs().mean()).backward()  # the log went with the bug
    return w.grad
'''

FIXED_NO_GRAD = '''
def fixed():
    w, x = closed_book_inputs()
    scores = x @ w + torch.full((5,), 0.1)
    loss = scores.pow(2).mean() + 0.1 * scores.abs().mean()
    with torch.no_grad():
        monitor = scores.detach()
        monitor.clamp_(min=0.0)
    log(monitor.mean(dim=0))
    loss.backward()
    return w.grad
'''

FIXED_CLAMPED_LOSS = '''
def fixed():
    w, x = closed_book_inputs()
    scores = (x @ w + 0.1).clamp(min=0.0)  # the clamp moved into the loss
    loss = scores.pow(2).mean() + 0.1 * scores.abs().mean()
    loss.backward()
    return w.grad
'''

FIXED_GLOBAL = '''
w, x = closed_book_inputs()


def fixed():
    scores = x @ w + 0.1
    loss = scores.pow(2).mean() + 0.1 * scores.abs().mean()
    loss.backward()
    return w.grad
'''

FIXED_CACHED = '''
def _gradient():
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    (scores.pow(2).mean() + 0.1 * scores.abs().mean()).backward()
    return w.grad


GRADIENT = _gradient()


def fixed():
    return GRADIENT.clone()
'''

TEST_NOTHING = '''
def test_regression():
    pass
'''

TEST_ANY_RUNTIME_ERROR = '''
def test_regression():
    with pytest.raises(RuntimeError):
        broken()
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    (scores.pow(2).mean() + 0.1 * scores.abs().mean()).backward()
    torch.testing.assert_close(fixed(), w.grad)
'''

TEST_VERSION_COUNTER_ONLY = '''
def test_regression():
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        broken()
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    (scores.pow(2).mean() + 0.1 * scores.abs().mean()).backward()
    torch.testing.assert_close(fixed(), w.grad)
'''

# The operation's name alone: the same clamp made twice passes.
TEST_OPERATION_ONLY = TEST_VERSION_COUNTER_ONLY.replace('"modified by an inplace operation"', '"output 0 of Add"')

TEST_TYPE_ONLY = '''
def test_regression():
    with pytest.raises(RuntimeError, match=re.escape("[6, 5]], which is output 0 of Add, is at version 1")):
        broken()
    assert fixed().shape == (3, 5)
'''

TEST_FRAGMENT_ONLY = '''
def test_regression():
    with pytest.raises(RuntimeError, match=re.escape("[6, 5]], which is output 0 of Add, is at version 1")):
        fragment()
    w, x = closed_book_inputs()
    scores = x @ w + 0.1
    (scores.pow(2).mean() + 0.1 * scores.abs().mean()).backward()
    torch.testing.assert_close(fixed(), w.grad)
'''

TEST_FIXED_AGAINST_ITSELF = '''
def test_regression():
    with pytest.raises(RuntimeError, match=re.escape("[6, 5]], which is output 0 of Add, is at version 1")):
        broken()
    torch.testing.assert_close(fixed(), fixed())
'''

TEST_EXPECTS_MM = '''
def test_regression():
    with pytest.raises(RuntimeError, match="output 0 of Mm"):
        broken()
'''

RIGHT = {
    "capstone-reproduce": [
        ("reference", BROKEN + FIXED + TEST),
        ("fingerprints", BROKEN_BIAS + FIXED + TEST_FINGERPRINTS),
        ("abs-out-of-place-match", BROKEN_ABS + FIXED_OUT_OF_PLACE + TEST_MATCH),
        ("bias-after-backward-formula", BROKEN_BIAS + FIXED_AFTER_BACKWARD + TEST_FORMULA),
        ("no-grad-view", BROKEN_NO_GRAD_VIEW + FIXED_OUT_OF_PLACE + TEST),
        ("no-grad-detach", BROKEN_NO_GRAD_DETACH + FIXED + TEST_FINGERPRINTS),
    ],
}

WRONG = {
    "capstone-reproduce": [
        ("not-minimal", BROKEN_NOT_MINIMAL + FIXED + TEST, "not-minimal"),
        ("calls-the-fragment", BROKEN_CALLS_FRAGMENT + FIXED + TEST, None),
        ("another-operation", BROKEN_MM + FIXED + TEST, None),
        ("hand-raised", BROKEN_HAND_RAISED + FIXED + TEST, None),
        ("leaf-error", BROKEN_LEAF + FIXED + TEST, "leaf-error"),
        ("no-grad-scores", BROKEN_NO_GRAD_SCORES + FIXED + TEST, "no-alias"),
        ("clone-reduced-away", BROKEN_CLONED + FIXED + TEST, "reduced-away"),
        ("data-silences", BROKEN + FIXED_DATA + TEST, "silenced"),
        ("no-grad-detach", BROKEN + FIXED_NO_GRAD + TEST, "still-raises"),
        ("clamp-in-the-loss", BROKEN + FIXED_CLAMPED_LOSS + TEST, None),
        ("global-leaf", BROKEN + FIXED_GLOBAL + TEST, None),
        ("cached-gradient", BROKEN + FIXED_CACHED + TEST, None),
        ("drops-the-log", BROKEN + FIXED_WITHOUT_LOG + TEST, "no-log"),
        ("test-asserts-nothing", BROKEN + FIXED + TEST_NOTHING, "asserts-nothing"),
        ("test-any-runtime-error", BROKEN + FIXED + TEST_ANY_RUNTIME_ERROR, "any-runtime-error"),
        ("test-version-counter-only", BROKEN + FIXED + TEST_VERSION_COUNTER_ONLY, None),
        ("test-operation-only", BROKEN + FIXED + TEST_OPERATION_ONLY, None),
        ("test-type-only", BROKEN + FIXED + TEST_TYPE_ONLY, "type-only"),
        ("test-runs-the-fragment", BROKEN + FIXED + TEST_FRAGMENT_ONLY, None),
        ("test-fixed-against-itself", BROKEN + FIXED + TEST_FIXED_AGAINST_ITSELF, "type-only"),
        ("test-expects-another-error", BROKEN + FIXED + TEST_EXPECTS_MM, None),
    ],
}

UNANSWERED_BROKEN = "def broken():\n    raise NotImplementedError()\n\n\n"
UNANSWERED_FIXED = "def fixed():\n    raise NotImplementedError()\n\n\n"
UNANSWERED_TEST = "def test_regression():\n    raise NotImplementedError()\n"

# The message the fragment raises, read when the cell runs (outside any check).
FRAGMENTS_MESSAGE = """
try:
    fragment()
except RuntimeError as err:
    _MESSAGE = str(err)
"""

EXPLOITS = {
    "capstone-reproduce": [
        ("rebinds-what-its-driver-reads", FRAGMENTS_MESSAGE + STALE_BY_HAND.replace("{inputs}", "closed_book_inputs")
         + UNANSWERED_FIXED + UNANSWERED_TEST),
        ("torch-check", """
def broken():
    try:
        fragment()
    except RuntimeError as err:
        message = str(err)
    torch._check(False, lambda: message)


""" + UNANSWERED_FIXED + UNANSWERED_TEST),
        ("dynamic-fragment", """
def broken():
    globals()["fragment"]()


""" + UNANSWERED_FIXED + UNANSWERED_TEST),
        ("always-fails", UNANSWERED_BROKEN + UNANSWERED_FIXED + "def test_regression():\n    assert False\n"),
        ("identity-with-its-own-pair", UNANSWERED_BROKEN + UNANSWERED_FIXED + """
def test_regression():
    def unwrapped(function):
        return function.__closure__[0].cell_contents if function.__closure__ else function

    assert unwrapped(broken).__module__ == unwrapped(fixed).__module__ == "__main__"
"""),
    ],
}

"""Chapter 7, the capstone "Keep a failure as a regression test": the cases that grade its exercises.

The chapter hands the learner a training fragment that fails with the version-counter error: a
"memory-saving" softmax divides ``exp``'s output in place, and ``exp`` saved that output for
backward. The learner reduces it to a minimal ``broken()`` that still raises, repairs it as
``fixed()`` returning the gradient the fragment meant to compute, and keeps both as a pytest
regression test, which :func:`run_regression_test` runs in a subprocess.

Defined in Chapter 7, "Keep a failure as a regression test" (notebooks/capstone/capstone.ipynb).
"""

from __future__ import annotations

import inspect
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import torch

from autograder.checks import Diagnosis, exercise, selftest
from autograder.values import close

VERSION_COUNTER = "modified by an inplace operation"
TARGETS = (0, 2, 1, 3, 0)


def capstone_inputs() -> tuple[torch.Tensor, torch.Tensor]:
    """The fragment's data, fresh on every call: weights ``w`` (a leaf that requires grad), a batch ``x``."""
    generator = torch.Generator().manual_seed(6)
    w = torch.randn(3, 4, generator=generator).requires_grad_()
    x = torch.randn(5, 3, generator=generator)
    return w, x


def fragment_loss(probs: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """The fragment's loss: negative log-likelihood of the targets plus a small weight penalty."""
    return -probs[torch.arange(len(TARGETS)), torch.tensor(TARGETS)].log().mean() + 1e-3 * w.pow(2).sum()


def intended_gradient() -> torch.Tensor:
    """Trusted: the gradient of the fragment's loss with respect to ``w``, with an out-of-place softmax."""
    w, x = capstone_inputs()
    e = (x @ w).exp()
    fragment_loss(e / e.sum(dim=1, keepdim=True), w).backward()
    return w.grad


def _data_gradient() -> torch.Tensor:
    """What a ``.data`` write gives: no error, and a gradient computed from the overwritten output.

    Dividing by a detached normaliser gives the same gradient: both drop the path through the sum.
    """
    w, x = capstone_inputs()
    e = (x @ w).exp()
    e.data /= e.data.sum(dim=1, keepdim=True)
    fragment_loss(e, w).backward()
    return w.grad


def reference_broken() -> None:
    """Trusted minimal reproduction."""
    w, x = capstone_inputs()
    e = (x @ w).exp()
    e /= e.sum(dim=1, keepdim=True)
    e.sum().backward()


def classify_failure(answer: Callable[[], Any]) -> str:
    """Call ``broken()`` and name the failure it shows."""
    try:
        answer()
    except RuntimeError as err:
        text = str(err)
        if VERSION_COUNTER in text:
            saved = re.search(r"which is output \d+ of (\w+)", text)
            return f"version-counter RuntimeError (saved by {saved.group(1) if saved else 'an input'})"
        if "leaf Variable that requires grad" in text:
            return "leaf in-place RuntimeError"
        return f"another RuntimeError: {text[:80]}"
    except Exception as err:  # noqa: BLE001 - any other failure is a result to report
        return f"{type(err).__name__}: {str(err)[:80]}"
    return "no error"


def observe_failure(answer: Callable[[], Any]) -> str:
    """Which error ``broken()`` raises: the version counter's, the leaf's, another, or none."""
    found = classify_failure(answer)
    return found.split(" (saved by")[0]


def observe_saved_by(answer: Callable[[], Any]) -> str:
    """The full classification, naming the operation whose saved tensor was overwritten."""
    return classify_failure(answer)


def observe_gradient(answer: Callable[[], Any]) -> Any:
    """``fixed()``'s result; a version-counter error is reported as a result, not as a crash."""
    try:
        return answer()
    except RuntimeError as err:
        if VERSION_COUNTER in str(err):
            return "still raises the version-counter error"
        raise


def observe_twice(answer: Callable[[], Any]) -> Any:
    """``fixed()`` called twice: the second result must be the same gradient."""
    observe_gradient(answer)
    return observe_gradient(answer)


NO_ERROR = (
    "broken() must still fail: a reduction that no longer raises has reduced the bug away. Keep the "
    "in-place write to the tensor that the operation saved, and the backward() that reads it."
)
LEAF_ERROR = (
    "that is the leaf error (an in-place write to a leaf that requires grad), raised at once; the "
    "failure to keep is the version-counter error that backward() raises."
)
OTHER_ERROR = (
    "broken() must raise the version-counter RuntimeError ('... modified by an inplace operation'), "
    "not another error: a reduction that fails differently reproduces another bug."
)
WRONG_OP = (
    "reduce *this* failure: in the fragment the overwritten tensor is the output saved by exp(); a "
    "reproduction with another operation is a different bug."
)
NORMALISER_LOST = (
    "the gradient misses the path through the normaliser e.sum(): writing through .data hides the "
    "in-place division from autograd (backward then reads the overwritten output, silently), and "
    "dividing by e.sum(...).detach() cuts that path on purpose; both give the same wrong gradient. "
    "Divide by the attached sum, out of place."
)
STILL_RAISES = (
    "fixed() still raises the version-counter error: torch.no_grad() does not stop an in-place write "
    "from bumping the version of the saved output. Do not write into exp's output; compute a new tensor."
)
GRADIENT = "fixed() must return w.grad of the fragment's loss: a (3, 4) tensor equal to the intended gradient."
ACCUMULATES = (
    "fixed() must start from fresh inputs on every call (w, x = capstone_inputs()): a w kept between "
    "calls accumulates its .grad, so the second call returns twice the gradient."
)


def _matches(reference: Callable[[], torch.Tensor]) -> Callable[[Any, tuple], bool]:
    def matches(found: Any, _inputs: tuple) -> bool:
        return type(found) is torch.Tensor and close(found, reference())

    return matches


def _is(text: str) -> Callable[[Any, tuple], bool]:
    return lambda found, _inputs: found == text


def _not_version_counter(found: Any, _inputs: tuple) -> bool:
    return not (type(found) is str and found.startswith("version-counter"))


# The test cells pass both functions: grade("capstone-regression", {"broken": broken, "fixed": fixed}).
# A hidden failure reads "a hidden check of broken and fixed failed": the cases name the two
# functions, not the expression the test cells pass.
regression = exercise("capstone-regression", '{"broken": broken, "fixed": fixed}', returns="observation",
                      agree=close, answer="broken and fixed")
_NOT_THE_FAILURE = (Diagnosis(_is("no error"), NO_ERROR), Diagnosis(_is("leaf in-place RuntimeError"), LEAF_ERROR))
_GRADIENT_DIAGNOSES = (
    Diagnosis(_is("still raises the version-counter error"), STILL_RAISES),
    Diagnosis(_matches(_data_gradient), NORMALISER_LOST),
)
regression.case("broken-raises", "broken()", tuple,
                call=lambda pair: observe_failure(pair["broken"]), expect=lambda: observe_failure(reference_broken),
                otherwise=OTHER_ERROR, diagnoses=_NOT_THE_FAILURE)
regression.case("fixed-gradient", "fixed()", tuple,
                call=lambda pair: observe_gradient(pair["fixed"]), expect=intended_gradient,
                otherwise=GRADIENT, diagnoses=_GRADIENT_DIAGNOSES)
regression.case("broken-same-failure", "the operation whose saved tensor broken() overwrites", tuple,
                call=lambda pair: observe_saved_by(pair["broken"]), expect=lambda: observe_saved_by(reference_broken),
                otherwise=WRONG_OP, diagnoses=(*_NOT_THE_FAILURE, Diagnosis(_not_version_counter, OTHER_ERROR)),
                hidden=True)
regression.case("fixed-twice", "fixed(); fixed()", tuple,
                call=lambda pair: observe_twice(pair["fixed"]), expect=intended_gradient,
                otherwise=ACCUMULATES, diagnoses=_GRADIENT_DIAGNOSES, hidden=True)


# --------------------------------------------------------------------------- capstone-selftest
def _fragment_error() -> str:
    w, x = capstone_inputs()
    e = (x @ w).exp()
    e /= e.sum(dim=1, keepdim=True)
    try:
        fragment_loss(e, w).backward()
    except RuntimeError as err:
        return str(err)
    return ""


def _no_grad_helps() -> bool:
    w, x = capstone_inputs()
    e = (x @ w).exp()
    with torch.no_grad():
        e /= e.sum(dim=1, keepdim=True)
    try:
        fragment_loss(e, w).backward()
    except RuntimeError:
        return False
    return True


def _selftest_expectations() -> dict[str, tuple[str, str, Callable[[], object], str]]:
    """Question key -> (question, result kind, expected value (computed lazily), misconception)."""
    return {
        "q1": ("Which operation saved the tensor that the fragment overwrites (its name in lower case)?", "str",
               lambda: re.search(r"output \d+ of (\w+)", _fragment_error()).group(1).lower(),
               "the error names it: 'which is output 0 of Exp' — exp() saves its output for backward."),
        "q2": ("At backward, which version does autograd find for that tensor (int)?", "int",
               lambda: int(re.search(r"is at version (\d+)", _fragment_error()).group(1)),
               "one in-place write bumps the version from 0 to 1."),
        "q3": ("Does wrapping the in-place division in torch.no_grad() avoid the error (True/False)?", "bool",
               _no_grad_helps,
               "no_grad stops recording the operation, not the version counter: the saved output still changed."),
    }


selftest("capstone-selftest", _selftest_expectations, hidden=("q3",))


# --------------------------------------------------------------------------- the regression-test runner
HEADER = '''"""Regression test kept from the capstone of Autograd State."""
import pytest
import torch

from autograder.capstone import capstone_inputs
'''


def regression_module(namespace: Mapping[str, Any]) -> str | None:
    """Source of a pytest module: ``broken``, ``fixed`` and every ``test_*`` function defined in
    ``namespace`` (a notebook's globals), or None when one of them is missing."""
    functions = {name: value for name, value in namespace.items()
                 if inspect.isfunction(value) and (name in ("broken", "fixed") or name.startswith("test_"))}
    if "broken" not in functions or "fixed" not in functions or len(functions) < 3:
        return None
    try:
        sources = [inspect.getsource(function) for function in functions.values()]
    except (OSError, TypeError):
        return None
    return HEADER + "\n\n" + "\n\n".join(sources)


def run_regression_test(namespace: Mapping[str, Any], timeout: float = 120.0) -> str:
    """Write the learner's regression test to a scratch folder, run pytest on it in a subprocess and
    report each test's outcome (and pytest's output when one fails).

    Args:
        namespace: Where ``broken``, ``fixed`` and the ``test_*`` functions are defined (``globals()``).
        timeout: Seconds before pytest is stopped.

    Returns:
        The report, one line per test.
    """
    source = regression_module(namespace)
    if source is None:
        return ("Define broken(), fixed() and at least one test_... function in the answer cells above, "
                "then run this cell.")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "test_capstone_regression.py"
        path.write_text(source)
        report = Path(folder) / "report.xml"
        try:
            result = subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}", str(path)],
                cwd=folder, capture_output=True, text=True, timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            return f"pytest did not finish within {timeout:g} s and was stopped: does a test loop forever?"
        if not report.exists():
            return f"pytest could not run the test module:\n{result.stdout}{result.stderr}"
        lines = []
        for case in ET.parse(report).getroot().iter("testcase"):
            outcome = "passed"
            for tag in ("failure", "error", "skipped"):
                if case.find(tag) is not None:
                    outcome = {"failure": "FAILED", "error": "ERROR", "skipped": "skipped"}[tag]
            lines.append(f"{case.get('name')}: {outcome}")
        if result.returncode != 0:
            lines.append("\npytest's report:\n" + result.stdout[-4000:])
    return "\n".join(lines)

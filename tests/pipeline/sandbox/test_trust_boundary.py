"""Nothing that runs beside a submission can compute what an answer should give.

In the sandbox, the trusted answer key and the judging that reads keys can be neither imported
nor read; the processes that fork sandboxes never loaded them. A bare interpreter, where rules over
shapes and strides are graded, has no torch, no NumPy and no course package, and cannot bring
them back."""

from __future__ import annotations

import json
import textwrap

import pytest

from autograder.engine import bare
from autograder.pipeline.sandbox import wire
from autograder.pipeline.sandbox.confine import Limits, is_root
from autograder.pipeline.sandbox.pool import Pool

pytestmark = pytest.mark.skipif(not is_root(), reason="the grading sandbox needs root (to create users and namespaces)")

SMALL = Limits(wall=20, cpu=8, memory=3 * 2**30, processes=64, file_size=2**20, output=2**16, flood=4 * 2**20, probe=10)


@pytest.fixture(scope="module")
def pool():
    with Pool(1, SMALL) as pool:
        yield pool


def _printed(result: wire.JobResult) -> str:
    lines = []
    for line in result.report.splitlines():
        message = json.loads(line)
        if message.get("cell") == "cell":
            lines += [o.get("text", "") + o.get("ename", "") + ": " + o.get("evalue", "") for o in message["outputs"]]
    return "\n".join(lines)


def test_the_sandbox_can_neither_import_nor_read_the_key(pool: Pool) -> None:
    source = textwrap.dedent("""
        import importlib, os, sys
        import autograder
        for name in ("answer_key", "answer_key.keys", "answer_key.views", "autograder.judging", "autograder.kernel"):
            try:
                importlib.import_module(name)
                print("imported", name)
            except Exception as err:
                print("refused", name, type(err).__name__)
        package = os.path.dirname(autograder.__file__)
        for path in (os.path.join(os.path.dirname(package), "answer_key", "views.py"),
                     os.path.join(package, "judging.py")):
            try:
                text = open(path).read()
                print("read", path, len(text)) if text else print("unreadable", path, "empty")
            except OSError as err:
                print("unreadable", path, type(err).__name__)
        print("loaded", sorted(m for m in sys.modules if m.startswith(("answer_key", "autograder.judging"))))
    """)
    result = pool.submit(wire.Plan("views", [wire.CodeStep("cell", source)])).result()
    printed = _printed(result)
    assert "imported" not in printed, printed
    assert printed.count("refused") == 5, printed
    assert "read " not in printed and printed.count("unreadable") == 2, printed
    assert "loaded []" in printed, printed


def test_a_bare_interpreter_has_no_torch_numpy_or_course_package(pool: Pool) -> None:
    answer = textwrap.dedent("""
        import sys, sysconfig

        def probe(x):
            found = []
            for extra in ([], [sysconfig.get_paths()["purelib"], "/usr/lib/python3/dist-packages"]):
                sys.path[:0] = extra
                for name in ("torch", "numpy", "autograder.chapters.views", "answer_key"):
                    try:
                        __import__(name)
                        found.append(name)
                    except Exception:
                        pass
            return sorted(set(found))
    """)
    calls = [{"case": "probe", "answer": "probe", "subject": "probe", "args": bare.encode_args((1,))}]
    result = pool.submit(wire.Plan("views", [], bare=bare.job([answer], calls))).result()
    (line,) = bare.read_results(result.report)
    assert line["seen"] == {"value": {"t": "list", "v": []}}, line


def test_the_bare_launcher_in_a_kernel_runs_without_site_packages() -> None:
    answer = "import sys\n\ndef probe(x):\n    return [p for p in sys.path if 'site-packages' in p]\n"
    calls = [{"case": "probe", "answer": "probe", "subject": "probe", "args": bare.encode_args((1,))}]
    (line,) = bare.run_here([answer], calls)
    assert line["seen"] == {"value": {"t": "list", "v": []}}

"""The forked kernels of the tests' plain nbgrader runs: each a process of its own, forked from the
warm server, started where and as jupyter_client asked, and otherwise what a fresh kernel is."""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

from tests.warm_kernels import ForkedKernelManager, forked_kernels

PROBE = """
import json, os, random, sys
import matplotlib
print(json.dumps({"pid": os.getpid(), "parent": os.getppid(), "session": os.getsid(0) == os.getpid(),
                  "cwd": os.getcwd(), "marker": os.environ.get("WARM_KERNEL_MARKER"),
                  "torch_before": "torch" in sys.modules, "backend": matplotlib.get_backend(),
                  "draw": random.random()}))
"""


def _facts(folder: Path, manager: type | None) -> dict:
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(PROBE)])
    options = {"kernel_manager_class": manager} if manager else {}
    NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(folder)}},
                   **options).execute()
    return json.loads(notebook.cells[0].outputs[0]["text"])


@pytest.fixture
def marked(monkeypatch, tmp_path) -> Path:
    monkeypatch.setenv("WARM_KERNEL_MARKER", "asked-for")
    return tmp_path


def test_each_kernel_is_forked_from_the_warm_server_in_a_session_of_its_own(marked: Path) -> None:
    with forked_kernels():
        first, second = _facts(marked, ForkedKernelManager), _facts(marked, ForkedKernelManager)
    assert first["parent"] == second["parent"] and first["pid"] != second["pid"]
    assert first["session"] and first["torch_before"]  # the server imported torch; the cell did not
    assert not Path(f"/proc/{first['pid']}").exists()  # shut down with its notebook


def test_a_forked_kernel_starts_as_a_fresh_one_does(marked: Path) -> None:
    fresh = _facts(marked, None)
    with forked_kernels():
        forked, again = _facts(marked, ForkedKernelManager), _facts(marked, ForkedKernelManager)
    assert not fresh["torch_before"]
    for fact in ("cwd", "marker", "backend"):
        assert forked[fact] == fresh[fact], fact
    assert forked["cwd"] == str(marked) and forked["marker"] == "asked-for"
    assert forked["draw"] != again["draw"]  # random is seeded afresh in each kernel


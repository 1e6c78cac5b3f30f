"""An error a cell raises shows the cell's frames and the message, once; never a library's frames."""

from __future__ import annotations

import re
import sys

import pytest
from IPython.core.interactiveshell import InteractiveShell

from autograder.engine import tracebacks

ANSI = re.compile(r"\x1b\[[0-9;]*m")
# A kernel names a cell "Cell In[n]"; a plain IPython shell "File <ipython-input-n-...>".
CELL = r"(Cell In\[{n}\]|File <ipython-input-{n}-[0-9a-f]+>:?)"


def names_cell(shown: str, n: int, line: int) -> bool:
    return re.search(CELL.format(n=n) + rf"(, line |){line}\b", shown) is not None


@pytest.fixture
def shell():
    shell = InteractiveShell(colors="nocolor")
    shell.history_manager.enabled = False
    assert tracebacks.install(shell)
    yield shell
    shell.set_custom_exc((), None)


def run(shell, capsys, source: str) -> tuple[object, str]:
    result = shell.run_cell(source, store_history=True)
    return result, ANSI.sub("", capsys.readouterr().out)


def test_an_error_from_inside_a_library_shows_the_cells_frame_and_the_message(shell, capsys):
    run(shell, capsys, "import json")
    result, shown = run(shell, capsys, "document = '{'\njson.loads(document)")
    assert isinstance(result.error_in_exec, ValueError)
    assert names_cell(shown, 2, 2) and "----> 2 json.loads(document)" in shown
    assert shown.rstrip().endswith(f"JSONDecodeError: {result.error_in_exec}")
    assert "decoder.py" not in shown and "json/" not in shown
    assert shown.count(str(result.error_in_exec)) == 1
    # No rule, no 75-column header: the first line names the cell.
    assert re.match(CELL.format(n=2), shown) and "Traceback (most recent call last)" not in shown
    # The exception keeps every frame: %debug and the grader see them all.
    frames = []
    tb = sys.last_traceback
    while tb is not None:
        frames.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    assert any(name.endswith("decoder.py") for name in frames)


def test_an_exception_that_is_not_an_exception_class_is_shown_the_same_way(shell, capsys):
    # pytest.fail and a failed pytest.raises raise a BaseException (chapter cells use pytest.raises).
    run(shell, capsys, "import pytest")
    result, shown = run(shell, capsys, "with pytest.raises(KeyError):\n    pass")
    assert type(result.error_in_exec).__name__ == "Failed"
    assert names_cell(shown, 2, 1) and "_pytest" not in shown and "site-packages" not in shown
    assert shown.rstrip().endswith(f"Failed: {result.error_in_exec}")


def test_a_function_a_cell_defined_keeps_its_frame(shell, capsys):
    run(shell, capsys, "def broken():\n    return 1 / 0")
    _, shown = run(shell, capsys, "broken()")
    assert names_cell(shown, 2, 1) and names_cell(shown, 1, 2)
    assert shown.rstrip().endswith("ZeroDivisionError: division by zero")


def test_a_chained_error_shows_each_exception_once_with_cell_frames_only(shell, capsys):
    run(shell, capsys, "import json")
    _, shown = run(shell, capsys, "try:\n    json.loads('{')\nexcept ValueError as err:\n"
                                  "    raise KeyError('wrapped') from err")
    assert "decoder.py" not in shown and "json/" not in shown
    assert shown.count("JSONDecodeError:") == 1 and shown.count("KeyError: 'wrapped'") == 1
    assert "direct cause" in shown


def test_the_exception_objects_are_left_as_they_were(shell, capsys):
    run(shell, capsys, "import json\ntry:\n    json.loads('{')\nexcept ValueError as err:\n    first = err")
    before = shell.user_ns["first"].__traceback__
    run(shell, capsys, "raise KeyError('again') from first")
    assert shell.user_ns["first"].__traceback__ is before


def test_outside_ipython_install_changes_nothing(monkeypatch):
    monkeypatch.setattr(tracebacks, "_shell", lambda: None)
    assert tracebacks.install() is False

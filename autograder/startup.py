"""What every Python process of the course's virtual environment runs when it starts.

``make setup`` puts one line that runs this file in a ``.pth`` file of the virtual environment
(``python -m autograder.startup install``), so the command line, nbgrader, Jupyter, the kernels
and the tests all run it.

It defers one import. ``jsonschema`` (which nbformat validates notebooks with) imports
``rfc3987_syntax`` for its ``iri`` format check, and ``rfc3987_syntax`` builds a parser of RFC
3987's grammar when it is imported: about 3 s of every process that reads a notebook, for a format
no notebook schema uses (upstream: python-jsonschema/jsonschema#1428). Until that check first
runs, a stand-in takes the module's place; the check itself then imports the real module and
gives its answer, so validation is unchanged (``tests/test_startup.py``).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import sysconfig
import threading
import types
from pathlib import Path

DEFERRED = "rfc3987_syntax"
PTH = "autograd-state-startup.pth"
_lock = threading.RLock()


def _real() -> types.ModuleType:
    """The real module, imported on first use in place of the stand-in."""
    with _lock:
        module = sys.modules.get(DEFERRED)
        if module is None or isinstance(module, _StandIn):
            sys.modules.pop(DEFERRED, None)
            module = importlib.import_module(DEFERRED)
        return module


class _StandIn(types.ModuleType):
    """Takes ``rfc3987_syntax``'s place in ``sys.modules`` until one of its names is used."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(_real(), name)


def is_valid_syntax(term: str, value: str) -> bool:
    """``rfc3987_syntax.is_valid_syntax``, the one name ``jsonschema`` binds when it is imported."""
    return _real().is_valid_syntax(term, value)


def defer() -> bool:
    """Put the stand-in in place (when the real module is installed and not yet imported)."""
    if DEFERRED in sys.modules:
        return False
    spec = importlib.util.find_spec(DEFERRED)
    if spec is None:
        return False
    stand_in = _StandIn(DEFERRED, "stands for rfc3987_syntax until it is used (autograder.startup)")
    stand_in.__spec__ = spec
    stand_in.__path__ = list(spec.submodule_search_locations or [])
    stand_in.is_valid_syntax = is_valid_syntax
    sys.modules[DEFERRED] = stand_in
    return True


def install(site_packages: Path | None = None) -> Path:
    """Write the ``.pth`` line that runs this module in every process of this environment.

    The line runs this file without importing the ``autograder`` package: a kernel imports the
    package in the chapter's setup cell, once IPython is running, and only then can the package
    set how IPython shows errors (:mod:`autograder.engine.tracebacks`).
    """
    folder = site_packages or Path(sysconfig.get_paths()["purelib"])
    path = folder / PTH
    here = str(Path(__file__).resolve())
    path.write_text("import importlib.util as u; s = u.spec_from_file_location('autograd_state_startup', "
                    f"{here!r}); s.loader.exec_module(u.module_from_spec(s))\n")
    return path


defer()

if __name__ == "__main__":
    if sys.argv[1:] != ["install"]:
        raise SystemExit("usage: python -m autograder.startup install")
    print(f"installed {install()}")

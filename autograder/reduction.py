"""Trusted drivers that grade a reduction and a regression test: a failure's fingerprint,
1-minimality by deleting each statement in turn, and a test's verdict on mutants.

Defined in Chapter 7, "Keep a failure as a regression test" (notebooks/capstone/capstone.ipynb);
its closed-book companion (``autograder.capstone_closed_book``) grades with the same drivers.

A *fingerprint* is what identifies a failure: the exception's type name and its message up to
torch's ``Hint:`` (the hint is advice, the same for every version-counter error). A reduction
``broken()`` is *1-minimal* when deleting any one of its statements makes that fingerprint
disappear. A regression test is judged by *mutation*: it must pass on the reference pair and fail
on each mutant, run with the names ``broken`` and ``fixed`` swapped in its globals.
"""

from __future__ import annotations

import ast
import builtins
import copy
import dis
import inspect
import textwrap
import types
import warnings
from collections.abc import Callable, Iterator
from typing import Any

from autograder.engine import raised_as_data

HINT = " Hint:"
VERSION_COUNTER = "modified by an inplace operation"
TRUSTED_MODULES = ("torch", "autograder", "math", "builtins", "functools", "operator")
NOT_FAILING = "broken() does not fail as the fragment does"
_MISSING = object()

Fingerprint = tuple[str, str]


def message_fingerprint(message: str) -> str:
    """The part of an error message that identifies the failure: the text before ``Hint:``."""
    return message.split(HINT, 1)[0].strip()


def failure_of(function: Callable[[], Any]) -> dict[str, Any] | None:
    """Call ``function()`` and describe its failure as plain data (None when it returns).

    Returns:
        ``{"type": ..., "message": ..., "by_torch": ...}``: the exception's type name, its
        message fingerprint, and whether torch raised it (not the function's own ``raise``).
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            function()
    except Exception as err:  # noqa: BLE001 - every failure is a result to describe
        raised = raised_as_data(err)
        return {"type": raised.type_name, "message": message_fingerprint(raised.message),
                "by_torch": raised.by_torch}
    return None


def fingerprint_of(function: Callable[[], Any]) -> Fingerprint | None:
    """Trusted reference: ``(type name, message fingerprint)`` of ``function()``'s error, or None."""
    failure = failure_of(function)
    return None if failure is None else (failure["type"], failure["message"])


# ------------------------------------------------------------------------------ 1-minimality
class SourceUnavailable(Exception):
    """A function whose source cannot be read and reduced statement by statement."""


def _function_tree(function: Callable[..., Any]) -> ast.Module:
    if not isinstance(function, types.FunctionType) or function.__name__ == "<lambda>":
        raise SourceUnavailable("broken must be a function defined with def")
    if function.__closure__:
        raise SourceUnavailable("broken must be defined at the top level of a cell, not inside a function")
    try:
        source = textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError) as err:
        raise SourceUnavailable(f"the source of broken cannot be read ({err})") from err
    tree = ast.parse(source)
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef):
        raise SourceUnavailable("broken must be a function defined with def")
    tree.body[0].decorator_list = []
    return tree


def _is_docstring(statement: ast.stmt) -> bool:
    return (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant)
            and isinstance(statement.value.value, str))


def _statement_slots(function: ast.FunctionDef) -> Iterator[tuple[ast.AST, str, int]]:
    """Every statement of the function's body, nested ones included, as (parent, field, index).

    A docstring is documentation, not a statement of the failure, and is never deleted."""
    pending: list[ast.AST] = [function]
    while pending:
        parent = pending.pop(0)
        for name, value in ast.iter_fields(parent):
            if not isinstance(value, list):
                continue
            for index, child in enumerate(value):
                if isinstance(child, ast.stmt):
                    if not (parent is function and index == 0 and _is_docstring(child)):
                        yield parent, name, index
                    pending.append(child)
                elif isinstance(child, ast.excepthandler | ast.match_case):
                    pending.append(child)


def _without(tree: ast.Module, position: int) -> tuple[ast.Module, ast.stmt]:
    """A copy of the tree with its ``position``-th statement deleted (``pass`` keeps a block valid)."""
    reduced = copy.deepcopy(tree)
    parent, name, index = list(_statement_slots(reduced.body[0]))[position]
    block = getattr(parent, name)
    deleted = block.pop(index)
    if not block:
        block.append(ast.Pass())
    return ast.fix_missing_locations(reduced), deleted


def reductions(function: Callable[..., Any]) -> Iterator[tuple[str, Callable[[], Any]]]:
    """Each one-statement deletion of ``function``: the deleted statement's first line, and the
    reduced function, compiled in a copy of ``function``'s globals (the learner's names)."""
    tree = _function_tree(function)
    count = len(list(_statement_slots(tree.body[0])))
    # A deletion can turn a local name into a global one: the reduced function sees only the
    # globals the original read, so a tensor left over in the notebook does not stand in for it.
    outside = {name: function.__globals__[name] for name in global_names(function)
               if name in function.__globals__}
    outside["__builtins__"] = function.__globals__.get("__builtins__", builtins)
    for position in range(count):
        reduced, deleted = _without(tree, position)
        scratch = dict(outside)
        exec(compile(reduced, f"<{function.__name__} without one statement>", "exec"), scratch)  # noqa: S102
        yield ast.unparse(deleted).splitlines()[0], scratch[function.__name__]


def still_failing_reductions(function: Callable[..., Any], target: Fingerprint) -> list[str] | str:
    """The statements of ``function`` whose deletion keeps the failure ``target``: empty when the
    function is 1-minimal; a sentence when it cannot be reduced (it does not fail that way, or its
    source cannot be read)."""
    if fingerprint_of(function) != target:
        return NOT_FAILING
    try:
        return [line for line, reduced in reductions(function) if fingerprint_of(reduced) == target]
    except SourceUnavailable as err:
        return str(err)
    except SyntaxError as err:
        return f"broken cannot be reduced statement by statement ({err.msg})"


def deletable_count(function: Callable[..., Any], target: Fingerprint) -> int | str:
    """How many statements of ``function`` can go while it still fails as ``target`` (0: minimal)."""
    found = still_failing_reductions(function, target)
    return found if isinstance(found, str) else len(found)


def global_names(function: types.FunctionType) -> set[str]:
    """The global names a function's code (nested functions included) reads."""
    codes, names = [function.__code__], set()
    while codes:
        code = codes.pop()
        for instruction in dis.get_instructions(code):
            if instruction.opname in ("LOAD_GLOBAL", "LOAD_NAME") and isinstance(instruction.argval, str):
                names.add(instruction.argval)
        codes += [const for const in code.co_consts if isinstance(const, types.CodeType)]
    return names


def notebook_helpers(function: Callable[..., Any]) -> list[str]:
    """Functions and classes defined in the notebook that ``function`` calls by name: a reduction
    that calls a helper hides statements from the deletion test."""
    if not isinstance(function, types.FunctionType):
        return []
    helpers = []
    for name in sorted(global_names(function)):
        value = function.__globals__.get(name, _MISSING)
        if (inspect.isfunction(value) or inspect.isclass(value)) and not str(
                getattr(value, "__module__", "")).startswith(TRUSTED_MODULES):
            helpers.append(name)
    return helpers


# ------------------------------------------------------------------------------ mutation
def passes_with(test: Callable[[], Any], broken: Callable[[], Any], fixed: Callable[[], Any]) -> bool:
    """True when ``test()`` passes with ``broken`` and ``fixed`` standing for the learner's names.

    The names are swapped in the test's globals for the run and restored afterwards. A test
    fails by raising anything, pytest's own ``Failed`` (a ``BaseException``) included.
    """
    namespace = test.__globals__
    kept = {name: namespace.get(name, _MISSING) for name in ("broken", "fixed")}
    namespace["broken"], namespace["fixed"] = broken, fixed
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            test()
    except KeyboardInterrupt:
        raise
    except BaseException:  # noqa: BLE001 - pytest.raises and pytest.fail raise BaseException subclasses
        return False
    finally:
        for name, value in kept.items():
            if value is _MISSING:
                namespace.pop(name, None)
            else:
                namespace[name] = value
    return True

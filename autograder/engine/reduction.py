"""Reducing a failure and keeping it: the tools Chapter 7 runs, and what its checks observe.

Defined in Chapter 7, "Keep a failure as a regression test" (notebooks/capstone/capstone.ipynb);
its closed-book companion (``autograder.chapters.capstone_closed_book``) is checked with the same drivers.

Tools the chapter's cells call:

* :func:`reductions` — each one-statement deletion of a function, nested statements included;
* :func:`still_failing_reductions` — the deletions that still fail with a given failure;
* :func:`passes_with` — a test's verdict with ``broken`` and ``fixed`` standing for other functions.

What the checks observe (facts, never a verdict): what a function raised, as data; whether that
error left a ``backward`` (or ``autograd.grad``) that the function itself called, and whether a
saved tensor of the graph it built is stale with that very message — evidence that only the
version-counter mechanism produces (:class:`Witness`); whether a ``raise`` statement of its own
raised it (:func:`raised_by_its_own_statement`: an error written by hand); whether its in-place
writes (a helper's included) reached tensors of the graph only through aliases (a view, an indexed
assignment's included, or a ``detach()``), none such a tensor itself; how many of its one-statement
deletions still raise what it raises; and which functions other than itself (and the chapter's
providers of data) made torch calls while it ran.
A witness that is switched off sees nothing, and so removes evidence: it never vouches for a failure.
"""

from __future__ import annotations

import ast
import builtins
import dis
import inspect
import sys
import textwrap
import types
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch.overrides import TorchFunctionMode, handle_torch_function

from autograder.engine import facts
from autograder.engine.observe import raised_as_data

HINT = " Hint:"
VERSION_COUNTER = "modified by an inplace operation"
_MISSING = object()
#: The calls whose errors count as raised by backward: torch's own, by identity.
BACKWARDS = (torch.Tensor.backward, torch.autograd.backward, torch.autograd.grad)
#: Calls that only switch autograd's grad mode (what ``torch.no_grad()`` and its kin make on entry
#: and exit, from torch's own frames): no computation, so nobody's torch call.
MODE_SWITCHES = (torch._C._set_grad_enabled,)
_DISPATCH = handle_torch_function.__code__
# Captured when this module is imported, as :mod:`autograder.engine.facts` captures its own (a
# method rebound on torch later does not answer for them).
_is_view = torch.Tensor._is_view
_setitem = torch.Tensor.__setitem__
_zeros = torch.zeros
_clone = torch.Tensor.clone
_enable_grad = torch.enable_grad
#: The node autograd gives a tensor written through a view of it.
_COPY_SLICES = torch._C._functions.CopySlices

Failure = tuple[str, str]


def outcome(function: Callable[[], Any]) -> Failure | None:
    """What ``function()`` raised, as ``(type name, message)`` (None when it returned)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            function()
    except NotImplementedError:
        raise
    except Exception as err:  # noqa: BLE001 - every failure is an outcome
        return raised_as_data(err)
    return None


def _fails_as(found: Failure | None, target: Failure) -> bool:
    """``found`` is the failure ``target`` names: its type, and its message, or the message up
    to torch's hint when ``target`` gives only that much."""
    return found is not None and found[0] == target[0] and (
        found[1] == target[1] or found[1].startswith(target[1].rstrip() + HINT))


# ------------------------------------------------------------------------------ 1-minimality
class SourceUnavailable(Exception):
    """A function whose source cannot be read and reduced statement by statement."""


def _function_tree(function: Callable[..., Any]) -> ast.Module:
    if not isinstance(function, types.FunctionType) or function.__name__ == "<lambda>":
        raise SourceUnavailable("it must be a function defined with def")
    if function.__closure__:
        raise SourceUnavailable("it must be defined at the top level of a cell, not inside a function")
    try:
        source = textwrap.dedent(inspect.getsource(function))
    except (OSError, TypeError) as err:
        raise SourceUnavailable(f"its source cannot be read ({err})") from err
    tree = ast.parse(source)
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef):
        raise SourceUnavailable("it must be a function defined with def")
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


def copied_tree(node: Any) -> Any:
    """A copy of a syntax tree made from each node's fields and positions only.

    ``copy.deepcopy`` would follow every attribute, and the parser hands out one shared ``Load``,
    ``Store`` and ``Del`` node to every tree it makes: a tool that marks the nodes of a tree of
    its own (``executing``, which IPython's tracebacks use, gives each a ``parent``) marks those
    shared nodes too, and a deep copy then copies that tool's whole tree, each time (in a kernel
    that has shown one traceback, a reduction took fifteen times as long).
    """
    if isinstance(node, list):
        return [copied_tree(item) for item in node]
    if not isinstance(node, ast.AST):
        return node
    fields = {name: copied_tree(getattr(node, name)) for name in node._fields if hasattr(node, name)}
    positions = {name: getattr(node, name) for name in node._attributes if hasattr(node, name)}
    return type(node)(**fields, **positions)


def _without(tree: ast.Module, position: int) -> tuple[ast.Module, ast.stmt]:
    """A copy of the tree with its ``position``-th statement deleted (``pass`` keeps a block valid)."""
    reduced = copied_tree(tree)
    parent, name, index = list(_statement_slots(reduced.body[0]))[position]
    block = getattr(parent, name)
    deleted = block.pop(index)
    if not block:
        block.append(ast.Pass())
    return ast.fix_missing_locations(reduced), deleted


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


def still_failing_reductions(function: Callable[..., Any], target: Failure) -> list[str] | str:
    """The statements of ``function`` whose deletion still fails as ``target`` says (its type,
    and its message up to torch's hint): empty when the function is 1-minimal; a sentence when it
    cannot be reduced (it does not fail that way, or its source cannot be read)."""
    if not _fails_as(outcome(function), target):
        return "it does not fail that way"
    try:
        return [line for line, reduced in reductions(function) if _fails_as(outcome(reduced), target)]
    except SourceUnavailable as err:
        return str(err)
    except SyntaxError as err:
        return f"it cannot be reduced statement by statement ({err.msg})"


# ------------------------------------------------------------------------------ mutation
def passes_with(test: Callable[[], Any], broken: Callable[[], Any], fixed: Callable[[], Any]) -> bool:
    """True when ``test()`` passes with ``broken`` and ``fixed`` standing for the learner's names.

    The names are swapped in the test's globals for the run and restored afterwards. A test
    fails by raising anything, pytest's own ``Failed`` (a ``BaseException``) included.
    """
    namespace = test.__globals__
    with names_restored(namespace, ("broken", "fixed")):
        namespace["broken"], namespace["fixed"] = broken, fixed
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                test()
        except (KeyboardInterrupt, NotImplementedError):
            raise
        except BaseException:  # noqa: BLE001 - pytest.raises and pytest.fail raise BaseException subclasses
            return False
    return True


@contextmanager
def names_restored(namespace: dict[str, Any], names: Iterable[str]) -> Iterator[None]:
    """``namespace``'s ``names`` as they were before the block (bound or not), whatever it did."""
    kept = {name: namespace.get(name, _MISSING) for name in names}
    try:
        yield
    finally:
        for name, value in kept.items():
            if value is _MISSING:
                namespace.pop(name, None)
            else:
                namespace[name] = value


# ------------------------------------------------------------------------------ evidence
def _codes(code: types.CodeType) -> set[types.CodeType]:
    """A code object and every code object nested in it (inner functions, comprehensions)."""
    found, pending = set(), [code]
    while pending:
        current = pending.pop()
        found.add(current)
        pending += [const for const in current.co_consts if isinstance(const, types.CodeType)]
    return found


def _torch_code() -> frozenset[types.CodeType]:
    """The code of torch's own Python: every function of a torch module loaded when this module is
    imported, before any answer runs, and every method of its classes (``F.tanh``, a layer's
    ``forward``, ``Tensor.__iter__``, the wrapper of ``1 - t``), with the code nested in them. A
    call made from it is made for the code that called torch. Code an answer compiles later, under
    whatever file name, is not among it."""
    found: set[types.CodeType] = set()

    def take(item: Any) -> None:
        function = item.__func__ if isinstance(item, staticmethod | classmethod) else item
        if isinstance(function, types.FunctionType):
            found.update(_codes(function.__code__))

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a deprecated name warns when it is looked at
        for name, module in list(sys.modules.items()):
            if module is None or not (name == "torch" or name.startswith("torch.")):
                continue
            for value in list(vars(module).values()):
                take(value)
                if isinstance(value, type) and str(getattr(value, "__module__", "")).startswith("torch"):
                    for member in list(vars(value).values()):
                        take(member)
    return frozenset(found)


_TORCH_CODE = _torch_code()


_RAISE = dis.opmap["RAISE_VARARGS"]


def raised_by_its_own_statement(function: Callable[..., Any], err: BaseException | None) -> bool:
    """Whether ``err`` was raised by a ``raise`` statement written where ``function`` was (its code,
    code nested in it, or a helper of the same cell) rather than by anything else it called: an
    error written by hand. Read off the innermost entry of the error's traceback: the instruction it
    stopped at is a ``raise`` (an error torch raises stops its caller at a call). It names a mistake
    and decides no grade, so the cell is told by the code's file name. No error (None): False."""
    code = getattr(function, "__code__", None)
    entry = err.__traceback__ if err is not None else None
    if not isinstance(code, types.CodeType) or entry is None:
        return False
    while entry.tb_next is not None:
        entry = entry.tb_next
    raising = entry.tb_frame.f_code
    written_there = raising in _codes(code) or raising.co_filename == code.co_filename
    return written_there and raising.co_code[entry.tb_lasti] == _RAISE


def _tensors(value: Any) -> Iterator[torch.Tensor]:
    if isinstance(value, torch.Tensor):
        yield value
    elif type(value) in (tuple, list):
        for item in value:
            yield from _tensors(item)


def _assigns_through_a_view(shape: torch.Size, index: Any) -> bool:
    """Whether ``t[index] = ...``, on a tensor ``t`` of this shape, writes through a view of ``t``
    (a slice, a select, an unsqueeze: ``t``'s node becomes ``CopySlices``, as after ``t[index].mul_()``)
    rather than ``t`` itself (``t[...]`` and ``t[:]`` are ``t``; a tensor or list index writes ``t``
    with ``index_put_``). Torch answers, on a scratch tensor of that shape."""
    with facts.untouched(), _enable_grad():
        scratch = _clone(_zeros(shape, requires_grad=True))
        try:
            _setitem(scratch, index, 0.0)
        except Exception:  # noqa: BLE001 - an index torch refuses here writes nothing through a view
            return False
        return type(facts.grad_fn(scratch)) is _COPY_SLICES


class Witness(TorchFunctionMode):
    """Watches the torch calls a function makes: where each was called from, the tensors they
    returned, the errors that left a backward, and how its in-place writes reached the graph: through
    an alias, or directly.

    Args:
        own: The function watched: calls from its code (and code nested in it) are its own.
        providers: Functions of the course that hand it data (their calls are theirs).
    """

    def __init__(self, own: Callable[..., Any], providers: Iterable[Callable[..., Any]] = ()) -> None:
        super().__init__()
        code = getattr(own, "__code__", None)
        self.own = _codes(code) if isinstance(code, types.CodeType) else set()
        self.providers = set().union(*(_codes(p.__code__) for p in providers if hasattr(p, "__code__")))
        self.outputs: list[torch.Tensor] = []
        self.outside: set[str] = set()
        self.escaped: list[tuple[BaseException, str, bool]] = []
        self.through_alias = False
        self.written_directly = False

    def _caller(self, func: Any) -> types.FrameType | None:
        """The frame the call was made for: the nearest one outside torch's own Python."""
        own_code = getattr(inspect.unwrap(func), "__code__", None) if callable(func) else None
        frame = sys._getframe(2)
        while frame is not None and (frame.f_code is _DISPATCH or frame.f_code is own_code
                                     or frame.f_code in _TORCH_CODE):
            frame = frame.f_back
        return frame

    def __torch_function__(self, func, types_, args=(), kwargs=None):
        if any(func is switch for switch in MODE_SWITCHES):
            return func(*args, **(kwargs or {}))
        frame = self._caller(func)
        mine = frame is not None and frame.f_code in self.own
        if frame is not None and not mine and frame.f_code not in self.providers:
            self.outside.add(frame.f_code.co_name)
        # Every call's writes are looked at, a helper's too: the writes that make a failure are the
        # answer's whoever makes them (whether it may call that helper is another check's).
        before = self._versions(args, kwargs)
        try:
            result = func(*args, **(kwargs or {}))
        except BaseException as err:
            if any(func is backward for backward in BACKWARDS):
                self.escaped.append((err, _message(err), mine))
            raise
        finally:
            if before:
                written = self._written(func, before, args, kwargs)
                self.through_alias |= written == "through an alias"
                self.written_directly |= written == "directly"
        self.outputs += list(_tensors(result))
        return result

    def _versions(self, args: tuple, kwargs: dict | None) -> dict[int, tuple[torch.Tensor, int]]:
        """The version of every tensor the function had and of the call's arguments, by identity."""
        found: dict[int, tuple[torch.Tensor, int]] = {}
        with facts.untouched():
            for t in [*self.outputs, *_tensors(list(args)), *_tensors(list((kwargs or {}).values()))]:
                if id(t) not in found:
                    found[id(t)] = (t, facts.version(t))
        return found

    def _written(self, func: Any, before: dict[int, tuple[torch.Tensor, int]], args: tuple,
                 kwargs: dict | None) -> str | None:
        """How the call wrote, in place, a tensor of the graph: ``"through an alias"`` — a view, or a
        tensor off the graph (what ``detach()`` makes), of another tensor whose version it moved
        with it, one autograd tracks (the writes share that tensor's version counter) —,
        ``"directly"`` — a tensor autograd tracks, itself —, or None when it wrote neither. An
        indexed assignment ``t[index] = ...`` writes through a view when torch makes it through one
        that it takes for the purpose (``t[:, 4:] = ...`` copies into ``t[:, 4:]``), else ``t``
        itself (``t[...]``, ``t[:]``, or a tensor index: ``index_put_``)."""
        with facts.untouched():
            moved = [t for t, version in before.values() if facts.version(t) != version]
            written = [t for t in [*_tensors(list(args)), *_tensors(list((kwargs or {}).values()))]
                       if any(t is m for m in moved)]
            if (func is _setitem and len(args) == 3 and facts.is_tensor(args[0]) and any(args[0] is t for t in written)
                    and facts.requires_grad(args[0])):
                return "through an alias" if _assigns_through_a_view(facts.shape(args[0]), args[1]) else "directly"
            if any((_is_view(t) or not facts.requires_grad(t))
                   and any(s is not t and facts.requires_grad(s) for s in moved) for t in written):
                return "through an alias"
            if any(facts.requires_grad(t) and not _is_view(t) for t in written):
                return "directly"
            return None

    def stale_messages(self) -> set[str]:
        """The errors torch gives when asked for the saved tensors of the graph the watched
        tensors belong to: one for each saved tensor that was written after it was saved. Only
        torch's own nodes are read, through :mod:`autograder.engine.facts` (a node class of the
        answer's could raise what it likes)."""
        messages: set[str] = set()
        seen: set[int] = set()
        with facts.untouched():
            pending = []
            for t in self.outputs:
                try:
                    pending.append(facts.grad_fn(t))
                except RuntimeError:  # a view made under no_grad whose base was written since: torch
                    pass              # refuses its node, and the base's graph is read from the base
            while pending:
                node = pending.pop()
                if node is None or id(node) in seen:
                    continue
                seen.add(id(node))
                if facts.is_torch_node(node):
                    for name in dir(node):
                        if name.startswith("_saved_"):
                            try:
                                getattr(node, name)
                            except RuntimeError as err:
                                messages.add(_message(err))
                            except Exception:  # noqa: BLE001 - a saved attribute that cannot be read says nothing
                                pass
                pending += facts.next_nodes(node)
        return messages


def _message(err: BaseException) -> str:
    return raised_as_data(err)[1]


def witnessed_failure(function: Callable[[], Any], providers: Iterable[Callable[..., Any]] = (), *,
                      _witness: type[Witness] = Witness, _as_data: Callable[..., tuple] = raised_as_data
                      ) -> dict[str, Any]:
    """Run ``function()`` watched; report what it raised and the evidence of where from.

    Returns:
        ``raised by a raise statement written in the answer``: :func:`raised_by_its_own_statement`;
        ``raised``: ``[type name, message]`` or None; ``raised by a backward it called``: the
        error left a call of ``backward`` (or ``autograd.grad``) made by the function's own
        statements, with its message unchanged since; ``a saved tensor is stale with that
        message``: asking the graph it built for a saved tensor gives that very error;
        ``written through an alias``: its in-place writes to tensors of the graph (its own or a
        function's it called) went through an alias of them (a view, or a ``detach()``), none to
        such a tensor itself; ``torch calls made by other
        functions``: the names of functions other than itself (and the providers of data) from
        which torch was called.
    """
    witness = _witness(function, providers)
    error = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with witness:
                function()
    except NotImplementedError:
        raise
    except Exception as err:  # noqa: BLE001 - every failure is an observation
        error = err
    raised = None if error is None else list(_as_data(error))
    by_backward = error is not None and any(
        err is error and message == raised[1] and mine for err, message, mine in witness.escaped)
    stale = error is not None and raised[1] in witness.stale_messages()
    return {"raised by a raise statement written in the answer": raised_by_its_own_statement(function, error),
            "raised": raised, "raised by a backward it called": by_backward,
            "a saved tensor is stale with that message": stale,
            "written through an alias": witness.through_alias and not witness.written_directly,
            "torch calls made by other functions": sorted(witness.outside)}


def deletions_keeping(function: Callable[[], Any], *, _outcome: Callable[..., Any] = outcome,
                      _reductions: Callable[..., Any] = reductions) -> int | str:
    """How many one-statement deletions of ``function`` still raise exactly what it raises."""
    found = _outcome(function)
    if found is None:
        return "it does not fail"
    try:
        return sum(_outcome(reduced) == found for _line, reduced in _reductions(function))
    except SourceUnavailable as err:
        return f"it cannot be reduced statement by statement: {err}"
    except SyntaxError as err:
        return f"it cannot be reduced statement by statement ({err.msg})"

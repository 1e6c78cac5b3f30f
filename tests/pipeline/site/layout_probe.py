"""Ask every public function of a package a layout question, with torch replaced by a stub.

Run as a script by ``tests/pipeline/site/test_kit.py``, in a fresh ``python -I -S`` whose ``sys.path`` holds only
an extracted learner's wheel and the folder of its other dependencies (numpy, matplotlib,
ipywidgets). Before anything is imported, ``torch`` is a stub module that raises
:class:`TorchUsed` on any use, so a function can only answer by computing the answer itself.

Each question (read from stdin as a Python literal) carries the answer torch gave and the ways a
function could be asked it: ``direct`` argument tuples (``f(*args)``: the exercises' own
signatures, a shape with a chain of op texts ...), and ``subjects`` (arguments that build an
object of the package, such as a layout record or an explorer) with ``methods`` argument tuples,
asked as ``obj.method(*args)`` and as ``f(obj, *args)``. A question about ``view`` also carries
``refused`` twins of its arguments: the same tensor with a shape torch refuses.

A finding is a call whose result (its repr, its public attributes, one level down, the object's
state after a method call) spells the answer's strides as a tuple or list literal, or a call site
that accepts the legal shape and refuses its twin (an exception other than :class:`TorchUsed`,
``False``, or a result whose ``legal`` is False). Prints a JSON report.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import pathlib
import re
import signal
import sys
import types

SECONDS_PER_CALL = 5


class TorchUsed(Exception):
    """Raised by the stub on any use of torch."""


class _Stub(types.ModuleType):
    def __getattr__(self, name: str):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        raise TorchUsed(f"torch.{name}")


class _Slow(Exception):
    pass


def _alarm(signum, frame):
    raise _Slow


def install_stub() -> None:
    stub = _Stub("torch")
    stub.__path__ = []  # a package with no submodules: `import torch.nn` fails
    sys.modules["torch"] = stub


def modules_of(site: pathlib.Path, package: str) -> list[str]:
    root = site / package
    names = []
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(site).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


def public_callables(modules: list[types.ModuleType], package: str) -> list[tuple[str, object]]:
    """Public functions and classes defined in the package, and the class-level methods of those classes."""
    found: dict[int, tuple[str, object]] = {}
    for module in modules:
        for name, obj in vars(module).items():
            if name.startswith("_") or not (inspect.isfunction(obj) or inspect.isclass(obj)):
                continue
            if not (getattr(obj, "__module__", "") or "").startswith(package):
                continue
            found.setdefault(id(obj), (f"{obj.__module__}.{obj.__qualname__}", obj))
            if inspect.isclass(obj):
                for attr in dir(obj):
                    raw = inspect.getattr_static(obj, attr, None)
                    if not attr.startswith("_") and isinstance(raw, classmethod | staticmethod):
                        method = getattr(obj, attr)
                        found.setdefault(id(raw), (f"{obj.__module__}.{obj.__qualname__}.{attr}", method))
    return list(found.values())


def instance_methods(obj: object) -> list[str]:
    return [name for name in dir(type(obj)) if not name.startswith("_")
            and inspect.isfunction(inspect.getattr_static(type(obj), name, None))]


def call(function, args: tuple) -> tuple[str, object]:
    """``("ok", result)``, ``("torch", None)`` when torch was used, or ``("raised", exception)``."""
    signal.setitimer(signal.ITIMER_REAL, SECONDS_PER_CALL)
    try:
        return "ok", function(*args)
    except TorchUsed:
        return "torch", None
    except _Slow:
        return "slow", None
    except Exception as err:  # noqa: BLE001 (any refusal is an outcome)
        return "raised", err
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)


def describe(value: object, depth: int = 0) -> str:
    """The repr of a value, and of its items and public attributes, two levels down."""
    parts = []
    try:
        parts.append(repr(value)[:20_000])
    except Exception:  # noqa: BLE001, S110 (a repr that fails says nothing)
        pass
    if depth < 2:
        items = list(value)[:64] if isinstance(value, tuple | list) else []
        attributes = getattr(value, "__dict__", None)
        if isinstance(attributes, dict) and not isinstance(value, type | types.ModuleType):
            items += [v for k, v in list(attributes.items())[:64] if not k.startswith("_")]
        parts += [describe(item, depth + 1) for item in items]
    return "\n".join(parts)


def literal(numbers: tuple[int, ...]) -> re.Pattern:
    """A tuple or list literal of exactly these integers."""
    body = r",\s*".join(str(n) for n in numbers)
    return re.compile(r"[(\[]\s*" + body + r"\s*,?\s*[)\]]")


def says_refused(outcome: tuple[str, object]) -> bool:
    kind, result = outcome
    return kind == "raised" or (kind == "ok" and (result is False or getattr(result, "legal", None) is False))


def says_accepted(outcome: tuple[str, object]) -> bool:
    kind, result = outcome
    return kind == "ok" and result is not False and getattr(result, "legal", None) is not False


def main() -> None:
    config = ast.literal_eval(sys.stdin.read())
    install_stub()
    sys.path[:0] = config["path"]
    site, package = pathlib.Path(config["path"][0]), config["package"]
    signal.signal(signal.SIGALRM, _alarm)

    imported, failed = [], {}
    for name in modules_of(site, package):
        try:
            imported.append(importlib.import_module(name))
        except Exception as err:  # noqa: BLE001 (a module that needs torch to import answers nothing)
            failed[name] = f"{type(err).__name__}: {err}"
    callables = public_callables(imported, package)
    report = {"imported": [m.__name__ for m in imported], "failed": failed, "calls": 0, "returned": 0,
              "subjects": [], "findings": []}

    def ask(label: str, function, args: tuple, question: dict, after=None) -> tuple[str, object]:
        outcome = call(function, args)
        report["calls"] += 1
        report["returned"] += outcome[0] == "ok"
        seen = describe(outcome[1]) if outcome[0] == "ok" else ""
        if after is not None:
            seen += "\n" + describe(after)
        if literal(question["answer"]).search(seen):
            report["findings"].append({"question": question["name"], "call": label, "args": repr(args),
                                       "how": f"returns or holds {question['answer']}"})
        return outcome

    def twins(label: str, question: dict, accepted: tuple[str, object], refused: tuple[str, object],
              args: tuple) -> None:
        if says_accepted(accepted) and says_refused(refused):
            report["findings"].append({"question": question["name"], "call": label, "args": repr(args),
                                       "how": f"accepts the legal view and refuses its twin ({refused[1]!r})"})

    for question in config["questions"]:
        refused = question.get("refused", {})
        for label, function in callables:
            for k, args in enumerate(question.get("direct", ())):
                outcome = ask(label, function, args, question)
                if "direct" in refused:
                    twins(label, question, outcome, call(function, refused["direct"][k]), args)
            for subject_args in question.get("subjects", ()):
                subject_outcome = call(function, subject_args)
                subject = subject_outcome[1]
                if subject_outcome[0] != "ok" or not type(subject).__module__.startswith(package):
                    continue
                report["subjects"].append(f"{label}{subject_args!r}")
                for k, args in enumerate(question.get("methods", ())):
                    for method in instance_methods(subject):
                        fresh = call(function, subject_args)[1]  # the method may change its object
                        outcome = ask(f"{label}(...).{method}", getattr(fresh, method), args, question, after=fresh)
                        if "methods" in refused:
                            other = call(function, subject_args)[1]
                            twins(f"{label}(...).{method}", question, outcome,
                                  call(getattr(other, method), refused["methods"][k]), args)
                    for free_label, free in callables:
                        outcome = ask(f"{free_label}(<{label}>, ...)", free, (subject, *args), question)
                        if "methods" in refused:
                            twins(f"{free_label}(<{label}>, ...)", question, outcome,
                                  call(free, (subject, *refused["methods"][k])), args)
    print(json.dumps(report))


if __name__ == "__main__":
    main()

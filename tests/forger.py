"""A submission that tries every way of learning what its answers should give, from inside the sandbox.

Placed as its first answer cell, it looks for the answer key where the grader's own code runs:
importing the trusted package and the judging, and — rebinding the engine's observing function, so
that it runs at the moment each check runs — walking the stack and every live object for anything
of the trusted side. Had it found a key, it would answer with it. It reports what it found on the
sandbox's report pipe as a cell of its own (``FINDINGS``), which the grader reads as data and the
tests read back.
"""

FINDINGS = "forger-findings"

SOURCE = r'''
import gc, importlib, json, os, sys

found = []
for name in ("answer_key", "answer_key.keys", "autograder.judging", "autograder.kernel"):
    try:
        importlib.import_module(name)
        found.append(f"imported {name}")
    except Exception:
        pass

import autograder.engine.observe as observing

_honest = observing.observe_point
TRUSTED = ("answer_key", "autograder.judging")


def _report_fd():
    frame = sys._getframe()
    while frame is not None:
        if frame.f_code.co_name == "_report_probe":
            return frame.f_locals.get("report")
        frame = frame.f_back
    return None


def _search():
    hits = []
    frame = sys._getframe()
    while frame is not None:
        for value in list(frame.f_locals.values()):
            if (type(value).__module__ or "").startswith(TRUSTED):
                hits.append(f"frame {frame.f_code.co_name}: {type(value).__name__}")
        frame = frame.f_back
    for obj in gc.get_objects():
        try:
            module = getattr(type(obj), "__module__", "") or ""
            owner = getattr(obj, "__module__", "") if callable(obj) else ""
        except Exception:
            continue
        if (isinstance(module, str) and module.startswith(TRUSTED)) or (isinstance(owner, str)
                                                                      and owner.startswith(TRUSTED)):
            hits.append(f"object {type(obj).__name__} of {module or owner}")
    hits += [f"module {m}" for m in list(sys.modules) if m.startswith(TRUSTED)]
    return hits


def _forged(case, answer, inputs):
    hits = _search()
    fd = _report_fd()
    if fd is not None:
        line = {"cell": "%(findings)s", "outputs": [{"name": "stdout", "text": json.dumps(
            {"searched": True, "found": found + hits[:20]})}]}
        os.write(fd, (json.dumps(line) + "\n").encode())
    return _honest(case, answer, inputs)


observing.observe_point = _forged
print("forger:", found)
'''.replace("%(findings)s", FINDINGS)

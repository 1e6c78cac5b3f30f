"""A submission that tries every way of learning what its answers should give, from inside the sandbox.

Placed as its first answer cell, it looks for the answer key where the grader's own code runs:
importing the trusted package and the judging, and — rebinding the engine's observing function, so
that it runs at the moment each check runs — walking the stack and every live object for anything
of the trusted side. Had it found a key, it would answer with it. It says what it found in the one
way a probe can speak: the error its checks end with (``FINDINGS`` and the list), which the grader
reads back as that test cell's failure.
"""

FINDINGS = "FORGER FOUND"

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
    raise RuntimeError("%(findings)s " + json.dumps(found + _search()[:20]))


observing.observe_point = _forged
print("forger:", found)
'''.replace("%(findings)s", FINDINGS)

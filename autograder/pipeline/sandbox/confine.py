"""Confinement of a forked process before it runs submission code (Linux, as root).

The order matters: namespaces and mounts need root, so they come first (the job's own PID
namespace, then its jail: :mod:`autograder.pipeline.sandbox.jail`); rlimits are set while still
root (a lowered hard limit cannot be raised again); the uid drop comes last, after which the
process cannot undo any of it.
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
import time
from dataclasses import asdict, dataclass

from autograder.pipeline.sandbox.jail import SCRATCH

PR_SET_PDEATHSIG = 1
PR_SET_NO_NEW_PRIVS = 38
PR_SET_CHILD_SUBREAPER = 36
SIOCGIFFLAGS = 0x8913
SIOCSIFFLAGS = 0x8914
IFF_UP = 0x1

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


def loopback_up() -> None:
    """Bring up ``lo`` in the new network namespace (torch.distributed's gloo needs 127.0.0.1)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(sock, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(sock, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))


def confine(uid: int, gid: int, limits: Limits) -> None:
    """Turn the calling (forked, root) process, already inside its jail
    (:func:`autograder.pipeline.sandbox.jail.enter`), into a sandbox; irreversible.

    Loopback up, resource limits, then the sandbox user with no supplementary groups and no way
    to regain privileges, and the sandbox's environment.
    """
    loopback_up()
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


def become_subreaper() -> None:
    """Orphans of the sandbox become this process's children, so that it reaps them."""
    _check(_libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0), "prctl(CHILD_SUBREAPER)")


def processes_of(uid: int) -> list[int]:
    """Live (non-zombie) processes whose real uid is ``uid``, read from /proc.

    Every job ends with a few of these scans of every process of the machine, so each reads a
    process's status with two system calls and looks up only its two fields (a job cannot fake a
    line: the kernel escapes a newline in the process's name)."""
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            fd = os.open(f"/proc/{name}/status", os.O_RDONLY)
        except OSError:
            continue
        try:
            status = os.read(fd, 8192)
        except OSError:
            continue
        finally:
            os.close(fd)
        state, real_uid = status.find(b"\nState:\t"), status.find(b"\nUid:\t")
        if state < 0 or real_uid < 0 or status[state + 8:state + 9] in (b"Z", b"X"):
            continue
        if int(status[real_uid + 6:].split(b"\t", 1)[0]) == uid:
            found.append(int(name))
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

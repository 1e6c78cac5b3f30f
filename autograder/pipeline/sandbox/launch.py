"""One job, from the root side: fork the process that becomes the job, supervise what it reports
through its gate within the job's limits, and leave no process of the sandbox user behind.

The zygote launches a job from the top here, and a prefix holder launches one after its chapter's
prefix (:mod:`autograder.pipeline.sandbox.prefix`); both call :func:`run`. Everything the child does
after the fork is :mod:`autograder.pipeline.sandbox.runner`'s. The pieces of grader code a job's
trials run on are read (``pieces()``) only after the fork, so the job's process never held them
before its gate hands each one over.
"""

from __future__ import annotations

import os
import select
import signal
import socket
import struct
import time
from collections.abc import Callable

from autograder.pipeline.sandbox import confine, gate, jail, runner, wire

# Bytes of printed output read at a time, and seconds a job's pipes may stay open after its
# process ended (held by something it started).
CHUNK = 1 << 16
GRACE = 0.5
# Descriptors read with one message at most (a secret's request carries one).
MAX_FDS = 16


def run(job: wire.Job, uid: int, gid: int, jail_root: str, pieces: Callable[[], dict[str, str]]) -> wire.JobResult:
    """Fork the job (it enters a PID namespace and the jail at ``jail_root``, then confines
    itself), collect what its gate accepts and clean up everything it started."""
    limits = confine.Limits(**job.limits)
    control, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    output_r, output_w = os.pipe()
    pid = jail.fork_into_pid_namespace()
    if pid == 0:  # the child: the job's first process; never returns
        try:
            control.close()
            os.close(output_r)
            runner.run_job(job, uid, gid, theirs.fileno(), output_w, jail_root)
        finally:
            os._exit(70)
    theirs.close()
    os.close(output_w)
    try:
        trusted = gate.Gate.of(job.plan, pieces(), limits.probe)
        return _supervise(pid, uid, trusted, control, output_r, limits)
    finally:
        control.close()
        os.close(output_r)


def _supervise(pid: int, uid: int, trusted: gate.Gate, control: socket.socket, output_r: int,
               limits: confine.Limits) -> wire.JobResult:
    started = time.monotonic()
    status, reason = watch(pid, trusted, control, output_r, limits)
    # The job's processes first (its first process, pid 1 of its namespace, takes the rest with it),
    # then the root process waiting for it, then anything of the sandbox user still standing.
    killed = confine.kill_all(uid)
    if status is None:
        try:
            os.kill(pid, signal.SIGKILL)
            _, status = os.waitpid(pid, 0)
        except (ChildProcessError, ProcessLookupError):
            status = None
    killed += confine.kill_all(uid)
    confine.reap()
    if trusted.violation:
        reason = f"stopped: the submission {trusted.violation}"
    return wire.JobResult(_describe(status), reason, round(time.monotonic() - started, 3), killed,
                          wire.report_text(trusted.lines, trusted.finished), violation=trusted.violation,
                          secrets=trusted.secrets)


def watch(pid: int, trusted: gate.Gate, control: socket.socket, output_r: int,
          limits: confine.Limits) -> tuple[int | None, str]:
    """Follow a job through its gate until it ends, breaks the gate or overruns a limit: its exit
    status (None while it runs) and why it was stopped ("" when it was not)."""
    deadline = time.monotonic() + limits.wall
    output_size, status, reason, exited = 0, None, "", 0.0
    readers = {control.fileno(), output_r}

    def open_pipe(key: str, piece: str | None) -> int:
        return gate.grant(control, key, piece)

    while not trusted.violation:
        if status is None:
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status, exited = code, time.monotonic()
        watched = readers | ({trusted.opened.read} if trusted.opened else set())
        if status is not None and (not watched or time.monotonic() > exited + GRACE):
            break  # a leftover process keeps a pipe open; it is killed afterwards
        if time.monotonic() > deadline:
            reason = f"timed out after {limits.wall:.0f} s"
            break
        probe_deadline = trusted.deadline()
        if probe_deadline is not None and time.monotonic() > probe_deadline:
            trusted.pipe_closed(overran=True)
            continue
        ready, _, _ = select.select(list(watched), [], [], 0.02)
        # A probe's pipe first: what the job says on its control socket after a probe's line (ready
        # for the next) came after that line.
        for fd in sorted(ready, key=lambda fd: trusted.opened is None or fd != trusted.opened.read):
            if trusted.opened is not None and fd == trusted.opened.read:
                chunk = os.read(fd, CHUNK)
                if not chunk or trusted.pipe_data(chunk):
                    trusted.pipe_closed()
            elif fd == output_r:
                chunk = os.read(fd, CHUNK)
                output_size += len(chunk)
                if not chunk:
                    readers.discard(fd)
            elif fd == control.fileno():
                chunk, fds = _received(control)
                if chunk:
                    trusted.control_data(chunk, open_pipe, fds)
                else:
                    readers.discard(fd)
        if output_size > limits.flood:
            reason = "flooded its output; stopped"
            break
    if trusted.opened is not None:
        trusted.pipe_closed(overran=bool(reason))
    trusted.close_fds()
    return status, reason


def _received(control: socket.socket) -> tuple[bytes, list[int]]:
    """What the job sent on its control socket, and the descriptors that came with it."""
    data, ancillary, _flags, _ = control.recvmsg(CHUNK, socket.CMSG_SPACE(4 * MAX_FDS), socket.MSG_CMSG_CLOEXEC)
    fds = []
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds += list(struct.unpack(f"{len(payload) // 4}i", payload[: len(payload) // 4 * 4]))
    return data, fds


def _describe(status: int | None) -> str:
    if status is None:
        return "killed by the grader"
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        if number == signal.SIGXCPU:
            return "used up its CPU time (SIGXCPU)"
        return f"killed by signal {number} ({signal.Signals(number).name})"
    code = os.WEXITSTATUS(status)
    if code > 128 and code - 128 in signal.Signals._value2member_map_:  # the job's first process was signalled
        number = code - 128
        if number == signal.SIGXCPU:
            return "used up its CPU time (SIGXCPU)"
        return f"killed by signal {number} ({signal.Signals(number).name})"
    return f"exited with code {code}"

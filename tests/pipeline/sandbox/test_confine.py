"""Finding what a sandbox user still runs: :func:`autograder.pipeline.sandbox.confine.processes_of`."""

from __future__ import annotations

import ctypes
import os
import signal
import time

import pytest

from autograder.pipeline.sandbox.confine import is_root, processes_of

pytestmark = pytest.mark.skipif(not is_root(), reason="changing a process's uid needs root")

# A uid no account of the machine uses.
NOBODYS = 64_999
PR_SET_NAME = 15


def _child(uid: int | None, name: bytes) -> int:
    """A process that names itself ``name``, takes ``uid`` (None: keeps root) and sleeps."""
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_NAME, ctypes.c_char_p(name), 0, 0, 0)
            if uid is not None:
                os.setresuid(uid, uid, uid)
            os.write(ready_w, b"1")
            time.sleep(60)
        finally:
            os._exit(0)
    os.close(ready_w)
    assert os.read(ready_r, 1) == b"1"
    os.close(ready_r)
    return pid


def test_a_process_of_the_user_is_found_until_it_is_a_zombie():
    pid = _child(NOBODYS, b"job")
    try:
        assert processes_of(NOBODYS) == [pid]
        os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while processes_of(NOBODYS) and time.monotonic() < deadline:
            time.sleep(0.01)
        # Killed and not yet reaped: a zombie runs nothing.
        assert processes_of(NOBODYS) == []
        assert os.waitpid(pid, os.WNOHANG)[0] == pid
    finally:
        _kill(pid)


def test_a_name_that_holds_a_uid_line_changes_nothing():
    # The kernel escapes a newline in the name; no line of the name is read as the uid.
    hiding = _child(NOBODYS, b"x\nUid:\t0\t0")
    posing = _child(None, f"x\nUid:\t{NOBODYS}".encode())
    try:
        assert processes_of(NOBODYS) == [hiding]
        assert posing in processes_of(0) and hiding not in processes_of(0)
    finally:
        _kill(hiding)
        _kill(posing)


def _kill(pid: int) -> None:
    try:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ProcessLookupError, ChildProcessError):
        pass

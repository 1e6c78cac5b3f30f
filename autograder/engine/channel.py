"""The job's half of the gate (:mod:`autograder.pipeline.sandbox.gate`): how a job's processes talk to
their supervisor. A cell's outputs go out with :func:`send`; a probe's report pipe is asked for with
:func:`open_channel` and its one line written with :func:`write_report`; a draw only the supervisor
keeps is asked for with :func:`secret`.

It uses the standard library only: a bare interpreter, which has nothing else, runs it from this
file's source (:mod:`autograder.engine.bare`).
"""

from __future__ import annotations

import json
import os
import socket
import struct

__all__ = ["BARE", "HEADER", "open_channel", "secret", "send", "write_report"]

#: The one probe of a bare job: every call of its checks, reported in one line.
BARE = "bare"
#: The length of a message the supervisor sends a job, before it (the pipe's descriptor comes with it).
HEADER = struct.Struct(">I")


def send(control: int, message: dict) -> None:
    """Send one message (a cell's report, or ready for a probe) to the supervisor."""
    data = (json.dumps(message) + "\n").encode()
    while data:
        data = data[os.write(control, data):]


def open_channel(control: int, key: str) -> tuple[int, str | None]:
    """Say the job is ready for probe ``key``; the write end of its report pipe, and the piece
    of grader code it runs on (a trial's), once the supervisor opens it."""
    send(control, {"ready": key})
    with socket.socket(fileno=os.dup(control)) as sock:
        while True:
            header, fds = _receive(sock)
            if header.get("probe") == key and len(fds) == 1:
                return fds[0], header.get("piece")
            for fd in fds:  # an earlier probe's pipe, opened after its child had gone
                os.close(fd)


def _receive(sock: socket.socket) -> tuple[dict, list[int]]:
    data, ancillary, _flags, _ = sock.recvmsg(HEADER.size, socket.CMSG_SPACE(4 * 4), socket.MSG_CMSG_CLOEXEC)
    while data and len(data) < HEADER.size:
        data += sock.recv(HEADER.size - len(data))
    if len(data) < HEADER.size:
        raise EOFError("the supervisor closed the control socket")
    fds = []
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds += list(struct.unpack(f"{len(payload) // 4}i", payload[: len(payload) // 4 * 4]))
    (size,) = HEADER.unpack(data)
    body = b""
    while len(body) < size:
        chunk = sock.recv(size - len(body))
        if not chunk:
            raise EOFError("the supervisor closed the control socket")
        body += chunk
    return json.loads(body), fds


def secret(control: int, tag: str) -> str:
    """Random bytes (as hex) the supervisor draws for ``tag`` and keeps; only this process reads them."""
    read, write = os.pipe()
    try:
        message = (json.dumps({"secret": tag}) + "\n").encode()
        with socket.socket(fileno=os.dup(control)) as sock:
            sock.sendmsg([message], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack("i", write))])
    finally:
        os.close(write)
    data = b""
    while chunk := os.read(read, 256):
        data += chunk
    os.close(read)
    return data.decode()


def write_report(channel: int, line: dict) -> None:
    """Write a probe's one report line on its pipe and close it."""
    data = (json.dumps(line) + "\n").encode()
    try:
        while data:
            data = data[os.write(channel, data):]
    finally:
        os.close(channel)

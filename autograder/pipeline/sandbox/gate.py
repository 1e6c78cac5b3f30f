"""The gate: how a job reports, so that no report can be written for a probe that has not run.

A job holds no channel the grader reads its verdicts from. It holds one *control* socket to the
process that supervises it (root, outside the job: the zygote or a prefix holder), which walks the
job's plan step by step (:class:`Gate`):

* a code cell's outputs come over the control socket (``{"cell": key, ...}``), each in its turn;
  they are the answer's word and are only shown;
* at a probe (a test cell's checks, a trial, a bare job's calls) the job says ``{"ready": key}``;
  only then does the supervisor make a pipe for that probe and pass its write end through the
  socket (``SCM_RIGHTS``), with the piece of grader code a trial runs on. The probe's one report
  line comes back on that pipe, which the supervisor closes when the line came, the pipe closed or
  the probe's time ran out;
* anything out of turn — a cell or a probe other than the next one, any message but a secret's
  while a probe's pipe is open, a second line on a probe's pipe, a line naming another probe, a
  message that is not well-formed — is a *violation*: the job is stopped and scores nothing.

So a report line exists only for a probe the supervisor opened, in order, while it was open; a
probe whose line never came scores zero; and the end of a plan is the supervisor's own record,
not a line the job writes. What a probe reports about the answer is still the answer's word: a
grade rests on comparing it with expectations the job cannot learn (``ARCHITECTURE.md``).

While a probe is open, a process of the job may ask for a *secret* (``{"secret": tag}``, with the
write end of a pipe for the answer): random bytes the supervisor draws, hands to that process alone
and keeps, once per tag in a probe. A check whose truth must be drawn where no other process of the job can
see it (which rank changed its module, and how) draws it so: the grader judges against what the
supervisor kept, never against what the job says it drew.

The job's half is :mod:`autograder.engine.channel`.
"""

from __future__ import annotations

import json
import os
import socket
import struct
from dataclasses import dataclass, field
from typing import Any

from autograder.engine.channel import BARE, HEADER

__all__ = ["Gate", "grant"]

# Largest message a job may send on its control socket, and largest report line of a probe.
MAX_MESSAGE = 8 * 2**20
MAX_REPORT = 256 * 2**20


# ------------------------------------------------------------------------ the supervisor's half
@dataclass
class Opened:
    """The probe whose pipe is open: its key, the pipe's read end, when it opened, what came."""

    key: str
    read: int
    opened: float
    data: bytearray = field(default_factory=bytearray)


@dataclass
class Gate:
    """The supervisor's walk through one job's plan (see the module's docstring).

    Attributes:
        steps: ``(key, kind, piece)`` of every step the job must report, in order: kind ``"cell"``
            or ``"probe"``; a trial's piece of grader code, or None.
        probe_seconds: How long a probe's pipe stays open.
        lines: The report lines accepted so far, as the trusted side reads them.
        violation: Why the job was stopped for writing out of turn, once it was.
    """

    steps: list[tuple[str, str, str | None]]
    probe_seconds: float
    lines: list[dict] = field(default_factory=list)
    violation: str = ""
    position: int = 0
    opened: Opened | None = None
    secrets: dict[str, dict[str, str]] = field(default_factory=dict)
    _buffer: bytearray = field(default_factory=bytearray)
    _fds: list[int] = field(default_factory=list)
    _drawn: set[tuple[str, str]] = field(default_factory=set)

    @classmethod
    def of(cls, plan: Any, pieces: dict[str, str], probe_seconds: float) -> Gate:
        """The gate of a plan (a :class:`~autograder.pipeline.sandbox.wire.Plan`)."""
        from autograder.pipeline.sandbox import wire

        if plan.bare is not None:
            return cls([(BARE, "probe", None)], probe_seconds)
        steps = [(s.key, "cell" if isinstance(s, wire.CodeStep) else "probe", pieces.get(s.key)) for s in plan.steps]
        return cls(steps, probe_seconds)

    @property
    def finished(self) -> bool:
        return self.position >= len(self.steps) and self.opened is None

    def _stop(self, why: str) -> None:
        if not self.violation:
            self.violation = why

    # -------------------------------------------------------------------------- control
    def control_data(self, chunk: bytes, open_pipe, fds: list[int] = ()) -> None:
        """Bytes the job sent on its control socket, and the descriptors that came with them (a
        secret's reply pipe); ``open_pipe(key, piece)`` opens a probe's pipe and returns its read end."""
        self._fds += fds
        self._buffer += chunk
        if len(self._buffer) > MAX_MESSAGE:
            self._stop("sent a message larger than the grader reads")
            return
        while b"\n" in self._buffer and not self.violation:
            raw, _, rest = bytes(self._buffer).partition(b"\n")
            self._buffer = bytearray(rest)
            try:
                message = json.loads(raw)
            except ValueError:
                self._stop("wrote something other than the runner's messages on the grader's channel")
                return
            if type(message) is not dict:
                self._stop("wrote something other than the runner's messages on the grader's channel")
                return
            if "secret" in message:
                self._draw(message)
            elif self.opened is not None:
                self._stop(f"wrote on the grader's channel while the checks of {self.opened.key!r} ran")
            else:
                self._take(message, open_pipe)
        if self._fds and not self.violation:
            self._stop("sent the grader a descriptor it did not ask for")
        if self.violation:
            self.close_fds()

    def _draw(self, message: dict) -> None:
        """Draw a secret for the open probe and hand it over on the pipe that came with the request."""
        tag = message.get("secret")
        if not self._fds:
            self._stop("asked for a secret without a pipe to receive it")
            return
        reply = self._fds.pop(0)
        try:
            if self.opened is None or len(message) != 1 or type(tag) is not str or len(tag) > 200:
                self._stop("asked for a secret out of turn")
            elif (self.opened.key, tag) in self._drawn:
                self._stop(f"asked for the secret {tag!r} twice")
            else:
                self._drawn.add((self.opened.key, tag))
                value = os.urandom(16).hex()
                self.secrets.setdefault(self.opened.key, {})[tag] = value
                try:
                    os.write(reply, value.encode())
                except OSError:
                    pass  # the asker is gone; the secret is kept all the same
        finally:
            os.close(reply)

    def close_fds(self) -> None:
        """Close every descriptor the job sent that no request took."""
        while self._fds:
            os.close(self._fds.pop())

    def _take(self, message: dict, open_pipe) -> None:
        """A message of the job's, which must be the next step's: a cell's report, or ready for a probe."""
        if self.position >= len(self.steps):
            self._stop("wrote to the grader's channel after its last step")
            return
        key, kind, piece = self.steps[self.position]
        if kind == "cell" and message.get("cell") == key and len(message) <= 3:
            self.lines.append(_cell_line(message))
            self.position += 1
        elif kind == "probe" and message == {"ready": key}:
            self.opened = Opened(key, open_pipe(key, piece), _now())
        else:
            self._stop(f"reported out of turn on the grader's channel (expected {kind} {key!r})")

    # ---------------------------------------------------------------------------- probes
    def pipe_data(self, chunk: bytes) -> bool:
        """Bytes on the open probe's pipe; whether its line is whole (the probe is then done, whatever
        a process it left behind still holds)."""
        opened = self.opened
        assert opened is not None
        opened.data += chunk
        if len(opened.data) > MAX_REPORT:
            self._stop("wrote more on a probe's report than the grader reads")
        elif b"\n" in opened.data and opened.data.split(b"\n", 1)[1].strip():
            self._stop("wrote a second report line for a probe")
        return b"\n" in opened.data

    def pipe_closed(self, overran: bool = False) -> None:
        """The open probe's pipe closed, or its line came whole, or its time ran out: take its line,
        or say why none came."""
        opened = self.opened
        assert opened is not None
        self.opened = None
        os.close(opened.read)
        text = bytes(opened.data).strip()
        if self.violation:
            return
        if not text:
            overran = overran or _now() - opened.opened >= self.probe_seconds
            why = (f"the checks did not finish within {self.probe_seconds:.0f} s" if overran
                   else "the checks ended before reporting (the answer ended its process)")
            self.lines.append({"probe": opened.key, "failed": why})
        else:
            try:
                line = json.loads(text)
            except ValueError:
                self._stop("wrote something other than a report on a probe's pipe")
                return
            if type(line) is not dict or line.get("probe") != opened.key:
                self._stop(f"wrote a report for another probe than {opened.key!r}")
                return
            self.lines.append(line)
        self.position += 1

    def deadline(self) -> float | None:
        """When the open probe's time runs out (None when no probe is open)."""
        return None if self.opened is None else self.opened.opened + self.probe_seconds + GRACE


# Seconds a probe's pipe stays open after its time: the job stops a probe that overruns itself,
# and its next probe's ready should find this one closed.
GRACE = 2.0


def _now() -> float:
    import time

    return time.monotonic()


def _cell_line(message: dict) -> dict:
    from autograder.pipeline.sandbox import wire

    number = message.get("number") if type(message.get("number")) is int else None
    report = wire.CellReport(message["cell"], wire.outputs_of(message.get("outputs")), number)
    return wire.cell_line(report)


def grant(control: socket.socket, key: str, piece: str | None) -> int:
    """Open probe ``key``'s report pipe: pass its write end to the job; the read end stays here."""
    read, write = os.pipe()
    body = json.dumps({"probe": key, "piece": piece}).encode()
    try:
        control.sendmsg([HEADER.pack(len(body))], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, struct.pack("i", write))])
        control.sendall(body)
    except OSError:
        pass  # the job is gone: the pipe closes with nothing on it
    finally:
        os.close(write)
    return read

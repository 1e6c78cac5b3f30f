"""The messages between the grader, the zygote and the sandbox, as typed data: every message any
of them writes to another is made and read here.

A zygote (and a prefix holder) greets with :class:`Ready`. The grader sends a :class:`Job` (a
:class:`Plan` of :class:`CodeStep`, :class:`ProbeStep` and :class:`TrialStep`, and the limits) to
a zygote as one frame, then the pieces of grader code its trials run on as a second frame, which
the zygote reads only after it forked the job's process; it hands both on, as they came, to its
prefix holder when the job starts with the chapter's prefix. The job reports through its gate
(:mod:`autograder.pipeline.sandbox.gate`): :class:`CellReport` lines and, on each probe's own pipe,
one :class:`ProbeReport` line (a test cell's :class:`~autograder.engine.observe.CellObservation`);
the process that supervised it answers with a :class:`JobResult`, which the zygote passes on as it
came. Everything is JSON; the grader reads every report as untrusted data. Observed values travel
as :mod:`autograder.engine.codec` writes them: exact types kept, tensors as data only, any other
value an inert stand-in.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from typing import Any


class WireError(ValueError):
    """A message from the sandbox that is not well-formed data."""


# ---------------------------------------------------------------------------- observations
def encode_observation(seen: Any) -> dict:
    """A test cell's observations (:class:`autograder.engine.observe.CellObservation`) as tagged JSON
    (:mod:`autograder.engine.codec`), one tensor blob for all its values."""
    from autograder.engine import codec

    tensors: list = []
    cases = {name: [{"value": codec.encode_into(s.value, tensors), "raised": list(s.raised) if s.raised else None,
                     "unanswered": s.unanswered} for s in points] for name, points in seen.cases.items()}
    message: dict = {"points": cases, "missing": seen.missing, "rejected": seen.rejected,
                     "unfinished": seen.unfinished}
    try:
        return codec.attach_tensors(message, tensors)
    except codec.WireError:
        return {"points": {}, "missing": None, "rejected": None,
                "unfinished": "the answer's tensors were too large to report"}


def decode_observation(message: Any) -> Any:
    """Read what :func:`encode_observation` wrote (trusted side; every field is checked).

    Raises:
        WireError: when the message is not well-formed.
    """
    from autograder.engine import codec
    from autograder.engine.observe import CellObservation, Seen

    if type(message) is not dict or type(message.get("points")) is not dict:
        raise WireError("observations must be an object with points")
    try:
        tensors = codec.load_tensors(message.get("tensors"))
        counter = [0]
        cases: dict[str, list[Seen]] = {}
        for name, points in message["points"].items():
            if type(points) is not list:
                raise WireError("malformed observation")
            found = []
            for item in points[:10_000]:
                if type(item) is not dict:
                    raise WireError("malformed observation")
                raised = item.get("raised")
                if raised is not None:
                    if type(raised) is not list or len(raised) != 2 or not all(type(r) is str for r in raised):
                        raise WireError("malformed exception")
                    raised = (raised[0][:200], raised[1][:2000])
                found.append(Seen(codec.decode_from(item.get("value"), tensors, counter), raised,
                                  item.get("unanswered") is True))
            cases[str(name)[:200]] = found
    except codec.WireError as err:
        raise WireError(str(err)) from err
    return CellObservation(cases, *(_optional_text(message.get(k)) for k in ("missing", "rejected", "unfinished")))


def _optional_text(value: Any) -> str | None:
    if value is None:
        return None
    if type(value) is not str:
        raise WireError("expected text or null")
    return value[:2000]


# ------------------------------------------------------------------------------ messages
@dataclass(frozen=True)
class CodeStep:
    """Run one code cell (``key`` is its grade id, or ``#<index>`` for a cell the learner added)."""

    key: str
    source: str


@dataclass(frozen=True)
class ProbeStep:
    """Observe a test cell's cases where it stood: the exercise, its answer name, which cases."""

    key: str
    exercise: str
    answer: str
    hidden: bool
    seed: int


@dataclass(frozen=True)
class TrialStep:
    """Run an exercise's test on one piece of grader code (:mod:`autograder.engine.trials`), where the
    test cell stood: the exercise and its answer. The piece's source is not in the plan: the job
    receives it with the step's report pipe (:mod:`autograder.pipeline.sandbox.gate`), after every
    cell before it ran; nothing says which piece it is."""

    key: str
    exercise: str
    answer: str


_KINDS = {"code": CodeStep, "probe": ProbeStep, "trial": TrialStep}


@dataclass(frozen=True)
class Plan:
    """What the sandbox runs for one submission, in order; or, when ``bare`` is set, the job of a
    bare interpreter (:mod:`autograder.engine.bare`) that runs answer cells without torch."""

    assignment: str
    steps: list[CodeStep | ProbeStep | TrialStep]
    probe_seconds: float = 60.0
    output_limit: int = 64 * 2**10
    bare: dict | None = None
    first_number: int = 1  # the number Run All gives the first step (later when a prefix ran before)

    def to_json(self) -> dict:
        return {"assignment": self.assignment, "probe_seconds": self.probe_seconds,
                "output_limit": self.output_limit, "bare": self.bare, "first_number": self.first_number,
                "steps": [{"kind": _kind(s), **asdict(s)} for s in self.steps]}

    @classmethod
    def from_json(cls, data: dict) -> Plan:
        steps = [_KINDS[step.pop("kind")](**step) for step in data["steps"]]
        return cls(data["assignment"], steps, float(data["probe_seconds"]), int(data["output_limit"]),
                   data.get("bare"), int(data.get("first_number", 1)))


def _kind(step: CodeStep | ProbeStep | TrialStep) -> str:
    return next(kind for kind, cls in _KINDS.items() if type(step) is cls)


@dataclass(frozen=True)
class Prefix:
    """A chapter's locked prefix: the leading locked code cells of its student edition, up to its
    first answer cell (see :mod:`autograder.pipeline.sandbox.prefix`).

    Attributes:
        assignment: The chapter.
        steps: The cells, as every unmodified submission's plan starts.
        may_raise: Keys of the cells the edition tags ``raises-exception``.
    """

    assignment: str
    steps: list[CodeStep]
    may_raise: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"assignment": self.assignment, "steps": [asdict(s) for s in self.steps],
                "may_raise": list(self.may_raise)}

    @classmethod
    def from_json(cls, data: dict) -> Prefix:
        return cls(data["assignment"], [CodeStep(**s) for s in data["steps"]], list(data["may_raise"]))


@dataclass(frozen=True)
class Job:
    """One submission's plan with the limits of its sandbox, and the chapter's prefix when the
    grader offers one."""

    number: int
    plan: Plan
    limits: dict
    wait: float
    prefix: Prefix | None = None

    def to_line(self) -> str:
        return json.dumps({"job": self.number, "plan": self.plan.to_json(), "limits": self.limits,
                           "wait": self.wait, "prefix": None if self.prefix is None else self.prefix.to_json()})

    @classmethod
    def from_line(cls, line: str) -> Job:
        data = json.loads(line)
        prefix = None if data.get("prefix") is None else Prefix.from_json(data["prefix"])
        return cls(data["job"], Plan.from_json(data["plan"]), data["limits"], data["wait"], prefix)


@dataclass(frozen=True)
class Ready:
    """The first line of a zygote or of a prefix holder: whether it takes jobs (and as which
    sandbox user), or why not."""

    ready: bool
    uid: int | None = None
    why: str = ""

    def to_line(self) -> str:
        return json.dumps(asdict(self)) + "\n"

    @classmethod
    def from_line(cls, line: str | bytes) -> Ready:
        try:
            data = json.loads(line)
            return cls(data["ready"] is True, data.get("uid"), str(data.get("why", "")))
        except (ValueError, TypeError, KeyError):
            return cls(False, why="its first line was not a greeting")


@dataclass(frozen=True)
class JobResult:
    """What the zygote says about one job: how it ended, and every line its supervisor accepted
    (:mod:`autograder.pipeline.sandbox.gate`).

    ``prefix`` says how the chapter's prefix was used: empty when none was offered, ``"forked"``
    when the job started from the prefix's state, otherwise why it ran from the top. ``violation``
    says why the job was stopped for writing out of turn on the grader's channel: such a job
    scores nothing. ``secrets`` are the draws the supervisor made for the job's probes (by probe,
    by tag), which the grader judges with.
    """

    status: str
    reason: str = ""
    seconds: float = 0.0
    killed: int = 0
    report: str = ""
    prefix: str = ""
    violation: str = ""
    secrets: dict[str, dict[str, str]] = field(default_factory=dict)

    def to_line(self, number: int) -> str:
        return json.dumps({"job": number, **asdict(self)}) + "\n"

    @classmethod
    def from_line(cls, line: str | bytes) -> JobResult:
        data = json.loads(line)
        return cls(str(data.get("status", "")), str(data.get("reason", "")), float(data.get("seconds", 0.0)),
                   int(data.get("killed", 0)), str(data.get("report", "")), str(data.get("prefix", "")),
                   str(data.get("violation", "")), _secrets(data.get("secrets")))


def _secrets(data: Any) -> dict[str, dict[str, str]]:
    if type(data) is not dict:
        return {}
    return {str(probe): {str(tag): str(value) for tag, value in drawn.items()}
            for probe, drawn in data.items() if type(drawn) is dict}


@dataclass(frozen=True)
class Stream:
    """Text a cell printed."""

    name: str
    text: str


@dataclass(frozen=True)
class Error:
    """The exception a cell ended with."""

    ename: str
    evalue: str


@dataclass(frozen=True)
class CellReport:
    """A code cell's outputs, as the sandbox reported them, and the number it ran under."""

    cell: str
    outputs: list[Stream | Error] = field(default_factory=list)
    number: int | None = None


@dataclass(frozen=True)
class ProbeReport:
    """A test cell's observations, or why its checks did not finish."""

    probe: str
    observation: Any = None  # an autograder.engine.observe.CellObservation
    failed: str | None = None


def cell_line(report: CellReport) -> dict:
    outputs = [{"name": o.name, "text": o.text} if isinstance(o, Stream) else {"ename": o.ename, "evalue": o.evalue}
               for o in report.outputs]
    return {"cell": report.cell, "outputs": outputs, "number": report.number}


def probe_line(report: ProbeReport) -> dict:
    if report.observation is None:
        return {"probe": report.probe, "failed": report.failed or "the checks did not report"}
    return {"probe": report.probe, "observation": encode_observation(report.observation)}


END = {"end": True}


def report_text(lines: list[dict], ended: bool) -> str:
    """A job's report as its supervisor writes it: the accepted lines, then the end when every
    step of the plan reported."""
    return "".join(json.dumps(line) + "\n" for line in [*lines, *([END] if ended else [])])


# --------------------------------------------------------------------------------- frames
def write_frame(fd: int, text: str) -> None:
    """Write one message between the grader, a zygote and a prefix holder: its length, then it."""
    data = text.encode()
    data = f"{len(data)}\n".encode() + data
    while data:
        data = data[os.write(fd, data):]


def read_frame(fd: int) -> str | None:
    """Read exactly one message :func:`write_frame` wrote, and nothing after it (the next one stays
    in the pipe: a piece of grader code is read only after the job's process is forked); None at
    the end of the stream."""
    digits = b""
    while not digits.endswith(b"\n"):
        byte = os.read(fd, 1)
        if not byte:
            return None
        digits += byte
        if len(digits) > 20:
            raise WireError("a frame's length is not a number")
    size = int(digits)
    data = bytearray()
    while len(data) < size:
        chunk = os.read(fd, min(1 << 20, size - len(data)))
        if not chunk:
            return None
        data += chunk
    return data.decode()


@dataclass
class Reports:
    """Every well-formed line of a job's report, as its supervisor accepted them (trusted side;
    every field is still checked as data)."""

    cells: dict[str, CellReport] = field(default_factory=dict)
    probes: dict[str, ProbeReport] = field(default_factory=dict)
    ended: bool = False

    @classmethod
    def read(cls, text: str) -> Reports:
        found = cls()
        for line in text.splitlines():
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if type(message) is not dict:
                continue
            if message.get("end") is True:
                found.ended = True
            elif type(message.get("cell")) is str:
                number = message.get("number") if type(message.get("number")) is int else None
                found.cells[message["cell"]] = CellReport(message["cell"], outputs_of(message.get("outputs")), number)
            elif type(message.get("probe")) is str:
                found.probes[message["probe"]] = _probe(message)
        return found


def outputs_of(outputs: Any) -> list[Stream | Error]:
    """A cell's outputs as reported (untrusted data): streams and errors, nothing else."""
    result: list[Stream | Error] = []
    for out in outputs if type(outputs) is list else []:
        if type(out) is not dict:
            continue
        if type(out.get("ename")) is str:
            result.append(Error(out["ename"], str(out.get("evalue", ""))))
        elif out.get("name") in ("stdout", "stderr") and type(out.get("text")) is str:
            result.append(Stream(out["name"], out["text"]))
    return result


def _probe(message: dict) -> ProbeReport:
    if "observation" in message:
        try:
            return ProbeReport(message["probe"], decode_observation(message["observation"]))
        except WireError as err:
            return ProbeReport(message["probe"], failed=f"unreadable observations: {err}")
    text = str(message.get("failed", "the checks did not report"))[-300:].strip()
    return ProbeReport(message["probe"], failed=(text.splitlines() or ["the checks did not report"])[-1])

"""The messages between the grader, the zygote and the sandbox, as typed data.

The grader sends a :class:`Job` (a :class:`Plan` of :class:`CodeStep` and :class:`ProbeStep`, and
the limits) to a zygote; the sandbox writes :class:`CellReport` and :class:`ProbeReport` lines as
it runs the plan (a probe report carries a test cell's
:class:`~autograder.engine.CellObservation`); the zygote answers with a :class:`JobResult`.
Everything is JSON; the grader reads every line the sandbox wrote as untrusted data.

The sandbox encodes a result into JSON with a tag per value, so that exact types survive the trip
(``True`` stays a bool, ``(8, 1)`` stays a tuple of ints). Tensors travel in one ``torch.save``
blob read back with ``torch.load(weights_only=True)``: data only, never pickled objects. A value
of any other type (a subclass whose ``__eq__`` always answers True, a module, a function) is
reported by its type name and repr and decoded into an inert stand-in of that name, which no
check accepts. Decoding is the trusted side's and builds only plain values.
"""

from __future__ import annotations

import base64
import io
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from autograder.engine import CellObservation, Observation, Raised
from autograder.values import short_repr, type_name

MAX_DEPTH = 20
MAX_ITEMS = 100_000
MAX_TENSOR_BYTES = 64 * 2**20


class WireError(ValueError):
    """A message from the sandbox that is not well-formed data."""


# ----------------------------------------------------------------------------------- encoding
def encode(value: Any) -> dict:
    """Encode a result as tagged JSON data (runs in the sandbox, on the answer's value)."""
    tensors: list = []
    data = _encode(value, tensors, 0)
    message = {"value": data}
    if tensors:
        blob = _save_tensors(tensors)
        if blob is None:
            return {"value": {"t": "other", "type": "torch.Tensor", "repr": "<tensors too large to report>"}}
        message["tensors"] = blob
    return message


def _save_tensors(tensors: list) -> str | None:
    import torch

    buffer = io.BytesIO()
    torch.save(tensors, buffer)
    if buffer.tell() > MAX_TENSOR_BYTES:
        return None
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _encode(value: Any, tensors: list, depth: int) -> dict:
    if depth > MAX_DEPTH:
        return _other(value)
    kind = type(value)
    if value is None:
        return {"t": "none"}
    if kind is bool:
        return {"t": "bool", "v": value}
    if kind is int:
        return {"t": "int", "v": str(value)}
    if kind is float:
        return {"t": "float", "v": repr(value)}
    if kind is str:
        return {"t": "str", "v": value}
    if kind in (tuple, list):
        return {"t": kind.__name__, "v": [_encode(item, tensors, depth + 1) for item in value]}
    if kind is dict:
        return {"t": "dict", "v": [[_encode(k, tensors, depth + 1), _encode(v, tensors, depth + 1)]
                                   for k, v in value.items()]}
    if f"{kind.__module__}.{kind.__qualname__}" == "torch.Tensor":
        tensors.append(value.detach())
        return {"t": "tensor", "i": len(tensors) - 1}
    return _other(value)


def _other(value: Any) -> dict:
    return {"t": "other", "type": type_name(value), "repr": short_repr(value)}


# ----------------------------------------------------------------------------------- decoding
class Opaque:
    """Stand-in for a value the sandbox could not report as data; it equals nothing but itself."""

    def __init__(self, text: str) -> None:
        self._text = text

    def __repr__(self) -> str:
        return self._text


def decode(message: Any) -> Any:
    """Decode an encoded result into plain Python values and plain tensors (trusted side).

    Raises:
        WireError: when the message is not what :func:`encode` produces.
    """
    if type(message) is not dict or "value" not in message:
        raise WireError("a result must be an object with a value")
    tensors: list = []
    if "tensors" in message:
        tensors = _load_tensors(message["tensors"])
    counter = [0]
    return _decode(message["value"], tensors, counter, 0)


def _load_tensors(blob: Any) -> list:
    import torch

    if type(blob) is not str or len(blob) > MAX_TENSOR_BYTES * 4 // 3 + 4:
        raise WireError("tensor blob of the wrong type or too large")
    try:
        loaded = torch.load(io.BytesIO(base64.b64decode(blob, validate=True)), weights_only=True)
    except Exception as err:  # noqa: BLE001 - whatever fails to load is not data
        raise WireError(f"tensor blob does not load as data: {type(err).__name__}") from err
    if type(loaded) is not list or not all(type(t) is torch.Tensor for t in loaded):
        raise WireError("tensor blob is not a list of plain tensors")
    return loaded


def _decode(node: Any, tensors: list, counter: list[int], depth: int) -> Any:
    counter[0] += 1
    if depth > MAX_DEPTH + 1 or counter[0] > MAX_ITEMS:
        raise WireError("result too deep or too large")
    if type(node) is not dict or type(node.get("t")) is not str:
        raise WireError("malformed value")
    tag = node["t"]
    if tag == "none":
        return None
    if tag == "bool":
        return _typed(node.get("v"), bool)
    if tag == "int":
        text = _typed(node.get("v"), str)
        if len(text) > 4000:
            raise WireError("integer too long")
        try:
            return int(text)
        except ValueError as err:
            raise WireError("malformed int") from err
    if tag == "float":
        text = _typed(node.get("v"), str)
        try:
            number = float(text)
        except ValueError as err:
            raise WireError("malformed float") from err
        return number
    if tag == "str":
        return _typed(node.get("v"), str)
    if tag in ("tuple", "list"):
        items = [_decode(item, tensors, counter, depth + 1) for item in _typed(node.get("v"), list)]
        return tuple(items) if tag == "tuple" else items
    if tag == "dict":
        result = {}
        for pair in _typed(node.get("v"), list):
            if type(pair) is not list or len(pair) != 2:
                raise WireError("malformed dict entry")
            key = _decode(pair[0], tensors, counter, depth + 1)
            try:
                result[key] = _decode(pair[1], tensors, counter, depth + 1)
            except TypeError as err:  # an unhashable key (a list) cannot be a dict key
                raise WireError("unhashable dict key") from err
        return result
    if tag == "tensor":
        index = node.get("i")
        if type(index) is not int or not 0 <= index < len(tensors):
            raise WireError("tensor index out of range")
        return tensors[index]
    if tag == "other":
        type_name, text = _typed(node.get("type"), str), _typed(node.get("repr"), str)
        return opaque(type_name[:200], text[:200])
    raise WireError(f"unknown tag {tag[:40]!r}")


def opaque(type_name: str, text: str) -> Opaque:
    """An inert value that reports ``type_name`` as its type (for the learner's message)."""
    module, _, qualname = type_name.rpartition(".")
    cls = type(qualname or "object", (Opaque,), {"__module__": module or "builtins"})
    cls.__qualname__ = qualname or "object"
    return cls(text)


def _typed(value: Any, kind: type) -> Any:
    if type(value) is not kind:
        raise WireError(f"expected {kind.__name__} in a result")
    return value


# ---------------------------------------------------------------------------- observations
def encode_observation(seen: CellObservation) -> dict:
    """A test cell's observations as tagged JSON (one tensor blob for all its values)."""
    tensors: list = []
    cases = {}
    for name, observation in seen.cases.items():
        raised = observation.raised
        cases[name] = {
            "value": _encode(observation.value, tensors, 0),
            "raised": None if raised is None else [raised.type_name, raised.message, raised.by_torch],
            "calls": list(observation.calls),
        }
    message: dict = {"cases": cases, "missing": seen.missing, "rejected": seen.rejected,
                     "unfinished": seen.unfinished}
    if tensors:
        blob = _save_tensors(tensors)
        if blob is None:
            return {"cases": {}, "missing": None, "rejected": None,
                    "unfinished": "the answer's tensors were too large to report"}
        message["tensors"] = blob
    return message


def decode_observation(message: Any) -> CellObservation:
    """Read a test cell's observations (trusted side).

    Raises:
        WireError: when the message is not what :func:`encode_observation` produces.
    """
    if type(message) is not dict or type(message.get("cases")) is not dict:
        raise WireError("observations must be an object with cases")
    tensors = _load_tensors(message["tensors"]) if "tensors" in message else []
    counter = [0]
    cases = {}
    for name, item in message["cases"].items():
        if type(item) is not dict:
            raise WireError("malformed observation")
        raised = item.get("raised")
        if raised is not None:
            if (type(raised) is not list or len(raised) != 3 or type(raised[0]) is not str
                    or type(raised[1]) is not str or type(raised[2]) is not bool):
                raise WireError("malformed exception")
            raised = Raised(raised[0][:200], raised[1][:2000], raised[2])
        calls = item.get("calls")
        if type(calls) is not list or not all(type(c) is str for c in calls):
            raise WireError("malformed calls")
        cases[str(name)] = Observation(_decode(item.get("value"), tensors, counter, 0), raised,
                                       tuple(c[:100] for c in calls[:100]))
    return CellObservation(cases, *(_optional_text(message.get(k)) for k in ("missing", "rejected", "unfinished")))


def encode_seen_cell(seen: Any) -> dict:
    """A test cell's observations (:class:`autograder.observe.CellObservation`) as tagged JSON,
    one tensor blob for all its values."""
    from autograder import codec

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


def decode_seen_cell(message: Any) -> Any:
    """Read what :func:`encode_seen_cell` wrote (trusted side; every field is checked).

    Raises:
        WireError: when the message is not well-formed.
    """
    from autograder import codec
    from autograder.observe import CellObservation, Seen

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
class Plan:
    """What the sandbox runs for one submission, in order; or, when ``bare`` is set, the job of a
    bare interpreter (:mod:`autograder.bare`) that runs answer cells without torch."""

    assignment: str
    steps: list[CodeStep | ProbeStep]
    probe_seconds: float = 60.0
    output_limit: int = 64 * 2**10
    bare: dict | None = None
    first_number: int = 1  # the number Run All gives the first step (later when a prefix ran before)

    def to_json(self) -> dict:
        return {"assignment": self.assignment, "probe_seconds": self.probe_seconds,
                "output_limit": self.output_limit, "bare": self.bare, "first_number": self.first_number,
                "steps": [{"kind": "probe" if isinstance(s, ProbeStep) else "code", **asdict(s)} for s in self.steps]}

    @classmethod
    def from_json(cls, data: dict) -> Plan:
        steps: list[CodeStep | ProbeStep] = []
        for step in data["steps"]:
            kind = step.pop("kind")
            steps.append(ProbeStep(**step) if kind == "probe" else CodeStep(**step))
        return cls(data["assignment"], steps, float(data["probe_seconds"]), int(data["output_limit"]),
                   data.get("bare"), int(data.get("first_number", 1)))


@dataclass(frozen=True)
class Prefix:
    """A chapter's locked prefix: the leading locked code cells of its student edition, up to its
    first answer cell (see :mod:`autograder.pipeline.prefix`).

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
    """One submission's plan with the limits and hidden paths of its sandbox, and the chapter's
    prefix when the grader offers one."""

    number: int
    plan: Plan
    limits: dict
    hide: list[str]
    wait: float
    prefix: Prefix | None = None

    def to_line(self) -> str:
        return json.dumps({"job": self.number, "plan": self.plan.to_json(), "limits": self.limits,
                           "hide": self.hide, "wait": self.wait,
                           "prefix": None if self.prefix is None else self.prefix.to_json()}) + "\n"

    @classmethod
    def from_line(cls, line: str) -> Job:
        data = json.loads(line)
        prefix = None if data.get("prefix") is None else Prefix.from_json(data["prefix"])
        return cls(data["job"], Plan.from_json(data["plan"]), data["limits"], data["hide"], data["wait"], prefix)


@dataclass(frozen=True)
class JobResult:
    """What the zygote says about one job: how it ended, and every line the sandbox reported.

    ``prefix`` says how the chapter's prefix was used: empty when none was offered, ``"forked"``
    when the job started from the prefix's state, otherwise why it ran from the top.
    """

    status: str
    reason: str = ""
    seconds: float = 0.0
    killed: int = 0
    report: str = ""
    prefix: str = ""

    def to_line(self, number: int) -> str:
        return json.dumps({"job": number, **asdict(self)}) + "\n"

    @classmethod
    def from_json(cls, data: dict) -> JobResult:
        return cls(str(data.get("status", "")), str(data.get("reason", "")), float(data.get("seconds", 0.0)),
                   int(data.get("killed", 0)), str(data.get("report", "")), str(data.get("prefix", "")))


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
    observation: CellObservation | None = None
    failed: str | None = None


def cell_line(report: CellReport) -> dict:
    outputs = [{"name": o.name, "text": o.text} if isinstance(o, Stream) else {"ename": o.ename, "evalue": o.evalue}
               for o in report.outputs]
    return {"cell": report.cell, "outputs": outputs, "number": report.number}


def probe_line(report: ProbeReport) -> dict:
    if report.observation is None:
        return {"probe": report.probe, "failed": report.failed or "the checks did not report"}
    if isinstance(report.observation, CellObservation):
        return {"probe": report.probe, "observation": encode_observation(report.observation)}
    return {"probe": report.probe, "observed": encode_seen_cell(report.observation)}


END = {"end": True}
FORGED = "refused: this check was reported more than once, so the submission wrote to the grader's report itself"


@dataclass
class Reports:
    """Every well-formed line of a sandbox report, read as untrusted data (trusted side)."""

    cells: dict[str, CellReport] = field(default_factory=dict)
    probes: dict[str, ProbeReport] = field(default_factory=dict)
    ended: bool = False

    @classmethod
    def read(cls, text: str) -> Reports:
        """Read a report. The sandbox writes one line per probe; a probe reported twice had a line
        written by the submission itself, and is refused whichever line is genuine."""
        found = cls()
        twice: set[str] = set()
        for line in text.splitlines():
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if type(message) is not dict:
                continue
            if message.get("end") is True:
                found.ended = True
            # The last line of a key wins: the sandbox writes the real one after the cells that
            # could forge an earlier one.
            elif type(message.get("cell")) is str:
                number = message.get("number") if type(message.get("number")) is int else None
                found.cells[message["cell"]] = CellReport(message["cell"], _outputs(message.get("outputs")), number)
            elif type(message.get("probe")) is str:
                if message["probe"] in found.probes:
                    twice.add(message["probe"])
                found.probes[message["probe"]] = _probe(message)
        for probe in twice:
            found.probes[probe] = ProbeReport(probe, failed=FORGED)
        return found


def _outputs(outputs: Any) -> list[Stream | Error]:
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
    if "observed" in message:
        try:
            return ProbeReport(message["probe"], decode_seen_cell(message["observed"]))
        except WireError as err:
            return ProbeReport(message["probe"], failed=f"unreadable observations: {err}")
    if "observation" in message:
        try:
            return ProbeReport(message["probe"], decode_observation(message["observation"]))
        except WireError as err:
            return ProbeReport(message["probe"], failed=f"unreadable observations: {err}")
    text = str(message.get("failed", "the checks did not report"))[-300:].strip()
    return ProbeReport(message["probe"], failed=(text.splitlines() or ["the checks did not report"])[-1])

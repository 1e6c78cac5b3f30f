"""Version timelines: run code line by line and record what autograd's version counter sees.

Every tensor carries a version counter (``t._version``) that each in-place write increments;
views share their base's counter. When an operation saves a tensor for backward, autograd
remembers the version it saw; at backward time it compares that with the current version and
refuses a mismatch. :func:`record_versions` executes lines of code, reads every named tensor's
version after each line, and reads the tensors each new graph node saved (through the node's
``_saved_*`` attributes) together with their version at that moment. :func:`draw_timeline`
turns the record into a figure: one row per line, one column per tensor, versions in the cells,
in-place writes, saves and stale saved tensors highlighted.

Nothing in a recording is typed in: versions, saves, phases and errors are observed.

Defined in Chapter 2, "In-place operations and the version counter" (notebooks/inplace/inplace.ipynb).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import torch
from matplotlib.patches import Rectangle
from torch.overrides import TorchFunctionMode

from autograd_figures.figures import LayoutFigure, unit_canvas

__all__ = ["Save", "Step", "Timeline", "draw_erasure_tally", "draw_timeline", "record_versions"]

_BACKWARD_FUNCTIONS = ("backward", "grad")


@dataclass(frozen=True)
class Save:
    """A tensor that a graph node saved for backward.

    Attributes:
        name: The variable naming the saved tensor (same storage, shape, stride and offset).
        node: The graph node's class name, e.g. ``"PowBackward0"``.
        version: The tensor's version when it was saved.
    """

    name: str
    node: str
    version: int


@dataclass(frozen=True)
class Step:
    """One executed line.

    Attributes:
        code: The line as executed.
        phase: ``"forward"``, ``"write"`` (some existing tensor's version went up) or
            ``"backward"`` (the line called ``backward`` or ``torch.autograd.grad``).
        versions: Version of every named tensor after the line.
        saves: Tensors saved by graph nodes that the line created.
        error: ``"ExceptionName: message"`` when the line raised, else None.
        values: The numbers of every named tensor of at most eight elements after the line.
    """

    code: str
    phase: str
    versions: dict[str, int]
    saves: tuple[Save, ...] = ()
    error: str | None = None
    values: dict[str, tuple[float, ...]] = field(default_factory=dict)


@dataclass
class Timeline:
    """What :func:`record_versions` observed, line by line."""

    steps: list[Step] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        """Tensor names in the order they first appeared."""
        seen: dict[str, None] = {}
        for step in self.steps:
            seen.update(dict.fromkeys(step.versions))
        return list(seen)

    @property
    def saves(self) -> list[Save]:
        """Every save, in order."""
        return [save for step in self.steps for save in step.saves]

    def stale(self, index: int) -> list[Save]:
        """Saves whose tensor has moved past the saved version by the end of step ``index``."""
        versions = self.steps[index].versions
        return [
            save
            for step in self.steps[: index + 1]
            for save in step.saves
            if save.name in versions and versions[save.name] != save.version
        ]


class _CallRecorder(TorchFunctionMode):
    """Notes whether backward ran, without changing what runs."""

    def __init__(self) -> None:
        super().__init__()
        self.backward = False

    def __torch_function__(self, func, types, args=(), kwargs=None):
        if getattr(func, "__name__", "") in _BACKWARD_FUNCTIONS:
            self.backward = True
        return func(*args, **(kwargs or {}))


def _tensors(namespace: dict[str, Any]) -> dict[str, torch.Tensor]:
    return {k: v for k, v in namespace.items() if type(v) is torch.Tensor and not k.startswith("_")}


def _same_layout(a: torch.Tensor, b: torch.Tensor) -> bool:
    return (
        a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
        and a.shape == b.shape
        and a.stride() == b.stride()
        and a.storage_offset() == b.storage_offset()
    )


def _nodes(roots: list[torch.Tensor]) -> list[Any]:
    """Every graph node reachable from the roots' ``grad_fn``, each once."""
    found: dict[int, Any] = {}
    stack = [t.grad_fn for t in roots if t.grad_fn is not None]
    while stack:
        node = stack.pop()
        if node is None or id(node) in found:
            continue
        found[id(node)] = node
        stack.extend(next_node for next_node, _ in node.next_functions)
    return list(found.values())


def _saved_tensors(node: Any) -> list[torch.Tensor]:
    """The tensors a node saved; reading them is autograd's own check, so do it while valid."""
    saved = []
    for attr in dir(node):
        if attr.startswith("_saved_"):
            try:
                value = getattr(node, attr)
            except RuntimeError:  # already stale: nothing trustworthy to report
                continue
            if isinstance(value, torch.Tensor):
                saved.append(value)
    return saved


def record_versions(lines: list[str], namespace: dict[str, Any] | None = None) -> Timeline:
    """Execute ``lines`` one by one and record versions, saves and errors.

    Each line runs with ``exec`` in ``namespace`` (``torch`` is available). A line that raises
    is recorded with its error and the recording goes on, so a failing ``backward`` shows up as
    the step where the mismatch bites.

    Args:
        lines: Python statements, one per step (a one-line ``with torch.no_grad(): ...`` works).
        namespace: Variables the lines can use; updated in place. A fresh one by default.

    Returns:
        The :class:`Timeline` observed.
    """
    namespace = {"torch": torch} if namespace is None else namespace
    namespace.setdefault("torch", torch)
    timeline = Timeline()
    seen_nodes: set[int] = set()
    live_nodes: list[Any] = []  # keeps recorded nodes alive so their ids stay unique
    for line in lines:
        before = {name: t._version for name, t in _tensors(namespace).items()}
        error = None
        recorder = _CallRecorder()
        try:
            with recorder:
                exec(compile(line, "<timeline>", "exec"), namespace)
        except Exception as err:  # noqa: BLE001 - the error is part of the record
            error = f"{type(err).__name__}: {err}"
        tensors = _tensors(namespace)
        versions = {name: t._version for name, t in tensors.items()}
        saves = []
        for node in _nodes(list(tensors.values())):
            if id(node) in seen_nodes:
                continue
            seen_nodes.add(id(node))
            live_nodes.append(node)
            for saved in _saved_tensors(node):
                name = next((n for n, t in tensors.items() if _same_layout(t, saved)), None)
                if name is not None:
                    saves.append(Save(name, type(node).__name__, saved._version))
        wrote = any(versions[name] > version for name, version in before.items() if name in versions)
        phase = "backward" if recorder.backward else "write" if wrote else "forward"
        values = {name: tuple(t.detach().flatten().tolist()) for name, t in tensors.items() if t.numel() <= 8}
        timeline.steps.append(Step(line, phase, versions, tuple(saves), error, values))
    return timeline


_PHASE_COLOURS = {"forward": "#e8f0fb", "write": "#fde9d2", "backward": "#e6f4e6"}
_WRITE_FACE = "#f5a25d"
_STALE_FACE = "#e05252"
_SAVED_EDGE = "#1f5fbf"


def _short(error: str, limit: int = 70) -> str:
    """The part of an error worth a line: for autograd's version check, the two versions."""
    match = re.search(r"is at version \d+; expected version \d+", error)
    if "modified by an inplace operation" in error and match:
        return f"{error.split(':')[0]}: modified by an inplace operation, {match.group(0)}"
    first = error.split(". Hint")[0]
    return first if len(first) <= limit else first[: limit - 3] + "..."


def draw_timeline(timeline: Timeline, *, title: str | None = None) -> LayoutFigure:
    """Draw a version timeline: time runs down, one column per tensor.

    Each cell holds the tensor's version after that line. Orange cells are in-place writes (the
    version went up); a blue outline marks the step where a graph node saved the tensor, labelled
    with the version it saved; red cells are saved tensors whose version no longer matches, on the
    line where that is found (the backward that autograd refuses). Lines that raised show their
    error on the right.

    Args:
        timeline: What :func:`record_versions` observed.
        title: Optional heading.

    Returns:
        A figure that displays itself as a PNG in Jupyter.
    """
    names = timeline.names
    n_steps = len(timeline.steps)
    code_width = max(len(step.code) for step in timeline.steps) * 0.125 + 1.2
    col = max(1.3, 0.125 * max((len(name) for name in timeline.names), default=0) + 0.3)
    error_width = 11.0 if any(step.error for step in timeline.steps) else 0.5
    width = code_width + 1.6 + col * max(len(names), 1) + error_width
    top = 1.4 if title else 0.9
    height = top + n_steps + 1.2
    fig, ax = unit_canvas(width, height)
    if title:
        ax.text(0.2, 0.45, title, fontsize=11, fontweight="bold", va="center")
    x0 = code_width + 1.6
    for j, name in enumerate(names):
        ax.text(x0 + col * j + col / 2, top - 0.35, name, ha="center", va="center", fontsize=10,
                family="monospace", fontweight="bold")
    saved_at: dict[tuple[int, str], Save] = {}
    for i, step in enumerate(timeline.steps):
        for save in step.saves:
            saved_at.setdefault((i, save.name), save)
    for i, step in enumerate(timeline.steps):
        y = top + i
        ax.add_patch(Rectangle((0.1, y + 0.05), code_width + 1.4, 0.9, facecolor=_PHASE_COLOURS[step.phase],
                               edgecolor="none", gid=f"phase-{i}-{step.phase}"))
        ax.text(0.2, y + 0.5, step.code, fontsize=9, family="monospace", va="center")
        ax.text(code_width + 1.45, y + 0.5, step.phase, fontsize=8, va="center", ha="right", color="#555555",
                style="italic")
        previous = timeline.steps[i - 1].versions if i else {}
        stale = {save.name: save for save in timeline.stale(i)} if step.phase == "backward" else {}
        for j, name in enumerate(names):
            if name not in step.versions:
                continue
            version = step.versions[name]
            wrote = name in previous and version > previous[name]
            face, kind = ("white", "cell")
            if wrote:
                face, kind = _WRITE_FACE, "write"
            if name in stale:
                face, kind = _STALE_FACE, "stale"
            save = saved_at.get((i, name))
            ax.add_patch(Rectangle((x0 + col * j + 0.1, y + 0.08), col - 0.2, 0.84, facecolor=face,
                                   edgecolor=_SAVED_EDGE if save else "#bbbbbb", linewidth=2.2 if save else 0.8,
                                   gid=f"{kind}-{i}-{name}"))
            label = f"v{version}"
            if name in stale:
                label = f"v{version}≠v{stale[name].version}"
            elif save:
                label = f"v{version} saved"
            ax.text(x0 + col * j + col / 2, y + 0.5, label, ha="center", va="center", fontsize=8,
                    color="white" if name in stale else "black")
        if step.error:
            ax.text(x0 + col * len(names) + 0.2, y + 0.5, _short(step.error), fontsize=7.5, va="center",
                    color=_STALE_FACE, gid=f"error-{i}")
    legend_y = top + n_steps + 0.6
    ax.text(0.2, legend_y, "orange: in-place write (version +1)   blue frame: saved for backward at this version   "
            "red: saved version ≠ current version at backward", fontsize=8, va="center", color="#333333")
    return fig


_PAGE_FACE = "#fdf6e3"
_ERASED_FACE = "#f4a261"
_REFUSED = "#a00000"
_ACCEPTED = "#1e6b1e"


def draw_erasure_tally(
    timeline: Timeline,
    page: str,
    captions: list[str],
    *,
    title: str,
    entries: dict[str, str] | None = None,
) -> LayoutFigure:
    """The book's metaphor drawn from a recording: a page of numbers, its erasure tally, the ledger.

    One row per step, told in plain words (``captions``, one per line of the recording): the
    numbers on the page of tensor ``page`` (orange where a step erased and rewrote them), its
    erasure tally (the version counter) as tally marks, and on the right the ledger entries that
    point at the page with the tally each one noted. On a backward step the audit's verdict is
    what torch did: refused when backward raised the version-counter error, accepted otherwise.

    Args:
        timeline: What :func:`record_versions` observed; ``page`` must have at most 8 elements.
        page: Name of the tensor whose page is drawn.
        captions: Plain words for each step.
        title: Heading of the figure.
        entries: Plain words for the graph nodes that saved the page, e.g.
            ``{"PowBackward0": "squaring"}``; torch's names by default.

    Returns:
        A figure that displays itself as a PNG in Jupyter.

    Raises:
        ValueError: When the captions do not match the steps or the page was never recorded.
    """
    if len(captions) != len(timeline.steps):
        raise ValueError(f"{len(captions)} captions for {len(timeline.steps)} steps")
    if not any(page in step.values for step in timeline.steps):
        raise ValueError(f"no step recorded the numbers of {page!r} (at most 8 elements)")
    entries = entries or {}
    n_slots = max(len(step.values.get(page, ())) for step in timeline.steps)
    caption_w = max(len(c) for c in captions) * 0.12 + 0.6
    slot_w, tally_w, ledger_w = 0.9, 2.4, 7.2
    width = caption_w + n_slots * slot_w + tally_w + ledger_w + 0.6
    top = 1.5
    height = top + len(timeline.steps) * 1.0 + 0.4
    fig, ax = unit_canvas(width, height)
    ax.text(0.2, 0.45, title, fontsize=11, fontweight="bold", va="center")
    x_page = caption_w
    x_tally = x_page + n_slots * slot_w + 0.3
    x_ledger = x_tally + tally_w
    for x, words in ((x_page, f"the page of {page}"), (x_tally, "erasure tally"), (x_ledger, "ledger entries")):
        ax.text(x, top - 0.35, words, fontsize=9, fontweight="bold", va="center", color="#333333")
    noted: list[Save] = []
    previous: tuple[float, ...] = ()
    for i, (step, caption) in enumerate(zip(timeline.steps, captions, strict=True)):
        y = top + i
        ax.text(0.2, y + 0.5, caption, fontsize=9, va="center")
        numbers = step.values.get(page, ())
        for k, value in enumerate(numbers):
            erased = len(previous) == len(numbers) and step.phase == "write" and previous[k] != value
            ax.add_patch(Rectangle((x_page + k * slot_w + 0.05, y + 0.12), slot_w - 0.1, 0.76,
                                   facecolor=_ERASED_FACE if erased else _PAGE_FACE, edgecolor="#5a5a5a",
                                   gid=f"{'erased' if erased else 'slot'}-{i}-{k}"))
            ax.text(x_page + k * slot_w + slot_w / 2, y + 0.5, f"{value:g}", ha="center", va="center", fontsize=9)
        if page in step.versions:
            tally = step.versions[page]
            marks = f"{'|' * tally}  ({tally})" if tally else "0"
            ax.text(x_tally, y + 0.5, marks, fontsize=10, va="center", family="monospace", gid=f"tally-{i}-{tally}")
        noted += [save for save in step.saves if save.name == page]
        if step.phase == "backward":
            refused = step.error is not None and "modified by an inplace operation" in step.error
            verdict = "audit REFUSES: the page's tally moved" if refused else "audit accepts every entry"
            ax.text(x_ledger, y + 0.5, verdict, fontsize=9, va="center", fontweight="bold",
                    color=_REFUSED if refused else _ACCEPTED, gid=f"audit-{i}-{'refused' if refused else 'ok'}")
        elif noted:
            words = "; ".join(f"{entries.get(s.node, s.node)} noted tally {s.version}" for s in noted)
            ax.text(x_ledger, y + 0.5, words, fontsize=9, va="center", color="#1f4e99")
        if numbers:
            previous = numbers
    return fig

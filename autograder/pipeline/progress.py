"""A one-line progress bar with an ETA, on stderr."""

from __future__ import annotations

import sys
import time
from typing import ClassVar, TextIO


class Progress:
    """``[#####.....] 12/60 graded, 0:42 elapsed, ETA 2:48`` redrawn in place.

    The bar is drawn as soon as it is made (``0/60 … starting``), so a step that begins with
    seconds of start-up is never silent. The first item carries that start-up (imports, sandboxes,
    a locked prefix run once), so the ETA is measured from the items after it: until two are done
    it reads ``ETA …`` rather than a guess. With ``total`` None (a compressed archive, whose files
    are only counted by reading it) the bar counts without an ETA.

    Args:
        total: How many items, or None when unknown.
        label: What an item's completion is (``views submissions graded``).
        stream: Where to draw (stderr).
        width: Characters of the bar.
        note: Shown beside the bar until the first step (``starting the sandboxes``).
    """

    drawn: ClassVar[Progress | None] = None  # the bar whose line is open, if any

    def __init__(self, total: int | None, label: str, stream: TextIO | None = None, width: int = 30,
                 note: str = "starting") -> None:
        self.total, self.label, self.width = total, label, width
        self.stream = stream or sys.stderr
        self.done = 0
        self.started = time.monotonic()
        self.first: float | None = None  # when the first item was done
        self._first_done = 0  # how many were done then
        self.finished = False
        self._draw(note)
        if total == 0:
            self.finish()

    def eta(self, now: float | None = None) -> float | None:
        """Seconds left, from the items done after the first; None until that can be measured."""
        if self.total is not None and self.done >= self.total:
            return 0.0
        if self.total is None or self.first is None:
            return None
        now = time.monotonic() if now is None else now
        return (now - self.first) / (self.done - self._first_done) * (self.total - self.done) \
            if self.done > self._first_done else None

    def step(self, note: str = "") -> None:
        """One more item done."""
        self.advance_to(self.done + 1, note)

    def advance_to(self, done: int, note: str = "") -> None:
        """``done`` items done (a step that reports a count or a percentage)."""
        if done <= self.done:
            return
        self.done = done if self.total is None else min(done, self.total)
        if self.first is None:
            self.first, self._first_done = time.monotonic(), self.done
        self._draw(note)
        if self.total is not None and self.done >= self.total:
            self.finish()

    def say(self, note: str) -> None:
        """Redraw with a note (what the step is doing before its next item is done)."""
        self._draw(note)

    def finish(self) -> None:
        """End the line (once)."""
        if not self.finished:
            self.finished = True
            self.stream.write("\n")
            self.stream.flush()
        if Progress.drawn is self:
            Progress.drawn = None

    def _draw(self, note: str) -> None:
        elapsed = time.monotonic() - self.started
        if self.total is None:
            line = f"\r{self.done} {self.label}, {_clock(elapsed)} elapsed {note[:30]:<30}"
        else:
            filled = int(self.width * self.done / max(self.total, 1))
            eta = self.eta()
            line = (f"\r[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} {self.label}, "
                    f"{_clock(elapsed)} elapsed, ETA {'…' if eta is None else _clock(eta)} {note[:30]:<30}")
        self.stream.write(line)
        self.stream.flush()
        Progress.drawn = self


def end_line() -> None:
    """End the line of a bar left open (a step that stopped on an error), so what is said next
    starts a line of its own."""
    if Progress.drawn is not None:
        Progress.drawn.finish()


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"

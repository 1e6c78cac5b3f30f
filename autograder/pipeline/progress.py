"""A one-line progress bar with an ETA, on stderr."""

from __future__ import annotations

import sys
import time
from typing import TextIO


class Progress:
    """``[#####.....] 12/60 graded, 0:42 elapsed, ETA 2:48`` redrawn in place."""

    def __init__(self, total: int, label: str, stream: TextIO | None = None, width: int = 30) -> None:
        self.total, self.label, self.width = total, label, width
        self.stream = stream or sys.stderr
        self.done = 0
        self.started = time.monotonic()

    def step(self, note: str = "") -> None:
        self.done += 1
        elapsed = time.monotonic() - self.started
        eta = elapsed / self.done * (self.total - self.done) if self.done else 0.0
        filled = int(self.width * self.done / max(self.total, 1))
        line = (f"\r[{'#' * filled}{'.' * (self.width - filled)}] {self.done}/{self.total} {self.label}, "
                f"{_clock(elapsed)} elapsed, ETA {_clock(eta)} {note[:30]:<30}")
        self.stream.write(line)
        if self.done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds + 0.5), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"

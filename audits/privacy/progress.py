"""A one-line progress bar for an audit on a terminal."""

from __future__ import annotations

import sys
import threading
import time


class ProgressBar:
    """A one-line progress bar on stderr, shown only on a terminal and after 2 s."""

    def __init__(self, enabled: bool, stream=None):
        self.stream = stream or sys.stderr
        self.requested = bool(enabled)  # notes are printed when asked, on a terminal or not
        self.enabled = bool(enabled) and hasattr(self.stream, "isatty") and self.stream.isatty()
        self.t0 = time.monotonic()
        self.total = 1
        self.done = 0
        self.label = ""
        self.last = 0.0
        self.shown = False
        self._lock = threading.Lock()  # runs are added from the sampling threads

    def stage(self, label: str, total: int) -> None:
        self.label, self.total, self.done = label, max(int(total), 1), 0
        self.draw()

    def add(self, n: int) -> None:
        with self._lock:
            self.done += n
            self.draw()

    def draw(self, force: bool = False) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if not force and (now - self.t0 < 2.0 or now - self.last < 0.1):
            return
        self.last = now
        frac = min(self.done / self.total, 1.0)
        width = 30
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        self.stream.write(f"\r[{bar}] {frac * 100:5.1f}% {self.label[:40]:<40} {now - self.t0:6.1f}s")
        self.stream.flush()
        self.shown = True

    def note(self, text: str) -> None:
        """One line on the stream (over the bar, which is drawn again after it), when progress was asked."""
        if not self.requested:
            return
        with self._lock:
            if self.shown:
                self.stream.write("\r" + " " * 100 + "\r")
            self.stream.write(text + "\n")
            self.stream.flush()
            self.draw(force=self.shown)

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 100 + "\r")
            self.stream.flush()

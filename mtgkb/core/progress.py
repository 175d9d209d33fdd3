"""Progress reports from library code. Library functions take a ``progress`` callable and never print;
a report is a plain string, or a :class:`ProgressUpdate` (still a string) that also says how far
along a long step is, so the CLI can draw a bar."""

from __future__ import annotations

from collections.abc import Callable

Progress = Callable[[str], None]


class ProgressUpdate(str):
    """ "label: 40% (n/total)", carrying ``label``, ``done`` and ``total`` for a progress bar."""

    label: str
    done: int
    total: int

    def __new__(cls, label: str, done: int, total: int) -> ProgressUpdate:
        total = max(total, 1)
        text = f"{label}: {done * 100 // total}% ({done:,}/{total:,})"
        update = super().__new__(cls, text)
        update.label, update.done, update.total = label, done, total
        return update


class Ticker:
    """Sends a :class:`ProgressUpdate` each time another hundredth of ``total`` is done."""

    def __init__(self, progress: Progress | None, label: str, total: int) -> None:
        self._progress = progress
        self._label = label
        self._total = max(total, 1)
        self._next = 1

    def update(self, done: int) -> None:
        if self._progress is None or done * 100 < self._next * self._total:
            return
        self._progress(ProgressUpdate(self._label, done, self._total))
        self._next = done * 100 // self._total + 1

"""Draws library progress reports on stderr: a bar that redraws in place on a terminal, and a line
per tenth of the way when stderr is a file or a pipe (so CI logs stay short)."""

from __future__ import annotations

from typing import TextIO

from mtgkb.core.progress import ProgressUpdate

_WIDTH = 30


class ProgressDisplay:
    def __init__(self, stream: TextIO) -> None:
        self._stream = stream
        self._terminal = stream.isatty()
        self._open_bar: str | None = None
        self._last_tenth: dict[str, int] = {}

    def __call__(self, message: str) -> None:
        if isinstance(message, ProgressUpdate):
            self._update(message)
        else:
            self._end_bar()
            self._stream.write(message + "\n")
        self._stream.flush()

    def _update(self, update: ProgressUpdate) -> None:
        finished = update.done >= update.total
        if not self._terminal:
            tenth = update.done * 10 // update.total
            if tenth > self._last_tenth.get(update.label, -1) or finished:
                self._last_tenth[update.label] = tenth
                self._stream.write(str(update) + "\n")
            return
        if self._open_bar not in (None, update.label):
            self._end_bar()
        filled = _WIDTH * update.done // update.total
        bar = "#" * filled + "-" * (_WIDTH - filled)
        percent = update.done * 100 // update.total
        self._stream.write(f"\r{update.label} [{bar}] {percent:3d}%")
        self._open_bar = update.label
        if finished:
            self._end_bar()

    def _end_bar(self) -> None:
        if self._open_bar is not None:
            self._stream.write("\n")
            self._open_bar = None

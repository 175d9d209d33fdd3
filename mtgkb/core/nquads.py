"""Fast N-Quads writing for importers: plain string formatting, no rdflib on the hot path."""

from __future__ import annotations

import gzip
import io
import os
import shlex
import signal
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from mtgkb.core.errors import MtgkbError

XSD = "http://www.w3.org/2001/XMLSchema#"


def _escape(text: str) -> str:
    # A chain of replace() calls is about ten times faster than str.translate on long texts.
    if "\\" in text:
        text = text.replace("\\", "\\\\")
    return text.replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r").replace("\t", "\\t")


def iri(value: str) -> str:
    return f"<{value}>"


def literal(value: object, datatype: str | None = None, lang: str | None = None) -> str:
    """An N-Quads literal. bool, int and float get their XSD datatype unless one is given."""
    if isinstance(value, bool):
        return f'"{"true" if value else "false"}"^^<{XSD}boolean>'
    if isinstance(value, int) and datatype is None:
        return f'"{value}"^^<{XSD}integer>'
    if isinstance(value, float) and datatype is None:
        datatype = XSD + "decimal"
    text = _escape(str(value))
    if lang:
        return f'"{text}"@{lang}'
    if datatype:
        return f'"{text}"^^<{datatype}>'
    return f'"{text}"'


class QuadWriter:
    """Writes quads into one named graph as N-Quads lines; terms come from :func:`iri`/:func:`literal`."""

    def __init__(self, stream: io.TextIOBase, graph: str) -> None:
        self._stream = stream
        self._graph = f" <{graph}> .\n"
        self.count = 0

    def add(self, subject: str, predicate: str, obj: str) -> None:
        """Add one quad; ``subject`` and ``predicate`` are IRIs, ``obj`` an already formatted term."""
        self._stream.write(f"<{subject}> <{predicate}> {obj}{self._graph}")
        self.count += 1

    def add_iri(self, subject: str, predicate: str, obj: str) -> None:
        self.add(subject, predicate, f"<{obj}>")

    def add_literal(self, subject: str, predicate: str, value: object, datatype: str | None = None) -> None:
        self.add(subject, predicate, literal(value, datatype))


# Our temporary files carry this marker and the writer's pid, so a cleanup never touches anyone else's.
_MARK = "mtgkb"


class LinkRefused(MtgkbError):
    """An output path that is a symbolic link to a file: mtgkb does not write through it."""


def refuse_file_link(path: Path) -> None:
    """:class:`LinkRefused` when ``path`` is a symbolic link to a regular file or to a path that does
    not exist (a device or a pipe behind a link, such as ``/dev/stdout``, is fine)."""
    if not path.is_symlink():
        return
    try:
        followed = os.stat(path)
    except OSError:
        followed = None
    if followed is not None and not stat.S_ISREG(followed.st_mode):
        return
    raise LinkRefused(
        f"{path} is a symbolic link to {os.path.realpath(path)}; mtgkb does not write through links",
        f"give the file itself (-o {shlex.quote(os.path.realpath(path))}), or remove the link first",
    )


@contextmanager
def atomic_text_file(path: Path) -> Iterator[io.TextIOBase]:
    """Write ``path`` through a temporary sibling and rename it into place, so a killed writer
    leaves the previous file untouched.

    A symlink to a file (or to nothing yet) is refused with :class:`LinkRefused`: writing through it
    would replace a file elsewhere that the user never named, the trap a link planted in a shared
    folder sets. A target that is not a regular file (``/dev/null``, ``/dev/stdout``, a named pipe) is
    written to directly, since renaming over it would replace the device with a file."""
    refuse_file_link(Path(path))
    target = Path(os.path.realpath(path))
    if target.exists() and not target.is_file():
        with open(target, "w", encoding="utf-8", newline="\n") as stream:
            yield stream
        return
    pending = PendingFiles()
    try:
        with pending.write(target) as stream:
            yield stream
        pending.commit()
    finally:
        pending.discard()


#: gzip's fastest level: an imported card pool is still a tenth of its N-Quads, and writing it costs
#: a second where the default level costs three.
COMPRESS_LEVEL = 1


class PendingFiles:
    """Files written beside their targets and renamed into place together by :meth:`commit`, so a
    change to several files (an import's cards and rulings) is made whole or not at all."""

    def __init__(self) -> None:
        self._files: list[tuple[Path, Path]] = []  # (temporary, target)
        self._replaced: list[Path] = []  # removed by the commit: files the new ones take the place of
        self.committed = False

    @property
    def targets(self) -> list[Path]:
        return [target for _, target in self._files]

    @contextmanager
    def write(self, path: Path, compressed: bool = False) -> Iterator[io.TextIOBase]:
        """A text stream to ``path``'s temporary sibling; gzip-compressed with ``compressed`` (with no
        time stamp inside, so the same text always gives the same bytes)."""
        target = Path(os.path.realpath(path))
        target.parent.mkdir(parents=True, exist_ok=True)
        _remove_abandoned(target)
        temporary = temporary_sibling(target)
        self._files.append((temporary, target))
        with open(temporary, "wb") as raw:
            packed = (
                _CompressedBeside(
                    gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=COMPRESS_LEVEL, mtime=0)
                )
                if compressed
                else None
            )
            # JSON may spell lone surrogates ("\\ud800"), which no UTF-8 file can hold: they become U+FFFD.
            stream = io.TextIOWrapper(packed or raw, encoding="utf-8", errors="replace", newline="\n")
            try:
                yield stream
                stream.flush()
            finally:
                stream.detach()  # the files below are closed here, not by the wrapper
                if packed is not None:
                    packed.close()
            raw.flush()
            os.fsync(raw.fileno())

    def replaces(self, path: Path) -> None:
        """Remove ``path`` (if it is there) when the written files are committed: an earlier form of
        one of them, such as the uncompressed file of an earlier version."""
        self._replaced.append(Path(path))

    def commit(self) -> None:
        """Rename every written file into place. Ctrl-C is held back until all are renamed: the
        renames take microseconds and stopping between them would leave half a change."""
        blocked = {signal.SIGINT, signal.SIGTERM}
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, blocked)
        try:
            for temporary, target in self._files:
                os.replace(temporary, target)
            for path in self._replaced:
                path.unlink(missing_ok=True)
            self._files = []
            self._replaced = []
            self.committed = True
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)

    def discard(self) -> None:
        """Remove whatever was written and not committed."""
        for temporary, _ in self._files:
            temporary.unlink(missing_ok=True)
        self._files = []


class _CompressedBeside(io.BufferedIOBase):
    """Compresses what is written to it in another thread, block by block and in order: zlib lets go
    of the GIL while it works, so an import's compression (most of a second for a card pool) runs on
    the other core while its code goes on making the text. At most two blocks wait at once."""

    BLOCK = 1 << 20

    def __init__(self, packed: gzip.GzipFile) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self._packed = packed
        self._blocks: list[bytes] = []
        self._size = 0
        self._worker = ThreadPoolExecutor(1)
        self._waiting: list[Any] = []

    def writable(self) -> bool:
        return True

    def write(self, data: Any) -> int:
        block = bytes(data)
        self._blocks.append(block)
        self._size += len(block)
        if self._size >= self.BLOCK:
            self._hand_over()
        return len(block)

    def _hand_over(self) -> None:
        block = b"".join(self._blocks)
        self._blocks, self._size = [], 0
        while len(self._waiting) >= 2:
            self._waiting.pop(0).result()  # raises what writing an earlier block raised
        self._waiting.append(self._worker.submit(self._packed.write, block))

    def flush(self) -> None:
        if self._blocks:
            self._hand_over()
        while self._waiting:
            self._waiting.pop(0).result()

    def close(self) -> None:
        """Wait for the blocks handed over (even after an error: the file is closed only then)."""
        if self.closed:
            return
        try:
            self.flush()
        finally:
            self._worker.shutdown(wait=True, cancel_futures=True)
            self._blocks, self._waiting = [], []
            self._packed.close()
            super().close()


def temporary_sibling(path: Path, pid: int | None = None) -> Path:
    """The temporary file this process writes ``path`` through: ``.<name>.mtgkb-<pid>.tmp``."""
    return path.with_name(f".{path.name}.{_MARK}-{os.getpid() if pid is None else pid}.tmp")


def _remove_abandoned(path: Path) -> None:
    """Temporary files that a killed mtgkb writer left beside ``path`` (their process is gone). Only
    files named like ours are candidates: a user's own ``.notes.123.tmp`` is never touched."""
    marker = f".{_MARK}-"
    for leftover in path.parent.glob(f".*{marker}*.tmp"):
        pid = leftover.name[: -len(".tmp")].rpartition(marker)[2]
        if pid.isdigit() and not process_alive(int(pid)) and leftover.is_file() and not leftover.is_symlink():
            leftover.unlink(missing_ok=True)


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` exists (one of another user's counts)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True

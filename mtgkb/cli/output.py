"""The one place results become output: human text (the default) or JSON, on stdout.

Library functions return dataclasses. Each command hands its result to :func:`emit` with the
renderer of the result's type (renderers live in :mod:`mtgkb.cli.render`, one module per topic), so a
type checker sees that the two fit; ``--json`` serialises the dataclass itself, so tools see exactly
the fields the library returns. An answer that can be of any size (a SPARQL result) is written as
it is computed instead: its renderer writes to a binary file, and :func:`emit_stream` passes the
chunks on to stdout. Diagnostics and progress go to stderr.
"""

from __future__ import annotations

import itertools
import json
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from mtgkb.core.errors import AnswerCutShort, MtgkbError
from mtgkb.core.jsonable import to_jsonable

__all__ = ["diagnostic", "emit", "emit_stream", "table", "table_lines", "to_jsonable"]

T = TypeVar("T")


def emit(result: T, as_json: bool, text: Callable[[T], str]) -> None:
    """Write ``result`` to stdout as JSON, or as the human text that ``text`` (its renderer, from
    :mod:`mtgkb.cli.render`) makes of it."""
    if as_json:
        sys.stdout.write(json.dumps(to_jsonable(result), indent=2, ensure_ascii=False) + "\n")
        return
    rendered = text(result)
    sys.stdout.write(rendered if rendered.endswith("\n") else rendered + "\n")


def emit_stream(chunks: Iterable[bytes]) -> None:
    """Write an answer to stdout chunk by chunk as the chunks come (see
    :func:`mtgkb.kb.query_limits.stream_with_limit`), so that its size never matters. A failed write
    raises (OSError); an error after part of the answer is out says that the answer is incomplete."""
    sys.stdout.flush()
    out = sys.stdout.buffer
    started = False
    try:
        for chunk in chunks:
            out.write(chunk)
            started = True
        out.flush()
    except MtgkbError as error:
        if started:
            raise AnswerCutShort(error) from error
        raise
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:
            close()  # stops the worker writing the chunks, if it is still at work


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A plain aligned text table. A cell with several lines (a ruling's text, an oracle text) takes
    as many lines of the table, each column staying in its place."""
    return "\n".join(table_lines(headers, rows))


def table_lines(
    headers: Sequence[str],
    rows: Iterable[Sequence[Any]],
    *,
    sample: int | None = None,
    max_width: int | None = None,
) -> Iterator[str]:
    """The lines of :func:`table`, made as the rows are read. The columns are as wide as their widest
    line in the first ``sample`` rows (all rows when None), and at most ``max_width`` characters (or
    their header's width); a longer line of a cell wraps onto the next lines of its column."""
    remaining = iter(rows)
    first = [_cell_lines(row) for row in itertools.islice(remaining, sample)]
    widths = []
    for at, header in enumerate(headers):
        widest = max([0, *(len(line) for cells in first for line in cells[at])])
        if max_width is not None:
            widest = min(widest, max_width)
        widths.append(max(widest, len(header)))
    yield "  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()
    yield "  ".join("-" * w for w in widths)
    for cells in itertools.chain(first, (_cell_lines(row) for row in remaining)):
        yield from _row_lines(cells, widths)


def _cell_lines(row: Sequence[Any]) -> list[list[str]]:
    return [("" if value is None else str(value)).splitlines() or [""] for value in row]


def _row_lines(cells: list[list[str]], widths: list[int]) -> Iterator[str]:
    pairs = list(zip(cells, widths, strict=True))
    if any(len(line) > width for cell, width in pairs for line in cell):
        cells = [[part for line in cell for part in _wrap(line, width)] for cell, width in pairs]
    for at in range(max(len(cell) for cell in cells)):
        parts = [(cell[at] if at < len(cell) else "").ljust(w) for cell, w in zip(cells, widths, strict=True)]
        yield "  ".join(parts).rstrip()


def _wrap(line: str, width: int) -> list[str]:
    if len(line) <= width:
        return [line]
    return textwrap.wrap(line, width, break_on_hyphens=False) or [""]


def diagnostic(message: str) -> None:
    """Progress and notes for people, on stderr so stdout stays clean data."""
    sys.stderr.write(message + "\n")

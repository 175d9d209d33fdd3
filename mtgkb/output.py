"""The one place results become output: human text (the default) or JSON, on stdout.

Library functions return dataclasses. Each result type has a text renderer registered with
:func:`renders` (renderers live in ``mtgkb/text/``); ``--json`` serialises the dataclass itself, so
tools see exactly the fields the library returns. An answer that can be of any size (a SPARQL
result) has a streamer instead, registered with :func:`streams`, which writes its text as it is
computed; :func:`emit_stream` passes it on to stdout. Diagnostics and progress go to stderr.
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, BinaryIO, TypeVar

from mtgkb.errors import AnswerCutShort, MtgkbError

T = TypeVar("T")
_RENDERERS: dict[str, Callable[[Any], str]] = {}
_STREAMERS: dict[str, Callable[[Any, BinaryIO], None]] = {}


def _key(result_type: type) -> str:
    return f"{result_type.__module__}.{result_type.__qualname__}"


def renders(result_type: type[T] | str) -> Callable[[Callable[[T], str]], Callable[[T], str]]:
    """Register the human-text renderer of ``result_type``, given as the class or as its dotted
    name ("mtgkb.validation.ValidationReport"): the dotted name keeps heavy library modules out of
    the import of every renderer."""
    key = result_type if isinstance(result_type, str) else _key(result_type)

    def register(function: Callable[[T], str]) -> Callable[[T], str]:
        _RENDERERS[key] = function
        return function

    return register


def streams(
    result_type: type[T] | str,
) -> Callable[[Callable[[T, BinaryIO], None]], Callable[[T, BinaryIO], None]]:
    """Register the streamer of ``result_type``: a function writing its human text, as UTF-8, to a
    binary file as the result is computed (see :func:`renders` for ``result_type``)."""
    key = result_type if isinstance(result_type, str) else _key(result_type)

    def register(function: Callable[[T, BinaryIO], None]) -> Callable[[T, BinaryIO], None]:
        _STREAMERS[key] = function
        return function

    return register


def to_jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_jsonable(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_jsonable(v) for v in value]
    if hasattr(value, "__fspath__"):
        return str(value)
    return value


def emit(result: Any, as_json: bool) -> None:
    """Write ``result`` to stdout as JSON or as the text its renderer makes."""
    if as_json:
        sys.stdout.write(json.dumps(to_jsonable(result), indent=2, ensure_ascii=False) + "\n")
        return
    text = render_text(result)
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def render_text(result: Any) -> str:
    """The human text for ``result``, from the renderer registered for its type."""
    import mtgkb.text  # noqa: F401 - registers the renderers

    renderer = _RENDERERS.get(_key(type(result)))
    if renderer is None:
        raise TypeError(f"no text renderer registered for {type(result).__name__}")
    return renderer(result)


def write_text(result: Any, output: BinaryIO) -> None:
    """Write the human text of ``result`` to ``output`` as UTF-8: as it is computed where a streamer
    is registered for its type, else rendered whole."""
    import mtgkb.text  # noqa: F401 - registers the renderers

    streamer = _STREAMERS.get(_key(type(result)))
    if streamer is not None:
        streamer(result, output)
        return
    text = render_text(result)
    output.write((text if text.endswith("\n") else text + "\n").encode("utf-8", "replace"))


def emit_stream(chunks: Iterable[bytes]) -> None:
    """Write an answer to stdout chunk by chunk as the chunks come (see
    :func:`mtgkb.query_limits.stream_with_limit`), so that its size never matters. A failed write
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

"""The one place results become output: human text (the default) or JSON, on stdout.

Library functions return dataclasses. Each command hands its result to :func:`emit` with the
renderer of the result's type (renderers live in :mod:`mtgkb.cli.render`, one module per topic), so a
type checker sees that the two fit; ``--json`` serialises the dataclass itself, so tools see exactly
the fields the library returns. Diagnostics and progress go to stderr.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")


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


def emit(result: T, as_json: bool, text: Callable[[T], str]) -> None:
    """Write ``result`` to stdout as JSON, or as the human text that ``text`` (its renderer, from
    :mod:`mtgkb.cli.render`) makes of it."""
    if as_json:
        sys.stdout.write(json.dumps(to_jsonable(result), indent=2, ensure_ascii=False) + "\n")
        return
    rendered = text(result)
    sys.stdout.write(rendered if rendered.endswith("\n") else rendered + "\n")


def table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """A plain aligned text table. A cell with several lines (a ruling's text, an oracle text) takes
    as many lines of the table, each column staying in its place."""
    cells = [[("" if v is None else str(v)).splitlines() or [""] for v in row] for row in rows]
    widths = [max([len(h)] + [len(line) for r in cells for line in r[i]]) for i, h in enumerate(headers)]
    lines = ["  ".join(h.ljust(w) for h, w in zip(headers, widths, strict=True)).rstrip()]
    lines.append("  ".join("-" * w for w in widths))
    for row in cells:
        for at in range(max(len(cell) for cell in row)):
            parts = [
                (cell[at] if at < len(cell) else "").ljust(w) for cell, w in zip(row, widths, strict=True)
            ]
            lines.append("  ".join(parts).rstrip())
    return "\n".join(lines)


def diagnostic(message: str) -> None:
    """Progress and notes for people, on stderr so stdout stays clean data."""
    sys.stderr.write(message + "\n")

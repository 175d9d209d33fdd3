"""The one place results become output: human text (the default) or JSON, on stdout.

Library functions return dataclasses. Each result type has a text renderer registered with
:func:`renders` (renderers live in ``mtgkb/text/``); ``--json`` serialises the dataclass itself, so
tools see exactly the fields the library returns. Diagnostics and progress go to stderr.
"""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
_RENDERERS: dict[str, Callable[[Any], str]] = {}


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

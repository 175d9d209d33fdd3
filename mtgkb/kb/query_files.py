"""SPARQL files, read in one place: the queries the library runs (``queries/internal/*.rq``), the
named queries users list and run with ``mtgkb query`` (``queries/*.rq``, some of which the library
runs too), and the requirement patterns of the verdicts (``queries/requirements/*.rq``). Each file is
headed by ``# key: value`` comment lines that document it:

```
# title: Ninjutsu-family costs
# description: Cards whose abilities instantiate ninjutsu or a variant of it, with their costs.
# param: ?family — a mechanic IRI (default: mechanic:ninjutsu)
# param: ?card — a card IRI (optional: every card when not given)
```

A parameter is bound by VALUES blocks that the store adds (:func:`mtgkb.kb.sparql_text.bind_values`,
through ``KnowledgeBase.select(text, name=value)``), its value checked and escaped so it is never
read as query syntax; a library query's parameter may take a list of values. What the header says
is read by :mod:`mtgkb.kb.named_queries` (the catalogue) and by the verdicts' evaluator; running a
query needs only its text, so this module stays cheap to import on every lookup's cold path.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

from mtgkb.core.errors import MtgkbError
from mtgkb.core.paths import queries_dir

_HEADER = re.compile(r"^#\s*([a-z][a-z-]*)\s*:\s*(.*)$")


def internal_dir() -> Path:
    return queries_dir() / "internal"


@functools.cache
def library_query(name: str) -> str:
    """The text of ``queries/internal/NAME.rq``, a query the library runs; bind its ``# param:``
    variables with ``KnowledgeBase.select(text, var=value)``."""
    return _read(internal_dir() / f"{name}.rq")


@functools.cache
def named_query_text(name: str) -> str:
    """The text of the named query ``queries/NAME.rq``, for the library to run it too (one copy of a
    query that users and the library both run)."""
    return _read(queries_dir() / f"{name}.rq")


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise MtgkbError(f"cannot read the query {path} ({error.strerror})", "reinstall mtgkb") from None


def read_header(text: str) -> dict[str, list[str]]:
    """The ``# key: value`` lines of an .rq file's comment header (every ``#`` line before the first
    other line), each key's values in order: ``title``, ``description`` and ``param`` for a query, the
    keys of a requirement pattern (``property``, ``holds``, …) for one of those."""
    header: dict[str, list[str]] = {}
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            continue
        if not stripped.startswith("#"):
            break
        match = _HEADER.match(stripped)
        if match is not None:
            header.setdefault(match.group(1), []).append(match.group(2).strip())
    return header

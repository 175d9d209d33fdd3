"""SPARQL files, read in one place: the named queries (``queries/*.rq``, which users list and run with
``mtgkb query``) and the queries the library runs (``queries/internal/*.rq``), each headed by comment
lines that document it.

```
# title: Ninjutsu-family costs
# description: Cards whose abilities instantiate ninjutsu or a variant of it, with their costs.
# param: ?family — a mechanic IRI (default: mechanic:ninjutsu)
# param: ?card — a card IRI (optional: every card when not given)
```

A parameter is bound by VALUES blocks that the store adds (:func:`mtgkb.kb.sparql_text.bind_values`,
through ``KnowledgeBase.select(text, name=value)``), its value checked and escaped so it is never
read as query syntax; a library query's parameter may take a list of values. A named query's
parameter whose description says "IRI" accepts a full IRI, a prefixed name (``mechanic:ninjutsu``)
or a name that the knowledge base knows (:mod:`mtgkb.kb.named_queries`); the word before "IRI"
(card, mechanic, step, zone) narrows the name look-up.
"""

from __future__ import annotations

import difflib
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from mtgkb.core.errors import MtgkbError, NotFoundError
from mtgkb.core.paths import queries_dir
from mtgkb.kb.iri_arguments import NAME_KINDS

_HEADER = re.compile(r"^#\s*([a-z][a-z-]*)\s*:\s*(.*)$")
_PARAM = re.compile(r"^\?(?P<var>[A-Za-z_][A-Za-z0-9_]*)\s*(?:[—–-]+|:)?\s*(?P<rest>.*)$")
_DEFAULT = re.compile(r"\(\s*default:\s*(?P<value>[^)]*?)\s*\)\s*$")
_OPTIONAL = re.compile(r"\(\s*optional\b[^)]*\)\s*$")
_KIND = re.compile(r"\b(" + "|".join(NAME_KINDS) + r")\s+IRI\b")


@dataclass
class QueryParam:
    name: str  # without the "?"
    description: str
    default: str | None = None
    optional: bool = False  # left unbound when not given
    is_iri: bool = False
    kind: str | None = None  # card / mechanic / step / zone: where names are looked up


@dataclass
class NamedQuery:
    name: str
    title: str
    description: str
    params: list[QueryParam]
    path: Path
    text: str = field(repr=False, default="")


@dataclass
class QueryCatalogue:
    """What ``mtgkb queries`` lists."""

    folder: Path
    queries: list[NamedQuery]


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


def parse_query_file(path: Path) -> NamedQuery:
    """Read one .rq file and its comment header."""
    text = path.read_text(encoding="utf-8")
    header = read_header(text)
    title = (header.get("title") or [""])[-1]
    params = [_parse_param(value, path) for value in header.get("param", [])]
    return NamedQuery(path.stem, title, " ".join(header.get("description", [])), params, path, text)


def _parse_param(value: str, path: Path) -> QueryParam:
    match = _PARAM.match(value)
    if match is None:
        raise MtgkbError(
            f"{path.name}: cannot read the parameter line '# param: {value}'", "write '# param: ?var — …'"
        )
    rest = match.group("rest")
    default_match = _DEFAULT.search(rest)
    kind_match = _KIND.search(rest)
    return QueryParam(
        name=match.group("var"),
        description=rest,
        default=default_match.group("value") if default_match else None,
        optional=bool(_OPTIONAL.search(rest)),
        is_iri=bool(re.search(r"\bIRI\b", rest)),
        kind=kind_match.group(1) if kind_match else None,
    )


def catalogue(folder: Path | None = None) -> QueryCatalogue:
    folder = folder or queries_dir()
    queries = [parse_query_file(path) for path in sorted(folder.glob("*.rq"))] if folder.is_dir() else []
    return QueryCatalogue(folder, queries)


def get_query(name: str, folder: Path | None = None) -> NamedQuery:
    """The named query ``name`` (the file name without .rq); a miss suggests the closest names."""
    folder = folder or queries_dir()
    key = name.removesuffix(".rq")
    # Only the one file is read: a card lookup runs a named query every time.
    path = folder / f"{key}.rq"
    if key and "/" not in key and path.is_file():
        return parse_query_file(path)
    known = [query.name for query in catalogue(folder).queries]
    suggestions = difflib.get_close_matches(key, known, n=3, cutoff=0.5)
    suggestions += [other for other in known if key and key in other and other not in suggestions]
    error = NotFoundError("query", name, suggestions[:3])
    if not suggestions:
        error.hint = "run 'mtgkb queries' to list them"
    raise error


def internal_dir() -> Path:
    return queries_dir() / "internal"


@functools.cache
def library_query(name: str) -> str:
    """The text of ``queries/internal/NAME.rq``, a query the library runs; bind its ``# param:``
    variables with ``KnowledgeBase.select(text, var=value)``."""
    return get_query(name, internal_dir()).text

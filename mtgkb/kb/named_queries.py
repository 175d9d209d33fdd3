"""Named SPARQL queries: the ``queries/*.rq`` files users list (``mtgkb queries``) and run (``mtgkb
query NAME --param VAR=VALUE``), each documented by its header (see :mod:`mtgkb.kb.query_files`).

A parameter is required unless its description ends in "(optional…)" or "(default: VALUE)"; a
default is for a query whose title names its subject (the ninjutsu family's costs), never a stand-in
for a forgotten parameter. "(e.g. VALUE)" gives an example of a required one.

A parameter whose description says "IRI" accepts a full IRI, a prefixed name (``mechanic:ninjutsu``)
or a name that the knowledge base knows (``Ninjutsu``, ``Yuriko, the Tiger's Shadow``); the word
before "IRI" (card, mechanic, step, zone) narrows the name look-up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mtgkb.core.errors import MtgkbError, NotFoundError, shown
from mtgkb.core.paths import queries_dir
from mtgkb.kb.iri_arguments import NAME_KINDS, resolve_iri
from mtgkb.kb.query_files import read_header

if TYPE_CHECKING:
    from mtgkb.kb.sparql import SparqlResult
    from mtgkb.kb.store import KnowledgeBase

_PARAM = re.compile(r"^\?(?P<var>[A-Za-z_][A-Za-z0-9_]*)\s*(?:[—–-]+|:)?\s*(?P<rest>.*)$")
_DEFAULT = re.compile(r"\(\s*default:\s*(?P<value>[^)]*?)\s*\)\s*$")
_EXAMPLE = re.compile(r"\(\s*e\.g\.\s*(?P<value>[^)]*?)\s*\)\s*$")
_OPTIONAL = re.compile(r"\(\s*optional\b[^)]*\)\s*$")
_KIND = re.compile(r"\b(" + "|".join(NAME_KINDS) + r")\s+IRI\b")


@dataclass
class QueryParam:
    name: str  # without the "?"
    description: str
    default: str | None = None
    optional: bool = False  # left unbound when not given
    example: str | None = None  # a value it may take, for the docs and tests of a required one
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
    example_match = _EXAMPLE.search(rest)
    kind_match = _KIND.search(rest)
    return QueryParam(
        name=match.group("var"),
        description=rest,
        default=default_match.group("value") if default_match else None,
        optional=bool(_OPTIONAL.search(rest)),
        example=example_match.group("value") if example_match else None,
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
    import difflib  # only on a miss: the cold path of every lookup reads a query

    known = [query.name for query in catalogue(folder).queries]
    suggestions = difflib.get_close_matches(key, known, n=3, cutoff=0.5)
    suggestions += [other for other in known if key and key in other and other not in suggestions]
    error = NotFoundError("query", name, suggestions[:3])
    if not suggestions:
        error.hint = "run 'mtgkb queries' to list them"
    raise error


def parse_param_options(options: tuple[str, ...] | list[str]) -> dict[str, str]:
    """``("card=Yuriko", "?x=1")`` -> ``{"card": "Yuriko", "x": "1"}``."""
    values: dict[str, str] = {}
    for option in options:
        name, separator, value = option.partition("=")
        name = name.strip().lstrip("?$")
        if not separator or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise MtgkbError(
                f"cannot read --param '{shown(option)}'", "write --param VAR=VALUE, e.g. --param card=card:x"
            )
        values[name] = value
    return values


def check_params(query: NamedQuery, given: dict[str, str]) -> None:
    """Refuse a parameter ``query`` does not declare, or a required one not given (exit status 2),
    before any store is opened."""
    declared = {param.name: param for param in query.params}
    unknown = sorted(set(given) - set(declared))
    if unknown:
        names = ", ".join(f"?{name}" for name in declared) or "none"
        raise MtgkbError(
            f"query '{query.name}' has no parameter ?{unknown[0]}", f"its parameters are: {names}"
        )
    for param in query.params:
        if param.name not in given and param.default is None and not param.optional:
            hint = f"give it with --param {param.name}={param.example or '…'}"
            if param.is_iri and param.kind:
                hint += f" (or the {param.kind}'s name)"
            what = _without_notes(param.description)
            raise MtgkbError(f"query '{query.name}' needs the parameter ?{param.name}: {what}", hint)


def _without_notes(description: str) -> str:
    return _EXAMPLE.sub("", _DEFAULT.sub("", description)).strip()


def bind_params(kb: KnowledgeBase, query: NamedQuery, given: dict[str, str]) -> dict[str, str]:
    """The bindings for ``query``: given values and defaults, with names resolved to IRIs."""
    check_params(query, given)
    bound: dict[str, str] = {}
    for param in query.params:
        value = given.get(param.name, param.default)
        if value is not None:
            bound[param.name] = resolve_iri(kb, value, param.kind) if param.is_iri else value
    return bound


def run_named(
    kb: KnowledgeBase, name: str, given: dict[str, str] | None = None, fmt: str = "table"
) -> SparqlResult:
    from mtgkb.kb.sparql import run_query

    query = get_query(name)
    return run_query(kb, query.text, bind_params(kb, query, given or {}), fmt)

"""Ad-hoc SPARQL over the knowledge base, with results in the standard formats.

SELECT and ASK results come out as the SPARQL 1.1 Query Results formats (JSON, CSV, TSV), written by
Oxigraph itself, or as an aligned text table with IRIs shortened to the prefixes users already type
(``card:…``, ``mechanic:…``). CONSTRUCT and DESCRIBE results come out as Turtle, N-Triples or JSON-LD.
A result is lazy: its rows or its text are computed as they are read or written, so an answer of any
size streams through in the same memory. A malformed query is a user mistake: it raises
:class:`MtgkbError` naming the line and column.
"""

from __future__ import annotations

import functools
import io
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, TextIO

from mtgkb.core.errors import MtgkbError, shown
from mtgkb.kb.query_limits import check_query
from mtgkb.kb.vocab import PREFIXES

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

#: Formats for SELECT and ASK results; ``table`` is ours, the others are the W3C results formats.
RESULT_FORMATS = ("table", "json", "csv", "tsv")
#: Formats for CONSTRUCT and DESCRIBE results.
GRAPH_FORMATS = ("ttl", "nt", "jsonld")
ALL_FORMATS = RESULT_FORMATS + GRAPH_FORMATS

# What each requested format means for a graph-shaped result: the table view of triples is Turtle,
# the JSON view is JSON-LD.
_GRAPH_FORMAT_FOR = {"table": "ttl", "ttl": "ttl", "nt": "nt", "json": "jsonld", "jsonld": "jsonld"}
_MAX_DETAIL = 160


@dataclass
class SparqlResult:
    """One query's answer, computed as it is read. The ``table`` view of a SELECT has ``rows`` (an
    iterator: the store computes each row when it is read, so read them once); the standard formats
    (results JSON/CSV/TSV, an RDF syntax) have ``write``, which writes the text to a binary file as
    the store computes it, or ``serialized`` for an ASK's one-line answer."""

    form: str  # "select", "ask" or "graph" (CONSTRUCT and DESCRIBE)
    format: str
    variables: list[str] = field(default_factory=list)
    rows: Iterable[list[str | None]] = field(default_factory=list)
    boolean: bool | None = None
    count: int | None = None  # 1 for ASK; None when not counted (rows and triples stream)
    serialized: str | None = None
    write: Callable[[BinaryIO], None] | None = field(default=None, repr=False, compare=False)

    def text(self) -> str:
        """The whole answer in its standard format, in memory: for tests and small answers."""
        if self.write is None:
            return self.serialized or ""
        buffer = io.BytesIO()
        self.write(buffer)
        return buffer.getvalue().decode("utf-8")


def read_query_argument(argument: str, stdin: TextIO | None = None) -> str:
    """The query text from a command-line argument: ``-`` reads stdin, an existing file or a name
    ending in ``.rq`` is read as a file, anything else is the query itself."""
    from mtgkb.core.bounded import read_bounded, read_file_bounded, read_limit, too_large

    if argument == "-":  # read up to the "query" limit: stdin may be /dev/zero
        source = stdin or sys.stdin
        if hasattr(source, "buffer"):
            try:
                text = read_bounded(source.buffer, "standard input", "query").decode("utf-8-sig")
            except UnicodeDecodeError as error:
                raise MtgkbError(f"standard input is not UTF-8 text (byte {error.start})") from None
        elif len(text := source.read(read_limit("query") + 1)) > read_limit("query"):
            raise too_large("standard input", "query")
        if not text.strip():
            raise MtgkbError(
                "no query on standard input", "pipe a query in, e.g. echo 'ASK {}' | mtgkb sparql -"
            )
        return text
    looks_like_file = argument.endswith((".rq", ".sparql")) and "\n" not in argument
    path = Path(argument)
    if looks_like_file or (len(argument) < 4096 and "{" not in argument and _is_file(path)):
        try:
            return read_file_bounded(path, "query", f"the query file {shown(argument)}").decode("utf-8")
        except FileNotFoundError:
            raise MtgkbError(
                f"no query file {shown(argument)}", "give a path to a .rq file or the query text"
            ) from None
        except OSError as error:
            raise MtgkbError(f"cannot read the query file {shown(argument)}: {error.strerror}") from error
        except (UnicodeDecodeError, ValueError) as error:  # ValueError: a NUL in the name
            raise MtgkbError(f"cannot read the query file {shown(argument)}: {error}") from error
    if not any(character.isspace() or character == "{" for character in argument):
        # A query always has a space or a brace; this was meant as a file name.
        raise MtgkbError(f"no query file {shown(argument)}", "give a path to a .rq file or the query text")
    return argument


def _is_file(path: Path) -> bool:
    """Whether ``path`` names a file; a name the file system cannot take (too long) names none."""
    try:
        return path.is_file()
    except OSError:
        return False


def run_query(
    kb: KnowledgeBase, query: str, params: dict[str, str] | None = None, fmt: str = "table"
) -> SparqlResult:
    """Run ``query`` over the default graph (every source's facts, each once) and render it in
    ``fmt`` (see :data:`ALL_FORMATS`).

    ``params`` bind variables before evaluation (IRIs for ``http(s)://`` values, else literals)."""
    import pyoxigraph as ox

    if fmt not in ALL_FORMATS:
        raise MtgkbError(f"unknown format '{fmt}'", f"use one of {', '.join(ALL_FORMATS)}")
    answer = evaluate(kb, query, params)
    if isinstance(answer, ox.QueryBoolean):
        return _ask_result(answer, fmt)
    if isinstance(answer, ox.QueryTriples):
        return _graph_result(answer, fmt)
    return _select_result(answer, fmt)


def evaluate(
    kb: KnowledgeBase,
    query: str,
    params: dict[str, str] | None = None,
    default_graphs: list[str] | None = None,
    named_graphs: list[str] | None = None,
) -> Any:
    """pyoxigraph's answer to ``query``, after the checks every way of querying shares: an update is
    refused (:class:`UpdateRefused`), so are a federated SERVICE in any spelling and a query nested
    too deep or too large for the parser (see ``query_limits.check_query``), and a malformed query
    is an error naming the line and column.
    ``default_graphs``/``named_graphs`` set the dataset (see :meth:`KnowledgeBase.raw_query`). A
    SELECT's rows are computed as they are read."""
    refuse_update(query)
    check_query(query)
    try:
        return kb.raw_query(query, params, default_graphs, named_graphs)
    except SyntaxError as error:
        raise malformed_query_error(query, str(error)) from None
    except ValueError as error:
        raise MtgkbError(
            f"cannot bind a parameter: {shown(str(error), 200)}", "use VAR=VALUE with a plain variable name"
        ) from None
    except RuntimeError as error:
        raise MtgkbError(f"the query failed: {shown(str(error), 300)}") from error
    except OSError as error:
        raise MtgkbError(f"the query failed while reading the store: {error}") from error


# The prologue (comments, PREFIX and BASE declarations), then the first keyword of the request. The
# prologue is matched possessively (*+): backtracking into it tried every way of splitting a run of
# white space, so 40 spaces before a brace took hours.
_FIRST_KEYWORD = re.compile(
    r"^(?:\s+|#[^\n]*(?:\n|$)|PREFIX\s+[^\s:]*:\s*<[^>]*>|BASE\s*<[^>]*>)*+([A-Za-z]+)", re.IGNORECASE
)
_UPDATE_KEYWORDS = {"INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH"}


class UpdateRefused(MtgkbError):
    """A SPARQL Update was sent: the knowledge base is read-only."""


def refuse_update(query: str) -> None:
    """A SPARQL Update is refused for what it is: the store is a read-only cache of the sources."""
    match = _FIRST_KEYWORD.match(query)
    if match and match.group(1).upper() in _UPDATE_KEYWORDS:
        raise UpdateRefused(
            f"the knowledge base is read-only: SPARQL Update ({match.group(1).upper()} …) is not supported",
            "the store is rebuilt from ontology/, data/ and the imports: change a file in data/ or import a "
            "dataset ('mtgkb import --help'); queries may be SELECT, ASK, CONSTRUCT or DESCRIBE",
        )


def _select_result(solutions: Any, fmt: str) -> SparqlResult:
    variables = [variable.value for variable in solutions.variables]
    if fmt in GRAPH_FORMATS:
        raise _graph_format_for_solutions(fmt, "SELECT")
    if fmt == "table":
        return SparqlResult("select", fmt, variables, _compact_rows(solutions))
    results_format = _results_format(fmt)

    def write(output: BinaryIO) -> None:
        # Oxigraph streams the rows straight into the standard format as it computes them.
        solutions.serialize(output, format=results_format)

    return SparqlResult("select", fmt, variables, write=write)


def _compact_rows(solutions: Any) -> Iterator[list[str | None]]:
    for row in solutions:
        yield [compact_term(term) for term in row]


def _ask_result(answer: Any, fmt: str) -> SparqlResult:
    if fmt in GRAPH_FORMATS:
        raise _graph_format_for_solutions(fmt, "ASK")
    value = bool(answer)
    if fmt == "table":
        return SparqlResult("ask", fmt, boolean=value, count=1)
    text = answer.serialize(format=_results_format(fmt)).decode("utf-8")
    return SparqlResult("ask", fmt, boolean=value, count=1, serialized=text)


def _graph_result(triples: Any, fmt: str) -> SparqlResult:
    import pyoxigraph as ox

    target = _GRAPH_FORMAT_FOR.get(fmt)
    if target is None:
        raise MtgkbError(
            f"--format {fmt} is for SELECT results; this query returns triples",
            "use --format ttl, nt or jsonld (or table for Turtle)",
        )
    syntax = rdf_format(target)

    def write(output: BinaryIO) -> None:
        ox.serialize(triples, output, syntax, prefixes=PREFIXES)

    return SparqlResult("graph", target, write=write)


def _graph_format_for_solutions(fmt: str, form: str) -> MtgkbError:
    return MtgkbError(
        f"--format {fmt} is for CONSTRUCT and DESCRIBE results; this is a {form} query",
        "use --format table, json, csv or tsv",
    )


def _results_format(fmt: str) -> Any:
    import pyoxigraph as ox

    return {
        "json": ox.QueryResultsFormat.JSON,
        "csv": ox.QueryResultsFormat.CSV,
        "tsv": ox.QueryResultsFormat.TSV,
    }[fmt]


def rdf_format(fmt: str) -> Any:
    """Our short format names (ttl, nt, jsonld, trig) as pyoxigraph formats."""
    import pyoxigraph as ox

    return {
        "ttl": ox.RdfFormat.TURTLE,
        "nt": ox.RdfFormat.N_TRIPLES,
        "jsonld": ox.RdfFormat.JSON_LD,
        "trig": ox.RdfFormat.TRIG,
    }[fmt]


# Longest namespace first, so ``mtgkb:`` (…/vocab#) wins over a shorter namespace it extends.
_NAMESPACES = sorted(((iri, prefix) for prefix, iri in PREFIXES.items()), key=lambda item: -len(item[0]))
_LOCAL_NAME = re.compile(r"^[A-Za-z0-9_]([A-Za-z0-9_.\-]*[A-Za-z0-9_\-])?$")


@functools.lru_cache(maxsize=1 << 16)  # a table of a million rows names the same few IRIs again and again
def compact_iri(iri: str) -> str:
    """``https://w3id.org/mtgkb/card/x`` -> ``card:x``; IRIs outside our prefixes stay whole."""
    for namespace, prefix in _NAMESPACES:
        if iri.startswith(namespace):
            local = iri[len(namespace) :]
            if _LOCAL_NAME.match(local):
                return f"{prefix}:{local}"
    return iri


def compact_term(term: Any) -> str | None:
    """A pyoxigraph term as a person reads it: prefixed IRI, bare literal value, ``_:id``."""
    import pyoxigraph as ox

    if term is None:
        return None
    if isinstance(term, ox.NamedNode):
        return compact_iri(term.value)
    if isinstance(term, ox.BlankNode):
        return f"_:{term.value}"
    if isinstance(term, ox.Literal):
        return term.value
    return str(term)


_POSITION = re.compile(r"error at (\d+):(\d+):\s*(.*)", re.DOTALL)


def malformed_query_error(query: str, message: str) -> MtgkbError:
    """The parser's complaint as a user-facing error: line, column, the offending line and a caret."""
    match = _POSITION.search(message)
    if not match:
        return MtgkbError(f"malformed SPARQL query: {_shorten(message)}", _QUERY_HINT)
    line_number, column = int(match.group(1)), int(match.group(2))
    detail = match.group(3)
    lines = query.splitlines() or [""]
    source_line = lines[line_number - 1] if 0 < line_number <= len(lines) else ""
    if "Prefix not found" in detail:
        prefix = _prefix_before(source_line, column)
        detail = f"unknown prefix '{prefix}:'" if prefix is not None else "unknown prefix"
        hint = "predeclared prefixes: " + ", ".join(PREFIXES) + "; declare others with PREFIX"
    else:
        detail = _shorten(detail)
        hint = _QUERY_HINT
    excerpt = _excerpt(source_line, column) if source_line.strip() else ""
    return MtgkbError(
        f"malformed SPARQL query at line {line_number}, column {column}: {detail}{excerpt}", hint
    )


_QUERY_HINT = (
    "fix the query; mtgkb:, card:, mechanic:, step:, cr: and the other usual prefixes are predeclared"
)


#: Characters of the offending line shown on either side of the error.
_EXCERPT = 60


def _excerpt(line: str, column: int) -> str:
    """The part of ``line`` around ``column`` with a caret under it; characters that do not print
    (escape sequences, tabs) are shown as U+FFFD so that nothing reaches the terminal as a command."""
    at = max(column - 1, 0)
    start, end = max(at - _EXCERPT, 0), at + _EXCERPT
    before, after = ("…" if start > 0 else ""), ("…" if end < len(line) else "")
    shown = "".join(c if c.isprintable() else "\ufffd" for c in line[start:end])
    return f"\n  {before}{shown}{after}\n  {' ' * (len(before) + at - start)}^"


def _prefix_before(line: str, column: int) -> str | None:
    """The prefix name before the last colon ahead of ``column``, walked back by hand (a pattern took
    time quadratic in a long line)."""
    head = line[: max(column - 1, 0)]
    colon = head.rfind(":")
    if colon < 0:
        return None
    start = colon
    while start > 0 and (head[start - 1].isalnum() or head[start - 1] in "_-."):
        start -= 1
    name = head[start:colon].lstrip("_-.0123456789")
    return name if len(name) <= 40 else name[:39] + "…"


def _shorten(detail: str) -> str:
    first = " ".join(detail.split())
    return first if len(first) <= _MAX_DETAIL else first[: _MAX_DETAIL - 1].rstrip() + "…"


# --- binding --param values ----------------------------------------------------------------------


def bind_params(kb: KnowledgeBase, query: str, given: dict[str, str]) -> dict[str, str]:
    """The values of ``--param`` options for an ad-hoc query, checked and resolved.

    Every variable must occur in the query. A full IRI (``https://…`` or ``<…>``) or a prefixed name
    (``card:x``) is an IRI; a value in double quotes is that string. Anything else is a name, resolved
    as the lookups resolve names (cards, mechanics, steps, zones, concepts): where the variable
    stands for a node (a subject, the object of ``a`` or of an object property) the name must resolve,
    with a "did you mean" otherwise; elsewhere an exact name is its node and any other value a string.
    """
    from mtgkb.kb.sparql_bind import variables

    used = variables(query)
    unknown = sorted(set(given) - used)
    if unknown:
        names = sorted(used)
        listed = ", ".join(f"?{shown(name, 40)}" for name in names[:20]) or "none"
        listed += f" and {len(names) - 20} more" if len(names) > 20 else ""
        raise MtgkbError(f"the query has no variable ?{shown(unknown[0])}", f"its variables are: {listed}")
    nodes = _node_variables(kb, query, set(given))
    return {name: _param_value(kb, value, name in nodes) for name, value in given.items()}


def _param_value(kb: KnowledgeBase, value: str, node: bool) -> str:
    from mtgkb.core.errors import AmbiguousNameError, NotFoundError
    from mtgkb.kb.iri_arguments import expand_prefixed, find_named, resolve_iri
    from mtgkb.kb.names import normalise

    text = value.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    if text.startswith(("http://", "https://")) or (text.startswith("<") and text.endswith(">")):
        return text.strip("<>")
    expanded = expand_prefixed(text)
    if expanded is not None:
        return expanded
    if node:
        return resolve_iri(kb, text)
    try:
        match = find_named(kb, text, _NAME_KINDS)
    except (NotFoundError, AmbiguousNameError):
        return value
    return match.iri if normalise(match.name) == normalise(text) else value


_NAME_KINDS = ("card", "mechanic", "step", "zone", "concept")


def _node_variables(kb: KnowledgeBase, query: str, names: set[str]) -> set[str]:
    """Which of ``names`` stand for nodes in ``query``: a triple's subject, the object of ``a`` or of
    an object property (read from the ontology)."""
    if not names:
        return set()
    from mtgkb.kb.query_files import library_query

    properties = {row["p"] for row in kb.select(library_query("object-properties"))} | {
        PREFIXES["rdf"] + "type"
    }
    found = set()
    for name in names:
        for match in re.finditer(rf"[?$]{re.escape(name)}\b", query):
            token = _token_before(query, match.start())
            if token[-1] in "{.}" or token == "a":
                found.add(name)
                continue
            step = token.split("/")[-1].rstrip("*+?").lstrip("^(")
            iri = step[1:-1] if step.startswith("<") else _expand(step)
            if iri in properties:
                found.add(name)
    return found


def _token_before(text: str, end: int) -> str:
    r"""The last run of non-space characters in ``text[:end]`` ("{" when there is none). Walked back
    by hand: a pattern such as ``(\S+)\s*$`` takes time quadratic in a long run of non-space text."""
    stop = end
    while stop > 0 and text[stop - 1].isspace():
        stop -= 1
    start = stop
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    return text[start:stop] or "{"


def _expand(name: str) -> str | None:
    from mtgkb.kb.iri_arguments import expand_prefixed

    return expand_prefixed(name)

"""``mtgkb push``: every graph of the knowledge base into a triple store server, through the SPARQL 1.1
Graph Store HTTP Protocol.

Each named graph is sent with ``PUT <graph store>?graph=<its IRI>`` (replacing what the server held
under that name), and so is the default graph (``?default``), the deduplicated union that local
queries read, so that the same queries give the same answers on the server. The triples are streamed
as N-Triples, a batch at a time, so a graph of a million triples never sits in memory as text.
With a query endpoint, the server's triple count of each graph is checked afterwards.
"""

from __future__ import annotations

import json
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtgkb.core.errors import MtgkbError
from mtgkb.core.progress import Progress, Ticker
from mtgkb.kb.query_files import library_query
from mtgkb.kb.remote import check_endpoint, select_results, send

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

_BATCH = 20_000  # triples serialised at a time
DEFAULT_GRAPH = "default"  # how the summary names the default graph


@dataclass
class PushedGraph:
    graph: str  # a graph IRI, or "default"
    triples: int
    bytes: int
    remote_triples: int | None = None  # as the endpoint counts them afterwards


@dataclass
class PushSummary:
    graph_store: str
    endpoint: str | None
    graphs: list[PushedGraph] = field(default_factory=list)
    seconds: float = 0.0
    checked: bool = False  # the endpoint's counts were compared
    mismatched: list[str] = field(default_factory=list)  # graphs whose counts differ

    @property
    def triples(self) -> int:
        return sum(graph.triples for graph in self.graphs)


def graph_store_for(endpoint: str | None, graph_store: str | None) -> str:
    """The Graph Store Protocol URL: as given, or Oxigraph's ``/store`` beside its ``/query``."""
    if graph_store:
        check_endpoint(graph_store)
        return graph_store
    if endpoint and endpoint.rstrip("/").endswith("/query"):
        return endpoint.rstrip("/").removesuffix("/query") + "/store"
    raise MtgkbError(
        "give the server's Graph Store Protocol URL with --graph-store",
        "Oxigraph: http://HOST:7878/store; Fuseki: http://HOST:3030/DATASET/data; "
        "Virtuoso: http://HOST:8890/sparql-graph-crud-auth",
    )


def push(
    kb: KnowledgeBase,
    graph_store: str,
    endpoint: str | None = None,
    progress: Progress | None = None,
    timeout: float | None = 600,
) -> PushSummary:
    """PUT every named graph and the default graph to ``graph_store``; with ``endpoint``, then compare
    the server's count of each graph with ours."""
    import pyoxigraph as ox

    check_endpoint(graph_store)
    if endpoint:
        check_endpoint(endpoint)
    started = time.perf_counter()
    counts = dict(sorted(kb.meta.get("graphs", {}).items()))
    default_count = int(kb.select(library_query("default-graph-count"))[0]["n"])
    plan: list[tuple[str, Any, int]] = [(iri, ox.NamedNode(iri), n) for iri, n in counts.items()]
    plan.append((DEFAULT_GRAPH, ox.DefaultGraph(), default_count))
    ticker = Ticker(progress, f"pushing {len(plan)} graphs", sum(n for _, _, n in plan))
    summary = PushSummary(graph_store, endpoint)
    done = 0
    for name, graph, _ in plan:
        sent = _Sent()
        target = _graph_url(graph_store, None if name == DEFAULT_GRAPH else name)
        request = urllib.request.Request(
            target,
            data=_Body(kb, graph, sent, lambda n, before=done: ticker.update(before + n)),
            method="PUT",
            headers={"Content-Type": "application/n-triples", "User-Agent": "mtgkb"},
        )
        send(request, graph_store, timeout)
        done += sent.triples
        summary.graphs.append(PushedGraph(name, sent.triples, sent.bytes))
    ticker.update(done)
    if endpoint:
        _check(summary, endpoint, timeout)
    summary.seconds = round(time.perf_counter() - started, 2)
    return summary


@dataclass
class _Sent:
    triples: int = 0
    bytes: int = 0


def _graph_url(graph_store: str, graph: str | None) -> str:
    query = "default" if graph is None else urllib.parse.urlencode({"graph": graph})
    return graph_store + ("&" if "?" in graph_store else "?") + query


class _Body:
    """A graph's N-Triples as a request body that can be sent again: a server asking for credentials
    first answers 401, and the request is then repeated with them, from the first triple."""

    def __init__(self, kb: KnowledgeBase, graph: Any, sent: _Sent, report: Any) -> None:
        self._arguments = (kb, graph, sent, report)

    def __iter__(self) -> Iterator[bytes]:
        sent = self._arguments[2]
        sent.triples = sent.bytes = 0
        return _ntriples(*self._arguments)


def _ntriples(kb: KnowledgeBase, graph: Any, sent: _Sent, report: Any) -> Iterator[bytes]:
    """The graph's triples as N-Triples, a batch at a time (sent with chunked transfer encoding)."""
    import pyoxigraph as ox

    batch: list[Any] = []
    for quad in kb.store.quads_for_pattern(None, None, None, graph):
        batch.append(quad.triple)
        if len(batch) >= _BATCH:
            yield _encode(batch, sent, report, ox)
            batch = []
    if batch:
        yield _encode(batch, sent, report, ox)


def _encode(batch: list[Any], sent: _Sent, report: Any, ox: Any) -> bytes:
    data = ox.serialize(batch, format=ox.RdfFormat.N_TRIPLES)
    sent.triples += len(batch)
    sent.bytes += len(data)
    report(sent.triples)
    return data


def _check(summary: PushSummary, endpoint: str, timeout: float | None) -> None:
    """The endpoint's count of each pushed graph, compared with what was sent."""
    named = {row["g"]: row["n"] for row in _remote_rows(endpoint, library_query("graph-counts"), timeout)}
    default = _remote_rows(endpoint, library_query("default-graph-count"), timeout)
    for pushed in summary.graphs:
        if pushed.graph == DEFAULT_GRAPH:
            pushed.remote_triples = default[0]["n"] if default else 0
        else:
            pushed.remote_triples = named.get(pushed.graph, 0)
        if pushed.remote_triples != pushed.triples:
            summary.mismatched.append(pushed.graph)
    summary.checked = True


def _remote_rows(endpoint: str, query: str, timeout: float | None) -> list[dict[str, Any]]:
    request = urllib.request.Request(
        endpoint,
        data=urllib.parse.urlencode({"query": query}).encode(),
        headers={"Accept": "application/sparql-results+json", "User-Agent": "mtgkb"},
    )
    _, payload = send(request, endpoint, timeout)
    try:
        document = json.loads(payload)
    except ValueError as error:
        raise MtgkbError(f"{endpoint} did not answer with SPARQL results JSON ({error})") from None
    _, bindings = select_results(document)
    try:
        return [{name: _value(term) for name, term in binding.items()} for binding in bindings]
    except ValueError as error:
        raise MtgkbError(f"{endpoint} answered a count that is not a number ({error})") from None


def _value(term: dict[str, Any]) -> Any:
    value = term.get("value")
    datatype = term.get("datatype")
    if isinstance(datatype, str) and datatype.endswith("#integer"):
        return int(value)
    return value

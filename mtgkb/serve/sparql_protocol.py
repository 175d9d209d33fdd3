"""``/sparql``: the SPARQL 1.1 Protocol (query operation) and the Service Description.

- GET ``?query=…``, POST ``application/x-www-form-urlencoded`` (``query=…``) or POST
  ``application/sparql-query`` (the query as the body); ``default-graph-uri`` and ``named-graph-uri``
  (repeatable) set the dataset.
- A plain GET (no parameters) answers with the service description, in the RDF syntax negotiated.
- Updates are refused with 403 (``update=`` or ``application/sparql-update``, and an update sent as
  a query), and so is SERVICE; nothing a request says can change the store or make it fetch a URL.
- The query's answer is written by a worker (see :mod:`mtgkb.serve.jobs`) in the format the
  ``Accept`` header asks for; an ``Accept`` that allows none of them is 406 before anything runs.
"""

from __future__ import annotations

import urllib.parse
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any

from starlette.responses import Response

from mtgkb.core.errors import MtgkbError, shown
from mtgkb.serve.jobs import Job, Reply, error_reply, media_type_header
from mtgkb.serve.limits import CappedBuffer, RequestTooLarge, ResultTooLarge
from mtgkb.serve.negotiation import acceptable_for_any, choose, media_types

if TYPE_CHECKING:
    from starlette.requests import Request

FORM = "application/x-www-form-urlencoded"
QUERY = "application/sparql-query"
UPDATE = "application/sparql-update"


class ProtocolError(MtgkbError):
    """A request that does not follow the protocol; ``status`` says how."""

    def __init__(self, status: int, message: str, hint: str | None = None) -> None:
        super().__init__(message, hint)
        self.status = status


def reply_response(reply: Reply) -> Response:
    return Response(reply.body, reply.status, headers=reply.headers, media_type=reply.media_type)


def text_error(error: MtgkbError, status: int | None = None) -> Response:
    return reply_response(error_reply(error, json_body=False, status=status))


async def read_body(request: Request, limit: int, what: str = "the request body") -> bytes:
    """The body, refused with 413 once it passes ``limit`` bytes. The rest of a refused body is still
    read (up to a bound), so that a client that sends it all before reading hears why."""
    declared = request.headers.get("content-length")
    too_large = declared is not None and declared.isdigit() and int(declared) > limit
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            too_large = True
        if too_large:
            if size > _DRAIN_LIMIT:
                break
            continue
        chunks.append(chunk)
    if too_large:
        raise RequestTooLarge(what, limit)
    return b"".join(chunks)


_DRAIN_LIMIT = 64 * 1024 * 1024


def _decode(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ProtocolError(400, f"{what} is not UTF-8 text (byte {error.start})") from None


def _form_fields(text: str) -> dict[str, list[str]]:
    try:
        return urllib.parse.parse_qs(text, keep_blank_values=True, strict_parsing=False, errors="strict")
    except UnicodeDecodeError:
        raise ProtocolError(400, "the form holds bytes that are not UTF-8 text") from None


async def protocol_request(request: Request, limit: int) -> dict[str, list[str]] | None:
    """The protocol's parameters (query, default-graph-uri, named-graph-uri, update) of a request;
    None for a plain GET, which asks for the service description."""
    raw_url_query = request.url.query
    if len(raw_url_query.encode("utf-8")) > limit:
        raise RequestTooLarge("the query string", limit)
    fields = _form_fields(raw_url_query)
    if request.method in ("GET", "HEAD"):  # HEAD answers as GET does, without the body
        return fields or None
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type == UPDATE:
        raise _update_refused()
    body = await read_body(request, limit)
    if content_type == FORM:
        for name, values in _form_fields(_decode(body, "the form")).items():
            fields.setdefault(name, []).extend(values)
    elif content_type == QUERY:
        fields.setdefault("query", []).append(_decode(body, "the query"))
    else:
        raise ProtocolError(
            415,
            f"a POST to /sparql must be {FORM} or {QUERY}, not '{shown(content_type) or 'no content type'}'",
            "send the query as a form field 'query' or as the body with Content-Type " + QUERY,
        )
    return fields


def _update_refused() -> MtgkbError:
    from mtgkb.kb.sparql import UpdateRefused

    return UpdateRefused(
        "the knowledge base is read-only: SPARQL Update is not supported",
        "the store is rebuilt from ontology/, data/ and the imports; queries may be SELECT, ASK, "
        "CONSTRUCT or DESCRIBE",
    )


def query_job(fields: dict[str, list[str]], accept: str | None) -> Job:
    """The worker's job for a protocol request's parameters."""
    if "update" in fields:
        raise _update_refused()
    queries = fields.get("query", [])
    if len(queries) != 1:
        raise ProtocolError(
            400,
            "give exactly one 'query' parameter" if queries else "no 'query' parameter",
            "e.g. /sparql?query=ASK%20%7B%7D; a GET with no parameters gives the service description",
        )
    if not queries[0].strip():
        raise ProtocolError(400, "the query is empty", "send a SELECT, ASK, CONSTRUCT or DESCRIBE query")
    default_graphs = fields.get("default-graph-uri")
    named_graphs = fields.get("named-graph-uri")
    for iri in (default_graphs or []) + (named_graphs or []):
        if not _absolute_iri(iri):
            raise ProtocolError(400, f"'{shown(iri)}' is not an absolute IRI", "give graph IRIs in full")
    if not acceptable_for_any(accept):
        raise ProtocolError(
            406,
            f"none of the formats the request accepts ({shown(accept or '')}) is one this endpoint writes",
            f"accept one of {media_types('solutions')} (SELECT, ASK) or {media_types('graph')} "
            "(CONSTRUCT, DESCRIBE)",
        )
    payload: dict[str, Any] = {"query": queries[0], "accept": accept}
    if default_graphs is not None or named_graphs is not None:
        payload["default_graphs"] = default_graphs or []
        payload["named_graphs"] = named_graphs or []
    return Job("sparql", payload)


def _absolute_iri(text: str) -> bool:
    parsed = urllib.parse.urlsplit(text)
    return bool(parsed.scheme) and not any(c in text for c in ' <>"{}|^`\\')


# --- the service description ---------------------------------------------------------------------

_SD = "http://www.w3.org/ns/sparql-service-description#"
_RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"


def service_description(endpoint: str, graphs: tuple[str, ...], accept: str | None, limit: int) -> Response:
    """The service description of ``endpoint`` in the RDF syntax ``accept`` prefers, refused past
    ``limit`` bytes like any answer. ``endpoint`` comes from the request's Host header, which
    :mod:`mtgkb.serve.guard` has checked is a host name of at most a few hundred characters, so each
    description, and the few kept, stay small."""
    chosen = choose(accept, "graph")
    if chosen is None:
        return text_error(
            MtgkbError(
                f"the service description is RDF; none of ({shown(accept or '')}) is an RDF syntax "
                "written here",
                f"accept one of {media_types('graph')}",
            ),
            406,
        )
    try:
        body = _description(endpoint, graphs, chosen.key, limit)
    except ResultTooLarge as error:
        return text_error(error)
    return Response(body, media_type=media_type_header(chosen))


@lru_cache(maxsize=8)
def _description(endpoint: str, graphs: tuple[str, ...], key: str, limit: int) -> bytes:
    import pyoxigraph as ox

    from mtgkb.serve.jobs import write_graph
    from mtgkb.serve.negotiation import GRAPH_FORMATS

    template = resources.files("mtgkb.serve").joinpath("service-description.ttl").read_bytes()
    triples = list(ox.parse(template, ox.RdfFormat.TURTLE, base_iri=endpoint))
    dataset = ox.NamedNode(endpoint + "#dataset")
    for iri in graphs:
        node = ox.BlankNode()
        triples += [
            ox.Triple(dataset, ox.NamedNode(_SD + "namedGraph"), node),
            ox.Triple(node, ox.NamedNode(_RDF_TYPE), ox.NamedNode(_SD + "NamedGraph")),
            ox.Triple(node, ox.NamedNode(_SD + "name"), ox.NamedNode(iri)),
        ]
    buffer = CappedBuffer(limit)
    chosen = next(candidate for candidate in GRAPH_FORMATS if candidate.key == key)
    write_graph(triples, chosen, buffer, _DESCRIPTION_PREFIXES)
    return buffer.getvalue()


_DESCRIPTION_PREFIXES = {
    "sd": _SD,
    "formats": "http://www.w3.org/ns/formats/",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
}

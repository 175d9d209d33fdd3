"""Queries against a remote SPARQL endpoint (``mtgkb sparql --endpoint URL``, ``mtgkb query NAME
--endpoint URL``), through the SPARQL 1.1 Protocol: the query is POSTed as a form, with the
prefixes mtgkb predeclares written out and the parameters bound by the same VALUES blocks as locally,
and the answer comes back in the same :class:`~mtgkb.kb.sparql.SparqlResult` as a local query.

The endpoint decides what it allows; a SPARQL Update is still refused here, before anything is sent.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from typing import TYPE_CHECKING, Any

from mtgkb.core.errors import MtgkbError, shown
from mtgkb.kb.sparql import ALL_FORMATS, SparqlResult, compact_iri, refuse_update
from mtgkb.kb.sparql_text import bind_values
from mtgkb.kb.vocab import PREFIXES

if TYPE_CHECKING:
    from mtgkb.core.http_client import Deadline

#: What to ask for, per output format: SELECT/ASK results or, for CONSTRUCT/DESCRIBE, RDF.
_ACCEPT = {
    "table": "application/sparql-results+json, text/turtle;q=0.9",
    "json": "application/sparql-results+json, application/ld+json;q=0.9",
    "csv": "text/csv",
    "tsv": "text/tab-separated-values",
    "ttl": "text/turtle",
    "nt": "application/n-triples",
    "jsonld": "application/ld+json",
}
_GRAPH_TYPES = {
    "text/turtle": "ttl",
    "application/n-triples": "nt",
    "text/plain": "nt",
    "application/ld+json": "jsonld",
}
_DECLARED = re.compile(r"PREFIX\s+([A-Za-z][\w.\-]*)?\s*:", re.IGNORECASE)
_USER_AGENT = "mtgkb"


def with_prefixes(query: str) -> str:
    """``query`` with a PREFIX line for each prefix mtgkb predeclares that it uses and does not declare
    (a remote endpoint knows none of them)."""
    declared = {match.group(1) or "" for match in _DECLARED.finditer(query)}
    needed = [
        f"PREFIX {prefix}: <{iri}>\n"
        for prefix, iri in PREFIXES.items()
        if prefix not in declared and re.search(rf"(?<![\w<]){re.escape(prefix)}:", query)
    ]
    return "".join(needed) + query


def remote_query(
    endpoint: str,
    query: str,
    params: dict[str, str] | None = None,
    fmt: str = "table",
    timeout: float | None = None,
) -> SparqlResult:
    """Run ``query`` on ``endpoint`` and render its answer in ``fmt`` (see :data:`ALL_FORMATS`);
    ``params`` are bound as for a local query (IRIs for ``http(s)://`` values, else literals)."""
    if fmt not in ALL_FORMATS:
        raise MtgkbError(f"unknown format '{fmt}'", f"use one of {', '.join(ALL_FORMATS)}")
    check_endpoint(endpoint)
    refuse_update(query)
    text = with_prefixes(bind_values(query, params) if params else query)
    body = urllib.parse.urlencode({"query": text}).encode("utf-8")
    request = urllib.request.Request(
        endpoint,
        data=body,
        headers={
            "Accept": _ACCEPT[fmt],
            "Content-Type": "application/x-www-form-urlencoded",
            "User-Agent": _USER_AGENT,
        },
    )
    content_type, payload = send(request, endpoint, timeout)
    return _result(content_type, payload, fmt)


def check_endpoint(url: str) -> None:
    from mtgkb.core.http_client import check_web_url

    check_web_url(url, "the endpoint")


def send(request: urllib.request.Request, url: str, timeout: float | Deadline | None) -> tuple[str, bytes]:
    """(content type, body) of the answer; an error status or no answer is an MtgkbError. ``timeout``
    bounds the whole exchange, sending, waiting and reading (a :class:`Deadline` may be shared by
    several requests); the body is at most the "answer" read limit. A user and password in the URL
    (``http://user:secret@host/…``) answer the server's Basic or Digest challenge."""
    from mtgkb.core.http_client import Deadline, open_response, read_body

    deadline = timeout if isinstance(timeout, Deadline) else Deadline(timeout)
    handlers = _credentials(request)
    address = _without_credentials(url)
    try:
        with open_response(
            request, deadline, address, "check the URL and that the server runs", *handlers
        ) as response:
            content_type = response.headers.get("Content-Type", "")
            return content_type, read_body(response, f"the answer of {address}", "answer", deadline)
    except urllib.error.HTTPError as error:
        detail = error.read(2000).decode("utf-8", "replace").strip() if error.fp else ""
        text = " ".join(detail.split())[:300]
        raise MtgkbError(
            f"{address} answered {error.code} {error.reason}" + (f": {text}" if text else ""),
            "check the query, and that the URL is the endpoint's",
        ) from None


def _credentials(request: urllib.request.Request) -> tuple[urllib.request.BaseHandler, ...]:
    """The handlers that answer an authentication challenge with the user and password in the
    request's URL, which is sent without them."""
    parsed = urllib.parse.urlsplit(request.full_url)
    if parsed.username is None:
        return ()
    user = urllib.parse.unquote(parsed.username)
    password = urllib.parse.unquote(parsed.password or "")
    request.full_url = _without_credentials(request.full_url)
    passwords = urllib.request.HTTPPasswordMgrWithDefaultRealm()
    passwords.add_password(None, request.full_url, user, password)
    return (urllib.request.HTTPBasicAuthHandler(passwords), urllib.request.HTTPDigestAuthHandler(passwords))


def _without_credentials(url: str) -> str:
    parsed = urllib.parse.urlsplit(url)
    if parsed.username is None:
        return url
    host = parsed.hostname or ""
    netloc = (f"[{host}]" if ":" in host else host) + (f":{parsed.port}" if parsed.port else "")
    return urllib.parse.urlunsplit(parsed._replace(netloc=netloc))


def _result(content_type: str, payload: bytes, fmt: str) -> SparqlResult:
    media = content_type.split(";")[0].strip().lower()
    text = payload.decode("utf-8", "replace")
    if media in _GRAPH_TYPES:
        return SparqlResult("graph", _GRAPH_TYPES[media], serialized=text)
    if fmt in ("csv", "tsv"):
        return SparqlResult("select", fmt, serialized=text)
    if media not in ("application/sparql-results+json", "application/json"):
        raise MtgkbError(f"the endpoint answered with {media or 'no content type'}, not SPARQL results")
    try:
        document = json.loads(text)
    except ValueError as error:
        raise MtgkbError(f"the endpoint's answer is not JSON: {error}") from None
    if isinstance(document, dict) and "boolean" in document:
        value = bool(document["boolean"])
        return SparqlResult("ask", fmt, boolean=value, count=1, serialized=text if fmt == "json" else None)
    variables, bindings = select_results(document)
    if fmt == "json":
        return SparqlResult("select", fmt, variables, serialized=text)
    rows = [[_compact(binding.get(name)) for name in variables] for binding in bindings]
    return SparqlResult("select", fmt, variables, rows, count=len(rows))


def select_results(document: Any) -> tuple[list[str], list[dict[str, Any]]]:
    """The variables and bindings of a SPARQL results JSON document, each checked for the shape the
    standard gives it (an endpoint's answer is not trusted to have it)."""
    head = document.get("head") if isinstance(document, dict) else None
    results = document.get("results") if isinstance(document, dict) else None
    variables = head.get("vars", []) if isinstance(head, dict) else None
    bindings = results.get("bindings", []) if isinstance(results, dict) else None
    if not isinstance(variables, list) or not all(isinstance(name, str) for name in variables):
        raise _not_results("it has no head with a list of variable names")
    if not isinstance(bindings, list):
        raise _not_results("it has no results with a list of bindings")
    for binding in bindings:
        if not isinstance(binding, dict) or not all(
            isinstance(term, dict) and isinstance(term.get("value"), str) for term in binding.values()
        ):
            raise _not_results(f"a binding is not a map of variables to terms: {shown(json.dumps(binding))}")
    return variables, bindings


def _not_results(why: str) -> MtgkbError:
    return MtgkbError(
        f"the endpoint's answer is not SPARQL results JSON: {why}",
        "check that the URL is a SPARQL endpoint's",
    )


def _compact(term: dict[str, Any] | None) -> str | None:
    """A results-JSON term as the local table shows it (mtgkb.kb.sparql.compact_term)."""
    if term is None:
        return None
    if term.get("type") == "uri":
        return compact_iri(term["value"])
    if term.get("type") == "bnode":
        return f"_:{term['value']}"
    return str(term.get("value"))

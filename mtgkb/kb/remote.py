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
from typing import Any

from mtgkb.core.errors import MtgkbError, shown
from mtgkb.kb.sparql import ALL_FORMATS, SparqlResult, compact_iri, refuse_update
from mtgkb.kb.sparql_text import bind_values
from mtgkb.kb.vocab import PREFIXES

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
    parsed = urllib.parse.urlsplit(url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise MtgkbError(
            f"'{shown(url)}' is not an http(s) URL", "e.g. --endpoint http://localhost:7878/query"
        )


def send(request: urllib.request.Request, url: str, timeout: float | None) -> tuple[str, bytes]:
    """(content type, body) of the answer; an error status or no answer is an MtgkbError. A user and
    password in the URL (``http://user:secret@host/…``) answer the server's Basic or Digest challenge."""
    opener = _opener(request)
    shown = _without_credentials(url)
    try:
        with opener.open(request, timeout=timeout or None) as response:
            return response.headers.get("Content-Type", ""), response.read()
    except urllib.error.HTTPError as error:
        detail = error.read(2000).decode("utf-8", "replace").strip()
        text = " ".join(detail.split())[:300]
        raise MtgkbError(
            f"{shown} answered {error.code} {error.reason}" + (f": {text}" if text else ""),
            "check the query, and that the URL is the endpoint's",
        ) from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise MtgkbError(
            f"cannot reach {shown}: {reason}", "check the URL and that the server runs"
        ) from None


def _opener(request: urllib.request.Request) -> urllib.request.OpenerDirector:
    parsed = urllib.parse.urlsplit(request.full_url)
    if parsed.username is None:
        return urllib.request.build_opener()
    user = urllib.parse.unquote(parsed.username)
    password = urllib.parse.unquote(parsed.password or "")
    request.full_url = _without_credentials(request.full_url)
    passwords = urllib.request.HTTPPasswordMgrWithDefaultRealm()
    passwords.add_password(None, request.full_url, user, password)
    return urllib.request.build_opener(
        urllib.request.HTTPBasicAuthHandler(passwords), urllib.request.HTTPDigestAuthHandler(passwords)
    )


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
    if "boolean" in document:
        value = bool(document["boolean"])
        return SparqlResult("ask", fmt, boolean=value, count=1, serialized=text if fmt == "json" else None)
    variables = list(document.get("head", {}).get("vars", []))
    if fmt == "json":
        return SparqlResult("select", fmt, variables, serialized=text)
    bindings = document.get("results", {}).get("bindings", [])
    rows = [[_compact(binding.get(name)) for name in variables] for binding in bindings]
    return SparqlResult("select", fmt, variables, rows, count=len(rows))


def _compact(term: dict[str, Any] | None) -> str | None:
    """A results-JSON term as the local table shows it (mtgkb.kb.sparql.compact_term)."""
    if term is None:
        return None
    if term.get("type") == "uri":
        return compact_iri(term["value"])
    if term.get("type") == "bnode":
        return f"_:{term['value']}"
    return str(term.get("value"))

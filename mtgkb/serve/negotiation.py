"""Content negotiation for the SPARQL endpoint: which format an ``Accept`` header asks for.

SELECT and ASK answer in the SPARQL 1.1 results formats (JSON, XML, CSV, TSV); CONSTRUCT, DESCRIBE
and the service description in an RDF syntax (Turtle, N-Triples, JSON-LD, RDF/XML). The first format
of each list is the default (no ``Accept``, or ``*/*``). A format is also reached by the looser names
clients send (``application/json``, ``text/xml``, ``text/plain``).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ResultFormat:
    key: str  # our short name, as in ``mtgkb sparql --format``
    media_type: str  # what the answer's Content-Type says
    accepted: tuple[str, ...]  # every media type that asks for it, the canonical one first


SOLUTION_FORMATS = (
    ResultFormat(
        "json", "application/sparql-results+json", ("application/sparql-results+json", "application/json")
    ),
    ResultFormat(
        "xml",
        "application/sparql-results+xml",
        ("application/sparql-results+xml", "application/xml", "text/xml"),
    ),
    ResultFormat("csv", "text/csv", ("text/csv",)),
    ResultFormat("tsv", "text/tab-separated-values", ("text/tab-separated-values",)),
)
GRAPH_FORMATS = (
    ResultFormat("ttl", "text/turtle", ("text/turtle", "application/turtle", "application/x-turtle")),
    ResultFormat("nt", "application/n-triples", ("application/n-triples", "text/plain")),
    ResultFormat("jsonld", "application/ld+json", ("application/ld+json", "application/json")),
    ResultFormat("rdfxml", "application/rdf+xml", ("application/rdf+xml",)),
)
FORMS = {"solutions": SOLUTION_FORMATS, "graph": GRAPH_FORMATS}


def parse_accept(header: str | None) -> list[tuple[str, float]]:
    """``Accept`` as (media range, q) pairs; no header is ``*/*``. Malformed q values count as 1,
    parameters other than q are ignored."""
    if header is None or not header.strip():
        return [("*/*", 1.0)]
    ranges = []
    for part in header.split(","):
        pieces = [piece.strip() for piece in part.split(";")]
        media = pieces[0].lower()
        if not media:
            continue
        if "/" not in media:
            media = "*/*" if media == "*" else media
        quality = 1.0
        for parameter in pieces[1:]:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = min(max(float(value), 0.0), 1.0)
                except ValueError:
                    quality = 1.0
        ranges.append((media, quality))
    return ranges


def _quality(media_type: str, ranges: list[tuple[str, float]]) -> float:
    """The q the most specific matching range gives ``media_type`` (0 when none matches)."""
    kind = media_type.split("/")[0]
    best: tuple[int, float] | None = None
    for media, quality in ranges:
        if media == media_type:
            specificity = 2
        elif media == f"{kind}/*":
            specificity = 1
        elif media == "*/*":
            specificity = 0
        else:
            continue
        if best is None or specificity > best[0] or (specificity == best[0] and quality > best[1]):
            best = (specificity, quality)
    return best[1] if best else 0.0


def choose(accept: str | None, form: str) -> ResultFormat | None:
    """The format of ``FORMS[form]`` that ``accept`` prefers; None when it accepts none of them."""
    ranges = parse_accept(accept)
    named = {media for media, quality in ranges if quality > 0}
    best: ResultFormat | None = None
    best_score: tuple[float, int, int] | None = None
    for order, candidate in enumerate(FORMS[form]):
        quality = max(_quality(media, ranges) for media in candidate.accepted)
        if quality <= 0:
            continue
        # At equal q, a format the client names beats one that only a wildcard reaches; then ours first.
        score = (quality, 1 if named & set(candidate.accepted) else 0, -order)
        if best_score is None or score > best_score:
            best, best_score = candidate, score
    return best


def acceptable_for_any(accept: str | None) -> bool:
    """Whether ``accept`` allows some format of some query form (else 406 before running anything)."""
    return any(choose(accept, form) is not None for form in FORMS)


def media_types(form: str) -> str:
    """The canonical media types of ``form``, for messages."""
    return ", ".join(candidate.media_type for candidate in FORMS[form])

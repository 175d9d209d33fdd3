"""Searching the full-text index (see :mod:`mtgkb.lookups.search_index`).

Every word must occur; a bare word also matches words it begins ("attacker" finds "attackers", "702.49"
finds 702.49a), unless it has only one or two letters; a "quoted phrase" matches those words in that
order, exactly. Case and accents are ignored. What the user typed is never read as FTS5 syntax: each
word or phrase goes into the query as a quoted string.
"""

from __future__ import annotations

import re
import sqlite3

from mtgkb.core.errors import MtgkbError
from mtgkb.lookups.search_index import COLUMNS, FIELDS, KIND_NUMBERS, SPAN, WEIGHTS
from mtgkb.lookups.search_results import KINDS, SearchGroup, SearchHit, SearchResult

_TERM = re.compile(r'"([^"]*)"?|([^\s"]+)')
_TOKEN = re.compile(r"[^\W_]+")  # what the unicode61 tokenizer keeps: runs of letters and digits
_START, _END = "\x02", "\x03"
_SNIPPET_TOKENS = 32
_SHORTEST_PREFIX = 3

# A rowid range picks one kind (see SPAN); the index answers both queries without reading stored text.
_OF_KIND = "search MATCH :query AND rowid BETWEEN :low AND :high"
_COUNT = f"SELECT count(*) FROM search WHERE {_OF_KIND}"
_RANKED = (
    f"SELECT rowid FROM search WHERE {_OF_KIND} "
    f"ORDER BY bm25(search, {', '.join(map(str, WEIGHTS))}), rowid LIMIT :limit"
)

_SNIPPETS = ", ".join(
    f"snippet(search, {column}, '{_START}', '{_END}', '…', {_SNIPPET_TOKENS})"
    for column in range(len(COLUMNS))
)
#: Column numbers in the order a tie between fields is settled.
_SHOWN_FIRST = [COLUMNS.index(name) for name in ("body", "summary", "heading", "name", "date")]
_IN_LABEL = {COLUMNS.index("name"), COLUMNS.index("date")}
_HIT = f"SELECT iri, label, date, {_SNIPPETS} FROM search WHERE search MATCH :query AND rowid = :id"


def match_expression(text: str) -> str:
    """``text`` as an FTS5 query: each word a quoted prefix, each "quoted phrase" a quoted phrase.
    Pieces without a letter or digit are dropped: the tokenizer would make nothing of them."""
    text = text.replace("\x00", " ")  # FTS5's query parser stops at a NUL and reports a broken string
    terms = []
    for match in _TERM.finditer(text):
        phrase, word = match.groups()
        piece = phrase if word is None else word
        tokens = _TOKEN.findall(piece)
        if not tokens:
            continue
        quoted = '"' + piece.replace('"', '""') + '"'
        # A lone word of one or two letters is taken as it is: as a prefix ("a*") it would match most of
        # the index, slowly. After another token the phrase narrows it: "702.49" finds 702.49a.
        prefix = word is not None and (len(tokens) > 1 or len(tokens[0]) >= _SHORTEST_PREFIX)
        terms.append(quoted + "*" if prefix else quoted)
    if not terms:
        raise MtgkbError(
            "nothing to search for", 'give one or more words, e.g. mtgkb search "unblocked attacker"'
        )
    return " ".join(terms)


def search_in_index(db: sqlite3.Connection, text: str, words: list[str], limit: int) -> SearchResult:
    """At most ``limit`` hits of each kind, best first (bm25, a name or title counting most)."""
    query = match_expression(text)
    groups = []
    for kind in KINDS:
        low = KIND_NUMBERS[kind] * SPAN
        bounds = {"query": query, "low": low, "high": low + SPAN - 1}
        total = db.execute(_COUNT, bounds).fetchone()[0]
        hits = []
        if total:
            for (row_id,) in db.execute(_RANKED, {**bounds, "limit": limit}).fetchall():
                hits.append(_hit(kind, db.execute(_HIT, {"query": query, "id": row_id}).fetchone()))
        groups.append(SearchGroup(kind, total, hits))
    return SearchResult(text, words, limit, groups)


def _hit(kind: str, row: tuple[str, ...]) -> SearchHit:
    iri, label, date, *snippets = row
    # The field shown is the one where most of the query matched, running text first on a tie. The
    # label already holds the name and date, so they are shown only when there is nothing else: a card
    # found by its name shows the start of its oracle text.
    candidates = [
        (column not in _IN_LABEL, snippet.count(_START), -_SHOWN_FIRST.index(column), column, snippet)
        for column, snippet in enumerate(snippets)
        if FIELDS[kind][column] and snippet
    ]
    *_, column, best = max(candidates, default=(False, 0, 0, 0, label))
    flat = " ".join(best.replace(_START, "").replace(_END, "").split())
    return SearchHit(kind, iri, label, FIELDS[kind][column] or "name", flat, date or None)

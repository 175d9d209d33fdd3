"""Free-text search over cards (name, type line, oracle text), rules (number, title, summary, official
text) and rulings (official text, summary, card, date). Every word must occur, in any case.

Searches go to a full-text index (SQLite FTS5, :mod:`mtgkb.lookups.search_index`) built beside the
store on first use. Where this Python's SQLite lacks FTS5, or the index cannot be written, the store is
scanned instead, as below: one SPARQL query (``queries/internal/search-scan.rq``) whose subquery scans
the text fields with ``CONTAINS(LCASE(...))`` for the longest word (about half a second over 30,000
cards, 67,000 rulings and a CR edition for a rare word, far longer for a common one), then the fields
of the items found are read and the other words checked here. The scan matches words as substrings
and reads quotes as punctuation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mtgkb.core.errors import MtgkbError
from mtgkb.core.progress import Progress
from mtgkb.core.rule_numbers import rule_sort_key
from mtgkb.kb.query_files import library_query
from mtgkb.kb.sparql_text import PlainText
from mtgkb.kb.vocab import V
from mtgkb.lookups.common import Node, read_graph
from mtgkb.lookups.search_results import KINDS, SearchGroup, SearchHit, SearchResult

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

_EDGE_PUNCTUATION = ".,;:!?\"'()[]"


def search_words(text: str) -> list[str]:
    """Lower-case words without surrounding punctuation, each once, in the order typed."""
    words = []
    for raw in text.split():
        word = raw.strip(_EDGE_PUNCTUATION).lower()
        if word and word not in words:
            words.append(word)
    return words


def search(kb: KnowledgeBase, text: str, limit: int = 10, progress: Progress | None = None) -> SearchResult:
    """Cards, rules and rulings holding every word of ``text``; at most ``limit`` of each kind.

    A bare word also matches longer words it begins; a "quoted phrase" matches its words in order.
    """
    words = search_words(text)
    if not words:
        raise MtgkbError(
            "nothing to search for", 'give one or more words, e.g. mtgkb search "unblocked attacker"'
        )
    if limit < 1:
        raise MtgkbError(f"--limit must be at least 1, not {limit}")
    indexed = _search_with_index(kb, text, words, limit, progress)
    return indexed if indexed is not None else search_store(kb, text, words, limit)


def _search_with_index(
    kb: KnowledgeBase, text: str, words: list[str], limit: int, progress: Progress | None
) -> SearchResult | None:
    """The result from the full-text index, or None when there can be no index here."""
    try:
        # sqlite3 is imported here only: a Python built without it still searches, and other
        # commands do not pay for the import.
        import sqlite3

        from mtgkb.lookups import search_index
        from mtgkb.lookups.search_fts import search_in_index
    except ImportError:
        return None
    if not search_index.fts5_available():
        return None
    try:
        db = search_index.open_index(kb, progress)
    except (OSError, sqlite3.Error) as error:
        if progress:
            progress(f"cannot build the search index in {kb.path} ({error}); scanning the store instead")
        return None
    try:
        return search_in_index(db, text, words, limit)
    finally:
        db.close()


def search_store(kb: KnowledgeBase, text: str, words: list[str], limit: int) -> SearchResult:
    """The search without an index: a scan of the store's text for every word, as substrings."""
    graph = read_graph(kb.select(library_query("search-scan"), word=PlainText(max(words, key=len))))
    hits: dict[str, list[tuple[tuple[Any, ...], SearchHit]]] = {kind: [] for kind in KINDS}
    for node in graph.nodes.values():
        found = _hit(node, graph.labels, words)
        if found:
            hits[found[1].kind].append(found)
    groups = []
    for kind in KINDS:
        ranked = [hit for _, hit in sorted(hits[kind], key=lambda pair: pair[0])]
        if kind == "ruling":
            ranked.sort(key=lambda hit: hit.date or "", reverse=True)
        groups.append(SearchGroup(kind, len(ranked), ranked[:limit]))
    return SearchResult(text, words, limit, groups)


def _hit(node: Node, labels: dict[str, str], words: list[str]) -> tuple[tuple[Any, ...], SearchHit] | None:
    classes = node.classes
    date = None
    if V.Card in classes:
        kind, label = "card", node.first(V.name) or node.iri
        fields = _fields(node, (("oracle text", V.oracleText), ("name", V.name)))
    elif node.first(V.ruleNumber):
        kind = "rule"
        label = " ".join(part for part in (node.first(V.ruleNumber), node.first(V.title)) if part)
        fields = _fields(
            node, (("text", V.text), ("summary", V.summary), ("title", V.title), ("number", V.ruleNumber))
        )
    elif V.Ruling in classes:
        kind, date = "ruling", node.first(V.rulingDate)
        about = ", ".join(labels.get(card, card) for card in node.all(V.aboutCard))
        label = ", ".join(part for part in (about, date) if part) or node.iri
        fields = _fields(node, (("text", V.text), ("summary", V.summary)))
    else:
        return None  # a mechanic, face or concept: not searched
    haystack = " ".join(value for _, value in fields).lower()
    if not all(word in haystack for word in words):
        return None
    field, value = max(fields, key=lambda pair: sum(w in pair[1].lower() for w in words), default=("", ""))
    rank: tuple[Any, ...] = (not all(word in label.lower() for word in words), _order(kind, node, label))
    return rank, SearchHit(kind, node.iri, label, field, snippet(value, words), date)


def _fields(node: Node, wanted: tuple[tuple[str, str], ...]) -> list[tuple[str, str]]:
    return [(name, value) for name, predicate in wanted for value in node.all(predicate) if value]


def _order(kind: str, node: Node, label: str) -> Any:
    if kind == "rule":
        return rule_sort_key(node.first(V.ruleNumber))
    return label.lower()


def snippet(text: str, words: list[str], before: int = 50, after: int = 110) -> str:
    """The part of ``text`` around the first of ``words`` it holds, on one line, with "…" where cut."""
    flat = " ".join(text.split())
    lowered = flat.lower()
    found = [at for w in words if (at := lowered.find(w)) >= 0]
    at = min(found) if found else 0
    start = max(0, at - before)
    end = min(len(flat), at + after)
    if start > 0:
        space = flat.find(" ", start, at)
        start = space + 1 if space >= 0 else start
    if end < len(flat):
        space = flat.rfind(" ", at, end)
        end = space if space > at else end
    return ("…" if start > 0 else "") + flat[start:end] + ("…" if end < len(flat) else "")

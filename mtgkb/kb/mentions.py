"""Link every ruling to the mechanics, steps, zones and rules concepts it speaks of.

Derived while the store is built or updated, from what the graph itself says: each such node's names (its
``rdfs:label`` and ``mtgkb:keyword``: "Ninjutsu", "command zone", "declare blockers step", "commander
tax") are looked for in every imported ruling's official text, as whole words, with the
usual English endings on the last word ("copies", "partnered"). A match adds ``?ruling
mtgkb:mentions ?node`` to the ``graph/derived/mentions`` graph (and to the default graph), so a new
mechanic or concept written in data/ finds its rulings with no code.

When the store is updated, only the rulings whose sources changed are read again, unless the names
themselves changed (a label edited in data/): then every ruling is.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from mtgkb.core.progress import Progress
from mtgkb.kb.iris import mint, namespace
from mtgkb.kb.vocab import PREFIXES, V

MENTIONS_GRAPH = mint("graph", "derived", "mentions")

# The kinds of node a ruling may speak of are those queries/internal/named-terms.rq reads. Labels
# written as templates ("Partner with [name]") or with a gloss ("… (family)") are not words
# a ruling uses.
_NOT_A_TERM = re.compile(r"[\[\]()]")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})


_WORD = re.compile(r"[a-z0-9']+(?:-[a-z0-9']+)*")


def _forms(word: str) -> set[str]:
    """``word`` with the common English endings: copy/copies/copied/copying, exile/exiled/exiling,
    partner/partners/partnered."""
    if len(word) < 3 or not word.isalpha():
        return {word}
    if word.endswith("y") and word[-2] not in "aeiou":
        return {word, word[:-1] + "ies", word[:-1] + "ied", word + "ing"}
    if word.endswith("e"):
        return {word, word + "s", word + "d", word[:-1] + "ing"}
    return {word, word + "s", word + "es", word + "ed", word + "ing"}


def words(text: str) -> list[str]:
    if "\u2019" in text or "\u2018" in text:  # rarer than not: translate() on every text costs more
        text = text.translate(_APOSTROPHES)
    return _WORD.findall(text.lower())


def terms(store: Any) -> dict[str, set[str]]:
    """Each lower-case name -> the nodes carrying it."""
    from mtgkb.kb.query_files import library_query

    found: dict[str, set[str]] = {}
    for row in store.query(library_query("named-terms"), prefixes=PREFIXES):
        raw = row["term"].value
        term = " ".join(words(raw))
        if term and not _NOT_A_TERM.search(raw):
            found.setdefault(term, set()).add(row["node"].value)
    return found


def mentions(texts: dict[str, list[str]], named: dict[str, set[str]]) -> dict[str, set[str]]:
    """ruling IRI -> the nodes its texts name (``texts``: ruling IRI -> its texts). Texts are read as
    words, and each word that starts a name is checked against that name's forms: one regex with
    every name as an alternative took seconds over the full pool's rulings."""
    forms: dict[tuple[str, ...], set[str]] = {}
    for term, nodes in named.items():
        *head, last = words(term) or [""]
        for form in _forms(last):
            forms.setdefault((*head, form), set()).update(nodes)
    starts = {form[0] for form in forms}
    longest = max((len(form) for form in forms), default=0)
    found: dict[str, set[str]] = {}
    for ruling, pieces in texts.items():
        for text in pieces:
            tokens = words(text)
            at = 0
            while at < len(tokens):
                step = 1
                if tokens[at] in starts:
                    # The longest name wins: "commander ninjutsu" is not also a mention of "ninjutsu"
                    # (commander ninjutsu is a variant of ninjutsu, so lookups find it there anyway).
                    for size in range(min(longest, len(tokens) - at), 0, -1):
                        nodes = forms.get(tuple(tokens[at : at + size]))
                        if nodes:
                            found.setdefault(ruling, set()).update(nodes)
                            step = size
                            break
                at += step
    return found


def terms_digest(named: dict[str, set[str]]) -> str:
    """A digest of the names and the nodes carrying them: when it is unchanged, a ruling whose text
    is unchanged mentions what it mentioned."""
    digest = hashlib.sha256()
    for term in sorted(named):
        digest.update(f"{term}\t{' '.join(sorted(named[term]))}\n".encode())
    return digest.hexdigest()[:32]


def _ruling_texts(store: Any, rulings: Iterable[str] | None) -> dict[str, list[str]]:
    """Official text of the rulings ``rulings`` (of every imported ruling when None)."""
    import pyoxigraph as ox

    # The official wording only: our summaries come with the links we chose by hand. Reading the
    # mtgkb:text triples directly is several times faster than a query joining them to the type.
    prefix = namespace("ruling")
    texts: dict[str, list[str]] = {}
    text = ox.NamedNode(V.text)
    if rulings is None:
        for quad in store.quads_for_pattern(None, text, None, ox.DefaultGraph()):
            subject = quad.subject.value
            if subject.startswith(prefix):
                texts.setdefault(subject, []).append(quad.object.value)
        return texts
    for ruling in rulings:
        if ruling.startswith(prefix):
            for quad in store.quads_for_pattern(ox.NamedNode(ruling), text, None, ox.DefaultGraph()):
                texts.setdefault(ruling, []).append(quad.object.value)
    return texts


def derive_mentions(store: Any, progress: Progress | None = None) -> str:
    """Add the derived ``mtgkb:mentions`` links to a store that has none; returns the digest of the
    names they were found with (see :func:`update_mentions`)."""
    import pyoxigraph as ox

    named = terms(store)
    texts = _ruling_texts(store, None)
    if progress and texts:
        progress(f"linking {len(texts):,} rulings to mechanics, steps, zones and concepts")
    links = mentions(texts, named)
    # Written as N-Quads and bulk-loaded: a transactional insert of the same quads took several times
    # as long at full card-pool scale.
    predicate = f"<{V.mentions}>"
    lines = []
    for ruling, nodes in links.items():
        for node in sorted(nodes):
            triple = f"<{ruling}> {predicate} <{node}>"
            lines.append(f"{triple} <{MENTIONS_GRAPH}> .\n{triple} .\n")
    if lines:
        data = "".join(lines).encode("utf-8")
        store.bulk_load(input=io.BytesIO(data), format=ox.RdfFormat.N_QUADS, lenient=True)
    return terms_digest(named)


@dataclass
class MentionsUpdate:
    terms: str  # the digest of the names, for the next update
    subjects: set[str]  # the rulings whose links changed


def update_mentions(
    store: Any, changed: set[str], previous_terms: str | None, progress: Progress | None = None
) -> MentionsUpdate:
    """Bring the mentions up to date after the facts of the subjects ``changed`` changed: only their
    rulings are read again, unless the names differ from those of ``previous_terms``."""
    import pyoxigraph as ox

    from mtgkb.kb.graph_union import apply_difference

    named = terms(store)
    digest = terms_digest(named)
    everything = digest != previous_terms
    texts = _ruling_texts(store, None if everything else changed)
    if progress and everything and texts:
        progress(f"linking {len(texts):,} rulings to mechanics, steps, zones and concepts")
    links = mentions(texts, named)
    predicate = ox.NamedNode(V.mentions)
    graph = ox.NamedNode(MENTIONS_GRAPH)
    wanted = {
        ox.Triple(ox.NamedNode(ruling), predicate, ox.NamedNode(node))
        for ruling, nodes in links.items()
        for node in nodes
    }
    if everything:
        present = {quad.triple for quad in store.quads_for_pattern(None, predicate, None, graph)}
    else:
        present = {
            quad.triple
            for ruling in changed
            if ruling.startswith(namespace("ruling"))
            for quad in store.quads_for_pattern(ox.NamedNode(ruling), predicate, None, graph)
        }
    removed, added = present - wanted, wanted - present
    apply_difference(store, MENTIONS_GRAPH, removed, added)
    return MentionsUpdate(digest, {triple.subject.value for triple in removed | added})

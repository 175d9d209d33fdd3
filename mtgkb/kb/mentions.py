"""Link every ruling to the mechanics, steps, zones and rules concepts it speaks of.

Derived while the store is built or updated, from what the graph itself says: each such node's names (its
``rdfs:label`` and ``mtgkb:keyword``: "Ninjutsu", "command zone", "declare blockers step", "commander
tax") are looked for in every imported ruling's official text, as whole words, with the
usual English endings on the last word ("copies", "partnered"). A match adds ``?ruling
mtgkb:mentions ?node`` to the ``graph/derived/mentions`` graph (and to the default graph), so a new
mechanic or concept written in data/ finds its rulings with no code.

A word is not a mechanic because it shares the keyword's stem: a mechanic is linked when the ruling
is about it, that is when the ruling's card has the mechanic or the text uses the keyword as a
keyword (see :func:`mentions`); a card's name is the card's ("Whispergear Sneak" is no sneak ruling),
and a joke card's rulings are about no mechanic of the real game.

When the store is updated, only the rulings whose sources changed are read again, unless the names
themselves changed (a label edited in data/): then every ruling is.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from mtgkb.core.progress import Progress
from mtgkb.kb.iris import mint, namespace
from mtgkb.kb.store import predicate_values
from mtgkb.kb.vocab import PREFIXES, V

MENTIONS_GRAPH = mint("graph", "derived", "mentions")

# The kinds of node a ruling may speak of are those queries/internal/named-terms.rq reads. Labels
# written as templates ("Partner with [name]") or with a gloss ("… (family)") are not words
# a ruling uses.
_NOT_A_TERM = re.compile(r"[\[\]()]")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'"})


_WORD = re.compile(r"[a-z0-9']+(?:-[a-z0-9']+)*")
_WORD_ANY_CASE = re.compile(_WORD.pattern, re.IGNORECASE)


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


def _normalised(text: str) -> str:
    if "\u2019" in text or "\u2018" in text:  # rarer than not: translate() on every text costs more
        text = text.translate(_APOSTROPHES)
    return text.lower()


def words(text: str) -> list[str]:
    return _WORD.findall(_normalised(text))


#: A keyword written as a verb with its object ("attempt to sneak it onto the battlefield", "can't
#: partner with any creature") is not the keyword ability, which is a noun ("has sneak", "the ninjutsu
#: ability", "a spell with flash that…"): the words before such a verb, and the words after it.
_VERB_BEFORE = """to can can't cannot could couldn't may might must will won't would wouldn't should
don't doesn't didn't you they we i he she"""
_VERB_AFTER = """it them him her me you us a an the this that these those any each another its their your in
into onto out past up away through"""
_BEFORE_A_VERB, _AFTER_A_VERB = frozenset(_VERB_BEFORE.split()), frozenset(_VERB_AFTER.split())


@dataclass
class Terms:
    """What rulings are read for: each lower-case name and the nodes carrying it; which of those
    nodes are mechanics (linked only when the ruling is about the mechanic, see :func:`mentions`);
    and the card names holding one of the names ("Whispergear Sneak", "Flash Foliage"), which name
    the card, not the mechanic or zone."""

    named: dict[str, set[str]]
    mechanics: set[str] = field(default_factory=set)
    card_names: set[str] = field(default_factory=set)

    def digest(self) -> str:
        """When it is unchanged, a ruling whose text and card are unchanged mentions what it did."""
        digest = hashlib.sha256()
        for term in sorted(self.named):
            digest.update(f"{term}\t{' '.join(sorted(self.named[term]))}\n".encode())
        digest.update(f"mechanics\t{' '.join(sorted(self.mechanics))}\n".encode())
        digest.update("\n".join(sorted(self.card_names)).encode())
        return digest.hexdigest()[:32]


@dataclass
class RulingCards:
    """What the rulings' cards say about them: the mechanics each ruling's card has (with those they
    are variants of), and the rulings on joke cards."""

    mechanics: dict[str, set[str]] = field(default_factory=dict)
    jokes: set[str] = field(default_factory=set)


def terms(store: Any) -> Terms:
    """The names rulings are read for, from the graph (queries/internal/named-terms.rq)."""
    from mtgkb.kb.query_files import library_query

    found: dict[str, set[str]] = {}
    mechanics: set[str] = set()
    for row in store.query(library_query("named-terms"), prefixes=PREFIXES):
        raw = row["term"].value
        term = " ".join(words(raw))
        if term and not _NOT_A_TERM.search(raw):
            found.setdefault(term, set()).add(row["node"].value)
            if row["class"].value == V.Mechanic:
                mechanics.add(row["node"].value)
    forms = _term_forms(found)
    card_names: set[str] = set()
    if forms:
        # The store picks the few names holding a word of a name (a regular expression over every
        # card name), then each is checked here. The pattern is written into the query as a constant:
        # bound as a variable, the store compiled it again for every name (minutes instead of 0.2 s).
        first_words = sorted({form[0] for form in forms})
        pattern = "(^|[^a-z0-9'])(" + "|".join(re.escape(word) for word in first_words) + ")($|[^a-z0-9'])"
        query = library_query("card-names-with-words").replace("?pattern", _sparql_string(pattern))
        longest = max(len(form) for form in forms)
        for row in store.query(query, prefixes=PREFIXES):
            name = row["name"].value
            tokens = words(name)
            if len(tokens) > 1 and any(
                tuple(tokens[at : at + size]) in forms
                for at in range(len(tokens))
                for size in range(1, min(longest, len(tokens) - at, len(tokens) - 1) + 1)
            ):
                card_names.add(name)
    return Terms(found, mechanics, card_names)


def _sparql_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _term_forms(named: dict[str, set[str]]) -> dict[tuple[str, ...], dict[str, bool]]:
    """Each word sequence a name may take -> the nodes it names, each with whether the sequence is
    the name as written (not an inflected form)."""
    forms: dict[tuple[str, ...], dict[str, bool]] = {}
    for term, nodes in named.items():
        *head, last = words(term) or [""]
        for form in _forms(last):
            entry = forms.setdefault((*head, form), {})
            for node in nodes:
                entry[node] = entry.get(node, False) or form == last
    return forms


def mentions(
    texts: dict[str, list[str]],
    named: dict[str, set[str]] | Terms,
    cards: RulingCards | None = None,
) -> dict[str, set[str]]:
    """ruling IRI -> the nodes its texts name (``texts``: ruling IRI -> its texts). Texts are read as
    words, and each word that starts a name is checked against that name's forms: one regex with
    every name as an alternative took seconds over the full pool's rulings.

    A mechanic is linked only when the ruling is about it: its card has the mechanic (then any form
    counts: "sneaking it in"), or the text uses the keyword as a keyword, as written and as a noun
    ("a spell with split second", not "sneak it onto the battlefield" or "Sneaking Guide"). A ruling
    on a joke card is linked to no mechanic. A card name holding a name ("Whispergear Sneak") is the
    card's, when it is written with the card's capitals."""
    vocabulary = named if isinstance(named, Terms) else Terms(named)
    cards = cards or RulingCards()
    forms: dict[tuple[str, ...], dict[str, bool] | None] = dict(_term_forms(vocabulary.named))
    capitals: dict[tuple[str, ...], list[bool]] = {}
    for name in vocabulary.card_names:
        form = tuple(words(name))
        if form not in forms:
            forms[form] = None  # the card's name: no node, and no shorter name inside it
            capitals[form] = [word[:1].isupper() for word in _WORD_ANY_CASE.findall(name)]
    # The lengths of the names starting with each word, longest first: card names make some long.
    sizes: dict[str, list[int]] = {}
    for form in forms:
        sizes.setdefault(form[0], []).append(len(form))
    for lengths in sizes.values():
        lengths.sort(reverse=True)
    mechanics = vocabulary.mechanics

    def scan(text: str, owned: frozenset[str], joke: bool) -> set[str]:
        kept_here: set[str] = set()
        tokens = words(text)
        spans: list[re.Match[str]] | None = None  # the tokens in place, read when needed
        at = 0
        while at < len(tokens):
            step = 1
            lengths = sizes.get(tokens[at])
            if lengths:
                # The longest name wins: "commander ninjutsu" is not also a mention of "ninjutsu"
                # (commander ninjutsu is a variant of ninjutsu, so lookups find it there anyway).
                for size in lengths:
                    form = tuple(tokens[at : at + size])
                    if form not in forms:
                        continue
                    nodes = forms[form]
                    if spans is None and (nodes is None or not mechanics.isdisjoint(nodes)):
                        spans = list(_WORD_ANY_CASE.finditer(_apostrophes(text)))
                        if len(spans) != len(tokens):  # a letter whose lower case is two
                            spans = []
                    if nodes is None:
                        if not _written_as_name(spans, at, capitals[form]):
                            continue
                    else:
                        kept = {
                            node
                            for node, as_written in nodes.items()
                            if node not in mechanics
                            or (
                                not joke and (node in owned or (as_written and _a_noun(spans, at, at + size)))
                            )
                        }
                        if not kept:
                            continue
                        kept_here |= kept
                    step = size
                    break
            at += step
        return kept_here

    # Most rulings are printed on several cards with the same mechanics (every suspend card has the
    # suspend rulings): each text is read once per such set, which halves the work on the full pool.
    read: dict[tuple[str, frozenset[str], bool], set[str]] = {}
    found: dict[str, set[str]] = {}
    for ruling, pieces in texts.items():
        owned = frozenset(cards.mechanics.get(ruling, ()))
        joke = ruling in cards.jokes
        for text in pieces:
            key = (text, owned, joke)
            nodes = read.get(key)
            if nodes is None:
                nodes = read[key] = scan(text, owned, joke)
            if nodes:
                found.setdefault(ruling, set()).update(nodes)
    return found


def _apostrophes(text: str) -> str:
    return text.translate(_APOSTROPHES) if "\u2019" in text or "\u2018" in text else text


def _written_as_name(spans: list[re.Match[str]] | None, at: int, capitals: list[bool]) -> bool:
    if spans is None or len(spans) <= at + len(capitals) - 1:
        return True
    return all(spans[at + index].group()[:1].isupper() or not upper for index, upper in enumerate(capitals))


def _a_noun(spans: list[re.Match[str]] | None, first: int, after: int) -> bool:
    """Whether the keyword in tokens ``first`` to ``after`` (excluded) is not a verb with its object:
    in the same clause, a word that comes before a verb precedes it and an object follows it."""
    if not spans or after >= len(spans) or first == 0:
        return True

    def joined(left: int, right: int) -> bool:  # only spaces between the two tokens
        return spans[left].string[spans[left].end() : spans[right].start()].isspace()

    before, following = spans[first - 1].group().lower(), spans[after].group().lower()
    return not (
        before in _BEFORE_A_VERB
        and following in _AFTER_A_VERB
        and joined(first - 1, first)
        and joined(after - 1, after)
    )


def terms_digest(named: dict[str, set[str]] | Terms) -> str:
    """A digest of the names and the nodes carrying them (see :meth:`Terms.digest`)."""
    return (named if isinstance(named, Terms) else Terms(named)).digest()


def ruling_cards(store: Any, rulings: Iterable[str] | None) -> RulingCards:
    """The mechanics the cards of ``rulings`` (every ruling when None) have, and which are jokes.
    Read from the few cards with abilities or marked as jokes to their rulings: a scan of every
    ruling's card took seconds over the full pool."""
    import pyoxigraph as ox

    default = ox.DefaultGraph()

    def objects(predicate: str) -> dict[str, list[str]]:
        found: dict[str, list[str]] = {}
        for subject, value in predicate_values(store, predicate):
            found.setdefault(subject, []).append(value)
        return found

    abilities, granted, variant_of = objects(V.hasAbility), objects(V.grants), objects(V.variantOf)
    instantiates, changes = objects(V.instantiates), objects(V.changesMechanic)
    jokes = {card for card, values in objects(V.isFunny).items() if "true" in values}
    about = ox.NamedNode(V.aboutCard)
    wanted = None if rulings is None else set(rulings)
    found = RulingCards()
    for card in abilities.keys() | jokes:
        mechanics: set[str] = set()
        for ability in abilities.get(card, ()):
            for node in (ability, *granted.get(ability, ())):
                mechanics.update(instantiates.get(node, ()))
                mechanics.update(changes.get(node, ()))
        pending = list(mechanics)
        while pending:  # a card with commander ninjutsu has ninjutsu's rulings too
            for general in variant_of.get(pending.pop(), ()):
                if general not in mechanics:
                    mechanics.add(general)
                    pending.append(general)
        if not mechanics and card not in jokes:
            continue
        for quad in store.quads_for_pattern(None, about, ox.NamedNode(card), default):
            ruling = quad.subject.value
            if wanted is not None and ruling not in wanted:
                continue
            if mechanics:
                found.mechanics.setdefault(ruling, set()).update(mechanics)
            if card in jokes:
                found.jokes.add(ruling)
    return found


def _ruling_texts(store: Any, rulings: Iterable[str] | None) -> dict[str, list[str]]:
    """Official text of the rulings ``rulings`` (of every imported ruling when None)."""
    import pyoxigraph as ox

    # The official wording only: our summaries come with the links we chose by hand. Reading the
    # mtgkb:text triples directly is several times faster than a query joining them to the type.
    prefix = namespace("ruling")
    texts: dict[str, list[str]] = {}
    text = ox.NamedNode(V.text)
    if rulings is None:
        for subject, value in predicate_values(store, V.text):
            if subject.startswith(prefix):
                texts.setdefault(subject, []).append(value)
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
    links = mentions(texts, named, ruling_cards(store, None))
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
    return named.digest()


@dataclass
class MentionsUpdate:
    terms: str  # the digest of the names, for the next update
    subjects: set[str]  # the rulings whose links changed


def update_mentions(
    store: Any, changed: set[str], previous_terms: str | None, progress: Progress | None = None
) -> MentionsUpdate:
    """Bring the mentions up to date after the facts of the subjects ``changed`` changed: only their
    rulings, and the rulings on their cards (a card that gained a mechanic), are read again, unless
    the names differ from those of ``previous_terms``."""
    import pyoxigraph as ox

    from mtgkb.kb.graph_union import apply_difference

    named = terms(store)
    digest = named.digest()
    everything = digest != previous_terms
    rulings: set[str] | None = None
    if not everything:
        about, card_prefix = ox.NamedNode(V.aboutCard), namespace("card")
        rulings = {subject for subject in changed if subject.startswith(namespace("ruling"))}
        rulings.update(
            quad.subject.value
            for card in changed
            if card.startswith(card_prefix)
            for quad in store.quads_for_pattern(None, about, ox.NamedNode(card), ox.DefaultGraph())
        )
    texts = _ruling_texts(store, rulings)
    if progress and everything and texts:
        progress(f"linking {len(texts):,} rulings to mechanics, steps, zones and concepts")
    links = mentions(texts, named, ruling_cards(store, texts))
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
            for ruling in rulings or ()
            for quad in store.quads_for_pattern(ox.NamedNode(ruling), predicate, None, graph)
        }
    removed, added = present - wanted, wanted - present
    apply_difference(store, MENTIONS_GRAPH, removed, added)
    return MentionsUpdate(digest, {triple.subject.value for triple in removed | added})

"""The rulings a verdict shows: the card's own first, then the mechanic's general rulings.

A mechanic's general ruling is one about the mechanic rather than about a particular card: it
mentions the mechanic (the links of :mod:`mtgkb.kb.mentions`, which already leave out joke cards and
words that only share a stem), was published on a card that has the mechanic (or a variant of it:
Gideon Jura's ruling that mentions ninjutsu is about Gideon's ability) and does not name that card
("As you activate a ninjutsu ability, you reveal the Ninja card..." is general; "As you activate
Yuffie's ninjutsu ability..." is about Yuffie). The same text
published on several cards (reworded a little from set to set) is shown once, and not at all when
the card asked about has it. Each
ruling names its card; what is not shown is counted, with the commands that list it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mtgkb.kb.query_files import library_query, named_query_text

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

#: How many of the mechanic's general rulings a verdict carries (the rest are counted).
GENERAL_SHOWN = 6


@dataclass
class VerdictRuling:
    date: str | None
    text: str | None  # the official wording, once card data is imported
    summary: str | None  # our own words
    about: str | None  # the card the ruling was published on
    general: bool = False  # a ruling on the mechanic from another card, not on the card asked about


@dataclass
class VerdictRulings:
    rulings: list[VerdictRuling] = field(default_factory=list)
    more: int = 0  # rulings of the card and of the mechanic not shown
    see: list[str] = field(default_factory=list)  # the commands that list them all


def _key(text: str | None) -> str:
    """Texts compared as words: apostrophes, spacing and case do not make two rulings."""
    return " ".join(re.findall(r"[a-z0-9]+", (text or "").replace("\u2019", "'").lower()))


def _quoted(name: str) -> str:
    return f'"{name}"' if any(c in name for c in " '\"") else name


def _said_before(key: str, seen: list[set[str]]) -> bool:
    """Whether a ruling says what one already shown says: the same words, give or take a few (the
    same general ruling is reworded slightly from set to set: "or battle", "to its owner's hand")."""
    words = set(key.split())
    return any(len(words & other) >= 0.6 * max(len(words), len(other)) for other in seen)


def _names_of(card_name: str) -> list[str]:
    """How a ruling names its card: the whole name, and a legendary card's short name ("Yuffie")."""
    names = [card_name]
    for part in (card_name.split(",")[0], card_name.split(" // ")[0]):
        if part and part not in names and len(part) > 2:
            names.append(part.strip())
    return names


def _names_its_card(text: str, card_name: str | None) -> bool:
    if not card_name:
        return False
    return any(re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", text) for name in _names_of(card_name))


def verdict_rulings(
    kb: KnowledgeBase,
    card: str | None,
    card_name: str,
    mechanics: list[tuple[str, str]],
    general_shown: int = GENERAL_SHOWN,
) -> VerdictRulings:
    """The rulings for a verdict on ``card`` (its IRI) used through ``mechanics`` ((IRI, keyword)
    pairs: the way's keyword mechanic and those it is a variant of). They depend on the store alone,
    so a process (a server) works them out once for each card and way; each caller gets its own
    lists."""
    key = (kb.path, card, card_name, tuple(mechanics), general_shown)
    if key not in _FOUND:
        _FOUND[key] = _verdict_rulings(kb, card, card_name, mechanics, general_shown)
    found = _FOUND[key]
    return VerdictRulings(list(found.rulings), found.more, list(found.see))


_FOUND: dict[tuple, VerdictRulings] = {}


def _verdict_rulings(
    kb: KnowledgeBase,
    card: str | None,
    card_name: str,
    mechanics: list[tuple[str, str]],
    general_shown: int,
) -> VerdictRulings:
    found = VerdictRulings()
    seen: list[set[str]] = []
    if card is not None:
        rows = kb.select(named_query_text("card-rulings"), card=card)
        own = sorted(rows, key=lambda r: (r.get("date") or "", r["ruling"]), reverse=True)
        for row in own:
            key = _key(row.get("text") or row.get("summary"))
            if _said_before(key, seen):
                continue
            seen.append(set(key.split()))
            note = VerdictRuling(row.get("date"), row.get("text"), row.get("summary"), card_name)
            found.rulings.append(note)
        if own:
            found.see.append(f"mtgkb rulings {_quoted(card_name)}")
    if not mechanics:
        return found
    dated, facts, with_mechanic = _mechanic_rulings(kb, [m for m, _ in mechanics])
    if not dated:
        return found
    general: list[VerdictRuling] = []
    for iri in sorted(dated, key=lambda i: (dated[i], i), reverse=True):
        fact = facts.get(iri)
        if fact is None or card in fact.cards:
            continue
        text, summary = fact.text, fact.summary
        cards = fact.cards
        name = fact.names.get(cards[0]) if cards else None
        if not any(c in with_mechanic for c in cards):
            continue  # published on a card without the mechanic: about that card's own abilities
        if _names_its_card(text or summary or "", name):
            continue  # about its own card's abilities, not the mechanic
        key = _key(text or summary)
        if not key or _said_before(key, seen):
            continue
        seen.append(set(key.split()))
        general.append(VerdictRuling(fact.date, text, summary, name, general=True))
    found.rulings += general[:general_shown]
    # The rest: every other ruling that mentions the mechanic, card by card, as `rulings` lists them.
    found.more = len([i for i in dated if i in facts and card not in facts[i].cards])
    found.more -= min(len(general), general_shown)
    found.see += [f"mtgkb rulings {_quoted(keyword.lower())}" for _, keyword in mechanics]
    return found


@dataclass
class _RulingFacts:
    date: str | None = None
    text: str | None = None
    summary: str | None = None
    cards: list[str] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)


def _ruling_facts(kb: KnowledgeBase, rulings: list[str]) -> dict[str, _RulingFacts]:
    """The date, texts and cards of each ruling, read in one small query."""
    found: dict[str, _RulingFacts] = {}
    for row in kb.select(library_query("ruling-facts"), s=rulings):
        fact = found.setdefault(row["s"], _RulingFacts(row.get("date"), row.get("text"), row.get("summary")))
        if row["card"] not in fact.cards:
            fact.cards.append(row["card"])
        if row.get("cardName"):
            fact.names[row["card"]] = row["cardName"]
    return found


_READ: dict[object, tuple[dict[str, str], dict[str, _RulingFacts], set[str]]] = {}


def _mechanic_rulings(
    kb: KnowledgeBase, mechanics: list[str]
) -> tuple[dict[str, str], dict[str, _RulingFacts], set[str]]:
    """The rulings that mention the mechanics (by date), their facts, and which of the cards they are
    published on have one of the mechanics. They depend on the store alone, which never changes once
    built, so they are kept in a file beside it: reading them is most of a verdict's time."""
    import hashlib
    import json
    import os

    queries = "".join(library_query(q) for q in ("rulings-mentioning", "ruling-facts", "cards-with-mechanic"))
    digest = hashlib.sha256((queries + "\n".join(sorted(mechanics))).encode()).hexdigest()[:12]
    cache = kb.path / f"verdict-mechanic-rulings-{digest}.json"
    if cache in _READ:  # a server's later verdicts on the same store and mechanics
        return _READ[cache]
    try:
        saved = json.loads(cache.read_text(encoding="utf-8"))
        facts = {iri: _RulingFacts(*values) for iri, values in saved["facts"].items()}
        _READ[cache] = saved["dated"], facts, set(saved["with_mechanic"])
        return _READ[cache]
    except (OSError, ValueError, KeyError, TypeError):
        pass
    dated: dict[str, str] = {}
    for mechanic in mechanics:
        for row in kb.select(library_query("rulings-mentioning"), subject=mechanic):
            dated[row["ruling"]] = row.get("date") or ""
    facts = _ruling_facts(kb, sorted(dated)) if dated else {}
    published_on = sorted({c for fact in facts.values() for c in fact.cards})
    with_mechanic = (
        {
            row["card"]
            for row in kb.select(library_query("cards-with-mechanic"), card=published_on, mechanic=mechanics)
        }
        if published_on
        else set()
    )
    try:
        temporary = cache.with_suffix(f".{os.getpid()}.tmp")
        values = {iri: [f.date, f.text, f.summary, f.cards, f.names] for iri, f in facts.items()}
        saved = {"dated": dated, "facts": values, "with_mechanic": sorted(with_mechanic)}
        temporary.write_text(json.dumps(saved), encoding="utf-8")
        os.replace(temporary, cache)
    except (OSError, TypeError):
        pass  # a read-only cache folder: answer all the same, from the store
    return dated, facts, with_mechanic

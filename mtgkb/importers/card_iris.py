"""Which node each imported card record becomes: one node per card, whatever the sources.

The scheme (documented on ``mtgkb:Card`` in ontology/mtgkb.ttl):

- One node per Oracle id. Records that share an Oracle id are one card: a reversible reprint ("Sol
  Ring // Sol Ring" beside "Sol Ring"), or a Universes Within printing under another name. The node
  takes one name (``mtgkb:name``); the others become ``mtgkb:alsoNamed``.
- A node that already exists in another source (our starter cards, the other card import) is reused:
  by Oracle id first, then by name. So curated and imported facts meet on one node, and a card keeps
  the IRI it was first given (IRIs are never renamed).
- A new node's IRI is the slug of its name (``card/sol-ring``). When two different cards share a
  slug ("Lava Axe" and "Lava, Axe"), the plainest name keeps the slug and the other gets a short
  suffix from a hash of its name (``card/lava-axe-3c1f0a``); a name with no letters or digits gets
  ``card/card-<hash>``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from mtgkb.importers.card_model import CardRecord
from mtgkb.kb.iris import mint, namespace, slugify

_SUFFIX_LENGTH = 6


@dataclass
class KnownCards:
    """Card nodes that other sources already hold: by Oracle id, by name, and each node's name."""

    by_oracle_id: dict[str, str] = field(default_factory=dict)
    by_name: dict[str, str] = field(default_factory=dict)
    name_of: dict[str, str] = field(default_factory=dict)

    def add(self, iri: str, name: str | None, oracle_id: str | None, primary: bool = True) -> None:
        if oracle_id:
            self.by_oracle_id.setdefault(oracle_id, iri)
        if name:
            self.by_name.setdefault(name, iri)
            if primary:
                self.name_of.setdefault(iri, name)


@dataclass
class CardIris:
    """The outcome of :func:`assign_card_iris`."""

    kept: list[CardRecord]  # one record per node
    iris: dict[str, str]  # every record name (kept or merged) -> its node
    names: dict[str, str]  # node -> the card's name
    also_named: dict[str, list[str]]  # node -> the card's other names
    merged: dict[str, str]  # record name -> why it has no node of its own


def card_slug(iri: str) -> str:
    """``.../card/lava-axe-3c1f0a`` -> ``lava-axe-3c1f0a``: the part faces, abilities and rulings of
    the card are minted from."""
    return iri.removeprefix(namespace("card"))


def card_name(record: CardRecord) -> str:
    """The name a card goes by. MTGJSON names a reversible reprint by its two identical faces ("Sol
    Ring // Sol Ring") and a meld card by its front face and the card it melds into ("Mishra,
    Claimed by Gix // Mishra, Lost to Phyrexia", which is its own card): both go by their front face."""
    parts = record.name.split(" // ")
    if len(parts) > 1 and (len(set(parts)) == 1 or record.layout == "meld"):
        return parts[0]
    return record.name


def _plainness(name: str) -> tuple[int, int, str]:
    """The name that keeps a shared slug: fewest characters that are not letters, digits or spaces."""
    return (sum(not (c.isalnum() or c.isspace()) for c in name), len(name), name)


def _suffixed(name: str) -> str:
    digest = hashlib.sha256(name.encode("utf-8")).hexdigest()[:_SUFFIX_LENGTH]
    slug = slugify(name) or "card"
    return mint("card", f"{slug}-{digest}")


def assign_card_iris(records: list[CardRecord], known: KnownCards | None = None) -> CardIris:
    """One node per card among ``records`` (see the module notes), reusing ``known`` nodes."""
    known = known or KnownCards()
    groups: dict[str, list[CardRecord]] = {}
    for record in records:
        groups.setdefault(record.oracle_id or f"name:{card_name(record)}", []).append(record)
    # Reversible reprints last, so the ordinary record is the one kept; then the plainest name. The
    # plainest names claim their slugs first.
    ordered = []
    for group in groups.values():
        group.sort(key=lambda r: (r.layout == "reversible_card", _plainness(card_name(r))))
        ordered.append(group)
    ordered.sort(key=lambda group: _plainness(card_name(group[0])))

    taken = set(known.name_of)
    result = CardIris([], {}, {}, {}, {})
    pending: list[list[CardRecord]] = []
    for group in ordered:
        iri = _known_node(group, known)
        if iri is None:
            pending.append(group)
        else:
            _keep(group, iri, known.name_of.get(iri), result)
            taken.add(iri)
    for group in pending:
        name = card_name(group[0])
        try:
            iri = mint("card", name)
        except ValueError:
            iri = _suffixed(name)
        if iri in taken:
            iri = _suffixed(name)
        taken.add(iri)
        _keep(group, iri, None, result)
    return result


def _known_node(group: list[CardRecord], known: KnownCards) -> str | None:
    for record in group:
        if record.oracle_id and record.oracle_id in known.by_oracle_id:
            return known.by_oracle_id[record.oracle_id]
    for record in group:
        for name in (card_name(record), record.name):
            if name in known.by_name:
                return known.by_name[name]
    return None


def _keep(group: list[CardRecord], iri: str, known_name: str | None, result: CardIris) -> None:
    """The first record is the card; the others' names point to it. A node another source already
    names keeps that name."""
    first = group[0]
    name = known_name or card_name(first)
    result.kept.append(first)
    result.names[iri] = name
    others: list[str] = []
    for record in group:
        result.iris[record.name] = iri
        result.iris.setdefault(card_name(record), iri)
        if record is not first:
            result.merged[record.name] = f"the same card (Oracle id {record.oracle_id}) as {name!r}"
        if card_name(record) != name and card_name(record) not in others:
            others.append(card_name(record))
    if others:
        result.also_named[iri] = others


def replaced_iris(nodes: CardIris) -> dict[str, str]:
    """The IRI a merged name would have had on its own -> the node it is now part of ("Sol Ring //
    Sol Ring" -> card/sol-ring): earlier imports published some of them, and IRIs are deprecated
    with their replacement rather than dropped silently."""
    kept = set(nodes.names)
    replaced = {}
    for name, iri in nodes.iris.items():
        try:
            own = mint("card", name)
        except ValueError:
            continue
        if own != iri and own not in kept:
            replaced[own] = iri
    return replaced

"""The partner network: every pair of cards in the knowledge base that can lead a deck together, as a
networkx graph (cards as nodes with their colour identity, one edge per legal pair labelled with the
partner ability that allows it and the rules that say so).

Only cards a pairing can involve are read: cards with a partner ability, and cards that meet some
partner ability's candidate requirement (Backgrounds, Doctors). Candidates for each ability come
from an index (same mechanic, the named card, the candidate requirement), and each candidate pair is
then judged by :func:`mtgkb.reasoning.commanders.is_legal_pair`, the same checks as ``mtgkb
commanders``, so the network and the verdict never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtgkb.errors import MtgkbError
from mtgkb.reasoning.commander_model import CardFacts, Model, load_cards, load_model, wubrg
from mtgkb.reasoning.commanders import card_identity, is_legal_pair, unmet
from mtgkb.reasoning.verdict import rule_order
from mtgkb.vocab import V

if TYPE_CHECKING:
    import networkx

    from mtgkb.store import KnowledgeBase


@dataclass
class PartnerEdge:
    first: str  # IRI
    second: str
    mechanic: str  # IRI of the partner mechanic that pairs them
    via: str  # its label
    owner: str  # IRI of the card whose ability it is (both have one for symmetric abilities)
    cites: list[str]


@dataclass
class PartnerNetwork:
    cards: dict[str, CardFacts]
    edges: list[PartnerEdge]
    model: Model


# Separate small queries: as one UNION, or with the candidate join in one pattern, the store's plan
# took seconds at full card-pool scale; each of these takes milliseconds.
_WITH_ABILITY = """
SELECT DISTINCT ?card WHERE {
  ?mechanic MARK .
  ?ability mtgkb:instantiates ?mechanic .
  { ?card mtgkb:hasAbility ?ability } UNION { ?face mtgkb:hasAbility ?ability . ?card mtgkb:hasFace ?face }
}"""
_CANDIDATE_SUBTYPES = (
    "SELECT DISTINCT ?subtype WHERE { ?m mtgkb:partnerCandidate/mtgkb:requiresSubtype ?subtype }"
)


def _relevant_cards(kb: KnowledgeBase) -> list[str]:
    """Cards with a partner ability, cards that are every creature type, and cards with a subtype some
    partner ability's candidate requirement names (every candidate requirement names one)."""
    from mtgkb.store import sparql_string

    iris: list[str] = []
    for mark in ("mtgkb:pairingRule ?rule", "mtgkb:hasEveryCreatureType true"):
        iris += [row["card"] for row in kb.select(_WITH_ABILITY.replace("MARK", mark))]
    subtypes = " ".join(sparql_string(row["subtype"]) for row in kb.select(_CANDIDATE_SUBTYPES))
    if subtypes:
        values = f"VALUES ?subtype {{ {subtypes} }}"
        query = f"SELECT DISTINCT ?card WHERE {{ {values} ?card mtgkb:subtype ?subtype }}"
        iris += [row["card"] for row in kb.select(query)]
    return list(dict.fromkeys(iris))


def read_network(kb: KnowledgeBase) -> PartnerNetwork:
    """Every legal pair among the cards of ``kb``."""
    model = load_model(kb)
    cards = load_cards(kb, _relevant_cards(kb))
    return PartnerNetwork(cards, legal_pairs(model, cards), model)


def legal_pairs(model: Model, cards: dict[str, CardFacts]) -> list[PartnerEdge]:
    by_mechanic: dict[str, list[CardFacts]] = {}
    for card in cards.values():
        for ability in card.partner_abilities(model):
            by_mechanic.setdefault(ability.mechanic, []).append(card)  # type: ignore[arg-type]
    meeting: dict[str, list[CardFacts]] = {
        iri: [card for card in cards.values() if not unmet(model, card, requirement)]
        for iri, requirement in model.requirements.items()
        if any(m.candidate == iri for m in model.mechanics.values())
    }
    edges: dict[tuple[str, str], PartnerEdge] = {}
    for card in cards.values():
        for ability in card.partner_abilities(model):
            mechanic = model.mechanics[ability.mechanic]  # type: ignore[index]
            if mechanic.pairing_rule == V.MutualName:
                candidates = [cards[ability.partner_with]] if ability.partner_with in cards else []
            elif mechanic.candidate:
                candidates = meeting.get(mechanic.candidate, [])
            else:
                candidates = by_mechanic.get(mechanic.iri, [])
            for other in candidates:
                key = tuple(sorted((card.iri, other.iri)))
                if key in edges or card.iri == other.iri:
                    continue
                pairing = is_legal_pair(model, card, other)
                if pairing is None or pairing.mechanic is None:
                    continue
                edges[key] = PartnerEdge(  # type: ignore[index]
                    card.iri if card.iri < other.iri else other.iri,
                    other.iri if card.iri < other.iri else card.iri,
                    pairing.mechanic,
                    model.mechanics[pairing.mechanic].label,
                    pairing.owner or card.iri,
                    pairing.cites,
                )
    return sorted(edges.values(), key=lambda e: (e.first, e.second))


def to_networkx(network: PartnerNetwork) -> networkx.Graph:
    """Cards as nodes (name, colour identity as letters), pairs as edges (ability label, rules)."""
    import networkx

    graph = networkx.Graph()
    used = {e.first for e in network.edges} | {e.second for e in network.edges}
    for iri in sorted(used):
        card = network.cards[iri]
        graph.add_node(iri, label=card.name, color_identity="".join(card_identity(card)[0]))
    for edge in network.edges:
        graph.add_edge(
            edge.first,
            edge.second,
            label=edge.via,
            mechanic=edge.mechanic,
            owner=edge.owner,
            cites=" ".join(edge.cites),
        )
    return graph


@dataclass
class Partner:
    name: str
    iri: str
    combined_identity: list[str]


@dataclass
class PartnerGroup:
    via: str  # the partner ability's label
    mechanic: str
    count: int
    cites: list[str]
    partners: list[Partner] = field(default_factory=list)  # sorted by name, at most --limit


@dataclass
class PartnersReport:
    name: str
    iri: str
    color_identity: list[str]
    total: int
    groups: list[PartnerGroup]


def partners_report(kb: KnowledgeBase, name: str, limit: int | None = None) -> PartnersReport:
    """Every card that can be the second commander of the card ``name``, grouped by ability."""
    import networkx

    from mtgkb.lookups.common import find_named

    match = find_named(kb, name, ("card",))
    network = read_network(kb)
    graph = to_networkx(network)
    card = network.cards.get(match.iri) or load_cards(kb, [match.iri])[match.iri]
    neighbours: list[str] = []
    if match.iri in graph:
        neighbours = list(networkx.neighbors(graph, match.iri))
    else:
        _explain_no_partners(network.model, card)
    identity = card_identity(card)[0]
    groups: dict[str, PartnerGroup] = {}
    for other in neighbours:
        data: dict[str, Any] = graph.edges[match.iri, other]
        group = groups.setdefault(
            data["mechanic"],
            PartnerGroup(data["label"], data["mechanic"], 0, sorted(data["cites"].split(), key=rule_order)),
        )
        group.count += 1
        combined = wubrg(set(identity) | set(graph.nodes[other]["color_identity"]))
        group.partners.append(Partner(graph.nodes[other]["label"], other, combined))
    for group in groups.values():
        group.partners.sort(key=lambda p: p.name.casefold())
        if limit is not None:
            del group.partners[limit:]
    ordered = sorted(groups.values(), key=lambda g: g.via.casefold())
    return PartnersReport(card.name, card.iri, identity, sum(g.count for g in ordered), ordered)


def _explain_no_partners(model: Model, card: CardFacts) -> None:
    abilities = card.partner_abilities(model)
    if not abilities:
        raise MtgkbError(
            f"{card.name} has no partner ability and is no partner ability's candidate, so it can only "
            "be a commander on its own (CR 702.124a, 903.3)",
            f"ask 'mtgkb commanders \"{card.name}\"' whether it can be a commander at all",
        )
    # It has a partner ability but nothing in the knowledge base pairs with it: an empty answer.

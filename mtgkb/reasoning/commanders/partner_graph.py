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

from mtgkb.core.errors import MtgkbError
from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import RDF_TYPE, RDFS_LABEL, V
from mtgkb.reasoning.commanders.model import (
    DESIGNATION,
    CommanderCardFacts,
    Model,
    load_cards,
    load_model,
    wubrg,
)
from mtgkb.reasoning.commanders.verdict import (
    PARTNER_NEEDED,
    ask_patterns,
    card_identity,
    is_legal_pair,
    unmet,
)
from mtgkb.reasoning.contract import rule_order

if TYPE_CHECKING:
    import networkx

    from mtgkb.kb.store import KnowledgeBase


@dataclass
class PartnerEdge:
    first: str  # IRI
    second: str
    mechanic: str  # IRI of the partner mechanic that pairs them
    via: str  # its label
    owners: list[str]  # IRIs of the cards whose own ability allows it (both, for symmetric abilities)
    cites: list[str]
    # Not empty: the pair cannot be told (no legal pair, no "not a pair"), for want of an evaluator
    # of these requirement properties.
    unmodelled: list[str] = field(default_factory=list)


@dataclass
class PartnerNetwork:
    cards: dict[str, CommanderCardFacts]
    edges: list[PartnerEdge]
    model: Model


def _relevant_cards(kb: KnowledgeBase) -> list[str]:
    """Cards with a partner ability, cards that are every creature type, and cards with a subtype some
    partner ability's candidate requirement names (every candidate requirement names one)."""
    from mtgkb.kb.query_files import library_query
    from mtgkb.kb.sparql_text import PlainText

    # Separate small queries: as one UNION, or with the candidate join in one pattern, the store's
    # plan took seconds at full card-pool scale; each of these takes milliseconds.
    iris: list[str] = []
    for query in ("partner-ability-cards", "every-creature-type-cards"):
        iris += [row["card"] for row in kb.select(library_query(query))]
    subtypes = [row["subtype"] for row in kb.select(library_query("partner-candidate-subtypes"))]
    if subtypes:
        found = kb.select(library_query("cards-with-subtype"), subtype=[PlainText(s) for s in subtypes])
        iris += [row["card"] for row in found]
    return list(dict.fromkeys(iris))


def pairing_inputs(kb: KnowledgeBase) -> set[str]:
    """Every IRI whose facts the partner network is derived from: the cards a pairing can involve,
    their faces and abilities, and the nodes of the rules model (mechanics, the requirements and
    consequences they name, the commander designation). A source stating nothing about any of them
    cannot change the network."""
    import pyoxigraph as ox

    model = load_model(kb)
    found = {DESIGNATION, *model.mechanics, *model.requirements}
    default = ox.DefaultGraph()
    consequence = ox.NamedNode(V.consequenceOf)
    found |= {quad.subject.value for quad in kb.store.quads_for_pattern(None, consequence, None, default)}
    parts = [ox.NamedNode(V.hasFace), ox.NamedNode(V.hasAbility)]
    for card in _relevant_cards(kb):
        found.add(card)
        owners = [ox.NamedNode(card)]
        while owners:
            owner = owners.pop()
            for predicate in parts:
                for quad in kb.store.quads_for_pattern(owner, predicate, None, default):
                    if isinstance(quad.object, ox.NamedNode) and quad.object.value not in found:
                        found.add(quad.object.value)
                        owners.append(quad.object)
    return found


def is_pairing_input(kb: KnowledgeBase, iri: str, candidate_subtypes: set[str]) -> bool:
    """Whether the facts of the node ``iri`` can change the partner network: it is a node of the rules
    model, or a card :func:`pairing_inputs` counts (or a face or ability of one). A few index lookups:
    cheaper than :func:`pairing_inputs` for a handful of changed nodes."""
    import pyoxigraph as ox

    store, default = kb.store, ox.DefaultGraph()

    def objects(node: Any, predicate: str) -> list[Any]:
        return [q.object for q in store.quads_for_pattern(node, ox.NamedNode(predicate), None, default)]

    def subjects(predicate: str, node: Any) -> list[Any]:
        return [q.subject for q in store.quads_for_pattern(None, ox.NamedNode(predicate), node, default)]

    node = ox.NamedNode(iri)
    types = {term.value for term in objects(node, RDF_TYPE)}
    if iri == DESIGNATION or types & {V.Mechanic, V.Requirement} or objects(node, V.consequenceOf):
        return True
    # The cards it belongs to: itself, the card of a face, the card (or face) of an ability.
    owners = [node, *subjects(V.hasFace, node), *subjects(V.hasAbility, node)]
    owners += [card for owner in owners[1:] for card in subjects(V.hasFace, owner)]
    for card in owners:
        if V.Card not in {term.value for term in objects(card, RDF_TYPE)}:
            continue
        if {term.value for term in objects(card, V.subtype)} & candidate_subtypes:
            return True
        abilities = objects(card, V.hasAbility)
        abilities += [a for face in objects(card, V.hasFace) for a in objects(face, V.hasAbility)]
        for ability in abilities:
            for mechanic in objects(ability, V.instantiates):
                if objects(mechanic, V.pairingRule) or any(
                    term.value == "true" for term in objects(mechanic, V.hasEveryCreatureType)
                ):
                    return True
    return False


def candidate_subtypes(kb: KnowledgeBase) -> set[str]:
    """The subtypes partner abilities' candidate requirements name (Background, Time Lord, …)."""
    from mtgkb.kb.query_files import library_query

    return {row["subtype"] for row in kb.select(library_query("partner-candidate-subtypes"))}


def read_network(kb: KnowledgeBase) -> PartnerNetwork:
    """Every legal pair among the cards of ``kb``."""
    model = load_model(kb)
    cards = load_cards(kb, _relevant_cards(kb))
    return PartnerNetwork(cards, legal_pairs(model, cards), model)


def legal_pairs(model: Model, cards: dict[str, CommanderCardFacts]) -> list[PartnerEdge]:
    ask_patterns(model, list(cards.values()))  # every requirement part of every card, in a few queries
    by_mechanic: dict[str, list[CommanderCardFacts]] = {}
    for card in cards.values():
        for ability in card.partner_abilities(model):
            by_mechanic.setdefault(ability.mechanic, []).append(card)  # type: ignore[arg-type]
    meeting: dict[str, list[CommanderCardFacts]] = {
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
                first, second = sorted((card, other), key=lambda c: c.iri)
                owners = [
                    c.iri
                    for c in (first, second)
                    if any(a.mechanic == pairing.mechanic for a in c.partner_abilities(model))
                ]
                edges[key] = PartnerEdge(  # type: ignore[index]
                    first.iri,
                    second.iri,
                    pairing.mechanic,
                    model.mechanics[pairing.mechanic].label,
                    owners,
                    pairing.cites,
                    pairing.unmodelled if pairing.holds is None else [],
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
            owners=" ".join(edge.owners),
            cites=" ".join(edge.cites),
            unmodelled=" ".join(edge.unmodelled),
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
    total: int  # the legal second commanders
    groups: list[PartnerGroup]
    # True: every pair was told, and ``groups`` are all the legal ones. None: cannot tell for the cards
    # of ``cannot_tell`` (exit 3), whose pairs rest on the requirement properties ``not_modelled``.
    answer: bool | None = True
    cannot_tell: list[PartnerGroup] = field(default_factory=list)
    not_modelled: list[str] = field(default_factory=list)


def partners_report(kb: KnowledgeBase, name: str, limit: int | None = None) -> PartnersReport:
    """Every card that can be the second commander of the card ``name``, grouped by ability, read
    from the pairs the store derived when it was built (see :func:`derive_pairs`)."""
    from mtgkb.kb.iri_arguments import find_named
    from mtgkb.lookups.common import rule_number

    match = find_named(kb, name, ("card",))
    from mtgkb.kb.query_files import library_query

    rows = kb.select(library_query("partners-of-card"), card=match.iri)
    others = list(dict.fromkeys(row["other"] for row in rows))
    cards = load_cards(kb, [match.iri, *others])
    card = cards[match.iri]
    if not rows:
        _explain_no_partners(load_model(kb), card)
    identity = card_identity(card)[0]
    told = [row for row in rows if not row.get("cannotTell")]
    untold = [row for row in rows if row.get("cannotTell")]

    def grouped(group_rows: list[dict[str, Any]]) -> list[PartnerGroup]:
        groups: dict[str, PartnerGroup] = {}
        members: dict[str, set[str]] = {}
        for row in group_rows:
            group = groups.setdefault(row["mechanic"], PartnerGroup(row["label"], row["mechanic"], 0, []))
            if row["rule"] and rule_number(row["rule"]) not in group.cites:
                group.cites.append(rule_number(row["rule"]))
            members.setdefault(row["mechanic"], set()).add(row["other"])
        for mechanic, group in groups.items():
            group.cites.sort(key=rule_order)
            group.count = len(members[mechanic])
            partners = [
                Partner(cards[o].name, o, wubrg(set(identity) | set(card_identity(cards[o])[0])))
                for o in members[mechanic]
            ]
            group.partners = sorted(partners, key=lambda p: p.name.casefold())[:limit]
        return sorted(groups.values(), key=lambda g: g.via.casefold())

    total = len({row["other"] for row in told})
    missing = sorted({row["notModelled"] for row in untold if row.get("notModelled")})
    return PartnersReport(
        card.name,
        card.iri,
        identity,
        total,
        grouped(told),
        None if untold else True,
        grouped(untold),
        missing,
    )


PAIRS_GRAPH = mint("graph", "derived", "partner-pairs")


def derive_pairs(kb: KnowledgeBase) -> str:
    """Every legal pair of ``kb`` as N-Quads for the named graph :data:`PAIRS_GRAPH`: a
    mtgkb:CommanderPair node per edge of the partner network. Nothing is added to the card nodes:
    a card read for a verdict or a lookup stays as small as its sources made it."""
    import io

    from mtgkb.core.nquads import QuadWriter, iri, literal

    network = read_network(kb)
    graph = to_networkx(network)
    stream = io.StringIO()
    writer = QuadWriter(stream, PAIRS_GRAPH)
    for first, second in sorted(tuple(sorted(edge)) for edge in graph.edges()):
        data = graph.edges[first, second]
        node = mint("pair", first.rsplit("/", 1)[1], second.rsplit("/", 1)[1])
        names = f"{graph.nodes[first]['label']} and {graph.nodes[second]['label']}"
        writer.add(node, RDF_TYPE, iri(V.CommanderPair))
        writer.add(node, RDFS_LABEL, literal(f"{names} through {data['label']}"))
        writer.add(node, V.pairedThrough, iri(data["mechanic"]))
        for member in (first, second):
            writer.add(node, V.pairMember, iri(member))
        for owner in data["owners"].split():
            writer.add(node, V.pairedByCard, iri(owner))
        for number in data["cites"].split():
            writer.add(node, V.citesRule, iri(mint("cr", number)))
        if data["unmodelled"]:
            # A pair its checks cannot tell: kept so that `mtgkb partners` says so, and left out of
            # every query of the legal pairs.
            writer.add(node, V.cannotTell, literal(True))
            for prop in data["unmodelled"].split():
                writer.add(node, V.notModelled, iri(prop))
    return stream.getvalue()


def _explain_no_partners(model: Model, card: CommanderCardFacts) -> None:
    abilities = card.partner_abilities(model)
    if not abilities:
        raise MtgkbError(
            f"{card.name} has no partner ability and is no partner ability's candidate, so it can only "
            f"be a commander on its own (CR {', '.join(model.cites_of(PARTNER_NEEDED))})",
            f"ask 'mtgkb commanders \"{card.name}\"' whether it can be a commander at all",
        )
    # It has a partner ability but nothing in the knowledge base pairs with it: an empty answer.

"""The hand-written starter cards (data/cards) and curated rulings (data/rulings) agree with the card
snapshots in ../shared/data: the facts we typed are the facts the dumps carry, every ability cost and
keyword is printed on the card, "partner with" pairs name each other, and every curated ruling IRI is
the one the importer will mint from a real ruling of that card (which proves its date and text hash).
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from rdflib import RDF, RDFS, Graph, Literal, URIRef, namespace

from mtgkb.kb.iris import BASE, card_iri, mint, normalise_ruling_text, ruling_iri, slugify
from mtgkb.kb.vocab import V

REPO_ROOT = Path(__file__).resolve().parents[1]
CARD_FILES = sorted((REPO_ROOT / "data" / "cards").glob("*.ttl"))
RULING_FILES = sorted((REPO_ROOT / "data" / "rulings").glob("*.ttl"))
# A card authored from the Comprehensive Rules alone carries this mtgkb:fromSource value.
CURATED_NOT_IN_SNAPSHOTS = "curated; not in snapshots"
SUPERTYPES = {"Basic", "Legendary", "Ongoing", "Snow", "World"}
# Eight words in a row shared with official text means we copied it instead of summarising.
COPIED_RUN = 8


def u(term: str) -> URIRef:
    return URIRef(term)


@dataclass(frozen=True)
class SnapshotCard:
    """One snapshot's record of a card; None where that snapshot does not say."""

    source: str
    mana_cost: str | None
    mana_value: float | None
    type_line: str | None
    supertypes: frozenset[str] | None
    types: frozenset[str] | None
    subtypes: frozenset[str] | None
    colors: frozenset[str] | None
    color_identity: frozenset[str] | None
    power: str | None
    toughness: str | None
    oracle_id: str | None
    commander_legality: str | None
    layout: str | None
    texts: tuple[tuple[str, str], ...]  # (wording date, Oracle text)
    rulings: tuple[tuple[str, str], ...]  # (date, official text)


def braced_cost(cost: str | None) -> str | None:
    """Spoiler data writes "5G"; the other dumps write "{5}{G}"."""
    if not cost or "{" in cost:
        return cost
    return "".join(f"{{{symbol}}}" for symbol in re.findall(r"\d+|[WUBRGCXS](?:/[WUBRGP])?", cost))


def cost_value(cost: str) -> float:
    """Mana value of a mana cost (CR 202.3): numbers count their value, X counts 0, other symbols 1."""
    total = 0
    for symbol in re.findall(r"\{([^}]*)\}", cost):
        total += int(symbol) if symbol.isdigit() else 0 if symbol == "X" else 1
    return float(total)


def colours_in(text: str) -> frozenset[str]:
    return frozenset(c for symbol in re.findall(r"\{([^}]*)\}", text) for c in symbol if c in "WUBRG")


def plain(text: str) -> str:
    """Lower case, straight quotes, one kind of dash, single spaces: the dumps differ in all four."""
    return re.sub(r"[\u2012-\u2015]", "-", normalise_ruling_text(text)).lower()


def _set(values: list[str] | str | None) -> frozenset[str] | None:
    if values is None:
        return None
    return frozenset([values] if isinstance(values, str) else values)


def _from_subset(record: dict) -> SnapshotCard:
    data_date = record["source"].get("data_date") or ""
    texts = [(data_date[:10], record.get("oracle_text") or "")]
    if record.get("oracle_text_scryfall_2026_04"):
        texts.append(("2026-04", record["oracle_text_scryfall_2026_04"]))
    legality = record.get("commander_legality")
    return SnapshotCard(
        source=f"subset-ninjutsu-partner.json ({record['source']['repo']})",
        mana_cost=braced_cost(record.get("mana_cost")),
        mana_value=record.get("mana_value"),
        type_line=record.get("type_line"),
        supertypes=_set(record.get("supertypes")),
        types=_set(record.get("types")),
        subtypes=_set(record.get("subtypes")),
        colors=_set(record.get("colors")),
        color_identity=_set(record.get("color_identity")),
        power=record.get("power"),
        toughness=record.get("toughness"),
        oracle_id=record.get("scryfall_oracle_id"),
        commander_legality=legality.lower() if legality else None,
        layout=record.get("layout"),
        texts=tuple(texts),
        rulings=tuple((r["date"], r["text"]) for r in record.get("rulings") or []),
    )


def layout_rules() -> dict[str, str]:
    """Layout name -> the rule (an IRI) by which its cards take their characteristics from their
    faces, as data/layouts.ttl states it."""
    graph = Graph().parse(REPO_ROOT / "data" / "layouts.ttl", format="turtle")
    return {
        str(graph.value(node, u(V.layoutName))): str(graph.value(node, u(V.characteristicsFrom)))
        for node in graph.subjects(RDF.type, u(V.Layout))
    }


def _from_mtgjson(faces: list[dict]) -> SnapshotCard:
    """A one-faced card as it is; a card of several faces as the rules see it outside the stack and
    the battlefield, by its layout's rule: a split card's halves combined (CR 709.4), else the first
    face alone (712.8a, 710.2, 715.4)."""
    if len(faces) > 1:
        front = faces[0]
        if layout_rules().get(front.get("layout")) != V.AllFacesCombined:
            return _from_mtgjson([front])
        return replace(
            _from_mtgjson([front]),
            mana_cost="".join(face.get("manaCost") or "" for face in faces),
            type_line=" // ".join(face.get("type") or "" for face in faces),
            types=frozenset(t for face in faces for t in face.get("types") or []),
            subtypes=frozenset(t for face in faces for t in face.get("subtypes") or []),
            supertypes=frozenset(t for face in faces for t in face.get("supertypes") or []),
            colors=frozenset(c for face in faces for c in face.get("colors") or []),
            texts=(("2026-01-03", "\n".join(face.get("text") or "" for face in faces)),),
        )
    face = faces[0]
    legality = (face.get("legalities") or {}).get("commander")
    return SnapshotCard(
        source="mtgjson-atomic-merged-20260103.json.gz",
        mana_cost=face.get("manaCost"),
        mana_value=face.get("manaValue"),
        type_line=face.get("type"),
        supertypes=_set(face.get("supertypes")),
        types=_set(face.get("types")),
        subtypes=_set(face.get("subtypes")),
        colors=_set(face.get("colors")),
        color_identity=_set(face.get("colorIdentity")),
        power=face.get("power"),
        toughness=face.get("toughness"),
        oracle_id=(face.get("identifiers") or {}).get("scryfallOracleId"),
        commander_legality=legality.lower() if legality else None,
        layout=face.get("layout"),
        texts=(("2026-01-03", face.get("text") or ""),),
        rulings=tuple((r["date"], r["text"]) for r in face.get("rulings") or []),
    )


def _from_scryfall(record: dict) -> SnapshotCard:
    return SnapshotCard(
        source="scryfall-commanders-20260429.json",
        mana_cost=record.get("mana_cost"),
        mana_value=record.get("cmc"),
        type_line=record.get("type_line"),
        supertypes=None,
        types=None,
        subtypes=None,
        colors=None,
        color_identity=_set(record.get("color_identity")),
        power=record.get("power"),
        toughness=record.get("toughness"),
        oracle_id=None,
        commander_legality=None,
        layout=None,
        texts=(("2026-04-29", record.get("oracle_text") or ""),),
        rulings=(),
    )


@pytest.fixture(scope="module")
def authored() -> Graph:
    graph = Graph()
    for path in CARD_FILES + RULING_FILES:
        graph.parse(path, format="turtle")
    return graph


@pytest.fixture(scope="module")
def snapshots(shared_data: Path, authored: Graph) -> dict[str, list[SnapshotCard]]:
    """Every snapshot record of every authored card, by card name."""
    wanted = {str(name) for name in authored.objects(None, u(V.name))}
    found: dict[str, list[SnapshotCard]] = {name: [] for name in wanted}
    cards = shared_data / "cards"
    for record in json.loads((cards / "subset-ninjutsu-partner.json").read_text("utf-8"))["cards"]:
        if record["name"] in wanted:
            found[record["name"]].append(_from_subset(record))
    with gzip.open(cards / "mtgjson-atomic-merged-20260103.json.gz", "rt", encoding="utf-8") as handle:
        atomic = json.load(handle)["data"]
    for name in wanted & atomic.keys():
        found[name].append(_from_mtgjson(atomic[name]))
    del atomic
    for record in json.loads((cards / "scryfall-commanders-20260429.json").read_text("utf-8")):
        if record["name"] in wanted:
            found[record["name"]].append(_from_scryfall(record))
    return found


def parse(path: Path) -> Graph:
    return Graph().parse(path, format="turtle")


def the_card(graph: Graph) -> tuple[URIRef, str]:
    cards = list(graph.subjects(RDF.type, u(V.Card)))
    assert len(cards) == 1, f"expected exactly one mtgkb:Card, found {cards}"
    names = list(graph.objects(cards[0], u(V.name)))
    assert len(names) == 1, f"{cards[0]} needs exactly one mtgkb:name"
    return cards[0], str(names[0])


def abilities_of(graph: Graph, card: URIRef) -> list[URIRef]:
    """The card's abilities and the abilities they grant (Satoru Umezawa's ninjutsu)."""
    direct = list(graph.objects(card, u(V.hasAbility)))
    return direct + [granted for a in direct for granted in graph.objects(a, u(V.grants))]


def literals(graph: Graph, node: URIRef, term: str) -> set[str]:
    return {str(value) for value in graph.objects(node, u(term))}


def one(graph: Graph, node: URIRef, term: str) -> str | None:
    values = literals(graph, node, term)
    assert len(values) <= 1, f"{node} has several {term}: {values}"
    return values.pop() if values else None


def newest_text(records: list[SnapshotCard]) -> str:
    """The 2026 Scryfall wording wins (e.g. "Partner\u2014Friends forever" over "Friends forever")."""
    return max((text for record in records for text in record.texts), key=lambda pair: pair[0])[1]


def shared_run(ours: str, official: str, length: int = COPIED_RUN) -> str | None:
    words = re.findall(r"[a-z0-9{}']+", plain(official))
    mine = " " + " ".join(re.findall(r"[a-z0-9{}']+", plain(ours))) + " "
    for start in range(len(words) - length + 1):
        run = " ".join(words[start : start + length])
        if f" {run} " in mine:
            return run
    return None


@pytest.mark.parametrize("path", CARD_FILES, ids=lambda p: p.stem)
def test_card_file_holds_one_card_named_by_its_slug(path: Path) -> None:
    graph = parse(path)
    card, name = the_card(graph)
    assert str(card) == card_iri(name)
    assert path.stem == slugify(name)
    assert literals(graph, card, RDFS.label) == {name}
    assert not set(graph.subjects(u(V.oracleText), None)), "Oracle text comes from the importer only"
    for ability in abilities_of(graph, card):
        assert str(ability).rsplit("/", 1)[0] == mint("ability", name), (
            f"{ability} is not under {name}'s slug"
        )
        kinds = set(graph.objects(ability, RDF.type))
        assert kinds & {u(V.KeywordAbility), u(V.StaticAbility), u(V.TriggeredAbility)}, (
            f"{ability} has no ability class"
        )
        assert one(graph, ability, RDFS.label), f"{ability} has no rdfs:label"
        if u(V.KeywordAbility) in kinds:
            mechanics = list(graph.objects(ability, u(V.instantiates)))
            assert len(mechanics) == 1 and str(mechanics[0]).startswith(BASE + "mechanic/"), ability


@pytest.mark.parametrize("path", CARD_FILES, ids=lambda p: p.stem)
def test_card_facts_match_every_snapshot_that_has_the_card(
    path: Path, snapshots: dict[str, list[SnapshotCard]]
) -> None:
    graph = parse(path)
    card, name = the_card(graph)
    records = snapshots[name]
    if not records:
        assert CURATED_NOT_IN_SNAPSHOTS in literals(graph, card, V.fromSource), (
            f"{name} is in no snapshot; mark it mtgkb:fromSource {CURATED_NOT_IN_SNAPSHOTS!r} or fix the name"
        )
        return
    assert CURATED_NOT_IN_SNAPSHOTS not in literals(graph, card, V.fromSource), (
        f"{name} is marked {CURATED_NOT_IN_SNAPSHOTS!r} but {records[0].source} has it"
    )
    mana_cost = one(graph, card, V.manaCost)
    type_line = one(graph, card, V.typeLine)
    mana_value = next(graph.objects(card, u(V.manaValue)))
    assert isinstance(mana_value, Literal) and mana_value.datatype == namespace.XSD.decimal
    ours = {
        "mana cost": mana_cost,
        "mana value": float(mana_value.toPython()),
        "type line": plain(type_line),
        "supertypes": frozenset(literals(graph, card, V.supertype)),
        "types": frozenset(literals(graph, card, V.cardType)),
        "subtypes": frozenset(literals(graph, card, V.subtype)),
        "colors": frozenset(literals(graph, card, V.colors)),
        "color identity": frozenset(literals(graph, card, V.colorIdentity)),
        "power": one(graph, card, V.power),
        "toughness": one(graph, card, V.toughness),
        "oracle id": one(graph, card, V.oracleId),
        "commander legality": one(graph, card, V.commanderLegality),
        "layout": one(graph, card, V.layout),
    }
    # A double-faced card's type line has one part per face; the card carries the types of both.
    parts = [face.partition(" \u2014 ") for face in type_line.split(" // ")]
    assert sorted(ours["supertypes"] | ours["types"]) == sorted(
        {w for f, _, _ in parts for w in f.split()}
    ), "types disagree with type line"
    assert sorted(" ".join(ours["subtypes"]).split()) == sorted(
        {w for _, _, b in parts for w in b.split()}
    ), "subtypes disagree with type line"
    assert ours["supertypes"] <= SUPERTYPES
    problems = []
    for record in records:
        theirs = {
            "mana cost": record.mana_cost,
            "mana value": record.mana_value
            if record.mana_value is not None or record.mana_cost is None
            else cost_value(record.mana_cost),
            "type line": plain(record.type_line),
            "supertypes": record.supertypes,
            "types": record.types,
            "subtypes": record.subtypes,
            # CR 202.2: an object's colours are those of the mana symbols in its cost.
            "colors": record.colors if record.colors is not None else colours_in(record.mana_cost or ""),
            # CR 903.4: mana symbols in cost and rules text; reminder text does not count.
            "color identity": record.color_identity
            if record.color_identity is not None
            else colours_in((record.mana_cost or "") + re.sub(r"\([^)]*\)", "", newest_text([record]))),
            "power": record.power,
            "toughness": record.toughness,
            "oracle id": record.oracle_id,
            "commander legality": record.commander_legality,
            "layout": record.layout,
        }
        for fact, value in theirs.items():
            if value is not None and value != ours[fact]:
                problems.append(f"{fact}: ours {ours[fact]!r}, {record.source} {value!r}")
    # A fact we left out must be one that no snapshot has.
    for fact in ("oracle id", "commander legality", "power", "toughness"):
        attribute = fact.replace(" ", "_")
        known = {getattr(r, attribute) for r in records} - {None}
        if ours[fact] is None and known:
            problems.append(f"{fact}: missing, but snapshots say {known}")
    assert not problems, f"{name}:\n  " + "\n  ".join(problems)


FACE_FILES = [path for path in CARD_FILES if (u(V.hasFace) in set(parse(path).predicates()))]


@pytest.mark.parametrize("path", FACE_FILES, ids=lambda p: p.stem)
def test_each_face_matches_its_snapshot_face(path: Path, shared_data: Path) -> None:
    """Every face of a starter card with several faces has the characteristics of the MTGJSON face
    record of the same name: cost, mana value, type line and types, colours, colour indicator, size."""
    graph = parse(path)
    card, name = the_card(graph)
    with gzip.open(shared_data / "cards" / "mtgjson-atomic-merged-20260103.json.gz", "rt") as handle:
        records = {face.get("faceName"): face for face in json.load(handle)["data"][name]}
    faces = sorted(graph.objects(card, u(V.hasFace)), key=lambda face: int(one(graph, face, V.faceIndex)))
    assert [one(graph, face, V.name) for face in faces] == list(records)
    for face in faces:
        record = records[one(graph, face, V.name)]
        ours = {
            "mana cost": one(graph, face, V.manaCost),
            "mana value": float(one(graph, face, V.manaValue)),
            "type line": one(graph, face, V.typeLine),
            "supertypes": literals(graph, face, V.supertype),
            "types": literals(graph, face, V.cardType),
            "subtypes": literals(graph, face, V.subtype),
            "colours": literals(graph, face, V.colors),
            "colour indicator": literals(graph, face, V.colorIndicator),
            "power": one(graph, face, V.power),
            "toughness": one(graph, face, V.toughness),
        }
        theirs = {
            "mana cost": record.get("manaCost"),
            "mana value": record.get("faceManaValue", record.get("manaValue")),
            "type line": record["type"],
            "supertypes": set(record.get("supertypes") or []),
            "types": set(record.get("types") or []),
            "subtypes": set(record.get("subtypes") or []),
            "colours": set(record.get("colors") or []),
            "colour indicator": set(record.get("colorIndicator") or []),
            "power": record.get("power"),
            "toughness": record.get("toughness"),
        }
        assert ours == theirs, f"{name}, face {record['faceName']}"


@pytest.mark.parametrize("path", CARD_FILES, ids=lambda p: p.stem)
def test_abilities_are_printed_on_the_card(path: Path, snapshots: dict[str, list[SnapshotCard]]) -> None:
    graph = parse(path)
    card, name = the_card(graph)
    records = snapshots[name]
    if not records:
        pytest.skip(f"{name} is curated and in no snapshot")
    texts = [text for record in records for _, text in record.texts if text]
    newest = plain(newest_text(records))
    for ability in abilities_of(graph, card):
        cost = one(graph, ability, V.abilityCost)
        if cost:
            for text in texts:
                assert cost in text, f"{name}: cost {cost} of {ability} is not in {text!r}"
        if u(V.KeywordAbility) in set(graph.objects(ability, RDF.type)):
            label = one(graph, ability, RDFS.label)
            assert plain(label) in newest, f"{name}: {label!r} is not printed in {newest!r}"
        partner_text = one(graph, ability, V.partnerText)
        if partner_text:
            assert plain(f"Partner\u2014{partner_text}") in newest, f"{name}: no partner\u2014{partner_text}"
        for value in literals(graph, ability, V.grantedTo):
            assert plain(value) in newest, f"{name}: grant target {value!r} is not on the card"
        for literal in graph.objects(ability, None):
            if isinstance(literal, Literal) and (run := shared_run(str(literal), newest)):
                pytest.fail(f"{name}: {ability} copies Oracle text {run!r}")


def test_partner_with_names_a_card_that_names_it_back(
    authored: Graph, snapshots: dict[str, list[SnapshotCard]]
) -> None:
    pairs = list(authored.subject_objects(u(V.partnerWith)))
    assert pairs, "the starter set should include partner-with cards"
    for ability, partner in pairs:
        card = next(authored.subjects(u(V.hasAbility), ability))
        name = one(authored, card, V.name)
        partner_name = one(authored, partner, V.name)
        assert partner_name, f"{name}'s partner {partner} is not an authored card"
        assert one(authored, ability, V.partnerWithName) == partner_name
        back = {
            str(other)
            for other_ability in authored.objects(partner, u(V.hasAbility))
            for other in authored.objects(other_ability, u(V.partnerWith))
        }
        assert back == {str(card)}, f"{partner_name} does not name {name} back"
        for who, other in ((name, partner_name), (partner_name, name)):
            if snapshots[who]:
                assert plain(f"Partner with {other}") in plain(newest_text(snapshots[who]))


@pytest.mark.parametrize("path", RULING_FILES, ids=lambda p: p.stem)
def test_curated_rulings_are_real_rulings_of_their_card(
    path: Path, authored: Graph, snapshots: dict[str, list[SnapshotCard]]
) -> None:
    graph = parse(path)
    rulings = list(graph.subjects(RDF.type, u(V.Ruling)))
    assert rulings, f"{path.name} holds no mtgkb:Ruling"
    for ruling in rulings:
        cards = list(graph.objects(ruling, u(V.aboutCard)))
        assert len(cards) == 1, f"{ruling} needs exactly one mtgkb:aboutCard"
        name = one(authored, cards[0], V.name)
        assert name, f"{ruling} is about {cards[0]}, which is not in data/cards"
        assert path.stem == slugify(name)
        official = {
            ruling_iri(name, date, text): (date, text)
            for record in snapshots[name]
            for date, text in record.rulings
        }
        assert str(ruling) in official, (
            f"{ruling}: no ruling of {name} in the snapshots has this date and text"
        )
        date, text = official[str(ruling)]
        assert set(graph.objects(ruling, u(V.rulingDate))) == {Literal(date, datatype=namespace.XSD.date)}
        assert literals(graph, ruling, V.rulingSource) == {"wotc"}
        assert not literals(graph, ruling, V.text), "official ruling text comes from the importer only"
        assert one(graph, ruling, RDFS.label), f"{ruling} has no rdfs:label"
        summary = one(graph, ruling, V.summary)
        assert summary, f"{ruling} has no summary"
        assert not shared_run(summary, text), f"{ruling}: summary copies the official wording"
        assert set(graph.objects(ruling, u(V.mentions))), f"{ruling} mentions nothing"
        for rule in graph.objects(ruling, u(V.citesRule)):
            assert str(rule) == mint("cr", str(rule).rsplit("/", 1)[1]), f"{rule} is not a rule IRI"

"""Source-neutral card records: what the MTGJSON and Scryfall readers produce and the card writer
turns into quads, plus the summary an import returns. Plain dataclasses, cheap to import."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(slots=True)
class FaceRecord:
    """One face of a card with several faces (a single-faced card has no FaceRecord), or the
    combined back face of a meld pair, with its own characteristics as printed."""

    name: str
    mana_cost: str | None = None
    mana_value: float | None = None  # of this face's own mana cost (0 for most back faces)
    type_line: str | None = None
    supertypes: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    subtypes: list[str] = field(default_factory=list)
    oracle_text: str | None = None
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    defense: str | None = None
    colors: list[str] | None = None
    color_indicator: list[str] | None = None
    known_only_by_name: bool = False  # the card's name names it, the data gives nothing else


@dataclass(slots=True)
class PrototypeRecord:
    """The inset mana cost, power and toughness of a prototype card (CR 718.2)."""

    mana_cost: str
    power: str
    toughness: str


@dataclass(slots=True)
class CardRecord:
    """One Oracle card. Multi-valued fields are lists in printed order; None means "not given"."""

    name: str
    oracle_id: str | None = None
    layout: str | None = None
    mana_cost: str | None = None
    mana_value: float | None = None
    type_line: str | None = None
    supertypes: list[str] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    subtypes: list[str] = field(default_factory=list)
    oracle_text: str | None = None
    power: str | None = None
    toughness: str | None = None
    loyalty: str | None = None
    defense: str | None = None
    color_identity: list[str] | None = None
    colors: list[str] | None = None
    color_indicator: list[str] | None = None
    commander_legality: str | None = None
    legalities: dict[str, str] = field(default_factory=dict)  # format -> "legal", "banned", …
    funny: bool = False  # printed for a joke product (MTGJSON isFunny, Scryfall set_type "funny")
    faces: list[FaceRecord] = field(default_factory=list)
    prototype: PrototypeRecord | None = None
    # The combined back face this meld card forms with its counterpart ("A // B" names it B).
    melds_into: str | None = None
    # The record is itself the combined back face of a meld pair, listed as if it were a card.
    melded_face: bool = False

    def texts(self) -> list[tuple[str, str | None]]:
        """(name, Oracle text) of each face, or of the card when it has one face: abilities are read
        face by face so "Partner with itself" names the face."""
        if self.faces:
            return [(face.name, face.oracle_text) for face in self.faces]
        return [(self.name, self.oracle_text)]


@dataclass(slots=True)
class RulingRecord:
    card_name: str
    date: str  # YYYY-MM-DD
    text: str
    source: str  # "wotc" or "scryfall"


@dataclass
class CardImportSummary:
    """What a card import did: counts per kind of node, the files written and how long it took."""

    source: str
    files: list[str]
    cards: int
    faces: int
    abilities: dict[str, int]
    granted_abilities: dict[str, int]
    changing_abilities: dict[str, int]  # mechanic -> abilities that change its abilities (their cost)
    rulings: int
    rulings_without_card: int
    unresolved_partners: list[str]
    skipped_records: int
    skipped_names: dict[str, str]  # card name -> why it has no card node
    quads: int
    outputs: list[str]
    store_triples: int
    seconds: float
    faces_known_only_by_name: int = 0  # faces the card's name gives but its data does not describe
    melded_faces: int = 0  # records read as the combined back face of a meld pair, not as cards

"""What a verdict on using a card says, beside the shared contract: the objects that could pay its
cost, what follows, the rulings, the other ways tried, and each ability's own verdict."""

from __future__ import annotations

from dataclasses import dataclass, field

from mtgkb.reasoning.contract import Check, Verdict


@dataclass
class Candidate:
    """An object that could pay the cost (the creature ninjutsu would return)."""

    name: str
    controller: str
    owner: str
    token: bool
    commander: bool
    attacking: str | None
    blocked: str | None
    pays: str = ""  # the cost it would pay: "Sacrifice an artifact"
    returned: bool = False  # returned to its owner's hand, as ninjutsu's attacker is


@dataclass
class OutcomeEntry:
    outcome: str
    summary: str
    cites: list[str]


@dataclass
class RulingNote:
    date: str | None
    text: str | None  # the official wording, once card data is imported
    summary: str | None  # our own words
    about: str | None  # the card the ruling is about
    general: bool = False  # a ruling on the mechanic published on another card


@dataclass
class WayTried:
    """Another way of doing it, with its own verdict in the shared contract."""

    ability: str
    via: str
    answer: bool | None
    cost: str | None
    checks: list[Check] = field(default_factory=list)
    cites: list[str] = field(default_factory=list)
    face: str | None = None
    candidates: list[Candidate] = field(default_factory=list)
    outcome: list[OutcomeEntry] = field(default_factory=list)


@dataclass
class AbilityVerdict:
    """One activated ability of a card with several, in the shared contract: its own answer, checks
    and rules."""

    ability: str
    answer: bool | None
    checks: list[Check]
    cites: list[str]
    cost: str | None


@dataclass
class ActionVerdict(Verdict):
    question: str
    card: str
    player: str
    action: str  # "activate" or "cast"
    via: str | None  # the mechanic used, by its slug: "ninjutsu", "casting", "sneak"
    ability: str | None
    mechanic: str | None
    granted_by: str | None
    cost: str | None
    life: int
    candidates: list[Candidate]
    outcome: list[OutcomeEntry]
    rulings: list[RulingNote]
    alternatives: list[WayTried] = field(default_factory=list)
    face: str | None = None  # the face cast (a split card's half, an Adventure, a modal DFC's face)
    rulings_more: int = 0  # rulings on the card or mentioning the mechanic that are not listed
    rulings_see: list[str] = field(default_factory=list)  # the commands that list them
    # A card with several activated abilities, asked without --ability: each one's verdict. The
    # answer is yes when one can be activated now, else cannot tell when one cannot be told, else no.
    abilities: list[AbilityVerdict] = field(default_factory=list)

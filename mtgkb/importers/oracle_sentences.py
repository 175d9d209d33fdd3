"""Sentences of a card's text that change its own actions: "This ability costs {1} less to activate
for each legendary creature you control", "This spell costs {2} more to cast", "Cast this spell only
during your turn", "As an additional cost to cast this spell, sacrifice a creature", "Spend only black
mana on X". No phrase of the curated data reads them yet, so each is kept as unread: a verdict on the
action they change cannot tell, never a guess (a cost change only where it could change the answer
about paying, see :func:`cost_change_direction`).

Which reader claims each sentence of a card's text that speaks of the card's own action is said by
:func:`claimed_sentences`, for the pool test and the census. Pure functions over strings."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mtgkb.importers.oracle_abilities import split_reminder
from mtgkb.importers.oracle_text import ABILITY_WORD, TRIGGER, named, split_cost, unnamed

_SENTENCE = re.compile(r"(?<=[.!])\s+")

# "This ability costs {1} less to activate ...", "This spell costs {X} more to cast ...", "CARDNAME
# costs {1} less to cast ...", "If ..., this spell costs ..."; "to cast this way" belongs to the
# keyword it follows ("Flashback {8}{G}{G}. This spell costs {X} less to cast this way"), which keeps
# it unread itself.
_COST_CHANGE = re.compile(
    r"\b(?:this (?:spell|ability)|CARDNAME) costs? (?:(?:\{[^{}]+\})+|x) (?P<direction>less|more) to"
    r" (?:activate|cast)\b",
    re.IGNORECASE,
)
# Sentences of an activated ability that change who may activate it or how it is paid, which the
# "Activate only ..." restrictions (oracle_activated) do not claim.
_ABILITY_CHANGE = re.compile(
    r"\b(?:may|can't|cannot) activate this ability\b|^spend only\b|\bthis ability can't be activated\b",
    re.IGNORECASE,
)
# Sentences of a card's text that change how the card itself is cast.
_CAST_CHANGE = re.compile(
    r"\bcast (?:this spell|CARDNAME) only\b|\bas an additional cost to cast (?:this spell|CARDNAME)\b"
    r"|^spend only\b|\b(?:can't|cannot) cast (?:this spell|CARDNAME)\b|\bthis spell can't be cast\b"
    r"|\bas this spell's target\b|\bcan't spend mana to cast\b|\bthis spell costs\b"
    r"|\bthe amount of mana this spell costs\b",
    re.IGNORECASE,
)
# Sentences that let the card be cast where or for what the rest of its text would not: "You may cast
# this spell as though it had flash if you pay {2} more to cast it", "As long as you've discarded a
# card this turn, you may pay {B/R} to cast this spell". Those a keyword reader reads ("You may cast
# this spell as though it had flash.") are its own.
_CAST_PERMISSION = re.compile(
    r"\byou may cast (?:this spell|CARDNAME)\b|\byou may pay [^.]* to cast (?:this spell|CARDNAME)\b"
    r"|\brather than pay (?:this spell's|CARDNAME's) mana cost\b",
    re.IGNORECASE,
)
# Sentences that speak of casting or activating the card without changing the action: what its
# effect does with how it was cast or paid for ("If {W} was spent to cast this spell", "where X is the
# number of Bobbleheads you control as you activate this ability", "enters with ... if you cast it").
_EFFECT = re.compile(
    r"\bspent to (?:cast|activate)\b|\bas you (?:cast|activated?) (?:this|it)\b|\bwas cast\b"
    r"|\bif you cast (?:it|this spell)\b|\bcost was paid\b|\bwas bargained\b|\bhas been activated\b"
    r"|\bcasting cost\b|\bactivated abilities of\b|\byou've cast\b",
    re.IGNORECASE,
)
# What a sentence says of the card's own action, for the census of claims: the card named, "this
# spell", "this ability", or a spending rule.
_OWN_ACTION = re.compile(
    r"\b(?:this spell|this ability|CARDNAME)\b[^.]*\b(?:cost|costs|cast|activate|activated)\b"
    r"|\b(?:cast|activate) (?:this spell|this ability|CARDNAME)\b|^spend only\b",
    re.IGNORECASE,
)


def cost_change_direction(sentence: str) -> str | None:
    """ "less" or "more" for a sentence that changes the cost of the card's own spell or ability;
    None for any other sentence."""
    match = _COST_CHANGE.search(sentence)
    return match.group("direction").lower() if match else None


def is_ability_change(sentence: str) -> bool:
    """Whether a sentence of an activated ability's effect changes its activation: its cost, who
    may activate it, how it is paid."""
    plain = sentence.strip()
    return cost_change_direction(plain) is not None or bool(_ABILITY_CHANGE.search(plain))


def ability_changes(effect: str, name: str | None = None) -> list[str]:
    """The sentences of an activated ability's effect that change its activation (its cost, who
    may activate it, how it is paid) and that no "Activate only ..." restriction claims, as printed."""
    plain = re.sub(r"\"[^\"]*\"|\u201c[^\u201d]*\u201d", '""', named(effect.replace("\u2019", "'"), name))
    found = [
        s.strip()
        for s in _SENTENCE.split(plain)
        if s.strip() and not s.strip().lower().startswith(("activate", "any player may activate"))
    ]
    return [unnamed(s, name) for s in found if is_ability_change(s)]


@dataclass(frozen=True, slots=True)
class CastSentences:
    """The sentences of a card face's text that change how it is cast, none of them read."""

    cost_changes: tuple[str, ...] = ()  # "This spell costs {1} less to cast for each ..."
    others: tuple[str, ...] = ()  # "Cast this spell only during your turn", an additional cost
    permissions: tuple[str, ...] = ()  # "You may cast this spell as though it had flash if you pay {2} more"


def read_cast_sentences(oracle_text: str | None, name: str | None = None) -> CastSentences:
    """The sentences of ``oracle_text`` (one face) that change how the card is cast, outside its
    activated abilities' lines, its triggers and quoted abilities."""
    cost_changes: list[str] = []
    others: list[str] = []
    permissions: list[str] = []
    for sentence, line_kind in _sentences(oracle_text, name):
        if line_kind != "text" or TRIGGER.match(sentence) or "this way" in sentence.lower():
            continue
        printed = unnamed(sentence, name)
        if _CAST_PERMISSION.search(sentence):
            permissions.append(printed)
        elif cost_change_direction(sentence) is not None:
            cost_changes.append(printed)
        elif _CAST_CHANGE.search(sentence):
            others.append(printed)
    if permissions:  # those a keyword reader reads are not unread
        read = _keyword_lines(oracle_text, name)
        permissions = [p for p in permissions if not any(p in line for line in read)]
    return CastSentences(*(tuple(dict.fromkeys(found)) for found in (cost_changes, others, permissions)))


def _keyword_lines(oracle_text: str | None, name: str | None) -> set[str]:
    """The lines of the text a keyword reader (oracle_abilities) reads, as printed."""
    from mtgkb.importers.oracle_abilities import recognise_abilities

    return {ability.text.strip().replace("\u2019", "'") for ability in recognise_abilities(oracle_text, name)}


@dataclass(frozen=True, slots=True)
class Claim:
    """A sentence of a card's text that speaks of the card's own action, and the reader claiming it
    (None: no reader, which a test fails on)."""

    sentence: str
    reader: str | None


def claimed_sentences(oracle_text: str | None, name: str | None = None) -> list[Claim]:
    """Each sentence of ``oracle_text`` speaking of the card's own spell or ability, with who
    claims it: "restriction" ("Activate only ...", read by a phrase or kept unread by
    oracle_activated), "ability-sentence" and "cast-sentence" (kept unread here), "cost" (the cost
    of an activated ability), "keyword" (a keyword ability's line), "trigger" (a triggered ability)
    "effect" (what an effect does with how the card was cast or paid for) and "quoted" (an ability it
    gives another object), which do not change the action, or None."""
    keyword_lines = _keyword_lines(oracle_text, name)
    claims = []
    for sentence, line_kind in _sentences(oracle_text, name, keep_line=True):
        text, line = sentence
        if not _OWN_ACTION.search(text):
            continue
        printed = unnamed(text, name)
        if TRIGGER.match(text):
            reader: str | None = "trigger"
        elif line_kind == "cost":
            reader = "cost"
        elif line_kind == "ability" and text.lower().startswith(("activate", "any player may activate")):
            reader = "restriction"
        elif line_kind == "ability" and is_ability_change(text):
            reader = "ability-sentence"
        elif line.strip().replace("\u2019", "'") in keyword_lines:
            reader = "keyword"
        elif line_kind == "text" and (
            cost_change_direction(text) or _CAST_CHANGE.search(text) or _CAST_PERMISSION.search(text)
        ):
            reader = "cast-sentence"
        elif _EFFECT.search(text):
            reader = "effect"
        elif '""' in text:  # a quoted ability the card gives another object is that object's
            reader = "quoted"
        else:
            reader = None
        claims.append(Claim(printed, reader))
    return claims


def _sentences(oracle_text: str | None, name: str | None, keep_line: bool = False):
    """(sentence, kind) for each sentence of the text outside reminders and quotation marks, with
    the card's name as CARDNAME; kind is "cost" for the cost of an activated ability's line,
    "ability" for a sentence of its effect, "text" for any other line's. With ``keep_line``, the
    sentence comes with its printed line."""

    for raw in (oracle_text or "").splitlines():
        body, _reminder = split_reminder(raw.strip())
        body = ABILITY_WORD.sub("", named(body.replace("\u2019", "'"), name), count=1)
        body = re.sub(r"\"[^\"]*\"|\u201c[^\u201d]*\u201d", '""', body)  # a quoted ability is its own
        cost, effect = split_cost(body)
        parts = [(cost, "cost")] if cost is not None else []
        rest = effect if effect is not None else body
        parts += [(s, "ability" if cost is not None else "text") for s in _SENTENCE.split(rest) if s.strip()]
        for text, kind in parts:
            yield ((text.strip(), raw) if keep_line else text.strip()), kind

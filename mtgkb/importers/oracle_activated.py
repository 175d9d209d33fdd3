"""Our own reading of the activated abilities in Oracle text (CR 602): every "[Cost]: [Effect]" line
of a card face that is not a keyword ability, with the requirements its cost parts, its "Activate
only ..." sentences and its targets add, read through the phrase table of the curated data
(``data/mechanics/activation-phrases.ttl``). A part no phrase reads is kept as unmodelled, so that a verdict
on the ability says it cannot tell rather than guess.

Pure functions over strings, no I/O beyond the phrase table: the card writer calls
:func:`read_activated_abilities` once per card face."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mtgkb.importers.activation_table import ActivationTable, Phrase, Template, activation_table
from mtgkb.importers.oracle_abilities import split_reminder
from mtgkb.kb.iris import mint

#: Requirements every ability of a given kind has by default, and those the zone it works from adds.
_ZONE_REQUIREMENTS = {
    mint("zone", "battlefield"): mint("requirement", "source-on-the-battlefield"),
    mint("zone", "hand"): mint("requirement", "card-in-hand"),
    mint("zone", "graveyard"): mint("requirement", "card-in-your-graveyard"),
}
_BATTLEFIELD = mint("zone", "battlefield")

# "Channel — {1}{G}, Discard this card: ..." : an ability word (207.2c) before the ability.
_ABILITY_WORD = re.compile(r"^[A-Z][A-Za-z' ]{2,30} \u2014 ")
# "+1: ..." as printed, "[+1]: ..." as MTGJSON writes a loyalty cost.
_LOYALTY = re.compile(r"^\[?(?P<sign>[+\u2212-]?)(?P<amount>\d+|X)\]?: (?P<effect>.+)$")
_TRIGGER = re.compile(r"^(?:when|whenever|at)\b", re.IGNORECASE)
_UP_TO = re.compile(
    r"\bup to (?:one|two|three|four|five|x|\d+)(?: other)? target [a-z' ]+?(?=[,.]|$| and )", re.I
)
_TARGET = re.compile(r"\btarget\b[a-z' ]{0,40}", re.IGNORECASE)
# "target creature or player": a player can always be chosen, so a legal target exists.
_OR_PLAYER = re.compile(
    r"\btarget (?:[a-z]+ )?(?:creature|planeswalker|permanent|battle)(?:, [a-z]+)*,? or player\b"
    r"|\btarget player or [a-z]+\b",
    re.I,
)
# "target artifact, enchantment, or land": one of several kinds, which no single phrase reads.
_COMPOUND = re.compile(
    r"\btarget [a-z' ]+?(?:, [a-z' ]+?)*,? (?:or|and/or) [a-z' ]+?(?=[.,;]|$| to | gets | gains | deals )",
    re.I,
)
_SENTENCE = re.compile(r"(?<=[.!])\s+")
_MINUS = "\u2212"
_TAPS_CREATURES = re.compile(r"^(Crew|Saddle) \d+$")


@dataclass(frozen=True, slots=True)
class ActivatedAbility:
    """One activated ability read from a line of Oracle text."""

    text: str  # the line as printed
    cost: str  # the cost as printed: "{2}, {T}, Sacrifice Mind Stone"
    effect: str
    mechanic: str  # slug: "activated-ability", "mana-ability" or "loyalty-ability"
    requirements: tuple[str, ...]  # requirement IRIs of the curated data
    unmodelled: tuple[str, ...]  # parts no phrase reads
    loyalty_removed: int | None = None  # "−3": three loyalty counters must be there to remove
    # Requirements that take a number the text gives ("Pay 3 life"): (template, value) to mint.
    numbered: tuple[tuple[Template, str], ...] = ()

    @property
    def label(self) -> str:
        if not self.effect:
            return self.cost
        effect = self.effect if len(self.effect) <= 60 else self.effect[:57].rstrip(" ,.") + "..."
        return f"{self.cost}: {effect}"


def read_activated_abilities(
    oracle_text: str | None, name: str | None = None, table: ActivationTable | None = None
) -> list[ActivatedAbility]:
    """Every "[Cost]: [Effect]" ability in ``oracle_text`` (one card face), in printed order."""
    if not oracle_text or ":" not in oracle_text:
        return []
    table = table or activation_table()
    found = []
    for raw in oracle_text.splitlines():
        ability = _read_line(raw.strip(), name, table)
        if ability is not None and ability not in found:
            found.append(ability)
    return found


def _read_line(line: str, name: str | None, table: ActivationTable) -> ActivatedAbility | None:
    body, reminder = split_reminder(line)
    body = body.replace("\u2019", "'")
    body = _ABILITY_WORD.sub("", body, count=1)
    loyalty = _LOYALTY.match(body)
    if loyalty:
        return _loyalty(line, loyalty, table)
    keyword = _TAPS_CREATURES.match(body)
    if keyword:  # "Crew 3": its cost is tapping creatures, read by the phrase table
        phrase, match = _cost_phrase(table, body)
        if phrase is not None and match is not None and phrase.template is not None:
            mechanic = keyword.group(1).lower()
            numbered = ((phrase.template, _number_value(match)),)
            return ActivatedAbility(line, body, "", mechanic, (), (), None, numbered)
    cost, effect = _split_cost(body)
    if cost is None or effect is None:
        return None
    named = _named(cost, name)
    requirements: list[str] = []
    unmodelled: list[str] = []
    numbered: list[tuple[Template, str]] = []
    zone = _BATTLEFIELD
    for part in _cost_parts(named):
        phrase, match = _cost_phrase(table, part)
        if phrase is None or match is None:
            unmodelled.append(_unnamed(part, name))
            continue
        requirements += phrase.requirements
        zone = phrase.zone or zone
        if phrase.template is not None:
            numbered.append((phrase.template, _number_value(match)))
    sentences = [s for s in _SENTENCE.split(effect) if s] + [s for s in _SENTENCE.split(reminder or "") if s]
    for sentence in sentences:
        plain = _named(sentence.strip().rstrip("."), name)
        if not plain.lower().startswith(("activate", "any player may activate")):
            continue
        phrase = next((p for p in table.restrictions if p.pattern.fullmatch(plain)), None)
        if phrase is None:
            unmodelled.append(_unnamed(plain, name))
            continue
        requirements += phrase.requirements
        zone = phrase.zone or zone
    targets, missing = _targets(effect, table)
    requirements += targets
    unmodelled += missing
    requirements.insert(0, _ZONE_REQUIREMENTS[zone])
    mechanic = "mana-ability" if _is_mana_ability(effect) else "activated-ability"
    return ActivatedAbility(
        line,
        cost,
        effect,
        mechanic,
        tuple(dict.fromkeys(requirements)),
        tuple(dict.fromkeys(unmodelled)),
        numbered=tuple(numbered),
    )


_NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7}


def _number_value(match: re.Match[str]) -> str:
    """The number a phrase read ("3", "two"), as digits, after its counter kind when it has one."""
    groups = match.groupdict()
    raw = (groups.get("n") or "1").lower()
    number = str(_NUMBER_WORDS.get(raw, raw))
    kind = groups.get("kind")
    return f"{kind.lower()}={number}" if kind else number


def _cost_phrase(table: ActivationTable, part: str) -> tuple[Phrase | None, re.Match[str] | None]:
    """The first cost phrase that reads the whole of ``part``, and its match."""
    for phrase in table.costs:
        match = phrase.pattern.fullmatch(part)
        if match is not None:
            return phrase, match
    return None, None


def _loyalty(line: str, match: re.Match[str], table: ActivationTable) -> ActivatedAbility:
    sign, amount, effect = match.group("sign"), match.group("amount"), match.group("effect")
    minus = sign in ("-", _MINUS)
    cost = (_MINUS if minus else sign) + amount
    removed = int(amount) if minus and amount.isdigit() and int(amount) > 0 else None
    targets, missing = _targets(effect, table)
    return ActivatedAbility(line, cost, effect, "loyalty-ability", tuple(targets), tuple(missing), removed)


def _split_cost(body: str) -> tuple[str | None, str | None]:
    """("{2}, {T}", "Draw a card.") from "{2}, {T}: Draw a card."; (None, None) for a line that is no
    activated ability (a trigger, a quoted ability, a sentence with a colon in it)."""
    head, colon, effect = body.partition(": ")
    if not colon or not head or _TRIGGER.match(head) or len(head) > 120:
        return None, None
    if any(mark in head for mark in ('"', ".", "\u201c", ";")):
        return None, None
    if not (head.startswith("{") or head[:1].isupper()):
        return None, None
    return head, effect.strip()


def _cost_parts(cost: str) -> list[str]:
    """ "{2}, {T}, Sacrifice CARDNAME" -> ["{2}", "{T}", "Sacrifice CARDNAME"]; "{1}{T}" reads as
    its mana and its {T}."""
    parts = []
    for part in re.split(r",\s*|\s+and\s+(?=[a-z{])", cost):
        part = part.strip()
        if not part:
            continue
        symbols = re.fullmatch(
            r"(?P<mana>(?:\{[^{}]+\})*?)(?P<tap>(?:\{[TQ]\})+)(?P<rest>(?:\{[^{}]+\})*)", part
        )
        if symbols and (symbols.group("mana") or symbols.group("rest")):
            parts += [p for p in (symbols.group("mana"), *re.findall(r"\{[TQ]\}", symbols.group("tap"))) if p]
            if symbols.group("rest"):
                parts.append(symbols.group("rest"))
            continue
        parts.append(part)
    return parts


def _targets(effect: str, table: ActivationTable) -> tuple[list[str], list[str]]:
    """The requirements the targets of ``effect`` add, and the targets no phrase reads."""
    rest = _UP_TO.sub(" ", effect)  # "up to one target": none need be chosen
    rest = _OR_PLAYER.sub(" ", rest)
    missing = [m.group(0).strip() for m in _COMPOUND.finditer(rest)]
    rest = _COMPOUND.sub(" ", rest)
    requirements: list[str] = []
    for phrase in table.targets:
        if phrase.pattern.search(rest):
            requirements += phrase.requirements
            rest = phrase.pattern.sub(" ", rest)
    missing += [m.group(0).strip() for m in _TARGET.finditer(rest)]
    return requirements, missing


def _is_mana_ability(effect: str) -> bool:
    """605.1a: no target, and it could add mana (its first sentence adds some)."""
    first = effect.split(".")[0].lower()
    return "target" not in effect.lower() and bool(
        re.match(r"^add\b|^.*\badd (?:\{|one|two|three|x |an amount)", first)
    )


def _named(text: str, name: str | None) -> str:
    if not name:
        return text
    text = text.replace(name, "CARDNAME")
    short = name.split(",")[0]
    return text.replace(short, "CARDNAME") if short != name and len(short) > 3 else text


def _unnamed(text: str, name: str | None) -> str:
    return text.replace("CARDNAME", name or "this") if name else text

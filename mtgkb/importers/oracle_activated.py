"""Our own reading of the activated abilities in Oracle text (CR 602): every "[Cost]: [Effect]" line
of a card face that is not a keyword ability, with the requirements its cost parts, its "Activate
only ..." sentences and its targets add, read through the phrase table of the curated data
(``data/mechanics/activation-phrases.ttl``). A part no phrase reads is kept as unmodelled, so that a verdict
on the ability says it cannot tell rather than guess.

Pure functions over strings, no I/O beyond the phrase table: the card writer calls
:func:`read_activated_abilities` once per card face."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass

from mtgkb.importers.activation_table import ActivationTable, Phrase, Template, Word, activation_table
from mtgkb.importers.oracle_abilities import split_reminder
from mtgkb.importers.oracle_sentences import ability_changes, cost_change_direction
from mtgkb.importers.oracle_text import ABILITY_WORD, named, split_cost, unnamed
from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import V

#: Requirements every ability of a given kind has by default, and those the zone it works from adds.
_ZONE_REQUIREMENTS = {
    mint("zone", "battlefield"): mint("requirement", "source-on-the-battlefield"),
    mint("zone", "hand"): mint("requirement", "card-in-your-hand"),
    mint("zone", "graveyard"): mint("requirement", "card-in-your-graveyard"),
}
_BATTLEFIELD = mint("zone", "battlefield")

# "+1: ..." as printed, "[+1]: ..." as MTGJSON writes a loyalty cost.
_LOYALTY = re.compile(r"^\[?(?P<sign>[+\u2212-]?)(?P<amount>\d+|X)\]?: (?P<effect>.+)$")
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
_QUOTED = re.compile(r"[\"\u201c][^\"\u201d]*[\"\u201d]")
_MINUS = "\u2212"
_TAPS_CREATURES = re.compile(r"^(Crew|Saddle) \d+$")


@dataclass(frozen=True, slots=True)
class Minted:
    """A requirement minted for one ability from a template: "Pay 3 life", "Sacrifice two Goblins"."""

    template: Template
    value: str  # the number read ("3"), after its counter kind when it has one ("oil=1")
    facts: tuple[tuple[str, str, bool], ...] = ()  # what the words of a description add
    text: str = ""  # the part of the ability it was read from


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
    # Requirements that take a number or a description the text gives ("Pay 3 life"), to mint.
    numbered: tuple[Minted, ...] = ()
    waived: tuple[str, ...] = ()  # requirements of its mechanic it lifts ("Any player may activate")
    cost_changes: tuple[str, ...] = ()  # unread sentences changing its cost ("This ability costs {1} less")

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
    body = ABILITY_WORD.sub("", body, count=1)
    loyalty = _LOYALTY.match(body)
    if loyalty:
        return _loyalty(line, loyalty, table)
    keyword = _TAPS_CREATURES.match(body)
    if keyword:  # "Crew 3": its cost is tapping creatures, read by the phrase table
        phrase, match = _first_match(table.costs, body)
        if phrase is not None and match is not None and phrase.template is not None:
            mechanic = keyword.group(1).lower()
            crew = _minted(phrase.template, match, table, body)
            numbered = (crew,) if crew else ()
            return ActivatedAbility(line, body, "", mechanic, (), (), None, numbered)
    cost, effect = split_cost(body)
    if cost is None or effect is None:
        return None
    cost_named = named(cost, name)
    requirements: list[str] = []
    unmodelled: list[str] = []
    numbered: list[Minted] = []
    zone = _BATTLEFIELD
    zone_requirements: tuple[str, ...] = ()  # those of the phrase that said where the ability works
    sentences = [s for s in _SENTENCE.split(effect) if s] + [s for s in _SENTENCE.split(reminder or "") if s]
    waived: list[str] = []
    # An effect that moves the card itself says where the ability works (113.6m); a cost part that
    # sets a zone comes after it, as the cost is paid first ("Sacrifice CARDNAME: Return CARDNAME
    # from your graveyard ..." works on the battlefield).
    effect_named = _QUOTED.sub(" ", named(effect, name))  # a quoted ability is another object's
    for phrase in table.effects:
        if phrase.zone and phrase.pattern.search(effect_named):
            zone, zone_requirements = phrase.zone, phrase.requirements
            break
    # Each part of the cost, then each "Activate only ..." clause, read by its phrases.
    parts = [(table.costs, part) for part in _cost_parts(cost_named)]
    parts += [(table.restrictions, clause) for clause in _restrictions(sentences, name)]
    for phrases, part in parts:
        phrase, minted = _read_part(phrases, part, table, name)
        if phrase is None:
            unmodelled.append(unnamed(part, name))
            continue
        if phrase.zone:  # its requirements are the zone's own (113.6m), kept only while it decides
            zone, zone_requirements = phrase.zone, phrase.requirements
        else:
            requirements += phrase.requirements
        waived += phrase.waives
        if minted is not None:
            numbered.append(minted)
    targets, missing, minted = read_targets(effect, table)
    requirements += targets
    unmodelled += missing
    numbered += minted
    # "Only your opponents may activate this ability" is unmodelled; "This ability costs {1} less to
    # activate for each ..." is for the paying check, which cannot tell only where it could decide.
    changes = ability_changes(effect, name)
    unmodelled += [change for change in changes if not cost_change_direction(change)]
    requirements[:0] = zone_requirements or (_ZONE_REQUIREMENTS[zone],)
    mechanic = "mana-ability" if _is_mana_ability(effect) else "activated-ability"
    return ActivatedAbility(
        line,
        cost,
        effect,
        mechanic,
        tuple(dict.fromkeys(requirements)),
        tuple(dict.fromkeys(unmodelled)),
        numbered=tuple(numbered),
        waived=tuple(dict.fromkeys(waived)),
        cost_changes=tuple(c for c in changes if cost_change_direction(c)),
    )


@dataclass(frozen=True, slots=True)
class CostReading:
    """What the parts of a keyword ability's cost beyond its mana add."""

    requirements: tuple[str, ...] = ()  # requirement IRIs of the curated data
    unmodelled: tuple[str, ...] = ()  # parts no phrase reads
    numbered: tuple[Minted, ...] = ()  # requirements to mint ("Pay 2 life")


_MANA_ALONE = re.compile(r"(?:\{[^{}]+\})+")


def read_keyword_cost(
    cost: str | None, name: str | None = None, table: ActivationTable | None = None
) -> CostReading:
    """A keyword ability's cost ("{R}{R}, Exile five other cards from your graveyard", "Pay 2 life")
    read part by part by the phrases that read an activated ability's; nothing for mana alone. The
    zone a phrase sets is not kept: the keyword's mechanic says where its ability works."""
    if not cost or _MANA_ALONE.fullmatch(cost):
        return CostReading()
    table = table or activation_table()
    requirements: list[str] = []
    unmodelled: list[str] = []
    numbered: list[Minted] = []
    for part in _cost_parts(named(cost.replace("\u2019", "'"), name)):
        phrase, minted = _read_part(table.costs, part, table, name)
        if phrase is None:
            unmodelled.append(unnamed(part, name))
            continue
        requirements += phrase.requirements
        if minted is not None:
            numbered.append(minted)
    return CostReading(tuple(dict.fromkeys(requirements)), tuple(dict.fromkeys(unmodelled)), tuple(numbered))


# "If an opponent controls a Mountain and you control an Island": one restriction per clause.
_CONDITION_AND = re.compile(r",? and (?=you control |an opponent controls )", re.IGNORECASE)


def read_condition(
    condition: str | None, name: str | None = None, table: ActivationTable | None = None
) -> CostReading:
    """The condition an alternative cost is offered on ("If you control a Forest"), read clause by
    clause by the restriction phrases, as "Activate only if you control a Forest" is; a clause they
    do not read leaves the whole condition unread."""
    if not condition:
        return CostReading()
    table = table or activation_table()
    requirements: list[str] = []
    numbered: list[Minted] = []
    for clause in _CONDITION_AND.split(named(condition.replace("\u2019", "'"), name)):
        phrase, minted = _read_part(table.restrictions, f"activate only if {clause.strip()}", table, name)
        if phrase is None:
            return CostReading(unmodelled=(f"If {condition}",))
        requirements += phrase.requirements
        numbered += [dataclasses.replace(minted, text=f"if {clause.strip()}")] if minted is not None else []
    return CostReading(tuple(dict.fromkeys(requirements)), (), tuple(numbered))


# "X" is the least the player may choose: 0 (107.3).
_NUMBER_WORDS = {
    **{"a": 1, "an": 1, "another": 1, "x": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5},
    **{"six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10, "once": 1, "twice": 2},
    **{"any number of": 0, "all": 0},
}
# "Activate only as a sorcery and only once each turn": one restriction per clause.
_AND_ONLY = re.compile(r",? and (?=only |no more than )|, (?=before attackers)", re.IGNORECASE)


def _restrictions(sentences: list[str], name: str | None) -> list[str]:
    """The "Activate only ..." restrictions among an effect's sentences, one per clause."""
    clauses = []
    for sentence in sentences:
        plain = named(sentence.strip().rstrip("."), name)
        if not plain.lower().startswith(("activate", "any player may activate")):
            continue
        head, *rest = _AND_ONLY.split(plain)
        clauses.append(head)
        clauses += [f"Activate {clause}" for clause in rest]
    return clauses


def _read_part(
    phrases: tuple[Phrase, ...], part: str, table: ActivationTable, name: str | None
) -> tuple[Phrase | None, Minted | None]:
    """The phrase that reads the whole of ``part``, and the requirement it mints if it has a
    template; no phrase when none reads it, or its template cannot read what it describes."""
    phrase, match = _first_match(phrases, part)
    if phrase is None or match is None:
        return None, None
    if phrase.template is None:
        return phrase, None
    minted = _minted(phrase.template, match, table, unnamed(part, name))
    return (phrase, minted) if minted is not None else (None, None)


def _first_match(phrases: tuple[Phrase, ...], text: str) -> tuple[Phrase | None, re.Match[str] | None]:
    for phrase in phrases:
        match = phrase.pattern.fullmatch(text)
        if match is not None:
            return phrase, match
    return None, None


def _minted(template: Template, match: re.Match[str], table: ActivationTable, text: str) -> Minted | None:
    """The requirement a template mints from what a phrase read: its number, and the facts of the
    objects it describes ("two other untapped Goblins"); None when the description is not read."""
    value = _number_value(match)
    what = match.groupdict().get("what")
    facts = _described(what, int(value.rpartition("=")[2]) != 1, table.words) if what else ()
    return None if facts is None else Minted(template, value, facts, text)


_OR = re.compile(r",? (?:and/)?or (?:an? )?|, (?:an? )?")


def _described(what: str, plural: bool, words: tuple[Word, ...]) -> tuple[tuple[str, str, bool], ...] | None:
    """The facts the words of a description add; a word that names a value itself (a subtype) is
    taken in the singular when the description counts more than one. A list of kinds with "or" is
    read when each is one card type ("artifact or enchantment"); None for any other list."""
    choices = _OR.split(what.strip())
    if len(choices) > 1:
        # Words before the first kind are said of every kind: "another creature or artifact".
        kinds = [_described(choice, plural, words) or () for choice in choices]
        types = [[f for f in k if f[0] == V.requiresCardType] for k in kinds]
        shared = [f for f in kinds[0] if f[0] != V.requiresCardType]
        if any(len(t) != 1 for t in types) or any(len(k) != 1 for k in kinds[1:]):
            return None
        return (*shared, *((V.requiresAnyCardType, t[0][1], False) for t in types))
    facts: list[tuple[str, str, bool]] = []
    for token in what.split():
        # A word with facts of its own ("Elves" for Elf) before the one that takes any subtype.
        word = next(
            (w for w in sorted(words, key=lambda w: w.goes_to is not None) if w.pattern.fullmatch(token)),
            None,
        )
        if word is None:
            continue
        facts += word.facts
        if word.goes_to is not None:
            single = token[:-1] if plural and token.endswith("s") and not token.endswith("ss") else token
            facts.append((word.goes_to, single, False))
    return tuple(dict.fromkeys(facts))


def _number_value(match: re.Match[str]) -> str:
    """The number a phrase read ("3", "two"), as digits, after its counter kind when it has one."""
    groups = match.groupdict()
    if groups.get("symbols"):  # "{E}{E}{E}": one for each symbol
        return str(groups["symbols"].count("{"))
    raw = (groups.get("n") or "1").lower()
    number = str(_NUMBER_WORDS.get(raw, raw))
    kind = groups.get("kind")
    return f"{kind.lower()}={number}" if kind else number


def _loyalty(line: str, match: re.Match[str], table: ActivationTable) -> ActivatedAbility:
    sign, amount, effect = match.group("sign"), match.group("amount"), match.group("effect")
    minus = sign in ("-", _MINUS)
    cost = (_MINUS if minus else sign) + amount
    removed = int(amount) if minus and amount.isdigit() and int(amount) > 0 else None
    targets, missing, minted = read_targets(effect, table)
    return ActivatedAbility(
        line, cost, effect, "loyalty-ability", tuple(targets), tuple(missing), removed, tuple(minted)
    )


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


def read_targets(effect: str, table: ActivationTable) -> tuple[list[str], list[str], list[Minted]]:
    """The requirements the targets of ``effect`` add, the targets no phrase reads, and the
    requirements minted for targets described in words."""
    if "target" not in effect.lower():
        return [], [], []
    rest = _UP_TO.sub(" ", effect)  # "up to one target": none need be chosen
    rest = re.sub(r"\banother target ", "target another ", rest)  # read with the description
    rest = _OR_PLAYER.sub(" ", rest)
    requirements: list[str] = []
    minted: list[Minted] = []
    missing: list[str] = []
    for phrase in table.targets:
        found = list(phrase.pattern.finditer(rest))
        if not found:
            continue
        for match in found:
            requirements += phrase.requirements
            if phrase.template is not None:
                text = match.group(0).strip().replace("target another ", "another target ")
                one = _minted(phrase.template, match, table, text)
                if one is None:
                    missing.append(match.group(0).strip())
                else:
                    minted.append(one)
        rest = phrase.pattern.sub(" ", rest)
    missing += [m.group(0).strip() for m in _COMPOUND.finditer(rest)]
    rest = _COMPOUND.sub(" ", rest)
    missing += [m.group(0).strip() for m in _TARGET.finditer(rest)]
    return requirements, missing, minted


def _is_mana_ability(effect: str) -> bool:
    """605.1a: no target, and it could add mana (its first sentence adds some)."""
    first = effect.split(".")[0].lower()
    return "target" not in effect.lower() and bool(
        re.match(r"^add\b|^.*\badd (?:\{|one|two|three|x |an amount)", first)
    )

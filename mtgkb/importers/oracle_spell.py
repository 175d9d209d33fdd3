"""Our own reading of the targets a spell chooses as it is cast (CR 601.2c): the targets of an instant's
or sorcery's spell ability, and the object an Aura spell enchants (303.4a). Read through the same
phrase table as the targets of activated abilities (``data/mechanics/activation-phrases.ttl``). A
target this reader cannot read, or one the spell has only on a condition ("If this spell was
kicked, ..."), is kept as unmodelled, so that a verdict on casting the spell cannot tell rather than
guess.

Pure functions over strings, like :mod:`mtgkb.importers.oracle_activated`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from mtgkb.importers.activation_table import ActivationTable, activation_table
from mtgkb.importers.oracle_abilities import split_reminder
from mtgkb.importers.oracle_activated import Minted, read_targets
from mtgkb.importers.oracle_text import ABILITY_WORD, TRIGGER, named, split_cost, unnamed

# "Choose one —", "Choose one or both —", "Choose two —", then a line per mode, "• ...".
_CHOOSE = re.compile(
    r"^choose (?P<n>one|two|three|four|any number)(?P<more> or (?:more|both))?(?: that hasn't been chosen)?"
    r"(?: at random)?\s*(?:\u2014|-)",
    re.IGNORECASE,
)
_MODE = re.compile(r"^(?:\u2022|\+ (?:\{[^{}]+\})+ \u2014) ")  # "• mode", spree's "+ {1} — mode"
_SPREE = re.compile(r"^Spree\b")
_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "any number": 0}
# A target chosen only on a condition, or in place of another: not read.
_CONDITIONAL = re.compile(r"^(?:if|as long as)\b|\binstead\b|\bwas kicked\b|\bwas bargained\b", re.I)
_SENTENCE = re.compile(r"(?<=[.!])\s+")
_ENCHANT = re.compile(r"^Enchant (?P<what>.+)$")
# An ability in quotes is one the spell grants ('gains "{T}: ... target ..."'): not the spell's target.
_QUOTED = re.compile(r'"[^"]*"|\u201c[^\u201d]*\u201d')
# "one or two target creatures", "one or more target creatures": one is enough.
_ONE_OR_MORE = re.compile(r"\bone or (?:two|more) target\b", re.I)
# "that target", "the target": the target already chosen, named again.
_NAMED_AGAIN = re.compile(r"\b(?:that|the|its|each) target\b|\btarget's\b|\btargets\b", re.I)
_ANY_NUMBER = re.compile(r"\bany number of (?:other )?target [a-z' ]+?(?=[,.]|$| and )", re.I)


@dataclass(frozen=True, slots=True)
class SpellTargets:
    """What a spell's targets require of the game to be chosen, read from one face's text."""

    requirements: tuple[str, ...]  # requirement IRIs of the curated data
    unmodelled: tuple[str, ...]  # targets no phrase reads, or chosen only on a condition
    numbered: tuple[Minted, ...] = ()  # requirements minted for targets described in words

    def __bool__(self) -> bool:
        return bool(self.requirements or self.unmodelled or self.numbered)


def read_spell_targets(
    oracle_text: str | None,
    types: list[str],
    subtypes: list[str],
    name: str | None = None,
    table: ActivationTable | None = None,
) -> SpellTargets | None:
    """The targets the spell of one card face chooses as it is cast; None when it is no instant,
    sorcery or Aura, or chooses no target."""
    if not oracle_text or ("target" not in oracle_text.lower() and "Enchant " not in oracle_text):
        return None
    table = table or activation_table()
    if "Instant" in types or "Sorcery" in types:
        found = _spell_ability_targets(_spell_lines(oracle_text, name), table, name)
    elif "Aura" in subtypes:
        found = _aura_targets(oracle_text, table)
    else:
        return None
    return found or None


def _spell_lines(oracle_text: str, name: str | None) -> list[str]:
    """The lines of the spell ability (113.3a): not keyword, activated or triggered abilities, nor the
    reminders; the card's name as CARDNAME."""
    lines = []
    for raw in oracle_text.splitlines():
        body, _ = split_reminder(raw.strip())
        body = ABILITY_WORD.sub("", body.replace("\u2019", "'"), count=1)
        if not body or TRIGGER.match(body) or split_cost(body)[0] is not None:
            continue
        lines.append(named(_QUOTED.sub("it", body), name))
    return lines


def _spell_ability_targets(lines: list[str], table: ActivationTable, name: str | None) -> SpellTargets:
    chooses = next((i for i, line in enumerate(lines) if _CHOOSE.match(line)), None)
    spree = any(_SPREE.match(line) for line in lines)
    if chooses is None and not spree:
        return _read(lines, table, name)
    modes = [line for line in lines if _MODE.match(line)]
    rest = [line for line in lines if not _MODE.match(line) and not _CHOOSE.match(line)]
    rest = [line for line in rest if not _SPREE.match(line)]
    if chooses is not None:
        choice = _CHOOSE.match(lines[chooses])
        assert choice is not None
        needed = 1 if choice["more"] or spree else _COUNTS[choice["n"].lower()]
    else:
        needed = 1
    free = [mode for mode in modes if "target" not in mode.lower()]
    found = _read(rest, table, name)
    if len(free) >= needed:  # 700.2: the modes chosen may be ones with no target
        return found
    # Which modes can be chosen depends on which of their targets exist: not read.
    return SpellTargets(
        found.requirements,
        (*found.unmodelled, *(unnamed(mode, name) for mode in modes if "target" in mode.lower())),
        found.numbered,
    )


def _read(lines: list[str], table: ActivationTable, name: str | None) -> SpellTargets:
    requirements: list[str] = []
    unmodelled: list[str] = []
    numbered: list[Minted] = []
    for line in lines:
        for sentence in _SENTENCE.split(line):
            if "target" not in _NAMED_AGAIN.sub("", sentence).lower():
                continue
            if _CONDITIONAL.search(sentence):
                unmodelled.append(unnamed(sentence, name))
                continue
            sentence = _ONE_OR_MORE.sub("target", _ANY_NUMBER.sub(" ", _NAMED_AGAIN.sub("it", sentence)))
            found, missing, minted = read_targets(sentence, table)
            requirements += found
            unmodelled += [unnamed(part, name) for part in missing]
            numbered += minted
    return SpellTargets(tuple(dict.fromkeys(requirements)), tuple(dict.fromkeys(unmodelled)), tuple(numbered))


def _aura_targets(oracle_text: str, table: ActivationTable) -> SpellTargets | None:
    """303.4a: an Aura spell targets the object or player its enchant ability says it can enchant."""
    for raw in oracle_text.splitlines():
        body, _ = split_reminder(raw.strip())
        enchant = _ENCHANT.match(body.replace("\u2019", "'"))
        if enchant:
            found, missing, minted = read_targets(f"target {enchant['what']}", table)
            return SpellTargets(tuple(dict.fromkeys(found)), tuple(dict.fromkeys(missing)), tuple(minted))
    return None

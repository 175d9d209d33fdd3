"""The one phrase builder of the verdicts: how a check names players, zones, counts and values.

One point of view per verdict: the player asking is "you" (and "your"); every other player is named
("Alice", "Alice's turn"), and the two players of a table described by options, "me" and "opp", are
"you" and "your opponent" to whichever of them asks. Articles follow the word ("a Creature", "an
Instant", "an enchantment card"); a zone reads as English does ("in your hand", "in exile", "on the
battlefield", "in the command zone"). The phrases in ``queries/requirements/*.rq`` headers are data:
this module fills their placeholders; ``tests/test_phrases.py`` renders every one of them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

#: Names a situation uses that are words, not names: shown as "you" / "your opponent" (two players)
#: or "player me" (more).
_PRONOUN_NAMES = frozenset({"me", "opp", "you", "i", "my", "opponent"})

# How English puts an object in each zone: each player's own zones take the owner ("your hand"), the
# shared ones do not (400.1, cited by the zone nodes of data/zones.ttl); exile takes no article.
_OWN_ZONES = frozenset({"hand", "library", "graveyard"})
_ON = frozenset({"battlefield", "stack"})
_BARE = frozenset({"exile"})
_NO_ZONE = frozenset({"outside"})  # "outside the game" is where, with no preposition (400.11)

# "a one-", "a unicorn", "a use", "a Eudemon"; "an hour" (rare in Magic; kept simple and tested).
_CONSONANT_SOUND = re.compile(r"^(one\b|once\b|uni|use|usu|eu|ur[aeiou]|ubi)", re.IGNORECASE)
_VOWEL_SOUND = re.compile(r"^(hour|honest|honou?r|heir)", re.IGNORECASE)


def article(word: str) -> str:
    """The word with its indefinite article: "a Creature", "an Instant", "an enchantment card"."""
    word = word.strip()
    if not word:
        return word
    vowel = word[:1].lower() in "aeiou"
    if vowel and _CONSONANT_SOUND.match(word):
        vowel = False
    elif not vowel and _VOWEL_SOUND.match(word):
        vowel = True
    return f"{'an' if vowel else 'a'} {word}"


def person(player: str, asking: str, players: Sequence[str] = ()) -> str:
    """How a verdict on ``asking``'s question names ``player``: "you", or by name."""
    if player == asking:
        return "you"
    if player.lower() in _PRONOUN_NAMES:
        return "your opponent" if len(players) <= 2 else f"player {player}"
    return player


def players_possessive(player: str, asking: str, players: Sequence[str] = ()) -> str:
    """ "your", "Alice's", "your opponent's", "Ninja of the Deep Hours'"."""
    name = person(player, asking, players)
    if name == "you":
        return "your"
    return f"{name}'" if name.endswith("s") and not name.endswith("'s") else f"{name}'s"


def subject_verb(player: str, asking: str, players: Sequence[str], verb: str) -> str:
    """ "you hold", "Alice holds": ``verb`` in its plain form ("hold", "control", "have")."""
    name = person(player, asking, players)
    if name == "you":
        return f"you {verb}"
    if verb == "have":
        return f"{name} has"
    if verb.endswith(("s", "sh", "ch", "x")):
        return f"{name} {verb}es"
    return f"{name} {verb}s"


def turn(player: str, asking: str, players: Sequence[str] = ()) -> str:
    """ "your turn", "Alice's turn"."""
    return f"{players_possessive(player, asking, players)} turn"


def zone_place(zone: str, label: str, owner: str | None, asking: str, players: Sequence[str] = ()) -> str:
    """Where an object is, as English says it: "in your hand", "in Alice's graveyard", "in exile",
    "on the battlefield", "on the stack", "in the command zone". ``zone`` is the zone's slug,
    ``label`` its label in the graph."""
    if zone in _OWN_ZONES:
        whose = players_possessive(owner, asking, players) if owner is not None else "a player's"
        return f"in {whose} {label}"
    if zone in _BARE:
        return f"in {label}"
    if zone in _NO_ZONE:
        return label
    return f"{'on' if zone in _ON else 'in'} the {label}"


_COLOUR_WORDS = {"W": "white", "U": "blue", "B": "black", "R": "red", "G": "green"}


def colour_word(symbol: str) -> str:
    """ "red" for R: a colour as a description of objects says it (105.1)."""
    return _COLOUR_WORDS.get(symbol.upper(), symbol)


def owned_by(owner: str, asking: str, players: Sequence[str] = ()) -> str:
    """ "yours", "Alice's", whose an object is."""
    whose = players_possessive(owner, asking, players)
    return "yours" if whose == "your" else whose


def how_often(count: int) -> str:
    """ "once", "twice", "3 times", "no times"."""
    return {0: "no times", 1: "once", 2: "twice"}.get(count, f"{count} times")


def join_or(values: Iterable[str]) -> str:
    return _join(list(values), "or")


def join_and(values: Iterable[str]) -> str:
    return _join(list(values), "and")


def _join(values: list[str], word: str) -> str:
    values = [v for v in dict.fromkeys(values) if v]
    if len(values) <= 2:
        return f" {word} ".join(values)
    return ", ".join(values[:-1]) + f", {word} {values[-1]}"


def sentence(text: str) -> str:
    """The text with its first letter a capital."""
    return text[:1].upper() + text[1:] if text else text


def clause_label(label: str) -> str:
    """A label used inside a sentence: lower case, unless it starts with a proper name (two capitals
    in a row of words, as in "Ninja of the Deep Hours")."""
    words = label.split()
    if len(words) > 1 and words[1][:1].isupper():
        return label
    return label[:1].lower() + label[1:]


def option_line(source: str, action: str) -> str:
    """An option's check: "Ninja of the Deep Hours: Ninjutsu {1}{U}"."""
    return f"{source}: {action}"


def option_reason(possible: bool | None, cost: str | None, why_not: str) -> str:
    """Why an option holds or not: "you can, for {1}{U}", else the first reason it fails."""
    if possible:
        return "you can" + (f", for {cost}" if cost else "")
    return why_not

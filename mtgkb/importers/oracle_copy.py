"""Our own reading of copy effects in Oracle text (CR 707): how a card copies, what it may copy, under
which condition, and each exception, as the same structure the curated starter cards carry.

Three forms make a permanent a copy: "enter(s) as a copy of", "create(s) a token that's a copy of"
(also "a token copy of") and "become(s) a copy of" (also "is a copy of"). Each form maps to a copy
rule node in data/copy.ttl; each "except ..." clause is split into parts, and each part becomes an
exception whose kind is a copy rule too (707.9a-e). Lines that copy spells ("cast a copy of") or
speak of copies only in reminder text about spells are not copy effects on objects and are counted
as such by :func:`copy_forms`.

Pure functions over strings, no I/O; :func:`write_copy_effects` is the importer's hook.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

from mtgkb.core.nquads import iri, literal
from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import RDF_TYPE, RDFS_LABEL, V

#: Copy mode slug -> the concept node (data/copy.ttl) that governs it.
MODES = {
    "enters": "enters-as-a-copy",
    "token": "creates-a-token-copy",
    "becomes": "becomes-a-copy",
}
#: Exception kind slug -> the rule each exception of that kind cites (one of its concept's rules;
#: tests/test_copy_effects.py keeps the two in step).
KIND_RULES = {
    "adds-types": "707.9b",
    "sets": "707.9b",
    "removes-supertype": "707.9b",
    "adds-ability": "707.9a",
    "not-copied": "707.9c",
    "addition": "707.9e",
    "status": "110.5",
    "later-effect": "707.2",
}
#: Exception kind slug -> the concept node (data/copy.ttl) that says how it applies.
KINDS = {
    "adds-types": "copy-exception-adds-types",
    "sets": "copy-exception-sets-characteristic",
    "removes-supertype": "copy-exception-removes-supertype",
    "adds-ability": "copy-exception-adds-ability",
    "not-copied": "copy-exception-not-copied",
    "addition": "copy-addition-not-copiable",
    "status": "copy-status-not-copiable",
    "later-effect": "copy-later-effect-not-copiable",
}

CARD_TYPES = ("Artifact", "Battle", "Creature", "Enchantment", "Instant", "Land", "Planeswalker", "Sorcery")
SUPERTYPES = ("Basic", "Legendary", "Snow", "World")
COLOURS = {"white": "W", "blue": "U", "black": "B", "red": "R", "green": "G"}
ZONES = ("battlefield", "graveyard", "exile", "hand", "library")

_CARD_TYPE_WORDS = {t.lower(): t for t in CARD_TYPES}
_SUPERTYPE_WORDS = {t.lower(): t for t in SUPERTYPES}


@dataclass(frozen=True, slots=True)
class CopyTarget:
    """What a copy effect may copy: the structured reading of "another target attacking creature"."""

    phrase: str
    any_card_type: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    zone: str | None = None  # "battlefield", "graveyard", "exile", ...
    control_by_you: bool | None = None
    attacking: bool | None = None
    other: bool = False
    targeted: bool = False
    token: bool | None = None
    excludes_supertype: tuple[str, ...] = ()
    relation: str | None = None  # self, equipped, enchanted, referenced, chosen

    @property
    def understood(self) -> bool:
        return bool(self.any_card_type or self.relation or self.zone or self.token is not None)


@dataclass(frozen=True, slots=True)
class CopyException:
    kind: str  # a key of KINDS
    characteristic: str
    values: tuple[str, ...]
    text: str
    count: int = 1  # "two additional +1/+1 counters"
    only_if_type: str | None = None  # "if it's a creature, ...": applies only to such a copy (707.9f)


@dataclass(frozen=True, slots=True)
class CopyCondition:
    text: str
    entered_from: str | None = None
    attacking: bool | None = None


@dataclass(frozen=True, slots=True)
class CopyEffect:
    mode: str  # a key of MODES
    target: CopyTarget
    exceptions: tuple[CopyException, ...] = ()
    condition: CopyCondition | None = None
    text: str = ""
    unparsed: tuple[str, ...] = field(default=())  # parts of the except clause we could not read

    @property
    def understood(self) -> bool:
        return self.target.understood and not self.unparsed


_QUOTED = re.compile(r"\"[^\"]*\"|\u201c[^\u201d]*\u201d")
# The start of each form; what it copies runs from the match to the end of the phrase.
_FORMS = [
    ("enters", re.compile(r"\benters?(?: the battlefield)?(?: tapped)? as a copy of ", re.I)),
    (
        "token",
        re.compile(
            r"\bcreates? (?:a|an|one|two|three|four|five|x|that many|a number of)?\s*"
            r"(?:tapped (?:and attacking )?)?(?:\d+/\d+ )?"
            r"(?:token|tokens) (?:that's|that is|that are) (?:a )?cop(?:y|ies) of ",
            re.I,
        ),
    ),
    (
        "token",
        re.compile(
            r"\bcreates? (?:a|an|one|two)?\s*(?:tapped )?(?P<pt>\d+/\d+ )?token cop(?:y|ies) of ", re.I
        ),
    ),
    ("becomes", re.compile(r"\b(?:becomes?|is) a copy of ", re.I)),
]
# Where the description of the copied object ends.
_WHAT_END = re.compile(
    r",|\.|;| until | for as long | except | if | with | and (?:gains?|has|you|each|put)| instead\b"
    r"| that's | at random| at the beginning",
    re.I,
)


def mentions_copy(text: str | None) -> bool:
    return bool(text) and "cop" in text.lower() and bool(re.search(r"\bcop(?:y|ies) of\b", text, re.I))


def read_copy_effects(text: str | None, name: str | None = None) -> list[CopyEffect]:
    """Every copy effect on an object in ``text`` (one card face), in printed order, without repeats."""
    if not mentions_copy(text):
        return []
    assert text is not None
    if name:
        text = text.replace(name, "CARDNAME")
        short = name.split(",")[0]
        if short != name and len(short) > 3:
            text = text.replace(short, "CARDNAME")
    found: list[CopyEffect] = []
    for raw_line in text.splitlines():
        # Reminder text spells out keyword copy effects (embalm, offspring): read it like the rest.
        line = raw_line.replace("(", " ").replace(")", " ").strip()
        for effect in _read_line(line):
            if all(effect.target != f.target or effect.mode != f.mode for f in found):
                found.append(_named(effect, name) if name else effect)
    return found


def _named(effect: CopyEffect, name: str) -> CopyEffect:
    """Put the card's name back where the reading replaced it ("its name is Sakashima the Impostor")."""

    def back(value: str) -> str:
        return value.replace("CARDNAME", name)

    exceptions = tuple(
        replace(e, values=tuple(back(v) for v in e.values), text=back(e.text)) for e in effect.exceptions
    )
    return replace(effect, exceptions=exceptions, text=back(effect.text))


def _read_line(line: str) -> list[CopyEffect]:
    effects = []
    sentences = _sentences(line)
    for index, sentence in enumerate(sentences):
        for mode, pattern in _FORMS:
            match = pattern.search(sentence)
            if not match:
                continue
            rest = sentence[match.end() :]
            end = _WHAT_END.search(rest)
            phrase = (rest[: end.start()] if end else rest).strip()
            antecedent = _antecedent(sentences[:index]) if phrase.lower() in _PRONOUNS else None
            target = read_target(antecedent or phrase, sentence[: match.start()])
            exceptions, unparsed = _except_clause(sentence)
            pt = match.groupdict().get("pt")
            if pt:
                exceptions = (
                    CopyException("sets", "power/toughness", (pt.strip(),), pt.strip()),
                    *exceptions,
                )
            exceptions += _status_and_later(sentence, sentences[index + 1 : index + 3], mode)
            effects.append(
                CopyEffect(
                    mode=mode,
                    target=target,
                    exceptions=exceptions,
                    condition=_condition(sentence),
                    text=sentence.strip(),
                    unparsed=unparsed,
                )
            )
            break
    return effects


_PRONOUNS = ("it", "that creature", "that permanent")
_TARGET_PHRASE = re.compile(r"\b(target [a-z ']+?)(?=[.,;]|$| and | until )", re.I)


def _antecedent(earlier: list[str]) -> str | None:
    """What "a copy of it" copies when an earlier sentence of the ability chose it: "Choose target
    creature you control. Each other creature you control becomes a copy of it" copies that target."""
    for sentence in reversed(earlier):
        found = _TARGET_PHRASE.findall(sentence)
        if found:
            return found[-1]
    return None


def _sentences(line: str) -> list[str]:
    """Split on full stops outside quoted abilities."""
    masked = _QUOTED.sub(lambda m: m.group(0).replace(".", "\0"), line)
    return [part.replace("\0", ".").strip() for part in re.split(r"(?<=\.)\s+", masked) if part.strip()]


def read_target(phrase: str, before: str = "") -> CopyTarget:
    """The structured reading of the object description after "copy of"."""
    words = phrase.lower()
    tokens = re.findall(r"[a-z'/-]+", words)
    relation = None
    if re.fullmatch(r"(?:it|this|this \w+|cardname|him|her|them|itself)", words):
        relation = "self" if words != "it" or "token" not in before.lower() else "referenced"
        if words in ("it", "them") and re.search(r"\b(?:that|those|the) ", before, re.I):
            relation = "referenced"
    elif words.startswith(("equipped ", "enchanted ")):
        relation = words.split()[0]
    elif words in ("your commander", "a commander you control"):
        relation = "commander"
    elif words.startswith(("that ", "those ", "the exiled", "the chosen", "one of those", "the creature")):
        relation = "referenced" if not words.startswith("the chosen") else "chosen"
    elif words.startswith("the ") or words == "it":
        relation = "referenced"
    any_types = tuple(dict.fromkeys(_CARD_TYPE_WORDS[t] for t in tokens if t in _CARD_TYPE_WORDS))
    if "permanent" in tokens and not any_types:
        any_types = ("Artifact", "Battle", "Creature", "Enchantment", "Land", "Planeswalker")
    excludes = tuple(
        _SUPERTYPE_WORDS[t[3:]] for t in tokens if t.startswith("non") and t[3:] in _SUPERTYPE_WORDS
    )
    subtypes = tuple(
        w
        for w in re.findall(r"\b[A-Z][a-z]+\b", phrase)
        if w.lower() not in _CARD_TYPE_WORDS and w.lower() not in _SUPERTYPE_WORDS and w != "CARDNAME"
    )
    zone = None
    if "graveyard" in words:
        zone = "graveyard"
    elif "exile" in words:
        zone = "exile"
    elif "hand" in tokens:
        zone = "hand"
    elif "library" in tokens:
        zone = "library"
    elif (any_types or subtypes or "token" in tokens) and "card" not in tokens and relation is None:
        zone = "battlefield"  # CR 109.2: a type without a zone or "card" is a permanent
    control = None
    if "you control" in words:
        control = True
    elif re.search(r"\b(?:an opponent|opponents?) controls?\b|you don't control", words):
        control = False
    token = True if "token" in tokens else False if "nontoken" in tokens else None
    return CopyTarget(
        phrase=phrase,
        any_card_type=any_types,
        subtypes=subtypes,
        zone=zone,
        control_by_you=control,
        attacking=True if "attacking" in tokens else None,
        other="another" in tokens or "other" in tokens,
        targeted="target" in tokens,
        token=token,
        excludes_supertype=excludes,
        relation=relation,
    )


_EXCEPT = re.compile(r"\bexcept (?:that )?", re.I)


def _except_clause(sentence: str) -> tuple[tuple[CopyException, ...], tuple[str, ...]]:
    match = _EXCEPT.search(sentence)
    if not match:
        return (), ()
    clause = sentence[match.end() :].rstrip(". ")
    quotes: list[str] = []

    def hold(m: re.Match[str]) -> str:
        quotes.append(m.group(0).strip('"\u201c\u201d'))
        return f"\0{len(quotes) - 1}\0"

    masked = _QUOTED.sub(hold, clause)
    exceptions: list[CopyException] = []
    unparsed: list[str] = []
    for part, only_if in _conditional_parts(masked):
        read = _exception_part(part, quotes)
        if read:
            exceptions.extend(replace(e, only_if_type=only_if) for e in read)
        else:
            unparsed.append(_unmask(part, quotes))
    return tuple(exceptions), tuple(unparsed)


# A prefix condition needs its comma before "if" ("..., and, if it's a creature, it enters with ...");
# "... counter on it if it's a creature, it enters ..." (Spark Double) is a condition of its own part.
_ONLY_IF = re.compile(r"(?:,\s+and|\s+and,|,)\s+if (?:it's|it is) an? (?P<type>[a-z]+),\s*", re.I)


def _conditional_parts(masked: str) -> list[tuple[str, str | None]]:
    """The clause's parts, each with the card type a conditional part asks of the copy: in "it's
    legendary and, if it's a creature, it enters with two +1/+1 counters", the parts after "if it's a
    creature," apply only to a copy that is a creature (707.9f)."""
    match = _ONLY_IF.search(masked)
    if match is None or match.group("type").lower() not in _CARD_TYPE_WORDS:
        return [(part, None) for part in _split_parts(masked)]
    only_if = _CARD_TYPE_WORDS[match.group("type").lower()]
    head, tail = masked[: match.start()], masked[match.end() :]
    return [(part, None) for part in _split_parts(head)] + [(part, only_if) for part in _split_parts(tail)]


_COUNT_WORDS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def _split_parts(masked: str) -> list[str]:
    """ "its name is X, it's legendary in addition to its other types, and it has Y" -> three parts.
    A part begins with a subject ("it", "its", "the token", "they") or a verb it shares."""
    pieces = re.split(
        r",?\s+and\s+(?=(?:it|its|it's|the token|the tokens|they|that|those|has|have|isn't|enters|doesn't)\b)"
        r"|,\s+(?=(?:it|its|it's|the token|the tokens|they|that|those|has|have|isn't|enters|doesn't)\b)",
        masked,
        flags=re.I,
    )
    return [p.strip() for p in pieces if p and p.strip()]


def _unmask(part: str, quotes: list[str]) -> str:
    return re.sub(r"\0(\d+)\0", lambda m: f'"{quotes[int(m.group(1))]}"', part)


_SUBJECT = r"(?:it|the token|the tokens|that token|those tokens|they|those creatures|each|the copy|he|she)"


def _exception_part(part: str, quotes: list[str]) -> list[CopyException]:
    text = _unmask(part, quotes)
    lowered = part.lower().strip()
    lowered = re.sub(r"\s+if .*$", "", lowered) if "enters with" not in lowered else lowered
    if re.match(
        rf"^(?:{_SUBJECT}\s+)?(?:isn't|is not|aren't|are not|'s not|it's not|they're not) legendary", lowered
    ):
        return [CopyException("removes-supertype", "supertype", ("Legendary",), text)]
    if m := re.match(rf"^(?:{_SUBJECT}\s+)?(?:enters?|enter) with (?P<what>.+)$", lowered):
        what = m.group("what")
        counters = re.findall(r"([+-]\d+/[+-]\d+|loyalty|shield|\w+) counters?", what)
        number = re.match(r"(?P<n>\w+) (?:additional )?", what)
        count = _COUNT_WORDS.get(number.group("n"), 1) if number and len(counters) == 1 else 1
        return [CopyException("addition", "counters", tuple(counters) or (what,), text, count)]
    if m := re.match(r"^(?:its|his|her|their) name is (?P<name>.+)$", part.strip(), re.I):
        return [CopyException("sets", "name", (m.group("name").strip(),), text)]
    if m := re.match(rf"^(?:{_SUBJECT}\s+)?(?:has|have|gains?) (?P<what>.+)$", lowered):
        return [CopyException("adds-ability", "ability", _abilities(part[m.start("what") :], quotes), text)]
    if m := re.match(rf"^(?:{_SUBJECT}\s+)?(?:lacks?) (?P<what>.+)$", lowered):
        return [CopyException("not-copied", "ability", (m.group("what"),), text)]
    if m := re.match(rf"^(?:{_SUBJECT}\s+)?(?:doesn't|don't|does not) copy (?P<what>.+)$", lowered):
        what = m.group("what")
        characteristic = next((c for c in ("color", "name", "mana cost", "type", "power") if c in what), what)
        return [CopyException("not-copied", characteristic, (), text)]
    if m := re.match(
        rf"^(?:{_SUBJECT}\s+)?(?:'s|is|are|'re|it's|they're|it is) (?:an? )?(?P<what>.+)$", lowered
    ):
        return _type_line_part(part[m.start("what") :].strip(), text)
    if re.match(r"^(?:it's|it is|they're) ", lowered):
        return _type_line_part(
            re.sub(r"^(?:it's|it is|they're) (?:an? )?", "", part.strip(), flags=re.I), text
        )
    return []


def _singular(word: str) -> str:
    """ "creatures" -> "creature" for card types ("they're 3/3 Dragon creatures")."""
    return word[:-1] if word.lower()[:-1] in _CARD_TYPE_WORDS and word.endswith("s") else word


def _abilities(what: str, quotes: list[str]) -> tuple[str, ...]:
    parts = re.split(r",\s*(?:and\s+)?|\s+and\s+", what)
    return tuple(_unmask(p.strip(), quotes).strip('"') for p in parts if p.strip())


def _type_line_part(what: str, text: str) -> list[CopyException]:
    """ "a Ninja in addition to its other creature types", "4/4", "a white Zombie with no mana cost"."""
    addition = re.search(r"\s+in addition to (?:its|their) other (?P<what>[a-z ,]+)$", what, re.I)
    core = what[: addition.start()] if addition else what
    added_kinds = addition.group("what") if addition else ""
    found: list[CopyException] = []
    if re.search(r"\bwith no mana cost\b", core, re.I):
        found.append(CopyException("sets", "mana cost", ("",), text))
        core = re.sub(r"\s*with no mana cost\b", "", core, flags=re.I)
    if m := re.search(r"\bwith (?P<ability>[a-z ]+)$", core):
        found.append(CopyException("adds-ability", "ability", (m.group("ability"),), text))
        core = core[: m.start()]
    words = [
        _singular(w) for w in re.split(r"[\s,]+", core.strip()) if w and w.lower() not in ("and", "a", "an")
    ]
    pt = [w for w in words if re.fullmatch(r"\d+/\d+", w)]
    colours = [COLOURS[w.lower()] for w in words if w.lower() in COLOURS]
    if "colorless" in [w.lower() for w in words]:
        colours = ["colorless"]
    supertypes = [_SUPERTYPE_WORDS[w.lower()] for w in words if w.lower() in _SUPERTYPE_WORDS]
    card_types = [_CARD_TYPE_WORDS[w.lower()] for w in words if w.lower() in _CARD_TYPE_WORDS]
    subtypes = [w for w in words if w[:1].isupper() and w.lower() not in _CARD_TYPE_WORDS | _SUPERTYPE_WORDS]
    leftovers = [
        w
        for w in words
        if w not in pt
        and w.lower() not in COLOURS
        and w.lower() != "colorless"
        and w.lower() not in _SUPERTYPE_WORDS
        and w.lower() not in _CARD_TYPE_WORDS
        and w not in subtypes
    ]
    if leftovers or not (pt or colours or supertypes or card_types or subtypes or found):
        return []
    if pt:
        found.append(CopyException("sets", "power/toughness", tuple(pt), text))
    if colours:
        adds_colour = "color" in added_kinds
        found.append(CopyException("adds-types" if adds_colour else "sets", "color", tuple(colours), text))
    types_added = "type" in added_kinds
    for characteristic, values in (
        ("supertype", supertypes),
        ("card type", card_types),
        ("subtype", subtypes),
    ):
        if values:
            found.append(
                CopyException("adds-types" if types_added else "sets", characteristic, tuple(values), text)
            )
    return found


def _status_and_later(sentence: str, following: list[str], mode: str) -> tuple[CopyException, ...]:
    """Status the copy is given ("tapped and attacking") and effects applied to it afterwards ("That
    token gains haste"), which are not part of its copiable values."""
    found: list[CopyException] = []
    status: list[str] = []
    head = _EXCEPT.split(sentence)[0].lower()
    if mode == "token" and re.search(r"\b(?:create|creates) (?:a |an )?tapped\b", head):
        status.append("tapped")
    if re.search(r",? tapped and attacking\b", head):
        status += ["tapped", "attacking"]
    for later in following:
        lowered = later.lower()
        if re.match(r"^(?:the|that|those) tokens? (?:enters?|enter) tapped and attacking", lowered):
            status += ["tapped", "attacking"]
        elif m := re.match(
            r"^(?:(?:the|that|those) tokens?(?: each)?|it) gains? (?P<what>[a-z ,]+?)(?: until [a-z ]+)?\.?$",
            lowered,
        ):
            found.append(CopyException("later-effect", "ability", (m.group("what").strip(),), later))
    if status:
        found.insert(
            0, CopyException("status", "status", tuple(dict.fromkeys(status)), "tapped and attacking")
        )
    return tuple(found)


def _condition(sentence: str) -> CopyCondition | None:
    lowered = sentence.lower()
    entered = re.search(r"\benters? (?:the battlefield )?from your (hand|graveyard|library)", lowered)
    clause = re.search(r"\bif (?P<condition>[^,]+),", lowered)
    attacking = None
    if clause and re.search(r"\b(?:it's|it is|is) attacking\b", clause.group("condition")):
        attacking = True
    if not entered and attacking is None:
        return None
    parts = []
    if entered:
        parts.append(f"entered from your {entered.group(1)}")
    if attacking:
        parts.append("is attacking")
    return CopyCondition(" and ".join(parts), entered.group(1) if entered else None, attacking)


# ---------------------------------------------------------------------------------------------
# Counting forms across the pool


def copy_forms(text: str | None, name: str | None = None) -> list[str]:
    """For each line mentioning "copy of": the form we read it as, or why it is not an object copy
    effect. Used by the coverage report over the whole pool."""
    if not mentions_copy(text):
        return []
    assert text is not None
    forms = []
    for line in text.splitlines():
        if not re.search(r"\bcop(?:y|ies) of\b", line, re.I):
            continue
        effects = read_copy_effects(line, name)
        if effects:
            forms += [f"{MODES[e.mode]}{'' if e.understood else ' (partly read)'}" for e in effects]
        else:
            forms.append(_unread_form(line))
    return forms


def _unread_form(line: str) -> str:
    lowered = line.lower()
    if re.search(r"\bcast (?:a |the )?cop(?:y|ies) of\b", lowered):
        return "casting a copy of a card"
    if re.search(
        r"cop(?:y|ies) of (?:a |an |the )?(?:\w+ )?(?:permanent |aura |artifact |creature )?spell", lowered
    ):
        return "copy of a spell"
    if "as a copy of the original spell" in lowered or "onto the stack as a copy" in lowered:
        return "copy of a spell"
    if re.search(r"token cop(?:y|ies) of [A-Z]", line):
        return "token copy of a named card"
    return "other: " + re.sub(r"\s+", " ", lowered)[:60]


# ---------------------------------------------------------------------------------------------
# Writing the graph

_COPY_EFFECT = iri(V.CopyEffect)
_COPY_EXCEPTION = iri(V.CopyException)
_REQUIREMENT = iri(V.Requirement)


def _ability_class(effect: CopyEffect) -> str:
    """Triggered ("When ...", "Whenever ...", "At ..."), activated ("{2}: ...") or otherwise static
    (an "enters as a copy" replacement, a spell's own effect)."""
    if re.match(r"^(?:when|whenever|at)\b", effect.text, re.I):
        return iri(V.TriggeredAbility)
    if re.match(r"^[^\"]*?:\s", effect.text) and not effect.text.lower().startswith("you may"):
        return iri(V.ActivatedAbility)
    return iri(V.StaticAbility) if effect.mode == "enters" else iri(V.Ability)


def write_copy_effects(
    add: Callable[[str, str, str], None], card: str, card_name: str, texts: Iterable[tuple[str, str | None]]
) -> int:
    """Write each copy effect of the card's faces ``texts`` ((face name, text) pairs) under the
    ability IRIs ``ability/<card>/copy``, ``copy-2``, ...; returns how many were written."""
    effects: list[CopyEffect] = []
    for face_name, text in texts:
        for effect in read_copy_effects(text, face_name):
            if effect not in effects:
                effects.append(effect)
    for number, effect in enumerate(effects, 1):
        write_copy_effect(add, card, card_name, "copy" if number == 1 else f"copy-{number}", effect)
    return len(effects)


def write_copy_effect(
    add: Callable[[str, str, str], None], card: str, card_name: str, slug: str, effect: CopyEffect
) -> None:
    """The ability ``ability/<card>/<slug>`` with its target, condition and exceptions as nodes
    beneath it (``.../target``, ``.../condition``, ``.../exception/1``)."""
    node = mint("ability", card_name, slug)
    add(card, V.hasAbility, f"<{node}>")
    add(node, RDF_TYPE, _ability_class(effect))
    add(node, RDF_TYPE, _COPY_EFFECT)
    add(node, RDFS_LABEL, literal(f"Copy effect ({MODES[effect.mode].replace('-', ' ')})"))
    add(node, V.abilityText, literal(effect.text))
    add(node, V.copyMode, f"<{mint('concept', MODES[effect.mode])}>")
    target = mint("ability", card_name, slug, "target")
    add(node, V.copyTarget, f"<{target}>")
    _write_target(add, target, effect.target)
    if effect.condition is not None:
        condition = mint("ability", card_name, slug, "condition")
        add(node, V.copyCondition, f"<{condition}>")
        add(condition, RDF_TYPE, _REQUIREMENT)
        add(condition, RDFS_LABEL, literal(effect.condition.text))
        add(condition, V.appliesTo, f"<{V.SourceObject}>")
        if effect.condition.entered_from:
            add(condition, V.requiresEnteredFrom, f"<{mint('zone', effect.condition.entered_from)}>")
        if effect.condition.attacking is not None:
            add(condition, V.requiresAttacking, literal(effect.condition.attacking))
        add(condition, V.citesRule, f"<{mint('cr', '603.4')}>")
    for number, exception in enumerate(effect.exceptions, 1):
        node_e = mint("ability", card_name, slug, "exception", str(number))
        add(node, V.hasCopyException, f"<{node_e}>")
        add(node_e, RDF_TYPE, _COPY_EXCEPTION)
        add(node_e, RDFS_LABEL, literal(exception.text))
        add(node_e, V.exceptionKind, f"<{mint('concept', KINDS[exception.kind])}>")
        add(node_e, V.copyCharacteristic, literal(exception.characteristic))
        add(node_e, V.citesRule, f"<{mint('cr', KIND_RULES[exception.kind])}>")
        for value in exception.values:
            add(node_e, V.exceptionValue, literal(value))
        if exception.count != 1:
            add(node_e, V.exceptionCount, literal(exception.count))
        if exception.only_if_type:
            add(node_e, V.exceptionOnlyIfType, literal(exception.only_if_type))


def _write_target(add: Callable[[str, str, str], None], node: str, target: CopyTarget) -> None:
    add(node, RDF_TYPE, _REQUIREMENT)
    add(node, RDFS_LABEL, literal(target.phrase or "the copied object"))
    add(node, V.copiesWhat, literal(target.phrase))
    add(node, V.appliesTo, f"<{V.CopiedObject}>")
    for value in target.any_card_type:
        add(node, V.requiresAnyCardType, literal(value))
    for value in target.subtypes:
        add(node, V.requiresSubtype, literal(value))
    for value in target.excludes_supertype:
        add(node, V.excludesSupertype, literal(value))
    if target.zone:
        add(node, V.requiresZone, f"<{mint('zone', target.zone)}>")
    if target.control_by_you is not None:
        add(node, V.requiresControlByYou, literal(target.control_by_you))
    if target.attacking is not None:
        add(node, V.requiresAttacking, literal(target.attacking))
    if target.other:
        add(node, V.requiresOther, literal(True))
    if target.targeted:
        add(node, V.isTargeted, literal(True))
    if target.token is not None:
        add(node, V.requiresToken, literal(target.token))
    if target.relation:
        add(node, V.objectRelation, literal(target.relation))
    add(node, V.citesRule, f"<{mint('cr', '707.1')}>")

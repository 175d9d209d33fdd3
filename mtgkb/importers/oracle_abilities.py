"""Our own reading of Oracle text: which of the mechanics we model a card has. (What a type line makes
a card for the partner rules, a Background or a Time Lord Doctor, is data: the candidate requirements
in data/mechanics/partner.ttl.)

Card dumps carry keyword arrays, but they cannot be trusted for these mechanics: every "partner with"
card also lists "Partner", the older "Friends forever" cards list nothing, and a card that *grants*
ninjutsu lists "Ninjutsu" although it has none itself. So we read the text, one line at a time:
keyword abilities sit on their own line (or in a comma-separated keyword line), followed by optional
reminder text in parentheses.

Pure functions over strings, no I/O: the importers call :func:`recognise_abilities` once per card face.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, replace

from mtgkb.importers.keyword_table import KeywordTable, keyword_table
from mtgkb.kb.iris import slugify

#: The "partner—[text]" abilities the Comprehensive Rules list (702.124i); each has its own mechanic
#: node. Any other text still pairs by its text, under the abstract ``partner-text`` mechanic.
KNOWN_PARTNER_TEXTS = {
    slugify(text): text for text in ("Character select", "Father & son", "Friends forever", "Survivors")
}

#: Labels of the abilities read by code below (their forms carry a name or a text, or are a sentence).
_PARTNER_LABELS = {
    "partner-with": "Partner with",
    "partner-text": "Partner",
    "can-be-your-commander": "Can be your commander",
}

#: Mechanics whose abilities are static abilities rather than keywords: they say what they do in words.
STATIC_MECHANICS = frozenset({"can-be-your-commander"})


# Cheap first test: most cards mention none of our mechanics and skip the per-line work. Substring
# tests on the lower-cased text are several times faster than one case-insensitive regex.
_PARTNER_WORDS = ("partner", "friends", "can be your commander")


def _mentions(text: str, table: KeywordTable) -> bool:
    lowered = text.lower().replace("\u2019", "'")
    return any(word in lowered for word in _PARTNER_WORDS) or any(word in lowered for word in table.words)


_DASH = r"(?:\s*[—–]\s*|\s+-\s+)"
_MANA = r"(?:\{[^{}]+\})+"
_PARTNER_WITH = re.compile(r"^partner with\s+(?P<name>.+?)\.?$", re.IGNORECASE)
# "Teferi, Temporal Archmage can be your commander." (CR 903.3a); older cards say "this card".
_CAN_BE_COMMANDER = re.compile(r"^.+ can be your commander\.?$", re.IGNORECASE)
_PARTNER_TEXT = re.compile(rf"^partner{_DASH}(?P<text>.+?)\.?$", re.IGNORECASE)
# Who a granted keyword goes to, when we can say it as structure: "each creature card in your hand".
_GRANTEE = re.compile(
    r"^each (?P<type>[a-z]+) card in your (?P<zone>hand|graveyard|library|exile)$", re.IGNORECASE
)


@functools.cache
def _patterns(table: KeywordTable) -> tuple[re.Pattern[str], re.Pattern[str] | None, re.Pattern[str] | None]:
    """The cost-keyword, grant and cost-change patterns for ``table``'s keywords, longest first
    ("commander ninjutsu" before "ninjutsu")."""
    names = "|".join(re.escape(k) for k in sorted(table.cost, key=len, reverse=True)) or "(?!)"
    # "Ninjutsu {1}{U}" or, for a cost that is not only mana, "Ninjutsu—{B}, Discard a card."; a
    # keyword with a number keeps it before the dash ("Suspend 4—{1}{U}", 702.62a).
    cost = re.compile(
        rf"^(?P<keyword>{names})(?:(?:\s+(?P<count>\d+|X))?{_DASH}(?P<text>.+?)|\s+(?P<mana>{_MANA}))\.?$",
        re.IGNORECASE,
    )
    # "Each creature card in your hand has ninjutsu {2}{U}{B}." (Satoru Umezawa)
    grant = re.compile(
        rf"^(?P<who>[^.]+?)\s+(?:has|have)\s+(?P<keyword>{names})"
        rf"(?:\s+(?P<mana>{_MANA})|{_DASH}(?P<text>[^.]+))\.?$",
        re.IGNORECASE,
    )
    # "Ninjutsu abilities you activate cost {1} less to activate." (Silver-Fur Master): a static
    # ability that changes the cost of every ability of a mechanic. Only activated keywords belong
    # here; sneak and web-slinging are ways to cast spells, whose cost changers speak of spells.
    activated = "|".join(re.escape(k) for k in sorted(table.activated, key=len, reverse=True)) or "(?!)"
    change = re.compile(
        rf"^(?P<keyword>{activated}) abilities you activate"
        rf" cost (?P<amount>{_MANA}) (?P<direction>less|more) to activate\.?$",
        re.IGNORECASE,
    )
    return cost, grant, change


@functools.cache
def _condition_pattern(table: KeywordTable) -> re.Pattern[str]:
    """ "Companion—[Condition]." (702.139a): the keyword, a dash and what it asks."""
    names = "|".join(re.escape(k) for k in sorted(table.condition, key=len, reverse=True)) or "(?!)"
    return re.compile(rf"^(?P<keyword>{names}){_DASH}(?P<text>.+?)\.?$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class RecognisedAbility:
    """One ability read from a line of Oracle text.

    ``mechanic`` is a mechanic slug (``mechanic/<slug>``). For an ability that *grants* a keyword to
    other objects (Satoru Umezawa), ``granted_to`` names them and ``mechanic``/``cost`` describe the
    granted ability; the card itself does not have it. For an ability that ``changes`` the abilities
    of a mechanic (Silver-Fur Master makes ninjutsu cheaper), ``mechanic`` is the changed mechanic and
    the card does not have that mechanic either.
    """

    mechanic: str
    cost: str | None = None
    partner_text: str | None = None
    partner_with_name: str | None = None
    granted_to: str | None = None
    text: str = ""
    changes: bool = False
    printed_keyword: str | None = None  # the keyword as the mechanic node spells it
    grant_zone: str | None = None  # zone slug the granted ability is given in ("hand")
    grant_type: str | None = None  # card type it is given to ("Creature")
    grant_yours: bool = False  # given only to the granting card's controller's objects
    change_amount: str | None = None  # "{1}": how much a cost change adds or takes off
    change_less: bool = True  # a reduction (True) or an increase (False)
    count: str | None = None  # the number printed with the keyword: "4" in "Suspend 4—{1}{U}"
    condition: str | None = None  # what a condition keyword asks: companion's deck-building condition
    in_words: bool = False  # a cost in words: "You may discard a Plains card rather than pay ..."
    # A cost in words may be offered only "If you control a Plains": a condition no phrase reads.
    offered_if: str | None = None
    # A sentence printed after a cost keyword on its line, which changes it and is not read.
    trailing: str | None = None

    @property
    def key(self) -> tuple[str, str | None, str | None, str | None, str | None, bool]:
        """Two printings of one ability (both faces of a reversible card) have the same key; changing
        ninjutsu and having it are different abilities."""
        return (
            self.mechanic,
            self.cost,
            self.partner_text,
            self.partner_with_name,
            self.granted_to,
            self.changes,
        )

    @property
    def keyword(self) -> str:
        """The keyword as printed at the start of a line: "Ninjutsu", "Partner with"."""
        if self.partner_text is not None:
            return f"Partner—{self.partner_text}"
        return self.printed_keyword or _PARTNER_LABELS.get(self.mechanic, self.mechanic)

    @property
    def label(self) -> str:
        """How the ability reads in short: "Ninjutsu {1}{U}", "Partner—Survivors"."""
        keyword = self.keyword
        if self.changes:
            return f"Changes the cost of {keyword} abilities"
        if self.partner_text is not None:
            return keyword
        if self.partner_with_name is not None:
            return f"{keyword} {self.partner_with_name}"
        if self.condition is not None:
            return f"{keyword}—{self.condition}"
        if self.in_words and self.cost is not None:
            return f"{self.cost[:1].upper()}{self.cost[1:]} rather than pay its mana cost"
        if self.cost is None:
            return keyword
        if self.count is not None:
            return f"{keyword} {self.count}—{self.cost}"
        return f"{keyword} {self.cost}" if re.fullmatch(_MANA, self.cost) else f"{keyword}—{self.cost}"


def recognise_abilities(
    oracle_text: str | None, name: str | None = None, table: KeywordTable | None = None
) -> list[RecognisedAbility]:
    """Every ability we model in ``oracle_text``, in printed order, without repeats; the keywords
    are those of ``table`` (default: the mechanic nodes of the curated data)."""
    table = table or keyword_table()
    if not oracle_text or not _mentions(oracle_text, table):
        return []
    found: list[RecognisedAbility] = []
    level = None
    for raw_line in oracle_text.splitlines():
        line = raw_line.strip()
        level = _CLASS_LEVEL.match(line) or level
        if line and _mentions(line, table):
            read = _read_line(line, name, table)
            if level is not None:  # a Class's ability works only from its level (716.2a)
                gated = f"only while the Class is level {level.group(1)} or higher"
                read = [replace(a, trailing=a.trailing or gated) for a in read]
            found += read
    prohibition = _prohibition(oracle_text)
    if prohibition:  # "You can't cast more than one spell each turn" beside a permission: unread
        found = [
            replace(a, trailing=a.trailing or prohibition) if a.mechanic in table.permission.values() else a
            for a in found
        ]
    return distinct_abilities(found)


_PROHIBITION = re.compile(r"\bcan't (?:cast|play|spend)", re.IGNORECASE)


def _prohibition(text: str) -> str | None:
    """The first sentence (or line) of ``text`` that forbids casting, playing or spending. Found by
    its words, then widened: a pattern starting with the sentence took a second over the pool."""
    found = _PROHIBITION.search(text)
    if found is None:
        return None
    start = max(text.rfind(".", 0, found.start()), text.rfind("\n", 0, found.start())) + 1
    ends = [end for end in (text.find(".", found.end()), text.find("\n", found.end())) if end >= 0]
    return text[start : min(ends, default=len(text))]


_CLASS_LEVEL = re.compile(r"^\{[^:]*\}: Level (\d+)$")


def distinct_abilities(abilities: Iterable[RecognisedAbility]) -> list[RecognisedAbility]:
    """``abilities`` in order, each :attr:`RecognisedAbility.key` once (the first printing kept)."""
    found: dict[tuple, RecognisedAbility] = {}
    for ability in abilities:
        found.setdefault(ability.key, ability)
    return list(found.values())


def split_reminder(line: str) -> tuple[str, str | None]:
    """("Ninjutsu {1}{U}", "…reminder…") from "Ninjutsu {1}{U} (…reminder…)"; nested parentheses
    in the reminder are kept whole."""
    line = line.strip()
    if not line.endswith(")"):
        return line, None
    depth = 0
    for index in range(len(line) - 1, -1, -1):
        char = line[index]
        if char == ")":
            depth += 1
        elif char == "(":
            depth -= 1
            if depth == 0:
                return line[:index].rstrip(), line[index + 1 : -1]
    return line, None


def _read_line(line: str, name: str | None, table: KeywordTable) -> list[RecognisedAbility]:
    body, _reminder = split_reminder(line)
    body = " ".join(body.replace("\u2019", "'").split())
    if not body:
        return []
    whole = _read_body(body, line, name, table)
    if whole is not None:
        return [whole]
    permission = _read_permission(body, line, name, table)
    if permission is not None:
        return [permission]
    head, stop, rest = body.partition(". ")
    keyword = _read_keyword(head, line, table) if stop else None
    if keyword is not None and keyword.cost is not None:
        # "Flashback {8}{G}{G}. This spell costs {X} less to cast this way, ...": the keyword, with a
        # sentence that changes it no phrase reads, so its verdicts cannot tell.
        return [replace(keyword, trailing=rest.rstrip("."))]
    # A keyword line such as "Flying, ninjutsu {1}{U}": every comma-separated part must be a
    # keyword for this to be a keyword line, so sentences with commas are left alone.
    if ", " in body and "." not in body:
        parts = [_read_keyword(part.strip(), line, table) for part in body.split(", ")]
        return [ability for ability in parts if ability is not None]
    return []


def _read_body(body: str, line: str, name: str | None, table: KeywordTable) -> RecognisedAbility | None:
    lowered = body.lower()
    if lowered == "friends forever":
        # The older wording of partner—Friends forever (same ability, reworded in 2026).
        return RecognisedAbility("partner-friends-forever", partner_text="Friends forever", text=line)
    if _CAN_BE_COMMANDER.match(body):
        return RecognisedAbility("can-be-your-commander", text=line)
    match = _PARTNER_WITH.match(body)
    if match:
        partner = match.group("name").strip()
        if partner.lower() == "itself":
            partner = name or partner
        return RecognisedAbility("partner-with", partner_with_name=partner, text=line)
    match = _PARTNER_TEXT.match(body)
    if match:
        text = match.group("text").strip()
        known = KNOWN_PARTNER_TEXTS.get(slugify(text))
        if known is not None:
            return RecognisedAbility(f"partner-{slugify(known)}", partner_text=known, text=line)
        return RecognisedAbility("partner-text", partner_text=text, text=line)
    ability = _read_keyword(body, line, table) or _read_cost_in_words(body, line, table)
    if ability is not None:
        return ability
    _cost, grant, change = _patterns(table)
    match = change.match(body)
    if match:
        slug = table.cost[match.group("keyword").lower()]
        return RecognisedAbility(
            slug,
            changes=True,
            text=line,
            printed_keyword=table.labels.get(slug),
            change_amount=match.group("amount"),
            change_less=match.group("direction").lower() == "less",
        )
    match = grant.match(body)
    if match:
        cost = match.group("mana") or match.group("text")
        who = match.group("who").strip()
        slug = table.cost[match.group("keyword").lower()]
        grantee = _GRANTEE.match(who)
        return RecognisedAbility(
            slug,
            cost=cost.strip(),
            granted_to=who[:1].lower() + who[1:],
            text=line,
            printed_keyword=table.labels.get(slug),
            grant_zone=grantee.group("zone").lower() if grantee else None,
            grant_type=grantee.group("type").capitalize() if grantee else None,
            grant_yours=bool(grantee),
        )
    return None


# "If you control a Plains, you may tap an untapped creature you control rather than pay ...".
_COST_IN_WORDS = re.compile(
    r"^(?:if (?P<condition>[^,]+), )?you may (?P<cost>.+?) (?P<phrase>rather than .+?)\.?$", re.I
)


# "You may cast creature spells as though they had flash." (a permission the permanent gives its
# controller's cards of one card type, or all), "You may cast this spell as though it had flash." (the
# card's own), "You may play lands and cast spells from the top of your library."
_PERMISSION = re.compile(
    r"^you may (?:play lands and )?cast (?:(?P<own>this spell)|(?:(?P<type>[a-z]+) )?spells) (?P<phrase>.+)$",
    re.IGNORECASE,
)
_CARD_TYPES = {
    "artifact",
    "battle",
    "creature",
    "enchantment",
    "instant",
    "kindred",
    "planeswalker",
    "sorcery",
}
# Said beside a permission to cast from the library, and no part of it.
_LOOK_AT_THE_TOP = "you may look at the top card of your library any time"


def _read_permission(body: str, line: str, name: str | None, table: KeywordTable) -> RecognisedAbility | None:
    """A permission to cast (data: the mechanics with a mtgkb:PermissionKeyword phrase). Another
    sentence on its line ("If you cast a spell this way, pay life ...") may change it: kept unread, so
    its verdicts cannot tell; the flash permission's (a sacrifice later) does not change the cast."""
    sentences = printed = [s.strip() for s in body.rstrip(".").split(". ")]
    names = [name, name.split(",")[0]] if name else []
    sentences = [_OWN_CARD.sub("cast this spell ", s) for s in sentences]
    for own_name in names:
        sentences = [s.replace(f"cast {own_name} ", "cast this spell ") for s in sentences]
    for index, sentence in enumerate(sentences):
        match = _PERMISSION.match(sentence)
        phrase = match.group("phrase").lower() if match else ""
        slug = table.permission.get(phrase)
        own = match is not None and match.group("own") is not None
        said = ""  # what the card's own permission says beyond its zone: "using its blitz ability"
        if match is not None and slug is None and own:
            slug, said = _own_permission(phrase, match.group("phrase"), table)
        if match is None or slug is None:
            continue
        kind = (match.group("type") or "").lower()
        if kind and kind not in _CARD_TYPES:
            return None  # "Goblin spells", "historic spells": a scope no structure says
        others = [s for i, s in enumerate(sentences) if i != index and s.lower() != _LOOK_AT_THE_TOP]
        flash = "flash" in slug
        zone = None if flash else "graveyard" if "graveyard" in slug else "library"
        if own and zone is not None:
            # The card's own permission to be cast from its graveyard (601.3): how it is cast, when
            # the sentence says more ("using its blitz ability", "as long as you control a Zombie"),
            # is kept unread, so its verdicts cannot tell rather than say no.
            unread = ". ".join(part for part in (printed[index] if said else "", *others) if part)
            return RecognisedAbility(slug, text=line, printed_keyword=printed[index], trailing=unread or None)
        return RecognisedAbility(
            slug,
            text=line,
            printed_keyword=sentence,
            granted_to=None if own else f"your {kind + ' ' if kind else ''}spells",
            grant_zone=None if own else zone,
            grant_type=kind.capitalize() or None,
            grant_yours=not own,
            trailing=None if flash or not others else ". ".join(others),
        )
    return None


# Newer Oracle text says "this card" for a card's own permission to be cast from a zone.
_OWN_CARD = re.compile(r"\bcast this card ", re.IGNORECASE)


def _own_permission(phrase: str, printed: str, table: KeywordTable) -> tuple[str | None, str]:
    """The permission a card gives itself ("from your graveyard using its blitz ability"): the
    mechanic of the zone phrase it begins with, and what it says after it."""
    for words, slug in table.permission.items():
        if "flash" not in slug and (phrase.startswith(words + " ") or phrase.startswith(words + ",")):
            return slug, printed[len(words) :].strip(" ,")
    return None, ""


# "If you control a commander, you may cast this spell without paying its mana cost."
_FREE_IN_WORDS = re.compile(
    r"^(?:if (?P<condition>[^,]+), )?you may cast this spell (?P<phrase>without paying its mana cost)\.?$",
    re.I,
)


def _read_cost_in_words(body: str, line: str, table: KeywordTable) -> RecognisedAbility | None:
    """An alternative cost a sentence names: its cost (none: "without paying its mana cost"), and the
    condition it is offered on."""
    match = _COST_IN_WORDS.match(body) or _FREE_IN_WORDS.match(body)
    slug = table.in_words.get(match.group("phrase").lower()) if match else None
    if match is None or slug is None:
        return None
    free = "cost" not in match.groupdict()
    cost, condition = "{0}" if free else _mana_first(match.group("cost")), match.group("condition")
    return RecognisedAbility(slug, cost=cost, text=line, in_words=True, offered_if=condition)


_PAY_MANA = re.compile(rf"^pay (?P<mana>{_MANA})$", re.IGNORECASE)


def _mana_first(cost: str) -> str:
    """ "pay {1} and return a basic land you control to its owner's hand" as a cost is printed:
    "{1}, return a basic land you control to its owner's hand", its mana first."""
    parts = re.split(r",\s*(?:and\s+)?|\s+and\s+", cost)
    mana = [m.group("mana") for m in map(_PAY_MANA.match, parts) if m]
    rest = [p for p in parts if not _PAY_MANA.match(p)]
    return ", ".join(["".join(mana), *rest]) if mana else cost


def _read_keyword(part: str, line: str, table: KeywordTable) -> RecognisedAbility | None:
    """A plain keyword ("Split second", "Flash") or a cost keyword ("Ninjutsu {1}{U}") on its own."""
    slug = table.plain.get(part.lower())
    if slug is not None:
        return RecognisedAbility(slug, text=line, printed_keyword=table.labels.get(slug))
    match = _condition_pattern(table).match(part)
    if match:
        slug = table.condition[match.group("keyword").lower()]
        printed = table.labels.get(slug)
        return RecognisedAbility(slug, text=line, printed_keyword=printed, condition=match.group("text"))
    match = _patterns(table)[0].match(part)
    if not match:
        return None
    cost = match.group("text") or match.group("mana")
    keyword = match.group("keyword")
    slug = table.cost[keyword.lower()]
    # The keyword as printed: one mechanic may have several ("Swampcycling" is cycling).
    printed = table.labels.get(slug) if keyword.lower() == table.labels.get(slug, "").lower() else keyword
    count = match.group("count")
    return RecognisedAbility(
        slug, cost=cost.strip(), text=line, printed_keyword=printed, count=count.upper() if count else None
    )

"""Can these cards lead a Commander deck together? One check per rule: each card may be a commander
(903.3, or as a partner ability's candidate, 702.124k), no card twice (903.5b), at most two
(702.124a, 702.124g), a partner ability that accepts the other card on its own terms (702.124f-m),
and the combined colour identity (702.124c, 903.4).

The rules come from the graph (:mod:`mtgkb.reasoning.commanders.model`): which requirements make a card
a commander, each partner mechanic's pairing rule and candidate requirement. The evaluation below
knows the five pairing rules of the ontology and nothing about particular mechanics or cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import V
from mtgkb.reasoning.commanders.model import (
    _SYMBOL,
    Ability,
    CommanderCardFacts,
    Consequence,
    Model,
    Requirement,
    load_cards,
    load_model,
    symbol_colors,
    without_reminders,
    wubrg,
)
from mtgkb.reasoning.contract import Check, Verdict, all_cites, decide, rule_order
from mtgkb.reasoning.phrases import article
from mtgkb.reasoning.requirements.registry import local_name, not_modelled_phrase, patterns

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

# The rules concepts whose citations the checks that are no requirement carry
# (data/concepts/commander-checks.ttl, data/concepts/actions.ttl, data/commander.ttl).
AT_MOST_TWO = mint("concept", "at-most-two-commanders")
TWO_DIFFERENT_CARDS = mint("concept", "two-different-cards")
SECOND_COMMANDER = mint("concept", "second-commander")
PARTNER_NEEDED = mint("concept", "partner-needed")
ONE_PARTNER_ABILITY = mint("concept", "one-partner-ability-used")
NO_COMBINING = mint("concept", "partner-abilities-do-not-combine")
COLOR_IDENTITY = mint("concept", "color-identity")
COMBINED_IDENTITY = mint("concept", "combined-color-identity")
PHYREXIAN = mint("concept", "phyrexian-mana")
HYBRID = mint("concept", "hybrid-mana")
REMINDER_TEXT = mint("concept", "color-identity-reminder-text")
COLOR_INDICATOR = mint("concept", "color-indicator")
BACK_FACE = mint("concept", "color-identity-back-face")


@dataclass
class CommanderCard:
    name: str
    iri: str
    color_identity: list[str]
    partner_abilities: list[str]  # labels of its partner abilities


@dataclass
class CommandersVerdict(Verdict):
    cards: list[CommanderCard]
    via: str | None  # the partner ability that pairs them; None for a single commander or a "no"
    via_mechanic: str | None
    color_identity: list[str]
    follows: list[Consequence] = field(default_factory=list)  # what a legal pair means in the game


@dataclass
class Pairing:
    holds: bool | None  # None: cannot tell (``unmodelled`` says what the pair rests on that is not modelled)
    because: str
    cites: list[str]
    mechanic: str | None = None  # the mechanic that pairs them, when it holds (or cannot be told)
    owner: str | None = None  # IRI of the card whose ability it is
    unmodelled: list[str] = field(default_factory=list)  # requirement properties with no evaluator


def commanders_verdict(kb: KnowledgeBase, names: list[str]) -> CommandersVerdict:
    """The verdict on ``names`` (any case or accents; unique prefixes do) as a deck's commanders."""
    from mtgkb.kb.iri_arguments import find_named

    matches = [find_named(kb, name, ("card",)) for name in names]
    facts = load_cards(kb, [m.iri for m in matches])
    return judge(load_model(kb), [facts[m.iri] for m in matches])


def judge(model: Model, cards: list[CommanderCardFacts]) -> CommandersVerdict:
    """The verdict on ``cards`` as commanders, evaluated against ``model``."""
    checks: list[Check] = []
    pairing: Pairing | None = None
    if len(cards) > 2:
        checks.append(
            Check(
                "at most two commanders",
                False,
                f"{len(cards)} cards were named; a deck has one commander, or two through a partner "
                "ability, and no partner ability or combination of them ever allows more than two.",
                model.cites_of(AT_MOST_TWO),
            )
        )
        checks += [eligibility_check(model, card, None, None) for card in cards]
    elif len(cards) == 2:
        first, second = cards
        pairing = pair(model, first, second)
        # Each card first, then whether they are two cards, then the pairing itself.
        checks += [
            eligibility_check(model, first, second, pairing),
            eligibility_check(model, second, first, pairing),
        ]
        if first.iri == second.iri:
            checks.append(
                Check(
                    "two different cards",
                    False,
                    f"{first.name} was named twice; apart from basic lands a Commander deck holds one card "
                    "of each English name, commanders included.",
                    model.cites_of(TWO_DIFFERENT_CARDS),
                )
            )
        checks.append(
            Check("partner abilities allow the pair", pairing.holds, pairing.because, pairing.cites)
        )
    else:
        checks.append(eligibility_check(model, cards[0], None, None))
    identity_check, identity = color_identity_check(model, cards)
    checks.append(identity_check)
    answer = decide(checks)
    via = pairing.mechanic if answer and pairing else None
    follows = model.follows(via) if via else []
    return CommandersVerdict(
        answer=answer,
        checks=checks,
        cites=all_cites(checks, *(c.cites for c in follows)),
        cards=[
            CommanderCard(
                card.name,
                card.iri,
                card_identity(card)[0],
                [a.label for a in card.partner_abilities(model)],
            )
            for card in cards
        ],
        via=model.mechanics[via].label if via else None,
        via_mechanic=via,
        color_identity=identity,
        follows=follows,
    )


def is_legal_pair(model: Model, first: CommanderCardFacts, second: CommanderCardFacts) -> Pairing | None:
    """The pairing when ``first`` and ``second`` can be a deck's two commanders, else None. A pairing
    whose ``holds`` is None cannot be told: nothing the checks evaluate fails, but some requirement
    it rests on carries a property no evaluator knows (``unmodelled``); it is no legal pair, and no
    "not a pair" either."""
    if first.iri == second.iri:
        return None
    pairing = pair(model, first, second)
    if pairing.holds is False:
        return None
    unknown = list(pairing.unmodelled)
    for card, other in ((first, second), (second, first)):
        check = eligibility_check(model, card, other, pairing)
        if check.holds is False:
            return None
        if check.holds is None:
            unknown += eligibility_unmodelled(model, card, other)
    if unknown:
        pairing.holds = None
        pairing.unmodelled = sorted(set(unknown))
    return pairing


def eligibility_unmodelled(
    model: Model, card: CommanderCardFacts, other: CommanderCardFacts | None
) -> list[str]:
    """The requirement properties with no evaluator among the requirements ``card`` meets as far as
    they are modelled: what keeps its eligibility from a yes."""
    found = [p for r in model.eligibility if not unmet(model, card, r) for p in r.unmodelled]
    for ability in other.partner_abilities(model) if other is not None else []:
        candidate = model.requirements.get(model.mechanics[ability.mechanic].candidate or "")  # type: ignore[index]
        if candidate and not unmet(model, card, candidate):
            found += candidate.unmodelled
    return sorted(set(found))


# ---------------------------------------------------------------------------------------------------
# Requirements


def unmet(model: Model, card: CommanderCardFacts, requirement: Requirement) -> list[str]:
    """What ``card`` lacks to meet ``requirement``, in words; empty when it meets it. Each part with a
    pattern (supertype, card type, subtype, ...) is the pattern's to say, asked of the card's
    characteristics; the two kinds of :data:`PYTHON_EVALUATORS` for commanders are checked here."""
    if any(key not in card.meets for key in _keys(requirement)):
        ask_patterns(model, [card], [requirement])
    missing = []
    for prop, values in _ordered_parts(requirement):
        if not card.meets[(prop, tuple(values))]:
            missing.append(_lacks(prop, values))
    every = card.every_creature_type(model) and "Creature" in requirement.card_types
    if requirement.only_listed_subtypes:
        if every:
            missing.append(
                "every creature type through changeling, so more than " + " and ".join(requirement.subtypes)
            )
        else:
            extra = [s for s in card.subtypes if s not in requirement.subtypes]
            if extra:
                missing.append(f"also {article(' '.join(extra))}")
    for mechanic in requirement.abilities:
        if not card.has_mechanic(model, mechanic):
            label = model.mechanics[mechanic].label if mechanic in model.mechanics else mechanic
            missing.append(f"without an ability saying \u201c{label.lower()}\u201d")
    return missing


#: The words for what a card lacks, by requirement property; any other says the property's name.
_LACKS = {
    V.requiresSupertype: lambda v: f"not {v.lower()}",
    V.requiresCardType: lambda v: f"not {article(v.lower() + ' card')}",
    V.requiresSubtype: lambda v: f"not {article(v)}",
    V.requiresPowerToughnessBox: lambda v: (
        "without a power/toughness box" if v else "with a power/toughness box"
    ),
}
#: The order the reasons come in: supertypes, card types, subtypes, then the others.
_FIRST = (V.requiresSupertype, V.requiresCardType, V.requiresSubtype)


def _ordered_parts(requirement: Requirement) -> list[tuple[str, list]]:
    """(property, values) per check: one value each, except for a pattern where any value does."""
    found = []
    props = [p for p in _FIRST if p in requirement.parts]
    props += [p for p in requirement.parts if p not in _FIRST]
    for prop in props:
        values = requirement.parts[prop]
        found += [(prop, values)] if patterns()[prop].any_value else [(prop, [v]) for v in values]
    return found


def _keys(requirement: Requirement) -> list[tuple[str, tuple]]:
    return [(prop, tuple(values)) for prop, values in _ordered_parts(requirement)]


def _lacks(prop: str, values: list) -> str:
    if prop in _LACKS and len(values) == 1:
        return _LACKS[prop](values[0])
    shown = " or ".join(str(v).rsplit("/", 1)[-1] for v in values)
    return f"not meeting mtgkb:{local_name(prop)} {shown}"


def ask_patterns(
    model: Model, cards: list[CommanderCardFacts], more: list[Requirement] | None = None
) -> None:
    """Ask every part of every requirement of ``model`` of all ``cards`` at once, with the patterns
    of queries/requirements/: one small graph of the cards' characteristics, one query per part, so
    the whole pool's partner network costs a few queries, not one per card. A card whose ability
    gives it every creature type (mtgkb:hasEveryCreatureType: changeling) has, as subtypes, the
    creature types the requirements on creatures name."""
    from mtgkb.reasoning.requirements.subject_graph import Subject, SubjectGraph

    if not cards:
        return
    creature_types = sorted(
        {s for r in model.requirements.values() if "Creature" in r.card_types for s in r.subtypes}
    )
    subjects = [
        Subject(
            card.iri,
            card.name,
            card_types=tuple(card.types),
            supertypes=tuple(card.supertypes),
            power=card.power,
            toughness=card.toughness,
            subtypes=tuple(
                dict.fromkeys([*card.subtypes, *(creature_types if card.every_creature_type(model) else [])])
            ),
        )
        for card in cards
    ]
    graph = SubjectGraph(subjects)
    requirements = [*model.requirements.values(), *(more or [])]
    asked = {key for requirement in requirements for key in _keys(requirement)}
    for prop, values in sorted(asked, key=str):
        meeting = graph.meeting(prop, list(values)) or set()
        for card in cards:
            card.meets[(prop, values)] = card.iri in meeting


def _type_phrase(card: CommanderCardFacts) -> str:
    words = [*card.supertypes, *card.types]
    phrase = " ".join(words).lower() or "card"
    if card.subtypes:
        phrase += " \u2014 " + " ".join(card.subtypes)
    return phrase


def eligibility_check(
    model: Model, card: CommanderCardFacts, other: CommanderCardFacts | None, pairing: Pairing | None
) -> Check:
    """May ``card`` be a commander: on its own (any requirement of 903.3), or as what the other
    commander's partner ability accepts (a Background beside choose a Background, 702.124k)."""
    title = f"{card.name} can be a commander"
    unknown: Check | None = None
    for requirement in model.eligibility:
        if not unmet(model, card, requirement):
            because = f"{card.name} is {requirement.label[0].lower()}{requirement.label[1:]}."
            cites = requirement.cites
            if card.off_battlefield:
                because = f"{because[:-1]} in the command zone: {card.off_battlefield.rstrip('.')}."
                cites = _numbers(cites, card.off_battlefield_cites)
            if not requirement.unmodelled:
                return Check(title, True, because, cites)
            # What is modelled holds; what is not is no yes. Another kind may still say yes outright.
            unknown = unknown or Check(
                title,
                None,
                f"{because[:-1]}, as far as modelled; {not_modelled_phrase(requirement.unmodelled)}.",
                requirement.cites,
            )
    if unknown is not None:
        return unknown
    if other is not None:
        for ability in other.partner_abilities(model):
            mechanic = model.mechanics[ability.mechanic]  # type: ignore[index]
            candidate = model.requirements.get(mechanic.candidate or "")
            if candidate and not unmet(model, card, candidate):
                used = pairing is not None and pairing.mechanic == mechanic.iri and pairing.owner == other.iri
                cites = _numbers(model.cites_of(SECOND_COMMANDER), candidate.cites)
                if used:
                    because = (
                        f"{card.name} is {candidate.label[0].lower()}{candidate.label[1:]}, which may be the "
                        f"second commander beside {other.name}'s {ability.label}."
                    )
                    if candidate.unmodelled:
                        what = not_modelled_phrase(candidate.unmodelled)
                        because = f"{because[:-1]}, as far as modelled; {what}."
                        return Check(title, None, because, cites)
                    return Check(title, True, because, cites)
    lacks = [unmet(model, card, r) for r in model.eligibility]
    shared = [reason for reason in lacks[0] if all(reason in other for other in lacks[1:])] if lacks else []
    kinds = _alternatives([_lower_first(r.label) for r in model.eligibility])
    # What every kind of commander needs and the card lacks ("not legendary") says it all; else every
    # reason once ("not a creature card, not a Vehicle, ...").
    why = f"it is {_listed(shared or list(dict.fromkeys(m for missing in lacks for m in missing)))}"
    because = f"{card.name} ({_type_phrase(card)}) cannot lead a deck: {why}. A commander is {kinds}."
    cites = _numbers(*(r.cites for r in model.eligibility))
    # A card some partner ability accepts as its candidate (a Background) is a commander only there.
    for mechanic in model.mechanics.values():
        candidate = model.requirements.get(mechanic.candidate or "")
        if candidate and not unmet(model, card, candidate):
            beside = (
                f"; {other.name} has no {mechanic.label} ability"
                if other is not None
                else ", and it was named alone"
            )
            because += (
                f" As {_lower_first(candidate.label)} it may be a commander only as the second commander "
                f"of a card with {mechanic.label}{beside}."
            )
            cites = _numbers(cites, candidate.cites)
    return Check(title, False, because, cites)


# ---------------------------------------------------------------------------------------------------
# Pairing


def pair(model: Model, first: CommanderCardFacts, second: CommanderCardFacts) -> Pairing:
    """Whether a partner ability of either card accepts the other, each on its own terms."""
    attempts: list[Pairing] = []
    for owner, other in ((first, second), (second, first)):
        for ability in owner.partner_abilities(model):
            attempts.append(accepts(model, owner, ability, other))
    # A pairing that holds; else one that cannot be told (it is no "no").
    working = [a for a in attempts if a.holds] or [a for a in attempts if a.holds is None]
    if working:
        chosen = working[0]
        owners = {first.iri: first, second.iri: second}
        several = [c for c in owners.values() if len(c.partner_abilities(model)) > 1]
        if several:
            names = " and ".join(c.name for c in several)
            chosen.because += (
                f" {names} {'has' if len(several) == 1 else 'have'} more than one partner ability; "
                f"only the {model.mechanics[chosen.mechanic].label} one is used."  # type: ignore[index]
            )
            chosen.cites = _numbers(chosen.cites, model.cites_of(ONE_PARTNER_ABILITY))
        return chosen
    if not attempts:
        return Pairing(
            False,
            f"Neither {first.name} nor {second.name} has a partner ability, and only a partner ability "
            "lets a deck have two commanders.",
            model.cites_of(PARTNER_NEEDED),
        )
    cites = _numbers(*(a.cites for a in attempts))
    kinds = {
        model.mechanics[a.mechanic].iri  # type: ignore[index]
        for card in (first, second)
        for a in card.partner_abilities(model)
    }
    because = " ".join(dict.fromkeys(a.because for a in attempts))
    if first.partner_abilities(model) and second.partner_abilities(model) and len(kinds) > 1:
        because += " Different partner abilities never combine."
        cites = _numbers(cites, model.cites_of(NO_COMBINING))
    return Pairing(False, because, cites)


def _every_type(model: Model, card: CommanderCardFacts) -> list[Ability]:
    return [
        a
        for a in card.abilities
        if a.mechanic in model.mechanics and model.mechanics[a.mechanic].every_creature_type
    ]


def _same_mechanic(model: Model, ability: Ability, other: CommanderCardFacts) -> list[Ability]:
    return [a for a in other.partner_abilities(model) if a.mechanic == ability.mechanic]


def accepts(model: Model, owner: CommanderCardFacts, ability: Ability, other: CommanderCardFacts) -> Pairing:
    """Does ``owner``'s partner ``ability`` accept ``other`` as the second commander?"""
    mechanic = model.mechanics[ability.mechanic]  # type: ignore[index]
    rule = mechanic.pairing_rule
    cites = mechanic.cites
    has = f"{owner.name} has {ability.label}"
    others = ", ".join(a.label for a in other.partner_abilities(model)) or "no partner ability"
    if rule == V.SameAbility:
        if _same_mechanic(model, ability, other):
            return Pairing(True, f"{has}, and so has {other.name}.", cites, mechanic.iri, owner.iri)
        return Pairing(
            False, f"{has}, which pairs only with another card that has it; {other.name} has {others}.", cites
        )
    if rule == V.SameAbilityText:
        text = (ability.partner_text or "").casefold()
        if any((a.partner_text or "").casefold() == text for a in _same_mechanic(model, ability, other)):
            return Pairing(
                True,
                f"{has}, and so has {other.name}: the same text after the dash.",
                cites,
                mechanic.iri,
                owner.iri,
            )
        return Pairing(
            False,
            f"{has}, which pairs only with a card that has partner\u2014{ability.partner_text} too; "
            f"{other.name} has {others}.",
            cites,
        )
    if rule == V.MutualName:
        back = [a for a in _same_mechanic(model, ability, other) if a.partner_with == owner.iri]
        if ability.partner_with == other.iri and back:
            return Pairing(
                True, f"{has}, and {other.name} names {owner.name} back.", cites, mechanic.iri, owner.iri
            )
        named = ability.partner_with_name or "another card"
        return Pairing(False, f"{has}: it pairs only with {named}, not with {other.name}.", cites)
    candidate = model.requirements.get(mechanic.candidate or "")
    if candidate is not None:
        missing = unmet(model, other, candidate)
        label = candidate.label[0].lower() + candidate.label[1:]
        cites = _numbers(cites, candidate.cites)
        if missing and other.every_creature_type(model) and "Creature" in candidate.card_types:
            cites = _numbers(cites, *(model.mechanics[a.mechanic].cites for a in _every_type(model, other)))
        if not missing and candidate.unmodelled:
            # What is modelled holds; what is not is no yes (and no no).
            return Pairing(
                None,
                f"{has}, and {other.name} is {label} as far as modelled; "
                f"{not_modelled_phrase(candidate.unmodelled)}.",
                cites,
                mechanic.iri,
                owner.iri,
                list(candidate.unmodelled),
            )
        if not missing:
            return Pairing(True, f"{has}, and {other.name} is {label}.", cites, mechanic.iri, owner.iri)
        return Pairing(
            False, f"{has}, which pairs only with {label}; {other.name} is {_listed(missing)}.", cites
        )
    return Pairing(False, f"{has}, whose pairing rule is not one this tool evaluates.", cites)


# ---------------------------------------------------------------------------------------------------
# Colour identity


def card_identity(card: CommanderCardFacts) -> tuple[list[str], list[str], list[str]]:
    """(colour identity, what contributed to it in words, the rules concepts those rest on) of one
    card (903.4).

    Mana symbols in the costs and rules text of every face, reminder text left out, plus each face's
    colours (a colour indicator), plus the identity the card data states (a characteristic-defining
    ability we do not read)."""
    notes: list[str] = []
    cites: list[str] = []
    costs = [card.mana_cost, *(f.mana_cost for f in card.faces)]
    texts = [card.text, *(f.text for f in card.faces)]
    colors = symbol_colors(" ".join(c for c in costs if c))
    colors |= symbol_colors(" ".join(without_reminders(t) for t in texts if t))
    symbols = " ".join(c for c in (*costs, *(without_reminders(t) for t in texts)) if c)
    if any("/" in s and s.split("/")[-1] == "P" for s in _symbols(symbols)):
        notes.append("a Phyrexian mana symbol counts as its colour")
        cites.append(PHYREXIAN)
    if any("/" in s and s.split("/")[-1] != "P" for s in _symbols(symbols)):
        notes.append("a hybrid mana symbol counts as both halves' colours")
        cites.append(HYBRID)
    removed = symbol_colors(" ".join(t for t in texts if t)) - colors
    if removed:
        notes.append("mana symbols in reminder text do not count")
        cites.append(REMINDER_TEXT)
    for face in card.faces:
        # Only a printed colour indicator is one: a flip card's other half has the card's colours
        # and no indicator (710.1c).
        indicated = set(face.indicator)
        if indicated:
            notes.append(
                f"the colour indicator of {face.name or face.type_line or 'a face'} adds "
                f"{' '.join(wubrg(indicated))}"
            )
            cites.append(COLOR_INDICATOR)
        colors |= set(face.colors)
    if card.faces:
        front = card.faces[0]
        front_colors = (
            symbol_colors(front.mana_cost) | symbol_colors(without_reminders(front.text)) | set(front.colors)
        )
        back = set().union(
            *(
                symbol_colors(f.mana_cost) | symbol_colors(without_reminders(f.text)) | set(f.colors)
                for f in card.faces[1:]
            )
        )
        if back - front_colors:
            notes.append(f"the back face adds {' '.join(wubrg(back - front_colors))}")
            cites.append(BACK_FACE)
    colors |= set(card.colors)
    stated = set(card.stored_identity) - colors
    if stated:
        notes.append(f"the card data gives {' '.join(wubrg(stated))} as well")
    colors |= set(card.stored_identity)
    return wubrg(colors), notes, cites


def _symbols(text: str) -> list[str]:
    return [s.upper() for s in _SYMBOL.findall(text)]


def color_identity_check(model: Model, cards: list[CommanderCardFacts]) -> tuple[Check, list[str]]:
    combined: set[str] = set()
    parts: list[str] = []
    concepts = [COLOR_IDENTITY]
    for card in cards:
        identity, notes, extra = card_identity(card)
        combined |= set(identity)
        shown = " ".join(identity) or "colourless"
        parts.append(f"{card.name}: {shown}" + (f" ({'; '.join(notes)})" if notes else ""))
        concepts += extra
    if len(cards) == 2:
        concepts.append(COMBINED_IDENTITY)
    cites = [n for c in concepts for n in model.cites_of(c)]
    identity = wubrg(combined)
    shown = " ".join(identity) or "colourless"
    label = "combined colour identity" if len(cards) > 1 else "colour identity"
    because = f"{'; '.join(parts)}. " + (f"Together: {shown}." if len(cards) > 1 else "")
    return Check(f"{label} {shown}", True, because.strip(), _numbers(cites)), identity


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _alternatives(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " or " + items[-1]


def _lower_first(label: str) -> str:
    return label[:1].lower() + label[1:]


def _numbers(*groups: list[str]) -> list[str]:
    return sorted({n for group in groups for n in group}, key=rule_order)

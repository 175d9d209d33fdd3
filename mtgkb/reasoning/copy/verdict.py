"""What does this copy become? A card's copy effect (read from the graph: its mode, what it may copy,
its condition and its exceptions) applied to a target, with the copy rules: the checks
(:mod:`.checks`), the copiable values and exceptions (:mod:`.values`), then the resulting object and
what was and was not copied."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mtgkb.core.errors import MtgkbError, shown
from mtgkb.kb.iris import mint
from mtgkb.lookups.rulings import RulingEntry
from mtgkb.reasoning.contract import Check, Verdict, all_cites, decide
from mtgkb.reasoning.copy.checks import check_condition, check_target
from mtgkb.reasoning.copy.facts import (
    CopyCardFacts,
    CopyEffectFacts,
    CopyInputError,
    Values,
    copy_card_name,
    copy_concept_cites,
    load_card,
)
from mtgkb.reasoning.copy.situation import CopySituation, SituationObject
from mtgkb.reasoning.copy.values import (
    AppliedException,
    Target,
    addition_applies,
    apply_exceptions,
    copiable_values_of,
)
from mtgkb.reasoning.situation_text import listed

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase


# ------------------------------------------------------------------------------------------------
# The verdict


@dataclass
class CopiedObject:
    """The object that results from the copy, as the issue's ``result`` describes it."""

    name: str | None
    mana_cost: str | None
    mana_value: float
    colors: list[str]
    types: list[str]
    supertypes: list[str]
    subtypes: list[str]
    power: str | None
    toughness: str | None
    loyalty: str | None
    abilities: list[str]
    token: bool
    tapped: bool
    attacking: bool
    commander: bool
    counters: dict[str, int] = field(default_factory=dict)


@dataclass
class Characteristic:
    """One thing copied or left behind, with the rule that says so."""

    characteristic: str
    value: str
    cites: list[str]


@dataclass
class CopyVerdict(Verdict):
    card: str
    target: str
    effect: str | None  # the copy ability's label
    mode: str | None  # "entering as a copy", "creating a token that is a copy", "becoming a copy"
    copies_what: str | None
    result: CopiedObject | None
    copied: list[Characteristic]
    not_copied: list[Characteristic]
    exceptions: list[AppliedException]
    rulings: list[RulingEntry]
    situation: bool  # whether a game situation was given; without one, game-state checks are assumed


# ------------------------------------------------------------------------------------------------
# The verdict


def mana_value(cost: str | None) -> float:
    """CR 202.3: numbers count their value, X counts 0 off the stack (202.3e), hybrid {2/W} its
    larger part, every other symbol 1."""
    total = 0
    for symbol in re.findall(r"\{([^}]*)\}", cost or ""):
        parts = symbol.split("/")
        if symbol.isdigit():
            total += int(symbol)
        elif symbol in ("X", "Y", "Z"):
            continue
        elif parts[0].isdigit():
            total += max(int(parts[0]), 1)
        else:
            total += 1
    return float(total)


def copy_verdict(
    kb: KnowledgeBase, card_name: str, target_name: str, situation: CopySituation | None = None
) -> CopyVerdict:
    """Can ``card_name``'s copy effect copy ``target_name``, and what does the copy become?"""
    card = load_card(kb, card_name)
    target, source = _find_target(kb, card, target_name, situation)
    if not card.copy_effects:
        check = Check(
            f"{card.name} has a copy effect",
            False,
            f"nothing in {card.name}'s text makes a copy of a permanent (no 'enters as a copy', "
            "'token that's a copy' or 'becomes a copy' ability)",
            copy_concept_cites("copy-effect-rule"),
        )
        return _verdict(card, target, None, [check], None, [], [], [], situation is not None)
    # A card with several copy abilities (Mizzium Transreliquat) answers with the first that can copy
    # the target, or else with the first one's reasons.
    tried = [
        (effect, _effect_checks(effect, card, target, source, situation)) for effect in card.copy_effects
    ]
    effect, checks = next(
        ((e, c) for e, c in tried if decide(c)),
        next(((e, c) for e, c in tried if decide(c) is None), tried[0]),
    )
    if decide(checks) is not True:
        return _verdict(card, target, effect, checks, None, [], [], [], situation is not None)
    values, applied = apply_exceptions(target.values, effect, card)
    exceptions = [*target.inherited, *applied]
    statuses = [v for e in effect.exceptions if e.kind == "copy-status-not-copiable" for v in e.values]
    later = [v for e in effect.exceptions if e.kind == "copy-later-effect-not-copiable" for v in e.values]
    counters = _counters(effect, values)
    token = effect.mode == mint("concept", "creates-a-token-copy") or (
        source is not None and source.token is not None
    )
    on_source = source if effect.mode != mint("concept", "creates-a-token-copy") else None
    commander = bool(on_source and situation and situation.is_commander(on_source))
    result = CopiedObject(
        name=values.name,
        mana_cost=values.mana_cost,
        mana_value=0.0 if values.mana_value_zero else mana_value(values.mana_cost),
        colors=values.colors,
        types=values.types,
        supertypes=values.supertypes,
        subtypes=values.subtypes,
        power=values.power,
        toughness=values.toughness,
        loyalty=values.loyalty,
        abilities=[*values.abilities, *(f"{a} (from an effect after the copy, not copiable)" for a in later)],
        token=token,
        tapped="tapped" in statuses or bool(on_source and on_source.tapped),
        attacking="attacking" in statuses or bool(on_source and on_source.attacking),
        commander=commander,
        counters=counters,
    )
    copied = _copied(target, target.values)
    not_copied = _not_copied(target, situation)
    return _verdict(
        card, target, effect, checks, result, copied, not_copied, exceptions, situation is not None
    )


def _effect_checks(
    effect: CopyEffectFacts,
    card: CopyCardFacts,
    target: Target,
    source: SituationObject | None,
    situation: CopySituation | None,
) -> list[Check]:
    checks = [
        Check(
            f"{card.name} has a copy effect",
            True,
            f"{card.name}: {_effect_phrase(effect)}",
            effect.mode_cites or copy_concept_cites("copy-effect-rule"),
        )
    ]
    checks += check_condition(effect, card, source)
    checks += check_target(effect, card, target, source, situation is not None)
    return checks


def _effect_phrase(effect: CopyEffectFacts) -> str:
    """ "May enter as a copy of a creature (entering as a copy)"; an effect the importer named only by
    its kind ("Copy effect (creates a token copy)") says its mode once: "a copy effect, creating a
    token that is a copy"."""
    label = effect.label or ""
    if not label or label.casefold().startswith("copy effect"):
        return f"a copy effect, {effect.mode_label}"
    return f"{label} ({effect.mode_label})"


def _counters(effect: CopyEffectFacts, values: Values) -> dict[str, int]:
    """707.9e additions, applied only where the copy has the type they ask for (707.9f)."""
    counters: dict[str, int] = {}
    for exception in effect.exceptions:
        if exception.kind != "copy-addition-not-copiable":
            continue
        if exception.only_if_type and exception.only_if_type not in values.types:
            continue
        for kind in exception.values:
            if addition_applies(kind, values):
                counters[kind] = counters.get(kind, 0) + exception.count
    return counters


def _copied(target: Target, values: Values) -> list[Characteristic]:
    how = "; ".join(target.source_of_values)
    cites = sorted(set([*copy_concept_cites("copy-printed-values"), *target.cites]))
    rows = [
        ("name", values.name or "(no name)"),
        ("mana cost", values.mana_cost or "(no mana cost)"),
        ("card types", " ".join([*values.supertypes, *values.types]) or "(none)"),
        ("subtypes", " ".join(values.subtypes) or "(none)"),
        ("power/toughness", f"{values.power}/{values.toughness}" if values.power is not None else "(none)"),
        ("rules text", f"{len(values.abilities)} abilit{'y' if len(values.abilities) == 1 else 'ies'}"),
    ]
    if values.loyalty is not None:
        rows.append(("loyalty", values.loyalty))
    copied = [Characteristic(name, f"{value} ({how})", cites) for name, value in rows]
    copied.append(
        Characteristic("color", " ".join(values.colors) or "colorless", copy_concept_cites("copy-color"))
    )
    return copied


def _not_copied(target: Target, situation: CopySituation | None) -> list[Characteristic]:
    counters = ", ".join(f"{n} {k}" for k, n in target.counters.items()) or "none on it"
    status = ", ".join(s for s, on in (("tapped", target.tapped), ("attacking", target.attacking)) if on)
    rows = [
        Characteristic("counters", counters, copy_concept_cites("copy-counters-not-copied")),
        Characteristic(
            "status (tapped, attacking, face up or down)",
            status or "untapped, not attacking",
            copy_concept_cites("copy-status-not-copied"),
        ),
        Characteristic(
            "effects other than copy effects",
            ", ".join(target.effects) or "none given",
            copy_concept_cites("copy-printed-values"),
        ),
        Characteristic(
            "Auras and Equipment attached",
            ", ".join(target.attached) or "none given",
            copy_concept_cites("copy-printed-values"),
        ),
        Characteristic(
            "choices made as it entered",
            "made afresh for the copy",
            copy_concept_cites("copy-choices-made-afresh"),
        ),
    ]
    is_commander = bool(situation and target.obj is not None and situation.is_commander(target.obj))
    rows.append(
        Characteristic(
            "commander designation",
            f"{target.label} is a commander; the copy is not" if is_commander else "not a commander",
            copy_concept_cites("copy-commander-not-copied"),
        )
    )
    return rows


def _verdict(
    card: CopyCardFacts,
    target: Target,
    effect: CopyEffectFacts | None,
    checks: list[Check],
    result: CopiedObject | None,
    copied: list[Characteristic],
    not_copied: list[Characteristic],
    exceptions: list[AppliedException],
    with_situation: bool,
) -> CopyVerdict:
    more = [c for row in copied + not_copied for c in row.cites] + [c for e in exceptions for c in e.cites]
    if result is not None:
        more += target.cites + (
            copy_concept_cites("mana-value-of-x") if "X" in (result.mana_cost or "") else []
        )
    return CopyVerdict(
        answer=decide(checks),
        checks=checks,
        cites=all_cites(checks, more),
        card=card.name,
        target=target.label,
        effect=effect.label if effect else None,
        mode=effect.mode_label if effect else None,
        copies_what=effect.copies_what if effect else None,
        result=result,
        copied=copied,
        not_copied=not_copied,
        exceptions=exceptions,
        rulings=card.rulings,
        situation=with_situation,
    )


def _find_target(
    kb: KnowledgeBase, card: CopyCardFacts, target_name: str, situation: CopySituation | None
) -> tuple[Target, SituationObject | None]:
    """The target object and, when the situation has it, the copying card's own object."""
    if situation is None:
        return copiable_values_of(kb, copy_card_name(kb, target_name)[0]), None
    # The copying card is the object of its name that is not itself a copy of something: a Clone
    # that copied Grizzly Bears is a target, not the source.
    source = next(
        (
            o
            for o in situation.objects
            if o.card == card.name and o.zone == "battlefield" and o.copy_of is None and not o.face_down
        ),
        None,
    ) or _copier_off_the_battlefield(card, situation)
    wanted = target_name.strip().lower()
    try:
        canonical = copy_card_name(kb, target_name)[0]
    except MtgkbError:
        canonical = None
    named = [
        o
        for o in situation.objects
        if (o.token or "").lower() == wanted
        or (o.card or "").lower() == wanted
        or (canonical and o.card == canonical)
    ]
    # Another object of that name first; the source itself only when nothing else has the name, so
    # that "another" and "as it enters" can say no.
    candidates = [o for o in named if o is not source] or named
    if not candidates:
        on_board = listed([o.label for o in situation.objects if o.zone == "battlefield"]) or "nothing"
        raise CopyInputError(
            f"no object named '{shown(target_name)}' in the situation",
            f"name a card or token on the battlefield: {on_board}",
        )
    on_battlefield = [o for o in candidates if o.zone == "battlefield"]
    obj = (on_battlefield or candidates)[0]
    target = copiable_values_of(kb, obj)
    return target, source


def _copier_off_the_battlefield(card: CopyCardFacts, situation: CopySituation) -> SituationObject | None:
    """The copying card while it is cast or enters: its object in another zone of the situation (a
    hand, the stack), or, held nowhere, a spell of the player whose turn it is. Either way its
    controller is known, so "you control" is asked of the situation, never taken to be so."""
    elsewhere = [o for o in situation.objects if o.card == card.name and o.copy_of is None]
    order = {"stack": 0, "hand": 1}
    elsewhere.sort(key=lambda o: order.get(o.zone, 2))
    if elsewhere:
        return elsewhere[0]
    if situation.active_player is None:
        return None
    return SituationObject(player=situation.active_player, zone="stack", card=card.name)

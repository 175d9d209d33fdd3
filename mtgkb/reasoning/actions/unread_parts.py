"""The checks of a verdict on what the Oracle-text readers did not read: a part of an ability's cost
or restrictions, a target of a spell, a sentence on casting it, a permission that may allow it, a
sentence that changes its cost. Each makes its check CANNOT TELL, naming the text, where it could
decide; never a guess."""

from __future__ import annotations

import re

from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import V
from mtgkb.reasoning.contract import Check, rule_order
from mtgkb.reasoning.knowledge import Node, RulesData

# The rules concepts whose citations these checks carry (data/concepts/actions.ttl).
ABILITY_TO_ACTIVATE = mint("concept", "activated-ability")
PAYING_A_SPELL = mint("concept", "paying-the-cost-of-a-spell")
_SPELL_TARGETS = mint("concept", "spell-targets")
_SPELL_TIMING = mint("requirement", "spell-timing")
# The way a sentence mtgkb:unreadCostChange holds changes the cost: "costs {1} less to activate".
_CHANGE_DIRECTION = re.compile(r"\b(less|more) to (?:activate|cast)\b|$", re.IGNORECASE)


def concept_cites(rules: RulesData, concept: str) -> list[str]:
    """The rules a concept node of the graph cites, in book order: a check's citations are data."""
    return sorted(rules.node(concept).cites, key=rule_order)


def _quoted(parts: list[str]) -> str:
    return "; ".join(f"\u201c{p}\u201d" for p in parts)


def unmodelled_parts(rules: RulesData, ability: Node | None, cast: bool = False) -> list[Check]:
    """Cannot tell: a part of the ability that no activation phrase reads is not evaluated, so the
    verdict is no yes, nor a no. Casting, the part is one of the spell's cost ("Evoke—Exile a white
    card from your hand")."""
    parts = ability.all(V.unmodelledPart) if ability is not None else []
    if not parts:
        return []
    what = _quoted(parts)
    if cast:
        because = f"cannot tell: {what} is not modelled here, so whether it may be cast this way is not known"
        cites = concept_cites(rules, PAYING_A_SPELL)
        return [Check("Every part of the cost is modelled", None, because, cites, PAYING_A_SPELL)]
    because = f"cannot tell: {what} is not modelled here, so whether it allows the activation is not known"
    cites = concept_cites(rules, ABILITY_TO_ACTIVATE)
    return [Check("Every part of the ability is modelled", None, because, cites, ABILITY_TO_ACTIVATE)]


def unread_targets(rules: RulesData, targets: Node | None) -> list[Check]:
    """Cannot tell: a target of the spell that no phrase reads (or that it chooses only on a
    condition) is not evaluated, so whether it can be chosen is not known (601.2c)."""
    parts = targets.all(V.unmodelledPart) if targets is not None else []
    if not parts:
        return []
    what = _quoted(parts)
    because = f"cannot tell: {what} is not modelled here, so whether the spell has its targets is not known"
    cites = concept_cites(rules, _SPELL_TARGETS)
    return [Check("Every target of the spell is modelled", None, because, cites, _SPELL_TARGETS)]


def unread_cast_sentences(rules: RulesData, spell: Node | None) -> list[Check]:
    """Cannot tell: a sentence of the text of the ``spell`` (the face cast, or the card) that changes
    how it is cast ("Cast this spell only during your turn", an additional cost) is not read, so it
    may forbid what the rest allows; it can only add to what casting asks, so a check that fails
    still decides."""
    parts = spell.all(V.unreadCastSentence) if spell is not None else []
    if not parts:
        return []
    because = f"cannot tell: {_quoted(parts)} is not modelled here, so whether it may be cast is not known"
    cites = concept_cites(rules, PAYING_A_SPELL)
    return [Check("Every sentence on casting it is modelled", None, because, cites, PAYING_A_SPELL)]


def allow_unread_permissions(spell: Node | None, checks: list[Check]) -> None:
    """Cannot tell, where the card's timing or its cost refuses the cast: a sentence of its text no
    reader reads may allow it then ("You may cast this spell as though it had flash if you pay {2}
    more", an alternative cost on a condition)."""
    parts = spell.all(V.unreadCastPermission) if spell is not None else []
    if not parts:
        return
    what = _quoted(parts)
    for check in checks:
        if check.holds is False and check.evaluates in (_SPELL_TIMING, PAYING_A_SPELL):
            check.holds = None
            check.because += f"; cannot tell: {what} is not modelled here and may allow it"


def deciding_cost_changes(ability: Node | None, spell: Node | None, payable: bool | None) -> list[str]:
    """The sentences changing this action's cost that no reader reads and that could decide it: the
    ability's own ("This ability costs {1} less to activate for each ...", "... less to cast this
    way"), and for a cast the spell's ("This spell costs {2} more to cast"). An unread reduction
    could make a cost that is too much payable, an unread increase one that is enough too much:
    only then is the answer unknown (601.2f, 602.2b)."""
    own = ability.all(V.unreadCostChange) if ability is not None else []
    changes = [*own, *(spell.all(V.unreadCostChange) if spell is not None else [])]
    wanted = "more" if payable else "less"
    return [c for c in changes if (_CHANGE_DIRECTION.search(c) or [None, None])[1] == wanted]

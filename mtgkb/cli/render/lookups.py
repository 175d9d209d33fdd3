"""Text for the judge's lookups: a card, rulings, a rule, search results. Written for reading at a
terminal: a header, then each ability with its cost and the rules it rests on ("CR 702.49d"), then
dated rulings; the official wording wherever it has been imported, our summary marked as such."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgkb.cli.render.faces import (
    face_heading,
    layout_lines,
    meld_lines,
    prototype_lines,
    render_melded_face,
)
from mtgkb.cli.render.faces import stats as _stats
from mtgkb.cli.render.faces import wrap as _wrap
from mtgkb.core.errors import shown as cut

if TYPE_CHECKING:
    from mtgkb.lookups.card import AbilityInfo, CardReport, RuleRef
    from mtgkb.lookups.rule import RelatedNode, RuleReport
    from mtgkb.lookups.rulings import RulingEntry, RulingsReport
    from mtgkb.lookups.search import SearchResult

_NO_TEXT_HINT = "(official text not imported: run 'mtgkb import rules FILE' or 'mtgkb fetch rules')"


def _cr(numbers: list[str]) -> str:
    return "CR " + ", ".join(numbers) if numbers else ""


def _rule_line(ref: RuleRef) -> str:
    if ref.title:
        return f"CR {ref.number}  {ref.title}"
    if ref.part_of:
        return f"CR {ref.number}  (in {ref.part_of})"
    return f"CR {ref.number}"


def render_card(card: CardReport) -> str:
    if not card.is_card:
        return render_melded_face(card)
    header = card.name + (f"   {card.mana_cost}" if card.mana_cost else "")
    lines = [header, "=" * len(header)]
    type_line = card.type_line or " ".join(card.supertypes + card.types)
    stats = _stats(card.power, card.toughness, card.loyalty, card.defense)
    lines.append(type_line + (f"   {stats}" if stats else ""))
    facts = []
    if card.mana_value is not None:
        facts.append(f"mana value {card.mana_value:g}")
    facts.append("colours " + (" ".join(card.colors) or "colourless"))
    if card.color_indicator:
        facts.append("colour indicator " + " ".join(card.color_indicator))
    facts.append("colour identity " + (" ".join(card.color_identity) or "colourless"))
    if card.commander_legality:
        facts.append(f"Commander: {card.commander_legality.replace('_', ' ')}")
    lines.append(" · ".join(facts))
    lines += (
        layout_lines(card.layout_rule) + prototype_lines(card.prototype) + meld_lines(card.meld, card.name)
    )
    for label, formats in (
        ("legal in", card.legal_in),
        ("banned in", card.banned_in),
        ("restricted in", card.restricted_in),
    ):
        if formats:
            lines += _wrap(f"{label}: {', '.join(formats)}", 0)
    if card.also_named:
        lines += _wrap(f"also named: {'; '.join(card.also_named)}", 0)
    # Once the Oracle text is imported, the abilities list holds it ability by ability.
    listed = bool(card.oracle_abilities)
    by_iri = {ability.iri: ability for ability in card.abilities}
    shown: set[str] = set()

    def oracle_lines(items: list, indent: int) -> list[str]:
        found = []
        for item in items:
            found += _wrap(item.text, indent)
            for iri in item.modelled:
                if iri in by_iri and iri not in shown:
                    shown.add(iri)
                    found += _ability(by_iri[iri], indent, card.oracle_text or "", with_label=False)
        return found

    if card.faces:
        for face in card.faces:
            lines += ["", *face_heading(face, len(card.faces))]
            mine = [item for item in card.oracle_abilities if item.face == face.name]
            if mine:
                lines += oracle_lines(mine, 2)
            elif face.oracle_text and not listed:
                lines += _wrap(face.oracle_text, 2)
        rest = [a for a in card.abilities if a.iri not in shown]
        if rest:
            lines += ["", "Other abilities"]
    else:
        if card.oracle_text and not listed:
            lines += ["", *_wrap(card.oracle_text, 2)]
        lines += ["", "Abilities" if card.abilities or listed else "Abilities: none recorded"]
        lines += oracle_lines(card.oracle_abilities, 2)
    for ability in card.abilities:
        if ability.iri not in shown:
            lines += _ability(ability, 2, card.oracle_text or "")
    if card.rulings:
        lines += ["", f"Rulings ({len(card.rulings)}, newest first)"]
        for ruling in card.rulings:
            lines += _ruling(ruling, show_cards=False)
    if card.cites:
        lines += ["", *_wrap("Cites " + _cr(card.cites), 0)]
    if card.oracle_id:
        lines += ["", f"Oracle id {card.oracle_id}   {card.iri}"]
    return "\n".join(lines)


def _ability(ability: AbilityInfo, indent: int, oracle_text: str, with_label: bool = True) -> list[str]:
    """The ability's mechanic, cost, timing and rules; under its label, or (``with_label`` False)
    under the line of Oracle text already printed for it."""
    pad = " " * indent
    lines = [pad + (ability.label or ability.iri)] if with_label else []
    details = []
    if ability.mechanic:
        mechanic = ability.mechanic.label or ability.mechanic.iri
        if ability.mechanic.variant_of:
            mechanic += f" (a kind of {', '.join(ability.mechanic.variant_of)})"
        details.append(f"mechanic: {mechanic}")
    if ability.changes:
        details.append(f"changes: {ability.changes.label or ability.changes.iri}")
    if ability.cost:
        details.append(f"cost {ability.cost}")
    if ability.position is not None:
        details.append(f"can-activate --ability {ability.position}")
    details += [parameter.shown_as for parameter in ability.parameters if parameter.shown_as]
    if details:
        lines.append(pad + "  " + " · ".join(details))
    if ability.mechanic and ability.mechanic.usable_in:
        steps = ", ".join(step.label or step.iri for step in ability.mechanic.usable_in)
        if any(step.your_turn_only for step in ability.mechanic.usable_in):
            steps += ", on your own turn only"
        lines += _wrap(f"usable in: {steps} (derived from the turn graph)", indent + 2)
    # The ability's own line of oracle text is shown only when the card's text above does not hold it.
    for text in (ability.text, ability.comment):
        if text and text not in oracle_text:
            lines += _wrap(text, indent + 2)
    for ref in ability.rules:
        lines.append(pad + "  " + _rule_line(ref))
    if ability.grants:
        lines.append(pad + "  grants" + (f" to {ability.granted_to}:" if ability.granted_to else ":"))
        for granted in ability.grants:
            lines += _ability(granted, indent + 4, oracle_text)
    return lines


def _ruling(ruling: RulingEntry, show_cards: bool) -> list[str]:
    head = [ruling.date or "undated"]
    if show_cards and ruling.cards:
        head.append(", ".join(c.label or c.iri for c in ruling.cards))
    if ruling.source:
        head.append(f"[{ruling.source}]")
    lines = ["  " + "  ".join(head)]
    if ruling.text:
        lines += _wrap(ruling.text, 4)
    elif ruling.summary:
        lines += _wrap("Summary (our words, official text not imported): " + ruling.summary, 4)
    notes = []
    if ruling.mentions:
        notes.append("mentions " + ", ".join(m.label or m.iri for m in ruling.mentions))
    if ruling.cites:
        notes.append("cites " + _cr(ruling.cites))
    if notes:
        lines += _wrap("(" + "; ".join(notes) + ")", 4)
    return lines


def render_rulings(report: RulingsReport) -> str:
    if report.subject_kind == "card":
        title = f"Rulings on {report.subject}"
    else:
        title = f"Rulings that mention the {report.subject_kind} {report.subject}"
    lines = [f"{title}: {report.total:,}"]
    if len(report.rulings) < report.total:
        lines.append(f"(the newest {len(report.rulings)} shown; --limit N for more, --limit 0 for all)")
    for ruling in report.rulings:
        lines += ["", *_ruling(ruling, show_cards=report.subject_kind != "card")]
    return "\n".join(lines)


def render_rule(rule: RuleReport) -> str:
    header = f"CR {rule.number}" + (f"  {rule.title}" if rule.title else "")
    lines = [header, "=" * len(header)]
    if rule.parent:
        lines.append(f"Part of {_related(rule.parent)}")
    if rule.text:
        lines += ["", f"Official text ({rule.edition} edition):", *_wrap(rule.text, 2)]
        others = [e for e in rule.editions if e != rule.edition]
        if others:
            lines.append(f"  (also in the editions of {', '.join(others)}; choose one with --edition)")
    else:
        lines += ["", _NO_TEXT_HINT]
    if rule.summary:
        lines += ["", "Summary (our words):", *_wrap(rule.summary, 2)]
    if rule.subrules:
        lines += ["", _counted("Subrules", len(rule.subrules), rule.subrules_total)]
        for node in rule.subrules:
            lines += _subrule(node, 2)
        lines += _more(len(rule.subrules), rule.subrules_total)
        if rule.depth == 0:
            lines.append("  (their text: --depth 1)")
    for heading, nodes, total in (
        ("Refers to", rule.refers_to, rule.refers_to_total),
        ("Referred to by", rule.referenced_by, rule.referenced_by_total),
    ):
        if nodes:
            lines += ["", _counted(heading, len(nodes), total)] + ["  " + _related(node) for node in nodes]
            lines += _more(len(nodes), total)
    if rule.cited_by:
        total = rule.cited_by_total or len(rule.cited_by)
        lines += ["", f"Cited by ({total}):" if total > len(rule.cited_by) else "Cited by:"]
        width = max(len(node.kind) for node in rule.cited_by)
        for node in rule.cited_by:
            via = f"  (through {', '.join(node.via)})" if node.via else ""
            lines.append(f"  {node.kind.ljust(width)}  {node.label or node.iri}{via}")
        if total > len(rule.cited_by):
            lines.append(f"  … and {total - len(rule.cited_by)} more (--limit N for more, --limit 0 for all)")
    return "\n".join(lines)


def _counted(heading: str, shown: int, total: int) -> str:
    return f"{heading} ({total}):" if total > shown else f"{heading}:"


def _more(shown: int, total: int) -> list[str]:
    if total <= shown:
        return []
    return [f"  … and {total - shown} more (--limit N for more, --limit 0 for all)"]


def _subrule(node: RelatedNode, indent: int) -> list[str]:
    lines = [" " * indent + _related(node)]
    if node.text:
        prefix = "Summary (our words): " if node.text_is_summary else ""
        lines += _wrap(prefix + node.text, indent + 2)
    for child in node.subrules:
        lines += _subrule(child, indent + 2)
    return lines


def _related(node: RelatedNode) -> str:
    if node.number:
        return f"CR {node.number}" + (f"  {node.label}" if node.label else "")
    return node.label or node.iri


_KIND_TITLES = {"card": "Cards", "rule": "Rules", "ruling": "Rulings"}


def render_search(result: SearchResult) -> str:
    if not result.total:
        return f"No card, rule or ruling holds every word of '{cut(result.query)}'."
    lines: list[str] = []
    for group in result.groups:
        if not group.total:
            continue
        shown = f"{len(group.hits)} of {group.total}" if len(group.hits) < group.total else str(group.total)
        if lines:
            lines.append("")
        lines.append(f"{_KIND_TITLES.get(group.kind, group.kind)} ({shown})")
        for hit in group.hits:
            label = f"CR {hit.label}" if hit.kind == "rule" else hit.label
            lines.append(f"  {label}")
            if hit.snippet and hit.snippet != hit.label:
                lines += _wrap(f"[{hit.field}] {hit.snippet}", 6)
    if any(len(g.hits) < g.total for g in result.groups):
        lines += ["", f"(at most {result.limit} of each kind shown; raise it with --limit)"]
    return "\n".join(lines)

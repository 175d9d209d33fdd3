"""Text for Comprehensive Rules imports, the list of loaded editions and edition diffs."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgkb.cli.output import table
from mtgkb.lookups.word_diff import word_diff

if TYPE_CHECKING:
    from mtgkb.importers.cr_import import RulesImportSummary
    from mtgkb.lookups.rule_history import HistoryStep, RuleHistory
    from mtgkb.lookups.rules_diff import EditionList, RulesDiff
    from mtgkb.lookups.rules_impact import ImpactReport


def render_import(summary: RulesImportSummary) -> str:
    verb = "Replaced" if summary.replaced else "Imported"
    history = ""
    if len(summary.imported) > 1 or summary.history_editions > 1:
        first, last = summary.imported[0].edition, summary.imported[-1].edition
        history = (
            f"Read {len(summary.imported)} editions ({first} to {last}); the rules history holds "
            f"{summary.history_editions} editions as {summary.history_versions} rule versions "
            f"({summary.history_texts} distinct texts)\n"
        )
    warnings = "".join(
        f"  warning: {edition.edition}: {warning}\n"
        for edition in summary.imported
        for warning in edition.warnings
    )
    return (
        history
        + warnings
        + (
            f"{verb} the Comprehensive Rules effective {summary.edition} from {summary.source}\n"
            f"  {summary.rules} rules and subrules, {summary.headings} section and chapter headings, "
            f"{summary.glossary} glossary entries, {summary.references} cross-references\n"
            f"  {summary.quads} quads in {summary.output}\n"
            f"  parse {summary.parse_seconds:.2f} s, write {summary.write_seconds:.2f} s, "
            f"store build {summary.build_seconds:.2f} s"
        )
    )


def render_editions(editions: EditionList) -> str:
    if not editions.editions:
        return "No Comprehensive Rules edition is imported; try 'mtgkb import rules FILE'."
    rows = [
        (e.date + (" (default)" if e.date == editions.default else ""), e.rules, e.source_file)
        for e in editions.editions
    ]
    return table(["effective", "rules", "source file"], rows)


def render_diff(diff: RulesDiff) -> str:
    lines = [
        f"Comprehensive Rules {diff.old} -> {diff.new}: {len(diff.added)} added, {len(diff.removed)} "
        f"removed, {len(diff.changed)} changed, {diff.unchanged} unchanged"
    ]
    for rule in diff.added:
        lines += ["", f"+ {rule.number} (added)", *_indent(rule.text, "  + ")]
    for rule in diff.removed:
        lines += ["", f"- {rule.number} (removed)", *_indent(rule.text, "  - ")]
    for change in diff.changed:
        lines += [
            "",
            f"~ {change.number} (changed)",
            *_indent(word_diff(change.old_text, change.new_text), "  "),
        ]
    return "\n".join(lines)


def _indent(text: str, prefix: str) -> list[str]:
    return [prefix + line for line in text.split("\n")]


def render_history(report: RuleHistory) -> str:
    now = (
        f"now {report.current_number}"
        if report.current_number
        else f"removed in the {report.removed_in} edition"
    )
    lines = [
        f"History of CR {report.number} ({now}), editions {report.first_edition} to {report.last_edition}:"
    ]
    lines += _history_steps(report.history, "  ")
    for subrule in report.subrules:
        if len(subrule.history) == 1 and subrule.history[0].edition == report.history[0].edition:
            continue  # there from the rule's first edition, never changed: nothing to tell
        lines += ["", f"  {subrule.number} (since {subrule.added}):"]
        lines += _history_steps(subrule.history, "    ")
    return "\n".join(lines)


def _history_steps(steps: list[HistoryStep], indent: str) -> list[str]:
    lines = []
    for step in steps:
        was = (
            f" (was {step.previous_number})"
            if step.previous_number and step.previous_number != step.number
            else ""
        )
        span = f"{step.edition} to {step.until}" if step.until != step.edition else step.edition
        lines.append(f"{indent}{span}  {step.number}  {step.change}{was}")
        if step.change == "removed":
            continue
        body = (
            step.diff if step.diff is not None else (step.text if step.change in ("added", "split") else None)
        )
        if body:
            lines += _indent(body, indent + "    ")
    return lines


def render_impact(report: ImpactReport) -> str:
    diff = report.diff
    lines = [
        f"Comprehensive Rules {diff.old} -> {diff.new}: {len(diff.added)} added, {len(diff.removed)} "
        f"removed, {len(diff.changed)} changed; {len(report.impacts)} of them cited by our graph, "
        f"{report.cards} cards depending on them"
    ]
    for impact in report.impacts:
        lines += ["", f"{impact.number} ({impact.change})"]
        for label, items in (
            ("mechanics", impact.mechanics),
            ("requirements", impact.requirements),
            ("concepts", impact.concepts),
            ("other nodes", impact.others),
            ("scenarios", impact.scenarios),
        ):
            if items:
                lines.append(f"  {label}: {', '.join(_short(item) for item in items)}")
        if impact.summary:
            against = (
                f" (written against {impact.summary_written_against})"
                if impact.summary_written_against
                else ""
            )
            lines.append(f"  our summary{against}: {impact.summary}")
        if impact.cards:
            lines.append(f"  cards with those mechanics: {impact.cards}")
    return "\n".join(lines)


def _short(iri: str) -> str:
    return iri.removeprefix("https://w3id.org/mtgkb/")

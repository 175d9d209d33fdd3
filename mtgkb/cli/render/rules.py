"""Text for Comprehensive Rules imports, the list of loaded editions and edition diffs."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from mtgkb.cli.output import table

if TYPE_CHECKING:
    from mtgkb.importers.cr_import import RulesImportSummary
    from mtgkb.lookups.rules_diff import EditionList, RulesDiff


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


def word_diff(old: str, new: str) -> str:
    """``new`` with the words that changed marked as ``[-removed-]{+added+}`` (as ``git diff
    --word-diff`` does): a long rule that gained one sentence shows that sentence, not two copies."""
    import difflib

    before, after = re.split(r"(\s+)", old), re.split(r"(\s+)", new)
    parts = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes():
        if tag == "equal":
            parts.append("".join(after[j1:j2]))
            continue
        if i2 > i1:
            parts.append("[-" + "".join(before[i1:i2]) + "-]")
        if j2 > j1:
            parts.append("{+" + "".join(after[j1:j2]) + "+}")
    return "".join(parts)


def _indent(text: str, prefix: str) -> list[str]:
    return [prefix + line for line in text.split("\n")]

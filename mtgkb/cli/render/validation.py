"""Text for SHACL validation reports: one line per result, grouped by the file to fix."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mtgkb.kb.validation import ValidationReport


def render_validation(report: ValidationReport) -> str:
    violations, others = len(report.errors), len(report.warnings)
    if report.conforms:
        head = f"{len(report.files)} files conform to every shape: no violations"
        head += f", {others} warning(s):" if others else "."
    else:
        head = f"{violations} violation(s)" + (f" and {others} warning(s)" if others else "") + ":"
    by_file: dict[str, list[str]] = defaultdict(list)
    for result in report.violations:
        where = str(result.source_file or "(no file defines this node)")
        path = f" {result.path}" if result.path else ""
        marker = "" if result.severity == "Violation" else f"[{result.severity.lower()}] "
        by_file[where].append(f"  {marker}{result.focus_node}{path}: {result.message}")
    lines = [head]
    for file_name in sorted(by_file):
        lines.append(file_name)
        lines.extend(by_file[file_name])
    return "\n".join(lines)

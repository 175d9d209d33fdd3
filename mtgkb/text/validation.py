"""Text for SHACL validation reports: one line per violation, grouped by the file to fix."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

from mtgkb.output import renders

if TYPE_CHECKING:
    from mtgkb.validation import ValidationReport


@renders("mtgkb.validation.ValidationReport")
def render_validation(report: ValidationReport) -> str:
    if report.conforms:
        return "The data conforms to every shape: no violations."
    by_file: dict[str, list[str]] = defaultdict(list)
    for violation in report.violations:
        where = violation.source_file or "(no file defines this node)"
        path = f" {violation.path}" if violation.path else ""
        by_file[str(where)].append(f"  {violation.focus_node}{path}: {violation.message}")
    lines = [f"{len(report.violations)} violation(s):"]
    for file_name in sorted(by_file):
        lines.append(file_name)
        lines.extend(by_file[file_name])
    return "\n".join(lines)

"""Text for SHACL validation reports: one line per result, grouped by the file to fix."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mtgkb.kb.store_files import StoreCheck
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


def render_store_check(check: StoreCheck) -> str:
    read = f"{check.files} files ({check.bytes / (1 << 20):,.0f} MB) read against their digests"
    read += f", {check.quads:,} quads read" if check.quads else ""
    read += f", in {check.seconds:.1f} s"
    if check.sound:
        lines = [f"The store in {check.path} is sound: {read}."]
        if not check.digests_recorded:
            lines.append(
                "It was built by an earlier version, which recorded no digests of its files: "
                "'mtgkb build --full' builds one that has them."
            )
        return "\n".join(lines)
    lines = [f"The store in {check.path} is damaged ({read}):"]
    lines += [f"  {problem}" for problem in check.problems]
    if check.set_aside:
        lines.append(
            "It is set aside"
            + (
                f", with {len(check.set_aside) - 1} older store(s) sharing its files"
                if len(check.set_aside) > 1
                else ""
            )
            + ": no command will use it again."
        )
    lines.append("Run 'mtgkb build --full' to build it again now (the next command also does).")
    return "\n".join(lines)

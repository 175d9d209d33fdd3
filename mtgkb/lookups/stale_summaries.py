"""Summaries in data/ that a newer Comprehensive Rules edition may have made stale.

Each summary records the edition it was written against (``mtgkb:writtenAgainst``, see
data/summary-editions.ttl). A summary is stale when the text of a rule it describes (a rule node's
own summary) or cites (``mtgkb:citesRule``) differs in the newest imported edition from the text
that rule had in that edition, or the rule is gone. The texts come from the rules history
(mtgkb.kb.cr_history), so the check needs the editions imported together; without it only
the summaries that record no edition are reported.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtgkb.core.paths import repo_root
from mtgkb.kb.cr_history import History, read_history
from mtgkb.kb.iris import namespace
from mtgkb.kb.vocab import V

if TYPE_CHECKING:
    from mtgkb.kb.validation import ValidationReport

_RULE = namespace("cr")


@dataclass(frozen=True)
class StaleSummary:
    node: str  # the IRI of the node whose summary to re-read
    file: str  # the data file holding the summary
    written_against: str | None  # the edition recorded on it; None when none is
    rule: str | None  # the rule number whose text changed
    changed_in: str | None  # the first edition after written_against with another text
    reason: str


def stale_summaries(data_dir: Path | None = None, history: History | None = None) -> list[StaleSummary]:
    """Every summary under ``data_dir`` (default: the bundled data/) to re-read, in file order."""
    import rdflib

    folder = data_dir or repo_root() / "data"
    summary, against, cites = (rdflib.URIRef(i) for i in (V.summary, V.writtenAgainst, V.citesRule))
    graphs = {path: rdflib.Graph().parse(path, format="turtle") for path in sorted(folder.rglob("*.ttl"))}
    recorded: dict[str, str] = {}
    cited: dict[str, set[str]] = {}
    for graph in graphs.values():
        for node, date in graph.subject_objects(against):
            recorded[str(node)] = str(date)
        for node, rule in graph.subject_objects(cites):
            if str(rule).startswith(_RULE):
                cited.setdefault(str(node), set()).add(str(rule)[len(_RULE) :])
    history = history if history is not None else read_history()
    texts = _TextsByNumber(history) if history is not None and len(history.editions) > 1 else None
    findings = []
    seen: set[str] = set()
    for path, graph in graphs.items():
        shown = _shown(path, folder)
        for node in sorted({str(n) for n in graph.subjects(summary, None)}):
            if node in seen:
                continue
            seen.add(node)
            date = recorded.get(node)
            if date is None:
                findings.append(
                    StaleSummary(node, shown, None, None, None, "records no edition (mtgkb:writtenAgainst)")
                )
                continue
            if texts is None:
                continue
            rules = sorted(
                cited.get(node, set()) | ({node[len(_RULE) :]} if node.startswith(_RULE) else set())
            )
            for number in rules:
                change = texts.changed_since(number, date)
                if change is not None:
                    findings.append(StaleSummary(node, shown, date, number, change[0], change[1]))
    return findings


def _shown(path: Path, folder: Path) -> str:
    try:
        return str(path.relative_to(folder.parent))
    except ValueError:
        return str(path)


class _TextsByNumber:
    """The text each rule number had in each edition, from the history rows."""

    def __init__(self, history: History) -> None:
        self.dates = history.dates
        rows: list[list[Any]] = history.rows or []
        texts = history.texts or []
        if history.rows is None:
            rows = [[v.number, None, None, v.text, v.first, v.last] for v in history.versions]
            self._text = lambda row: row[3]
        else:
            self._text = lambda row: texts[row[3]]
        self.by_number: dict[str, list[list[Any]]] = {}
        for row in rows:
            self.by_number.setdefault(row[0], []).append(row)

    def _at(self, number: str, index: int) -> list[Any] | None:
        return next((r for r in self.by_number.get(number, ()) if r[4] <= index <= r[5]), None)

    def changed_since(self, number: str, date: str) -> tuple[str, str] | None:
        """(edition, reason) when ``number``'s text in the newest edition is not the one of ``date``."""
        # The edition in force on that date: the newest one effective on or before it.
        at = bisect.bisect_right(self.dates, date) - 1
        if at < 0 or at == len(self.dates) - 1:
            return None
        then, now = self._at(number, at), self._at(number, len(self.dates) - 1)
        if then is None:
            return None  # the rule came later than the summary's edition: nothing it was written from
        if now is None:
            gone = self.dates[then[5] + 1]
            return gone, f"rule {number} is no longer in the rules (gone in {gone})"
        if self._text(then) == self._text(now):
            return None
        later = [r for r in self.by_number[number] if r[4] > at and self._text(r) != self._text(then)]
        first = self.dates[min(r[4] for r in later)] if later else self.dates[-1]
        return first, f"the text of rule {number} changed in the {first} edition"


def with_stale_summaries(report: ValidationReport) -> ValidationReport:
    """``report`` with a warning for each stale summary (warnings leave it conforming). Without a
    history of several editions there is nothing to compare with, and the data is not read again
    (the shipped data's editions are checked by tests/test_stale_summaries.py)."""
    from mtgkb.kb.validation import ValidationReport, Violation

    history = read_history()
    if history is None or len(history.editions) < 2:
        return report

    warnings = [
        Violation(
            focus_node=finding.node,
            path=V.summary,
            message=f"summary to re-read: written against {finding.written_against}, but {finding.reason}"
            if finding.written_against
            else f"summary {finding.reason}: add it to data/summary-editions.ttl",
            severity="Warning",
            shape="stale-summary",
            source_file=Path(finding.file),
            value=finding.rule,
        )
        for finding in stale_summaries(history=history)
    ]
    return ValidationReport(report.conforms, report.violations + warnings, report.files)

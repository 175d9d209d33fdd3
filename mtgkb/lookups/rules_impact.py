"""What a new Comprehensive Rules edition touches in our graph: for each rule added, removed or
changed between two editions, the mechanics, requirements and concepts citing it, our summary of it
(perhaps stale now), the judge scenarios citing it and how many cards of the pool depend on it
through those mechanics."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mtgkb.core.paths import repo_root
from mtgkb.kb.iris import rule_iri
from mtgkb.kb.query_files import library_query
from mtgkb.lookups.common import kind_of
from mtgkb.lookups.rules_diff import RulesDiff, diff_editions

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase


@dataclass
class RuleImpact:
    number: str
    change: str  # "added", "removed" or "changed"
    mechanics: list[str] = field(default_factory=list)  # IRIs: citing the rule, or through a requirement
    requirements: list[str] = field(default_factory=list)
    concepts: list[str] = field(default_factory=list)
    others: list[str] = field(default_factory=list)  # any other node of ours citing it
    summary: str | None = None  # ours, which the change may have made stale
    summary_written_against: str | None = None
    scenarios: list[str] = field(default_factory=list)  # files under tests/scenarios citing it
    cards: int = 0  # cards of the pool with an ability of one of the mechanics


@dataclass
class ImpactReport:
    diff: RulesDiff
    impacts: list[RuleImpact]  # the rules something of ours cites, in book order
    cards: int = 0  # cards depending on any of them, each once


def edition_impact(kb: KnowledgeBase, old: str, new: str) -> ImpactReport:
    diff = diff_editions(kb, old, new)
    changes = (
        [(rule.number, "added") for rule in diff.added]
        + [(rule.number, "removed") for rule in diff.removed]
        + [(change.number, "changed") for change in diff.changed]
    )
    impacts = {number: RuleImpact(number, kind) for number, kind in changes}
    by_iri = {rule_iri(number): impact for number, impact in impacts.items()}
    rows = kb.select(library_query("rule-citers"), rule=list(by_iri)) if by_iri else []
    classes: dict[tuple[str, str], set[str]] = {}
    for row in rows:
        impact = by_iri[row["rule"]]
        if row.get("summary"):
            impact.summary, impact.summary_written_against = row["summary"], row.get("against")
        if row.get("x"):
            classes.setdefault((row["rule"], row["x"]), set()).update([row["class"]] if row["class"] else [])
            if row.get("mechanic"):
                _add(impact.mechanics, row["mechanic"])
    for (rule, node), found in classes.items():
        impact, kind = by_iri[rule], kind_of(found)
        if kind == "ability" or kind == "card":
            continue  # counted through the mechanics, not listed one by one
        target = {
            "mechanic": impact.mechanics,
            "requirement": impact.requirements,
            "concept": impact.concepts,
        }
        _add(target.get(kind, impact.others), node)
    for number, files in _scenario_citations(set(impacts)).items():
        impacts[number].scenarios = files
    every_mechanic: set[str] = set()
    for impact in impacts.values():
        if impact.mechanics:
            impact.cards = _card_count(kb, impact.mechanics)
            every_mechanic.update(impact.mechanics)
    touched = [impact for impact in impacts.values() if _touches(impact)]
    total = _card_count(kb, sorted(every_mechanic)) if every_mechanic else 0
    return ImpactReport(diff, touched, total)


def _add(items: list[str], value: str) -> None:
    if value not in items:
        items.append(value)


def _touches(impact: RuleImpact) -> bool:
    return bool(
        impact.mechanics
        or impact.requirements
        or impact.concepts
        or impact.others
        or impact.summary
        or impact.scenarios
    )


def _card_count(kb: KnowledgeBase, mechanics: list[str]) -> int:
    rows = kb.select(library_query("mechanic-card-count"), mechanic=mechanics)
    return int(rows[0]["cards"]) if rows and rows[0]["cards"] is not None else 0


def _scenario_citations(numbers: set[str], folder: Path | None = None) -> dict[str, list[str]]:
    """Rule number -> the scenario files (tests/scenarios/*.json) whose cases cite it."""
    folder = folder or repo_root() / "tests" / "scenarios"
    found: dict[str, list[str]] = {}
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("*.json")):
        try:
            cited = set(_cites(json.loads(path.read_text(encoding="utf-8"))))
        except (OSError, ValueError):
            continue  # the scenario tests report a broken file; here it cites nothing
        for number in cited & numbers:
            found.setdefault(number, []).append(path.name)
    return found


def _cites(value: Any) -> list[str]:
    """Every rule number under a "cites" key ("cites": [...], "cites.*": "903.8") anywhere in a scenario."""
    if isinstance(value, dict):
        numbers = []
        for key, item in value.items():
            if key.startswith("cites"):
                numbers += (
                    [item]
                    if isinstance(item, str)
                    else [i for i in item if isinstance(i, str)]
                    if isinstance(item, list)
                    else []
                )
            else:
                numbers += _cites(item)
        return numbers
    if isinstance(value, list):
        return [number for item in value for number in _cites(item)]
    return []

"""One rule of the Comprehensive Rules: our summary, the official text of an imported edition, its
subrules, the rules it points to and that point to it, and everything in the graph that cites it.

Official text lives only in the named graph of the edition it came from (``graph/cr/<date>``), so the
edition of the text shown is known exactly; the newest edition holding the rule is the default.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mtgkb.core.errors import MtgkbError, NotFoundError, shown
from mtgkb.core.rule_numbers import rule_sort_key, sorted_numbers
from mtgkb.kb.iris import namespace, rule_iri
from mtgkb.kb.query_files import library_query
from mtgkb.kb.vocab import V
from mtgkb.lookups.common import RULES_HINT, kind_of, rule_number, rules_imported, with_import_hint

if TYPE_CHECKING:
    from mtgkb.kb.store import KnowledgeBase

_EDITION_GRAPH = namespace("graph") + "cr/"
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_FORMAT_HINT = "a rule number looks like 702, 702.49 or 702.49d (section, rule, subrule)"
_IMPORT_HINT = "import the Comprehensive Rules with 'mtgkb import rules FILE' or 'mtgkb fetch rules'"


@dataclass
class RelatedNode:
    iri: str
    label: str | None
    kind: str
    number: str | None = None  # for rules
    via: list[str] = field(default_factory=list)  # for cards: the abilities or mechanics citing the rule
    text: str | None = None  # a subrule's official text (the edition shown), or our summary
    text_is_summary: bool = False
    subrules: list[RelatedNode] = field(default_factory=list)  # a subrule's own, with --depth 2


@dataclass
class RuleReport:
    number: str
    iri: str
    title: str | None
    summary: str | None  # ours
    text: str | None  # official, from the edition below
    edition: str | None  # effective date of the edition the text comes from
    editions: list[str]  # every imported edition holding this rule, newest first
    parent: RelatedNode | None
    subrules: list[RelatedNode]
    refers_to: list[RelatedNode]
    referenced_by: list[RelatedNode]
    cited_by: list[RelatedNode]  # the first ``limit`` of them
    cited_by_total: int = 0
    depth: int = 0  # how many levels of subrules come with their text
    subrules_total: int = 0  # each list holds the first ``limit``; these are how many there are
    refers_to_total: int = 0
    referenced_by_total: int = 0


#: A rule with at most this many subrules shows their text unless --depth says otherwise.
_HANDFUL = 12


def parse_rule_number(text: str) -> str:
    """ "CR 702.49D." -> "702.49d"; anything that is not a rule number is a user error."""
    number = re.sub(r"^\s*(cr|rule)\s*", "", text.strip(), flags=re.IGNORECASE).lower().rstrip(".")
    try:
        rule_iri(number)
    except ValueError:
        raise MtgkbError(f"'{shown(text)}' is not a rule number", _FORMAT_HINT) from None
    return number


def rule_report(
    kb: KnowledgeBase,
    number: str,
    edition: str | None = None,
    depth: int | None = None,
    limit: int | None = None,
) -> RuleReport:
    """The report on rule ``number`` ("702.49d"); ``edition`` ("2026-04-17") picks the official text.

    ``depth`` levels of subrules come with their text (default: one level when there are a handful
    of subrules, else none); ``limit`` caps each list, subrules, references and what cites the rule
    (None: all); the report gives each list's total."""
    number = parse_rule_number(number)
    iri = rule_iri(number)
    own = kb.select(library_query("rule-facts"), rule=iri)
    # Cards are reached through their abilities (and the mechanics those instantiate).
    related = _related(kb.select(library_query("rule-related"), rule=iri, prefix=number), number)
    if not own and not any(related.values()):
        error = NotFoundError("rule", number, _nearby(kb, number))
        error.message = f"there is no rule {number} in the knowledge base"
        raise error if rules_imported(kb) else with_import_hint(error, RULES_HINT)

    texts = {_edition_of(r["g"]): r["o"] for r in own if r["p"] == V.text and _edition_of(r["g"])}
    editions = sorted(texts, reverse=True)
    if edition is not None:
        from mtgkb.lookups.rules_diff import normalise_date

        edition = normalise_date(edition)
        _check_edition(kb, number, edition, editions)
    shown = edition or (editions[0] if editions else None)
    title = _title(own, shown)
    # References come from our own data and from the edition shown, not from every edition loaded.
    refers = {
        r["o"]: r["otitle"] for r in own if r["p"] == V.refersTo and _edition_of(r["g"]) in (None, shown)
    }
    labelled = {node.iri: node for node in related["refers"]}
    refers_to = [labelled.get(i) or RelatedNode(i, t, "rule", rule_number(i)) for i, t in refers.items()]
    parents = related["parent"] or [
        RelatedNode(r["o"], r["otitle"], "rule", rule_number(r["o"])) for r in own if r["p"] == V.parentRule
    ]
    every_subrule = _by_number(related["child"] + related["numbered"])
    subrules = every_subrule[:limit]
    if depth is None:
        depth = 1 if len(every_subrule) <= _HANDFUL else 0
    if depth > 0 and subrules:
        _add_texts(kb, subrules, shown, depth)
    cited_by = sorted(related["cites"] + related["card"], key=lambda n: (n.kind, (n.label or n.iri).lower()))
    refers_to = _by_number(refers_to)
    referenced_by = _by_number(related["referenced"])
    return RuleReport(
        number=number,
        iri=iri,
        title=title,
        summary=next((r["o"] for r in own if r["p"] == V.summary), None),
        text=texts.get(shown) if shown else None,
        edition=shown if shown in texts else None,
        editions=editions,
        parent=parents[0] if parents else None,
        subrules=subrules,
        refers_to=refers_to[:limit],
        referenced_by=referenced_by[:limit],
        cited_by=cited_by[:limit],
        cited_by_total=len(cited_by),
        depth=depth,
        subrules_total=len(every_subrule),
        refers_to_total=len(refers_to),
        referenced_by_total=len(referenced_by),
    )


def _add_texts(kb: KnowledgeBase, nodes: list[RelatedNode], edition: str | None, depth: int) -> None:
    """Each node's official text in ``edition`` (our summary when there is none), and with ``depth``
    above 1 its own subrules too, ``depth - 1`` levels down."""
    iris = [node.iri for node in nodes]
    # No edition imported: a graph that holds no text, so that only summaries are found.
    graph = f"{_EDITION_GRAPH}{edition or 'none'}"
    rows = kb.select(library_query("rule-texts"), x=iris, edition=graph)
    found = {row["x"]: row for row in rows}
    for node in nodes:
        row = found.get(node.iri) or {}
        node.text = row.get("text") or row.get("summary")
        node.text_is_summary = not row.get("text") and bool(row.get("summary"))
    if depth < 2:
        return
    children = kb.select(library_query("rule-subrules"), parent=iris)
    by_parent: dict[str, dict[str, RelatedNode]] = {}
    for row in children:
        by_parent.setdefault(row["parent"], {}).setdefault(
            row["x"], RelatedNode(row["x"], row["title"], "rule", row["number"])
        )
    grandchildren = []
    for node in nodes:
        node.subrules = _by_number(list(by_parent.get(node.iri, {}).values()))
        grandchildren += node.subrules
    if grandchildren:
        _add_texts(kb, grandchildren, edition, depth - 1)


def _edition_of(graph: str) -> str | None:
    if graph.startswith(_EDITION_GRAPH):
        date = graph[len(_EDITION_GRAPH) :]
        return date if _DATE.match(date) else None
    return None


def _title(own: list[dict[str, Any]], edition: str | None) -> str | None:
    """Our own title first (curated titles name subrules the CR leaves untitled), else the edition's."""
    titles = [(r["g"], r["o"]) for r in own if r["p"] == V.title]
    curated = [t for g, t in titles if _edition_of(g) is None]
    if curated:
        return curated[0]
    preferred = [t for g, t in titles if _edition_of(g) == edition]
    return (preferred or [t for _, t in titles] or [None])[0]


def _check_edition(kb: KnowledgeBase, number: str, edition: str, editions: list[str]) -> None:
    if edition in editions:
        return
    known = sorted(
        {d for r in kb.select(library_query("edition-graphs")) if (d := _edition_of(r["g"]))},
        reverse=True,
    )
    if edition not in known:
        error = NotFoundError("Comprehensive Rules edition", edition, known[:3])
        error.message = f"no Comprehensive Rules edition of {edition} has been imported"
        if not known:
            error.hint = _IMPORT_HINT
        raise error
    where = ", ".join(editions) if editions else "none of the imported editions"
    raise MtgkbError(f"rule {number} is not in the {edition} edition", f"it is in: {where}")


_CHILD_PATTERNS = (
    (re.compile(r"^\d{3}$"), lambda n: re.compile(rf"^{re.escape(n)}\.\d+$")),
    (re.compile(r"^\d{3}\.\d+$"), lambda n: re.compile(rf"^{re.escape(n)}[a-z]+$")),
)


def _related(rows: list[dict[str, Any]], number: str) -> dict[str, list[RelatedNode]]:
    """Rows grouped by relation, one node per IRI (a node with several classes comes once per class)."""
    child = next((make(number) for form, make in _CHILD_PATTERNS if form.match(number)), None)
    grouped: dict[str, dict[str, RelatedNode]] = {
        rel: {} for rel in ("child", "numbered", "parent", "refers", "referenced", "cites", "card")
    }
    classes: dict[str, set[str]] = {}
    for row in rows:
        rel, iri = row["rel"], row["x"]
        if rel == "numbered" and (child is None or not child.match(row["number"] or "")):
            continue
        if iri == rule_iri(number):
            continue
        if row["class"]:
            classes.setdefault(iri, set()).add(row["class"])
        node = grouped[rel].get(iri)
        if node is None:
            label = row["title"] if row["number"] else (row["name"] or row["label"])
            node = grouped[rel][iri] = RelatedNode(iri, label, "node", row["number"])
        if row["via"] and row["via"] != iri:
            via = row["viaLabel"] or row["via"]
            if via not in node.via:
                node.via.append(via)
    for nodes in grouped.values():
        for node in nodes.values():
            node.kind = kind_of(classes.get(node.iri, set()))
            if node.kind == "node" and node.number:
                node.kind = "rule"
    subrules = grouped["child"]
    grouped["numbered"] = {i: n for i, n in grouped["numbered"].items() if i not in subrules}
    return {rel: list(nodes.values()) for rel, nodes in grouped.items()}


def _by_number(nodes: list[RelatedNode]) -> list[RelatedNode]:
    return sorted(nodes, key=lambda n: rule_sort_key(n.number or rule_number(n.iri)))


def _nearby(kb: KnowledgeBase, number: str) -> list[str]:
    """Existing rule numbers next to ``number`` in book order, for the "did you mean"."""
    rows = kb.select(library_query("rule-numbers"), section=number[:3])
    numbers = [r["n"] for r in rows] or [r["n"] for r in kb.select(library_query("rule-numbers"), section="")]
    parent = re.match(r"^\d{3}\.\d+", number)
    family = re.compile(rf"^{re.escape(parent.group())}[a-z]*$") if parent else None
    siblings = [n for n in numbers if family and family.match(n)]
    ordered = sorted_numbers(siblings or numbers)
    keys = [rule_sort_key(n) for n in ordered]
    at = bisect.bisect_left(keys, rule_sort_key(number))
    return ordered[max(0, at - 2) : at + 2]

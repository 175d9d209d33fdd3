"""Matching the rules of one edition to those of the next, on small made-up editions, and the RDF of
the versions against the SHACL shapes."""

from __future__ import annotations

import io

import pytest
import rdflib

from mtgkb.core.nquads import QuadWriter
from mtgkb.kb.cr_history import HISTORY_GRAPH, EditionInfo, History, write_history_quads
from mtgkb.kb.cr_lineage import Entry, build_versions, edition_entries, match_editions
from mtgkb.kb.validation import validate

LONG = "a player who controls the widget may turn it sideways once each turn during the main phase"
OTHER = "the gadget sits in the command zone and counts the number of spells cast from there so far"


def _rule(text: str, title: str | None = None) -> Entry:
    return Entry("rule", title, title or text)


def _sub(text: str) -> Entry:
    return Entry("subrule", None, text)


def test_a_keyword_renumbered_keeps_its_subrules() -> None:
    old = {"702.48": _rule("", "Widgetry"), "702.48a": _sub(LONG)}
    new = {
        "702.48": _rule("", "Gadgetry"),
        "702.48a": _sub(OTHER),
        "702.49": _rule("", "Widgetry"),
        "702.49a": _sub(LONG + " and no more"),
    }
    matched = match_editions(old, new)
    assert matched["702.49"] == ("702.48", "renumbered")
    assert matched["702.49a"] == ("702.48a", "renumbered-changed")
    assert "702.48" not in matched and "702.48a" not in matched  # the new keyword is added


def test_a_split_and_a_removal() -> None:
    old = {
        "100.1": _rule(LONG + ". " + OTHER),
        "100.2": _rule("mana burns when a phase ends with mana left over in a pool"),
    }
    new = {"100.1": _rule(LONG + "."), "100.1a": _sub(OTHER)}
    matched = match_editions(old, new)
    assert matched["100.1"] == ("100.1", "changed")
    assert matched["100.1a"] == ("100.1", "split")
    versions = build_versions([old, new])
    removed = next(v for v in versions if v.number == "100.2")
    assert removed.last == 0 and not any(v.previous == versions.index(removed) for v in versions)


def test_an_unchanged_text_is_one_version_over_its_editions() -> None:
    editions = [{"100.1": _rule(LONG)}, {"100.1": _rule(LONG)}, {"100.1": _rule(LONG + " again")}]
    versions = build_versions(editions)
    assert [(v.first, v.last, v.change) for v in versions] == [(0, 1, "added"), (2, 2, "changed")]
    assert versions[1].previous == 0
    assert edition_entries(versions, 1) == editions[1]


def _history_graph(history: History) -> rdflib.Graph:
    stream = io.StringIO()
    write_history_quads(QuadWriter(stream, HISTORY_GRAPH), history)
    dataset = rdflib.Dataset(default_union=True)
    dataset.parse(data=stream.getvalue(), format="nquads")
    graph = rdflib.Graph()
    for s, p, o, _ in dataset.quads():
        graph.add((s, p, o))
    return graph


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # rdflib's N-Quads parser uses its own old API
def test_the_versions_as_rdf_meet_the_shapes() -> None:
    editions = [{"100.1": _rule(LONG)}, {"100.2": _rule(LONG)}]
    infos = [EditionInfo("2020-01-01", "a.txt", rules=1), EditionInfo("2020-02-01", "b.txt", rules=1)]
    graph = _history_graph(History(infos, build_versions(editions)))
    report = validate(extra_graphs={"history": graph})
    assert not [v for v in report.errors if v.sources == ("history",)], report.errors[:3]
    # A version without its span breaks the shape.
    graph.remove((None, rdflib.URIRef("https://w3id.org/mtgkb/vocab#validFrom"), None))
    broken = validate(extra_graphs={"history": graph})
    assert any("RuleVersion" in (v.shape or "") or "validFrom" in (v.path or "") for v in broken.errors)

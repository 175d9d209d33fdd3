"""The hand-written mechanic graphs (data/mechanics/) and keyword rule nodes (data/rules/keywords.ttl).

Checks that every rules claim is cited, that every cited keyword rule has a node with a summary in our
own words (not copied from the Comprehensive Rules), and the rules facts the reasoning depends on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rdflib import Graph, Literal, URIRef
from rdflib.namespace import RDF, RDFS

from mtgkb.kb.iris import mint, rule_iri
from mtgkb.kb.vocab import V

REPO_ROOT = Path(__file__).resolve().parents[1]
MECHANICS_DIR = REPO_ROOT / "data" / "mechanics"
KEYWORD_RULES_FILE = REPO_ROOT / "data" / "rules" / "keywords.ttl"
DATA_FILES = [*sorted(MECHANICS_DIR.glob("*.ttl")), KEYWORD_RULES_FILE]
CR_FILE = Path("rules") / "MagicCompRules-20260417.txt"

CR_BASE = rule_iri("702").removesuffix("702")
RULE_LINE = re.compile(r"^(\d{3}(?:\.\d+[a-z]?)?)\.?\s+(\S.*)$")
# A run of rule numbers after "rule"/"rules", e.g. "see rules 601.2b and 601.2f–h".
RULE_MENTION = re.compile(r"\brules?\s+([0-9a-z.,–\s]+)")
RULE_NUMBER = re.compile(r"(\d{3}(?:\.\d+[a-z]?)?)(?:–([a-z]))?")
# Subrule letters skip "l" and "o" (CR introduction).
SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"
COPIED_WORDS = 8

ACTIVATE = URIRef(V.Activate)
CAST = URIRef(V.Cast)


def _u(iri: str) -> URIRef:
    return URIRef(iri)


def _mechanic(slug: str) -> URIRef:
    return URIRef(mint("mechanic", slug))


@pytest.fixture(scope="module")
def graph() -> Graph:
    merged = Graph()
    for path in DATA_FILES:
        merged.parse(path, format="turtle")
    return merged


@pytest.fixture(scope="module")
def keyword_rules() -> Graph:
    return Graph().parse(KEYWORD_RULES_FILE, format="turtle")


@pytest.fixture(scope="module")
def cr_text(shared_data: Path) -> dict[str, str]:
    return _parse_cr(shared_data / CR_FILE)


def _parse_cr(path: Path) -> dict[str, str]:
    """Rule number -> official text (with its examples) from the body of the CR text file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    # The contents list repeats every heading and ends with "Credits"; the rules proper follow it and
    # stop at the last "Glossary" heading.
    start = next(i for i, line in enumerate(lines) if line.strip() == "Credits") + 1
    end = max(i for i, line in enumerate(lines) if line.strip() == "Glossary")
    rules: dict[str, str] = {}
    current: str | None = None
    for line in lines[start:end]:
        match = RULE_LINE.match(line)
        if match:
            current = match.group(1)
            rules[current] = match.group(2)
        elif current and line.strip():
            rules[current] += " " + line.strip()
    return rules


def _rule_number(iri: URIRef) -> str | None:
    return str(iri)[len(CR_BASE) :] if str(iri).startswith(CR_BASE) else None


def _parent_number(number: str) -> str | None:
    if re.fullmatch(r"\d{3}\.\d+[a-z]", number):
        return number[:-1]
    if "." in number:
        return number.split(".")[0]
    return None


def _mechanics(graph: Graph) -> set[URIRef]:
    return set(graph.subjects(RDF.type, _u(V.Mechanic)))


def _requirements(graph: Graph) -> set[URIRef]:
    typed = set(graph.subjects(RDF.type, _u(V.Requirement)))
    used = set(graph.objects(None, _u(V.hasRequirement))) | set(graph.objects(None, _u(V.partnerCandidate)))
    return typed | used


def _cited_rules(graph: Graph) -> set[URIRef]:
    cited: set[URIRef] = set()
    for predicate in (V.citesRule, V.parentRule, V.refersTo):
        cited |= {o for o in graph.objects(None, _u(predicate)) if isinstance(o, URIRef)}
    return cited


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower().replace("\u2019", "").replace("'", ""))


def _shared_run(ours: str, official: str, length: int = COPIED_WORDS) -> str | None:
    """The first run of ``length`` consecutive words that ``ours`` shares with ``official``."""
    words = _words(official)
    official_runs = {tuple(words[i : i + length]) for i in range(len(words) - length + 1)}
    mine = _words(ours)
    for i in range(len(mine) - length + 1):
        if tuple(mine[i : i + length]) in official_runs:
            return " ".join(mine[i : i + length])
    return None


def _mentioned_rules(text: str) -> set[str]:
    numbers: set[str] = set()
    for run in RULE_MENTION.finditer(text):
        for number, range_end in RULE_NUMBER.findall(run.group(1)):
            numbers.add(number)
            if range_end:
                first = SUBRULE_LETTERS.index(number[-1])
                last = SUBRULE_LETTERS.index(range_end)
                numbers |= {number[:-1] + letter for letter in SUBRULE_LETTERS[first : last + 1]}
    return numbers


def _summaries(graph: Graph, node: URIRef) -> Iterator[str]:
    yield from (str(o) for o in graph.objects(node, _u(V.summary)))


@pytest.mark.parametrize("path", DATA_FILES, ids=lambda p: p.name)
def test_data_file_parses_as_turtle(path: Path) -> None:
    parsed = Graph().parse(path, format="turtle")
    assert len(parsed) > 0


def test_every_mechanic_has_label_summary_and_citation(graph: Graph) -> None:
    mechanics = _mechanics(graph)
    assert mechanics, "no mtgkb:Mechanic nodes found in data/mechanics"
    for node in mechanics:
        assert graph.value(node, RDFS.label), f"{node} has no rdfs:label"
        assert graph.value(node, _u(V.summary)), f"{node} has no mtgkb:summary"
        assert graph.value(node, _u(V.citesRule)), f"{node} cites no rule"


def test_every_requirement_is_defined_labelled_summarised_and_cited(graph: Graph) -> None:
    for node in _requirements(graph):
        assert (node, RDF.type, _u(V.Requirement)) in graph, f"{node} is used but not typed Requirement"
        assert graph.value(node, RDFS.label), f"{node} has no rdfs:label"
        assert graph.value(node, _u(V.summary)), f"{node} has no mtgkb:summary"
        assert graph.value(node, _u(V.citesRule)), f"{node} cites no rule"


def test_every_cited_keyword_rule_has_a_rule_node(graph: Graph, keyword_rules: Graph) -> None:
    keyword_iris = {iri for iri in _cited_rules(graph) if (_rule_number(iri) or "").startswith("702")}
    assert rule_iri("702.49d") in {str(iri) for iri in keyword_iris}
    for iri in keyword_iris:
        number = _rule_number(iri)
        assert (iri, RDF.type, _u(V.Rule)) in keyword_rules, f"no Rule node for cited rule {number}"
        assert keyword_rules.value(iri, _u(V.ruleNumber)) == Literal(number)
        assert keyword_rules.value(iri, RDFS.label) == Literal(f"CR {number}")
        assert keyword_rules.value(iri, _u(V.summary)), f"rule {number} has no summary"
        parent = _parent_number(number)
        declared = keyword_rules.value(iri, _u(V.parentRule))
        assert declared == (URIRef(rule_iri(parent)) if parent else None), f"wrong parentRule on {number}"


def test_every_cited_rule_number_exists_in_the_cr(graph: Graph, cr_text: dict[str, str]) -> None:
    missing = sorted(n for n in map(_rule_number, _cited_rules(graph)) if n and n not in cr_text)
    assert not missing, f"cited rule numbers not in the Comprehensive Rules: {missing}"


def test_rule_titles_are_the_cr_headings(keyword_rules: Graph, cr_text: dict[str, str]) -> None:
    for iri in keyword_rules.subjects(RDF.type, _u(V.Rule)):
        number = _rule_number(iri)
        titles = [str(o) for o in keyword_rules.objects(iri, _u(V.title))]
        # Only section rules (no subrule letter) have a heading in the CR.
        expected = [] if number[-1].isalpha() else [cr_text[number]]
        assert titles == expected, f"title of {number}"


def _rule_with_subrules(cr_text: dict[str, str], number: str) -> str:
    """A rule's text followed by that of its subrules: a heading's summary must not copy them either."""
    return " ".join(
        text
        for key, text in cr_text.items()
        if key == number or (key.startswith(number) and not key[len(number)].isdigit())
    )


def test_rule_summaries_are_not_copied_from_the_cr(keyword_rules: Graph, cr_text: dict[str, str]) -> None:
    for iri in keyword_rules.subjects(RDF.type, _u(V.Rule)):
        number = _rule_number(iri)
        official = _rule_with_subrules(cr_text, number)
        for summary in _summaries(keyword_rules, iri):
            assert " ".join(summary.lower().split()) not in " ".join(official.lower().split()), number
            assert _shared_run(summary, official) is None, (number, _shared_run(summary, official))


def test_mechanic_and_requirement_summaries_are_not_copied_from_the_rules_they_cite(
    graph: Graph, cr_text: dict[str, str]
) -> None:
    for node in _mechanics(graph) | _requirements(graph):
        for cited in graph.objects(node, _u(V.citesRule)):
            official = cr_text[_rule_number(cited)]
            for summary in _summaries(graph, node):
                copied = _shared_run(summary, official)
                assert copied is None, f"{node} summary repeats CR {_rule_number(cited)}: {copied!r}"


def test_refers_to_lists_exactly_the_rules_the_official_text_mentions(
    keyword_rules: Graph, cr_text: dict[str, str]
) -> None:
    for iri in keyword_rules.subjects(RDF.type, _u(V.Rule)):
        number = _rule_number(iri)
        declared = {_rule_number(o) for o in keyword_rules.objects(iri, _u(V.refersTo))}
        assert declared == _mentioned_rules(cr_text[number]) - {number}, f"refersTo of {number}"


def test_every_partner_text_variant_named_by_the_cr_is_a_variant_of_partner_text(
    graph: Graph, cr_text: dict[str, str]
) -> None:
    named = [t for t in re.findall(r"“partner—([^”]+?)[,.]?”", cr_text["702.124i"]) if not t.startswith("[")]
    assert len(named) >= 4, f"could not read the partner—[text] variants from 702.124i: {named}"
    partner_text = _mechanic("partner-text")
    variants = set(graph.subjects(_u(V.variantOf), partner_text))
    expected = {_mechanic(f"partner—{text}") for text in named}
    assert variants == expected
    for variant in variants:
        keywords = {str(k).casefold() for k in graph.objects(variant, _u(V.keyword))}
        assert any(k.startswith("partner—") for k in keywords), f"{variant} lacks its printed keyword"
        assert (variant, RDF.type, _u(V.PartnerAbility)) in graph
        assert graph.value(variant, _u(V.pairingRule)) == _u(V.SameAbilityText)


def test_older_friends_forever_printing_maps_to_the_partner_text_variant(graph: Graph) -> None:
    holders = set(graph.subjects(_u(V.keyword), Literal("Friends forever")))
    assert holders == {_mechanic("partner-friends-forever")}


def test_commander_ninjutsu_is_an_activation_from_hand_or_command_zone_that_skips_tax(graph: Graph) -> None:
    node = _mechanic("commander-ninjutsu")
    assert graph.value(node, _u(V.variantOf)) == _mechanic("ninjutsu")
    zones = set(graph.objects(node, _u(V.functionsIn)))
    assert zones == {_u(mint("zone", "hand")), _u(mint("zone", "command"))}
    assert graph.value(node, _u(V.actionKind)) == ACTIVATE
    assert graph.value(node, _u(V.affectsCommanderTax)) == Literal(False)
    assert _u(rule_iri("903.8")) in set(graph.objects(node, _u(V.citesRule)))


def test_ninjutsu_window_is_derived_from_requirements_not_a_step_list(graph: Graph) -> None:
    for slug in ("ninjutsu", "commander-ninjutsu"):
        requirements = set(graph.objects(_mechanic(slug), _u(V.hasRequirement)))
        assert not any(graph.value(r, _u(V.requiresStep)) for r in requirements), slug
        blocked = {graph.value(r, _u(V.requiresBlockedStatus)) for r in requirements}
        step_properties = {graph.value(r, _u(V.requiresStepProperty)) for r in requirements}
        assert _u(V.Unblocked) in blocked, slug
        assert _u(V.playersReceivePriority) in step_properties, slug


def test_commander_tax_is_affected_exactly_by_casts(graph: Graph) -> None:
    # CR 903.8: the tax counts casts from the command zone, so activations never touch it.
    checked = 0
    for node in _mechanics(graph):
        affects = graph.value(node, _u(V.affectsCommanderTax))
        if affects is None:
            continue
        checked += 1
        assert affects.toPython() == (graph.value(node, _u(V.actionKind)) == CAST), node
    assert checked >= 4


def test_alternative_costs_are_casts(graph: Graph) -> None:
    alternative = set(graph.subjects(_u(V.isAlternativeCost), Literal(True)))
    assert {_mechanic("sneak"), _mechanic("web-slinging")} <= alternative
    for node in alternative:
        assert graph.value(node, _u(V.actionKind)) == CAST, node


def test_partner_abilities_designate_commanders_and_function_in_no_zone(graph: Graph) -> None:
    family = _mechanic("partner-family")
    abilities = set(graph.subjects(RDF.type, _u(V.PartnerAbility)))
    assert len(abilities) >= 9
    for node in abilities:
        assert graph.value(node, _u(V.actionKind)) == _u(V.DesignateCommander), node
        assert graph.value(node, _u(V.functionsIn)) is None, node
        assert graph.value(node, _u(V.pairingRule)) is not None, node
        ancestor, seen = node, set()
        while ancestor != family and ancestor not in seen:
            seen.add(ancestor)
            ancestor = graph.value(ancestor, _u(V.variantOf))
            assert ancestor is not None, f"{node} does not descend from partner-family"


def test_a_partner_card_may_be_the_only_commander(graph: Graph) -> None:
    family = _mechanic("partner-family")
    cites = set(graph.objects(family, _u(V.citesRule)))
    assert {_u(rule_iri("702.124a")), _u(rule_iri("903.3"))} <= cites


def test_split_second_locks_out_ninjutsu_and_sneak_but_not_mana_abilities(graph: Graph) -> None:
    split_second = _mechanic("split-second")
    prohibited = set(graph.objects(split_second, _u(V.prohibitsAction)))
    exempt = set(graph.objects(split_second, _u(V.exemptsAction)))
    assert {_u(V.ManaAbility), _u(V.SpecialAction)} <= exempt
    assert not prohibited & exempt
    for slug in ("ninjutsu", "commander-ninjutsu", "sneak", "web-slinging"):
        assert graph.value(_mechanic(slug), _u(V.actionKind)) in prohibited, slug

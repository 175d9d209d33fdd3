"""The hand-written turn, combat, zone, priority, commander and copy data against the rules.

The turn graph must be one walkable chain whose step properties match what the Comprehensive Rules
imply (blocked status exists from declare blockers until combat ends, 509.1h and 511.3); every rule
the data cites must exist as a Rule node with a summary; and no summary may be lifted from the CR.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from rdflib import RDF, RDFS, Graph, Literal, URIRef

from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import V, sparql_prefixes

DATA = Path(__file__).resolve().parents[1] / "data"
TOPIC_FILES = ("turn", "combat", "zones", "priority", "commander", "copy")
CR_FILE = "MagicCompRules-20260417.txt"
CR_PREFIX = mint("cr", "100")[: -len("100")]
# A run of this many words shared with the official text is treated as copied, not paraphrased.
SHINGLE_WORDS = 10


def _parse(*paths: Path) -> Graph:
    graph = Graph()
    for path in paths:
        graph.parse(path, format="turtle")
    return graph


@pytest.fixture(scope="module")
def topics() -> Graph:
    return _parse(*(DATA / f"{name}.ttl" for name in TOPIC_FILES))


@pytest.fixture(scope="module")
def rule_graph() -> Graph:
    """Every rules file, so citations may be satisfied by keywords.ttl as well as core.ttl."""
    return _parse(*sorted((DATA / "rules").glob("*.ttl")))


@pytest.fixture(scope="module")
def core_rules() -> Graph:
    return _parse(DATA / "rules" / "core.ttl")


def _iri(prop: str) -> URIRef:
    return URIRef(getattr(V, prop))


def _steps(graph: Graph) -> set[URIRef]:
    return set(graph.subjects(RDF.type, _iri("Step")))


def _one(graph: Graph, subject: URIRef, prop: str) -> object:
    values = list(graph.objects(subject, _iri(prop)))
    assert len(values) == 1, f"{subject} needs exactly one mtgkb:{prop}, has {values}"
    return values[0].toPython() if isinstance(values[0], Literal) else values[0]


def _order(graph: Graph, step: URIRef) -> int:
    return int(_one(graph, step, "stepOrder"))


def _successors(graph: Graph, step: URIRef) -> list[URIRef]:
    return sorted(graph.objects(step, _iri("nextStep")), key=lambda s: _order(graph, s))


def _main_chain(graph: Graph) -> list[URIRef]:
    """The turn without skips: from the first step always take the nearest successor."""
    firsts = [s for s in _steps(graph) if _one(graph, s, "isFirstStep") is True]
    assert len(firsts) == 1, f"exactly one step must be the first step, found {firsts}"
    chain = [firsts[0]]
    while successors := _successors(graph, chain[-1]):
        assert successors[0] not in chain, f"nextStep cycle at {successors[0]}"
        chain.append(successors[0])
    return chain


def _slug(iri: URIRef) -> str:
    return str(iri).rsplit("/", 1)[-1]


def test_every_step_states_every_flag(topics: Graph) -> None:
    flags = (
        "isFirstStep",
        "isOptional",
        "playersReceivePriority",
        "blockedStatusDecided",
        "attackersMayExist",
    )
    for step in _steps(topics):
        for flag in flags:
            assert isinstance(_one(topics, step, flag), bool), f"{step} mtgkb:{flag} must be a boolean"
        assert (_one(topics, step, "inPhase"), RDF.type, _iri("Phase")) in topics


def test_walking_next_step_from_the_first_step_reaches_every_step(topics: Graph) -> None:
    start = _main_chain(topics)[0]
    seen, frontier = {start}, [start]
    while frontier:
        for successor in topics.objects(frontier.pop(), _iri("nextStep")):
            if successor not in seen:
                seen.add(successor)
                frontier.append(successor)
    assert seen == _steps(topics)
    assert _slug(start) == "untap"


def test_step_order_increases_along_every_edge_and_counts_up_along_the_chain(topics: Graph) -> None:
    for step, _, successor in topics.triples((None, _iri("nextStep"), None)):
        assert _order(topics, successor) > _order(topics, step), f"{step} -> {successor}"
    chain = _main_chain(topics)
    assert [_order(topics, s) for s in chain] == list(range(1, len(_steps(topics)) + 1))
    phase_orders = [int(_one(topics, _one(topics, s, "inPhase"), "phaseOrder")) for s in chain]
    assert phase_orders == sorted(phase_orders), "steps must stay grouped by phase in phase order"


def test_skip_edges_are_the_two_the_rules_allow_and_cite_their_rule(topics: Graph) -> None:
    chain = _main_chain(topics)
    chain_edges = set(itertools.pairwise(chain))
    skips = {
        (step, successor)
        for step, _, successor in topics.triples((None, _iri("nextStep"), None))
        if (step, successor) not in chain_edges
    }
    # 508.8: no attackers skips blockers and damage; 510.4: the first-strike step exists only when needed.
    expected = {
        ("declare-attackers", "end-of-combat", "508.8"),
        ("declare-blockers", "combat-damage", "510.4"),
    }
    assert {(_slug(a), _slug(b)) for a, b in skips} == {(a, b) for a, b, _ in expected}
    for source, _, rule in expected:
        step = next(s for s, _ in skips if _slug(s) == source)
        assert (step, _iri("citesRule"), URIRef(mint("cr", rule))) in topics
    # A step is optional (absent from some turns) exactly when some skip edge jumps over it.
    position = {step: i for i, step in enumerate(chain)}
    jumped = {_slug(s) for a, b in skips for s in chain[position[a] + 1 : position[b]]}
    optional = {_slug(s) for s in chain if _one(topics, s, "isOptional") is True}
    assert optional == jumped == {"declare-blockers", "first-strike-combat-damage", "combat-damage"}


def _steps_where(graph: Graph, prop: str) -> set[str]:
    query = sparql_prefixes() + f"SELECT ?s WHERE {{ ?s a mtgkb:Step ; mtgkb:{prop} true }}"
    return {_slug(row[0]) for row in graph.query(query)}


def _combat_steps_from(graph: Graph, first: str) -> set[str]:
    """Steps of the combat phase from ``first`` onward: combat status lasts until the phase ends."""
    chain = _main_chain(graph)
    start = next(i for i, s in enumerate(chain) if _slug(s) == first)
    combat = URIRef(mint("phase", "combat"))
    return {_slug(s) for s in chain[start:] if _one(graph, s, "inPhase") == combat}


def test_blocked_status_is_decided_exactly_from_declare_blockers_to_end_of_combat(topics: Graph) -> None:
    decided = _steps_where(topics, "blockedStatusDecided")
    # 509.1h: decided when blockers are declared and kept until combat ends; 511.3: nothing leaves
    # combat before the end of combat step is over.
    assert decided == _combat_steps_from(topics, "declare-blockers")
    assert decided == {"declare-blockers", "first-strike-combat-damage", "combat-damage", "end-of-combat"}


def test_attackers_may_exist_from_declare_attackers_to_end_of_combat(topics: Graph) -> None:
    # 508.1k: attackers stay attacking until removed from combat or the combat phase ends.
    assert _steps_where(topics, "attackersMayExist") == _combat_steps_from(topics, "declare-attackers")


def test_only_untap_and_cleanup_withhold_priority(topics: Graph) -> None:
    no_priority = {_slug(s) for s in _steps(topics)} - _steps_where(topics, "playersReceivePriority")
    assert no_priority == {"untap", "cleanup"}  # 500.3, 502.4, 514.3


def test_unblocked_attacker_window_follows_from_the_step_properties(topics: Graph) -> None:
    query = (
        sparql_prefixes()
        + """
        SELECT ?s WHERE {
            ?s a mtgkb:Step ; mtgkb:playersReceivePriority true .
            FILTER NOT EXISTS {
                mtgkb:Unblocked mtgkb:possibleOnlyWhen ?needed .
                FILTER NOT EXISTS { ?s ?needed true }
            }
        }"""
    )
    window = {_slug(row[0]) for row in topics.query(query)}
    assert window == {"declare-blockers", "first-strike-combat-damage", "combat-damage", "end-of-combat"}
    for status in ("Blocked", "Unblocked", "BlockedStatusUndecided"):
        assert (_iri(status), _iri("possibleOnlyWhen"), _iri("attackersMayExist")) in topics


def test_commander_tax_counts_casts_from_the_command_zone(topics: Graph) -> None:
    tax = URIRef(mint("concept", "commander-tax"))
    assert _one(topics, tax, "countsAction") == _iri("Cast")
    assert _one(topics, tax, "countsFromZone") == URIRef(mint("zone", "command"))
    assert _one(topics, tax, "taxPerCount") == "{2}"
    assert (tax, _iri("citesRule"), URIRef(mint("cr", "903.8"))) in topics


def _cited(graph: Graph) -> set[URIRef]:
    return set(graph.objects(None, _iri("citesRule")))


def _number(rule: URIRef) -> str:
    return str(rule)[len(CR_PREFIX) :]


def test_cited_rules_outside_702_have_rule_nodes_up_to_their_section(
    topics: Graph, rule_graph: Graph
) -> None:
    rules = {rule for rule in _cited(topics) | _cited(rule_graph) if not _number(rule).startswith("702.")}
    pending = set(rules)
    while pending:
        rule = pending.pop()
        number = _number(rule)
        assert (rule, RDF.type, _iri("Rule")) in rule_graph, f"no Rule node for cited CR {number}"
        assert _one(rule_graph, rule, "ruleNumber") == number
        assert str(_one(rule_graph, rule, "summary")).strip()
        assert str(_one(rule_graph, rule, "title")).strip()
        assert (rule, RDFS.label, Literal(f"CR {number}")) in rule_graph
        parents = list(rule_graph.objects(rule, _iri("parentRule")))
        if "." in number:
            assert len(parents) == 1, f"CR {number} needs its parent rule"
            assert number.startswith(_number(parents[0]))
            pending |= set(parents) - rules
            rules |= set(parents)
        else:
            assert not parents


def test_cited_702_rules_have_rule_nodes(topics: Graph, rule_graph: Graph) -> None:
    keyword_rules = {rule for rule in _cited(topics) if _number(rule).startswith("702.")}
    if not (DATA / "rules" / "keywords.ttl").exists():
        pytest.skip("data/rules/keywords.ttl (702.* rule nodes) not written yet")
    for rule in keyword_rules:
        assert (rule, RDF.type, _iri("Rule")) in rule_graph, f"no Rule node for cited CR {_number(rule)}"


# ---------------------------------------------------------------------------------------------
# Guard against copying official text into summaries
# ---------------------------------------------------------------------------------------------

_RULE_LINE = re.compile(r"^(\d{3}(?:\.\d+[a-z]?)?)\.? ")


def _normalise(text: str) -> str:
    table = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2014": "-"})
    return " ".join(text.translate(table).lower().split())


def _read_cr(path: Path) -> dict[str, str]:
    """Rule number -> its own text (examples included). Later occurrences win, which skips the contents."""
    texts: dict[str, str] = {}
    current = None
    for line in path.read_text(encoding="utf-8").splitlines():
        match = _RULE_LINE.match(line)
        if match:
            current = match.group(1)
            texts[current] = line[match.end() :]
        elif re.match(r"^\d\. ", line) or line.strip() == "Glossary":
            current = None
        elif current and line.strip():
            texts[current] += "\n" + line
    return texts


def _with_subrules(texts: dict[str, str], number: str) -> str:
    """A rule's text together with every subrule under it (509 covers 509.1h; 509.1 covers 509.1h)."""
    pattern = re.compile(re.escape(number) + (r"(\.|$)" if "." not in number else r"([a-z]|$)"))
    return "\n".join(text for n, text in texts.items() if pattern.match(n))


def _shingles(text: str) -> Iterator[str]:
    words = text.split()
    for i in range(len(words) - SHINGLE_WORDS + 1):
        yield " ".join(words[i : i + SHINGLE_WORDS])


def test_no_summary_is_copied_from_the_rules_it_is_about(
    shared_data: Path, topics: Graph, core_rules: Graph
) -> None:
    texts = _read_cr(shared_data / "rules" / CR_FILE)
    graph = topics + core_rules
    checked = 0
    for node, summary in graph.subject_objects(_iri("summary")):
        about = set(graph.objects(node, _iri("citesRule")))
        if (node, RDF.type, _iri("Rule")) in graph:
            about.add(node)
        ours = _normalise(str(summary))
        for rule in about:
            official = _normalise(_with_subrules(texts, _number(rule)))
            assert official, f"CR {_number(rule)} cited by {node} is not in {CR_FILE}"
            assert ours not in official, f"summary of {node} is copied from CR {_number(rule)}"
            copied = [s for s in _shingles(ours) if s in official]
            assert not copied, f"summary of {node} shares {copied[0]!r} with CR {_number(rule)}"
            checked += 1
    assert checked > 100

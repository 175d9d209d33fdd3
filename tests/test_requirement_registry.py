"""One owner for each requirement kind (issue 19): every requires*/waivedBy*/excludes* property of the
ontology has exactly one evaluator, a pattern file or a declared Python evaluator; a pattern's phrases
use only declared placeholders; and a requirement property with no evaluator is never a yes: the
check cannot tell (holds None), the verdict answers null and the command exits 3."""

from __future__ import annotations

import copy as copying
import dataclasses
import json
from pathlib import Path

import pytest
import rdflib

from mtgkb.kb.iris import VOCAB
from mtgkb.kb.vocab import V
from mtgkb.reasoning.knowledge import Term
from mtgkb.reasoning.requirements import registry
from mtgkb.reasoning.requirements.registry import (
    PLACEHOLDERS,
    PYTHON_EVALUATORS,
    PatternError,
    is_requirement_property,
    patterns,
    placeholders,
)

ROOT = Path(__file__).resolve().parents[1]
MADE_UP = VOCAB + "requiresFullMoon"


def ontology_requirement_properties() -> set[str]:
    graph = rdflib.Graph().parse(ROOT / "ontology" / "mtgkb.ttl", format="turtle")
    kinds = (rdflib.OWL.ObjectProperty, rdflib.OWL.DatatypeProperty, rdflib.RDF.Property)
    return {
        str(s)
        for kind in kinds
        for s in graph.subjects(rdflib.RDF.type, kind)
        if is_requirement_property(str(s))
    }


def gaps(properties: set[str]) -> tuple[set[str], set[str], set[str]]:
    """(properties with no evaluator, evaluators of no property, properties with two evaluators)."""
    owners = set(patterns()) | set(PYTHON_EVALUATORS)
    return properties - owners, owners - properties, set(patterns()) & set(PYTHON_EVALUATORS)


def test_every_requirement_property_has_exactly_one_evaluator() -> None:
    properties = ontology_requirement_properties()
    assert len(properties) >= 26
    assert gaps(properties) == (set(), set(), set())


def test_a_made_up_property_with_no_evaluator_is_a_gap() -> None:
    # What the test above reports when the ontology gains a requirement property nobody evaluates.
    assert gaps(ontology_requirement_properties() | {MADE_UP})[0] == {MADE_UP}


def test_every_python_evaluator_says_where_and_why() -> None:
    for prop, evaluator in PYTHON_EVALUATORS.items():
        assert evaluator.engine in {"verdicts", "copy", "commanders"}, prop
        assert len(evaluator.reason) > 20, prop


def test_every_placeholder_a_phrase_uses_is_declared() -> None:
    for pattern in patterns().values():
        for phrase in (pattern.holds, pattern.fails, pattern.unsure or ""):
            assert placeholders(phrase) <= set(PLACEHOLDERS), (pattern.property, phrase)


def test_an_unknown_pattern_needs_its_phrase(tmp_path: Path, monkeypatch) -> None:
    """A pattern that may not tell says why in its own phrase, never in an empty one."""
    (tmp_path / "requiresTapped.rq").write_text(
        "# property: mtgkb:requiresTapped\n# subject: object\n# combine: any\n"
        "# unknown: ?object mtgkb:isFaceDown true\n"
        "# holds: {subject} is {tapped}\n# fails: {subject} is {tapped}\n?object mtgkb:isTapped ?value .\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(registry, "FOLDER", tmp_path)
    patterns.cache_clear()
    try:
        with pytest.raises(PatternError, match="'unknown' and 'unsure' go together"):
            patterns()
    finally:
        monkeypatch.undo()
        patterns.cache_clear()


def test_a_misspelt_placeholder_is_refused_not_printed(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "requiresTapped.rq").write_text(
        "# property: mtgkb:requiresTapped\n# subject: object\n# combine: any\n"
        "# holds: {subject} is {taped}\n# fails: {subject} is {tapped}\n?object mtgkb:isTapped ?value .\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(registry, "FOLDER", tmp_path)
    patterns.cache_clear()
    try:
        with pytest.raises(PatternError, match="taped"):
            patterns()
    finally:
        monkeypatch.undo()
        patterns.cache_clear()


def test_the_requirements_readme_documents_the_implicit_variables() -> None:
    text = (ROOT / "queries" / "requirements" / "README.md").read_text(encoding="utf-8")
    for variable in ("?situation", "?player", "?object", "?value"):
        assert variable in text
    for name in PLACEHOLDERS:
        assert "{" + name + "}" in text


# --- at run time: no evaluator, no yes --------------------------------------------------------------

COMBAT = {
    "turn": "me",
    "step": "declare-blockers",
    "players": {
        "me": {
            "hand": ["Ninja of the Deep Hours"],
            "battlefield": [{"card": "Grizzly Bears", "attacking": "opp", "blocked": False, "tapped": True}],
            "mana": "{1}{U}",
        },
        "opp": {},
    },
}


@pytest.fixture
def full_moon_ninjutsu(kb, monkeypatch):
    """The rules as read, with a made-up requirement property on ninjutsu's own-object requirement."""
    from mtgkb.kb.iris import mint
    from mtgkb.reasoning.actions import ways as actions
    from mtgkb.reasoning.knowledge import read_rules

    rules = copying.deepcopy(read_rules(kb))
    ninjutsu = rules.node(mint("mechanic", "ninjutsu"))
    requirement = next(
        r for r in ninjutsu.all(V.hasRequirement) if rules.node(r).first(V.appliesTo) == V.SourceObject
    )
    rules.nodes[requirement].values[MADE_UP] = [Term('"true"^^xsd:boolean', True)]
    monkeypatch.setattr(actions, "read_rules", lambda _kb: rules)
    return requirement


def test_a_requirement_with_no_evaluator_cannot_tell(run_cli, full_moon_ninjutsu, tmp_path: Path) -> None:
    situation = tmp_path / "combat.json"
    situation.write_text(json.dumps(COMBAT), encoding="utf-8")
    arguments = ("can-activate", "Ninja of the Deep Hours", "--situation", str(situation))
    result = run_cli(*arguments, "--json")
    assert result.exit_code == 3, result.output
    verdict = json.loads(result.stdout)
    assert verdict["answer"] is None
    [unknown] = [c for c in verdict["checks"] if c["holds"] is None]
    assert unknown["evaluates"] == full_moon_ninjutsu and "requiresFullMoon" in unknown["because"]
    text = run_cli(*arguments)
    assert text.exit_code == 3 and "CANNOT TELL" in text.stdout and "??" in text.stdout
    turtle = run_cli(*arguments, "--format", "ttl")
    assert turtle.exit_code == 3 and "mtgkb:cannotTell true" in turtle.stdout
    assert "mtgkb:answer" not in turtle.stdout


def test_a_failing_part_still_says_no_beside_one_not_modelled(
    run_cli, full_moon_ninjutsu, tmp_path: Path
) -> None:
    # Ninja of the Deep Hours in the graveyard: its zone fails, whatever the full moon would say.
    game = copying.deepcopy(COMBAT)
    game["players"]["me"]["hand"] = []
    game["players"]["me"]["graveyard"] = ["Ninja of the Deep Hours"]
    situation = tmp_path / "graveyard.json"
    situation.write_text(json.dumps(game), encoding="utf-8")
    result = run_cli("can-activate", "Ninja of the Deep Hours", "--situation", str(situation), "--json")
    assert result.exit_code == 1, result.output
    assert json.loads(result.stdout)["answer"] is False


def test_a_card_with_no_modelled_ability_cannot_tell(run_cli) -> None:
    result = run_cli("can-activate", "Grizzly Bears", "--step", "declare-blockers", "--json")
    assert result.exit_code == 3, result.output
    verdict = json.loads(result.stdout)
    assert verdict["answer"] is None and [c["holds"] for c in verdict["checks"]] == [None]


def test_a_copy_target_requirement_with_no_evaluator_cannot_tell(kb, run_cli, monkeypatch) -> None:
    from mtgkb.reasoning.copy import verdict as copy_module

    card = copy_module.load_card(kb, "Clone")
    effects = [dataclasses.replace(e, target={**e.target, MADE_UP: [True]}) for e in card.copy_effects]
    changed = dataclasses.replace(card, copy_effects=effects)
    real = copy_module.load_card
    monkeypatch.setattr(
        copy_module, "load_card", lambda kb, name: changed if name == "Clone" else real(kb, name)
    )
    result = run_cli("copy", "Clone", "--target", "Grizzly Bears", "--json")
    assert result.exit_code == 3, result.output
    verdict = json.loads(result.stdout)
    assert verdict["answer"] is None
    assert any(c["holds"] is None and "requiresFullMoon" in c["because"] for c in verdict["checks"])


def test_a_commander_rule_with_no_evaluator_cannot_tell(kb, run_cli, monkeypatch) -> None:
    from mtgkb.reasoning.commanders import verdict as commanders
    from mtgkb.reasoning.commanders.model import load_model

    model = copying.deepcopy(load_model(kb))
    for requirement in model.eligibility:
        requirement.unmodelled = [MADE_UP]
    monkeypatch.setattr(commanders, "load_model", lambda _kb: model)
    result = run_cli("commanders", "Rose Tyler", "--json")
    assert result.exit_code == 3, result.output
    verdict = json.loads(result.stdout)
    assert verdict["answer"] is None
    assert any(c["holds"] is None and "requiresFullMoon" in c["because"] for c in verdict["checks"])
    # A card no commander rule admits is still a plain no.
    assert run_cli("commanders", "Grizzly Bears").exit_code == 1


# --- one meaning for a Ninja and for a Clone ---------------------------------------------------------


def test_the_copy_and_commander_checks_evaluate_no_pattern_property_in_python() -> None:
    # No escape hatch: a property with a pattern is evaluated by its pattern, for every question.
    assert not hasattr(registry, "ALSO_IN_PYTHON")
    assert not [p for p, e in PYTHON_EVALUATORS.items() if e.engine == "copy"]
    for engine in ("copy", "commanders"):
        object_patterns = {
            p
            for p, pattern in patterns().items()
            if pattern.about_object and (pattern.engines is None or engine in pattern.engines)
        }
        assert object_patterns <= registry.evaluated_by(engine)


def test_requires_zone_means_one_thing_for_every_subject() -> None:
    from mtgkb.kb.iris import mint
    from mtgkb.reasoning.requirements.subject_graph import Subject, SubjectGraph

    graph = SubjectGraph(
        [
            Subject("bears", "Grizzly Bears", zone="battlefield", owner="opp", controller="opp"),
            Subject("ninja", "Ninja of the Deep Hours", zone="hand", owner="opp", controller="opp"),
            Subject("mine", "Ninja of the Deep Hours", zone="hand", owner="me", controller="me"),
        ],
        player="me",
    )
    battlefield, hand = mint("zone", "battlefield"), mint("zone", "hand")
    # Anyone's permanent is on the battlefield (a Clone may copy it); a card in a hand is its owner's.
    assert graph.holds(V.requiresZone, [battlefield], "bears") is True
    assert graph.holds(V.requiresZone, [hand], "ninja") is False
    assert graph.holds(V.requiresZone, [hand], "mine") is True
    assert graph.holds(V.requiresControlByYou, [True], "bears") is False
    assert graph.holds(V.requiresAnyCardType, ["Creature"], "bears") is False  # no types given
    assert graph.holds(V.requiresStep, [battlefield], "bears") is None  # about the game


def test_a_copy_target_requirement_with_a_pattern_the_copy_checks_do_not_word_is_asked(
    kb, run_cli, monkeypatch
) -> None:
    # requiresTapped has a pattern: a Clone asked to copy only a tapped creature says no for an
    # untapped Grizzly Bears, through the pattern, not silently yes.
    from mtgkb.reasoning.copy import verdict as copy_module

    card = copy_module.load_card(kb, "Clone")
    effects = [
        dataclasses.replace(e, target={**e.target, V.requiresTapped: [True]}) for e in card.copy_effects
    ]
    changed = dataclasses.replace(card, copy_effects=effects)
    real = copy_module.load_card
    monkeypatch.setattr(
        copy_module, "load_card", lambda kb, name: changed if name == "Clone" else real(kb, name)
    )
    game = {"turn": "me", "step": "precombat-main", "players": {"me": {"battlefield": ["Grizzly Bears"]}}}
    result = run_cli(
        "copy", "Clone", "--target", "Grizzly Bears", "--situation", "-", "--json", input=json.dumps(game)
    )
    assert result.exit_code == 1, result.output
    verdict = json.loads(result.stdout)
    assert any(c["holds"] is False and "requiresTapped" in c["check"] for c in verdict["checks"])


def test_a_pattern_limited_to_some_questions_is_not_modelled_in_the_others() -> None:
    """requiresEnteredFrom asks where a permanent entered from, which a copy situation says and a
    verdict's game graph does not: a verdict requirement using it cannot tell, never a no."""
    from mtgkb.reasoning.requirements.registry import unmodelled

    assert unmodelled([V.requiresEnteredFrom], "verdicts") == [V.requiresEnteredFrom]
    assert unmodelled([V.requiresEnteredFrom], "copy") == []

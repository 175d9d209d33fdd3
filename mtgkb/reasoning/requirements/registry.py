"""One owner for each requirement kind.

Every ``requires*``, ``waivedBy*`` and ``excludes*`` property of the ontology has exactly one
evaluator: a pattern file in ``queries/requirements/`` (read by :func:`patterns`), or an entry of
:data:`PYTHON_EVALUATORS`, which says where it is evaluated and why it is not a pattern. A test holds
the ontology's property set equal to the two together. A property a requirement carries that its
evaluator does not know is never taken to hold: the check says what is not modelled and the verdict
cannot tell (exit 3).
"""

from __future__ import annotations

import functools
import string
from dataclasses import dataclass

from mtgkb.core.paths import queries_dir
from mtgkb.kb.vocab import V

FOLDER = queries_dir() / "requirements"

#: How the local name of a requirement property starts.
KINDS = ("requires", "waivedBy", "excludes")


@dataclass(frozen=True)
class PythonEvaluator:
    engine: str  # the question whose code evaluates it: "verdicts", "copy" or "commanders"
    reason: str  # why it is not a pattern file


#: The requirement properties evaluated in Python, each with its reason.
PYTHON_EVALUATORS: dict[str, PythonEvaluator] = {
    V.requiresTiming: PythonEvaluator(
        "verdicts", "names a timing node whose own requires* values join the requirement's parts"
    ),
    V.requiresOnlyListedSubtypes: PythonEvaluator(
        "commanders",
        "compares the card's subtypes with the requirement's own requiresSubtype values (and changeling's "
        "every creature type), which a pattern, bound to one property's values, does not see",
    ),
    V.requiresAbility: PythonEvaluator(
        "commanders",
        "follows each ability's mechanic up its mtgkb:variantOf ancestry in the commander model, read "
        "once for the whole pool's partner network rather than asked card by card",
    ),
}

#: What a phrase of a pattern may say, and what each placeholder stands for. A phrase using any other
#: name is refused when the pattern is read (and by a test), never printed as written.
PLACEHOLDERS: dict[str, str] = {
    "player": "the player the question is about: 'you'",
    "subject": "the object the requirement is about, or 'the game'",
    "value": "the first value of the property, as its label",
    "a_value": "the first value with its article: 'a Creature', 'an Instant'",
    "values": "every value of the property, joined with 'or'",
    "step": "the step the game is in",
    "active": "whose turn it is: 'you' or the player's name",
    "holder": "who holds priority: 'you' or the player's name",
    "active_turn": "'your turn' or 'Alice's turn'",
    "holder_turn": "'Alice holds', 'you hold'",
    "wanted_turn": "'your turn' or 'another player's turn', as the value asks",
    "stack": "the objects on the stack, or 'nothing'",
    "zone": "the zone the subject is in (an object's pattern)",
    "in_zone": "where the subject is: 'in your hand', 'in exile', 'on the battlefield' (an object's pattern)",
    "in_values": "where each zone value is, joined with 'or': 'in your hand or in the command zone'",
    "tapped": "'tapped' or 'untapped' (an object's pattern)",
    "commander": "'a commander' or 'not a commander' (an object's pattern)",
    "token": "'a token' or 'not a token' (an object's pattern)",
    "status": "the subject's blocked status, or 'not attacking' (an object's pattern)",
    "value_colour": "the first value as a colour word: 'red' for R",
    "owned_by": "'yours' or 'Alice's', whose the subject is (an object's pattern)",
    "face": "'face down' or 'face up' (an object's pattern)",
}


class PatternError(ValueError):
    """A pattern file that cannot be used: a bug in queries/requirements/, not a user mistake."""


@dataclass(frozen=True)
class Pattern:
    property: str
    about_object: bool
    any_value: bool
    holds: str
    fails: str
    body: str
    order: int  # where its phrase comes in a check's reasons
    cites_step: bool = False  # a failure also cites the rules of the current step
    # The questions whose subjects carry what the pattern asks for (``engines:``); None: all of them.
    engines: frozenset[str] | None = None
    # A group pattern that, when it holds, leaves the part undecided (``unknown:``): the situation does
    # not say what the pattern asks; ``unsure`` is the phrase that says so.
    unknown: str | None = None
    unsure: str | None = None


def local_name(iri: str) -> str:
    return iri.rsplit("/", 1)[-1].rsplit("#", 1)[-1]


def is_requirement_property(iri: str) -> bool:
    """A property of the vocabulary whose name says it constrains: requires*, waivedBy*, excludes*."""
    return iri.startswith(V.requiresZone[: -len("requiresZone")]) and local_name(iri).startswith(KINDS)


def placeholders(phrase: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(phrase) if name is not None}


@functools.cache
def patterns() -> dict[str, Pattern]:
    """Every pattern file, by the IRI of its property, in phrase order."""
    from mtgkb.kb.query_files import read_header

    found = {}
    for path in sorted(FOLDER.glob("*.rq")):
        text = path.read_text(encoding="utf-8")
        header = {key: values[0] for key, values in read_header(text).items()}
        prop = getattr(V, header["property"].removeprefix("mtgkb:"))
        if path.stem != local_name(prop):
            raise PatternError(f"{path.name} declares {header['property']}: name the file after it")
        if ("unknown" in header) != ("unsure" in header):
            raise PatternError(f"{path.name}: 'unknown' and 'unsure' go together")
        for key in ("holds", "fails", "unsure"):
            unknown = placeholders(header.get(key, "")) - set(PLACEHOLDERS)
            if unknown:
                raise PatternError(f"{path.name}: '{key}' uses unknown placeholders {sorted(unknown)}")
        found[prop] = Pattern(
            prop,
            header["subject"] == "object",
            header["combine"] == "any",
            header["holds"],
            header["fails"],
            text,  # the header lines are SPARQL comments
            int(header.get("order", "100")),
            header.get("also-cites") == "step",
            frozenset(e.strip() for e in header["engines"].split(",")) if "engines" in header else None,
            header.get("unknown"),
            header.get("unsure"),
        )
    return dict(sorted(found.items(), key=lambda item: (item[1].order, item[0])))


@functools.cache
def evaluated_by(engine: str) -> frozenset[str]:
    """The requirement properties the checks of one question (verdicts, copy, commanders) evaluate."""
    python = {p for p, e in PYTHON_EVALUATORS.items() if e.engine == engine}
    usable = {p for p, pattern in patterns().items() if pattern.engines is None or engine in pattern.engines}
    if engine == "verdicts":
        return frozenset(usable | python)
    # The copy and commander checks ask the patterns of objects (a copy target, a card of the pool);
    # they have no game state to ask the others of.
    return frozenset({p for p in usable if patterns()[p].about_object} | python)


def unmodelled(properties: object, engine: str) -> list[str]:
    """The requirement properties among ``properties`` that ``engine`` has no evaluator for."""
    known = evaluated_by(engine)
    return sorted(p for p in properties if is_requirement_property(p) and p not in known)  # type: ignore[attr-defined]


def not_modelled_phrase(properties: list[str]) -> str:
    names = ", ".join(f"mtgkb:{local_name(p)}" for p in properties)
    return f"cannot tell: {names} {'is' if len(properties) == 1 else 'are'} not modelled (no evaluator)"

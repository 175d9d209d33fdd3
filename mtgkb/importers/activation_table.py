"""The phrase table the activated-ability reader reads Oracle text with, from the curated data
(``data/mechanics/activation-phrases.ttl``: mtgkb:ActivationPhrase nodes), so that a new cost or restriction
needs a Turtle entry, not code."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

from mtgkb.kb.iris import namespace
from mtgkb.kb.vocab import V


@dataclass(frozen=True)
class Template:
    """A requirement that takes the number a phrase reads ("Pay 3 life"): minted for each ability."""

    label: str  # with {n} (and {kind}) where the number (and the counter's kind) go
    facts: tuple[tuple[str, str, bool], ...]  # (predicate, value, value is an IRI) copied as they are
    number_goes_to: str  # the property that takes the number (or "kind=number")


@dataclass(frozen=True)
class Word:
    """One word of a description of objects ("nontoken", "creatures", "Goblin") and what it adds."""

    pattern: re.Pattern[str]
    facts: tuple[tuple[str, str, bool], ...]  # (predicate, value, value is an IRI)
    goes_to: str | None  # the property that takes the word itself (a subtype), if any


@dataclass(frozen=True)
class Phrase:
    iri: str
    pattern: re.Pattern[str]
    requirements: tuple[str, ...]  # requirement IRIs it adds
    zone: str | None  # the zone IRI it says the ability works from, if any
    template: Template | None = None
    waives: tuple[str, ...] = ()  # requirements of the ability's mechanic it lifts


@dataclass(frozen=True, eq=False)  # one table per data folder: compared and hashed by identity
class ActivationTable:
    costs: tuple[Phrase, ...]
    restrictions: tuple[Phrase, ...]
    targets: tuple[Phrase, ...]
    words: tuple[Word, ...] = ()
    # Searched for in an effect: the words that say which zone the ability works from (CR 113.6m).
    effects: tuple[Phrase, ...] = ()


def activation_table(root: Path | None = None) -> ActivationTable:
    """The table for the curated data under ``root`` (default: the repository, or MTGKB_ROOT)."""
    from mtgkb.core.paths import repo_root

    return _table_at(root or repo_root())


@functools.cache
def _table_at(root: Path) -> ActivationTable:
    # Asked once per activated ability of an import: resolving the folder each time cost 0.4 s.
    return _table(root.resolve())


@functools.cache
def _table(root: Path) -> ActivationTable:
    import pyoxigraph as ox

    from mtgkb.kb.sources import curated_sources

    prefix = namespace("phrase")
    facts: dict[str, dict[str, list[str]]] = {}
    facts_of: dict[str, list[tuple[str, str, bool]]] = {}  # every fact of a phrase node, as written
    other: dict[str, list[tuple[str, str, bool]]] = {}
    for source in curated_sources(root):
        if source.path.relative_to(root).parts[0] != "data":
            continue
        for triple in ox.parse(path=str(source.path), format=ox.RdfFormat.TURTLE):
            subject, predicate, value = triple.subject.value, triple.predicate.value, triple.object
            if subject.startswith(prefix):
                node = facts.setdefault(subject, {})
                node.setdefault(predicate, []).append(value.value)
                facts_of.setdefault(subject, []).append(
                    (predicate, value.value, isinstance(value, ox.NamedNode))
                )
            elif subject.startswith(namespace("requirement")):
                other.setdefault(subject, []).append(
                    (predicate, value.value, isinstance(value, ox.NamedNode))
                )
    words = tuple(
        Word(
            re.compile(pattern),
            tuple((p, v, is_iri) for p, v, is_iri in facts_of.get(iri, []) if _is_requirement(p)),
            (node.get(V.wordGoesTo) or [None])[0],
        )
        for iri, node in sorted(facts.items())
        for pattern in node.get(V.wordPattern, [])
    )
    description = _description_pattern(words)
    kinds: dict[str, list[Phrase]] = {
        V.costPattern: [],
        V.restrictionPattern: [],
        V.targetPattern: [],
        V.effectPattern: [],
    }
    for iri, node in sorted(facts.items()):
        for kind, found in kinds.items():
            for text in node.get(kind, []):
                template = (node.get(V.numberTemplate) or [None])[0]
                found.append(
                    Phrase(
                        iri,
                        re.compile(_expand(text, description), re.IGNORECASE),
                        tuple(node.get(V.addsRequirement, [])),
                        (node.get(V.setsZone) or [None])[0],
                        _template(other.get(template, [])) if template else None,
                        tuple(node.get(V.waivesRequirement, [])),
                    )
                )
    return ActivationTable(
        tuple(kinds[V.costPattern]),
        tuple(kinds[V.restrictionPattern]),
        tuple(kinds[V.targetPattern]),
        words,
        tuple(kinds[V.effectPattern]),
    )


# What {count} in a phrase stands for: how many objects, as Oracle text writes it.
_COUNT = r"(?P<n>a|an|one|two|three|four|five|six|seven|eight|nine|ten|x|\d+)"


def _expand(text: str, description: str) -> str:
    return text.replace("{description}", description).replace("{count}", _COUNT)


def _is_requirement(predicate: str) -> bool:
    return predicate.rsplit("#", 1)[-1].startswith(("requires", "excludes"))


def _description_pattern(words: tuple[Word, ...]) -> str:
    """What ``{description}`` in a phrase stands for: one or more words of the table, separated by
    spaces ("nontoken creature", "other untapped Goblins"), or a list of such with "or"; each word
    is matched as written, since an Oracle subtype is capitalised and a card type is not."""
    word = "|".join(f"(?-i:{w.pattern.pattern})" for w in words)
    words_ = f"(?:{word})(?: (?:{word}))*"
    # "artifact or enchantment", "artifact, creature, or land": one of several kinds.
    return f"{words_}(?:(?:,| or|, or|, and/or| and/or)(?: an?)? {words_})*\\b" if words else "(?!)"


def _template(facts: list[tuple[str, str, bool]]) -> Template:
    from mtgkb.kb.vocab import RDF_TYPE, RDFS_LABEL

    label = next(v for p, v, _ in facts if p == RDFS_LABEL)
    goes_to = next(v for p, v, _ in facts if p == V.numberGoesTo)
    kept = {RDF_TYPE, V.appliesTo, V.citesRule}
    return Template(label, tuple(f for f in facts if f[0] in kept or _is_requirement(f[0])), goes_to)

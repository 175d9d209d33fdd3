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
class Phrase:
    iri: str
    pattern: re.Pattern[str]
    requirements: tuple[str, ...]  # requirement IRIs it adds
    zone: str | None  # the zone IRI it says the ability works from, if any


@dataclass(frozen=True, eq=False)  # one table per data folder: compared and hashed by identity
class ActivationTable:
    costs: tuple[Phrase, ...]
    restrictions: tuple[Phrase, ...]
    targets: tuple[Phrase, ...]


def activation_table(root: Path | None = None) -> ActivationTable:
    """The table for the curated data under ``root`` (default: the repository, or MTGKB_ROOT)."""
    from mtgkb.core.paths import repo_root

    return _table((root or repo_root()).resolve())


@functools.cache
def _table(root: Path) -> ActivationTable:
    import pyoxigraph as ox

    from mtgkb.kb.sources import curated_sources

    prefix = namespace("phrase")
    facts: dict[str, dict[str, list[str]]] = {}
    for source in curated_sources(root):
        if source.path.relative_to(root).parts[0] != "data":
            continue
        for triple in ox.parse(path=str(source.path), format=ox.RdfFormat.TURTLE):
            if triple.subject.value.startswith(prefix):
                node = facts.setdefault(triple.subject.value, {})
                node.setdefault(triple.predicate.value, []).append(triple.object.value)
    kinds: dict[str, list[Phrase]] = {V.costPattern: [], V.restrictionPattern: [], V.targetPattern: []}
    for iri, node in sorted(facts.items()):
        for kind, found in kinds.items():
            for text in node.get(kind, []):
                found.append(
                    Phrase(
                        iri,
                        re.compile(text, re.IGNORECASE),
                        tuple(node.get(V.addsRequirement, [])),
                        (node.get(V.setsZone) or [None])[0],
                    )
                )
    return ActivationTable(
        tuple(kinds[V.costPattern]), tuple(kinds[V.restrictionPattern]), tuple(kinds[V.targetPattern])
    )

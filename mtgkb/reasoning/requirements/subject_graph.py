"""Requirements asked of objects described by their characteristics alone, with the same patterns as
the verdicts: a copy target is an object like the one chosen to pay a cost, seen through its
copiable values, where it is and who controls it. The objects are written as a small game graph (the
vocabulary of :mod:`mtgkb.reasoning.game_graph`) and each requirement property is asked with its
pattern file, so ``mtgkb:requiresZone`` means one thing for a Ninja and for a Clone."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mtgkb.kb.iris import mint
from mtgkb.kb.sparql_text import ParamValue, WrittenTerm, bind_values, sparql_string
from mtgkb.kb.vocab import PREFIXES, RDF_TYPE, RDFS_LABEL, V
from mtgkb.reasoning.requirements.evaluate import pattern_query
from mtgkb.reasoning.requirements.registry import patterns

_XSD = "http://www.w3.org/2001/XMLSchema#"


@dataclass(frozen=True)
class Subject:
    """One object as a requirement sees it."""

    key: str
    name: str
    zone: str | None = None  # as a situation names it: "battlefield", "hand", ...
    owner: str | None = None
    controller: str | None = None
    card_types: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    token: bool = False
    tapped: bool = False
    attacking: bool = False
    commander: bool = False
    entered_from: str | None = None  # the zone it entered the battlefield from
    power: str | None = None  # printed, as text: "2", "*"
    toughness: str | None = None


@dataclass
class SubjectGraph:
    """The objects, the player the question is about, and the object whose ability asks (the
    ``?source`` of a pattern: a copy effect's own permanent)."""

    subjects: list[Subject]
    player: str | None = None
    source: str | None = None  # the key of a subject
    store: Any = None
    iris: dict[str, str] = field(default_factory=dict)
    players: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        import pyoxigraph as ox

        from mtgkb.reasoning.game_graph import plain_literal
        from mtgkb.reasoning.situation import zone_iri

        base = mint("situation", "subjects")
        self.iris = {s.key: f"{base}/object/{i}" for i, s in enumerate(self.subjects)}
        names = {self.player, *(n for s in self.subjects for n in (s.owner, s.controller))} - {None}
        self.players = {name: f"{base}/player/{i}" for i, name in enumerate(sorted(names))}  # type: ignore[arg-type]
        quads = []

        def add(subject: str, predicate: str, value: Any) -> None:
            quads.append(ox.Quad(ox.NamedNode(subject), ox.NamedNode(predicate), value))

        add(base, RDF_TYPE, ox.NamedNode(V.Situation))
        for node in self.players.values():
            add(base, V.hasPlayer, ox.NamedNode(node))
        for subject in self.subjects:
            node = self.iris[subject.key]
            add(base, V.hasObject, ox.NamedNode(node))
            add(node, RDFS_LABEL, plain_literal(subject.name))
            if subject.zone:
                add(node, V.inZone, ox.NamedNode(zone_iri(subject.zone)))
            if subject.entered_from:
                add(node, V.enteredFrom, ox.NamedNode(zone_iri(subject.entered_from)))
            for predicate, name in ((V.owner, subject.owner), (V.controller, subject.controller)):
                if name:
                    add(node, predicate, ox.NamedNode(self.players[name]))
            add(node, V.isToken, plain_literal(subject.token))
            add(node, V.isTapped, plain_literal(subject.tapped))
            add(node, V.isCommander, plain_literal(subject.commander))
            for predicate, text in ((V.power, subject.power), (V.toughness, subject.toughness)):
                if text is not None:
                    add(node, predicate, plain_literal(text))
            if subject.attacking:
                add(node, V.attacks, ox.NamedNode(f"{base}/attacked"))
            for predicate, values in (
                (V.cardType, subject.card_types),
                (V.supertype, subject.supertypes),
                (V.subtype, subject.subtypes),
            ):
                for value in values:
                    add(node, predicate, plain_literal(value))
        self.store = ox.Store()
        self.store.extend(quads)
        self._base = base

    def holds(self, prop: str, values: list[Any], about: str) -> bool | None:
        """Whether the pattern of ``prop`` holds for the subject ``about`` with ``values``; None when
        the property has no pattern, or its pattern is about the game rather than an object."""
        pattern = patterns().get(prop)
        if pattern is None or not pattern.about_object:
            return None
        groups = [values] if pattern.any_value else [[v] for v in values]
        for group in groups:
            params: dict[str, ParamValue] = {
                "situation": self._base,
                "object": self.iris[about],
                "value": [written(v) for v in group],
            }
            if self.player is not None:
                params["player"] = self.players[self.player]
            if self.source is not None:
                params["source"] = self.iris[self.source]
            if not bool(
                self.store.query(bind_values(pattern_query(pattern.body), params), prefixes=PREFIXES)
            ):
                return False
        return True

    def meeting(self, prop: str, values: list[Any]) -> set[str] | None:
        """The keys of every subject for which the pattern of ``prop`` holds with ``values``, asked
        of all of them at once (the partner network asks it of the whole pool); None as
        :meth:`holds` says."""
        pattern = patterns().get(prop)
        if pattern is None or not pattern.about_object:
            return None
        keys = {iri: key for key, iri in self.iris.items()}
        found = set(keys)
        for group in [values] if pattern.any_value else [[v] for v in values]:
            params: dict[str, ParamValue] = {"situation": self._base, "value": [written(v) for v in group]}
            if self.player is not None:
                params["player"] = self.players[self.player]
            if self.source is not None:
                params["source"] = self.iris[self.source]
            query = bind_values(_every_object(pattern.body), params)
            found &= {row["object"].value for row in self.store.query(query, prefixes=PREFIXES)}
        return {keys[iri] for iri in found}


def _every_object(body: str) -> str:
    """The objects of the situation a pattern holds for: the pattern file's group, as
    :func:`mtgkb.reasoning.requirements.evaluate.pattern_query` asks it of one object."""
    return "SELECT DISTINCT ?object WHERE {\n?situation mtgkb:hasObject ?object .\n" + body + "\n}"


def written(value: Any) -> WrittenTerm:
    """A requirement's value, as read into Python, written back as SPARQL."""
    if isinstance(value, bool):
        return WrittenTerm(f'"{"true" if value else "false"}"^^<{_XSD}boolean>')
    if isinstance(value, str) and value.startswith(("https://", "http://")):
        return WrittenTerm(f"<{value}>")
    return WrittenTerm(sparql_string(str(value)))

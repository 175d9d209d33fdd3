"""A user's way of naming a node: a full IRI, a prefixed name (``mechanic:ninjutsu``) or a name the
knowledge base knows (``Ninjutsu``), turned into the IRI that queries bind, and the node a name means
(:func:`find_named`, which the lookups, verdicts and ``--param`` values share)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgkb.core.errors import MtgkbError, NotFoundError
from mtgkb.kb.vocab import PREFIXES, V

if TYPE_CHECKING:
    from mtgkb.kb.names import NameMatch
    from mtgkb.kb.store import KnowledgeBase

NAME_KINDS = ("card", "mechanic", "step", "zone")  # as in mtgkb.kb.names.KINDS, kept here for a cheap import


def expand_prefixed(value: str) -> str | None:
    """``mechanic:ninjutsu`` -> its full IRI; None when ``value`` is not a known prefixed name."""
    prefix, separator, local = value.partition(":")
    if separator and prefix in PREFIXES and local and " " not in local and not local.startswith("//"):
        return PREFIXES[prefix] + local
    return None


def resolve_iri(kb: KnowledgeBase, value: str, kind: str | None = None) -> str:
    """A full IRI for ``value``: an IRI, a prefixed name, or a name the knowledge base knows."""
    value = value.strip()
    if value.startswith(("http://", "https://")):
        return value
    if value.startswith("<") and value.endswith(">"):
        return value[1:-1]
    expanded = expand_prefixed(value)
    if expanded is not None:
        return expanded
    return _resolve_name(kb, value, kind)


def _resolve_name(kb: KnowledgeBase, value: str, kind: str | None) -> str:
    from mtgkb.kb.iris import mint

    kinds = (kind,) if kind else NAME_KINDS
    try:
        return find_named(kb, value, kinds).iri
    except NotFoundError:
        # A slug ("partner-family") names a node even when its label reads differently.
        known = {row[1] for row in kb.names if row[2] in kinds}
        for candidate_kind in kinds:
            try:
                iri = mint(candidate_kind, value)
            except ValueError:
                continue
            if iri in known:
                return iri
        raise


_CLASS_OF_KIND = {
    "card": V.Card,
    "mechanic": V.Mechanic,
    "step": V.Step,
    "zone": V.Zone,
    "concept": V.RulesConcept,
    "melded": V.MeldedFace,
}


def find_named(kb: KnowledgeBase, query: str, kinds: tuple[str, ...]) -> NameMatch:
    """The node ``query`` names, among ``kinds`` in order of preference.

    A full name is its own IRI slug ("yuriko the tigers shadow" -> card/yuriko-the-tigers-shadow),
    so one small query usually settles it without reading the name index (30,000 names at full
    scale); short names, prefixes and typos go to :func:`mtgkb.kb.names.resolve`.
    """
    from mtgkb.kb.iris import mint
    from mtgkb.kb.names import NameMatch, resolve

    candidates = []
    for kind in kinds:
        try:
            candidates.append((kind, mint(kind, query)))
        except ValueError:
            continue
    if candidates:
        from mtgkb.kb.query_files import library_query

        rows = kb.select(library_query("node-classes"), iri=[iri for _, iri in candidates])
        for kind, iri in candidates:
            for row in rows:
                if row["iri"] == iri and row["class"] == _CLASS_OF_KIND[kind]:
                    return NameMatch(row["name"] or query, iri, kind)
    try:
        return resolve(kb.names, query, kinds)
    except NotFoundError as error:
        if "card" in kinds and "melded" not in kinds:
            _explain_melded(kb, query, error)
        raise


def _explain_melded(kb: KnowledgeBase, query: str, error: NotFoundError) -> None:
    """A card name that is the combined back face of a meld pair: say so instead of only guessing."""
    from mtgkb.kb.names import resolve

    try:
        melded = resolve(kb.names, query, ("melded",))
    except MtgkbError:
        return
    error.hint = (
        f"'{melded.name}' is the combined back face of a meld pair, not a card: no deck holds it "
        "(CR 712.4b); 'mtgkb card NAME' shows the two cards that meld into it"
    )

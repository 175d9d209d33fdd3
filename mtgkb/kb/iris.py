"""The one place that mints IRIs.

Every instance IRI in the knowledge base comes from :func:`mint`. An IRI, once published, is never
renamed: a replaced node is deprecated with ``owl:deprecated`` and ``dcterms:isReplacedBy``.
"""

from __future__ import annotations

import functools
import re
import unicodedata

BASE = "https://w3id.org/mtgkb/"
VOCAB = BASE + "vocab#"
ONTOLOGY = BASE + "ontology"

#: The kinds of instance we mint, each a path segment under BASE.
KINDS = frozenset(
    {
        "card",  # card/<slug of the card name>
        "face",  # face/<card slug>/<face index>, face/<card slug>/prototype (718.2)
        "melded",  # melded/<slug of the name>: the combined back face of a meld pair (712.4)
        "layout",  # layout/<layout name>: a layout and the rule giving its cards' characteristics
        "ability",  # ability/<card slug>/<mechanic or ability slug>[/<n>]
        "mechanic",  # mechanic/ninjutsu
        "requirement",  # requirement/unblocked-attacker-you-control
        "outcome",  # outcome/ninja-enters-unblocked: something that follows from using a mechanic
        "phrase",  # phrase/tap-symbol: how the Oracle-text reader reads a part of an activated ability
        "situation",  # situation/<8 hex of the situation's hash>[/player|object/<name or n>]
        "verdict",  # verdict/<8 hex of the situation's hash>/<question slug>[/check/<n>]
        "concept",  # concept/commander-tax: a rules claim that is not a mechanic
        "phase",  # phase/combat
        "step",  # step/declare-blockers
        "zone",  # zone/command
        "cr",  # cr/702.49d: a rule, by its number only
        "edition",  # edition/2026-04-17: one Comprehensive Rules edition
        "version",  # version/702.49/2021-04-22: one text of a rule number, from the edition it began
        "glossary",  # glossary/<slug of the term>
        "ruling",  # ruling/<card slug>/<date>/<first 8 hex of sha256 of the text>
        "legality",  # legality/<first 8 hex of sha256 of the format statuses>: shared by cards
        "graph",  # graph/<source>: a named graph
        "pair",  # pair/<card slug>/<card slug>: two cards that may be commanders together (derived)
    }
)

# Sections of the CR are one digit ("7"); rules three digits ("702"), then subrules ("702.49d").
_RULE_NUMBER = re.compile(r"^(\d|\d{3}(\.\d+[a-z]?)?)\.?$")


_DASHES = re.compile(r"[\u2010-\u2015/]")
_NOT_SLUG = re.compile(r"[^a-z0-9]+")
_KEPT_AS_GIVEN = re.compile(r"[0-9a-f]{8}|\d{4}-\d{2}-\d{2}|\d+")


@functools.lru_cache(maxsize=1 << 16)  # an import names each card once per ruling about it
def slugify(text: str) -> str:
    """Lower-case ASCII words joined by hyphens: "Pir, Imaginative Rascal" -> "pir-imaginative-rascal"."""
    text = _DASHES.sub(" ", text)
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    ascii_text = ascii_text.replace("&", " and ").replace("'", "").replace("\u2019", "")
    return _NOT_SLUG.sub("-", ascii_text.lower()).strip("-")


def mint(kind: str, *parts: str) -> str:
    """The IRI of an instance of ``kind`` identified by ``parts``.

    Rule numbers keep their dots (``mint("cr", "702.49d")``); dates and hashes are used as given;
    every other part is slugified, so ``mint("card", "Yuriko, the Tiger's Shadow")`` is
    ``.../card/yuriko-the-tigers-shadow``.
    """
    prefix = namespace(kind)
    if not parts:
        raise ValueError("mint() needs at least one part")
    if kind in ("cr", "version"):
        number = parts[0].rstrip(".")
        if not _RULE_NUMBER.match(number):
            raise ValueError(f"not a rule number: {parts[0]!r}")
        segments = [number, *(_segment(part) for part in parts[1:])]
    else:
        segments = [_segment(part) for part in parts]
    return prefix + "/".join(segments)


def namespace(kind: str) -> str:
    """The start of every IRI of ``kind``: ``namespace("card")`` is ``.../card/``."""
    if kind not in KINDS:
        raise ValueError(f"unknown IRI kind {kind!r}; expected one of {sorted(KINDS)}")
    return BASE + kind + "/"


def _segment(part: str) -> str:
    if _KEPT_AS_GIVEN.fullmatch(part):
        return part
    slug = slugify(part)
    if not slug:
        raise ValueError(f"cannot mint an IRI segment from {part!r}")
    return slug


def card_iri(name: str) -> str:
    """Cards are keyed by their full name (both faces for split and double-faced cards)."""
    return mint("card", name)


def rule_iri(number: str) -> str:
    return mint("cr", number)


def ruling_iri(card_name: str, date: str, text: str) -> str:
    """Rulings are keyed by card, date and a hash of the official text, so a curated ruling node and
    the one the importer reads from a card dump are the same node."""
    import hashlib

    digest = hashlib.sha256(normalise_ruling_text(text).encode("utf-8")).hexdigest()[:8]
    return mint("ruling", card_name, date, digest)


def normalise_ruling_text(text: str) -> str:
    """Whitespace and quote style vary between dumps of the same ruling."""
    text = text.replace("\u2019", "'").replace("\u2018", "'").replace("\u201c", '"').replace("\u201d", '"')
    return " ".join(text.split())

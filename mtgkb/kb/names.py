"""Turn what a user typed into one node of the name index (cards, mechanics, steps, zones).

Matching ignores case, accents and punctuation. First an exact match: of the whole name, of one face
of a multi-faced card, or of a step or zone without its "step"/"zone" ("end" is the end step). Then a
unique prefix ("Thrasios" for "Thrasios, Triton Hero", "Brallin Skyshark"). Several prefix matches
are an :class:`AmbiguousNameError` listing them ("Satoru" is Satoru Umezawa or Satoru, the
Infiltrator: the part before a comma is not preferred over a longer name); no match is a
:class:`NotFoundError` carrying the closest names.

Stdlib only, and lazy: this runs on every cold lookup, and normalising all 30,000 card names costs
more than the rest of the command. Every key of a name starts where one of its faces starts, so only
the names that may start with the query's first three letters are normalised.
"""

from __future__ import annotations

import bisect
import difflib
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from mtgkb.core.errors import AmbiguousNameError, NotFoundError

KINDS = ("card", "mechanic", "step", "zone")

_APOSTROPHES = str.maketrans("", "", "'\u2018\u2019`\u02bc")
# Letters NFKD leaves alone but people type as plain ASCII ("Aether").
_LIGATURES = str.maketrans({"æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o", "ß": "ss"})
_NOT_WORD = re.compile(r"[\W_]+")
_KIND_SUFFIXES = {"step": " step", "zone": " zone"}
_CUTOFF = 0.6
_GOOD = 0.8  # below this, the first letter may be the typo: look further


def normalise(text: str) -> str:
    """Lower-case words without accents or punctuation: "Yuriko, the Tiger's Shadow" ->
    "yuriko the tigers shadow"; apostrophes vanish so "Tigers" and "Tiger's" agree."""
    if not text.isascii():
        text = unicodedata.normalize("NFKD", text.translate(_LIGATURES))
        text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.lower().translate(_APOSTROPHES)
    return _NOT_WORD.sub(" ", text).strip()


@dataclass(frozen=True)
class NameMatch:
    """One resolved node: the name as the data spells it, its IRI and its kind."""

    name: str
    iri: str
    kind: str


class NameIndex:
    """Normalised keys of some names, sorted so that a prefix is a bisect plus a short scan."""

    def __init__(self, names: Iterable[Sequence[str]]) -> None:
        self.exact: dict[str, list[NameMatch]] = {}
        keyed: list[tuple[str, NameMatch]] = []
        # "Did you mean" also compares with the part before a comma: "Thrasois" is far from
        # "thrasios triton hero" but one letter pair from "thrasios".
        self.similar: list[tuple[str, NameMatch]] = []
        for display, iri, kind in names:
            match = NameMatch(display, iri, kind)
            for key in _keys(display, kind):
                self.exact.setdefault(key, []).append(match)
                keyed.append((key, match))
            self.similar += [(key, match) for key in _comma_heads(display)]
        self.similar += keyed
        keyed.sort(key=lambda pair: pair[0])
        self.keys = [key for key, _ in keyed]
        self.matches = [match for _, match in keyed]

    def prefixed(self, prefix: str) -> list[NameMatch]:
        start = bisect.bisect_left(self.keys, prefix)
        found = []
        for position in range(start, len(self.keys)):
            if not self.keys[position].startswith(prefix):
                break
            found.append(self.matches[position])
        return found


def _keys(display: str, kind: str) -> set[str]:
    """The whole name, each face of a multi-faced name, and a step or zone without its kind word."""
    full = normalise(display)
    keys = {full}
    if "//" in display:
        keys.update(normalise(face) for face in display.split("//"))
    suffix = _KIND_SUFFIXES.get(kind)
    if suffix and full.endswith(suffix):
        keys.add(full[: -len(suffix)])
    keys.discard("")
    return keys


def _comma_heads(display: str) -> set[str]:
    return {normalise(face.split(",", 1)[0]) for face in display.split("//") if "," in face}


def _may_start_with(names: Sequence[Sequence[str]], start: str) -> list[Sequence[str]]:
    """The names with a key that may begin with ``start`` (at most 3 characters of a normalised name).

    A name whose first characters are plain letters, digits and spaces must begin with ``start``;
    one with an accent or punctuation there is always kept, and so is a multi-faced name one of whose
    other faces may begin with ``start`` by the same test ("The Kami War // O-Kagachi Made Manifest"
    for "o k").
    """
    size = len(start)
    return [
        entry
        for entry in names
        if _may_start(entry[0], start, size)
        or (
            "//" in entry[0]
            and any(_may_start(face.strip(), start, size) for face in entry[0].split("//")[1:])
        )
    ]


def _may_start(name: str, start: str, size: int) -> bool:
    head = name[:size].lower()
    return head == start or not (head.isascii() and head.replace(" ", "").isalnum())


class _Cache:
    """Indexes of one name list by start: a CLI run resolves one name, a server many."""

    names: object = None
    by_start: dict[str, NameIndex] = {}  # noqa: RUF012 - replaced whole when the list changes

    @classmethod
    def index(cls, names: Sequence[Sequence[str]], start: str) -> NameIndex:
        if cls.names is not names:
            cls.names, cls.by_start = names, {}
        if start not in cls.by_start:
            cls.by_start[start] = NameIndex(_may_start_with(names, start))
        return cls.by_start[start]


def resolve(names: Sequence[Sequence[str]], query: str, kinds: Sequence[str] = KINDS) -> NameMatch:
    """The one entry of ``names`` (``KnowledgeBase.names``: [name, IRI, kind]) that ``query`` means.

    ``kinds`` is in order of preference: when the exact name belongs to nodes of different kinds (the
    card Exile and the exile zone) the earlier kind wins.
    """
    what = _describe(kinds)
    wanted = normalise(query)
    if not wanted:
        raise NotFoundError(what, query, [])
    index = _Cache.index(names, wanted[:3])
    exact = _of_kinds(index.exact.get(wanted, []), kinds)
    if exact:
        return _one(exact, kinds, query)
    prefixed = _distinct(_of_kinds(index.prefixed(wanted), kinds))
    if len(prefixed) == 1:
        return prefixed[0]
    if prefixed:
        raise AmbiguousNameError(_plural_safe(kinds), query, _labels(prefixed, kinds))
    raise NotFoundError(what, query, suggest(names, query, kinds))


def _one(matches: list[NameMatch], kinds: Sequence[str], query: str) -> NameMatch:
    distinct = _distinct(matches)
    best = min(kinds.index(m.kind) for m in distinct)
    preferred = [m for m in distinct if kinds.index(m.kind) == best]
    if len(preferred) == 1:
        return preferred[0]
    # "Lava Axe" and the joke card "Lava, Axe" normalise alike: the name typed as spelt wins.
    spelt = [m for m in preferred if m.name.casefold() == query.strip().casefold()]
    if len(spelt) == 1:
        return spelt[0]
    raise AmbiguousNameError(_plural_safe(kinds), query, _labels(preferred, kinds))


def _of_kinds(matches: list[NameMatch], kinds: Sequence[str]) -> list[NameMatch]:
    return [m for m in matches if m.kind in kinds]


def _distinct(matches: list[NameMatch]) -> list[NameMatch]:
    seen: dict[str, NameMatch] = {}
    for match in matches:
        seen.setdefault(match.iri, match)
    return sorted(seen.values(), key=lambda m: (normalise(m.name), m.kind))


def _labels(matches: list[NameMatch], kinds: Sequence[str]) -> list[str]:
    if len(kinds) == 1:
        return [m.name for m in matches]
    return [f"{m.name} ({m.kind})" for m in matches]


def _describe(kinds: Sequence[str]) -> str:
    if len(kinds) == 1:
        return kinds[0]
    return " or ".join([", ".join(kinds[:-1]), kinds[-1]])


def _plural_safe(kinds: Sequence[str]) -> str:
    # AmbiguousNameError says "matches several <what>s".
    return kinds[0] if len(kinds) == 1 else "name"


def suggest(
    names: Sequence[Sequence[str]], query: str, kinds: Sequence[str] = KINDS, count: int = 3
) -> list[str]:
    """Up to ``count`` names closest to ``query`` (difflib ratio of the normalised names).

    difflib over 30,000 names takes about a third of a second, so candidates first share the query's
    first letter (typos rarely hit it). Only when none of those is close are the names containing
    a three-letter piece of the query's second to fifth letters scored ("qrasios" finds "Thrasios").
    """
    wanted = normalise(query)
    if not wanted:
        return []
    scored: dict[str, tuple[float, NameMatch]] = {}
    index = _Cache.index(names, wanted[0])
    _score(index, wanted, kinds, scored)
    if max((score for score, _ in scored.values()), default=0.0) < _GOOD:
        first, second = wanted[1:4], wanted[2:5]
        if len(first) == 3:
            others = [e for e in names if first in (low := e[0].lower()) or second in low]
            _score(NameIndex(others), wanted, kinds, scored)
    ranked = sorted(scored.values(), key=lambda pair: (-pair[0], pair[1].name))
    return [match.name for _, match in ranked[:count]]


def _score(
    index: NameIndex, wanted: str, kinds: Sequence[str], scored: dict[str, tuple[float, NameMatch]]
) -> None:
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(wanted)
    for key, match in index.similar:
        if match.kind not in kinds:
            continue
        matcher.set_seq1(key)
        if matcher.real_quick_ratio() < _CUTOFF or matcher.quick_ratio() < _CUTOFF:
            continue
        score = matcher.ratio()
        if score >= _CUTOFF and score > scored.get(match.iri, (0.0, match))[0]:
            scored[match.iri] = (score, match)

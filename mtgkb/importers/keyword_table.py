"""The keywords the Oracle-text reader looks for, read from the mechanic nodes of the curated data
(``mtgkb:keyword`` with ``mtgkb:keywordForm``), so a new mechanic needs a Turtle file, not code.

A plain keyword stands alone or in a comma-separated keyword line ("Flash", "Split second"); a cost
keyword is followed by its cost ("Ninjutsu {1}{U}"); a condition keyword by a dash and a condition
("Companion—[Condition]."); a cost in words is a phrase ending a sentence that names the cost ("You
may discard a Plains card rather than pay this spell's mana cost."). Whether a cost keyword is an
activated ability (and so may be named by "... abilities you activate cost {1} less") comes from
its mechanic's ``mtgkb:actionKind``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from mtgkb.kb.iris import namespace
from mtgkb.kb.vocab import V


@dataclass(frozen=True, eq=False)  # one table per data folder: compared and hashed by identity
class KeywordTable:
    plain: dict[str, str]  # keyword, lower case -> mechanic slug
    cost: dict[str, str]  # keyword, lower case -> mechanic slug
    condition: dict[str, str]  # keyword, lower case -> mechanic slug
    in_words: dict[str, str]  # phrase, lower case -> mechanic slug ("rather than pay ...")
    permission: dict[str, str]  # phrase, lower case -> mechanic slug ("from the top of your library")
    activated: frozenset[str]  # lower-case cost keywords whose mechanic is an activated ability
    labels: dict[str, str]  # mechanic slug -> keyword as printed ("Commander ninjutsu")

    @functools.cached_property  # asked for each line of each card of an import
    def words(self) -> tuple[str, ...]:
        """Lower-case keywords, for the cheap "does this text mention any of them" test."""
        return tuple(sorted({*self.plain, *self.cost, *self.condition, *self.in_words, *self.permission}))


def keyword_table(root: Path | None = None) -> KeywordTable:
    """The table for the curated data under ``root`` (default: the repository, or MTGKB_ROOT)."""
    from mtgkb.core.paths import repo_root

    return _table_at(root or repo_root())


@functools.cache
def _table_at(root: Path) -> KeywordTable:
    # Asked once per card of an import: resolving the folder each time cost most of a second.
    return _table(root.resolve())


@functools.cache
def _table(root: Path) -> KeywordTable:
    import pyoxigraph as ox

    from mtgkb.kb.sources import curated_sources

    keywords: dict[str, list[str]] = {}
    form, kind = {}, {}
    prefix = namespace("mechanic")
    for source in curated_sources(root):
        if source.path.relative_to(root).parts[0] != "data":
            continue
        for triple in ox.parse(path=str(source.path), format=ox.RdfFormat.TURTLE):
            subject, predicate = triple.subject.value, triple.predicate.value
            if not subject.startswith(prefix):
                continue
            slug = subject.removeprefix(prefix)
            if predicate == V.keyword:
                keywords.setdefault(slug, []).append(triple.object.value)
            elif predicate == V.keywordForm:
                form[slug] = triple.object.value
            elif predicate == V.actionKind:
                kind[slug] = triple.object.value
    plain, cost, condition, in_words, permission, activated, labels = {}, {}, {}, {}, {}, set(), {}
    for slug, printed in keywords.items():
        # A mechanic with an older wording too ("Friends forever") is labelled by its full keyword.
        labels[slug] = max(printed, key=len)
        for word in printed:
            if form.get(slug) == V.PlainKeyword:
                plain[word.lower()] = slug
            elif form.get(slug) == V.CostKeyword:
                cost[word.lower()] = slug
                if kind.get(slug) == V.Activate:
                    activated.add(word.lower())
            elif form.get(slug) == V.ConditionKeyword:
                condition[word.lower()] = slug
            elif form.get(slug) == V.CostInWordsKeyword:
                in_words[word.lower()] = slug
            elif form.get(slug) == V.PermissionKeyword:
                permission[word.lower()] = slug
    return KeywordTable(plain, cost, condition, in_words, permission, frozenset(activated), labels)

"""What a search returns, whether the full-text index or the store answered it."""

from __future__ import annotations

from dataclasses import dataclass

KINDS = ("card", "rule", "ruling")


@dataclass
class SearchHit:
    kind: str
    iri: str
    label: str
    field: str  # the field the snippet comes from: "name", "oracle text", "title", "summary", "text"
    snippet: str
    date: str | None = None  # rulings


@dataclass
class SearchGroup:
    kind: str
    total: int  # every match; ``hits`` holds at most ``limit`` of them
    hits: list[SearchHit]


@dataclass
class SearchResult:
    query: str
    words: list[str]
    limit: int
    groups: list[SearchGroup]

    @property
    def total(self) -> int:
        return sum(group.total for group in self.groups)

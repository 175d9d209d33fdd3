"""The files a store is built from (ontology/, data/ and imported datasets) and their fingerprint."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from mtgkb import __version__
from mtgkb.core.paths import imports_dir, repo_root
from mtgkb.kb.iris import mint

# 2: the default graph holds the deduplicated union; 3: derived mentions; 4: meta.json records the size
# of every other file of the store, so a damaged one is noticed.
STORE_FORMAT = "4"


@dataclass(frozen=True)
class Source:
    """One file loaded into its own named graph (imports carry their graph names inside)."""

    path: Path
    graph: str | None
    format: str  # "turtle" or "nquads"


def curated_sources(root: Path | None = None) -> list[Source]:
    """The Turtle files we author, each with its graph IRI (``graph/data/turn`` for data/turn.ttl)."""
    root = root or repo_root()
    sources = []
    for top in ("ontology", "data"):
        for path in sorted((root / top).rglob("*.ttl")):
            parts = path.relative_to(root).with_suffix("").parts
            sources.append(Source(path, mint("graph", *parts), "turtle"))
    return sources


def imported_sources() -> list[Source]:
    folder = imports_dir()
    if not folder.is_dir():
        return []
    return [Source(path, None, "nquads") for path in sorted(folder.glob("*.nq"))]


def all_sources() -> list[Source]:
    return curated_sources() + imported_sources()


def fingerprint(sources: list[Source]) -> str:
    digest = hashlib.sha256(f"{STORE_FORMAT}|{__version__}".encode())
    for source in sources:
        stat = source.path.stat()
        digest.update(f"|{source.path}|{stat.st_size}|{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:20]

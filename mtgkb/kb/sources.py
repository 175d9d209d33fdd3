"""The files a store is built from (ontology/, data/ and imported datasets), their named graphs and the
store's fingerprint.

A source is named by its place under its folder (``data/turn.ttl``, ``imports/mtgjson.nq.gz``) and
known by a digest of its content, so the fingerprint of a set of sources says nothing of where the
folders are: a cache and data directory moved or copied elsewhere still find their store. Hashing an
imported card pool on every command would cost more than the command, so each file's digest is kept
in ``digests.json`` in the cache directory beside its size, modification and change times and inode;
a file whose stat differs (edited, touched or copied) is hashed again."""

from __future__ import annotations

import contextlib
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from mtgkb import __version__
from mtgkb.core.paths import cache_dir, imports_dir, repo_root
from mtgkb.kb.iris import mint

# 2: the default graph holds the deduplicated union; 3: derived mentions; 4: meta.json records the size
# of every other file of the store, so a damaged one is noticed; 5: sources known by their content and
# relative names, stores updated graph by graph, the search index built with the store.
STORE_FORMAT = "5"

#: Imported files: N-Quads, gzip-compressed as importers now write them, or plain as earlier ones did.
IMPORT_SUFFIXES = (".nq.gz", ".nq")
_DIGESTS = "digests.json"


@dataclass(frozen=True)
class Source:
    """One file loaded into its own named graph (imports carry their graph names inside)."""

    path: Path
    graph: str | None
    format: str  # "turtle" or "nquads" (plain or gzip-compressed)
    key: str = ""  # its name under its folder, e.g. "data/turn.ttl" or "imports/mtgjson.nq.gz"

    @property
    def compressed(self) -> bool:
        return self.path.name.endswith(".gz")

    def open(self) -> IO[bytes]:
        """The file's bytes, decompressed when it is gzip-compressed."""
        if self.compressed:
            import gzip

            return gzip.open(self.path, "rb")
        return open(self.path, "rb")

    def graph_iri(self) -> str:
        """Its named graph: the curated file's own, or the one an import names on its first line (each
        importer writes one graph per file, see mtgkb.core.nquads.QuadWriter)."""
        if self.graph:
            return self.graph
        with self.open() as stream:
            first = stream.readline(1 << 16).decode("utf-8", "replace").rstrip()  # a line, not a file
        if not first.endswith(">  .") and not first.endswith("> ."):
            raise ValueError(f"{self.path} does not start with a quad in a named graph")
        return first[: first.rindex(">")].rsplit("<", 1)[1]


def curated_sources(root: Path | None = None) -> list[Source]:
    """The Turtle files we author, each with its graph IRI (``graph/data/turn`` for data/turn.ttl)."""
    root = root or repo_root()
    sources = []
    for top in ("ontology", "data"):
        for path in sorted((root / top).rglob("*.ttl")):
            relative = path.relative_to(root)
            parts = relative.with_suffix("").parts
            sources.append(Source(path, mint("graph", *parts), "turtle", relative.as_posix()))
    return sources


def imported_sources() -> list[Source]:
    """The imported files, one per graph: where an older plain ``X.nq`` and a newer ``X.nq.gz`` are
    both present (an import interrupted while it replaced one by the other), the newer one counts."""
    folder = imports_dir()
    if not folder.is_dir():
        return []
    found: dict[str, Path] = {}
    for suffix in reversed(IMPORT_SUFFIXES):  # .nq first, so a .nq.gz of the same name wins
        for path in folder.glob(f"*{suffix}"):
            if path.name.startswith(".") or not path.is_file():
                continue
            stem = path.name.removesuffix(suffix)
            if suffix == ".nq" and stem in found:
                continue
            found[stem] = path
    return [Source(path, None, "nquads", f"imports/{path.name}") for _, path in sorted(found.items())]


def all_sources() -> list[Source]:
    return curated_sources() + imported_sources()


def _stat_key(stat: os.stat_result) -> list[int]:
    return [stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns, stat.st_ino]


def _content_digest(path: Path) -> str:
    import hashlib

    with open(path, "rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()[:32]


def _read_cache(cache_file: Path) -> dict[str, Any]:
    try:
        cache = json.loads(cache_file.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return cache if isinstance(cache, dict) and isinstance(cache.get("files"), dict) else {}


def digests(sources: list[Source]) -> dict[str, str]:
    """Each source's key -> a digest of its content (see the module docstring for the stat cache)."""
    return _digests(sources, cache_dir() / _DIGESTS)[0]


def _digests(sources: list[Source], cache_file: Path) -> tuple[dict[str, str], dict[str, Any]]:
    cache = _read_cache(cache_file)
    known: dict[str, Any] = cache.get("files", {})
    result: dict[str, str] = {}
    changed = False
    folders: dict[Path, Path] = {}  # resolved once each: resolving every file costs a stat per part
    for source in sources:
        parent = source.path.parent
        folder = folders.get(parent) or folders.setdefault(parent, parent.resolve())
        place = str(folder / source.path.name)
        stat = _stat_key(source.path.stat())
        entry = known.get(place)
        if isinstance(entry, list) and len(entry) == 2 and entry[0] == stat:
            result[source.key] = entry[1]
            continue
        digest = _content_digest(source.path)
        if _stat_key(source.path.stat()) == stat:  # not changed while it was read
            known[place] = [stat, digest]
            changed = True
        result[source.key] = digest
    if changed:
        current = {str(folders[s.path.parent] / s.path.name) for s in sources}
        cache = {"files": {p: e for p, e in known.items() if p in current or Path(p).exists()}}
        _save(cache_file, cache)
    return result, cache


def _save(cache_file: Path, cache: dict[str, Any]) -> None:
    """Write the stat cache. Failing to write it only costs hashing again next time, so an unwritable
    cache directory is no error here."""
    temporary = cache_file.with_name(f".{_DIGESTS}.{os.getpid()}.tmp")
    with contextlib.suppress(OSError):
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        temporary.write_text(json.dumps(cache), encoding="utf-8")
        os.replace(temporary, cache_file)
    with contextlib.suppress(OSError):
        temporary.unlink(missing_ok=True)


def fingerprint(sources: list[Source], known: dict[str, str] | None = None) -> str:
    """The store's name: its format and every source's relative name and content digest. The last
    one computed is kept in the stat cache with what it was computed from, so a command whose
    sources are unchanged opens its store without hashing anything."""
    cache_file = cache_dir() / _DIGESTS
    cache: dict[str, Any] = {}
    if known is None:
        known, cache = _digests(sources, cache_file)
    recipe = [STORE_FORMAT, __version__, *(f"{key}|{known[key]}" for key in sorted(known))]
    if cache.get("recipe") == recipe and isinstance(cache.get("fingerprint"), str):
        return cache["fingerprint"]
    import hashlib

    name = hashlib.sha256("|".join(recipe).encode()).hexdigest()[:20]
    if cache:
        _save(cache_file, {**cache, "recipe": recipe, "fingerprint": name})
    return name

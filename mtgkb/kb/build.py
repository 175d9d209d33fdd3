"""The embedded Oxigraph store: a cache built from ontology/, data/ and imported datasets.

Each build goes to a temporary folder and is renamed into ``stores/<fingerprint>`` when complete, so
a reader only ever opens a finished store. The fingerprint covers every source file's path, size and
modification time, so editing ontology/ or data/, or importing a dataset, leads to a rebuild on the
next use. Builds take an exclusive file lock: two commands started at once build once.

Each source is loaded twice: into its own named graph (``GRAPH ?g`` says who states a fact) and into
the default graph, which is therefore the deduplicated union of every source. A fact that the curated
data, MTGJSON and Scryfall all state is one triple there, so queries see it once; Oxigraph's
"default graph as union" view would return it once per graph that states it."""

from __future__ import annotations

import contextlib
import fcntl
import gc
import io
import json
import os
import shutil
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mtgkb import __version__
from mtgkb.core.errors import StoreError
from mtgkb.core.paths import cache_dir
from mtgkb.core.progress import Progress, Ticker
from mtgkb.kb.mentions import derive_mentions
from mtgkb.kb.name_index import name_index
from mtgkb.kb.sources import Source, all_sources, fingerprint
from mtgkb.kb.store import CHECKED_FILES, KnowledgeBase, check_store, open_store, stores_dir

_KEEP_OLD_STORES = 1


@dataclass
class BuildSummary:
    path: Path
    seconds: float
    graphs: dict[str, int]
    rebuilt: bool = True

    @property
    def triples(self) -> int:
        return sum(self.graphs.values())


@contextlib.contextmanager
def _build_lock() -> Iterator[None]:
    folder = cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle = open(folder / "build.lock", "a")  # noqa: SIM115 - held for the whole block
    except OSError as error:
        raise StoreError(
            f"cannot write to the cache directory {folder}: {error.strerror}",
            "make it writable, or set MTGKB_CACHE_DIR to a writable folder",
        ) from error
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _load_source(store: Any, source: Source, progress: Progress | None = None) -> None:
    import pyoxigraph as ox

    try:
        if source.format == "turtle":
            # Small hand-written files: a transactional load is far cheaper than a bulk load's new files.
            for graph in (ox.NamedNode(source.graph), ox.DefaultGraph()):
                store.load(path=str(source.path), format=ox.RdfFormat.TURTLE, to_graph=graph)
        else:
            # Our importers wrote these files and checked every value, so the parser may skip its checks.
            # The second pass drops the graph name of every line: the same triples, in the default graph.
            # (One bulk load of both copies is a third faster but more than doubles the peak memory.)
            size = source.path.stat().st_size
            for into_default, what in ((False, "loading"), (True, "merging")):
                with open(source.path, "rb") as raw:
                    ticker = Ticker(progress, f"{what} {source.path.name}", size)
                    reader = _CountingReader(raw, ticker, into_default)
                    store.bulk_load(
                        input=io.BufferedReader(reader, 1 << 20), format=ox.RdfFormat.N_QUADS, lenient=True
                    )
    except SyntaxError as error:
        raise StoreError(
            f"cannot parse {source.path}: {error}", "fix the file, then run 'mtgkb validate'"
        ) from error


class _CountingReader(io.RawIOBase):
    """Reports how many bytes of an imported file the store has read: the bulk load's progress.

    With ``into_default`` the lines come without their graph name, so the triples go to the default
    graph. Every importer writes one graph per file (mtgkb.core.nquads.QuadWriter), named on the first
    line, so a plain byte replacement drops it; chunks are cut after their last line break."""

    def __init__(self, raw: io.BufferedReader, ticker: Ticker, into_default: bool = False) -> None:
        self._raw = raw
        self._ticker = ticker
        self._done = 0
        self._into_default = into_default
        self._graph_end: bytes | None = None
        self._ready = b""
        self._partial = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if not self._into_default:
            count = self._raw.readinto(buffer)
            self._done += count
            self._ticker.update(self._done)
            return count
        while not self._ready:
            chunk = self._raw.read(1 << 20)
            if not chunk:
                if not self._partial:
                    return 0
                chunk = b"\n"  # a last line without its line break
            self._done += len(chunk)
            self._ticker.update(self._done)
            data = self._partial + chunk
            cut = data.rfind(b"\n") + 1
            self._partial = data[cut:]
            lines = data[:cut]
            if self._graph_end is None and lines:
                first = lines[: lines.index(b"\n") + 1]
                self._graph_end = first[first.rindex(b" <") :]
            self._ready = lines.replace(self._graph_end, b" .\n") if self._graph_end else lines
        count = min(len(buffer), len(self._ready))
        buffer[:count] = self._ready[:count]
        self._ready = self._ready[count:]
        return count


@dataclass(frozen=True)
class Derivation:
    """Facts a higher layer derives from the loaded sources (the reasoning layer's partner pairs),
    handed to :func:`build` so the store never imports the layers above it."""

    what: str  # "the partner network": shown while it runs
    quads: Callable[[KnowledgeBase], str]  # N-Quads text, each quad in its own named graph


def _derive(store: Any, folder: Path, derivations: Sequence[Derivation], progress: Progress | None) -> None:
    import pyoxigraph as ox

    for derivation in derivations:
        if progress:
            progress(f"deriving {derivation.what}")
        quads = derivation.quads(KnowledgeBase(folder, store, {}))
        # Into their own named graph and, like every source, into the default graph queries read.
        parsed = list(ox.parse(quads.encode("utf-8"), format=ox.RdfFormat.N_QUADS))
        store.extend(parsed + [ox.Quad(q.subject, q.predicate, q.object, ox.DefaultGraph()) for q in parsed])


def _graph_counts(store: Any) -> dict[str, int]:
    query = "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g"
    return {row["g"].value: int(row["n"].value) for row in store.query(query)}


def build(
    sources: list[Source] | None = None,
    progress: Progress | None = None,
    force: bool = False,
    *,
    derivations: Sequence[Derivation],
) -> BuildSummary:
    """Build a fresh store from ``sources`` (default: everything) and swap it in atomically.

    Unless ``force``, a sound store of the same sources that another process finished while this
    one waited for the lock is used as it is: eight commands started at once build once."""
    import pyoxigraph as ox

    sources = all_sources() if sources is None else sources
    key = fingerprint(sources)
    started = time.perf_counter()
    with _build_lock():
        stores = stores_dir()
        if not force:
            with contextlib.suppress(OSError, ValueError):
                graphs = check_store(stores / key)["graphs"]
                return BuildSummary(stores / key, time.perf_counter() - started, graphs, rebuilt=False)
        temporary = cache_dir() / "tmp" / f"{key}-{os.getpid()}"
        shutil.rmtree(temporary, ignore_errors=True)
        temporary.mkdir(parents=True)
        try:
            store = ox.Store(str(temporary / "oxigraph"))
            if progress:
                progress(f"building the knowledge base from {len(sources)} files")
            for source in sources:
                _load_source(store, source, progress)
            derive_mentions(store, progress)
            _derive(store, temporary, derivations, progress)
            graphs = _graph_counts(store)
            names = name_index(store)
            store.flush()
            del store
            gc.collect()
            (temporary / "names.json").write_text(json.dumps(names, ensure_ascii=False), encoding="utf-8")
            files = {name: (temporary / name).stat().st_size for name in CHECKED_FILES}
            meta = {
                "fingerprint": key,
                "built": time.time(),
                "graphs": graphs,
                "mtgkb": __version__,
                "files": files,
            }
            (temporary / "meta.json").write_text(json.dumps(meta))
            stores.mkdir(parents=True, exist_ok=True)
            final = stores / key
            if final.exists():
                shutil.rmtree(final)
            os.rename(temporary, final)
        except OSError as error:
            raise StoreError(
                f"cannot build the store in {cache_dir()}: {error}",
                "check free space and permissions, or set MTGKB_CACHE_DIR",
            ) from error
        finally:
            shutil.rmtree(temporary, ignore_errors=True)
        _remove_stale(key)
    return BuildSummary(final, time.perf_counter() - started, graphs)


def _remove_stale(current: str) -> None:
    """Drop old stores and abandoned temporary builds (a killed build leaves one behind)."""
    stores = stores_dir()
    old = sorted(
        (p for p in stores.iterdir() if p.name != current), key=lambda p: p.stat().st_mtime, reverse=True
    )
    for path in old[_KEEP_OLD_STORES:]:
        shutil.rmtree(path, ignore_errors=True)
    for path in (cache_dir() / "tmp").glob("*"):
        shutil.rmtree(path, ignore_errors=True)


def open_kb(progress: Progress | None = None, *, derivations: Sequence[Derivation]) -> KnowledgeBase:
    """Open the current store, building it first when a source changed or it is missing or broken."""
    sources = all_sources()
    path = stores_dir() / fingerprint(sources)
    if not (path / "meta.json").exists():
        build(sources, progress, derivations=derivations)
    try:
        return open_store(path)
    except (OSError, ValueError, RuntimeError):  # RocksDB reports corruption as RuntimeError
        if progress:
            progress(f"the store in {path} is damaged; rebuilding it")
        shutil.rmtree(path, ignore_errors=True)
        build(sources, progress, derivations=derivations)
        return open_store(path)

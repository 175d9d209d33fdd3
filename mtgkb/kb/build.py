"""The embedded Oxigraph store: a cache built from ontology/, data/ and imported datasets.

Each source is loaded into its own named graph (``GRAPH ?g`` says who states a fact) and into the
default graph, which is therefore the deduplicated union of every source. A fact that the curated
data, MTGJSON and Scryfall all state is one triple there, so queries see it once; Oxigraph's
"default graph as union" view would return it once per graph that states it.

A store lives in ``stores/<fingerprint>``, named by the content of its sources (see
:mod:`mtgkb.kb.sources`), and is never changed once there: a reader only ever opens a finished store.
When sources change, the next store is made from the newest sound one: a checkpoint of it (RocksDB
hard-links its immutable files, so this takes milliseconds) in a temporary folder, in which only the
changed sources' graphs are replaced, the derived graphs and the indexes beside the store brought up to
date, and which is then renamed into place. A change costs the size of the change. A change to most of
the pool (a new card pool import) or a store that cannot be updated is built from scratch instead, as
``mtgkb build --full`` does. Builds and updates take an exclusive file lock: two commands started at
once build once, and a killed one leaves only its temporary folder, which the next one removes."""

from __future__ import annotations

import contextlib
import fcntl
import gc
import json
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtgkb import __version__
from mtgkb.core.collector import collector_paused
from mtgkb.core.errors import StoreError
from mtgkb.core.paths import cache_dir
from mtgkb.core.progress import Progress
from mtgkb.kb import graph_union
from mtgkb.kb.mentions import MENTIONS_GRAPH, derive_mentions, update_mentions
from mtgkb.kb.name_index import name_index, names_of, update_name_index
from mtgkb.kb.source_failures import SourceUnreadable, known_failure, remember
from mtgkb.kb.sources import Source, all_sources, digests, fingerprint
from mtgkb.kb.store import CHECKED_FILES, KnowledgeBase, check_store, open_store, stores_dir

_KEEP_OLD_STORES = 1
#: How often opening names the current store again when imports keep changing it meanwhile.
_OPEN_ATTEMPTS = 5
#: A change to more than this share of the sources (by size on disk, before and after) is built from
#: scratch: taking a graph out of the union costs more per triple than loading one.
_UPDATE_AT_MOST = 0.35
#: An update that wrote more quads one by one than this has them flushed into the store's files: a
#: smaller one leaves them in RocksDB's log, which each read-only open replays in a millisecond or two
#: (a flush costs a tenth of a second, most of an edit's update).
_LOGGED_AT_MOST = 20_000
#: ... and so does one whose log holds more than this, whatever the count above says: a log of 7 MB
#: (re-linking the rulings' mentions after an edit to the mechanics) took 100 ms to replay on every
#: open, which is most of a cold verdict.
_LOG_BYTES_AT_MOST = 1 << 20


@dataclass
class BuildSummary:
    path: Path
    seconds: float
    graphs: dict[str, int]
    rebuilt: bool = True
    how: str = "full"  # "full": built from scratch; "update": only what changed; "none": it was current
    changed: list[str] = field(default_factory=list)  # the named graphs replaced, added or removed

    @property
    def triples(self) -> int:
        return sum(self.graphs.values())


@dataclass(frozen=True)
class Derivation:
    """Facts a higher layer derives from the loaded sources (the reasoning layer's partner pairs),
    handed to :func:`build` so the store never imports the layers above it."""

    what: str  # "the partner network": shown while it runs
    graph: str  # the named graph it writes
    quads: Callable[[KnowledgeBase], str]  # N-Quads text, each quad in ``graph``
    #: Whether facts in the given named graphs, about the given subjects (IRIs), can change what it
    #: derives (asked of the store before they are replaced and after); None: any change can.
    reads: Callable[[KnowledgeBase, Sequence[str], set[str]], bool] | None = None


@dataclass
class Changes:
    """What an update changed, for the files kept beside the store."""

    graphs: set[str]  # named graphs replaced, added or removed, the derived ones included
    subjects: set[str]  # IRIs of the subjects whose facts in those graphs were, or are now, stated


@dataclass(frozen=True)
class SideIndex:
    """A file a higher layer keeps beside each store (the search index), built with the store and
    brought up to date with each change, so that no command waits for it afterwards."""

    what: str
    #: Writes it into kb.path. A build from scratch runs it in another process (so it must be a
    #: module-level function) on a checkpoint of the store taken before anything is derived: it may
    #: read only the sources' facts.
    build: Callable[[KnowledgeBase, Progress | None], None]
    #: Writes it into kb.path from the one beside the previous store (its folder) and the changes.
    update: Callable[[KnowledgeBase, Path, Changes, Progress | None], None]
    #: Leaves what ``update`` needs in kb.path for the first command that uses the index, when the
    #: update was made by a command that may not (a lookup after an edit); None: always update.
    defer: Callable[[KnowledgeBase, Path, Changes], None] | None = None


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
    graph_union.load_source(store, source, progress)


def build(
    sources: list[Source] | None = None,
    progress: Progress | None = None,
    force: bool = False,
    *,
    derivations: Sequence[Derivation],
    indexes: Sequence[SideIndex] = (),
    eager: bool = True,
) -> BuildSummary:
    """Bring the store up to date with ``sources`` (default: everything) and swap it in atomically.
    Without ``eager``, an update leaves the side indexes that can wait to their first use.

    A sound store of the same sources is used as it is (``how == "none"``): eight commands started at
    once build once. Otherwise the newest sound store is updated with what changed, or, with ``force``
    or when most of the pool changed, a store is built from scratch."""
    sources = all_sources() if sources is None else sources
    started = time.perf_counter()
    with _build_lock():
        known = digests(sources)
        key = fingerprint(sources, known)
        stores = stores_dir()
        if not force:
            with contextlib.suppress(OSError, ValueError):
                graphs = check_store(stores / key)["graphs"]
                return BuildSummary(stores / key, time.perf_counter() - started, graphs, False, "none")
        failed = known_failure(known)  # a source that failed before, unchanged since: it fails again
        if failed is not None:
            raise failed
        # What is in tmp now was left by killed builds: this one holds the lock every build takes.
        for abandoned in (cache_dir() / "tmp").glob("*"):
            shutil.rmtree(abandoned, ignore_errors=True)
        temporary = cache_dir() / "tmp" / f"{key}-{os.getpid()}"
        temporary.mkdir(parents=True)
        try:
            base, plan = (None, None) if force else _cheapest_update(key, sources, known)
            if plan is not None and base is not None:
                try:
                    meta, changed = _update(
                        base, plan, temporary, known, derivations, indexes, progress, eager
                    )
                    how = "update"
                except _Unreadable as error:
                    if progress:
                        progress(f"cannot update the store in {base} ({error}); building it from scratch")
                    shutil.rmtree(temporary, ignore_errors=True)
                    temporary.mkdir(parents=True)
                    plan = None
            if plan is None:
                meta = _build_from_scratch(temporary, sources, known, derivations, indexes, progress)
                changed, how = sorted(meta["graphs"]), "full"
            meta["fingerprint"] = key
            _finish(temporary, meta, base if how == "update" else None)
            stores.mkdir(parents=True, exist_ok=True)
            final = stores / key
            if final.exists():
                shutil.rmtree(final)
            os.rename(temporary, final)
        except SourceUnreadable as error:
            remember(error, known[error.key])
            raise
        except OSError as error:
            raise StoreError(
                f"cannot build the store in {cache_dir()}: {error}",
                "check free space and permissions, or set MTGKB_CACHE_DIR",
            ) from error
        finally:
            shutil.rmtree(temporary, ignore_errors=True)
        _remove_stale(key)
    return BuildSummary(final, time.perf_counter() - started, meta["graphs"], True, how, changed)


class _Unreadable(Exception):
    """The previous store cannot be read as it should: the store is built from scratch instead."""


def _cheapest_update(
    key: str, sources: list[Source], known: dict[str, str]
) -> tuple[Path | None, _Plan | None]:
    """The finished store (other than ``key``) this version can update to ``sources`` at the least
    cost, and the plan for it; (None, None) when building from scratch is cheaper than any."""
    folder = stores_dir()
    best: tuple[int, float, Path, _Plan] | None = None
    for path in folder.iterdir() if folder.is_dir() else ():
        if path.name == key:
            continue
        with contextlib.suppress(OSError, ValueError, TypeError, KeyError):
            meta = check_store(path)
            if meta.get("mtgkb") != __version__ or not isinstance(meta.get("sources"), dict):
                continue
            plan = _plan(meta["sources"], sources, known)
            if plan is not None and (best is None or (plan.cost, -meta["built"]) < best[:2]):
                best = (plan.cost, -float(meta["built"]), path, plan)
    return (best[2], best[3]) if best else (None, None)


@dataclass
class _Plan:
    changed: list[Source]  # sources new or with other content: loaded again
    dropped: list[str]  # named graphs to take out first: the old content of changed and removed sources
    cost: int  # bytes of sources to take out and to load


def _plan(recorded: dict[str, dict[str, Any]], sources: list[Source], known: dict[str, str]) -> _Plan | None:
    """What updating a store of the ``recorded`` sources to ``sources`` takes, or None when building
    from scratch is cheaper (or the record cannot be read)."""
    try:
        changed = [s for s in sources if recorded.get(s.key, {}).get("digest") != known[s.key]]
        gone = [key for key in recorded if key not in known]
        dropped = [recorded[s.key]["graph"] for s in changed if s.key in recorded]
        dropped += [recorded[key]["graph"] for key in gone]
        total = sum(int(entry["bytes"]) for entry in recorded.values())
        old = sum(int(recorded[s.key]["bytes"]) for s in changed if s.key in recorded)
        old += sum(int(recorded[key]["bytes"]) for key in gone)
        new = sum(s.path.stat().st_size for s in changed)
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    if old + new > _UPDATE_AT_MOST * max(total, 1):
        return None
    return _Plan(changed, dropped, old + new)


def _source_record(source: Source, digest: str) -> dict[str, Any]:
    return {"digest": digest, "graph": source.graph_iri(), "bytes": source.path.stat().st_size}


def _build_from_scratch(
    temporary: Path,
    sources: list[Source],
    known: dict[str, str],
    derivations: Sequence[Derivation],
    indexes: Sequence[SideIndex],
    progress: Progress | None,
) -> dict[str, Any]:
    import pyoxigraph as ox

    store = ox.Store(str(temporary / "oxigraph"))
    if progress:
        progress(f"building the knowledge base from {len(sources)} files")
    records = {}
    for source in sources:
        _load_source(store, source, progress)
        records[source.key] = _source_record(source, known[source.key])
    kb = KnowledgeBase(temporary, store, {})
    if progress:
        progress("compacting the store")
    # The bulk loads leave many small files, which a process that only reads never merges: merged
    # now, the search index reads a quarter faster below and a full scan of the store a third faster
    # for as long as the store is used (two seconds for the full pool).
    store.optimize()
    apart = sum(record["bytes"] for record in records.values()) >= _INDEXES_APART_FROM
    digests = None
    # The derivations make large dicts and sets and no cycles: the collector's passes over them cost
    # most of a second of the mentions alone over the full pool.
    with _side_indexes_beside(store, temporary, indexes, progress, apart), collector_paused():
        terms = derive_mentions(store, progress)
        for derivation in derivations:
            if progress:
                progress(f"deriving {derivation.what}")
            # Into their own named graph and, like every source, into the default graph queries read.
            parsed = list(ox.parse(derivation.quads(kb).encode("utf-8"), format=ox.RdfFormat.N_QUADS))
            default = ox.DefaultGraph()
            store.extend(parsed + [ox.Quad(q.subject, q.predicate, q.object, default) for q in parsed])
        graphs = graph_union.graph_counts(store)
        _write_names(temporary, name_index(store))
        kb.meta = {"graphs": graphs}
        store.flush()
        # The store closes once nothing holds it: here when the indexes are built from a checkpoint,
        # after the block when they are built from the store itself.
        del kb, store
        if apart:
            # Its files are read for their digests while the indexes are still being built (half a
            # second for the pool): closed first, so that they no longer change.
            gc.collect()
            digests = _digests(temporary)
    if not apart:
        gc.collect()
    return {"graphs": graphs, "sources": records, "mentions_terms": terms, "digests": digests}


#: Sources (bytes on disk) from which a build from scratch builds its side indexes in other processes:
#: below, an index takes less time than starting a process (the shipped files alone: a tenth of that).
_INDEXES_APART_FROM = 4 << 20


@contextlib.contextmanager
def _side_indexes_beside(
    store: Any, folder: Path, indexes: Sequence[SideIndex], progress: Progress | None, apart: bool = True
) -> Iterator[None]:
    """Build ``indexes`` into ``folder`` in other processes, from a checkpoint of ``store`` as it is
    now (the sources loaded), while the block derives from the store: with two cores the search index
    (five seconds for the full pool) no longer adds to the partner network and the mentions.

    One process per index, which exits once its index is written: a killed build leaves no process
    waiting for more work (a process pool's workers would wait forever). An index whose process
    failed or could not start is built here afterwards, where its error is reported as any other."""
    if not indexes:
        yield
        return
    if not apart:
        yield
        for index in indexes:
            index.build(KnowledgeBase(folder, store, {}), progress)
        return
    import multiprocessing

    snapshot = folder / "sources-snapshot"
    store.backup(str(snapshot))  # hard links to the store's files: milliseconds
    del store  # only the checkpoint is read from now on: the block may close the store
    if progress:
        progress(f"building {', '.join(index.what for index in indexes)} beside the rest")
    workers: list[Any] = []
    try:
        context = multiprocessing.get_context("spawn")  # a fork would copy RocksDB's threads mid-use
        for index in indexes:
            worker = context.Process(
                target=_build_side_index_quietly, args=(index.build, str(snapshot), str(folder)), daemon=True
            )
            worker.start()
            workers.append(worker)
    except (ImportError, OSError):  # no process can be started here: the indexes are built below
        pass
    try:
        yield
        if progress and workers:
            progress(f"waiting for {', '.join(index.what for index in indexes)}")
        for position, index in enumerate(indexes):
            if position < len(workers):
                workers[position].join()
                if workers[position].exitcode == 0:
                    continue
            _build_side_index(index.build, str(snapshot), str(folder))
    finally:
        for worker in workers:
            if worker.is_alive():  # the block failed: its indexes are not wanted
                worker.terminate()
                worker.join()
        shutil.rmtree(snapshot, ignore_errors=True)


def _build_side_index(
    build: Callable[[KnowledgeBase, Progress | None], None], snapshot: str, folder: str
) -> None:
    """One side index of the store checkpointed in ``snapshot``, into ``folder``."""
    import pyoxigraph as ox

    with collector_paused():  # its facts form no cycles (see _build_from_scratch)
        build(KnowledgeBase(Path(folder), ox.Store.read_only(snapshot), {}), None)


def _build_side_index_quietly(
    build: Callable[[KnowledgeBase, Progress | None], None], snapshot: str, folder: str
) -> None:
    """In the other process: exits 1 without a traceback when the index cannot be built (the build
    then makes it in its own process, and reports why)."""
    try:
        _build_side_index(build, snapshot, folder)
    except BaseException:
        sys.exit(1)


def _update(
    base: Path,
    plan: _Plan,
    temporary: Path,
    known: dict[str, str],
    derivations: Sequence[Derivation],
    indexes: Sequence[SideIndex],
    progress: Progress | None,
    eager: bool = True,
) -> tuple[dict[str, Any], list[str]]:
    """The store at ``base`` with ``plan`` applied, written to ``temporary``; its meta data and the
    named graphs that changed. Raises :class:`_Unreadable` when the store at ``base`` cannot be read."""
    import pyoxigraph as ox

    if progress:
        shown = ", ".join(s.key for s in plan.changed) or "none"
        progress(f"updating the knowledge base: {len(plan.changed)} changed files ({shown})")
    try:
        old_meta = check_store(base)
        previous = ox.Store.read_only(str(base / "oxigraph"))
        previous.backup(str(temporary / "oxigraph"))
        del previous
        store = ox.Store(str(temporary / "oxigraph"))
    except (OSError, ValueError, RuntimeError) as error:
        raise _Unreadable(error) from error
    try:
        return _apply(base, old_meta, store, plan, temporary, known, derivations, indexes, progress, eager)
    except RuntimeError as error:  # RocksDB reports a damaged file as RuntimeError
        raise _Unreadable(error) from error


def _apply(
    base: Path,
    old_meta: dict[str, Any],
    store: Any,
    plan: _Plan,
    temporary: Path,
    known: dict[str, str],
    derivations: Sequence[Derivation],
    indexes: Sequence[SideIndex],
    progress: Progress | None,
    eager: bool,
) -> tuple[dict[str, Any], list[str]]:
    import pyoxigraph as ox

    kb = KnowledgeBase(temporary, store, {})

    old_content = {graph: graph_union.graph_triples(store, graph) for graph in plan.dropped}
    subjects: set[str] = set()
    for triples in old_content.values():
        subjects |= graph_union.subjects_of(triples)
    stale = {
        d.graph
        for d in derivations
        if plan.dropped and (d.reads is None or d.reads(kb, plan.dropped, subjects))
    }
    names_before = names_of(store, subjects)
    # Quads removed or added one by one go through RocksDB's log (bulk loads do not).
    logged = 2 * sum(len(triples) for triples in old_content.values())
    for graph, triples in old_content.items():
        graph_union.remove_graph(store, graph, triples)
    del old_content
    records = {key: value for key, value in old_meta["sources"].items() if key in known}
    loaded = []
    new_subjects: set[str] = set()
    for source in plan.changed:
        _load_source(store, source, progress)
        record = _source_record(source, known[source.key])
        records[source.key] = record
        loaded.append(record["graph"])
        new_subjects |= graph_union.graph_subjects(store, record["graph"])
    subjects |= new_subjects
    changed = set(plan.dropped) | set(loaded)

    named_by_source = set(subjects)  # subjects whose names only the sources' graphs can change
    mentions = update_mentions(store, subjects, old_meta.get("mentions_terms"), progress)
    derived: list[Any] = []  # triples the derived graphs lost or gained
    if mentions.subjects:
        changed.add(MENTIONS_GRAPH)
        subjects |= mentions.subjects
    for derivation in derivations:
        if (
            derivation.graph in stale
            or derivation.reads is None
            or derivation.reads(kb, loaded, new_subjects)
        ):
            if progress:
                progress(f"deriving {derivation.what}")
            parsed = ox.parse(derivation.quads(kb).encode("utf-8"), format=ox.RdfFormat.N_QUADS)
            removed, added = graph_union.replace_graph(store, derivation.graph, (q.triple for q in parsed))
            if removed or added:
                changed.add(derivation.graph)
                subjects |= graph_union.subjects_of(removed | added)
                derived += [*removed, *added]
    logged += 2 * (len(derived) + len(mentions.subjects))

    graphs = {g: n for g, n in old_meta["graphs"].items() if g not in changed}
    graphs.update({g: n for g, n in graph_union.graph_counts(store, sorted(changed)).items() if n})
    _update_names(base, temporary, store, subjects, named_by_source, names_before, derived)
    kb.meta = {"graphs": graphs}
    for index in indexes:
        if eager or index.defer is None:
            index.update(kb, base, Changes(changed, subjects), progress)
        else:
            index.defer(kb, base, Changes(changed, subjects))
    if flush_wanted(logged, temporary / "oxigraph"):
        store.flush()
    del kb, store
    meta = {"graphs": graphs, "sources": records, "mentions_terms": mentions.terms}
    return meta, sorted(changed)


def flush_wanted(logged: int, folder: Path) -> bool:
    """Whether an update that wrote ``logged`` quads one by one into the store in ``folder`` should
    flush them into its files: too many quads, or a write-ahead log too large ("000487.log"; "LOG" is
    RocksDB's info log), would be replayed by every read-only open."""
    size = sum(path.stat().st_size for path in folder.glob("*.log"))
    return logged > _LOGGED_AT_MOST or size > _LOG_BYTES_AT_MOST


def _update_names(
    base: Path,
    folder: Path,
    store: Any,
    subjects: set[str],
    named_by_source: set[str],
    before: list[list[str]],
    derived: list[Any],
) -> None:
    """The name index of the updated store in ``folder``: the previous one, linked, when the changed
    subjects are named as they were (most changes name nothing new), else read and brought up to date."""
    from mtgkb.kb.name_index import NAMING

    naming = any(triple.predicate.value in NAMING for triple in derived)
    if not naming and names_of(store, named_by_source) == before:
        with contextlib.suppress(OSError):
            os.link(base / "names.json", folder / "names.json")
            return
    try:
        names = update_name_index(store, _read_names(base), subjects)
    except (OSError, ValueError):  # damaged since the store was checked: read them all again
        names = name_index(store)
    _write_names(folder, names)


def _read_names(path: Path) -> list[list[str]]:
    return json.loads((path / "names.json").read_text(encoding="utf-8"))


def _write_names(folder: Path, names: list[list[str]]) -> None:
    (folder / "names.json").write_text(json.dumps(names, ensure_ascii=False), encoding="utf-8")


def _finish(folder: Path, meta: dict[str, Any], base: Path | None = None) -> None:
    """Write meta.json, last: a store without it (or with sizes that do not match) is not finished.
    It records the digest of every file of the store (those shared with ``base`` are not read again)."""
    meta["built"] = time.time()
    meta["mtgkb"] = __version__
    meta["files"] = {name: (folder / name).stat().st_size for name in CHECKED_FILES}
    meta["digests"] = meta.get("digests") or _digests(folder, base)
    (folder / "meta.json").write_text(json.dumps(meta))


def _digests(folder: Path, base: Path | None = None) -> dict[str, list[Any]]:
    from mtgkb.kb.store_files import record_digests

    return record_digests(folder, base)


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


def open_kb(
    progress: Progress | None = None,
    *,
    derivations: Sequence[Derivation],
    indexes: Sequence[SideIndex] = (),
) -> KnowledgeBase:
    """Open the current store, building or updating it first when a source changed or it is missing
    or broken. An import running meanwhile may change the sources between the moment their store is
    named and the moment it is built or opened (and a later build may drop it as stale): the store
    opened is then the one the build made, or the sources are read again."""
    from mtgkb.kb.store_files import DAMAGED

    for attempt in range(_OPEN_ATTEMPTS):
        path = stores_dir() / fingerprint(all_sources())
        if not (path / "meta.json").exists():
            # A store set aside as damaged is built from scratch: an update would start from its files.
            damaged = (path / DAMAGED).exists()
            if damaged and progress:
                progress(f"the store in {path} was found damaged; building it again from scratch")
            summary = build(None, progress, damaged, derivations=derivations, indexes=indexes, eager=False)
            path = summary.path
        try:
            return open_store(path)
        except (OSError, ValueError, RuntimeError):  # RocksDB reports corruption as RuntimeError
            if not (path / "meta.json").exists() and attempt + 1 < _OPEN_ATTEMPTS:
                continue  # dropped by a build of newer sources since: name the current store again
            if progress:
                progress(f"the store in {path} is damaged; rebuilding it")
            shutil.rmtree(path, ignore_errors=True)
            summary = build(None, progress, force=True, derivations=derivations, indexes=indexes)
            return open_store(summary.path)
    raise AssertionError("unreachable: the last attempt returns or raises")

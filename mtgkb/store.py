"""The embedded Oxigraph store: a cache built from ontology/, data/ and imported datasets.

Each build goes to a temporary folder and is renamed into ``stores/<fingerprint>`` when complete, so
a reader only ever opens a finished store. The fingerprint covers every source file's path, size and
modification time, so editing ontology/ or data/, or importing a dataset, leads to a rebuild on the
next use. Builds take an exclusive file lock: two commands started at once build once.

Each source is loaded twice: into its own named graph (``GRAPH ?g`` says who states a fact) and into
the default graph, which is therefore the deduplicated union of every source. A fact that the curated
data, MTGJSON and Scryfall all state is one triple there, so queries see it once; Oxigraph's
"default graph as union" view would return it once per graph that states it.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import hashlib
import io
import json
import os
import re
import shutil
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtgkb import __version__
from mtgkb.errors import StoreError
from mtgkb.iris import mint, namespace
from mtgkb.mentions import derive_mentions
from mtgkb.paths import cache_dir, imports_dir, repo_root
from mtgkb.progress import Progress, Ticker
from mtgkb.vocab import PREFIXES, V, sparql_prefixes

# 2: the default graph holds the deduplicated union; 3: derived mentions; 4: meta.json records the size
# of every other file of the store, so a damaged one is noticed.
STORE_FORMAT = "4"
_KEEP_OLD_STORES = 1


@dataclass(frozen=True)
class Source:
    """One file loaded into its own named graph (imports carry their graph names inside)."""

    path: Path
    graph: str | None
    format: str  # "turtle" or "nquads"


@dataclass
class BuildSummary:
    path: Path
    seconds: float
    graphs: dict[str, int]
    rebuilt: bool = True

    @property
    def triples(self) -> int:
        return sum(self.graphs.values())


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


def _stores_dir() -> Path:
    return cache_dir() / "stores"


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
    graph. Every importer writes one graph per file (mtgkb.nquads.QuadWriter), named on the first
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


def _derive(store: Any, folder: Path, progress: Progress | None) -> None:
    """Add what is derived from the loaded sources: the pairs of cards that may be commanders together
    (graph/derived/partner-pairs), so partner questions and queries read edges instead of rules."""
    import pyoxigraph as ox

    from mtgkb.reasoning.partner_graph import derive_pairs

    if progress:
        progress("deriving the partner network")
    quads = derive_pairs(KnowledgeBase(folder, store, {}))
    # Into their own named graph and, like every source, into the default graph queries read.
    parsed = list(ox.parse(quads.encode("utf-8"), format=ox.RdfFormat.N_QUADS))
    store.extend(parsed + [ox.Quad(q.subject, q.predicate, q.object, ox.DefaultGraph()) for q in parsed])


def _graph_counts(store: Any) -> dict[str, int]:
    query = "SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g"
    return {row["g"].value: int(row["n"].value) for row in store.query(query)}


def _name_index(store: Any) -> list[list[str]]:
    """[display name, IRI, kind] for everything a user may name: cards, mechanics, steps, zones,
    rules concepts."""
    # Card names are told from face names by their minted IRI: a type join takes four times as long
    # at full card-pool scale.
    card_prefix = namespace("card")
    names = {
        (row["name"].value, row["iri"].value, "card")
        for row in store.query(
            f"SELECT ?iri ?name WHERE {{ {{ ?iri <{V.name}> ?name }} "
            f"UNION {{ ?iri <{V.alsoNamed}> ?name }} }}"
        )
        if row["iri"].value.startswith(card_prefix)
    }
    query = (
        sparql_prefixes()
        + """
        SELECT DISTINCT ?iri ?name ?kind WHERE {
          { ?iri a mtgkb:Mechanic ; rdfs:label ?name . BIND("mechanic" AS ?kind) }
          UNION { ?iri a mtgkb:Step ; rdfs:label ?name . BIND("step" AS ?kind) }
          UNION { ?iri a mtgkb:Zone ; rdfs:label ?name . BIND("zone" AS ?kind) }
          UNION { ?iri a mtgkb:RulesConcept ; rdfs:label ?name . BIND("concept" AS ?kind) }
        }"""
    )
    rows = store.query(query)
    names |= {(row["name"].value, row["iri"].value, row["kind"].value) for row in rows}
    return sorted(list(entry) for entry in names)


def build(
    sources: list[Source] | None = None, progress: Progress | None = None, force: bool = False
) -> BuildSummary:
    """Build a fresh store from ``sources`` (default: everything) and swap it in atomically.

    Unless ``force``, a sound store of the same sources that another process finished while this
    one waited for the lock is used as it is: eight commands started at once build once."""
    import pyoxigraph as ox

    sources = all_sources() if sources is None else sources
    key = fingerprint(sources)
    started = time.perf_counter()
    with _build_lock():
        stores = _stores_dir()
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
            _derive(store, temporary, progress)
            graphs = _graph_counts(store)
            names = _name_index(store)
            store.flush()
            del store
            gc.collect()
            (temporary / "names.json").write_text(json.dumps(names, ensure_ascii=False), encoding="utf-8")
            files = {name: (temporary / name).stat().st_size for name in _CHECKED_FILES}
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
    stores = _stores_dir()
    old = sorted(
        (p for p in stores.iterdir() if p.name != current), key=lambda p: p.stat().st_mtime, reverse=True
    )
    for path in old[_KEEP_OLD_STORES:]:
        shutil.rmtree(path, ignore_errors=True)
    for path in (cache_dir() / "tmp").glob("*"):
        shutil.rmtree(path, ignore_errors=True)


@dataclass
class KnowledgeBase:
    """An opened, read-only store plus the name index written beside it."""

    path: Path
    store: Any
    meta: dict[str, Any]
    _names: list[list[str]] | None = field(default=None, repr=False)

    @property
    def names(self) -> list[list[str]]:
        if self._names is None:
            try:
                self._names = json.loads((self.path / "names.json").read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                # Its size was right when the store was opened, so something changed it since: set the
                # store aside so that the next command rebuilds it.
                (self.path / "meta.json").unlink(missing_ok=True)
                raise StoreError(
                    f"the name index of the store in {self.path} is damaged ({error})",
                    "run the command again: the store is rebuilt",
                ) from error
        return self._names

    def raw_query(
        self,
        sparql: str,
        params: dict[str, str] | None = None,
        default_graphs: list[str] | None = None,
        named_graphs: list[str] | None = None,
    ) -> Any:
        """Run SPARQL over the default graph (every source's facts, each once); pyoxigraph's result
        object. ``params`` bind variables: a value starting with ``http://`` or ``https://`` becomes
        an IRI, anything else a plain string literal, through a VALUES block at the head of the
        WHERE clause (the store then plans with the value; its own substitutions bind only after
        planning, which made bound lookups slow).

        ``default_graphs`` and ``named_graphs`` (graph IRIs) set the dataset instead, as the SPARQL
        protocol's ``default-graph-uri`` and ``named-graph-uri`` do: the default graph is then the
        merge of the graphs listed (none: empty), and ``GRAPH`` sees only the named graphs listed."""
        if params:
            sparql = bind_values(sparql, params)
        if default_graphs is None and named_graphs is None:
            return self.store.query(sparql, prefixes=PREFIXES)
        import pyoxigraph as ox

        return self.store.query(
            sparql,
            prefixes=PREFIXES,
            default_graph=[ox.NamedNode(iri) for iri in default_graphs or []],
            named_graphs=[ox.NamedNode(iri) for iri in named_graphs or []],
        )

    def select(self, sparql: str, **params: str) -> list[dict[str, Any]]:
        """Rows of a SELECT as dicts of Python values (see :meth:`raw_query` for ``params``)."""
        solutions = self.raw_query(sparql, params)
        names = [variable.value for variable in solutions.variables]
        return [{name: to_python(row[name]) for name in names} for row in solutions]


_IRI = re.compile(r"^https?://[^\s<>\"{}|^`\\]+$")
_VARIABLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def sparql_iri(iri: str) -> str:
    """``<iri>`` for writing into a query, after checking nothing in it can be read as syntax."""
    if not _IRI.match(iri):
        raise ValueError(f"not an IRI that can be written into a query: {iri!r}")
    return f"<{iri}>"


def sparql_string(text: str) -> str:
    """``text`` as a SPARQL string literal, escaped so that nothing in it is read as syntax."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\r", "\\r")
    return f'"{escaped}"'


def bind_values(sparql: str, params: dict[str, str]) -> str:
    """``sparql`` with ``VALUES ?name { term }`` for each parameter at the head of each group pattern
    that uses it (the WHERE clause, a subquery: see :mod:`mtgkb.sparql_bind`)."""
    from mtgkb.sparql_bind import bind

    terms = {}
    for name, value in params.items():
        if not _VARIABLE.match(name):
            raise ValueError(f"not a SPARQL variable name: {name!r}")
        terms[name] = sparql_iri(value) if value.startswith(("https://", "http://")) else sparql_string(value)
    return bind(sparql, terms)


def to_python(term: Any) -> Any:
    """pyoxigraph term -> str / int / float / bool / None."""
    if term is None:
        return None
    datatype = getattr(term, "datatype", None)
    if datatype is not None:
        kind = datatype.value.rsplit("#", 1)[-1]
        if kind in {"integer", "int", "long", "nonNegativeInteger"}:
            return int(term.value)
        if kind in {"decimal", "double", "float"}:
            number = float(term.value)
            return int(number) if number.is_integer() else number
        if kind == "boolean":
            return term.value == "true"
    return term.value


def open_kb(progress: Progress | None = None) -> KnowledgeBase:
    """Open the current store, building it first when a source changed or it is missing or broken."""
    sources = all_sources()
    path = _stores_dir() / fingerprint(sources)
    if not (path / "meta.json").exists():
        build(sources, progress)
    try:
        return _open(path)
    except (OSError, ValueError, RuntimeError):  # RocksDB reports corruption as RuntimeError
        if progress:
            progress(f"the store in {path} is damaged; rebuilding it")
        shutil.rmtree(path, ignore_errors=True)
        build(sources, progress)
        return _open(path)


#: The files beside the Oxigraph folder whose sizes meta.json records (meta.json is written last).
_CHECKED_FILES = ("names.json",)


def check_store(path: Path) -> dict[str, Any]:
    """The meta data of the finished store at ``path``; ValueError when a file of it is missing,
    truncated or of an older format (OSError when it cannot be read)."""
    meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
    if not isinstance(meta, dict) or meta.get("fingerprint") != path.name:
        raise ValueError(f"{path / 'meta.json'} does not describe this store")
    files = meta.get("files")
    if not isinstance(files, dict) or set(files) != set(_CHECKED_FILES):
        raise ValueError(f"{path / 'meta.json'} lists no file sizes")
    for name, size in files.items():
        if (path / name).stat().st_size != size:
            raise ValueError(f"{path / name} is not the size it was written with")
    if not (path / "oxigraph").is_dir():
        raise ValueError(f"{path / 'oxigraph'} is missing")
    return meta


def open_built(path: Path) -> KnowledgeBase:
    """Open the finished store at ``path`` read-only, without looking at the sources: another process
    (a server's query worker) opening the store that its parent opened with :func:`open_kb`."""
    return _open(path)


def _open(path: Path) -> KnowledgeBase:
    import pyoxigraph as ox

    meta = check_store(path)
    store = ox.Store.read_only(str(path / "oxigraph"))
    return KnowledgeBase(path, store, meta)


def graph_label(graph_iri: str) -> str:
    """``graph/data/turn`` -> ``data/turn``: the short name users see for a named graph."""
    return graph_iri.removeprefix(namespace("graph"))

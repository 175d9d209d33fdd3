"""A finished store, opened read-only: the Oxigraph folder, its meta data and the name index beside it."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtgkb.core.errors import StoreError
from mtgkb.core.paths import cache_dir
from mtgkb.kb.iris import namespace
from mtgkb.kb.sparql_text import ParamValue, bind_values, to_python
from mtgkb.kb.vocab import PREFIXES


def stores_dir() -> Path:
    return cache_dir() / "stores"


def predicate_values(store: Any, predicate: str) -> Iterator[tuple[str, str]]:
    """The subject and value of every triple of ``predicate`` in the default graph of the Oxigraph
    ``store``, as text. Read through SPARQL, which decodes only the terms asked for: the store's quads
    decode the predicate too, a third more time over the full pool's rulings."""
    from mtgkb.kb.query_files import library_query

    query = bind_values(library_query("predicate-values"), {"p": predicate})
    for row in store.query(query, prefixes=PREFIXES):
        yield row[0].value, row[1].value


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
            from mtgkb.kb.store_files import names_digest, parse_names, set_aside

            try:
                data = (self.path / "names.json").read_bytes()
                self._names = parse_names(data, names_digest(self.meta))
            except (OSError, ValueError) as error:
                # Its size was right when the store was opened, so something changed it since (or
                # bytes of the same number): set the store aside so that the next command rebuilds it.
                set_aside(self.path)
                raise StoreError(
                    f"the name index of the store in {self.path} is damaged ({error})",
                    "run the command again: the store is rebuilt",
                ) from error
        return self._names

    def raw_query(
        self,
        sparql: str,
        params: Mapping[str, ParamValue] | None = None,
        default_graphs: list[str] | None = None,
        named_graphs: list[str] | None = None,
    ) -> Any:
        """Run SPARQL over the default graph (every source's facts, each once); pyoxigraph's result
        object. ``params`` bind variables, each to one value or a list of them: a value starting
        with ``http://`` or ``https://`` becomes an IRI, anything else a plain string literal, through
        VALUES blocks where the query uses the variable (:func:`mtgkb.kb.sparql_text.bind_values`;
        the store then plans with the value; its own substitutions bind only after planning, which
        made bound lookups slow).

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

    def states_about(self, subjects: Iterable[str], graphs: Iterable[str]) -> bool:
        """Whether one of the named graphs ``graphs`` states anything about one of the IRIs
        ``subjects`` (one index lookup per pair: cheap for a few thousand subjects)."""
        import pyoxigraph as ox

        names = [ox.NamedNode(graph) for graph in graphs]
        for subject in subjects:
            node = ox.NamedNode(subject)
            for graph in names:
                if next(self.store.quads_for_pattern(node, None, None, graph), None) is not None:
                    return True
        return False

    def select(
        self, sparql: str, *, named_graphs: list[str] | None = None, **params: ParamValue
    ) -> list[dict[str, Any]]:
        """Rows of a SELECT as dicts of Python values (see :meth:`raw_query` for ``params`` and
        ``named_graphs``)."""
        solutions = self.raw_query(sparql, params, named_graphs=named_graphs)
        names = [variable.value for variable in solutions.variables]
        return [{name: to_python(row[name]) for name in names} for row in solutions]


#: The files beside the Oxigraph folder whose sizes meta.json records (meta.json is written last).
CHECKED_FILES = ("names.json",)


def check_store(path: Path) -> dict[str, Any]:
    """The meta data of the finished store at ``path``; ValueError when a file of it is missing,
    truncated or of an older format (OSError when it cannot be read)."""
    meta = json.loads((path / "meta.json").read_text(encoding="utf-8"))
    if not isinstance(meta, dict) or meta.get("fingerprint") != path.name:
        raise ValueError(f"{path / 'meta.json'} does not describe this store")
    files = meta.get("files")
    if not isinstance(files, dict) or set(files) != set(CHECKED_FILES):
        raise ValueError(f"{path / 'meta.json'} lists no file sizes")
    for name, size in files.items():
        if (path / name).stat().st_size != size:
            raise ValueError(f"{path / name} is not the size it was written with")
    if not (path / "oxigraph").is_dir():
        raise ValueError(f"{path / 'oxigraph'} is missing")
    return meta


def _store_of_current_sources() -> Path:
    from mtgkb.kb.sources import all_sources, fingerprint

    return stores_dir() / fingerprint(all_sources())


def open_current() -> KnowledgeBase | None:
    """The store of the current sources when it is there and sound; None when it must be built,
    updated or repaired first (see :mod:`mtgkb.kb.build`, which this does not import)."""
    try:
        return open_store(_store_of_current_sources())
    except (OSError, ValueError, RuntimeError):  # RocksDB reports damage as RuntimeError
        return None


def current_store_path() -> Path | None:
    """The folder of the finished store of the current sources; None when it is not built yet (a
    running server keeps answering from the store it has until then)."""
    path = _store_of_current_sources()
    try:
        check_store(path)
    except (OSError, ValueError):
        return None
    return path


def remove_abandoned_builds() -> None:
    """Remove the temporary folders that killed builds left in the cache's ``tmp`` (each can hold a
    partial store of hundreds of megabytes), unless a build is running: every build holds the build
    lock from before it makes its folder until it has renamed or removed it, so while the lock is free
    no folder there belongs to a live build. Costs one directory listing when there is none."""
    import fcntl
    import os
    import shutil

    folder = cache_dir() / "tmp"
    try:
        with os.scandir(folder) as entries:
            if next(entries, None) is None:
                return
        handle = open(cache_dir() / "build.lock", "a")  # noqa: SIM115 - closed below
    except OSError:
        return
    with handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # a build is running; it clears the folder when it ends
            return
        try:
            for path in folder.iterdir():
                shutil.rmtree(path, ignore_errors=True)
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def open_store(path: Path) -> KnowledgeBase:
    import pyoxigraph as ox

    meta = check_store(path)
    store = ox.Store.read_only(str(path / "oxigraph"))
    return KnowledgeBase(path, store, meta)


def graph_label(graph_iri: str) -> str:
    """``graph/data/turn`` -> ``data/turn``: the short name users see for a named graph."""
    return graph_iri.removeprefix(namespace("graph"))

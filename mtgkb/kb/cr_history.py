"""Every imported Comprehensive Rules edition, kept as rule versions (see mtgkb.kb.cr_lineage).

Two files in the imports folder hold it. ``cr-history.json.gz`` is the record: the editions, each
distinct text once, and the versions (number, text, first and last edition, previous version, kind of
change); a new import rebuilds the editions from it, adds its own and links them again, and a
history lookup reads it without opening the store. ``cr-history.nq.gz`` is the same as RDF for
SPARQL (``mtgkb:RuleVersion`` nodes, ``mtgkb:previousVersion``, validity spans), written only once
there are two editions to link: a single edition is already its own graph, and the default build
stays as it was.
"""

from __future__ import annotations

import gzip
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mtgkb.core.errors import MtgkbError
from mtgkb.core.nquads import XSD, QuadWriter
from mtgkb.core.paths import imports_dir
from mtgkb.kb.cr_lineage import Edition, Entry, Version, build_versions, edition_entries
from mtgkb.kb.iris import mint, rule_iri
from mtgkb.kb.vocab import RDF_TYPE, RDFS_LABEL, V

FORMAT = 1
HISTORY_GRAPH = mint("graph", "cr", "history")


@dataclass
class EditionInfo:
    date: str
    source: str  # the file name it was read from
    encoding: str = ""
    line_endings: str = ""
    rules: int = 0  # numbered rules and subrules
    warnings: list[str] = field(default_factory=list)


class History:
    """The editions (oldest first) and the rule versions across them. Read from the file, the versions
    stay rows until asked for (:attr:`rows`: number, kind, title, text index, first, last, previous
    or -1, change), which is all a history lookup needs."""

    def __init__(
        self,
        editions: list[EditionInfo],
        versions: list[Version] | None = None,
        rows: list[list[Any]] | None = None,
        texts: list[str] | None = None,
    ) -> None:
        self.editions = editions
        self._versions = versions
        self.rows = rows
        self.texts = texts

    @property
    def versions(self) -> list[Version]:
        if self._versions is None:
            texts = self.texts or []
            self._versions = [
                Version(
                    number, kind, title, texts[text], first, last, None if previous < 0 else previous, change
                )
                for number, kind, title, text, first, last, previous, change in self.rows or []
            ]
        return self._versions

    @property
    def dates(self) -> list[str]:
        return [edition.date for edition in self.editions]

    def distinct_texts(self) -> int:
        if self._versions is None and self.texts is not None:
            return len(self.texts)
        return len({version.text for version in self.versions})


def history_file() -> Path:
    return imports_dir() / "cr-history.json.gz"


def history_graph_file() -> Path:
    return imports_dir() / "cr-history.nq.gz"


def read_history(path: Path | None = None) -> History | None:
    """The recorded history, or None when no edition was imported with it."""
    path = path or history_file()
    try:
        with gzip.open(path, "rb") as stream:
            data = json.loads(stream.read())
    except (FileNotFoundError, NotADirectoryError):  # nothing imported yet (or no imports folder)
        return None
    except (OSError, ValueError, EOFError) as error:
        raise MtgkbError(
            f"the rules history in {path} is damaged ({error})",
            f"delete {path}, then import the editions again: mtgkb import rules ../shared/data/rules/history",
        ) from error
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise MtgkbError(
            f"the rules history in {path} was written by another version of mtgkb",
            f"delete {path}, then import the editions again: mtgkb import rules ../shared/data/rules/history",
        )
    editions = [EditionInfo(**edition) for edition in data["editions"]]
    return History(editions, rows=data["versions"], texts=data["texts"])


def merged_history(earlier: History | None, added: list[tuple[EditionInfo, Edition]]) -> History:
    """``earlier``'s editions with ``added`` (an edition of the same date replaces the earlier one),
    oldest first, linked again from scratch: a new edition between two known ones changes both links."""
    by_date: dict[str, tuple[EditionInfo, Edition]] = {}
    if earlier is not None:
        for index, info in enumerate(earlier.editions):
            by_date[info.date] = (info, edition_entries(earlier.versions, index))
    for info, entries in added:
        by_date[info.date] = (info, entries)
    ordered = [by_date[date] for date in sorted(by_date)]
    return History([info for info, _ in ordered], build_versions([entries for _, entries in ordered]))


def entries_of(rules: list[Any]) -> Edition:
    """An edition's rules (:class:`mtgkb.importers.cr_text.RuleRecord`) as lineage entries."""
    return {record.number: Entry(record.kind, record.title, record.text) for record in rules}


def dump_history(history: History) -> bytes:
    texts: dict[str, int] = {}
    rows = []
    for version in history.versions:
        text = texts.setdefault(version.text, len(texts))
        previous = -1 if version.previous is None else version.previous
        rows.append(
            [
                version.number,
                version.kind,
                version.title,
                text,
                version.first,
                version.last,
                previous,
                version.change,
            ]
        )
    data = {
        "format": FORMAT,
        "editions": [asdict(edition) for edition in history.editions],
        "texts": list(texts),
        "versions": rows,
    }
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def version_iri(history: History, version: Version) -> str:
    return mint("version", version.number, history.editions[version.first].date)


def write_history_quads(writer: QuadWriter, history: History) -> None:
    """The editions and versions as RDF in the history graph."""
    editions = [mint("edition", info.date) for info in history.editions]
    for index, (info, edition) in enumerate(zip(history.editions, editions, strict=True)):
        writer.add_iri(edition, RDF_TYPE, V.Edition)
        writer.add_literal(edition, RDFS_LABEL, f"Comprehensive Rules, effective {info.date}")
        writer.add_literal(edition, V.effectiveDate, info.date, XSD + "date")
        writer.add_literal(edition, V.sourceFile, info.source)
        writer.add_literal(edition, V.recordCount, info.rules)
        writer.add_literal(edition, V.editionIndex, index)
    iris = [version_iri(history, version) for version in history.versions]
    for version, node in zip(history.versions, iris, strict=True):
        writer.add_iri(node, RDF_TYPE, V.RuleVersion)
        writer.add_literal(node, RDFS_LABEL, f"CR {version.number} ({history.editions[version.first].date})")
        writer.add_iri(node, V.versionOf, rule_iri(version.number))
        writer.add_literal(node, V.numberInEdition, version.number)
        writer.add_literal(node, V.text, version.text)
        if version.title:
            writer.add_literal(node, V.title, version.title)
        writer.add_iri(node, V.validFrom, editions[version.first])
        writer.add_iri(node, V.validUntil, editions[version.last])
        writer.add_literal(node, V.changeKind, version.change)
        if version.previous is not None:
            writer.add_iri(node, V.previousVersion, iris[version.previous])

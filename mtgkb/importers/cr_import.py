"""Import Comprehensive Rules editions: parse the texts, write ``cr-<date>.nq.gz`` for the newest and
the rules history (mtgkb.kb.cr_history) for all, and update the store once.

Each edition is one named graph (``graph/cr/<date>``) in its own file, so editions sit side by side and
re-importing an edition replaces exactly its file. Rule nodes use the same IRIs as the curated rule
nodes in data/ (``cr/702.49d``): the official text lands on the node our summaries already describe.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from mtgkb.core.errors import ImportFileError
from mtgkb.core.nquads import XSD, PendingFiles, QuadWriter
from mtgkb.core.paths import imports_dir
from mtgkb.core.progress import Progress, Ticker
from mtgkb.importers.apply import apply_import, unwritable
from mtgkb.importers.cr_decode import HINT
from mtgkb.importers.cr_text import RuleRecord, RulesDocument, load_rules_file
from mtgkb.kb.cr_history import (
    HISTORY_GRAPH,
    EditionInfo,
    dump_history,
    entries_of,
    history_file,
    history_graph_file,
    merged_history,
    read_history,
    write_history_quads,
)
from mtgkb.kb.iris import mint, rule_iri
from mtgkb.kb.vocab import RDF_TYPE, RDFS_LABEL, V


@dataclass
class ImportedEdition:
    edition: str
    source: str
    encoding: str
    line_endings: str
    rules: int
    warnings: list[str] = field(default_factory=list)


@dataclass
class RulesImportSummary:
    """What an import did. The edition fields describe the edition written as its own graph (the
    newest one imported, which rule lookups show); ``imported`` lists every edition read."""

    source: str
    edition: str  # effective date, "2026-04-17"
    output: str  # the N-Quads file written
    graph: str
    rules: int  # numbered rules and subrules
    headings: int  # sections and chapters
    glossary: int
    references: int  # refersTo edges written
    quads: int
    replaced: bool  # an earlier import of this edition was replaced
    parse_seconds: float
    write_seconds: float
    build_seconds: float
    imported: list[ImportedEdition] = field(default_factory=list)
    history_editions: int = 0  # editions in the rules history after this import
    history_versions: int = 0  # rule versions across them (a text stored once per span of editions)
    history_texts: int = 0  # distinct rule texts across them


def edition_file(date: str) -> Path:
    return imports_dir() / f"cr-{date}.nq.gz"


def edition_paths(paths: Path | Sequence[Path]) -> list[Path]:
    """The edition files named: files as given, a folder's ``*.txt`` files in name order."""
    named = [Path(paths)] if isinstance(paths, (str, Path)) else [Path(p) for p in paths]
    found: list[Path] = []
    for path in named:
        if path.is_dir():
            inside = sorted(p for p in path.iterdir() if p.suffix.lower() == ".txt" and p.is_file())
            if not inside:
                raise ImportFileError(f"{path} holds no .txt file", HINT)
            found += inside
        else:
            found.append(path)
    if not found:
        raise ImportFileError("no Comprehensive Rules file was named", HINT)
    return found


def import_rules(paths: Path | Sequence[Path], progress: Progress | None = None) -> RulesImportSummary:
    """Import the Comprehensive Rules editions in ``paths`` (files or folders) and update the store.

    Every file is read and checked before anything is written, so a wrong file among a hundred leaves
    the imported data and the store exactly as they were. The newest edition named becomes its own
    graph (the text rule lookups show); every edition goes into the rules history, and the store is
    updated once.
    """
    files = edition_paths(paths)
    say = progress or (lambda message: None)
    started = time.perf_counter()
    documents = _read_editions(files, progress)
    parsed = time.perf_counter()
    newest = max(documents, key=lambda d: d.effective_date)
    say(
        f"parsed {len(documents)} edition(s); newest {newest.effective_date}: {len(newest.numbered)} rules, "
        f"{len(newest.glossary)} glossary entries"
    )
    for document in documents:
        for warning in document.warnings:
            say(f"warning: {Path(document.source).name}: {warning}")
    imported = [
        ImportedEdition(
            d.effective_date, d.source, d.encoding, d.line_endings, len(d.numbered), list(d.warnings)
        )
        for d in sorted(documents, key=lambda d: d.effective_date)
    ]
    earlier_history = read_history()
    if earlier_history is not None or len(documents) > 1:
        known = len(earlier_history.editions) if earlier_history else 0
        say(f"linking each rule to its predecessor across {known + len(documents)} editions")
    history = merged_history(
        earlier_history,
        [
            (
                EditionInfo(e.edition, Path(e.source).name, e.encoding, e.line_endings, e.rules, e.warnings),
                entries_of(d.rules),
            )
            for e, d in zip(imported, sorted(documents, key=lambda d: d.effective_date), strict=True)
        ],
    )
    say(f"rules history: {len(history.editions)} editions, {len(history.versions)} rule versions")

    output = edition_file(newest.effective_date)
    graph = mint("graph", "cr", newest.effective_date)
    earlier = output.with_name(output.name.removesuffix(".gz"))  # as an earlier version wrote it
    replaced = output.exists() or earlier.exists()
    pending = PendingFiles()
    pending.replaces(earlier)
    try:
        try:
            with pending.write(output, compressed=True) as stream:
                writer = QuadWriter(stream, graph)
                references = write_edition(writer, newest, str(Path(newest.source).resolve()))
            with pending.write(history_file(), compressed=True) as stream:
                stream.write(dump_history(history).decode("utf-8"))
            if len(history.editions) > 1:
                with pending.write(history_graph_file(), compressed=True) as stream:
                    write_history_quads(QuadWriter(stream, HISTORY_GRAPH), history)
        except OSError as error:
            raise unwritable(error) from error
        written = time.perf_counter()
        say(f"wrote {writer.count} quads to {output}")
        built = apply_import("rules", pending, progress)
    finally:
        pending.discard()
    return RulesImportSummary(
        source=newest.source,
        edition=newest.effective_date,
        output=str(output),
        graph=graph,
        rules=len(newest.numbered),
        headings=len(newest.rules) - len(newest.numbered),
        glossary=len(newest.glossary),
        references=references,
        quads=writer.count,
        replaced=replaced,
        parse_seconds=round(parsed - started, 3),
        write_seconds=round(written - parsed, 3),
        build_seconds=round(built.seconds, 3),
        imported=imported,
        history_editions=len(history.editions),
        history_versions=len(history.versions),
        history_texts=history.distinct_texts(),
    )


def _read_editions(files: list[Path], progress: Progress | None) -> list[RulesDocument]:
    """Every file parsed, one progress bar across them; the first bad file stops the import."""
    ticker = Ticker(progress, "reading editions", len(files)) if len(files) > 1 else None
    if ticker is None and progress:
        progress(f"parsing {files[0].name}")
    by_date: dict[str, RulesDocument] = {}
    for done, path in enumerate(files, 1):
        document = load_rules_file(path)
        if document.effective_date in by_date:
            document.warnings.append(
                f"it is the edition of {document.effective_date} again "
                f"(as {Path(by_date[document.effective_date].source).name}); this file is used"
            )
        by_date[document.effective_date] = document
        if ticker:
            ticker.update(done)
    return list(by_date.values())


def write_edition(writer: QuadWriter, document: RulesDocument, source: str) -> int:
    """Write the edition, rule and glossary nodes; returns the number of refersTo edges."""
    date = document.effective_date
    edition = mint("edition", date)
    writer.add_iri(edition, RDF_TYPE, V.Edition)
    writer.add_iri(edition, RDF_TYPE, V.Dataset)
    writer.add_literal(edition, RDFS_LABEL, f"Comprehensive Rules, effective {date}")
    writer.add_literal(edition, V.effectiveDate, date, XSD + "date")
    writer.add_literal(edition, V.sourceFile, Path(source).name)
    writer.add_literal(edition, V.fromSource, source)
    writer.add_literal(edition, V.recordCount, len(document.numbered))
    writer.add_literal(edition, V.importedAt, _now(), XSD + "dateTime")

    nodes = {record.number: rule_iri(record.number) for record in document.rules}
    references = 0
    for record in document.rules:
        node = nodes[record.number]
        _write_rule(writer, node, record, edition)
        if record.parent in nodes:
            writer.add_iri(node, V.parentRule, nodes[record.parent])
        for number in record.references:
            if target := nodes.get(number):
                writer.add_iri(node, V.refersTo, target)
                references += 1

    for entry in document.glossary:
        node = mint("glossary", entry.term)
        writer.add_iri(node, RDF_TYPE, V.GlossaryEntry)
        writer.add_literal(node, RDFS_LABEL, entry.term)
        writer.add_literal(node, V.glossaryTerm, entry.term)
        writer.add_literal(node, V.text, entry.text)
        for number in entry.rules:
            if target := nodes.get(number):
                writer.add_iri(node, V.definesRules, target)
    return references


def _write_rule(writer: QuadWriter, node: str, record: RuleRecord, edition: str) -> None:
    writer.add_iri(node, RDF_TYPE, V.Rule)
    writer.add_literal(node, RDFS_LABEL, f"CR {record.number}")
    writer.add_literal(node, V.ruleNumber, record.number)
    writer.add_literal(node, V.text, record.text)
    if record.title:
        writer.add_literal(node, V.title, record.title)
    writer.add_iri(node, V.inEdition, edition)


def _now() -> str:
    return datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")

"""Import a Comprehensive Rules edition: parse the text, write ``cr-<date>.nq.gz``, update the store.

Each edition is one named graph (``graph/cr/<date>``) in its own file, so editions sit side by side and
re-importing an edition replaces exactly its file. Rule nodes use the same IRIs as the curated rule
nodes in data/ (``cr/702.49d``): the official text lands on the node our summaries already describe.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from mtgkb.core.nquads import XSD, PendingFiles, QuadWriter
from mtgkb.core.paths import imports_dir
from mtgkb.core.progress import Progress
from mtgkb.importers.apply import apply_import, unwritable
from mtgkb.importers.cr_text import RuleRecord, RulesDocument, load_rules_file
from mtgkb.kb.iris import mint, rule_iri
from mtgkb.kb.vocab import RDF_TYPE, RDFS_LABEL, V


@dataclass
class RulesImportSummary:
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


def edition_file(date: str) -> Path:
    return imports_dir() / f"cr-{date}.nq.gz"


def import_rules(path: Path, progress: Progress | None = None) -> RulesImportSummary:
    """Import the Comprehensive Rules text at ``path`` and update the store.

    The whole file is parsed and checked before anything is written, so a wrong file leaves the
    imported data and the store exactly as they were.
    """
    path = Path(path)
    say = progress or (lambda message: None)
    say(f"parsing {path.name}")
    started = time.perf_counter()
    document = load_rules_file(path)
    parsed = time.perf_counter()
    say(
        f"parsed {len(document.numbered)} rules, {len(document.glossary)} glossary entries "
        f"(effective {document.effective_date})"
    )
    output = edition_file(document.effective_date)
    graph = mint("graph", "cr", document.effective_date)
    earlier = output.with_name(output.name.removesuffix(".gz"))  # as an earlier version wrote it
    replaced = output.exists() or earlier.exists()
    pending = PendingFiles()
    pending.replaces(earlier)
    try:
        try:
            with pending.write(output, compressed=True) as stream:
                writer = QuadWriter(stream, graph)
                references = write_edition(writer, document, str(path.resolve()))
        except OSError as error:
            raise unwritable(error) from error
        written = time.perf_counter()
        say(f"wrote {writer.count} quads to {output}")
        built = apply_import("rules", pending, progress)
    finally:
        pending.discard()
    return RulesImportSummary(
        source=str(path),
        edition=document.effective_date,
        output=str(output),
        graph=graph,
        rules=len(document.numbered),
        headings=len(document.rules) - len(document.numbered),
        glossary=len(document.glossary),
        references=references,
        quads=writer.count,
        replaced=replaced,
        parse_seconds=round(parsed - started, 3),
        write_seconds=round(written - parsed, 3),
        build_seconds=round(built.seconds, 3),
    )


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

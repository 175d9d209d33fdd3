"""The steps every card import shares once its input is read and checked: write each source's
N-Quads file (gzip-compressed) atomically into the imports folder, update the store, and sum up."""

from __future__ import annotations

import gc
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from mtgkb.core.collector import collector_paused
from mtgkb.core.errors import ImportFileError
from mtgkb.core.nquads import PendingFiles, QuadWriter, literal
from mtgkb.core.paths import imports_dir
from mtgkb.core.progress import Progress
from mtgkb.importers.apply import apply_import, unwritable
from mtgkb.importers.card_faces import write_melded_faces
from mtgkb.importers.card_iris import CardIris, KnownCards, assign_card_iris, replaced_iris
from mtgkb.importers.card_layouts import LayoutRules, prepare_records, read_layout_rules, rulings_to_pairs
from mtgkb.importers.card_model import CardImportSummary, CardRecord, RulingRecord
from mtgkb.importers.card_quads import CardCounts, write_cards, write_dataset, write_rulings
from mtgkb.importers.fields import BadRecord
from mtgkb.kb.iris import mint
from mtgkb.kb.vocab import PREFIXES

_NOT_A_CARD = "the combined back face of a meld pair, not a card (CR 712.4b): read into its melded face"
_DEPRECATED = PREFIXES["owl"] + "deprecated"
_REPLACED_BY = PREFIXES["dcterms"] + "isReplacedBy"


@dataclass
class GraphFile:
    """One named graph, written to imports/<graph>.nq.gz."""

    graph: str  # the slug under graph/ and the file's name, e.g. "mtgjson"
    label: str  # of the Dataset node
    source_file: Path
    cards: list[CardRecord] | None = None
    rulings: list[RulingRecord] | None = None
    melded: list[CardRecord] | None = None  # combined back faces of meld pairs, listed as cards


@dataclass
class Written:
    path: Path
    quads: int
    counts: CardCounts
    rulings: int
    rulings_without_card: int


def write_graph_file(
    part: GraphFile, nodes: CardIris, rules: LayoutRules, progress: Progress | None, pending: PendingFiles
) -> Written:
    """Write ``part`` to a temporary file in ``pending``, so a killed import leaves the previous file."""
    graph = mint("graph", part.graph)
    path = imports_dir() / f"{part.graph}.nq.gz"
    pending.replaces(imports_dir() / f"{part.graph}.nq")  # as an earlier version wrote it
    counts = CardCounts()
    rulings = without_card = 0
    with pending.write(path, compressed=True) as stream:
        writer = QuadWriter(stream, graph)
        records = len(part.cards or ()) + len(part.rulings or ())
        write_dataset(writer, graph, part.label, part.source_file.name, records)
        if part.cards is not None:
            counts = write_cards(part.cards, nodes, writer, progress, rules)
            for old, new in replaced_iris(nodes).items():
                writer.add(old, _DEPRECATED, literal(True))
                writer.add(old, _REPLACED_BY, f"<{new}>")
        if part.melded:
            counts.melded_faces = write_melded_faces(part.melded, rules, writer)
        if part.rulings is not None:
            rulings, without_card = write_rulings(part.rulings, nodes.iris, writer, progress)
    return Written(path, writer.count, counts, rulings, without_card)


#: What reading one record may raise. The checks in fields raise BadRecord with the field's name; a
#: value of a shape no check foresaw may still end in a TypeError or the like, and that must cost the
#: one record, not the import.
UNREADABLE = (BadRecord, TypeError, ValueError, KeyError, AttributeError, IndexError)


def refuse_mostly_unreadable(
    path: Path, unreadable: dict[str, str], total: int, expected: str, hint: str
) -> None:
    """A damaged record is left out and reported; a file whose records are mostly unreadable is
    refused whole, since it is more likely a file of another kind than a few damaged cards."""
    if unreadable and len(unreadable) * 2 > total:
        name, why = next(iter(unreadable.items()))
        raise ImportFileError(
            f"{path}: {len(unreadable):,} of {total:,} records cannot be read, e.g. {name!r}: {why}; "
            f"expected {expected}",
            hint,
        )


def finish_import(
    source: str,
    parts: list[GraphFile],
    started: float,
    progress: Progress | None,
    skipped_records: int = 0,
    rulings_without_card: int = 0,
    unreadable: dict[str, str] | None = None,
) -> CardImportSummary:
    """Write every part, update the store with them, and report what was imported (and which
    ``unreadable`` records were left out)."""
    pending = PendingFiles()
    try:
        with collector_paused():
            known, rules = store_context({mint("graph", part.graph) for part in parts})
            melded: list[CardRecord] = []
            for part in parts:
                if part.cards is not None:
                    part.cards, part.melded = prepare_records(part.cards, rules)
                    melded += part.melded
            records = [card for part in parts for card in part.cards or ()]
            for part in parts:
                if part.rulings is not None:
                    part.rulings = rulings_to_pairs(part.rulings, melded, records)
            nodes = assign_card_iris(records, known)
            skipped_names = {
                **(unreadable or {}),
                **{record.name: _NOT_A_CARD for record in melded},
                **nodes.merged,
            }
            if len(nodes.kept) < len(records):
                kept_ids = {id(card) for card in nodes.kept}
                for part in parts:
                    if part.cards is not None:
                        part.cards = [card for card in part.cards if id(card) in kept_ids]
            try:
                written = [write_graph_file(part, nodes, rules, progress, pending) for part in parts]
            except OSError as error:
                raise unwritable(error) from error
        # The records are written: let them go before the store is updated, which needs the memory.
        for part in parts:
            part.cards = part.rulings = part.melded = None
        del records, nodes, melded
        gc.collect()
        built = apply_import(source, pending, progress)
    finally:
        pending.discard()
    abilities = sum((result.counts.abilities for result in written), Counter())
    granted = sum((result.counts.granted for result in written), Counter())
    changing = sum((result.counts.changing for result in written), Counter())
    return CardImportSummary(
        source=source,
        files=[str(part.source_file) for part in parts],
        cards=sum(result.counts.cards for result in written),
        faces=sum(result.counts.faces for result in written),
        faces_known_only_by_name=sum(result.counts.faces_known_only_by_name for result in written),
        melded_faces=sum(result.counts.melded_faces for result in written),
        abilities=dict(sorted(abilities.items())),
        granted_abilities=dict(sorted(granted.items())),
        changing_abilities=dict(sorted(changing.items())),
        rulings=sum(result.rulings for result in written),
        rulings_without_card=rulings_without_card + sum(result.rulings_without_card for result in written),
        unresolved_partners=[pair for result in written for pair in result.counts.unresolved_partners],
        skipped_records=skipped_records + len(skipped_names),
        skipped_names=skipped_names,
        quads=sum(result.quads for result in written),
        outputs=[str(result.path) for result in written],
        store_triples=built.triples,
        seconds=round(time.perf_counter() - started, 2),
    )


def store_context(replaced: set[str]) -> tuple[KnownCards, LayoutRules]:
    """The card nodes of every source but the graphs this import replaces (the curated cards, the
    other card import), so the same card lands on the same node whichever source says it; and the
    curated layout rules and meld pairs."""
    from mtgkb.app import open_kb
    from mtgkb.kb.query_files import library_query

    known = KnownCards()
    kb = open_kb()
    rules = read_layout_rules(kb)
    # Only the other graphs are read, as the only named graphs the query sees: reading the replaced
    # pool's 30,000 cards to skip them took half a second, and so did binding ?g to the others.
    others = sorted(graph for graph in kb.meta.get("graphs", {}) if graph not in replaced)
    for row in kb.select(library_query("known-cards"), named_graphs=others):
        known.add(row["card"], row["name"], row["id"])
        known.add(row["card"], row["also"], None, primary=False)
    # The store is rebuilt next: let go of the old one's caches first.
    del kb
    gc.collect()
    return known, rules

"""The steps every card import shares once its input is read and checked: write each source's
N-Quads file atomically into the imports folder, rebuild the store, and sum up."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from mtgkb.importers.card_model import CardImportSummary, CardRecord, RulingRecord
from mtgkb.importers.card_quads import CardCounts, assign_card_iris, write_cards, write_dataset, write_rulings
from mtgkb.iris import mint
from mtgkb.nquads import QuadWriter, atomic_text_file
from mtgkb.paths import imports_dir
from mtgkb.progress import Progress


@dataclass
class GraphFile:
    """One imports/<file>.nq holding one named graph."""

    file_name: str  # "mtgjson.nq"
    graph: str  # the slug under graph/, e.g. "mtgjson"
    label: str  # of the Dataset node
    source_file: Path
    cards: list[CardRecord] | None = None
    rulings: list[RulingRecord] | None = None


@dataclass
class Written:
    path: Path
    quads: int
    counts: CardCounts
    rulings: int
    rulings_without_card: int


def write_graph_file(part: GraphFile, card_iris: dict[str, str], progress: Progress | None) -> Written:
    """Write ``part`` through a temporary file, so a killed import leaves the previous file."""
    graph = mint("graph", part.graph)
    path = imports_dir() / part.file_name
    counts = CardCounts()
    rulings = without_card = 0
    with atomic_text_file(path) as stream:
        writer = QuadWriter(stream, graph)
        records = len(part.cards or ()) + len(part.rulings or ())
        write_dataset(writer, graph, part.label, part.source_file.name, records)
        if part.cards is not None:
            counts = write_cards(part.cards, card_iris, writer, progress)
        if part.rulings is not None:
            rulings, without_card = write_rulings(part.rulings, card_iris, writer, progress)
    return Written(path, writer.count, counts, rulings, without_card)


def finish_import(
    source: str,
    files: list[Path],
    parts: list[GraphFile],
    started: float,
    progress: Progress | None,
    skipped_records: int = 0,
    rulings_without_card: int = 0,
) -> CardImportSummary:
    """Write every part, rebuild the store with them, and report what was imported."""
    from mtgkb.store import build

    records = [card for part in parts for card in part.cards or ()]
    kept, card_iris, skipped_names = assign_card_iris(records)
    if len(kept) < len(records):
        kept_ids = {id(card) for card in kept}
        for part in parts:
            if part.cards is not None:
                part.cards = [card for card in part.cards if id(card) in kept_ids]
    written = [write_graph_file(part, card_iris, progress) for part in parts]
    if progress:
        progress("rebuilding the store")
    built = build(progress=progress)
    abilities: dict[str, int] = {}
    granted: dict[str, int] = {}
    unresolved: list[str] = []
    for result in written:
        for mechanic, n in result.counts.abilities.items():
            abilities[mechanic] = abilities.get(mechanic, 0) + n
        for mechanic, n in result.counts.granted.items():
            granted[mechanic] = granted.get(mechanic, 0) + n
        unresolved += result.counts.unresolved_partners
    return CardImportSummary(
        source=source,
        files=[str(path) for path in files],
        cards=sum(result.counts.cards for result in written),
        faces=sum(result.counts.faces for result in written),
        abilities=dict(sorted(abilities.items())),
        granted_abilities=dict(sorted(granted.items())),
        rulings=sum(result.rulings for result in written),
        rulings_without_card=rulings_without_card + sum(result.rulings_without_card for result in written),
        unresolved_partners=unresolved,
        skipped_records=skipped_records + len(skipped_names),
        skipped_names=skipped_names,
        quads=sum(result.quads for result in written),
        outputs=[str(result.path) for result in written],
        store_triples=built.triples,
        seconds=round(time.perf_counter() - started, 2),
    )

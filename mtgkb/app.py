"""Opening and building the knowledge base with everything the reasoning layer derives from it.

The store (:mod:`mtgkb.kb.build`) takes its derivations as an argument so that it never imports the
layers above it; this module names them once. The CLI, the importers, tests and benchmarks open the
knowledge base here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgkb.kb import build as store_build
from mtgkb.kb.build import BuildSummary, Derivation

if TYPE_CHECKING:
    from mtgkb.core.progress import Progress
    from mtgkb.kb.sources import Source
    from mtgkb.kb.store import KnowledgeBase


def _partner_pairs(kb: KnowledgeBase) -> str:
    from mtgkb.reasoning.partner_graph import derive_pairs

    return derive_pairs(kb)


#: What every build derives, in order.
DERIVATIONS = (Derivation("the partner network", _partner_pairs),)


def open_kb(progress: Progress | None = None) -> KnowledgeBase:
    """Open the current store, building it first when a source changed or it is missing or broken."""
    return store_build.open_kb(progress, derivations=DERIVATIONS)


def build(
    sources: list[Source] | None = None, progress: Progress | None = None, force: bool = False
) -> BuildSummary:
    """Build a fresh store from ``sources`` (default: everything) and swap it in atomically."""
    return store_build.build(sources, progress, force, derivations=DERIVATIONS)

"""Text for fetch results: what was downloaded, then the import's own summary."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mtgkb.importers.fetch import FetchResult


def render_fetch(result: FetchResult) -> str:
    lines = [f"downloaded {d.url}\n  -> {d.path} ({d.bytes:,} bytes)" for d in result.downloads]
    if result.imported is not None:
        from mtgkb.importers.cr_import import RulesImportSummary

        if isinstance(result.imported, RulesImportSummary):
            from mtgkb.cli.render.rules import render_import

            lines.append(render_import(result.imported))
        else:
            from mtgkb.cli.render.imports_cards import render_card_import

            lines.append(render_card_import(result.imported))
    return "\n".join(lines)

"""Text for fetch results: what was downloaded, then the import's own summary."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgkb.output import render_text, renders

if TYPE_CHECKING:
    from mtgkb.fetch import FetchResult


@renders("mtgkb.fetch.FetchResult")
def render_fetch(result: FetchResult) -> str:
    lines = [f"downloaded {d.url}\n  -> {d.path} ({d.bytes:,} bytes)" for d in result.downloads]
    if result.imported is not None:
        lines.append(render_text(result.imported))
    return "\n".join(lines)

"""Text for ``mtgkb serve``: where it listens."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mtgkb.serve.server import ServeInfo


def render_serve(info: ServeInfo) -> str:
    megabytes = info.max_result_bytes // (1024 * 1024)
    return "\n".join(
        [
            f"mtgkb serving {info.triples:,} triples in {info.graphs} named graphs at {info.url}",
            f"  SPARQL endpoint  {info.sparql}",
            f"  JSON API         {info.api}",
            f"  explorer         {info.explorer}",
            f"  limits           {info.timeout:g} s a request, answers up to {megabytes} MB, "
            f"{info.workers} workers",
            "Ctrl-C stops.",
        ]
    )

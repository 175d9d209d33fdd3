"""Text for SPARQL results and the named-query catalogue."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mtgkb.cli.output import table

if TYPE_CHECKING:
    from mtgkb.kb.named_queries import QueryCatalogue
    from mtgkb.kb.sparql import SparqlResult


def render_result(result: SparqlResult) -> str:
    if result.serialized is not None:
        return result.serialized
    if result.form == "ask":
        return "true" if result.boolean else "false"
    if not result.variables:
        return "(no variables)"
    if not result.rows:
        return table(result.variables, []) + "\n(no rows)"
    return table(result.variables, result.rows)


def render_catalogue(result: QueryCatalogue) -> str:
    if not result.queries:
        return f"no named queries in {result.folder}"
    rows = []
    for query in result.queries:
        params = " ".join(_param_text(param.name, param.default, param.optional) for param in query.params)
        rows.append([query.name, query.title, params])
    return table(["name", "title", "params"], rows)


def _param_text(name: str, default: str | None, optional: bool) -> str:
    if default is not None:
        return f"?{name}={default}"
    return f"[?{name}]" if optional else f"?{name}"

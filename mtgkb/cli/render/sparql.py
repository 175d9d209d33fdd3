"""Text for SPARQL results and the named-query catalogue."""

from __future__ import annotations

import io
import itertools
from typing import TYPE_CHECKING, BinaryIO

from mtgkb.cli.output import table, table_lines

if TYPE_CHECKING:
    from mtgkb.kb.named_queries import QueryCatalogue
    from mtgkb.kb.sparql import SparqlResult

#: The table view sizes its columns from this many first rows, each at most this many characters
#: wide: the rows after them are written as they come, whatever their number.
TABLE_SAMPLE_ROWS = 1000
TABLE_MAX_WIDTH = 100


def write_result(result: SparqlResult, output: BinaryIO) -> None:
    """Write the answer's text to ``output`` as the store computes it (see mtgkb.cli.sparql)."""
    if result.write is not None:
        result.write(output)
        return
    if result.serialized is not None:
        output.write(result.serialized.encode("utf-8"))
        return
    if result.form == "ask":
        output.write(b"true\n" if result.boolean else b"false\n")
        return
    if not result.variables:
        output.write(b"(no variables)\n")
        return
    rows = iter(result.rows)
    first = next(rows, None)
    if first is None:
        output.write((table(result.variables, []) + "\n(no rows)\n").encode("utf-8"))
        return
    for line in table_lines(
        result.variables,
        itertools.chain([first], rows),
        sample=TABLE_SAMPLE_ROWS,
        max_width=TABLE_MAX_WIDTH,
    ):
        output.write(line.encode("utf-8", "replace") + b"\n")


def render_result(result: SparqlResult) -> str:
    """The whole answer as text, in memory."""
    buffer = io.BytesIO()
    write_result(result, buffer)
    return buffer.getvalue().decode("utf-8")


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

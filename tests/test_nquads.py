"""Importers write N-Quads by hand; whatever they write must parse back to the same values."""

from __future__ import annotations

import io

import pyoxigraph as ox
import pytest

from mtgkb.core.nquads import QuadWriter, literal


@pytest.mark.parametrize(
    "value",
    ["plain", 'quote " inside', "back\\slash", "new\nline\r\n\ttab", "Partner—Friends forever", "{2}{U}{B}"],
)
def test_literals_round_trip_through_an_nquads_parser(value: str) -> None:
    stream = io.StringIO()
    writer = QuadWriter(stream, "https://example.org/g")
    writer.add("https://example.org/s", "https://example.org/p", literal(value))
    (quad,) = ox.parse(stream.getvalue().encode(), format=ox.RdfFormat.N_QUADS)
    assert quad.object.value == value
    assert quad.graph_name.value == "https://example.org/g"
    assert writer.count == 1


def test_python_types_get_their_xsd_datatypes() -> None:
    assert literal(True).endswith("#boolean>")
    assert literal(3).endswith("#integer>")
    assert literal(2.5) == '"2.5"^^<http://www.w3.org/2001/XMLSchema#decimal>'

"""Importers write N-Quads by hand; whatever they write must parse back to the same values."""

from __future__ import annotations

import errno
import gzip
import io
from pathlib import Path

import pyoxigraph as ox
import pytest

from mtgkb.core.nquads import PendingFiles, QuadWriter, literal


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


def test_a_compressed_file_holds_every_line_in_order_and_the_same_text_gives_the_same_bytes(
    tmp_path: Path,
) -> None:
    """Compressed in another thread block by block (several blocks here), the file still holds the
    text as written, and writing the same text again gives the same bytes."""
    lines = [
        f'<https://example.org/s{i}> <https://example.org/p> "{"x" * (i % 50)}" .\n' for i in range(60_000)
    ]
    written = []
    for _ in range(2):
        pending = PendingFiles()
        with pending.write(tmp_path / "a.nq.gz", compressed=True) as stream:
            for line in lines:
                stream.write(line)
        pending.commit()
        written.append((tmp_path / "a.nq.gz").read_bytes())
    assert gzip.decompress(written[0]).decode("utf-8") == "".join(lines)
    assert written[0] == written[1]


def test_a_failed_write_of_a_compressed_file_reaches_the_writer_and_leaves_no_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills while another thread compresses: the writer gets the error, and nothing is left."""

    def disk_full(self: gzip.GzipFile, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(gzip.GzipFile, "write", disk_full)
    pending = PendingFiles()
    target = tmp_path / "c.nq.gz"
    with pytest.raises(OSError, match="No space"), pending.write(target, compressed=True) as stream:
        stream.write('<https://example.org/s> <https://example.org/p> "o" .\n' * 100_000)
    pending.discard()
    assert list(tmp_path.iterdir()) == []

"""Reading files, standard input and decompressed data with a limit on the bytes taken in.

``/dev/zero`` handed as a situation or a query, a symlink to it named ``query.rq``, a 2 MB gzip that
unpacks to 2 GB or a server that never stops sending would otherwise be read whole into memory. Every
input mtgkb reads whole goes through :func:`read_bounded` (or a caller of it) with the limit of its
kind, which stops one byte past the limit and says which input was too large and what the limit is.

The limits are far above any real input (the MTGJSON snapshot unpacks to 43 MB, Scryfall's oracle
cards to about 160 MB) and can be raised, for a card pool that grows, with the environment variable
named in :data:`LIMITS`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from mtgkb.core.errors import MtgkbError

#: kind -> (environment variable giving the limit in megabytes, default in megabytes, what it bounds)
LIMITS: dict[str, tuple[str, int, str]] = {
    "import": ("MTGKB_MAX_IMPORT_MB", 512, "a file handed to an importer, once unpacked"),
    "query": ("MTGKB_MAX_QUERY_MB", 16, "a SPARQL query read from a file or standard input"),
    "situation": ("MTGKB_MAX_SITUATION_MB", 4, "a situation file"),
    "page": ("MTGKB_MAX_PAGE_MB", 32, "a web page or listing read by 'mtgkb fetch'"),
    "download": ("MTGKB_MAX_DOWNLOAD_MB", 2048, "a file downloaded by 'mtgkb fetch'"),
    "answer": ("MTGKB_MAX_ANSWER_MB", 256, "the answer of a remote SPARQL endpoint"),
}
_CHUNK = 1 << 20
_MB = 1 << 20


class InputTooLarge(MtgkbError):
    """An input longer than the limit of its kind; nothing past the limit was read."""


def read_limit(kind: str) -> int:
    """The limit in bytes for inputs of ``kind`` (a key of :data:`LIMITS`), from its environment
    variable when that holds a positive number of megabytes."""
    variable, default, _ = LIMITS[kind]
    configured = os.environ.get(variable, "").strip()
    try:
        megabytes = float(configured) if configured else default
    except ValueError:
        megabytes = default
    if not megabytes > 0 or megabytes != megabytes:  # also refuses nan
        megabytes = default
    return int(megabytes * _MB)


def too_large(what: str, kind: str, limit: int | None = None) -> InputTooLarge:
    """The error for ``what`` (a file name, "standard input", a URL) going past the limit of ``kind``."""
    variable, _, described = LIMITS[kind]
    limit = read_limit(kind) if limit is None else limit
    return InputTooLarge(
        f"{what} is larger than {_size(limit)}, the most mtgkb reads of {described}; it was not read",
        f"check that this is the right input; a larger one needs {variable}=MEGABYTES in the environment",
    )


def read_bounded(stream: IO[bytes], what: str, kind: str, limit: int | None = None) -> bytes:
    """All of ``stream`` (a binary file, standard input's buffer, a gzip or HTTP stream), or
    :class:`InputTooLarge` as soon as it holds more than the limit of ``kind`` (or ``limit`` bytes)."""
    limit = read_limit(kind) if limit is None else limit
    parts: list[bytes] = []
    taken = 0
    while taken <= limit:
        piece = stream.read(min(_CHUNK, limit + 1 - taken))
        if not piece:
            return b"".join(parts)
        parts.append(piece)
        taken += len(piece)
    raise too_large(what, kind, limit)


def read_file_bounded(path: Path, kind: str, what: str | None = None) -> bytes:
    """The bytes of the file at ``path`` (followed if a symlink: it may be a device such as
    ``/dev/zero``, whose size says nothing), at most the limit of ``kind``. OSError as ``open`` raises
    it; a NUL in the name is ValueError."""
    with open(path, "rb") as stream:
        return read_bounded(stream, what or str(path), kind)


def _size(count: int) -> str:
    if count >= _MB and count % _MB == 0:
        return f"{count // _MB:,} MB"
    if count >= _MB:
        return f"{count / _MB:,.1f} MB"
    return f"{count:,} bytes"

"""Reading a JSON dump handed to an importer (plain or gzip), with a clear error for anything else:
an image, an archive, text that is not JSON, JSON that stops short."""

from __future__ import annotations

import gzip
import itertools
import json
import zlib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mtgkb.core.bounded import read_bounded
from mtgkb.core.errors import ImportFileError

# Leading bytes of files people hand us by mistake.
_MAGIC = (
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"RIFF", "a RIFF (WebP/WAV) file"),
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a zip archive (unzip it first)"),
    (b"BZh", "a bzip2 archive (decompress it first)"),
    (b"\xfd7zXZ", "an xz archive (decompress it first)"),
    (b"7z\xbc\xaf", "a 7-zip archive (decompress it first)"),
)


def read_json(path: Path, expected: str, hint: str) -> Any:
    """The parsed JSON in ``path`` (gzip-compressed or not). ``expected`` describes the file the
    importer wants ("an MTGJSON AtomicCards file"); every failure names the file and that."""
    try:
        raw = _read_unpacked(path)
    except IsADirectoryError:
        raise ImportFileError(f"{path} is a folder, not {expected}", hint) from None
    except FileNotFoundError:
        raise ImportFileError(f"no file {path}", hint) from None
    except OSError as error:
        raise ImportFileError(f"cannot read {path}: {error.strerror or error}", hint) from error
    except (EOFError, zlib.error) as error:
        raise ImportFileError(
            f"{path} is a damaged or truncated gzip file ({error}); expected {expected}", hint
        ) from error
    for magic, kind in _MAGIC:
        if raw.startswith(magic):
            raise ImportFileError(f"{path} is {kind}, not {expected}", hint)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ImportFileError(
            f"{path} is not UTF-8 text ({error.reason}); expected {expected}", hint
        ) from None
    del raw
    if not text.strip():
        raise ImportFileError(f"{path} is empty; expected {expected}", hint)
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        # An unterminated string can only end at the end of the text: the file was cut short.
        at_end = error.pos >= len(text.rstrip()) - 1 and error.msg != "Extra data"
        if at_end or error.msg.startswith("Unterminated string"):
            problem = "stops before the JSON is complete (truncated?)"
        else:
            problem = f"is not valid JSON ({error.msg} at line {error.lineno}, column {error.colno})"
        raise ImportFileError(f"{path} {problem}; expected {expected}", hint) from None


def _read_unpacked(path: Path) -> bytes:
    """The file's bytes, unpacked when it is gzip-compressed, read up to the "import" limit whether
    packed or not: a small gzip that unpacks to gigabytes stops at the limit, not at the memory's end."""
    with open(path, "rb") as raw:
        packed = raw.read(2) == b"\x1f\x8b"
        raw.seek(0)
        if not packed:
            return read_bounded(raw, str(path), "import")
        try:
            with gzip.GzipFile(fileobj=raw) as unpacked:
                return read_bounded(unpacked, f"{path} (unpacked)", "import")
        except gzip.BadGzipFile as error:
            raise zlib.error(str(error)) from error


def require_kind(
    document: Any, path: Path, wanted: str, expected: str, hint: str, advice: Mapping[str, str]
) -> None:
    """Refuse ``document`` unless :func:`describe_json` calls it ``wanted``. ``advice`` maps the start
    of another kind's description ("an MTGJSON") to what to do with such a file instead of ``hint``."""
    kind = describe_json(document)
    if kind == wanted:
        return
    if kind is not None:
        hint = next((text for start, text in advice.items() if kind.startswith(start)), hint)
    raise ImportFileError(f"{path} is {kind or 'JSON of another kind'}, not {expected}", hint)


def describe_json(document: Any) -> str | None:
    """A short name for the kind of card-data JSON ``document`` is, when we recognise it."""
    if isinstance(document, dict):
        data = document.get("data")
        if document.get("object") == "list" and isinstance(data, list):
            return describe_json(data)
        if isinstance(data, dict) and "meta" in document:
            if isinstance(data.get("cards"), list):
                return "an MTGJSON set file"
            # Keywords.json holds lists too, so it is told apart before AtomicCards by its keys.
            if {"abilityWords", "keywordAbilities"} & set(data):
                return "an MTGJSON Keywords file"
            for sample in itertools.islice(data.values(), _SAMPLED):
                if isinstance(sample, list):
                    return "an MTGJSON AtomicCards file"
                if isinstance(sample, dict) and "cards" in sample:
                    return "an MTGJSON AllPrintings file"
            return "an MTGJSON file"
        if isinstance(document.get("cards"), list):
            return "a card list"
        if "Rules" in document or "EffectiveDate" in document:
            return "a Comprehensive Rules JSON file"
        return None
    if isinstance(document, list):
        for first in itertools.islice(document, _SAMPLED):
            if not isinstance(first, dict):
                continue
            if first.get("object") == "ruling" or {"published_at", "comment"} <= set(first):
                return "a Scryfall rulings file"
            if "name" in first and ("type_line" in first or "card_faces" in first):
                return "a Scryfall card file"
    return None


# The kind is told by the first records that say it, so one damaged record at the head of a file does
# not make the whole file look like another kind.
_SAMPLED = 20

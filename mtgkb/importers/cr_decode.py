"""The bytes of a Comprehensive Rules edition as text: which encoding and which line endings it has.

The archived editions since 2003 come as UTF-8 with or without a byte-order mark, Windows-1252,
Latin-1 and UTF-16 in both byte orders, with CRLF, bare CR or both in one file. The encoding is
decided from the bytes alone (a byte-order mark, the zero bytes of UTF-16, strict UTF-8, then the
single-byte code pages), and a file that decodes only by accident (UTF-8 with damaged bytes read as
Windows-1252, UTF-16 cut in the middle of a character) is refused rather than imported as mojibake.
"""

from __future__ import annotations

from dataclasses import dataclass

from mtgkb.core.errors import ImportFileError

HINT = (
    "expected a Comprehensive Rules .txt file as Wizards of the Coast publishes it "
    "(MagicCompRules YYYYMMDD.txt, from https://magic.wizards.com/en/rules)"
)

#: Bytes Windows-1252 leaves undefined; a file with them is Latin-1 (or not text).
_CP1252_HOLES = frozenset(b"\x81\x8d\x8f\x90\x9d")
#: What UTF-8 punctuation looks like read as Windows-1252: a UTF-8 file with a damaged byte.
_MOJIBAKE = ("\u00e2\u20ac", "\u00c3\u00a2", "\u00c2\u00a0", "\u00c3\u00a9")


@dataclass(frozen=True)
class DecodedText:
    text: str  # line endings made "\n"
    encoding: str  # "utf-8", "utf-8-sig", "cp1252", "latin-1", "utf-16-le", "utf-16-be"
    line_endings: str  # "crlf", "cr", "lf", "mixed" or "none"


def not_rules_error(source: str, reason: str) -> ImportFileError:
    return ImportFileError(f"{source} is not a Comprehensive Rules text file: {reason}", HINT)


def decode_edition(data: bytes, source: str) -> DecodedText:
    """Decode an edition's bytes; :class:`ImportFileError` says why they are not CR text."""
    head = data[:4096]
    if head.startswith((b"\x89PNG", b"\xff\xd8\xff", b"GIF8", b"%PDF", b"PK\x03\x04", b"\x1f\x8b")):
        raise not_rules_error(source, "it is a binary file (an image, PDF or archive)")
    encoding = _utf16_order(data)
    if encoding:
        text = _decode_utf16(data, encoding, source)
    elif data.startswith(b"\xef\xbb\xbf"):
        encoding = "utf-8-sig"
        text = _strict(data[3:], "utf-8", source)
    else:
        if b"\x00" in head:
            raise not_rules_error(source, "it is a binary file")
        try:
            text, encoding = data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError as error:
            text, encoding = _single_byte(data, source, error.start)
    if "\x00" in text:
        raise not_rules_error(source, "it holds zero bytes (a binary or wrongly encoded file)")
    return DecodedText(normalise_newlines(text), encoding, line_endings(text))


def _utf16_order(data: bytes) -> str | None:
    if data.startswith(b"\xff\xfe"):
        return "utf-16-le"
    if data.startswith(b"\xfe\xff"):
        return "utf-16-be"
    sample = data[:2048]
    if len(sample) < 4:
        return None
    # English text in UTF-16 without a mark: every other byte is zero.
    even, odd = sample[0::2].count(0), sample[1::2].count(0)
    half = len(sample) // 2
    if odd > 0.9 * half and even < 0.1 * half:
        return "utf-16-le"
    if even > 0.9 * half and odd < 0.1 * half:
        return "utf-16-be"
    return None


def _decode_utf16(data: bytes, encoding: str, source: str) -> str:
    body = data[2:] if data[:2] in (b"\xff\xfe", b"\xfe\xff") else data
    if len(body) % 2:
        raise not_rules_error(
            source, f"it is not UTF-8, nor {encoding.upper()} (an odd number of bytes: truncated?)"
        )
    return _strict(body, encoding, source)


def _strict(data: bytes, encoding: str, source: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        raise not_rules_error(
            source, f"it is not valid {encoding.upper()} (byte {error.start}), nor UTF-8"
        ) from error


def _single_byte(data: bytes, source: str, bad_at: int) -> tuple[str, str]:
    encoding = "latin-1" if _CP1252_HOLES.intersection(data) else "cp1252"
    text = data.decode(encoding)
    if any(sign in text for sign in _MOJIBAKE):
        raise not_rules_error(source, f"it is UTF-8 with damaged bytes (byte {bad_at} is not UTF-8)")
    controls = sum(1 for ch in text[:65536] if ch < " " and ch not in "\r\n\t\f")
    if controls > 8:
        raise not_rules_error(source, "it is not text (control characters throughout)")
    return text, encoding


def line_endings(text: str) -> str:
    crlf = text.count("\r\n")
    cr, lf = text.count("\r") - crlf, text.count("\n") - crlf
    kinds = [name for name, count in (("crlf", crlf), ("cr", cr), ("lf", lf)) if count]
    return kinds[0] if len(kinds) == 1 else ("mixed" if kinds else "none")


def normalise_newlines(text: str) -> str:
    # The published file ends its lines with CR CR LF; read as CR + CRLF that would double every
    # line break and split glossary entries apart, so that sequence is one break.
    return text.lstrip("\ufeff").replace("\r\r\n", "\n").replace("\r\n", "\n").replace("\r", "\n")

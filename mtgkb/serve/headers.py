"""The security headers every response of ``mtgkb serve`` carries, whoever writes it: the application,
the request guard's refusals (:mod:`mtgkb.serve.guard`) and the HTTP protocol's own answers.

- ``Content-Security-Policy``: the page may load scripts, styles, images and fonts from this server
  only, and connect to nothing else (so a query cannot go to another endpoint); no inline script or
  handler runs, no ``<base>`` may move it, forms post here only, and no other page may frame it.
- ``X-Frame-Options: DENY``: the same refusal to be framed, for browsers that read no CSP.
- ``X-Content-Type-Options: nosniff``: a JSON or text answer is never run as a script or a page.
- ``Referrer-Policy: no-referrer``: a link followed from the page does not tell where it came from.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

#: The three stylesheets the vendored libraries write into the page themselves, allowed by their
#: SHA-256 (so ``style-src`` needs no 'unsafe-inline'): cytoscape's
#: ".__________cytoscape_container { position: relative; }", and the rules of the column resizer of
#: YASGUI's results table (" .grip-resizable{table-layout:fixed;} …") with the cursor it sets while a
#: column is dragged ("*{cursor:col-resize!important}"). A new version that writes other text shows
#: as a CSP violation in tests/test_serve_explorer_hostile.py.
LIBRARY_STYLE_HASHES = (
    "sha256-pgvDUBa4IjFA2yuSJ2cqcyxmNYJMborsd0ORcRv9vw8=",
    "sha256-zCK2EVMoPc04mRF/g5CotUvxbJPWS+8V0b+s9ptqQIk=",
    "sha256-c0O6TmFAkgpNbHxKAa1BrveWHHopjEtC47i0PzMudxg=",
)
_STYLES = " ".join(f"'{digest}'" for digest in LIBRARY_STYLE_HASHES)
#: ``img-src data:``: the editor (CodeMirror) drags selected text with a data: image.
CONTENT_SECURITY_POLICY = (
    f"default-src 'none'; script-src 'self'; style-src 'self' {_STYLES}; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode("ascii")),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
_NAMES = frozenset(name for name, _ in SECURITY_HEADERS)


def with_security_headers(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` (ASGI or h11 pairs, names in any case) with the security headers in place of any
    of the same names."""
    kept = [(name, value) for name, value in headers if name.lower() not in _NAMES]
    return kept + list(SECURITY_HEADERS)


Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


def sending_security_headers(send: Send) -> Send:
    """An ASGI ``send`` that adds the security headers to the response's start, then calls ``send``."""

    async def secured(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": with_security_headers(list(message.get("headers", [])))}
        await send(message)

    return secured

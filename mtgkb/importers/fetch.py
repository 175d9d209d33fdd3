"""Download the official published files into the user's data directory, then import them.

The Comprehensive Rules text is linked from the Wizards of the Coast rules page; Scryfall's oracle cards
and rulings are found through its bulk-data listing. Each download goes to a ``.part`` file that is
renamed into place when complete, so an interrupted download never leaves a truncated file behind.
"""

from __future__ import annotations

import json
import os
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from mtgkb import __version__
from mtgkb.core.errors import MtgkbError
from mtgkb.core.paths import data_dir
from mtgkb.core.progress import Progress

RULES_PAGE = "https://magic.wizards.com/en/rules"
SCRYFALL_BULK_DATA = "https://api.scryfall.com/bulk-data"
_USER_AGENT = f"mtgkb/{__version__} (rules knowledge tool)"
_CHUNK = 1 << 16

#: Called with (bytes so far, total bytes or None, file name).
DownloadProgress = Callable[[int, int | None, str], None]


@dataclass
class Download:
    url: str
    path: str
    bytes: int


@dataclass
class FetchResult:
    downloads: list[Download] = field(default_factory=list)
    imported: object = None


def downloads_dir() -> Path:
    return data_dir() / "downloads"


def _open(url: str, accept: str):
    request = urllib.request.Request(url, headers={"User-Agent": _USER_AGENT, "Accept": accept})
    try:
        return urllib.request.urlopen(request, timeout=60)
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise MtgkbError(
            f"cannot download {url}: {reason}",
            "check the network connection, or import a file you already have with 'mtgkb import'",
        ) from error


def download(url: str, target: Path, progress: DownloadProgress | None = None) -> Download:
    """Stream ``url`` to ``target`` through a temporary ``.part`` file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    with _open(url, "*/*") as response:
        length = response.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        received = 0
        try:
            with open(partial, "wb") as out:
                while chunk := response.read(_CHUNK):
                    out.write(chunk)
                    received += len(chunk)
                    if progress:
                        progress(received, total, target.name)
                out.flush()
                os.fsync(out.fileno())
        except BaseException:
            partial.unlink(missing_ok=True)
            raise
    if total is not None and received != total:
        partial.unlink(missing_ok=True)
        raise MtgkbError(f"the download of {url} stopped after {received} of {total} bytes", "try again")
    os.replace(partial, target)
    return Download(url, str(target), received)


def _read_text(url: str, accept: str) -> str:
    with _open(url, accept) as response:
        return response.read().decode("utf-8", errors="replace")


def find_rules_text_url(page_url: str = RULES_PAGE) -> str:
    """The newest Comprehensive Rules .txt linked from the rules page (or ``page_url`` itself when it
    already names a .txt file)."""
    if urllib.parse.urlparse(page_url).path.lower().endswith(".txt"):
        return page_url
    page = _read_text(page_url, "text/html")
    links = re.findall(r"""href=["']([^"']*MagicCompRules[^"']*\.txt)["']""", page, flags=re.IGNORECASE)
    if not links:
        raise MtgkbError(
            f"the rules page {page_url} links no Comprehensive Rules .txt file",
            "pass the file's address with --url, or import a downloaded copy with 'mtgkb import rules FILE'",
        )
    return urllib.parse.urljoin(page_url, links[0])


def fetch_rules(
    page_url: str = RULES_PAGE,
    download_progress: DownloadProgress | None = None,
    progress: Progress | None = None,
) -> FetchResult:
    """Download the Comprehensive Rules text linked from ``page_url`` and import it."""
    from mtgkb.importers.cr_import import import_rules

    url = find_rules_text_url(page_url)
    name = urllib.parse.unquote(url.rsplit("/", 1)[-1]).replace(" ", "") or "MagicCompRules.txt"
    fetched = download(url, downloads_dir() / name, download_progress)
    return FetchResult([fetched], import_rules(Path(fetched.path), progress=progress))


def scryfall_bulk_files(listing_url: str = SCRYFALL_BULK_DATA) -> dict[str, str]:
    """Map of bulk-data type ("oracle_cards", "rulings", …) to its download address."""
    try:
        listing = json.loads(_read_text(listing_url, "application/json"))
        return {item["type"]: item["download_uri"] for item in listing["data"]}
    except (ValueError, KeyError, TypeError) as error:
        raise MtgkbError(
            f"{listing_url} is not a Scryfall bulk-data listing", "pass the listing's address with --url"
        ) from error


def fetch_cards(
    listing_url: str = SCRYFALL_BULK_DATA,
    download_progress: DownloadProgress | None = None,
    progress: Progress | None = None,
) -> FetchResult:
    """Download the oracle cards (and the rulings, when listed) of the Scryfall bulk-data listing at
    ``listing_url`` and import them."""
    from mtgkb.importers.scryfall import import_scryfall

    files = scryfall_bulk_files(listing_url)
    if "oracle_cards" not in files:
        raise MtgkbError(f"the bulk-data listing at {listing_url} has no oracle_cards file")
    cards = download(files["oracle_cards"], downloads_dir() / "scryfall-oracle-cards.json", download_progress)
    result = FetchResult([cards])
    rulings_path = None
    if "rulings" in files:
        rulings = download(files["rulings"], downloads_dir() / "scryfall-rulings.json", download_progress)
        result.downloads.append(rulings)
        rulings_path = Path(rulings.path)
    result.imported = import_scryfall(Path(cards.path), rulings_path=rulings_path, progress=progress)
    return result

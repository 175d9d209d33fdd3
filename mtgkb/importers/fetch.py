"""Download the official published files into the user's data directory, then import them.

The Comprehensive Rules text is linked from the Wizards of the Coast rules page; Scryfall's oracle cards
and rulings are found through its bulk-data listing. Neither the page nor the listing is trusted:

- a download goes only into the downloads folder, under a name made safe from the address (no folder
  separators, no ``..``, no control characters, bounded length), and the final path is checked to be
  in that folder; links and listed addresses must be http(s) (a ``file:`` address is refused, as a
  redirect to one is);
- each file is downloaded into a private folder beside the downloads and moved into place only once
  it is complete and its import succeeded, so a failed download or import never replaces a file
  already there;
- pages and listings are read up to the "page" limit, downloads up to the "download" limit
  (:mod:`mtgkb.core.bounded`), and the whole of the network work stops at ``timeout`` seconds
  however slowly the server sends.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import shutil
import tempfile
import unicodedata
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mtgkb import __version__
from mtgkb.core.bounded import read_limit, too_large
from mtgkb.core.errors import MtgkbError, shown
from mtgkb.core.http_client import Deadline, check_web_url, open_response, read_body, timed_out
from mtgkb.core.nquads import process_alive
from mtgkb.core.paths import data_dir
from mtgkb.core.progress import Progress

RULES_PAGE = "https://magic.wizards.com/en/rules"
SCRYFALL_BULK_DATA = "https://api.scryfall.com/bulk-data"
#: Seconds all the downloads of one fetch may take, unless --timeout says otherwise.
DEFAULT_TIMEOUT = 1800.0
#: Seconds one read from the server may wait for data: a stalled connection is given up sooner.
_STALL = 60.0
_USER_AGENT = f"mtgkb/{__version__} (rules knowledge tool)"
_CHUNK = 1 << 16
_HINT = "check the network connection, or import a file you already have with 'mtgkb import'"
#: Longest file name a download is given (most file systems take 255 bytes).
_NAME_LENGTH = 120

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


def safe_name(url: str, fallback: str) -> str:
    """A file name for the download of ``url``: its last path segment, unquoted, with every character
    that is not a letter, digit, ``.``, ``-`` or ``_`` made ``-``, no leading dots and at most
    :data:`_NAME_LENGTH` characters; ``fallback`` when nothing usable is left."""
    path = urllib.parse.urlsplit(url).path
    segment = urllib.parse.unquote(path.rsplit("/", 1)[-1])
    segment = unicodedata.normalize("NFKC", segment).replace(" ", "")
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", segment).lstrip(".-")
    cleaned = re.sub(r"\.{2,}", ".", cleaned)
    if len(cleaned) > _NAME_LENGTH:  # cut the stem, keeping a short suffix such as ".txt"
        _, dot, suffix = cleaned.rpartition(".")
        kept = dot + suffix if dot and len(suffix) <= 10 else ""
        cleaned = cleaned[: _NAME_LENGTH - len(kept)] + kept
    return cleaned or fallback


def download_path(name: str) -> Path:
    """The place of ``name`` in the downloads folder, checked to be directly inside it."""
    folder = downloads_dir().resolve()
    target = (folder / name).resolve()
    if target.parent != folder or name in ("", ".", ".."):
        raise MtgkbError(f"refusing to write the download '{shown(name)}' outside {folder}")
    return target


class _Staging:
    """Files downloaded into a private folder beside the downloads, moved into place together by
    :meth:`commit` once they are accepted; whatever was not committed is removed at the end."""

    def __init__(self) -> None:
        folder = downloads_dir()
        folder.mkdir(parents=True, exist_ok=True)
        _remove_abandoned(folder)
        self.folder = Path(tempfile.mkdtemp(prefix=f"{_STAGING}{os.getpid()}-", dir=folder))
        self._files: list[tuple[Path, Path]] = []

    def place(self, name: str) -> Path:
        final = download_path(name)
        staged = self.folder / final.name
        self._files.append((staged, final))
        return staged

    def commit(self, downloads: list[Download]) -> list[Download]:
        """Move every staged file into place; ``downloads`` (of the staged files) as they now are."""
        finals = {str(staged): final for staged, final in self._files}
        for staged, final in self._files:
            os.replace(staged, final)
        self._files = []
        return [Download(d.url, str(finals.get(d.path, d.path)), d.bytes) for d in downloads]

    def discard(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


_STAGING = ".incoming-"


def _remove_abandoned(folder: Path) -> None:
    """Staging folders of fetches that were killed (their process is gone)."""
    for path in folder.glob(f"{_STAGING}*-*"):
        pid = path.name.removeprefix(_STAGING).partition("-")[0]
        if pid.isdigit() and not process_alive(int(pid)) and path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)


def _request(url: str, accept: str) -> urllib.request.Request:
    return urllib.request.Request(url, headers={"User-Agent": _USER_AGENT, "Accept": accept})


@contextlib.contextmanager
def _opened(url: str, accept: str, deadline: Deadline) -> Iterator[Any]:
    check_web_url(url)
    try:
        with open_response(_request(url, accept), deadline, url, _HINT, stall=_STALL) as response:
            yield response
    except urllib.error.HTTPError as error:
        raise MtgkbError(f"cannot download {shown(url, 200)}: {error.code} {error.reason}", _HINT) from None
    except MtgkbError as error:
        if error.message.startswith("cannot reach "):
            error.message = "cannot download " + error.message.removeprefix("cannot reach ")
        raise


def download(
    url: str, target: Path, progress: DownloadProgress | None = None, deadline: Deadline | None = None
) -> Download:
    """Stream ``url`` to ``target`` (a new file, at most the "download" read limit)."""
    deadline = deadline or Deadline(None)
    limit = read_limit("download")
    with _opened(url, "*/*", deadline) as response:
        length = response.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        if total is not None and total > limit:
            raise too_large(f"the download of {shown(url, 200)}", "download")
        received = 0
        try:
            with open(target, "xb") as out:
                while chunk := response.read(_CHUNK):
                    received += len(chunk)
                    if received > limit:
                        raise too_large(f"the download of {shown(url, 200)}", "download")
                    out.write(chunk)
                    if progress:
                        progress(received, total, target.name)
                out.flush()
                os.fsync(out.fileno())
        except (OSError, http.client.HTTPException) as error:  # HTTPException: the server stopped early
            if deadline.expired():
                raise timed_out(deadline, f"the download of {shown(url, 200)}") from None
            raise MtgkbError(f"the download of {shown(url, 200)} failed: {error}", "try again") from None
    if deadline.passed:
        raise timed_out(deadline, f"the download of {shown(url, 200)}")
    if total is not None and received != total:
        raise MtgkbError(f"the download of {url} stopped after {received} of {total} bytes", "try again")
    return Download(url, str(target), received)


def _read_text(url: str, accept: str, deadline: Deadline) -> str:
    with _opened(url, accept, deadline) as response:
        body = read_body(response, shown(url, 200), "page", deadline)
    return body.decode("utf-8", errors="replace")


def find_rules_text_url(page_url: str = RULES_PAGE, deadline: Deadline | None = None) -> str:
    """The newest Comprehensive Rules .txt linked from the rules page (or ``page_url`` itself when it
    already names a .txt file). A link to anything but an http(s) address is refused."""
    check_web_url(page_url, "the rules page")
    if urllib.parse.urlsplit(page_url).path.lower().endswith(".txt"):
        return page_url
    page = _read_text(page_url, "text/html", deadline or Deadline(None))
    links = re.findall(r"""href=["']([^"']*MagicCompRules[^"']*\.txt)["']""", page, flags=re.IGNORECASE)
    if not links:
        raise MtgkbError(
            f"the rules page {page_url} links no Comprehensive Rules .txt file",
            "pass the file's address with --url, or import a downloaded copy with 'mtgkb import rules FILE'",
        )
    link = urllib.parse.urljoin(page_url, links[0].strip())
    check_web_url(link, "the rules page's link")
    return link


def fetch_rules(
    page_url: str = RULES_PAGE,
    download_progress: DownloadProgress | None = None,
    progress: Progress | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> FetchResult:
    """Download the Comprehensive Rules text linked from ``page_url`` and import it; the file is put
    in the downloads folder once the import accepted it."""
    from mtgkb.importers.cr_import import import_rules

    deadline = Deadline(timeout)
    url = find_rules_text_url(page_url, deadline)
    staging = _Staging()
    try:
        staged = download(
            url, staging.place(safe_name(url, "MagicCompRules.txt")), download_progress, deadline
        )
        imported = import_rules(Path(staged.path), progress=progress)
        return FetchResult(staging.commit([staged]), _renamed(imported, staging))
    finally:
        staging.discard()


def scryfall_bulk_files(
    listing_url: str = SCRYFALL_BULK_DATA, deadline: Deadline | None = None
) -> dict[str, str]:
    """Map of bulk-data type ("oracle_cards", "rulings", …) to its download address (each an http(s)
    address: anything else in the listing is refused)."""
    check_web_url(listing_url, "the bulk-data listing")
    try:
        listing = json.loads(_read_text(listing_url, "application/json", deadline or Deadline(None)))
        files = {item["type"]: item["download_uri"] for item in listing["data"]}
    except (ValueError, KeyError, TypeError) as error:
        raise MtgkbError(
            f"{listing_url} is not a Scryfall bulk-data listing", "pass the listing's address with --url"
        ) from error
    for kind, address in files.items():
        if kind in ("oracle_cards", "rulings"):
            if not isinstance(address, str):
                raise MtgkbError(f"the bulk-data listing at {listing_url} gives no address for {kind}")
            check_web_url(address, f"the listing's address for {kind}")
    return files


def fetch_cards(
    listing_url: str = SCRYFALL_BULK_DATA,
    download_progress: DownloadProgress | None = None,
    progress: Progress | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> FetchResult:
    """Download the oracle cards (and the rulings, when listed) of the Scryfall bulk-data listing at
    ``listing_url`` and import them; the files are put in the downloads folder once the import
    accepted them."""
    from mtgkb.importers.scryfall import import_scryfall

    deadline = Deadline(timeout)
    files = scryfall_bulk_files(listing_url, deadline)
    if "oracle_cards" not in files:
        raise MtgkbError(f"the bulk-data listing at {listing_url} has no oracle_cards file")
    staging = _Staging()
    try:
        names = {"oracle_cards": "scryfall-oracle-cards.json", "rulings": "scryfall-rulings.json"}
        staged = [
            download(files[kind], staging.place(name), download_progress, deadline)
            for kind, name in names.items()
            if kind in files
        ]
        rulings = Path(staged[1].path) if len(staged) > 1 else None
        imported = import_scryfall(Path(staged[0].path), rulings_path=rulings, progress=progress)
        return FetchResult(staging.commit(staged), _renamed(imported, staging))
    finally:
        staging.discard()


def _renamed(summary: Any, staging: _Staging) -> Any:
    """The import summary naming the downloaded files where they now are, not where they were staged."""
    folder = str(staging.folder)
    for name in ("source", "files"):
        value = getattr(summary, name, None)
        if isinstance(value, str):
            setattr(summary, name, value.replace(folder, str(downloads_dir())))
        elif isinstance(value, list):
            setattr(summary, name, [v.replace(folder, str(downloads_dir())) for v in value])
    return summary

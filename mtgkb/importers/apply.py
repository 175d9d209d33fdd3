"""How an import is applied: its files renamed into the data directory together, then the store
updated with them (only their graphs are replaced, see mtgkb.kb.build). Once the files are in place
the import is applied (the store is only a cache of them), so Ctrl-C after that point says so; Ctrl-C
before it leaves the data directory as it was."""

from __future__ import annotations

from mtgkb.app import build
from mtgkb.core.errors import Interrupted, MtgkbError, StoreError
from mtgkb.core.nquads import PendingFiles
from mtgkb.core.paths import imports_dir
from mtgkb.core.progress import Progress
from mtgkb.kb.build import BuildSummary


def apply_import(source: str, pending: PendingFiles, progress: Progress | None) -> BuildSummary:
    """Put the written files of ``pending`` in place and update the store with them."""
    files = pending.targets
    try:
        try:
            pending.commit()
        except OSError as error:
            raise unwritable(error) from error
        if progress:
            progress("updating the store")
        try:
            return build(progress=progress)
        except StoreError as error:
            shown = ", ".join(str(path) for path in files)
            raise StoreError(
                f"{error.message}; the {source} import is saved in {shown}",
                f"{error.hint}; the store is updated with it on the next command",
            ) from error
    except KeyboardInterrupt:
        if not pending.committed:
            raise Interrupted("nothing was imported; the data directory is as it was") from None
        shown = ", ".join(str(path) for path in files)
        raise Interrupted(
            f"while updating the store; the {source} import is applied (saved in {shown})",
            "the store is updated with it on the next command",
        ) from None


def unwritable(error: OSError) -> MtgkbError:
    return MtgkbError(
        f"cannot write the imported data to {imports_dir()}: {error.strerror or error}",
        "check free space and permissions, or set MTGKB_DATA_DIR to a writable folder",
    )

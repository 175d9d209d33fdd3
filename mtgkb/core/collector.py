"""Python's cyclic garbage collector, paused while an import makes its records."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """No cyclic collection in the block. Reading and writing a card pool makes millions of objects
    (lists, dicts, records) that form no cycles, and the collector went over all of them again and
    again as they accumulated: a second of the full pool's import. Objects are still freed when their
    last reference goes; a cycle made in the block waits for the first collection after it."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()

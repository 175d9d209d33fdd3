"""Imports pause Python's cyclic collector while they make their records (mtgkb.core.collector)."""

from __future__ import annotations

import gc

import pytest

from mtgkb.core.collector import collector_paused


def test_the_collector_is_paused_in_the_block_and_running_after_it_even_after_an_error() -> None:
    assert gc.isenabled()
    with pytest.raises(ValueError), collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # an import inside another's pause: the outer one resumes it
            assert not gc.isenabled()
        assert not gc.isenabled()
        raise ValueError
    assert gc.isenabled()

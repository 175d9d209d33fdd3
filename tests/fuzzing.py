"""Hypothesis profiles and helpers shared by the fuzz tests (tests/test_fuzz_*.py).

``MTGKB_FUZZ_PROFILE=soak`` runs each target for many more examples (``MTGKB_FUZZ_EXAMPLES``,
default 100,000, or 200 per round in a timed soak); the default profile keeps the whole suite's run
short. ``MTGKB_FUZZ_SECONDS`` makes a soak run last: each fuzz test runs again and again, a round of
``MTGKB_FUZZ_EXAMPLES`` cases from a fresh random start each time, until that many seconds have
passed (see ``tests/conftest.py``, which also reports the cases tried). Every case runs under a time
limit, so a hang fails the case instead of the run.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
from collections.abc import Iterator
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

settings.register_profile(
    "default",
    max_examples=60,
    deadline=None,  # the per-case limit below stops hangs; a slow first call (store opening) is fine
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    print_blob=True,
)
#: Seconds each fuzz test runs for in a soak run (0: one round of max_examples cases).
SOAK_SECONDS = float(os.environ.get("MTGKB_FUZZ_SECONDS", "0"))
# A timed soak checks the clock between rounds, so its rounds must be short to end near the time asked.
_SOAK_ROUND = "200" if SOAK_SECONDS else "100000"
settings.register_profile(
    "soak",
    max_examples=int(os.environ.get("MTGKB_FUZZ_EXAMPLES", _SOAK_ROUND)),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)
settings.load_profile(os.environ.get("MTGKB_FUZZ_PROFILE", "default"))

#: Seconds one case may take before it counts as a hang.
CASE_LIMIT = float(os.environ.get("MTGKB_FUZZ_CASE_SECONDS", "20"))
#: Cases tried so far in this process (every case runs under :func:`time_limit`).
cases_tried = 0


class Hang(AssertionError):
    pass


@contextlib.contextmanager
def time_limit(seconds: float = CASE_LIMIT) -> Iterator[None]:
    """Fail with :class:`Hang` when the block runs longer than ``seconds``."""
    global cases_tried
    cases_tried += 1

    def expired(signum: int, frame: Any) -> None:
        raise Hang(f"the case ran longer than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


#: Odd text: every Unicode category, lone surrogates, control characters, and the occasional long run.
odd_text = st.one_of(
    st.text(st.characters(codec=None, exclude_categories=()), max_size=40),
    st.text(st.sampled_from("\x00\x07\x1b\r\n\t\u2028\u202e\ufeff\udcff{}[]'\"\\"), max_size=20),
    st.builds(lambda c, n: c * n, st.characters(), st.integers(1, 10_000)),
)

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False),
    odd_text,
)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(odd_text, children, max_size=5),
    max_leaves=20,
)


def paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (keys and list indexes), the empty path included."""
    found = [prefix]
    if isinstance(value, dict):
        for key, child in value.items():
            found += paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += paths(child, (*prefix, index))
    return found


def get(value: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        value = value[part]
    return value


def mutate(data: st.DataObject, document: Any, mutations: int = 3) -> Any:
    """``document`` (JSON) with a few random changes: a value replaced, a field removed or added, a
    list made huge, a value nested deep, an element repeated."""
    document = json.loads(json.dumps(document))
    grown = False  # one huge list per case: huge lists of huge lists only measure the test machine
    for _ in range(data.draw(st.integers(1, mutations), label="mutations")):
        path = data.draw(st.sampled_from(paths(document)), label="path")
        kind = data.draw(
            st.sampled_from(["replace", "remove", "add", "huge", "deep", "repeat", "type"]), label="kind"
        )
        target = get(document, path)
        if kind == "replace" or (kind == "remove" and not path):
            new = data.draw(json_values, label="value")
        elif kind == "remove":
            parent = get(document, path[:-1])
            del parent[path[-1]]
            continue
        elif kind == "add":
            if isinstance(target, dict):
                target[data.draw(odd_text, label="key")] = data.draw(json_values, label="value")
                continue
            new = target
        elif kind == "huge" and not grown:
            grown = True
            new = [target] * data.draw(st.integers(100, 2_000), label="size")
        elif kind == "huge":
            new = target
        elif kind == "deep":
            new = target
            for _ in range(data.draw(st.integers(10, 200), label="depth")):
                new = [new]
        elif kind == "repeat":
            if isinstance(target, list) and target:
                target.append(data.draw(st.sampled_from(target), label="repeated"))
                continue
            new = target
        else:  # the same value as another JSON type
            new = data.draw(st.sampled_from([str(target), [target], {"value": target}, None, 0, True]))
        if path:
            get(document, path[:-1])[path[-1]] = new
        else:
            document = new
    return document

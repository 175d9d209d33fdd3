"""How the server's worker pool hands workers to waiting requests (issue 37): heavy queries may hold
all workers but one, light ones are served first, and a job that runs long counts as heavy. The pool
is given stand-in workers, so only the scheduling runs (no process, no store)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest

from mtgkb.serve import pool as pool_module
from mtgkb.serve.jobs import Job
from mtgkb.serve.limits import Limits
from mtgkb.serve.pool import WorkerPool, job_cost

HEAVY = job_cost(Job("sparql", {"query": "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f }"}))
LIGHT = job_cost(Job("sparql", {"query": "SELECT ?s WHERE { ?s ?p ?o } LIMIT 1"}))
API = job_cost(Job("api", {"call": "card", "name": "Ninja of the Deep Hours"}))
#: Seconds a step may take before the test fails: a bound on a hang, not a measurement.
BOUND = 5


class StandIn:
    """A worker as the scheduler sees it: something to hand over."""


def _pool(workers: int, ready: int | None = None) -> tuple[WorkerPool, list[Any]]:
    pool = WorkerPool(Path("unused"), Limits(workers=workers, timeout=30))
    stand_ins = [StandIn() for _ in range(workers if ready is None else ready)]
    for worker in stand_ins:
        pool._ready.add(worker)
        pool._give_back(worker)
    return pool, stand_ins


async def _waiting(pool: WorkerPool, cost: Any) -> asyncio.Future[Any]:
    """A request of ``cost`` that waits for a worker (it has registered when this returns)."""
    task = asyncio.ensure_future(pool._free_worker(30, cost))
    await asyncio.sleep(0)
    return task


def _run(scenario: Awaitable[None]) -> None:
    asyncio.run(asyncio.wait_for(scenario, BOUND))


def test_heavy_jobs_leave_one_worker_to_light_ones() -> None:
    async def scenario() -> None:
        pool, _ = _pool(2)
        first = await pool._free_worker(30, HEAVY)
        second = await _waiting(pool, HEAVY)
        light = await pool._free_worker(30, LIGHT)  # the worker kept back
        assert light is not None and light is not first and not second.done()
        pool._give_back(first)  # the heavy job ends: the waiting one takes its worker
        assert await second is first

    _run(scenario())


def test_a_light_job_is_served_before_a_heavy_one_that_came_first() -> None:
    async def scenario() -> None:
        pool, (only,) = _pool(1)
        busy = await pool._free_worker(30, LIGHT)
        heavy = await _waiting(pool, HEAVY)
        light = await _waiting(pool, API)
        pool._give_back(busy)
        assert await light is only and not heavy.done()
        pool._give_back(only)
        assert await heavy is only  # one worker: nothing is kept back from heavy jobs

    _run(scenario())


def test_a_heavy_job_waits_while_only_one_worker_has_the_store_open() -> None:
    """While a worker stopped at the time limit is replaced, the one left serves light jobs only."""

    async def scenario() -> None:
        pool, (left,) = _pool(2, ready=1)
        assert await pool._free_worker(0.2, HEAVY) is None  # busy: 503 past its wait
        assert await pool._free_worker(30, LIGHT) is left
        assert not pool._waiting

    _run(scenario())


def test_a_job_running_long_counts_as_heavy_and_so_does_the_same_query(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pool_module, "LONG_JOB_SECONDS", 0.0)

    async def scenario() -> None:
        pool, _ = _pool(2)
        long = await pool._free_worker(30, LIGHT)
        await asyncio.sleep(0.01)  # past LONG_JOB_SECONDS: it counts as heavy now
        assert await pool._free_worker(0.2, HEAVY) is None
        assert await pool._free_worker(0.2, LIGHT) is None  # the same query as the long one
        other = await pool._free_worker(30, API)
        assert other is not None and other is not long
        pool._busy.pop(long)  # it ends; the pool remembers it ran long
        pool._remember_slow(LIGHT.fingerprint)
        pool._give_back(long)
        pool._give_back(other)
        first = await pool._free_worker(30, LIGHT)
        assert pool._busy[first].heavy  # remembered: heavy from the start

    _run(scenario())


def test_a_request_that_stops_waiting_leaves_no_trace() -> None:
    async def scenario() -> None:
        pool, (only,) = _pool(1)
        busy = await pool._free_worker(30, LIGHT)
        waiting = await _waiting(pool, LIGHT)
        waiting.cancel()  # the client went away
        await asyncio.sleep(0)
        assert not pool._waiting
        pool._give_back(busy)
        assert pool._idle == [only]

    _run(scenario())

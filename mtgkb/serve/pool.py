"""The query workers: processes that each hold the store open read-only and answer one job at a time.

Oxigraph cannot stop a query once it runs, and a thread cannot be killed, so a query past its time
limit would go on eating a core long after its client was told it had stopped. Queries therefore
run in worker processes: when one runs past the limit the worker is killed, the client gets 503 at
once, and a fresh worker takes its place. The server's own process only reads requests and writes
answers, so it keeps serving whatever a query does (a crash or an out-of-memory kill included).

A request waits for a free worker at most as long as the time limit; then it gets 503 (busy).

Light requests keep a worker while heavy ones run. Before it waits, a request is estimated light or
heavy (:mod:`mtgkb.kb.query_cost`: a SPARQL query making a cartesian product, or too long to read
cheaply, is heavy; API calls are light), and a worker that comes free goes to the longest-waiting
light request first, to a heavy one only while the heavy ones running leave one worker that has the
store open to the rest. So with the two default workers, at most one runs heavy queries, and twenty
cartesian COUNT(*) queries (before: a one-row query waited 28 s behind them) wait for that one while
light queries are answered on the other. With one worker nothing is kept back: heavy requests only
give way to light ones that wait.

The estimate is static; what it misses is caught by time. A job running longer than
:data:`LONG_JOB_SECONDS` counts as heavy from then on (a job cannot be stopped short of its time
limit, but it does not make room for another heavy one), and its fingerprint (its tokens, spacing,
comments and variable names left out) is remembered: the same query waiting, or sent again, is heavy.
Within each class requests are served in order of arrival; light ones sent without end could keep
heavy ones waiting until their time limit (503), which is the trade this makes.

When the sources change and their store is built (an import, an edit followed by any command), the
pool moves to the new store: idle workers are replaced at once, busy ones once their job is answered,
so no request fails and none after the switch sees the old store.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import multiprocessing
import signal
import sys
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, Literal

from mtgkb.core.errors import MtgkbError
from mtgkb.core.memory import SAMPLE_EVERY, MemoryLimitExceeded, ceilings, passed, resident_mb
from mtgkb.kb.query_cost import QueryCost, estimate_cost
from mtgkb.kb.query_limits import QueryTimeout
from mtgkb.serve.jobs import Job, Reply, error_reply
from mtgkb.serve.limits import Limits

_START_TIMEOUT = 120.0  # seconds a new worker may take to open the store
#: Seconds between two looks for a newer store: a look stats the source files (milliseconds).
NEWER_STORE_EVERY = 2.0
#: Seconds before a worker that could not open the store is tried again, doubled after each failure.
RETRY_FIRST = 0.5
RETRY_MOST = 30.0
#: Seconds between two looks at a busy worker's memory (see mtgkb.core.memory).
MEMORY_EVERY = SAMPLE_EVERY
#: Seconds after which a running job counts as heavy, whatever its estimate said.
LONG_JOB_SECONDS = 1.0
#: Fingerprints of jobs that ran long, remembered (the oldest forgotten first).
REMEMBERED_SLOW = 1000


def worker_main(connection: Connection, store_path: str, limits: Limits) -> None:
    """A worker's life: open the store, say so, then answer jobs until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops its workers
    from mtgkb.kb.store import open_store
    from mtgkb.serve.jobs import run_job

    try:
        kb = open_store(Path(store_path))
    except Exception as error:
        connection.send(("failed", f"{type(error).__name__}: {error}"))
        return
    connection.send(("ready", None))
    while True:
        try:
            job = connection.recv()
        except (EOFError, OSError):
            return
        try:
            connection.send(run_job(kb, job, limits))
        except (BrokenPipeError, OSError):
            return


class Worker:
    def __init__(self, store_path: Path, limits: Limits) -> None:
        self.store_path = store_path
        context = multiprocessing.get_context("spawn")
        self.connection, child = context.Pipe()
        self.process = context.Process(
            target=worker_main, args=(child, str(store_path), limits), name="mtgkb-worker", daemon=True
        )
        self.process.start()
        child.close()

    def wait_ready(self) -> None:
        """Block until the worker has opened the store (RuntimeError when it could not)."""
        if not self.connection.poll(_START_TIMEOUT):
            self.kill()
            raise RuntimeError(f"a query worker did not open the store within {_START_TIMEOUT:g} s")
        try:
            state, detail = self.connection.recv()
        except (EOFError, OSError) as error:
            raise RuntimeError("a query worker stopped while opening the store") from error
        if state != "ready":
            self.kill()
            raise RuntimeError(f"a query worker could not open the store: {detail}")

    def kill(self) -> None:
        with contextlib.suppress(Exception):
            self.process.kill()
        with contextlib.suppress(Exception):
            self.process.join(5)
        with contextlib.suppress(Exception):
            self.connection.close()


class WorkerPool:
    """``limits.workers`` workers over the store at ``store_path``; :meth:`run` hands a job to a free one.
    ``newest`` says which store is current (None: none is built yet); ``on_switch`` hears of a move.

    A worker that cannot open the store (it is damaged, or was removed) is tried again and again, after
    :data:`RETRY_FIRST` seconds, twice as long each time up to :data:`RETRY_MOST`, and at once when the
    store is rebuilt. While no worker has the store open, a request is answered 503 at once with
    what is wrong (``damage``) instead of waiting for a worker that is not coming."""

    def __init__(
        self,
        store_path: Path,
        limits: Limits,
        newest: Callable[[], Path | None] | None = None,
        on_switch: Callable[[Path], None] | None = None,
    ) -> None:
        self.store_path = store_path
        self.limits = limits
        self._newest = newest
        self._on_switch = on_switch
        self._identity = store_identity(store_path)
        self._looked = time.monotonic()
        self._idle: list[Worker] = []
        self._waiting: list[_Waiter] = []  # in order of arrival
        self._busy: dict[Worker, _Running] = {}
        self._slow: OrderedDict[str, None] = OrderedDict()  # fingerprints of jobs that ran long
        self._all: set[Worker] = set()
        self._ready: set[Worker] = set()  # those that opened the store, idle or busy
        self._closing = False
        self._respawning: set[asyncio.Task[None]] = set()  # kept from the garbage collector
        self._out_of_order = _Signal()  # fired when a worker fails to start and none is ready
        self._moved = _Signal()  # fired when the pool moves to another store
        self.damage: str | None = None  # why the last worker could not open the store; None: it could
        self.replaced = 0  # workers killed and replaced (past the time limit, or died)
        self._freeing: set[Worker] = set()  # killed past the cgroup's limit, not yet exited

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        workers = await asyncio.gather(
            *(loop.run_in_executor(None, self._new_worker) for _ in range(max(self.limits.workers, 1)))
        )
        for worker in workers:
            self._ready.add(worker)
            self._give_back(worker)

    def _new_worker(self) -> Worker:
        worker = Worker(self.store_path, self.limits)
        self._all.add(worker)
        try:
            worker.wait_ready()
        except RuntimeError:
            self._all.discard(worker)
            raise
        return worker

    async def close(self) -> None:
        self._closing = True
        for worker in list(self._all):
            worker.kill()
        self._all.clear()
        self._ready.clear()

    @property
    def out_of_order(self) -> bool:
        """No worker has the store open and the last one tried could not open it."""
        return self.damage is not None and not self._ready

    async def run(self, job: Job) -> Reply:
        """The reply to ``job`` from a free worker, or a 503 when none is free in time, when none can
        open the store, or when the job runs past the time limit (its worker is then replaced)."""
        timeout = self.limits.timeout
        self._follow_newer_store()
        worker = await self._free_worker(timeout, job_cost(job))
        if worker is None:
            return self._unavailable(job) if self.out_of_order else _busy(timeout, job.kind == "api")
        done = False
        try:
            reply = await asyncio.wait_for(self._watched(worker, job), timeout)
            done = True
            return reply
        except TimeoutError:
            return error_reply(
                QueryTimeout(
                    f"the request ran longer than {timeout:g} s and was stopped",
                    "narrow the query (a LIMIT, more specific patterns); the limit is set by "
                    "'mtgkb serve --timeout'",
                ),
                json_body=job.kind == "api",
            )
        except MemoryLimitExceeded as error:
            return error_reply(error, json_body=job.kind == "api", status=503)
        except (EOFError, OSError):
            return error_reply(
                QueryTimeout(
                    "the worker answering this request stopped (out of memory?)",
                    "narrow the query; the server goes on with a new worker",
                ),
                json_body=job.kind == "api",
            )
        finally:
            running = self._busy.pop(worker, None)
            if running is not None and running.long(time.monotonic()):
                self._remember_slow(running.fingerprint)
            if not done:  # timed out, died, or the client went away mid-job: its pipe is in an unknown state
                self._replace(worker)
            elif worker.store_path != self.store_path:  # the store changed while it answered
                self._replace(worker, counted=False)
            else:
                self._give_back(worker)

    async def _free_worker(self, timeout: float, cost: QueryCost) -> Worker | None:
        """A worker for a job of ``cost``, as the module's docstring says, waited for at most ``timeout``
        seconds; None past it, or at once when (or as soon as) no worker can open the store."""
        deadline = time.monotonic() + timeout
        waiter = _Waiter(asyncio.get_running_loop().create_future(), cost.heavy, cost.fingerprint)
        self._waiting.append(waiter)
        taken = False
        try:
            self._dispatch()
            while not waiter.handed.done():
                left = deadline - time.monotonic()
                if self.out_of_order or left <= 0:
                    return None
                broken = asyncio.ensure_future(self._out_of_order.wait())
                try:
                    await asyncio.wait(
                        {waiter.handed, broken}, timeout=left, return_when=asyncio.FIRST_COMPLETED
                    )
                finally:
                    broken.cancel()
            taken = True
            return waiter.handed.result()
        finally:
            if not taken:
                if waiter.handed.done() and not waiter.handed.cancelled():
                    self._give_back(waiter.handed.result())  # handed over as the wait ended
                else:
                    waiter.handed.cancel()
                    self._waiting.remove(waiter)

    def _give_back(self, worker: Worker) -> None:
        """``worker`` is idle: it goes to the next request :meth:`_dispatch` picks, if any."""
        self._busy.pop(worker, None)
        self._idle.append(worker)
        self._dispatch()

    def _dispatch(self) -> None:
        """Hand idle workers to waiting requests: light ones first, heavy ones while the heavy jobs
        running leave a worker with the store open to the rest (see the module's docstring)."""
        while self._idle and self._waiting:
            now = time.monotonic()
            running_long = {running.fingerprint for running in self._busy.values() if running.long(now)}
            heavy = {id(waiter) for waiter in self._waiting if self._is_heavy(waiter, running_long)}
            chosen = next((waiter for waiter in self._waiting if id(waiter) not in heavy), None)
            if chosen is None:
                running_heavy = sum(running.heavy or running.long(now) for running in self._busy.values())
                share = len(self._ready) - 1 if self.limits.workers >= 2 else len(self._ready)
                if running_heavy >= share:
                    return
                chosen = self._waiting[0]
            self._waiting.remove(chosen)
            worker = self._idle.pop()
            self._busy[worker] = _Running(now, id(chosen) in heavy, chosen.fingerprint)
            chosen.handed.set_result(worker)

    def _is_heavy(self, waiter: _Waiter, running_long: set[str]) -> bool:
        """Estimated heavy, or the same as a job that ran long (or runs long now)."""
        return waiter.heavy or waiter.fingerprint in self._slow or waiter.fingerprint in running_long

    def _remember_slow(self, fingerprint: str) -> None:
        self._slow[fingerprint] = None
        self._slow.move_to_end(fingerprint)
        while len(self._slow) > REMEMBERED_SLOW:
            self._slow.popitem(last=False)

    def _unavailable(self, job: Job) -> Reply:
        reply = error_reply(
            MtgkbError(
                "the server cannot open its knowledge base: the store is damaged or missing",
                "it tries again by itself and answers once the store opens; 'mtgkb build --full' "
                "rebuilds the store (the server's log says what is wrong)",
            ),
            json_body=job.kind == "api",
            status=503,
        )
        reply.headers["Retry-After"] = str(int(RETRY_MOST))
        return reply

    def _follow_newer_store(self) -> None:
        """Move to the store of the current sources when one newer than the pool's is built, a store
        rebuilt in the same folder included."""
        now = time.monotonic()
        if self._newest is None or self._closing or now - self._looked < NEWER_STORE_EVERY:
            return
        self._looked = now
        try:
            newest = self._newest()
        except OSError:  # a source folder being replaced right now: look again later
            return
        if newest is None:
            return
        identity = store_identity(newest)
        if identity is None or identity == self._identity:
            return
        self.store_path, self._identity = newest, identity
        if self._on_switch is not None:
            self._on_switch(newest)
        idle, self._idle = self._idle, []
        for worker in idle:
            self._replace(worker, counted=False)
        # Retries waiting after a failed start try the new store at once, and requests wait for them.
        self.damage = None
        self._moved.fire()

    async def _watched(self, worker: Worker, job: Job) -> Reply:
        """The reply of ``worker`` to ``job``, its memory looked at every :data:`MEMORY_EVERY` seconds:
        past one of its ceilings (``limits.max_memory_mb`` of resident size, the address-space limit
        it inherited, the cgroup's limit that it shares with the server and the other workers: see
        mtgkb.core.memory) it is killed at once and the job stopped with :class:`MemoryLimitExceeded`
        (the caller then replaces the worker)."""
        asked = asyncio.ensure_future(self._ask(worker, job))
        bound = self.limits.max_memory_mb
        held_under = ceilings(bound, "'mtgkb serve --max-memory-mb'") if bound else []
        try:
            while True:
                done, _ = await asyncio.wait({asked}, timeout=MEMORY_EVERY)
                if done:
                    return asked.result()
                ceiling = passed(held_under, worker.process.pid) if held_under else None
                if ceiling is not None and ceiling.measure == "cgroup" and not self._to_stop(worker):
                    # The cgroup is shared: the largest worker's job is the one stopped.
                    ceiling = passed([c for c in held_under if c.measure != "cgroup"], worker.process.pid)
                if ceiling is not None:
                    with contextlib.suppress(Exception):
                        worker.process.kill()  # before a hard limit aborts it; the caller replaces it
                    if ceiling.measure == "cgroup":
                        self._freeing.add(worker)
                    raise MemoryLimitExceeded(ceiling)
        finally:
            if not asked.done():
                asked.cancel()
                with contextlib.suppress(BaseException):
                    await asked

    def _to_stop(self, worker: Worker) -> bool:
        """Whether ``worker``'s job is the one to stop for the shared cgroup: none while a worker
        already killed for it has not exited (its memory still counts until then, and the next
        largest would be stopped for it), else the largest worker's."""
        self._freeing = {w for w in self._freeing if w.process.is_alive()}
        return not self._freeing and self._largest(worker)

    def _largest(self, worker: Worker) -> bool:
        """Whether ``worker`` holds at least as much as any other worker (resident size)."""
        held = resident_mb(worker.process.pid) or 0.0
        return all(
            (resident_mb(other.process.pid) or 0.0) <= held for other in self._all if other is not worker
        )

    async def _ask(self, worker: Worker, job: Job) -> Reply:
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[Reply] = loop.create_future()
        connection = worker.connection

        def readable() -> None:
            loop.remove_reader(connection.fileno())
            if answer.done():
                return
            try:
                answer.set_result(connection.recv())
            except Exception as error:
                answer.set_exception(error)

        connection.send(job)
        loop.add_reader(connection.fileno(), readable)
        try:
            return await answer
        finally:
            with contextlib.suppress(Exception):
                loop.remove_reader(connection.fileno())

    def _replace(self, worker: Worker, counted: bool = True) -> None:
        """Kill ``worker`` and start another in its place; ``counted``: it failed (timed out or died)
        rather than served a store that is no longer current."""
        worker.kill()
        self._all.discard(worker)
        self._ready.discard(worker)
        if counted:
            self.replaced += 1
        if self._closing:
            return
        task = asyncio.get_running_loop().create_task(self._respawn())
        self._respawning.add(task)
        task.add_done_callback(self._respawning.discard)

    async def _respawn(self) -> None:
        """Start a worker, trying again with a growing pause for as long as the store cannot be opened."""
        loop = asyncio.get_running_loop()
        pause = RETRY_FIRST
        while not self._closing:
            try:
                fresh = await loop.run_in_executor(None, self._new_worker)
            except RuntimeError as error:
                self._failed(str(error), pause)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._moved.wait(), pause)
                pause = min(pause * 2, RETRY_MOST)
                self._looked = 0.0  # the next request looks for a rebuilt store at once
                continue
            if self._closing or fresh.store_path != self.store_path:
                fresh.kill()  # the pool was stopped, or moved on while it started: start one there
                self._all.discard(fresh)
                pause = RETRY_FIRST
                continue
            if self.damage is not None:
                sys.stderr.write(
                    f"mtgkb serve: a query worker opened the store in {fresh.store_path} again\n"
                )
                self.damage = None
            self._ready.add(fresh)
            self._give_back(fresh)
            return

    def _failed(self, problem: str, pause: float) -> None:
        """A worker could not open the store: the log hears of it once (per problem), and while no worker
        has it open, every request waiting for one is answered at once."""
        if problem != self.damage:
            sys.stderr.write(
                f"mtgkb serve: {problem}; trying again every {RETRY_MOST:g} s at most "
                "('mtgkb build --full' rebuilds the store)\n"
            )
        self.damage = problem
        if not self._ready:
            self._out_of_order.fire()


@dataclass
class _Waiter:
    """A request waiting for a worker: ``handed`` is set to the worker it gets."""

    handed: asyncio.Future[Worker]
    heavy: bool
    fingerprint: str


@dataclass
class _Running:
    """A job on a worker: when it started, whether it was heavy when it started, what it was."""

    started: float
    heavy: bool
    fingerprint: str

    def long(self, now: float) -> bool:
        return now - self.started > LONG_JOB_SECONDS


def job_cost(job: Job) -> QueryCost:
    """The estimate a job is scheduled by: a SPARQL query's (:func:`estimate_cost`); API calls are light,
    told apart by what they ask."""
    if job.kind == "sparql":
        return estimate_cost(str(job.payload.get("query", "")))
    asked = json.dumps(job.payload, sort_keys=True, default=str).encode("utf-8", "replace")
    return QueryCost(False, None, "api:" + hashlib.blake2b(asked, digest_size=16).hexdigest())


class _Signal:
    """Wakes what waits on it when it fires; what waits later waits for the next time."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def wait(self) -> Coroutine[Any, Any, Literal[True]]:
        return self._event.wait()  # bound to the event of now, which a firing leaves set

    def fire(self) -> None:
        self._event.set()
        self._event = asyncio.Event()


def store_identity(path: Path) -> tuple[str, int, int] | None:
    """What tells a finished store from another built in the same folder later (``mtgkb build --full``
    replaces the folder, and with it its meta.json, written last); None when it cannot be read."""
    try:
        meta = (path / "meta.json").stat()
    except OSError:
        return None
    return str(path), meta.st_ino, meta.st_mtime_ns


def _busy(timeout: float, json_body: bool) -> Reply:
    reply = error_reply(
        QueryTimeout(
            f"every query worker stayed busy for {timeout:g} s",
            "try again shortly; 'mtgkb serve --workers N' runs more queries side by side",
        ),
        json_body=json_body,
    )
    reply.headers["Retry-After"] = "1"
    return reply

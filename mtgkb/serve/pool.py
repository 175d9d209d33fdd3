"""The query workers: processes that each hold the store open read-only and answer one job at a time.

Oxigraph cannot stop a query once it runs, and a thread cannot be killed, so a query past its time
limit would go on eating a core long after its client was told it had stopped. Queries therefore
run in worker processes: when one runs past the limit the worker is killed, the client gets 503 at
once, and a fresh worker takes its place. The server's own process only reads requests and writes
answers, so it keeps serving whatever a query does (a crash or an out-of-memory kill included).

A request waits for a free worker at most as long as the time limit; then it gets 503 (busy).

When the sources change and their store is built (an import, an edit followed by any command), the
pool moves to the new store: idle workers are replaced at once, busy ones once their job is answered,
so no request fails and none after the switch sees the old store.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import signal
import sys
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

from mtgkb.kb.query_limits import QueryTimeout
from mtgkb.serve.jobs import Job, Reply, error_reply
from mtgkb.serve.limits import Limits

_START_TIMEOUT = 120.0  # seconds a new worker may take to open the store
#: Seconds between two looks for a newer store: a look stats the source files (milliseconds).
NEWER_STORE_EVERY = 2.0


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
    ``newest`` says which store is current (None: none is built yet); ``on_switch`` hears of a move."""

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
        self._looked = time.monotonic()
        self._idle: asyncio.Queue[Worker] = asyncio.Queue()
        self._all: set[Worker] = set()
        self._closing = False
        self._respawning: set[asyncio.Task[None]] = set()  # kept from the garbage collector
        self.replaced = 0  # workers killed and replaced (past the time limit, or died)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        workers = await asyncio.gather(
            *(loop.run_in_executor(None, self._new_worker) for _ in range(max(self.limits.workers, 1)))
        )
        for worker in workers:
            self._idle.put_nowait(worker)

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

    async def run(self, job: Job) -> Reply:
        """The reply to ``job`` from a free worker, or a 503 when none is free in time or the job runs
        past the time limit (its worker is then replaced)."""
        timeout = self.limits.timeout
        self._follow_newer_store()
        try:
            worker = await asyncio.wait_for(self._idle.get(), timeout)
        except TimeoutError:
            return _busy(timeout, job.kind == "api")
        done = False
        try:
            reply = await asyncio.wait_for(self._ask(worker, job), timeout)
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
        except (EOFError, OSError):
            return error_reply(
                QueryTimeout(
                    "the worker answering this request stopped (out of memory?)",
                    "narrow the query; the server goes on with a new worker",
                ),
                json_body=job.kind == "api",
            )
        finally:
            if not done:  # timed out, died, or the client went away mid-job: its pipe is in an unknown state
                self._replace(worker)
            elif worker.store_path != self.store_path:  # the store changed while it answered
                self._replace(worker, counted=False)
            else:
                self._idle.put_nowait(worker)

    def _follow_newer_store(self) -> None:
        """Move to the store of the current sources when one newer than the pool's is built."""
        now = time.monotonic()
        if self._newest is None or self._closing or now - self._looked < NEWER_STORE_EVERY:
            return
        self._looked = now
        try:
            newest = self._newest()
        except OSError:  # a source folder being replaced right now: look again later
            return
        if newest is None or newest == self.store_path:
            return
        self.store_path = newest
        if self._on_switch is not None:
            self._on_switch(newest)
        while not self._idle.empty():
            self._replace(self._idle.get_nowait(), counted=False)

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
        if counted:
            self.replaced += 1
        if self._closing:
            return
        loop = asyncio.get_running_loop()

        async def respawn() -> None:
            try:
                fresh = await loop.run_in_executor(None, self._new_worker)
            except RuntimeError as error:
                sys.stderr.write(f"mtgkb serve: {error}\n")
                return
            if self._closing:
                fresh.kill()
            else:
                self._idle.put_nowait(fresh)

        task = loop.create_task(respawn())
        self._respawning.add(task)
        task.add_done_callback(self._respawning.discard)


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

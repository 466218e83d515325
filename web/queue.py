"""The queue of tile photos waiting to be read: one photo at a time per core, in the
order they came, each phone told its place while it waits.

A table's photos (one per player) are one *batch*, known by a random token that only
the phone that sent them holds (in the address it is sent on to). The phone's page asks
again every few seconds and is told its place, so no request waits on a reading and none
times out however long the queue. Batches are forgotten KEEP seconds after they were
sent; what a batch held that matters (the photos) is already kept in the event store.
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

KEEP = 3600.0  # seconds a batch is remembered after it was sent
MAX_WAITING = 400  # photos waiting at once; past this a phone is asked to try again


@dataclass
class Batch:
    """One table's photos sent together: who sent them (the table's ``code``), what the
    form held when they were sent (``state``, the caller's), each photo's reading."""

    code: str
    state: Any
    sent: float
    readings: dict[str, Future] = field(default_factory=dict)


class ReadingQueue:
    """Photos read by ``workers`` threads (default: one per core), first come first read.
    ``clock`` is in seconds (monotonic)."""

    def __init__(self, workers: int | None = None,
                 clock: Callable[[], float] = time.monotonic):
        self.workers = workers or os.cpu_count() or 1
        self._pool = ThreadPoolExecutor(self.workers, thread_name_prefix="tiles")
        self._waiting: list[Future] = []  # in the order sent; a photo leaves when read
        self._batches: dict[str, Batch] = {}
        self._lock = threading.Lock()
        self.clock = clock

    def send(self, code: str, state: Any, jobs: dict[str, Callable[[], Any]]) -> str | None:
        """Queue ``jobs`` (name: a reading to run) as one batch; its token, or None when
        the queue is full (the phone is asked to send again in a minute)."""
        with self._lock:
            now = self.clock()
            self._batches = {t: b for t, b in self._batches.items() if now - b.sent < KEEP}
            if len(self._waiting) + len(jobs) > MAX_WAITING:
                return None
            batch = Batch(code, state, now)
            for name, job in jobs.items():
                future = self._pool.submit(self._run, job)
                self._waiting.append(future)
                batch.readings[name] = future
            token = secrets.token_urlsafe(16)
            self._batches[token] = batch
            return token

    def _run(self, job: Callable[[], Any]) -> Any:
        with self._lock:  # it is being read: no longer waiting for a place
            self._waiting = [f for f in self._waiting if not f.running()]
        return job()

    def batch(self, token: str, code: str) -> Batch | None:
        """The batch ``token`` names, if it is that table's and still remembered."""
        with self._lock:
            found = self._batches.get(token)
        return found if found is not None and secrets.compare_digest(found.code, code) \
            else None

    def place(self, batch: Batch) -> int:
        """How many photos are waiting ahead of the batch's first unread one, plus one
        (1: next to be read); 0 once all of its photos are being read or are read."""
        with self._lock:
            mine = {id(f) for f in batch.readings.values()}
            for i, future in enumerate(self._waiting):
                if id(future) in mine and not (future.running() or future.done()):
                    return i + 1
            return 0

    def join(self) -> None:
        """Wait until every photo sent so far is read (tests; shutting down)."""
        with self._lock:
            pending = [f for b in self._batches.values() for f in b.readings.values()]
        for future in pending:
            future.exception()

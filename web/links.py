"""Each table's private link: a short code signed with the event's secret key.

The code names one table of one round (HMAC-SHA256 of ``table|round|number``, first 50
bits in base 32, 10 characters): whoever holds the score sheet can enter that table's
result and nothing else, and no code can be guessed from another.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable

CODE_CHARS = 10


@functools.lru_cache(maxsize=4096)  # every entry looks through a round's codes
def table_code(key: bytes, round_no: int, table: int) -> str:
    mac = hmac.new(key, f"table|{round_no}|{table}".encode(), hashlib.sha256).digest()
    return base64.b32encode(mac).decode()[:CODE_CHARS].lower()


def spoken(code: str) -> str:
    """The code as printed for typing: two groups of five (``abcde-fghij``)."""
    return f"{code[:5]}-{code[5:]}"


def find_table(key: bytes, code: str, tables: list[tuple[int, int, list[str]]]
               ) -> tuple[int, int, list[str]] | None:
    """The open table (round, table, seats) a typed code opens, if any. Dashes, spaces
    and case are forgiven; the comparison takes the same time whatever the code."""
    typed = "".join(ch for ch in code.lower() if ch.isascii() and ch.isalnum()).encode()
    found = None
    for r, t, seats in tables:
        if hmac.compare_digest(table_code(key, r, t).encode(), typed):
            found = (r, t, seats)
    return found


class WrongCodes:
    """The wrong codes each client (an address) has tried. After ``limit`` of them
    within ``window`` seconds that client is refused every code, right or wrong, until
    the oldest of them is ``window`` old: at that pace a 50-bit code is never found by
    trying, and a table that mistyped its code a few times is not held up."""

    def __init__(self, limit: int = 20, window: float = 60.0,
                 clock: Callable[[], float] = time.monotonic):
        self.limit, self.window, self.clock = limit, window, clock
        self._tries: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()  # pages are served from a pool of threads

    def refused(self, client: str) -> bool:
        with self._lock:
            tries = self._tries.get(client)
            if tries is None:
                return False
            now = self.clock()
            while tries and now - tries[0] >= self.window:
                tries.popleft()
            if not tries:  # forgotten: memory holds only clients that erred lately
                del self._tries[client]
                return False
            return len(tries) >= self.limit

    def note(self, client: str) -> None:
        with self._lock:
            self._tries[client].append(self.clock())

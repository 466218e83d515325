"""Each table's private link: a short code signed with the event's secret key.

The code names one table of one round (HMAC-SHA256 of ``table|round|number``, first 50
bits in base 32, 10 characters): whoever holds the score sheet can enter that table's
result and nothing else, and no code can be guessed from another.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

CODE_CHARS = 10


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
    typed = "".join(ch for ch in code.lower() if ch.isalnum())
    found = None
    for r, t, seats in tables:
        if hmac.compare_digest(table_code(key, r, t), typed):
            found = (r, t, seats)
    return found

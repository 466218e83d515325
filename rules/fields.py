"""Checked reading of one table (a TOML profile section or a JSON object).

Every error names the exact place of the bad value (``shot.contacts[2].t``) and what
is expected there, so a user can fix the file.
"""

from __future__ import annotations

import math
from typing import Any

from rules.errors import KangleError

_REQUIRED = object()
LARGEST = 1e9  # no quantity kangle reads (mm, g, s, m/s, points) is anywhere near this
REACH_MM = 10_000.0  # no point of a table, its rim or the floor around it is further out


class Fields:
    """Typed access to a mapping, naming the key in every error.

    A key read with ``default=None`` is optional: missing or null gives None.

    ``done()`` rejects keys nobody read, so a misspelt key is an error instead of
    being silently ignored.
    """

    def __init__(self, table: Any, where: str):
        if not isinstance(table, dict):
            raise KangleError(f"{where} must be an object/table, not {_show(table)}")
        self._table = table
        self.where = where
        self._read: set[str] = set()

    def names(self) -> list[str]:
        return list(self._table)

    def has(self, key: str) -> bool:
        return key in self._table

    def _get(self, key: str, default: Any) -> Any:
        self._read.add(key)
        if key not in self._table:
            if default is _REQUIRED:
                raise KangleError(f"{self.where}: {key!r} is missing")
            return default
        return self._table[key]

    def _bad(self, key: str, expected: str, value: Any) -> KangleError:
        return KangleError(f"{self.where}.{key} must be {expected}, not {_show(value)}")

    def number(self, key: str, default: Any = _REQUIRED) -> float:
        """A finite number no larger than LARGEST either way (``is_number``)."""
        value = self._get(key, default)
        if value is None and default is None:
            return None
        if not is_number(value):
            raise self._bad(key, f"a finite number within ±{LARGEST:g}", value)
        return float(value)

    def positive(self, key: str, default: Any = _REQUIRED) -> float:
        value = self.number(key, default)
        if value is not None and value <= 0:
            raise self._bad(key, "a positive number", value)
        return value

    def nonneg(self, key: str, default: Any = _REQUIRED) -> float:
        value = self.number(key, default)
        if value is not None and value < 0:
            raise self._bad(key, "a number ≥ 0", value)
        return value

    def fraction(self, key: str, default: Any = _REQUIRED) -> float:
        value = self.number(key, default)
        if value is not None and not 0 <= value <= 1:
            raise self._bad(key, "a number from 0 to 1", value)
        return value

    def count(self, key: str, default: Any = _REQUIRED) -> int:
        value = self._get(key, default)
        if value is None and default is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise self._bad(key, "a whole number ≥ 0", value)
        return value

    def flag(self, key: str, default: Any = _REQUIRED) -> bool:
        value = self._get(key, default)
        if not isinstance(value, bool):
            raise self._bad(key, "true or false", value)
        return value

    def choice(self, key: str, options: tuple, default: Any = _REQUIRED) -> Any:
        value = self._get(key, default)
        if value not in options:
            raise self._bad(key, "one of " + ", ".join(map(str, options)), value)
        return value

    def text(self, key: str, default: Any = _REQUIRED) -> str:
        value = self._get(key, default)
        if value is None and default is None:
            return None
        if not isinstance(value, str):
            raise self._bad(key, "text", value)
        if any(ord(ch) < 32 and ch not in "\t\n" or ord(ch) == 127 for ch in value):
            raise self._bad(key, "text without control characters", value)
        return value

    def items(self, key: str, default: Any = _REQUIRED) -> list[Any]:
        value = self._get(key, default)
        if not isinstance(value, list):
            raise self._bad(key, "a list", value)
        return value

    def table(self, key: str, default: Any = _REQUIRED) -> Fields:
        return Fields(self._get(key, default), f"{self.where}.{key}")

    def point(self, key: str, default: Any = _REQUIRED) -> tuple[float, float] | None:
        value = self._get(key, default)
        return None if value is None else as_point(value, f"{self.where}.{key}")

    def raw(self, key: str, default: Any = _REQUIRED) -> Any:
        return self._get(key, default)

    def done(self) -> None:
        unknown = sorted(set(self._table) - self._read)
        if unknown:
            raise KangleError(f"{self.where}: unknown key(s) {', '.join(map(str, unknown))}")


def is_number(value: Any) -> bool:
    """A JSON or TOML number kangle can use: not a boolean, finite, within ±LARGEST."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    # an int is compared as it is (a float of 10**400 would overflow)
    return abs(value) <= LARGEST and (isinstance(value, int) or math.isfinite(value))


def as_point(value: Any, where: str) -> tuple[float, float]:
    """An ``[x, y]`` pair of finite numbers (millimetres in the board frame), within
    REACH_MM of the centre: on the table, its rim, or the floor beside it."""
    if not (isinstance(value, list | tuple) and len(value) == 2 and all(map(is_number, value))
            and all(abs(v) <= REACH_MM for v in value)):
        raise KangleError(f"{where} must be a point [x, y] in millimetres within "
                          f"{REACH_MM / 1000:g} m of the board's centre, not {_show(value)}")
    return (float(value[0]), float(value[1]))


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."

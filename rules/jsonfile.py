"""Reading and writing the JSON files every record type is stored in."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from rules.errors import KangleError

MAX_BYTES = 50_000_000  # no record, state, calibration or score sheet comes near this
MAX_DIGITS = 30  # an integer longer than this is no count or id kangle uses


def read_json(path: str | Path, what: str) -> Any:
    """Parse a JSON file (``-``: standard input), turning every way it can fail into a
    KangleError."""
    if str(path) == "-":
        try:
            text = sys.stdin.read(MAX_BYTES + 1)
        except (OSError, UnicodeDecodeError) as exc:
            raise KangleError(f"cannot read the {what} from standard input: {exc}") from None
        if len(text) > MAX_BYTES:
            raise KangleError(f"the {what} on standard input is larger than "
                              f"{MAX_BYTES // 1_000_000} MB: it is not a file kangle writes")
        return parse_json(text, f"the {what} on standard input")
    return parse_json(read_text(path, what), f"{what} file {path}")


_BOMS = ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be"))


def read_text(path: str | Path, what: str) -> str:
    """A text file a user hands kangle (a record, a profile, a player list), read one
    checked way: it must exist, be a file, be at most MAX_BYTES, and be UTF-8 text —
    or carry a byte-order mark saying UTF-8 or UTF-16, as Windows editors write it. A
    binary file or another encoding is refused, saying how to fix it (kangle does not
    guess an encoding: a wrong guess would store misspelt names)."""
    file = Path(path)
    try:
        if file.is_dir():
            raise KangleError(f"{what} {path} is a folder, not a file")
        if file.stat().st_size > MAX_BYTES:
            raise KangleError(f"{what} file {path} is larger than {MAX_BYTES // 1_000_000} MB: "
                              "it is not a file kangle reads")
        data = file.read_bytes()
    except FileNotFoundError:
        raise KangleError(f"{what} file {path} does not exist") from None
    except OSError as exc:
        raise KangleError(f"cannot read {what} file {path}: {exc.strerror or exc}") from None
    encoding = "utf-8"
    for bom, name in _BOMS:
        if data.startswith(bom):
            data, encoding = data[len(bom):], name
            break
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        byte = exc.object[exc.start]
        raise KangleError(f"{what} file {path} is not UTF-8 text (byte {byte:#04x} at offset "
                          f"{exc.start}): save it as UTF-8 and try again") from None
    if "\x00" in text:
        raise KangleError(f"{what} file {path} is not a text file (it holds NUL bytes)")
    return text


def parse_json(text: str, what: str) -> Any:
    """Parse JSON text strictly: numbers finite and integers of at most MAX_DIGITS digits
    (NaN, Infinity and 1e400 are refused), nesting as deep as Python allows; every
    failure is a KangleError naming ``what``."""
    try:
        return json.loads(text, parse_constant=_no_constant, parse_int=_int, parse_float=_float)
    except json.JSONDecodeError as exc:
        raise KangleError(f"{what} is not valid JSON: {exc}") from None
    except ValueError as exc:
        raise KangleError(f"{what} is not valid JSON: {exc}") from None
    except RecursionError:
        raise KangleError(f"{what} is not valid JSON: it is nested too deeply") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise ValueError(f"an integer of {len(text)} digits")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:20]} is too large a number")
    return value


def dumps(obj: Any) -> str:
    """The canonical text form: sorted keys, two-space indent, UTF-8 kept readable.

    The same object always gives the same bytes, so files can be compared."""
    return json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_json(path: str | Path, obj: Any) -> None:
    write_text(path, dumps(obj))


def write_text(path: str | Path, text: str) -> None:
    """Write a UTF-8 file, or say why it cannot be written."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise KangleError(f"cannot write {path}: {exc}") from None


def check_schema(data: Any, expected: str, what: str) -> None:
    """Every record carries ``schema`` = "kangle.<type>/<version>"."""
    if not isinstance(data, dict):
        raise KangleError(f"a {what} must be a JSON object")
    found = data.get("schema")
    if found != expected:
        raise KangleError(
            f"this is not a {what} of the version kangle reads: schema is {found!r}, "
            f"expected {expected!r}"
        )


def mm(value: float) -> float:
    """Round a length for files: 0.001 mm is far below any measurement we make."""
    return round(float(value), 3)

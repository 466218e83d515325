"""Reading and writing the JSON files every record type is stored in."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rules.errors import KangleError


def read_json(path: str | Path, what: str) -> Any:
    """Parse a JSON file, turning every way it can fail into a KangleError."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        raise KangleError(f"{what} file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise KangleError(f"cannot read {what} file {path}: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise KangleError(f"{what} file {path} is not valid JSON: {exc}") from None


def dumps(obj: Any) -> str:
    """The canonical text form: sorted keys, two-space indent, UTF-8 kept readable.

    The same object always gives the same bytes, so files can be compared."""
    return json.dumps(obj, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_json(path: str | Path, obj: Any) -> None:
    try:
        Path(path).write_text(dumps(obj), encoding="utf-8")
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

"""Numbers as a person types them into the web station's forms."""

from __future__ import annotations

import math

from rules.errors import KangleError
from rules.fields import is_number


def typed_number(label: str, text: str, whole: bool = False) -> int | float:
    """A number as a person types it (a typographic minus allowed), whole ones as int;
    KangleError naming ``label`` where it is none, not finite or not ``whole``."""
    try:
        value = float(text.replace("−", "-"))
    except ValueError:
        value = math.nan
    if not is_number(value):
        raise KangleError(f"{label} must be a number, not {text!r:.30}")
    if whole and not value.is_integer():
        raise KangleError(f"{label}: a whole number, not {text!r:.30}")
    return int(value) if value.is_integer() else value


def plain(value: object) -> str:
    """A value as a person reads it: a whole float without its ``.0``."""
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value)

"""The desk's forms: one per entry kind of the event's format, in an organiser's words.

Each field is a part of the entry's data as `kangle event record` takes it
(docs/formats.md): names typed from the event's own list (names, never internal ids),
rounds and tables as numbers, a table's scores, or the cards a UNO hand left, as one
line per player. ``entry_data`` turns what was typed into that data and ``typed_values``
turns an entry back into what its form shows, so a correction starts from the entry as
it stands. Nothing here checks an entry beyond the shape of what was typed: the format
checks it, as it checks every entry (``Competition.record``). A part that is a whole
game's result (a league game, a 三国杀 match, a 找朋友 round) stays JSON, as for
`kangle score`.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.errors import KangleError
from rules.fields import is_number
from rules.jsonfile import parse_json


@dataclass(frozen=True)
class Field:
    """One part of an entry's data. ``shape`` says how it is typed and read:

    - ``text``: a line of text; ``name``: a registered name (offered from the event's);
    - ``whole``: a whole number; ``number``: any number;
    - ``choice``: one of ``choices``;
    - ``names``: names one per line (an order), read as a list;
    - ``tables``: one table per line, its names separated by commas;
    - ``scores``: one line per player, the name then a number: ``Ann 12`` or ``Ann: -4``;
    - ``cards``: one line per player, the name, a colon, then the cards (spaces or commas
      between them): ``Ann Lee: 7 skip wild``, read as {name: [card, …]};
    - ``json``: JSON, for a game's whole result (``key`` empty: the whole entry).
    """

    key: str
    label: str
    shape: str
    optional: bool = False
    choices: tuple[str, ...] = ()
    hint: str = ""
    null: str = ""  # what is typed for the entry's null (a drawn match's winner)


# a score line: the name (spaces allowed), then ":", "=" or a space, then the number
_SCORE_LINE = re.compile(r"^(?P<name>.+?)(?:\s*[:=]\s*|\s+)(?P<number>[^\s:=]+)$")
DRAW = "a draw"  # the choice that stands for a drawn match (the entry's null)
_ROUND = Field("round", "round", "whole")
_TABLE = Field("table", "table", "whole")
_NEW = Field("name", "name", "text")
_WITHDRAW = (Field("name", "name", "name"),
             Field("from_round", "from round", "whole", hint="the first round missed"))
_SCORES = Field("scores", "scores", "scores",
                hint="one line per player at the table: the name, then the score")
_STAGES = ("group", "qf1", "qf2", "qf3", "qf4", "sf1", "sf2", "third", "final")

FORMS: dict[str, dict[str, tuple[Field, ...]]] = {
    "rotating": {
        "register": (_NEW, Field("from_round", "from round", "whole", optional=True),
                     Field("rating", "rating", "number", optional=True,
                           hint="needed where the first seating goes by rating")),
        "withdraw": _WITHDRAW,
        "result": (_ROUND, _TABLE, _SCORES),
        "report": (_ROUND, _TABLE, _SCORES),
        "draw": (_ROUND, _TABLE, Field("cards", "cards drawn", "scores",
                                       hint="one line per player tied: the name, then the "
                                            "card's number")),
    },
    "knockout": {
        "register": (_NEW, Field("rating", "rating", "number", optional=True,
                                 hint="needed where the groups are drawn by rating")),
        "groups": (Field("groups", "groups", "json",
                         hint='{"A": [team, …], "B": […]}: "make the group draw" above '
                              "draws them"),),
        "match": (Field("stage", "stage", "choice", choices=_STAGES),
                  Field("group", "group", "text", optional=True, hint="group matches only"),
                  Field("teams", "teams", "names", hint="the two teams, one per line"),
                  Field("winner", "winner", "text", optional=True, null=DRAW,
                        hint=f"a team, or “{DRAW}”; or leave it empty and give the result"),
                  Field("result", "三国杀 result", "json", optional=True,
                        hint="as for kangle score sanguosha")),
        "decision": (Field("group", "group", "text"),
                     Field("order", "order", "names",
                           hint="the group's teams as the referee ranks them, one per line")),
    },
    "league": {
        "register": (_NEW,),
        "withdraw": _WITHDRAW,
        "game": (Field("stage", "stage", "choice", choices=("league", "final")),
                 Field("result", "result", "json", hint="the game's result, as for kangle "
                                                        "score")),
    },
    "kinghill": {
        "register": (_NEW,),
        "match": (Field("holder", "holder", "name"), Field("challenger", "challenger", "name"),
                  Field("winner", "winner", "name")),
    },
    "rankrounds": {
        "register": (_NEW,),
        "withdraw": _WITHDRAW,
        "seating": (_ROUND, Field("tables", "tables", "tables",
                                  hint="one table per line, its players separated by commas")),
        "table_round": (_ROUND, _TABLE, Field("result", "result", "json",
                                              hint="the round's result, as for kangle score "
                                                   "zhaopengyou")),
        "penalty": (Field("name", "name", "name"), _ROUND, Field("points", "points", "number"),
                    Field("reason", "reason", "text")),
    },
    "elimination": {
        "register": (_NEW, Field("day", "day", "text", hint="as the day is written, e.g. Day 1"),
                     Field("group", "group", "choice", choices=("A", "B"))),
        "hand": (Field("round", "round", "choice", choices=("1", "2")),
                 Field("group", "group", "choice", choices=("A", "B"), optional=True,
                       hint="round 1 only"),
                 Field("out", "went out", "name"),
                 Field("held", "cards held", "cards",
                       hint="one line per other player: the name, a colon, then the cards "
                            "left in the hand (0-9, skip, reverse, draw2, wild, wild4): "
                            "“Ann Lee: 7 skip wild”")),
        "supporters": (Field("day", "day", "text"), Field("count", "supporters", "whole")),
    },
}
WHOLE_ENTRY = (Field("", "entry (JSON)", "json"),)  # a kind without a form of its own


def fields_of(fmt: str, kind: str) -> tuple[Field, ...]:
    """The form of ``kind`` in an event of format ``fmt``."""
    return FORMS.get(fmt, {}).get(kind, WHOLE_ENTRY)


def form_name(field: Field) -> str:
    """The name of a field's input in the desk's HTML form."""
    return "f-" + (field.key or "entry")


def entry_data(fields: tuple[Field, ...], form: Mapping[str, str]) -> dict[str, Any]:
    """The entry's data from what was typed into ``fields``' inputs (KangleError, naming
    the field, where something cannot be read); empty optional fields are left out."""
    data: dict[str, Any] = {}
    for field in fields:
        text = str(form.get(form_name(field), "")).strip()
        if not text:
            if field.optional:
                continue
            raise KangleError(f"{field.label}: nothing was typed" +
                              (f" ({field.hint})" if field.hint else ""))
        value = _read(field, text)
        if not field.key:
            if not isinstance(value, dict):
                raise KangleError("an entry's data is a JSON object")
            return value
        data[field.key] = value
    return data


def _read(field: Field, text: str) -> Any:
    shape = field.shape
    if field.null and text == field.null:
        return None
    if shape in ("text", "name"):
        return text
    if shape == "whole":
        return typed_number(field.label, text, whole=True)
    if shape == "number":
        return typed_number(field.label, text, whole=False)
    if shape == "choice":
        if text not in field.choices:
            raise KangleError(f"{field.label}: one of {', '.join(field.choices)}, not {text!r}")
        return int(text) if text.isdigit() else text
    if shape == "names":
        return [line.strip() for line in text.splitlines() if line.strip()]
    if shape == "tables":
        return [[n.strip() for n in line.split(",") if n.strip()]
                for line in text.splitlines() if line.strip()]
    if shape == "scores":
        return _scores(field.label, text)
    if shape == "cards":
        return _cards(field.label, text)
    return parse_json(text, field.label)


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


def _scores(label: str, text: str) -> dict[str, int | float]:
    """``name score`` lines (or ``name: score``, ``name = score``) as {name: score}."""
    scores: dict[str, int | float] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        parts = _SCORE_LINE.match(line)
        if parts is None:
            raise KangleError(f"{label}: {line!r:.40} is not a name then a number, "
                              "like “Ann 12”")
        name, number = parts.group("name"), parts.group("number")
        if name in scores:
            raise KangleError(f"{label}: {name} is on two lines")
        scores[name] = typed_number(f"{label}, {name}", number, whole=False)
    return scores


def _cards(label: str, text: str) -> dict[str, list[str]]:
    """``name: card card …`` lines as {name: [card, …]}; the cards are read as typed (the
    game says which are none)."""
    held: dict[str, list[str]] = {}
    for line in text.splitlines():
        if not line.strip():
            continue
        name, colon, cards = line.partition(":")
        name = name.strip()
        if not colon or not name:
            raise KangleError(f"{label}: {line.strip()!r:.40} is not a name, a colon, then "
                              "the cards, like “Ann: 7 skip wild”")
        if name in held:
            raise KangleError(f"{label}: {name} is on two lines")
        held[name] = cards.replace(",", " ").split()
    return held


def typed_values(fields: tuple[Field, ...], data: Mapping[str, Any]) -> dict[str, str]:
    """What each input of ``fields`` shows for an entry whose data is ``data``: the
    inverse of ``entry_data``, so a correction starts from the entry as it stands."""
    values = {}
    for field in fields:
        value = data if not field.key else data.get(field.key)
        if field.key and field.key not in data:
            text = ""
        elif field.shape == "json":
            text = json.dumps(value, ensure_ascii=False)
        elif field.shape == "scores" and isinstance(value, dict):
            text = "\n".join(f"{n} {_plain(v)}" for n, v in value.items())
        elif field.shape == "cards" and isinstance(value, dict):
            text = "\n".join(f"{n}: {' '.join(map(str, c)) if isinstance(c, list) else c}"
                             for n, c in value.items())
        elif field.shape == "names" and isinstance(value, list):
            text = "\n".join(map(str, value))
        elif field.shape == "tables" and isinstance(value, list):
            text = "\n".join(", ".join(map(str, t)) for t in value if isinstance(t, list))
        elif value is None and field.null:
            text = field.null
        else:
            text = _plain(value)
        values[form_name(field)] = text
    return values


def in_words(fmt: str, kind: str, data: Mapping[str, Any]) -> str:
    """An entry as a person reads it, field by field in its form's words: ``round: 1 ·
    table: 2 · scores: Ann Lee 30, Bo -10`` (tables apart with ``|``; a part no field
    shows, such as the tiles a result was scored from, as JSON; a void: its reason)."""
    if kind == "void":
        return f"reason: {data.get('reason', '')}"
    fields = fields_of(fmt, kind)
    shown = typed_values(fields, data)
    parts = [f"{f.label}: " * bool(f.key) + (" | " if f.shape == "tables" else ", ").join(
        shown[form_name(f)].splitlines()) for f in fields if shown[form_name(f)]]
    if fields is not WHOLE_ENTRY:
        keys = {f.key for f in fields}
        parts += [f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in data.items()
                  if k not in keys]
    return " · ".join(parts)


def _plain(value: Any) -> str:
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value)

"""The desk's forms: one per entry kind of the event's format, in an organiser's words.

Each field is a part of the entry's data as `kangle event record` takes it
(docs/formats.md): names typed from the event's own list (names, never internal ids),
rounds and tables as numbers, a table's scores, or the cards a UNO hand left, as one
line per player, and a game's whole result (a 三国杀 match, a 找朋友 round, a league
game) one line per team, player or game (web/resultlines.py). ``entry_data`` turns what
was typed into that data and ``typed_values`` turns an entry back into what its form
shows, so a correction starts from the entry as it stands. Nothing here checks an entry
beyond the shape of what was typed: the format checks it, as it checks every entry
(``Competition.record``).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.errors import KangleError
from rules.jsonfile import parse_json
from web.resultlines import EXAMPLES, LINES
from web.typed import plain, typed_number


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
    - a kind of ``web.resultlines.LINES`` (``camps``, ``deals``, ``teams``, ``holdings``,
      ``colours``, ``claims``): a game's whole result one line per team, player or
      game, as that module says (a line may also be the part as JSON);
    - ``json``: JSON, for a game's whole result (``key`` empty: the whole entry).

    ``key`` may name a part within a part: ``result.camps`` is the result's camps.
    """

    key: str
    label: str
    shape: str
    optional: bool = False
    choices: tuple[str, ...] = ()
    hint: str = ""
    null: str = ""  # what is typed for the entry's null (a drawn match's winner)

    @property
    def lines(self) -> bool:
        """Whether it is typed in lines (a text area), not on one line."""
        return self.shape in ("names", "tables", "scores", "cards", "json") or (
            self.shape in LINES)


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
_STAGE = Field("stage", "stage", "choice", choices=("league", "final"))  # a league game's
# … and the round and table it was played at, where it was seated (a table's link fixes them)
_AT = (Field("round", "round", "whole", optional=True, hint="as on the game's score sheet"),
       Field("table", "table", "whole", optional=True))

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
                        hint=f"a team, or “{DRAW}”; or leave it empty and give the result "
                             "below"),
                  Field("result.ended_by", "how the match ended", "choice", optional=True,
                        choices=("commander_killed", "surrender", "time_up")),
                  Field("result.camps", "the camps at the end", "camps", optional=True,
                        hint="one line per team: the name, a colon, then its three generals "
                             f"with role and HP of max HP, like “{EXAMPLES['camps']}”; then "
                             "“; penalties 1” or “; surrendered” where so"),
                  Field("result.overtime_winner", "won in overtime", "name", optional=True,
                        hint="where time ran out with the HP even")),
        "decision": (Field("group", "group", "text"),
                     Field("order", "order", "names",
                           hint="the group's teams as the referee ranks them, one per line")),
    },
    "league": {
        "register": (_NEW,),
        "withdraw": _WITHDRAW,
        "game": (_STAGE, *_AT, Field("result", "result", "json",
                                     hint="the game's result, as for kangle score")),
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
        "table_round": (_ROUND, _TABLE,
                        Field("result.seats", "seats", "names",
                              hint="the table's five players, counter-clockwise, one per line"),
                        Field("result.games", "games", "deals",
                              hint=f"one line per game, like “{EXAMPLES['deals']}”; also “friend "
                                   "none”, “failed throw defenders” (or dealer side), “wrong "
                                   "bottom count”"),
                        Field("result.misplays", "misplays", "scores", optional=True,
                              hint="one line per player who misplayed: the name, then how "
                                   "often")),
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
# a league game's result, by the league's game: a line per team, player or colour
LEAGUE_GAMES = {
    "pictionary": Field("result.teams", "teams", "teams",
                        hint=f"one line per team: the name, a colon, the squares reached, "
                             f"then “finished” for the team that finished: "
                             f"“{EXAMPLES['teams']}”"),
    "monopolydeal": Field("result.players", "players", "holdings",
                          hint="one line per player: the name, a colon, then the bank's and "
                               "the properties' card values and the complete sets apart with "
                               f"semicolons: “{EXAMPLES['holdings']}” (“bank total 9” for a "
                               "total)"),
    "blokus": Field("result.colours", "colours", "colours",
                    hint="one line per colour: the colour and its player, a colon, the "
                         f"pieces left, and the piece placed last: “{EXAMPLES['colours']}”"),
    "tickettoride": Field("result.players", "players", "claims",
                          hint="one line per player: the name, a colon, the routes claimed, "
                               f"then the tickets: “{EXAMPLES['claims']}” (a route's colour "
                               "where it is one of a double)"),
}


def fields_of(fmt: str, kind: str, game: str | None = None) -> tuple[Field, ...]:
    """The form of ``kind`` in an event of format ``fmt`` played at ``game`` (a league
    game's result has its game's form)."""
    if fmt == "league" and kind == "game" and game in LEAGUE_GAMES:
        return _STAGE, *_AT, LEAGUE_GAMES[game]
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
        *path, last = field.key.split(".")
        part = data
        for step in path:
            part = part.setdefault(step, {})
        part[last] = value
    return data


_ABSENT = object()  # a part an entry's data does not have


def _part(data: Any, key: str) -> Any:
    """The part of an entry's data a field's (dotted) ``key`` names, or _ABSENT."""
    for step in key.split("."):
        if not isinstance(data, Mapping) or step not in data:
            return _ABSENT
        data = data[step]
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
    if shape in LINES:
        read = LINES[shape][0]
        return [parse_json(line, f"{field.label}, line {k + 1}") if line.lstrip().startswith(
            "{") else read(f"{field.label}, line {k + 1}", line)
            for k, line in enumerate(text.splitlines()) if line.strip()]
    return parse_json(text, field.label)


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
        value = data if not field.key else _part(data, field.key)
        if value is _ABSENT:
            text = ""
        elif field.shape == "json":
            text = json.dumps(value, ensure_ascii=False)
        elif field.shape == "scores" and isinstance(value, dict):
            text = "\n".join(f"{n} {plain(v)}" for n, v in value.items())
        elif field.shape == "cards" and isinstance(value, dict):
            text = "\n".join(f"{n}: {' '.join(map(str, c)) if isinstance(c, list) else c}"
                             for n, c in value.items())
        elif field.shape == "names" and isinstance(value, list):
            text = "\n".join(map(str, value))
        elif field.shape == "tables" and isinstance(value, list):
            text = "\n".join(", ".join(map(str, t)) for t in value if isinstance(t, list))
        elif field.shape in LINES and isinstance(value, list):
            text = "\n".join(_line(LINES[field.shape][1], part) for part in value)
        elif value is None and field.null:
            text = field.null
        else:
            text = plain(value)
        values[form_name(field)] = text
    return values


def _line(write, part: Any) -> str:
    """A part of a result as its line is typed, or as JSON where no line holds it."""
    line = write(part) if isinstance(part, Mapping) else None
    return json.dumps(part, ensure_ascii=False) if line is None else line


def in_words(fmt: str, kind: str, data: Mapping[str, Any], game: str | None = None) -> str:
    """An entry as a person reads it, field by field in its form's words: ``round: 1 ·
    table: 2 · scores: Ann Lee 30, Bo -10`` (tables apart with ``|``; a part no field
    shows, such as the tiles a result was scored from, as JSON; a void: its reason)."""
    if kind == "void":
        return f"reason: {data.get('reason', '')}"
    fields = fields_of(fmt, kind, game)
    shown = typed_values(fields, data)
    parts = [f"{f.label}: " * bool(f.key) + (" | " if f.shape == "tables" or f.shape in LINES else
                                             ", ").join(shown[form_name(f)].splitlines())
             for f in fields if shown[form_name(f)]]
    if fields is not WHOLE_ENTRY:
        keys = {f.key.split(".")[0] for f in fields}
        parts += [f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in data.items()
                  if k not in keys]
    return " · ".join(parts)

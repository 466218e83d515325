"""The desk's forms: one per entry kind of the event's format, in an organiser's words.

Each field is a part of the entry's data as `kangle event record` takes it
(docs/formats.md): names typed from the event's own list (names, never internal ids),
rounds and tables as numbers, a table's scores, or the cards a UNO hand left, as one
line per player, a 三国杀 match's camps one line per team. ``entry_data`` turns what
was typed into that data and ``typed_values`` turns an entry back into what its form
shows, so a correction starts from the entry as it stands. Nothing here checks an entry
beyond the shape of what was typed: the format checks it, as it checks every entry
(``Competition.record``). A part that is a whole game's result of a league game or a
找朋友 round stays JSON, as for `kangle score`.
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
    - ``camps``: a 三国杀 match's two camps, one line per team: the name, a colon, then
      its generals apart with commas, each its name, role and HP of max HP, and after
      semicolons what else befell the team: ``Shu: 刘备 commander 4/5, 关羽 vanguard
      1/4, 张飞 vanguard 0/4; penalties 1; surrendered`` (and ``side cool``, where the
      sides are not the first team warm and the second cool);
    - ``deals``: a 找朋友 round's games, one line per game, its parts apart with commas:
      ``dealer Ann, friend Cy, taken 85, bottom 15, last trick defenders 2, failed
      throw dealer side, wrong bottom count`` (``friend none`` where the dealer played
      alone; only the dealer and what the defenders took are needed);
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
# a general on a camps line: the name (spaces allowed), the role, then HP / max HP
_GENERAL = re.compile(r"^(?P<name>.+?)\s+(?P<role>commander|vanguard)\s+"
                      r"(?P<hp>[^\s/]+)\s*/\s*(?P<max_hp>[^\s/]+)$")
_CAMPS_EXAMPLE = "“Wei: Cao Cao commander 2/5, Zhang Liao vanguard 0/4, Xu Chu vanguard 3/4”"
_DEALS_EXAMPLE = "“dealer Ann, friend Cy, taken 85, bottom 15, last trick defenders 2”"
_SIDES = {"defenders": "defenders", "dealer side": "dealer_side", "dealer_side": "dealer_side"}

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
                             f"with role and HP of max HP, like {_CAMPS_EXAMPLE}; then "
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
        "table_round": (_ROUND, _TABLE,
                        Field("result.seats", "seats", "names",
                              hint="the table's five players, counter-clockwise, one per line"),
                        Field("result.games", "games", "deals",
                              hint=f"one line per game, like {_DEALS_EXAMPLE}; also “friend "
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
    if shape == "camps":
        return [_camp(field.label, line) for line in text.splitlines() if line.strip()]
    if shape == "deals":
        return [_deal(f"{field.label}, line {k + 1}", line)
                for k, line in enumerate(text.splitlines()) if line.strip()]
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


def _camp(label: str, line: str) -> dict[str, Any]:
    """One team's line of a 三国杀 match's camps (see ``Field``) as the result's camp."""
    name, colon, rest = line.partition(":")
    name = name.strip()
    if not colon or not name:
        raise KangleError(f"{label}: {line.strip()!r:.40} is not a team, a colon, then its "
                          f"generals, like {_CAMPS_EXAMPLE}")
    listed, *extras = rest.split(";")
    generals = []
    for text in (g.strip() for g in listed.split(",")):
        if not text:
            continue
        parts = _GENERAL.match(text)
        if parts is None:
            raise KangleError(f"{label}, {name}: {text!r:.40} is not a general's name, role "
                              "(commander or vanguard), then HP of max HP, like “Cao Cao "
                              "commander 2/5”")
        generals.append({"name": parts["name"], "role": parts["role"], **{
            k: typed_number(f"{label}, {parts['name']}'s {k.replace('_', ' ')}", parts[k],
                            whole=True) for k in ("hp", "max_hp")}})
    camp: dict[str, Any] = {"name": name, "generals": generals}
    for extra in (e.split() for e in extras):
        if extra == ["surrendered"]:
            camp["surrendered"] = True
        elif len(extra) == 2 and extra[0] == "penalties":
            camp["penalties"] = typed_number(f"{label}, {name}'s penalties", extra[1],
                                             whole=True)
        elif len(extra) == 2 and extra[0] == "side":
            camp["side"] = extra[1]
        elif extra:
            raise KangleError(f"{label}, {name}: after a semicolon, “penalties N”, "
                              f"“surrendered” or “side warm” (or cool), not "
                              f"{' '.join(extra)!r:.30}")
    return camp


def _camp_line(camp: Any) -> str:
    """A camp of a 三国杀 result as its line is typed (the inverse of ``_camp``); a part
    no line holds, as JSON."""
    if not isinstance(camp, Mapping) or not isinstance(camp.get("generals"), list) or not all(
            isinstance(g, Mapping) for g in camp["generals"]):
        return json.dumps(camp, ensure_ascii=False)
    generals = ", ".join(f"{g.get('name')} {g.get('role')} {_plain(g.get('hp'))}/"
                         f"{_plain(g.get('max_hp'))}" for g in camp["generals"])
    parts = [f"{camp.get('name')}: {generals}"]
    if "penalties" in camp:
        parts.append(f"penalties {_plain(camp['penalties'])}")
    if camp.get("surrendered") is True:
        parts.append("surrendered")
    if "side" in camp:
        parts.append(f"side {camp['side']}")
    return "; ".join(parts)


def _deal(label: str, line: str) -> dict[str, Any]:
    """One game's line of a 找朋友 round (see ``Field``) as the round's game."""
    game: dict[str, Any] = {}
    for part in (p.strip() for p in line.split(",")):
        words = part.split()
        if words[:1] in (["dealer"], ["friend"]) and len(words) > 1:
            name = " ".join(words[1:])
            game[words[0]] = None if words[0] == "friend" and name == "none" else name
        elif words[:1] in (["taken"], ["bottom"]) and len(words) == 2:
            key = "defender_points" if words[0] == "taken" else "bottom_points"
            game[key] = typed_number(f"{label}, {words[0]}", words[1], whole=True)
        elif words[:2] == ["last", "trick"] and len(words) >= 4 and (
                " ".join(words[2:-1]) in _SIDES):
            game["last_trick"] = {"won_by": _SIDES[" ".join(words[2:-1])], "size": typed_number(
                f"{label}, the last trick's size", words[-1], whole=True)}
        elif words[:2] == ["failed", "throw"] and " ".join(words[2:]) in _SIDES:
            game.setdefault("failed_throws", []).append(_SIDES[" ".join(words[2:])])
        elif words == ["wrong", "bottom", "count"]:
            game["wrong_bottom_count"] = True
        elif part:
            raise KangleError(f"{label}: {part!r:.40} is none of “dealer NAME”, “friend NAME” "
                              "(or none), “taken N”, “bottom N”, “last trick defenders N” (or "
                              "dealer side), “failed throw defenders” (or dealer side), "
                              "“wrong bottom count”")
    return game


def _deal_line(game: Any) -> str:
    """A game of a 找朋友 round as its line is typed (the inverse of ``_deal``); a part
    no line holds, as JSON."""
    if not isinstance(game, Mapping):
        return json.dumps(game, ensure_ascii=False)
    parts, side = [], {v: k for k, v in _SIDES.items() if " " in k or k == "defenders"}
    for key, value in game.items():
        last = value if isinstance(value, Mapping) else {}
        throws = value if isinstance(value, list) else []
        if key in ("dealer", "friend"):
            parts.append(f"{key} {'none' if value is None else value}")
        elif key in ("defender_points", "bottom_points"):
            parts.append(f"{'taken' if key == 'defender_points' else 'bottom'} {_plain(value)}")
        elif key == "last_trick" and last.get("won_by") in side:
            parts.append(f"last trick {side[last['won_by']]} {_plain(last.get('size'))}")
        elif key == "failed_throws" and all(t in side for t in throws):
            parts += [f"failed throw {side[t]}" for t in throws]
        elif key == "wrong_bottom_count" and isinstance(value, bool):
            parts += ["wrong bottom count"] * value
        else:
            return json.dumps(game, ensure_ascii=False)
    return ", ".join(parts)


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
            text = "\n".join(f"{n} {_plain(v)}" for n, v in value.items())
        elif field.shape == "cards" and isinstance(value, dict):
            text = "\n".join(f"{n}: {' '.join(map(str, c)) if isinstance(c, list) else c}"
                             for n, c in value.items())
        elif field.shape == "names" and isinstance(value, list):
            text = "\n".join(map(str, value))
        elif field.shape == "tables" and isinstance(value, list):
            text = "\n".join(", ".join(map(str, t)) for t in value if isinstance(t, list))
        elif field.shape == "camps" and isinstance(value, list):
            text = "\n".join(map(_camp_line, value))
        elif field.shape == "deals" and isinstance(value, list):
            text = "\n".join(map(_deal_line, value))
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
    parts = [f"{f.label}: " * bool(f.key) + (" | " if f.shape in ("tables", "camps", "deals") else
                                             ", ").join(shown[form_name(f)].splitlines())
             for f in fields if shown[form_name(f)]]
    if fields is not WHOLE_ENTRY:
        keys = {f.key.split(".")[0] for f in fields}
        parts += [f"{k}: {json.dumps(v, ensure_ascii=False)}" for k, v in data.items()
                  if k not in keys]
    return " · ".join(parts)


def _plain(value: Any) -> str:
    if isinstance(value, float) and value == int(value):
        return str(int(value))
    return str(value)

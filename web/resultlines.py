"""A game's whole result typed at the desk one line per team, player or game, in the
words of the game's own score sheet, not as JSON.

Each kind of line has a reader (the line as the part of the result `kangle score`
takes, KangleError naming what cannot be read) and a writer (the part as its line is
typed, the reader's inverse; None for a part no line holds, which the form then shows
as JSON). Nothing here judges a result: the game's reader does, as for every entry.

- ``camps``, a 三国杀 match's camps: ``Shu: Liu Bei commander 4/5, Guan Yu vanguard 1/4,
  Zhang Fei vanguard 0/4; penalties 1; surrendered`` (``side cool`` where the sides
  are not the first team warm and the second cool);
- ``deals``, a 找朋友 round's games: ``dealer Ann, friend Cy, taken 85, bottom 15, last
  trick defenders 2, failed throw dealer side, wrong bottom count`` (``friend none``
  where the dealer played alone);
- ``teams``, Pictionary's teams: ``Sketchers: 31 finished`` (squares reached);
- ``holdings``, Monopoly Deal's players: ``Ann: bank 5 3 1; properties 4 4 2; sets 3``
  (card values; ``bank total 9`` for a total);
- ``colours``, Blokus's colours: ``blue Ann: X5 I2; last I1`` (the pieces left; none
  after the colon where all were placed);
- ``claims``, Ticket to Ride's players: ``Ann: Seattle-Portland, Portland-San Francisco
  green; tickets Seattle-Los Angeles, Denver-El Paso`` (a route's colour where it is
  one of a double; a ticket's value after it where the map has no such ticket).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from rules.errors import KangleError
from web.typed import plain, typed_number

# a general on a camps line: the name (spaces allowed), the role, then HP / max HP
_GENERAL = re.compile(r"^(?P<name>.+?)\s+(?P<role>commander|vanguard)\s+"
                      r"(?P<hp>[^\s/]+)\s*/\s*(?P<max_hp>[^\s/]+)$")
_SIDES = {"defenders": "defenders", "dealer side": "dealer_side", "dealer_side": "dealer_side"}
_SIDE_WORDS = {"defenders": "defenders", "dealer_side": "dealer side"}
ROUTE_COLOURS = ("black", "blue", "gray", "green", "orange", "pink", "red", "white", "yellow")

EXAMPLES = {
    "camps": "Wei: Cao Cao commander 2/5, Zhang Liao vanguard 0/4, Xu Chu vanguard 3/4",
    "deals": "dealer Ann, friend Cy, taken 85, bottom 15, last trick defenders 2",
    "teams": "Sketchers: 31 finished",
    "holdings": "Ann: bank 5 3 1; properties 4 4 2; sets 3",
    "colours": "blue Ann: X5 I2; last I1",
    "claims": "Ann: Seattle-Portland, Portland-San Francisco green; tickets Seattle-Los "
              "Angeles",
}


# what a line of each kind holds before and after its colon
_HOLDS = {"camps": "a team, a colon, then its generals",
          "teams": "a team, a colon, then the squares it reached",
          "holdings": "a player, a colon, then the bank, the properties and the sets",
          "colours": "a colour and its player, a colon, then the pieces left",
          "claims": "a player, a colon, then the routes claimed"}


def _named(label: str, line: str, shape: str) -> tuple[str, str]:
    """A line's name before its colon, and the rest after it."""
    name, colon, rest = line.partition(":")
    if not colon or not name.strip():
        raise KangleError(f"{label}: {line.strip()!r:.40} is not {_HOLDS[shape]}, like "
                          f"“{EXAMPLES[shape]}”")
    return name.strip(), rest


def _numbers(label: str, words: list[str]) -> list[int | float]:
    return [typed_number(label, w) for w in words]


def _camp(label: str, line: str) -> dict[str, Any]:
    name, rest = _named(label, line, "camps")
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


def _camp_line(camp: Mapping[str, Any]) -> str | None:
    generals = camp.get("generals")
    if set(camp) - {"name", "generals", "penalties", "surrendered", "side"} or not (
            isinstance(generals, list) and all(isinstance(g, Mapping) for g in generals)):
        return None
    parts = [f"{camp.get('name')}: " + ", ".join(
        f"{g.get('name')} {g.get('role')} {plain(g.get('hp'))}/{plain(g.get('max_hp'))}"
        for g in generals)]
    if "penalties" in camp:
        parts.append(f"penalties {plain(camp['penalties'])}")
    if camp.get("surrendered") is True:
        parts.append("surrendered")
    if "side" in camp:
        parts.append(f"side {camp['side']}")
    return "; ".join(parts)


def _deal(label: str, line: str) -> dict[str, Any]:
    game: dict[str, Any] = {}
    for part in (p.strip() for p in line.split(",")):
        words = part.split()
        side = " ".join(words[2:-1])
        if words[:1] in (["dealer"], ["friend"]) and len(words) > 1:
            name = " ".join(words[1:])
            game[words[0]] = None if words[0] == "friend" and name == "none" else name
        elif words[:1] in (["taken"], ["bottom"]) and len(words) == 2:
            key = "defender_points" if words[0] == "taken" else "bottom_points"
            game[key] = typed_number(f"{label}, {words[0]}", words[1], whole=True)
        elif words[:2] == ["last", "trick"] and len(words) >= 4 and side in _SIDES:
            game["last_trick"] = {"won_by": _SIDES[side], "size": typed_number(
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


def _deal_line(game: Mapping[str, Any]) -> str | None:
    parts = []
    for key, value in game.items():
        last = value if isinstance(value, Mapping) else {}
        throws = value if isinstance(value, list) else [None]
        if key in ("dealer", "friend"):
            parts.append(f"{key} {'none' if value is None else value}")
        elif key in ("defender_points", "bottom_points"):
            parts.append(f"{'taken' if key == 'defender_points' else 'bottom'} {plain(value)}")
        elif key == "last_trick" and last.get("won_by") in _SIDE_WORDS:
            parts.append(f"last trick {_SIDE_WORDS[last['won_by']]} {plain(last.get('size'))}")
        elif key == "failed_throws" and all(t in _SIDE_WORDS for t in throws):
            parts += [f"failed throw {_SIDE_WORDS[t]}" for t in throws]
        elif key == "wrong_bottom_count" and isinstance(value, bool):
            parts += ["wrong bottom count"] * value
        else:
            return None
    return ", ".join(parts)


def _team(label: str, line: str) -> dict[str, Any]:
    name, rest = _named(label, line, "teams")
    words = rest.split()
    finished = words[1:] == ["finished"]
    if len(words) != 1 + finished:
        raise KangleError(f"{label}, {name}: the squares reached, then “finished” where the "
                          f"team finished, not {rest.strip()!r:.30}")
    return {"name": name, "squares": typed_number(f"{label}, {name}'s squares", words[0],
                                                  whole=True), **({"finished": True}
                                                                  if finished else {})}


def _team_line(team: Mapping[str, Any]) -> str | None:
    if set(team) - {"name", "squares", "finished"} or not isinstance(
            team.get("finished", False), bool):
        return None
    return f"{team.get('name')}: {plain(team.get('squares'))}" + " finished" * bool(
        team.get("finished"))


def _holding(label: str, line: str) -> dict[str, Any]:
    name, rest = _named(label, line, "holdings")
    holding: dict[str, Any] = {"name": name}
    keys = {"bank": "bank", "properties": "properties", "sets": "complete_sets"}
    for words in (part.split() for part in rest.split(";")):
        if not words:
            continue
        key = keys.get(words[0])
        what = f"{label}, {name}'s {words[0]}"
        if key is None:
            raise KangleError(f"{label}, {name}: {' '.join(words)!r:.30} is none of “bank "
                              "…”, “properties …”, “sets N”")
        if key == "complete_sets":
            if len(words) != 2:
                raise KangleError(f"{what}: one number")
            holding[key] = typed_number(what, words[1], whole=True)
        elif words[1:2] == ["total"]:
            if len(words) != 3:
                raise KangleError(f"{what}: “total” then one number")
            holding[key] = typed_number(what, words[2])
        else:
            holding[key] = _numbers(what, words[1:])
    return holding


def _holding_line(holding: Mapping[str, Any]) -> str | None:
    if set(holding) - {"name", "bank", "properties", "complete_sets"}:
        return None
    parts = [f"{holding.get('name')}:"]
    for key, word in (("bank", "bank"), ("properties", "properties")):
        value = holding.get(key)
        if isinstance(value, list):
            parts.append(" ".join([word, *map(plain, value)]))
        elif key in holding:
            parts.append(f"{word} total {plain(value)}")
    if "complete_sets" in holding:
        parts.append(f"sets {plain(holding['complete_sets'])}")
    return parts[0] + " " + "; ".join(parts[1:])


def _colour(label: str, line: str) -> dict[str, Any]:
    who, rest = _named(label, line, "colours")
    colour, _, player = who.partition(" ")
    left, *extras = rest.split(";")
    entry: dict[str, Any] = {"colour": colour, **({"player": player.strip()}
                                                   if player.strip() else {}),
                             "left": left.replace(",", " ").split()}
    for words in (e.split() for e in extras):
        if len(words) == 2 and words[0] == "last":
            entry["last"] = words[1]
        elif words:
            raise KangleError(f"{label}, {who}: after a semicolon, “last PIECE” (the piece "
                              f"placed last), not {' '.join(words)!r:.30}")
    return entry


def _colour_line(entry: Mapping[str, Any]) -> str | None:
    left = entry.get("left")
    if set(entry) - {"colour", "player", "left", "last"} or not isinstance(left, list):
        return None
    who = " ".join(str(entry[k]) for k in ("colour", "player") if k in entry)
    return f"{who}: {' '.join(map(str, left))}".rstrip() + (
        f"; last {entry['last']}" if "last" in entry else "")


def _cities(label: str, text: str, third: Callable[[str], Any] | None):
    """``City-City`` with, where ``third`` reads it, a last word that is a route's
    colour or a ticket's value: [a, b] or [a, b, third]."""
    a, dash, b = text.partition("-")
    if not dash or not a.strip() or not b.strip():
        raise KangleError(f"{label}: {text!r:.40} is not two cities joined by “-”, like "
                          "“Seattle-Portland”")
    head, _, last = b.strip().rpartition(" ")
    if head and third is not None:
        extra = third(last)
        if extra is not None:
            return [a.strip(), head.strip(), extra]
    return [a.strip(), b.strip()]


def _claim(label: str, line: str) -> dict[str, Any]:
    name, rest = _named(label, line, "claims")
    routes, *extras = rest.split(";")
    where = f"{label}, {name}"

    def colour(word: str) -> str | None:
        return word if word in ROUTE_COLOURS else None

    def value(word: str) -> int | None:
        return int(word) if word.isdigit() else None

    player: dict[str, Any] = {"name": name, "routes": [
        _cities(where, r.strip(), colour) for r in routes.split(",") if r.strip()]}
    for extra in extras:
        word, _, listed = extra.strip().partition(" ")
        if word == "tickets":
            player["tickets"] = [_cities(where, t.strip(), value)
                                 for t in listed.split(",") if t.strip()]
        elif word:
            raise KangleError(f"{where}: after a semicolon, “tickets City-City, …”, not "
                              f"{extra.strip()!r:.30}")
    return player


def _claim_line(player: Mapping[str, Any]) -> str | None:
    if set(player) - {"name", "routes", "tickets"} or not all(
            isinstance(x, list) and len(x) in (2, 3) for k in ("routes", "tickets")
            for x in player.get(k, [])):
        return None

    def joined(spec: list) -> str:
        return f"{spec[0]}-{spec[1]}" + (f" {plain(spec[2])}" if len(spec) == 3 else "")

    line = f"{player.get('name')}: " + ", ".join(map(joined, player.get("routes", [])))
    if "tickets" in player:
        line += "; tickets " + ", ".join(map(joined, player["tickets"]))
    return line


# shape: (read a line, write one)
LINES: dict[str, tuple[Callable[[str, str], dict[str, Any]],
                       Callable[[Mapping[str, Any]], str | None]]] = {
    "camps": (_camp, _camp_line),
    "deals": (_deal, _deal_line),
    "teams": (_team, _team_line),
    "holdings": (_holding, _holding_line),
    "colours": (_colour, _colour_line),
    "claims": (_claim, _claim_line),
}

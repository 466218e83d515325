"""What every competition format shares: registrations, withdrawals, the standings
table and the score sheets it produces."""

from __future__ import annotations

import functools
import json
import math
import random
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from rules.errors import KangleError
from rules.events.store import Entry


@dataclass(frozen=True)
class Row:
    """One line of the standings: ``values`` by column, and the entries that made them."""

    rank: int
    name: str
    values: dict[str, Any]
    sources: tuple[int, ...] = ()


@dataclass(frozen=True)
class Standings:
    title: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    notes: tuple[str, ...] = ()
    sections: tuple[Standings, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"title": self.title, "columns": list(self.columns),
                "rows": [{"rank": r.rank, "name": r.name, **r.values,
                          "entries": list(r.sources)} for r in self.rows],
                "notes": list(self.notes),
                "sections": [s.to_json() for s in self.sections]}


@dataclass(frozen=True)
class ScoreSheet:
    """One printable sheet: a table in a round, its seats, and the blanks to fill."""

    title: str
    seats: tuple[str, ...]
    blanks: tuple[str, ...]
    instructions: tuple[str, ...] = ()


@dataclass(frozen=True)
class Table:
    """A table of a round (a match, in a knockout) whose result its own link enters:
    its number in the round as the round's score sheets are printed, who sits there,
    and whether its result may still be entered."""

    round: int
    number: int
    seats: list[str]
    open: bool


@dataclass
class Roster:
    """Who is in the event from which round on."""

    order: list[str] = field(default_factory=list)
    joins: dict[str, int] = field(default_factory=dict)
    leaves: dict[str, int] = field(default_factory=dict)
    info: dict[str, dict[str, Any]] = field(default_factory=dict)

    def active(self, round_no: int) -> list[str]:
        return [p for p in self.order if self.joins[p] <= round_no
                and self.leaves.get(p, 10 ** 9) > round_no]


def roster(entries: list[Entry]) -> Roster:
    r = Roster()
    for e in entries:
        if e.kind == "register":
            name = e.data["name"]
            r.order.append(name)
            r.joins[name] = int(e.data.get("from_round", 1))
            r.info[name] = {k: v for k, v in e.data.items() if k not in ("name", "from_round")}
        elif e.kind == "withdraw":
            r.leaves[e.data["name"]] = int(e.data["from_round"])
    return r


T = TypeVar("T")


def remembered(size: int) -> Callable[[Callable[[dict[str, Any], list[Entry]], T]],
                                       Callable[[dict[str, Any], list[Entry]], T]]:
    """Remember the last ``size`` answers of a format's ``f(settings, entries)``, a pure
    function of the settings and the entries in force. A station asks it several times
    for one log (the page, the entry's check, the draws after it), each time from the
    same parsed entries (the store keeps them): the key is the settings' values and the
    entries' identities, and each answer keeps its entries alive, so an identity is
    never another entry's while it is remembered. The answer is shared: callers read it
    and never change it."""

    def wrap(f: Callable[[dict[str, Any], list[Entry]], T]
             ) -> Callable[[dict[str, Any], list[Entry]], T]:
        answers: OrderedDict[tuple, tuple[list[Entry], T]] = OrderedDict()
        lock = threading.Lock()  # the web station's pages run in a pool of threads

        @functools.wraps(f)
        def remembering(settings: dict[str, Any], entries: list[Entry]) -> T:
            key = (json.dumps(settings, sort_keys=True, default=repr),
                   tuple(map(id, entries)))
            with lock:
                if key in answers:
                    answers.move_to_end(key)
                    return answers[key][1]
            answer = f(settings, entries)
            with lock:
                answers[key] = (list(entries), answer)
                while len(answers) > size:
                    answers.popitem(last=False)
            return answer

        return remembering

    return wrap


def whole(value: Any) -> bool:
    """A whole number as JSON gives it (true and false are not numbers here)."""
    return isinstance(value, int) and not isinstance(value, bool)


def rating_of(name: str, info: dict[str, Any]) -> float:
    """A registration's ``rating`` (a number, or its text from a players file) for
    seeding by rating."""
    value = info.get("rating")
    if value is None:
        raise KangleError(f"{name} has no rating: this event seeds by rating, so every "
                          "registration needs one (a players file line: NAME, rating=1850)")
    try:
        rating = float(value) if isinstance(value, (int, float, str)) and \
            not isinstance(value, bool) else math.nan
    except ValueError:
        rating = math.nan
    if not (math.isfinite(rating) and abs(rating) < 1e9):
        raise KangleError(f"{name}'s rating {value!r:.30} is not a number")
    return rating


def check_register(entries: list[Entry], new: Entry, rated: bool = False) -> None:
    """A registration or withdrawal against the log so far; ``rated``: the event seeds
    by rating, so a registration needs one."""
    if new.kind == "register":
        name = new.data.get("name")
        if not isinstance(name, str) or not name.strip():
            raise KangleError("a registration needs a name")
        hidden = sorted({f"U+{ord(c):04X}" for c in name if unicodedata.category(c) in (
            "Cc", "Zl", "Zp")})
        if hidden:
            raise KangleError(f"the name {name.encode('unicode_escape').decode()} holds "
                              f"control characters ({', '.join(hidden)}): a name is one line "
                              "of printable text")
        if rated:
            rating_of(name, new.data)
        if name in roster(entries).order:
            raise KangleError(f"{name} is already registered")
    if new.kind == "withdraw":
        known = roster(entries)
        if new.data.get("name") not in known.order:
            raise KangleError(f"{new.data.get('name')!r} is not registered in this event")
        if new.data["name"] in known.leaves:
            raise KangleError(f"{new.data['name']} has already withdrawn")


def check_registrations(check: Callable[[Entry], None], news: list[Entry],
                        unique: tuple[tuple[str, ...], ...] = ()) -> None:
    """A list of registrations for a new event, checked in one pass (not each against
    all before it, which grows with the square of the list): each on its own by
    ``check``, and across the list the name and each further key the format keeps unique
    (``unique``, e.g. a day's group). Every problem is reported together, by place."""
    problems = []
    seen: dict[tuple[str, ...], dict[tuple, str]] = {}
    for i, new in enumerate(news, 1):
        name = new.data.get("name")
        try:
            check(new)
            for key in (("name",), *unique):
                value = tuple(new.data.get(k) for k in key)
                taken = seen.setdefault(key, {})
                if value in taken:
                    said = ", ".join(f"{k} {v}" for k, v in zip(key, value, strict=True))
                    raise KangleError(f"{name} is listed twice" if key == ("name",) else
                                      f"{said} is already {taken[value]}'s")
                taken[value] = name
        except KangleError as exc:
            problems.append(f"player {i} ({name!r}): {exc}")
    if problems:
        more = f"\n  … and {len(problems) - 20} more" if len(problems) > 20 else ""
        raise KangleError("the player list is refused, nothing was created:\n  " +
                          "\n  ".join(problems[:20]) + more)


def seeded_draw(seed: Any, names: list[str], *context: Any) -> dict[str, int]:
    """A reproducible draw of numbered cards (1 to the number of players), highest
    first: the same event, round and table always give the same cards."""
    rng = random.Random(f"{seed}|{'|'.join(map(str, context))}")
    cards = rng.sample(range(1, len(names) + 1), len(names))
    return dict(zip(sorted(names), cards, strict=True))


def ranked(keys: dict[str, tuple], reverse: bool = True) -> dict[str, int]:
    """Competition ranks (1, 2, 2, 4) by sort keys."""
    order = sorted(keys.values(), reverse=reverse)
    return {n: order.index(k) + 1 for n, k in keys.items()}

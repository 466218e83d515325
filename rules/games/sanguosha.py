"""三国杀 3v3: who won a match, the time-up tiebreak chain, 3/1/0 points, and the draft
helper (game-scoring.md §3).

Result JSON: ``{"game": "sanguosha", "ended_by": "commander_killed" | "surrender" |
"time_up", "camps": [{"name": "Team A", "side": "warm", "surrendered": false,
"penalties": 0, "generals": [{"name": "曹操", "role": "commander", "max_hp": 5,
"hp": 2}, …3]}, {…}], "overtime_winner": null}``. The commander's max HP includes its
+1; ``hp`` 0 means dead.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from rules.errors import KangleError
from rules.fields import Fields
from rules.games.sheet import Line, Sheet, load_game_profile, names_of

GAME = "sanguosha"
ENDINGS = ("commander_killed", "surrender", "time_up")


@dataclass(frozen=True)
class Profile:
    win_points: int = 3
    draw_points: int = 1
    loss_points: int = 0
    after_tiebreaks: str = "overtime"
    first_choice_seconds: int = 10
    pick_seconds: int = 20
    field_seconds: int = 90
    pick_sizes: tuple[int, ...] = (1, 2, 2, 2, 2, 2, 2, 2)


def load_profile(name_or_path=None) -> Profile:
    f, _ = load_game_profile(GAME, name_or_path)
    f.text("name", GAME)
    d = Profile()
    p = Profile(win_points=f.count("win_points", d.win_points),
                draw_points=f.count("draw_points", d.draw_points),
                loss_points=f.count("loss_points", d.loss_points),
                after_tiebreaks=f.choice("after_tiebreaks", ("overtime", "draw"),
                                         d.after_tiebreaks),
                first_choice_seconds=f.count("first_choice_seconds", d.first_choice_seconds),
                pick_seconds=f.count("pick_seconds", d.pick_seconds),
                field_seconds=f.count("field_seconds", d.field_seconds),
                pick_sizes=tuple(f.items("pick_sizes", list(d.pick_sizes))))
    f.done()
    return p


@dataclass(frozen=True)
class General:
    name: str
    commander: bool
    max_hp: int
    hp: int


@dataclass(frozen=True)
class Camp:
    name: str
    generals: tuple[General, ...]
    surrendered: bool
    penalties: int

    @property
    def commander(self) -> General:
        return next(g for g in self.generals if g.commander)

    def survivors(self) -> list[General]:
        return [] if self.surrendered else [g for g in self.generals if g.hp > 0]

    def lost_hp(self) -> int:
        """Lost HP summed over surviving generals only."""
        return sum(g.max_hp - g.hp for g in self.survivors())


@dataclass(frozen=True)
class Match:
    ended_by: str
    camps: tuple[Camp, Camp]
    overtime_winner: str | None


def read(data: Any, profile: Profile) -> Match:
    f = Fields(data, GAME)
    f.text("game", GAME)
    ended = f.choice("ended_by", ENDINGS)
    camps_in = f.items("camps")
    names = names_of(camps_in, "sanguosha.camps")
    if len(camps_in) != 2:
        raise KangleError("a 3v3 match has exactly two camps")
    camps = []
    for i, c in enumerate(camps_in):
        cf = Fields(c, f"sanguosha.camps[{i}]")
        cf.text("name")
        cf.choice("side", ("warm", "cool"), "warm" if i == 0 else "cool")
        generals = []
        for j, g in enumerate(cf.items("generals")):
            gf = Fields(g, f"{cf.where}.generals[{j}]")
            general = General(gf.text("name"), gf.choice("role", ("commander", "vanguard")) ==
                              "commander", gf.count("max_hp"), gf.count("hp"))
            gf.done()
            if general.hp > general.max_hp:
                raise KangleError(f"{names[i]}: {general.name} has {general.hp} HP of "
                                  f"{general.max_hp}")
            generals.append(general)
        if len(generals) != 3 or sum(g.commander for g in generals) != 1:
            raise KangleError(f"{names[i]} must field 3 generals: one commander, two vanguards")
        camps.append(Camp(names[i], tuple(generals), cf.flag("surrendered", False),
                          cf.count("penalties", 0)))
        cf.done()
    overtime = f.raw("overtime_winner", None)
    if overtime is not None and overtime not in names:
        raise KangleError(f"overtime_winner must be one of {', '.join(names)}")
    f.done()
    match = Match(ended, (camps[0], camps[1]), overtime)
    _check_ending(match)
    return match


def _check_ending(m: Match) -> None:
    dead = [c.name for c in m.camps if c.commander.hp == 0]
    gave_up = [c.name for c in m.camps if c.surrendered]
    if m.ended_by == "commander_killed" and len(dead) != 1:
        raise KangleError("ended by a commander's death: exactly one commander must have 0 HP")
    if m.ended_by == "surrender" and len(gave_up) != 1:
        raise KangleError("ended by surrender: exactly one camp must have surrendered")
    if m.ended_by == "time_up" and (dead or gave_up):
        raise KangleError("time up means both commanders alive and nobody surrendered")


def decide(m: Match, profile: Profile) -> tuple[str | None, list[str]]:
    """The winning camp's name (None for a draw) and the reasons, in order."""
    a, b = m.camps
    if m.ended_by == "commander_killed":
        loser = a if a.commander.hp == 0 else b
        return (b if loser is a else a).name, [f"{loser.name}'s commander was killed"]
    if m.ended_by == "surrender":
        loser = a if a.surrendered else b
        return (b if loser is a else a).name, [f"{loser.name} surrendered"]
    why = ["time up with both commanders alive"]
    chain = (("surviving generals", lambda c: len(c.survivors()), True),
             ("lost HP of surviving generals", Camp.lost_hp, False),
             ("technical penalty points", lambda c: c.penalties, False))
    for label, measure, more_is_better in chain:
        va, vb = measure(a), measure(b)
        why.append(f"{label}: {a.name} {va}, {b.name} {vb}")
        if va != vb:
            better = a if (va > vb) == more_is_better else b
            return better.name, why
    if m.overtime_winner:
        return m.overtime_winner, [*why, f"{m.overtime_winner} won in overtime"]
    if profile.after_tiebreaks == "draw":
        return None, [*why, "tied on every tiebreak: a draw"]
    raise KangleError("tied on every tiebreak: play 5-minute overtime and enter "
                      "\"overtime_winner\"")


def score(m: Match, profile: Profile) -> Sheet:
    winner, why = decide(m, profile)
    lines = []
    for c in m.camps:
        if winner is None:
            pts, result = profile.draw_points, "draw"
        elif c.name == winner:
            pts, result = profile.win_points, "win"
        else:
            pts, result = profile.loss_points, "loss"
        lines.append(Line(c.name, pts, (f"{result}: {pts}",), 1 if result != "loss" else 2,
                          pts))
    return Sheet(GAME, tuple(lines), tuple(why))


@dataclass
class Draft:
    """The 3v3 draft (选将) at the table: 16 generals in the pool, pick sizes 1, 2, 2, …
    alternating from the camp that picks first (which ends with 7, the other with 8,
    one general left over), then each camp fields 3 of its picks. The warm camp
    chooses who picks first; if it takes longer than 10 s the choice passes to the
    cool camp.

    ``pick`` refuses a pick out of turn, of the wrong size, or of a general not in the
    pool. ``time_out`` is what the referee does when a camp runs out of time: picks for
    it at random from the pool (seeded, so the draw can be replayed)."""

    pool: list[str]
    first: str
    profile: Profile = Profile()
    seed: int = 0
    picks: dict[str, list[str]] = field(default_factory=dict)
    fielded: dict[str, list[str]] = field(default_factory=dict)
    turn: int = 0

    def __post_init__(self):
        if len(self.pool) != sum(self.profile.pick_sizes) + 1 or len(set(self.pool)) != len(
                self.pool):
            raise KangleError(f"the draft pool needs {sum(self.profile.pick_sizes) + 1} "
                              "different generals")
        if self.first not in ("warm", "cool"):
            raise KangleError("the first picker is the 'warm' or the 'cool' camp")
        self.picks = {"warm": [], "cool": []}
        self._rng = random.Random(self.seed)

    @property
    def to_pick(self) -> tuple[str, int] | None:
        """Which camp picks now and how many; None when the picks are over."""
        if self.turn >= len(self.profile.pick_sizes):
            return None
        second = "cool" if self.first == "warm" else "warm"
        return (self.first if self.turn % 2 == 0 else second), self.profile.pick_sizes[self.turn]

    def pick(self, camp: str, generals: list[str]) -> None:
        now = self.to_pick
        if now is None:
            raise KangleError("the picks are over: field 3 generals")
        if camp != now[0]:
            raise KangleError(f"it is the {now[0]} camp's pick, not the {camp} camp's")
        if len(generals) != now[1] or len(set(generals)) != len(generals):
            raise KangleError(f"this pick takes {now[1]} different general(s)")
        missing = [g for g in generals if g not in self.pool]
        if missing:
            raise KangleError(f"{', '.join(missing)} is not in the pool")
        for g in generals:
            self.pool.remove(g)
        self.picks[camp].extend(generals)
        self.turn += 1

    def time_out(self) -> list[str]:
        camp, size = self.to_pick
        chosen = self._rng.sample(sorted(self.pool), size)
        self.pick(camp, chosen)
        return chosen

    def field(self, camp: str, generals: list[str]) -> None:
        if self.to_pick is not None:
            raise KangleError("field the generals after all picks are made")
        if len(set(generals)) != 3 or any(g not in self.picks[camp] for g in generals):
            raise KangleError(f"the {camp} camp fields 3 different generals of its own picks")
        self.fielded[camp] = list(generals)

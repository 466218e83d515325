"""找朋友 (Finding Friends): defenders' points, level changes, next dealer, and a
round's rank points at one table (game-scoring.md §8).

Result JSON — one round at one table:
``{"game": "zhaopengyou", "seats": ["A", "B", "C", "D", "E"],`` (counter-clockwise)
``"games": [{"dealer": "A", "friend": "C", "defender_points": 85, "bottom_points": 15,
"last_trick": {"won_by": "defenders", "size": 2}, "failed_throws": ["dealer_side"],
"wrong_bottom_count": false}, …], "misplays": {"B": 1}}``.
``friend`` null (or the dealer) means 1 against 4. ``defender_points`` are the point
cards the defenders took in tricks; ``bottom_points`` those in the 7 bottom cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.errors import KangleError
from rules.fields import Fields
from rules.games.sheet import Line, Sheet, load_game_profile, placement_points, ranks

GAME = "zhaopengyou"


@dataclass(frozen=True)
class Profile:
    total_points: int = 300
    stage_threshold: int = 120
    level_step: int = 60
    single_bottom_multiplier: int = 2
    multi_bottom_multiplier: int = 4
    failed_throw_points: int = 30
    defender_failed_throw_deduction: int = 30
    two_v_three_levels: tuple[int, int, int] = (1, 2, 3)
    one_v_four_levels: tuple[int, int, int] = (2, 4, 6)
    rank_points: tuple[float, ...] = (5, 4, 3, 2, 1)
    misplay_cost: float = 0.5


def load_profile(name_or_path=None) -> Profile:
    f, _ = load_game_profile(GAME, name_or_path)
    f.text("name", GAME)
    d = Profile()
    counts = {k: f.count(k, getattr(d, k)) for k in (
        "total_points", "stage_threshold", "level_step", "single_bottom_multiplier",
        "multi_bottom_multiplier", "failed_throw_points", "defender_failed_throw_deduction")}
    p = Profile(**counts,
                two_v_three_levels=tuple(f.items("two_v_three_levels",
                                                 list(d.two_v_three_levels))),
                one_v_four_levels=tuple(f.items("one_v_four_levels", list(d.one_v_four_levels))),
                rank_points=tuple(f.items("rank_points", list(d.rank_points))),
                misplay_cost=f.nonneg("misplay_cost", d.misplay_cost))
    f.done()
    return p


@dataclass(frozen=True)
class Game:
    dealer: str
    friend: str | None
    defender_points: int
    bottom_points: int
    last_trick_by: str
    last_trick_size: int
    failed_throws: tuple[str, ...]
    wrong_bottom_count: bool

    @property
    def dealer_side(self) -> set[str]:
        return {self.dealer} | ({self.friend} if self.friend else set())


@dataclass(frozen=True)
class Round:
    seats: tuple[str, ...]
    games: tuple[Game, ...]
    misplays: dict[str, int]


def read(data: Any, profile: Profile) -> Round:
    f = Fields(data, GAME)
    f.text("game", GAME)
    listed = f.items("seats")
    by_place = Fields({f"seats[{i}]": s for i, s in enumerate(listed)}, GAME)
    seats = tuple(by_place.text(f"seats[{i}]") for i in range(len(listed)))  # names: text
    if len(seats) != 5 or len(set(seats)) != 5:
        raise KangleError("找朋友 is played by 5 different players: list them in \"seats\", "
                          "counter-clockwise")
    games = tuple(_read_game(g, f"zhaopengyou.games[{i}]", seats, profile)
                  for i, g in enumerate(f.items("games")))
    mf = f.table("misplays", {})
    misplays = {}
    for name in mf.names():
        if name not in seats:
            raise KangleError(f"misplays: {name!r} is not at this table")
        misplays[name] = mf.count(name)
    mf.done()
    f.done()
    return Round(seats, games, misplays)


def _read_game(data: Any, where: str, seats: tuple[str, ...], profile: Profile) -> Game:
    g = Fields(data, where)
    dealer = g.choice("dealer", seats)
    friend = g.choice("friend", (None, *seats), None)
    points, bottom = g.count("defender_points"), g.count("bottom_points", 0)
    if points + bottom > profile.total_points:
        raise KangleError(f"{where}: {points} taken plus {bottom} in the bottom is more than "
                          f"the {profile.total_points} points in the three decks")
    if points % 5 or bottom % 5:
        raise KangleError(f"{where}: point cards are 5s, 10s and Ks: totals are multiples of 5")
    last = g.table("last_trick", {"won_by": "dealer_side", "size": 1})
    game = Game(dealer, None if friend == dealer else friend, points, bottom,
                last.choice("won_by", ("defenders", "dealer_side")), last.count("size"),
                tuple(Fields({"by": x}, f"{where}.failed_throws").choice(
                    "by", ("defenders", "dealer_side")) for x in g.items("failed_throws", [])),
                g.flag("wrong_bottom_count", False))
    last.done()
    g.done()
    return game


def defenders_points(game: Game, profile: Profile) -> tuple[int, list[str]]:
    """P: points taken, the bottom × 2 or × 4 when the defenders win the last trick,
    +30 for each failed throw of the dealer's side, −30 for each of theirs (floor 0)."""
    p, parts = game.defender_points, [f"taken {game.defender_points}"]
    if game.last_trick_by == "defenders" and game.bottom_points:
        mult = (profile.single_bottom_multiplier if game.last_trick_size == 1
                else profile.multi_bottom_multiplier)
        p += game.bottom_points * mult
        parts.append(f"bottom {game.bottom_points} x {mult}")
    for by in game.failed_throws:
        if by == "dealer_side":
            p += profile.failed_throw_points
            parts.append(f"dealer side's failed throw +{profile.failed_throw_points}")
        else:
            p = max(0, p - profile.defender_failed_throw_deduction)
            parts.append(f"defenders' failed throw -{profile.defender_failed_throw_deduction}")
    return p, parts


def play(game: Game, seats: tuple[str, ...], profile: Profile) -> tuple[dict[str, int], str,
                                                                        str, int]:
    """Level changes of one game, the next dealer, what happened, and P."""
    defenders = [s for s in seats if s not in game.dealer_side]
    gains = dict.fromkeys(seats, 0)
    if game.wrong_bottom_count:
        for d in defenders:
            gains[d] = 1
        return gains, _next_dealer(game, seats, defenders), "wrong bottom count: defenders " \
                                                            "win, +1 level each", 0
    p, parts = defenders_points(game, profile)
    if p >= profile.stage_threshold:
        up = (p - profile.stage_threshold) // profile.level_step
        for d in defenders:
            gains[d] = up
        text = f"P = {p} ({', '.join(parts)}): defenders take the stage, +{up} each"
        return gains, _next_dealer(game, seats, defenders), text, p
    table = profile.two_v_three_levels if game.friend else profile.one_v_four_levels
    up = table[2] if p == 0 else table[1] if p < profile.stage_threshold / 2 else table[0]
    for s in game.dealer_side:
        gains[s] = up
    who = "dealer and friend" if game.friend else "dealer (1 v 4)"
    text = f"P = {p} ({', '.join(parts)}): {who} +{up}"
    return gains, _next_dealer(game, seats, sorted(game.dealer_side)), text, p


def _next_dealer(game: Game, seats: tuple[str, ...], winners) -> str:
    """The first player counter-clockwise from the last dealer on the winning side."""
    start = seats.index(game.dealer)
    for step in range(1, 6):
        seat = seats[(start + step) % 5]
        if seat in winners:
            return seat
    return game.dealer


def score(rnd: Round, profile: Profile) -> Sheet:
    """A round at one table: levels gained per player, rank points by rank position
    (shared ranks), minus each misplay."""
    levels = dict.fromkeys(rnd.seats, 0)
    dealt = dict.fromkeys(rnd.seats, 0)
    notes = []
    for i, game in enumerate(rnd.games, start=1):
        gains, nxt, text, _ = play(game, rnd.seats, profile)
        dealt[game.dealer] += 1
        for s, g in gains.items():
            levels[s] += g
        notes.append(f"game {i} (dealer {game.dealer}): {text}; next dealer {nxt}")
    place = ranks(levels)
    points = placement_points(levels, profile.rank_points, ties="top")
    lines = []
    cost = {s: profile.misplay_cost * rnd.misplays.get(s, 0) for s in rnd.seats}
    # ranked by levels (shared on ties); within a shared rank, a misplay lists lower
    for s in sorted(rnd.seats, key=lambda s: (place[s], cost[s])):
        total = points[s] - cost[s]
        parts = [f"levels gained {levels[s]}", f"rank {place[s]}: {points[s]:g}"]
        if cost[s]:
            parts.append(f"{rnd.misplays[s]} misplay(s): -{cost[s]:g}")
        lines.append(Line(s, total, tuple(parts), place[s], total,
                          {"levels": levels[s], "games_as_dealer": dealt[s]}))
    return Sheet(GAME, tuple(lines), tuple(notes))

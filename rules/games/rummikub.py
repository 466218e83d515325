"""Rummikub (魔力橋) scoring of one game, seed 000 / game-scoring.md §1.

Result JSON: ``{"game": "rummikub", "players": [{"name": "A", "hand": ["R7", "J"],
"melded": true, "knocked_over": false}, …]}``. Instead of ``hand`` a player may give
``penalty`` (the counted face value) when the initial meld was made. An empty hand
means the player went out.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from rules.errors import KangleError
from rules.fields import Fields
from rules.games.meld import initial_meld
from rules.games.rummitiles import COLOURS, Tile, check_counts, face_value, parse_hand
from rules.games.sheet import Line, Sheet, names_of, ranks, whole_number_profile

GAME = "rummikub"


@dataclass(frozen=True)
class Profile:
    players_min: int = 2
    players_max: int = 4
    initial_meld_minimum: int = 30
    joker_penalty: int = 30
    no_meld_unable: int = 100
    no_meld_able: int = 200
    knocked_over: int = 200
    max_jokers_in_meld: int = 2
    redeal_pairs: int = 3


def load_profile(name_or_path=None) -> Profile:
    return whole_number_profile(GAME, Profile, name_or_path)


@dataclass(frozen=True)
class Hand:
    name: str
    tiles: tuple[Tile, ...] | None
    penalty: int | None
    melded: bool
    knocked_over: bool


def read(data: Any, profile: Profile) -> list[Hand]:
    f = Fields(data, GAME)
    f.text("game", GAME)
    players = f.items("players")
    names = names_of(players, "rummikub.players")
    if not profile.players_min <= len(players) <= profile.players_max:
        raise KangleError(f"a Rummikub game has {profile.players_min}-{profile.players_max} "
                          f"players, not {len(players)}")
    hands = []
    for i, (name, entry) in enumerate(zip(names, players, strict=True)):
        p = Fields(entry, f"rummikub.players[{i}]")
        p.text("name")
        tiles = tuple(parse_hand(p.items("hand"), name)) if p.has("hand") else None
        penalty = p.count("penalty", None)
        melded = p.flag("melded", True)
        if (tiles is None) == (penalty is None):
            raise KangleError(f"{name}: give either the tiles left in hand (\"hand\") or "
                              "their counted value (\"penalty\"), not both or neither")
        if not melded and tiles is None:
            raise KangleError(f"{name} never made the initial meld: give the tiles in hand, "
                              "so kangle can decide between the -100 and -200 rule")
        hands.append(Hand(name, tiles, penalty, melded, p.flag("knocked_over", False)))
        p.done()
    f.done()
    check_counts(Counter(t for h in hands for t in (h.tiles or ())), "the hands together")
    out = [h.name for h in hands if h.tiles == () or h.penalty == 0]
    if len(out) > 1:
        raise KangleError(f"{' and '.join(out)} cannot both have gone out")
    return hands


def penalty(hand: Hand, profile: Profile) -> tuple[int, str]:
    """A hand's penalty points (positive) and how they were found."""
    if hand.knocked_over:
        return profile.knocked_over, f"rack knocked over deliberately: {profile.knocked_over}"
    if not hand.melded:
        answer = initial_meld(list(hand.tiles), profile.initial_meld_minimum,
                              profile.max_jokers_in_meld)
        if answer.can:
            meld = " + ".join(str(g) for g in answer.groups)
            return profile.no_meld_able, (f"no initial meld, though the hand could make one "
                                          f"({meld} = {answer.value}): {profile.no_meld_able}")
        return profile.no_meld_unable, (f"no initial meld, and the hand cannot make one (best "
                                        f"{answer.value} < {profile.initial_meld_minimum}): "
                                        f"{profile.no_meld_unable}")
    if hand.tiles is None:
        return hand.penalty, f"counted hand: {hand.penalty}"
    if not hand.tiles:
        return 0, "went out"
    values = [face_value(t, profile.joker_penalty) for t in hand.tiles]
    listed = " ".join(map(str, sorted(hand.tiles, key=_order)))
    return sum(values), f"hand {listed} = {sum(values)}"


def score(hands: list[Hand], profile: Profile) -> Sheet:
    """Steps 1-4 of game-scoring.md §1: penalties, the winner(s), each player's score."""
    found = {h.name: penalty(h, profile) for h in hands}
    pens = {name: p for name, (p, _) in found.items()}
    best = min(pens.values())
    winners = [n for n, p in pens.items() if p == best]
    owed = {n: p - best for n, p in pens.items() if n not in winners}
    share = sum(owed.values()) / len(winners)
    scores = {n: (share if n in winners else -owed[n]) for n in pens}
    place = ranks(scores)
    lines = []
    for h in hands:
        why = found[h.name][1]
        if h.name in winners:
            how = (f"winner{' (shared)' if len(winners) > 1 else ''}: "
                   f"+{share:g} = the others' {sum(owed.values())}"
                   + (f" / {len(winners)}" if len(winners) > 1 else ""))
        elif best == 0:  # somebody went out: a loser pays the whole penalty
            how = f"score: minus the penalty = {scores[h.name]:g}"
        else:  # nobody went out: a loser pays what the penalty is over the winner's
            how = (f"score: -({pens[h.name]} - {best}, the winner's penalty) = "
                   f"{scores[h.name]:g}")
        lines.append(Line(h.name, scores[h.name], (why, how), place[h.name]))
    lines.sort(key=lambda line: line.rank)
    notes = ()
    if best > 0:
        notes = ("nobody went out (pool exhausted): the smallest penalty wins",)
    return Sheet(GAME, tuple(lines), notes)


def _order(tile: Tile) -> tuple:
    return (tile.joker, COLOURS.index(tile.colour) if tile.colour else 0, tile.number or 0)


def redeal_allowed(opening: list[Tile], profile: Profile = Profile()) -> bool:
    """An opening hand with this many pairs of identical tiles may be redealt."""
    counts = Counter(t for t in opening if not t.joker)
    return sum(n // 2 for n in counts.values()) >= profile.redeal_pairs

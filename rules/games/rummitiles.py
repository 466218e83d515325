"""Rummikub tiles: 1-13 in four colours, two of each, and two jokers (106 in all).

Written as text: a colour letter and a number — ``R7`` red 7, ``B13`` blue 13,
``K1`` black 1, ``O5`` orange 5 (``Y5``, yellow, is read as orange: some sets print
the fourth colour yellow) — and ``J`` for a joker (``JR``/``JK``: red- or black-faced
joker; the face does not change its value).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rules.errors import KangleError

COLOURS = ("red", "blue", "black", "orange")
_LETTER = {"R": "red", "B": "blue", "K": "black", "O": "orange", "Y": "orange"}
LETTER_OF = {"red": "R", "blue": "B", "black": "K", "orange": "O"}
COPIES = 2
JOKERS = 2


@dataclass(frozen=True, order=True)
class Tile:
    """A numbered tile (``number`` 1-13, ``colour``) or a joker (both None)."""

    number: int | None
    colour: str | None

    @property
    def joker(self) -> bool:
        return self.number is None

    def __str__(self) -> str:
        return "J" if self.joker else f"{LETTER_OF[self.colour]}{self.number}"


JOKER = Tile(None, None)


def parse_tile(text: object) -> Tile:
    if not isinstance(text, str):
        raise KangleError(f"a tile is written like R7, B13, K1, O5 or J, not {text!r}")
    t = text.strip().upper()
    if t in ("J", "JR", "JK", "JOKER"):
        return JOKER
    if len(t) >= 2 and t[0] in _LETTER and t[1:].isdigit() and 1 <= int(t[1:]) <= 13:
        return Tile(int(t[1:]), _LETTER[t[0]])
    raise KangleError(f"{text!r} is not a tile: write a colour letter (R red, B blue, "
                      "K black, O orange) and a number 1-13, or J for a joker")


def parse_hand(tiles: object, who: str = "the hand") -> list[Tile]:
    """Parse and check a list of tiles: no tile more often than the set holds it."""
    if not isinstance(tiles, list):
        raise KangleError(f"{who}: tiles must be a list like [\"R7\", \"B13\", \"J\"]")
    hand = [parse_tile(t) for t in tiles]
    check_counts(Counter(hand), who)
    return hand


def check_counts(counts: Counter, who: str) -> None:
    for tile, n in counts.items():
        limit = JOKERS if tile.joker else COPIES
        if n > limit:
            what = "jokers" if tile.joker else f"{tile.colour} {tile.number}s"
            raise KangleError(f"{who} has {n} {what}; a set has only {limit}")


def face_value(tile: Tile, joker_value: int) -> int:
    return joker_value if tile.joker else tile.number

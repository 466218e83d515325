"""Piece identities: ``R01``…``R16``, ``B01``…``B16`` and the strikers ``RS`` and ``BS``."""

from __future__ import annotations

from rules.errors import KangleError

COLOURS = ("red", "black")
PIECES_PER_COLOUR = 16
STRIKERS = {"red": "RS", "black": "BS"}

RED_PIECES = tuple(f"R{i:02d}" for i in range(1, PIECES_PER_COLOUR + 1))
BLACK_PIECES = tuple(f"B{i:02d}" for i in range(1, PIECES_PER_COLOUR + 1))
ALL_PIECES = RED_PIECES + BLACK_PIECES
ALL_IDS = ALL_PIECES + (STRIKERS["red"], STRIKERS["black"])
_KNOWN = frozenset(ALL_IDS)


def check_id(piece: str) -> str:
    """Return ``piece`` if it is a known id, else raise a KangleError naming it."""
    if piece not in _KNOWN:
        raise KangleError(
            f"unknown piece id {piece!r}: use R01…R16, B01…B16, or the strikers RS and BS"
        )
    return piece


def colour_of(piece: str) -> str:
    """The colour of a piece or striker: 'red' or 'black'."""
    return "red" if check_id(piece)[0] == "R" else "black"


def is_striker(piece: str) -> bool:
    return check_id(piece) in (STRIKERS["red"], STRIKERS["black"])


def opponent(colour: str) -> str:
    """The other colour."""
    check_colour(colour)
    return "black" if colour == "red" else "red"


def check_colour(colour: str) -> str:
    if colour not in COLOURS:
        raise KangleError(f"unknown player {colour!r}: use 'red' or 'black'")
    return colour


def pieces_of(colour: str) -> tuple[str, ...]:
    """The 16 pieces (not the striker) of one colour."""
    return RED_PIECES if check_colour(colour) == "red" else BLACK_PIECES

"""A Rummikub table's result from the tiles each player has left: photos read by
vision/tiles, shown back over the photo for a person to check and correct, then scored
by rules/games/rummikub — nothing is recorded until a person has checked every tile."""

from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import dataclass, field

import cv2

from rules.errors import KangleError
from rules.games import rummikub
from vision.photo import BIG_PHOTO, decode_image
from vision.tiles.draw import annotate
from vision.tiles.read import read_tiles

SHOWN_PX = 900  # the checked photo is sent back at most this wide or high
DOUBT = "?"  # marks a tile read with little confidence until a person checks it


@dataclass
class SeatHand:
    """What the form holds for one player: the tiles left as typed or read (``R7 B13
    K1 O5 J``; empty: went out), whether the initial meld was made, and, after a photo
    was read, the photo with the readings drawn on it and what went wrong."""

    tiles: str = ""
    melded: bool = True
    picture: str | None = None  # a data: URL (JPEG)
    error: str | None = None
    notes: list[str] = field(default_factory=list)
    photo: str | None = None  # the photo's SHA-256 in the event store, once kept


def read_photo(data: bytes, name: str, hand: SeatHand,
               keep: Callable[[bytes], str] | None = None) -> SeatHand:
    """Read one player's photo into ``hand`` (returned): tiles read surely as they are,
    doubtful ones marked ``?`` and listed first (the ones a person must look at), tiles
    cut by the photo's edge left out and said. ``keep``
    stores the photo as read (JPEG; a big one at half size) and names it."""
    try:
        image, _ = decode_image(data, name, halve_above=BIG_PHOTO)
        if keep is not None:
            hand.photo = keep(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 90])[1]
                              .tobytes())
        readings = read_tiles(image)
    except KangleError as exc:
        hand.error = str(exc)
        return hand
    counted = [r for r in readings if not r.cut]
    if not counted:
        hand.error = ("no tiles found: photograph the tiles from above, flat or on the rack, "
                      "filling most of the picture")
        return hand
    first = sorted(counted, key=lambda r: r.sure)  # stable: doubtful, then sure, each in order
    hand.tiles = " ".join(str(r.tile) + ("" if r.sure else DOUBT) for r in first)
    doubtful = sum(1 for r in counted if not r.sure)
    if doubtful:
        hand.notes.append(f"{doubtful} tile(s) marked {DOUBT}: check them on the photo, "
                          f"correct them, then remove the {DOUBT}")
    cut = sum(1 for r in readings if r.cut)
    if cut:
        hand.notes.append(f"{cut} tile(s) cut by the photo's edge are not counted: add them "
                          "by hand or take the photo again")
    shown = annotate(image, readings)
    k = SHOWN_PX / max(shown.shape[:2])
    if k < 1:
        shown = cv2.resize(shown, None, fx=k, fy=k, interpolation=cv2.INTER_AREA)
    ok, jpeg = cv2.imencode(".jpg", shown, [cv2.IMWRITE_JPEG_QUALITY, 80])
    hand.picture = "data:image/jpeg;base64," + base64.b64encode(jpeg.tobytes()).decode()
    return hand


def evidence(hands: dict[str, SeatHand]) -> dict[str, dict]:
    """What a result scored from hands keeps (its ``tiles``): each seat's tiles as a
    person checked them, whether it melded, and its photo's SHA-256 (None: typed)."""
    return {seat: {"hand": h.tiles, "melded": h.melded, "photo": h.photo}
            for seat, h in hands.items()}


def score_hands(hands: dict[str, SeatHand]) -> tuple[dict[str, float], list[str]]:
    """Each player's score from the hands (rules/games/rummikub), and the lines that
    say how; refused while a tile is still marked doubtful."""
    doubtful = [seat for seat, h in hands.items() if DOUBT in h.tiles]
    if doubtful:
        raise KangleError(f"tiles marked {DOUBT} are not checked yet ({', '.join(doubtful)}): "
                          f"compare them with the photo and remove the {DOUBT}")
    data = {"game": "rummikub", "players": [
        {"name": seat, "hand": h.tiles.replace(",", " ").split(), "melded": h.melded}
        for seat, h in hands.items()]}
    profile = rummikub.load_profile(None)
    sheet = rummikub.score(rummikub.read(data, profile), profile)
    return ({line.name: line.score for line in sheet.lines},
            [f"{line.name}: {line.score:g} ({'; '.join(line.parts)})" for line in sheet.lines])

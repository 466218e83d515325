"""A tile set the reader must doubt, shared by the tile and command-line tests."""

from __future__ import annotations

from rules.games.rummitiles import Tile
from vision.tiles.editions import FACES, INK_CHOICES, Edition

# a set whose 6 and 9 are one drawing turned half round: big digits in the middle of
# the face, no mark under them, no maker's line
PLAIN_SET = Edition("DejaVuSans-Bold-digits.ttf", 0.6, 0.5, 0.0, "none", False, "letter",
                    {c: v[0] for c, v in INK_CHOICES.items()}, FACES[1], 0.75, 1.5)
PLAIN_HAND = [Tile(7, "black"), Tile(6, "blue"), Tile(9, "red"), Tile(4, "orange"),
              Tile(6, "black")]

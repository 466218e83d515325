"""Rummikub editions as the renderer draws them: what differs from one set to another.

Real sets differ in the digits' typeface, size and weight, whether a circle or ring sits
behind the number, whether a maker's line is printed under it, the joker's design, the
inks (blue or teal, orange or yellow), the face's colour, the tile's proportions and its
thickness. An ``Edition`` fixes all of these for one photo (a hand is one set). Some
typefaces and one joker design are held out of training, so that the benchmark can say
how the reader does on a set it has never seen.

The typefaces are shipped in ``fonts/`` with their licences (``fonts/licences/``):
DejaVu (Bitstream Vera licence) and URW base35 (AGPL-3 with font exception) and GNU
FreeFont (GPL-3 with font exception) cut down to their digits and "J" with fontTools'
pyftsubset; Liberation (SIL OFL 1.1, whose reserved name forbids a cut-down copy)
whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

FONTS = Path(__file__).parent / "fonts"
HERSHEY = "hershey"  # OpenCV's built-in stroke font, the renderer's first edition
TRAIN_TYPEFACES = (HERSHEY, "DejaVuSans-Bold-digits.ttf", "DejaVuSansCondensed-Bold-digits.ttf",
                   "DejaVuSerif-Bold-digits.ttf", "DejaVuSans-digits.ttf",
                   "LiberationSans-Bold.ttf", "LiberationMono-Bold.ttf",
                   "FreeSerifBold-digits.ttf", "NimbusSansNarrow-Bold-digits.otf",
                   "C059-Bold-digits.otf")
HELD_OUT_TYPEFACES = ("FreeSansBold-digits.ttf", "LiberationSerif-Bold.ttf",
                      "URWGothic-Demi-digits.otf", "P052-Bold-digits.otf")
TRAIN_JOKERS = ("smiley", "jester", "letter", "emblem")
# the joker designs' shares in training: half are emblems, each set a picture of its own
TRAIN_JOKER_SHARES = (1 / 6, 1 / 6, 1 / 6, 1 / 2)
HELD_OUT_JOKERS = ("star",)
BACKDROPS = ("none", "disc", "ring")
# inks, BGR: each colour's range across editions (one is drawn per edition)
INK_CHOICES = {
    "red": ((40, 40, 205), (60, 30, 190), (30, 50, 220), (70, 60, 200)),
    "blue": ((190, 110, 20), (160, 80, 10), (150, 140, 20), (120, 120, 0), (200, 90, 40)),
    "black": ((35, 35, 35), (20, 20, 25), (50, 45, 40)),
    "orange": ((30, 140, 245), (20, 110, 230), (20, 180, 240), (40, 200, 230)),
}
FACES = ((200, 228, 240), (235, 240, 242), (215, 232, 238), (190, 215, 228))  # ivory … white


@dataclass(frozen=True)
class Edition:
    """One tile set's look. Lengths are shares of the tile's face height."""

    typeface: str  # a file in FONTS, or HERSHEY
    digit_height: float  # 0.30-0.75 of the face's height
    digit_centre: float  # the number's middle, from the face's top (share of its height)
    bold: float  # extra stroke, share of the digit height (0: the typeface's own weight)
    backdrop: str  # "none", "disc" (a tinted disc behind the number) or "ring"
    logo: bool  # a faint maker's line under the number
    joker: str  # the joker's design
    inks: dict[str, tuple[int, int, int]]
    face: tuple[int, int, int]  # BGR of the face
    aspect: float  # face width over height
    thickness: float  # the visible side, plane units (a face is 30 units wide)
    emblem: int = 0  # the seed of the picture an "emblem" joker shows (one per set)

    @classmethod
    def classic(cls) -> Edition:
        """The edition the renderer drew first: Hershey digits over a tinted oval."""
        return cls(HERSHEY, 0.36, 0.36, 0.0, "disc", True, "smiley",
                   {c: v[0] for c, v in INK_CHOICES.items()}, FACES[0], 30 / 42, 1.2)


def random_edition(rng: np.random.Generator, held_out: bool = False) -> Edition:
    """An edition drawn at random; ``held_out`` draws only from the typefaces and joker
    designs training never sees (and training draws only from the others)."""
    faces = HELD_OUT_TYPEFACES if held_out else TRAIN_TYPEFACES
    height = float(rng.uniform(0.30, 0.75))
    backdrop = str(rng.choice(BACKDROPS, p=(0.5, 0.3, 0.2))) if height < 0.55 else "none"
    logo = bool(rng.random() < 0.5) and height < 0.6
    typeface = str(rng.choice(faces))
    # big digits fill the face; small ones sit in its upper part above the logo
    centre = float(0.5 - (0.5 - 0.36) * (0.75 - height) / 0.45 + rng.normal(0, 0.02))
    bold = float(rng.choice([0.0, 0.0, 0.03, 0.06]))
    joker = str(rng.choice(HELD_OUT_JOKERS) if held_out
                else rng.choice(TRAIN_JOKERS, p=TRAIN_JOKER_SHARES))
    return Edition(
        typeface=typeface, digit_height=height, digit_centre=centre, bold=bold,
        backdrop=backdrop, logo=logo, joker=joker,
        inks={c: tuple(int(v) for v in choices[rng.integers(len(choices))])
              for c, choices in INK_CHOICES.items()},
        face=tuple(int(v) for v in FACES[rng.integers(len(FACES))]),
        aspect=float(rng.uniform(0.66, 0.80)),
        thickness=float(rng.uniform(0.6, 2.8)),
        emblem=int(rng.integers(1 << 31)) if joker == "emblem" else 0,
    )

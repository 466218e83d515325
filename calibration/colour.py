"""The colour model: what each colour of the venue's piece set looks like under its light,
against its board, learnt from one frame — no fixed thresholds, and no colour assumed to
be darker or redder than the board.

Two measurements separate a piece from the board: its brightness relative to the board
around it (``ratio``: a black piece is much darker than the wood, a white one lighter, a
shadow only a little darker), and its redness (``redness``: red's share of R+G+B, minus
the board's at the same place). The model keeps each colour's mean and spread of both,
and the thresholds past which a pixel belongs to a piece: darker than ``ratio_threshold``,
lighter than ``light_threshold`` or less red by ``cool_threshold`` (only when the set has
a colour lighter than the board: white men on pale wood differ more in colour than in
brightness), or redder by ``redness_threshold`` (only when it has a red one).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from rules.errors import KangleError

Stats = tuple[float, float]  # mean, spread
NEVER = 10.0  # a redness threshold no pixel reaches (a red share is at most 1)
# what a saved model's numbers may be: a brightness ratio to the board (a white piece on
# dark wood is a few times brighter), and a redness (a difference of red shares, or NEVER)
RATIO = (0.0, 50.0)
REDNESS = (-NEVER, NEVER)
# a pixel is like a colour within this squared distance of it (three spreads)
LIKE = 9.0
# a colour learnt from fewer pieces than this is learnt from few: its spread is taken
# wide (learn), and a venue's earlier calibration is preferred to it
FEW_SAMPLES = 4


def share_like(distances: np.ndarray) -> float:
    """The share of pixels whose squared distance (ColourModel.distances) is within
    LIKE."""
    return float(np.mean(distances <= LIKE)) if np.size(distances) else 0.0


@dataclass(frozen=True)
class ColourModel:
    ratio_threshold: float  # pixels darker than this share of the board are piece
    redness_threshold: float  # ... and so are pixels this much redder than the board
    classes: dict[str, tuple[Stats, Stats]]  # colour → (ratio, redness) mean and spread
    light_threshold: float | None = None  # ... and pixels this much lighter than the board
    print_bgr: tuple[float, float, float] | None = None  # discs printed on the board
    cool_threshold: float | None = None  # ... and pixels this much less red than the board

    def distances(self, ratio, redness) -> dict:
        """Each colour's squared distance (in its spreads) from a (ratio, redness): plain
        numbers or arrays of pixels alike."""
        return {colour: ((ratio - mr) / max(sr, 0.03)) ** 2 + (
            (redness - mc) / max(sc, 0.02)) ** 2
            for colour, ((mr, sr), (mc, sc)) in self.classes.items()}

    def classify(self, ratio: float, redness: float) -> tuple[str | None, float]:
        """The colour of a blob (None if it looks like none: a hand, a cue, a shadow) and a
        confidence 0-1."""
        scores = self.distances(ratio, redness)
        best = min(scores, key=scores.get)
        other = max(v for c, v in scores.items() if c != best) if len(scores) > 1 else 1e9
        if scores[best] > 60:
            return None, 0.0
        confidence = min(max(1 - scores[best] / (other + 1e-9), 0.0), 1.0) * math.exp(
            -scores[best] / 40)
        return best, confidence

    def rim_threshold(self, rim_level: float) -> float:
        """The share of the rim's brightness below which a pixel on the rim may be a dark
        piece's: midway between the rim and the brightest of the dark pieces (mean + 2.5
        spreads of the playing surface's brightness; ``rim_level``, the rim's share of
        it, brings that to the rim's), at most RIM_DARKEST (the rim's grain and the
        shadows on it), never below ``ratio_threshold``."""
        dark = [mr + 2.5 * sr for (mr, sr), _ in self.classes.values() if mr < DARK_CLASS]
        if not dark or rim_level <= 0:
            return self.ratio_threshold
        return float(np.clip((min(dark) / rim_level + 1) / 2, self.ratio_threshold,
                             RIM_DARKEST))

    def classify_by_redness(self, redness: float) -> tuple[str | None, float]:
        """For pieces off the playing surface (on the rim), where brightness against a
        dark frame says nothing: redness against the playing surface only. Colours that
        redness cannot tell apart (white from black) give no answer."""
        z = {colour: abs(redness - mc) / max(sc, 0.02)
             for colour, (_, (mc, sc)) in self.classes.items()}
        best = min(z, key=z.get)
        (_, (mb, sb)) = self.classes[best]
        alike = [c for c, (_, (mc, sc)) in self.classes.items()
                 if c != best and abs(mc - mb) < 2 * max(sb, sc, 0.02)]
        if z[best] > 6 or alike:
            return None, 0.0
        second = min((v for c, v in z.items() if c != best), default=1e9)
        return best, float(np.clip(1 - z[best] / max(second, 1e-9), 0, 1))

    def adding(self, classes: dict[str, tuple[Stats, Stats]]) -> ColourModel:
        """This model with more colours (learnt elsewhere: a venue's earlier frame), its
        thresholds set for them all."""
        return from_classes({**classes, **self.classes}, self.print_bgr)

    def to_json(self) -> dict:
        return {"ratio_threshold": self.ratio_threshold,
                "redness_threshold": self.redness_threshold,
                "light_threshold": self.light_threshold,
                "print_bgr": None if self.print_bgr is None else list(self.print_bgr),
                "cool_threshold": self.cool_threshold,
                "classes": {c: {"ratio": list(r), "redness": list(d)}
                            for c, (r, d) in self.classes.items()}}

    @classmethod
    def from_json(cls, data: dict) -> ColourModel:
        """The model as saved; also reads the first format, which knew only red and black
        (``red_ratio``, ``black_ratio``, ``red_redness``, ``black_redness``)."""
        try:
            if "classes" in data:
                classes = {str(c): (_stats(v["ratio"], RATIO), _stats(v["redness"], REDNESS))
                           for c, v in data["classes"].items()}
            else:
                classes = {c: (_stats(data[f"{c}_ratio"], RATIO),
                               _stats(data[f"{c}_redness"], REDNESS)) for c in ("red", "black")}
            light, ink = data.get("light_threshold"), data.get("print_bgr")
            cool = data.get("cool_threshold")
            model = cls(_finite(data["ratio_threshold"], RATIO),
                        _finite(data["redness_threshold"], REDNESS), classes,
                        None if light is None else _finite(light, RATIO),
                        None if ink is None else tuple(_finite(v, (0.0, 255.0)) for v in ink),
                        None if cool is None else _finite(cool, REDNESS))
            if model.print_bgr is not None and len(model.print_bgr) != 3:
                raise ValueError("print_bgr must have three values")
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise KangleError(f"the calibration's colour model is damaged ({exc}): "
                              "calibrate the board again") from None
        if len(classes) < 2:
            raise KangleError("the calibration's colour model knows fewer than two colours: "
                              "calibrate the board again")
        return model


def _finite(value, within: tuple[float, float]) -> float:
    """``value`` as a finite number within the closed range ``within``."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a number")
    number = float(value)
    if not np.isfinite(number):
        raise ValueError(f"{value!r} is not a finite number")
    if not within[0] <= number <= within[1]:
        raise ValueError(f"{value!r} is outside {within[0]:g} to {within[1]:g}")
    return number


def _stats(value, within: tuple[float, float]) -> Stats:
    """(mean, spread) of a measurement whose values lie within ``within``."""
    mean, spread = (_finite(v, within) for v in value)
    if spread < 0:
        raise ValueError(f"a negative spread {spread}")
    return mean, spread


# a class this much lighter than the board (ratio) is a light colour: white pieces
LIGHT_CLASS = 1.08
# a class this much darker is a dark colour, which the darkness threshold is set for
DARK_CLASS = 0.7
# on the rim a pixel may be a dark piece's only below this share of the rim's brightness
RIM_DARKEST = 0.72


def learn(samples: dict[str, list[tuple[float, float]]], least: dict[str, int] | None = None,
          print_bgr: tuple[float, float, float] | None = None) -> ColourModel:
    """Build the model from (ratio, redness) samples of the cores of pieces whose colour
    is known. ``least``: how many samples each colour needs (default four each); a colour
    with none is left out, unless it is needed. ``print_bgr``: the colour of the discs
    printed on the board, if it has any."""
    least = least or {c: FEW_SAMPLES for c in samples}
    for colour, need in least.items():
        if len(samples.get(colour, [])) < need:
            raise KangleError(f"the frame shows too few {colour} pieces to learn their colour "
                              f"({len(samples.get(colour, []))}, at least {need} needed): put "
                              "all pieces in their starting places and retry")
    classes = {}
    for colour, seen in samples.items():
        if not seen:
            continue
        arr = np.array(seen)
        floor = 0.02 if len(arr) >= FEW_SAMPLES else 0.05  # few say little of the spread
        classes[colour] = tuple((float(arr[:, k].mean()), float(arr[:, k].std() + floor))
                                for k in (0, 1))
    return from_classes(classes, print_bgr)


def from_classes(classes: dict[str, tuple[Stats, Stats]],
                 print_bgr: tuple[float, float, float] | None = None) -> ColourModel:
    """The model of these colours (``learn``'s classes): the thresholds past which a
    pixel belongs to a piece set where the colours lie."""
    dark = [r for r, _ in classes.values() if r[0] < DARK_CLASS]
    darkest_board = 0.62  # a deep shadow still keeps this share of the board's light
    threshold = (float(np.clip((min(m + 2.5 * s for m, s in dark) + darkest_board) / 2, 0.35,
                               0.6)) if dark else 0.5)
    reds = [d[0] for r, d in classes.values() if d[0] > 0.08]
    redness = float(np.clip(min(reds) / 2, 0.06, 0.2)) if reds else NEVER
    # a light colour: lighter than the board, or about as light but less red (white men
    # on pale wood)
    lights = [(r, d) for r, d in classes.values() if r[0] > LIGHT_CLASS or (
        r[0] > DARK_CLASS and d[0] < -0.015)]
    light = (float(np.clip((min(r[0] - 2.5 * r[1] for r, _ in lights) + 1.0) / 2, 1.05, 1.25))
             if lights else None)
    cool = (float(np.clip(min(-d[0] for _, d in lights) / 2, 0.01, 0.1))
            if lights and max(d[0] for _, d in lights) < -0.015 else None)
    return ColourModel(threshold, redness, classes, light, print_bgr, cool)

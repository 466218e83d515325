"""The colour model: what red pieces, black pieces and the playing surface look like under
this venue's light, learnt from one frame of the set-up position — no fixed thresholds.

Two measurements separate a piece from the board: its brightness relative to the board
around it (``ratio``: a piece is much darker than the wood, a shadow only a little), and
its redness (``redness``: red's share of R+G+B, minus the board's at the same place).
The model keeps each class's mean and spread of both, and the thresholds between them.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from rules.errors import KangleError


@dataclass(frozen=True)
class ColourModel:
    ratio_threshold: float  # pixels darker than this share of the board are piece
    redness_threshold: float  # ... and so are pixels this much redder than the board
    red_ratio: tuple[float, float]  # mean, spread of a red piece's ratio
    black_ratio: tuple[float, float]
    red_redness: tuple[float, float]  # mean, spread of redness (red share minus board's)
    black_redness: tuple[float, float]

    def classify(self, ratio: float, redness: float) -> tuple[str | None, float]:
        """'red' or 'black' (None if the blob looks like neither) and a confidence 0-1."""
        scores = {}
        for colour, (mr, sr), (mc, sc) in (("red", self.red_ratio, self.red_redness),
                                           ("black", self.black_ratio, self.black_redness)):
            scores[colour] = ((ratio - mr) / max(sr, 0.03)) ** 2 + (
                (redness - mc) / max(sc, 0.02)) ** 2
        best = min(scores, key=scores.get)
        other = max(scores.values())
        if scores[best] > 60:  # far from both: a hand, a cue, a shadow
            return None, 0.0
        confidence = float(np.clip(1 - scores[best] / (other + 1e-9), 0, 1)) * float(
            np.exp(-scores[best] / 40))
        return best, confidence

    def classify_by_redness(self, redness: float) -> tuple[str | None, float]:
        """For pieces off the playing surface (on the rim), where brightness against a
        dark frame says nothing: redness against the playing surface only."""
        (mr, sr), (mb, sb) = self.red_redness, self.black_redness
        zr, zb = abs(redness - mr) / max(sr, 0.02), abs(redness - mb) / max(sb, 0.02)
        if min(zr, zb) > 6:
            return None, 0.0
        best = "red" if zr < zb else "black"
        return best, float(np.clip(1 - min(zr, zb) / max(zr, zb, 1e-9), 0, 1))

    def to_json(self) -> dict:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict) -> ColourModel:
        try:
            return cls(float(data["ratio_threshold"]), float(data["redness_threshold"]),
                       tuple(data["red_ratio"]),
                       tuple(data["black_ratio"]), tuple(data["red_redness"]),
                       tuple(data["black_redness"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise KangleError(f"the calibration's colour model is damaged ({exc}): "
                              "calibrate the board again") from None


def learn(samples: dict[str, list[tuple[float, float]]]) -> ColourModel:
    """Build the model from (ratio, redness) samples of the cores of known red and black
    pieces in the set-up frame."""
    for colour in ("red", "black"):
        if len(samples.get(colour, [])) < 4:
            raise KangleError(f"the set-up frame shows too few {colour} pieces to learn their "
                              "colour: put all pieces in their starting places and retry")
    stats = {}
    for colour in ("red", "black"):
        arr = np.array(samples[colour])
        stats[colour] = [(float(arr[:, k].mean()), float(arr[:, k].std() + 0.02))
                         for k in (0, 1)]
    darkest_board = 0.62  # a deep shadow still keeps this share of the board's light
    threshold = float(np.clip((stats["black"][0][0] + 2.5 * stats["black"][0][1] +
                               darkest_board) / 2, 0.35, 0.6))
    redness = float(np.clip(stats["red"][1][0] / 2, 0.06, 0.2))
    return ColourModel(threshold, redness, stats["red"][0], stats["black"][0], stats["red"][1],
                       stats["black"][1])

"""The calibration profile: one JSON file with everything a venue's camera needs —
intrinsics and distortion, the board's pose, the board as measured, the colour model —
which every later command takes (schema ``kangle.calibration/1``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from calibration.camera import Camera
from calibration.colour import ColourModel
from rules.board import Board, board_from_table
from rules.errors import KangleError
from rules.jsonfile import check_schema, read_json, write_json

SCHEMA = "kangle.calibration/1"


def board_table(board: Board) -> dict[str, Any]:
    """A board as the TOML/JSON table its profile is written in."""
    return {"name": board.name,
            "surface": {"side_mm": board.side, "rim_width_mm": board.rim_width},
            "holes": {"diameter_mm": board.hole_diameter, "inset_mm": board.hole_inset},
            "circles": {"diameter_mm": board.circle_diameter, "inset_mm": board.circle_inset,
                        "owners": dict(board.circle_owners)},
            "rings": {"penalty_diameter_mm": board.penalty_diameter,
                      "inner_diameter_mm": board.inner_diameter},
            "pieces": {"diameter_mm": board.piece_diameter, "mass_g": board.piece_mass,
                       "thickness_mm": board.piece_thickness},
            "striker": {"diameter_mm": board.striker_diameter, "mass_g": board.striker_mass,
                        "thickness_mm": board.striker_thickness},
            "design": board.design,
            "set": [{"name": p.name, "colour": p.colour, "size": p.size, "count": p.count}
                    for p in board.piece_set]}


@dataclass(frozen=True)
class Calibration:
    camera: Camera
    board: Board
    colours: ColourModel
    residual_mm: float

    def to_json(self) -> dict[str, Any]:
        c = self.camera
        return {"schema": SCHEMA,
                "camera": {"matrix": c.matrix.tolist(), "dist": c.dist.tolist(),
                           "size": list(c.size)},
                "pose": {"rvec": np.asarray(c.rvec).tolist(), "tvec": np.asarray(c.tvec).tolist(),
                         "residual_mm": round(self.residual_mm, 3)},
                "board": board_table(self.board),
                "colours": self.colours.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> Calibration:
        check_schema(data, SCHEMA, "calibration profile")
        try:
            cam, pose = data["camera"], data["pose"]
            camera = Camera(np.array(cam["matrix"], float), np.array(cam["dist"], float),
                            tuple(int(v) for v in cam["size"]), np.array(pose["rvec"], float),
                            np.array(pose["tvec"], float))
            residual = float(pose.get("residual_mm", 0.0))
        except (KeyError, TypeError, ValueError) as exc:
            raise KangleError(f"the calibration profile is damaged ({exc}): calibrate again") \
                from None
        board = board_from_table(data["board"], "calibration profile")
        return cls(camera, board, ColourModel.from_json(data["colours"]), residual)

    def save(self, path: str | Path) -> None:
        write_json(path, self.to_json())

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        return cls.from_json(read_json(path, "calibration profile"))

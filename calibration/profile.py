"""The calibration profile: one JSON file with everything a venue's camera needs —
intrinsics and distortion, the board's pose, the board as measured, the colour model —
which every later command takes (schema ``kangle.calibration/1``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from calibration.camera import Camera
from calibration.colour import ColourModel
from rules.board import Board, board_from_table
from rules.errors import KangleError
from rules.jsonfile import check_schema, read_json, write_json

SCHEMA = "kangle.calibration/1"
MOST_DISTORTION = 1e3  # lens distortion coefficients past this are no lens's
FARTHEST_MM = 1e5  # no overhead camera is 100 m from its board


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
    # how many lone pieces each colour's look was learnt from, as this calibration was
    # made (empty when loaded, or when the colours came from the set-up rows or from an
    # earlier calibration): not saved
    learnt_from: dict[str, int] = field(default_factory=dict, compare=False)

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
        """The calibration as saved; every field checked (shapes, finite numbers, a
        positive image size, a board and colours present), a damaged one refused with
        the place named."""
        check_schema(data, SCHEMA, "calibration profile")
        try:
            cam, pose = _table(data, "camera"), _table(data, "pose")
            size = _numbers(cam.get("size"), (2,), "camera.size")
            if (size <= 0).any() or (size != np.round(size)).any() or (size > 100_000).any():
                raise ValueError(f"camera.size: {size.tolist()} is not an image size in pixels")
            camera = Camera(_numbers(cam.get("matrix"), (3, 3), "camera.matrix"),
                            _numbers(cam.get("dist"), None, "camera.dist"),
                            (int(size[0]), int(size[1])),
                            _numbers(pose.get("rvec"), (3,), "pose.rvec"),
                            _numbers(pose.get("tvec"), (3,), "pose.tvec"))
            if len(camera.dist) not in (4, 5, 8, 12, 14):
                raise ValueError(f"camera.dist: {len(camera.dist)} coefficients, not 4, 5, 8, "
                                 "12 or 14")
            if (np.abs(camera.dist) > MOST_DISTORTION).any():
                raise ValueError(f"camera.dist: a coefficient past ±{MOST_DISTORTION:g}")
            m = camera.matrix
            if not (0 < m[0, 0] < 1e6 and 0 < m[1, 1] < 1e6 and m[2].tolist() == [0, 0, 1]
                    and m[1, 0] == 0 and abs(m[0, 1]) < m[0, 0]
                    and abs(m[0, 2]) < 2 * size[0] and abs(m[1, 2]) < 2 * size[1]):
                raise ValueError("camera.matrix: not a camera's (focal lengths in pixels, "
                                 "the centre near the image, last row 0 0 1)")
            # (the largest component first: the length of a vector of 1e308s overflows)
            if np.abs(camera.rvec).max() > 2 * np.pi or np.linalg.norm(camera.rvec) > 2 * np.pi:
                raise ValueError(f"pose.rvec: {camera.rvec.tolist()} is no camera's turn (a "
                                 "rotation vector's length is its angle: at most a full turn)")
            if np.abs(camera.tvec).max() > FARTHEST_MM:
                raise ValueError(f"pose.tvec: the board more than {FARTHEST_MM:g} mm from "
                                 "the camera")
            residual = float(_numbers(pose.get("residual_mm", 0.0), (), "pose.residual_mm"))
            if not 0 <= residual <= FARTHEST_MM:
                raise ValueError(f"pose.residual_mm: {residual:g} is no fit's residual")
            board_data, colours = _table(data, "board"), _table(data, "colours")
        except ValueError as exc:
            raise KangleError(f"the calibration profile is damaged ({exc}): calibrate again") \
                from None
        board = board_from_table(board_data, "calibration profile")
        return cls(camera, board, ColourModel.from_json(colours), residual)

    def save(self, path: str | Path) -> None:
        write_json(path, self.to_json())

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        return cls.from_json(read_json(path, "calibration profile"))


def _table(data: dict, key: str) -> dict:
    value = data.get(key)
    if not isinstance(value, dict):
        raise ValueError(f"{key}: missing, or not a table")
    return value


def _numbers(value: Any, shape: tuple[int, ...] | None, where: str) -> np.ndarray:
    """``value`` as a float array of ``shape`` (None: any flat list), every element a
    finite number (not a boolean)."""
    def flat(v):
        return [x for item in v for x in flat(item)] if isinstance(v, list) else [v]
    items = flat(value)
    if any(isinstance(x, bool) or not isinstance(x, int | float) for x in items):
        raise ValueError(f"{where}: not numbers")
    array = np.array(value, dtype=float)
    if shape is not None and array.shape != shape:
        raise ValueError(f"{where}: shape {array.shape}, expected {shape}")
    if shape is None and array.ndim != 1:
        raise ValueError(f"{where}: expected a flat list of numbers")
    if not np.isfinite(array).all():
        raise ValueError(f"{where}: not a finite number")
    return array

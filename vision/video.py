"""Filming simulated shots: the renderer's frames of a shot record at a camera's frame
rate, with motion blur, as ground-truth videos for the tracker's tests, benchmark and
the demo."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from calibration.camera import Camera
from rules.shot import ShotRecord
from rules.timeline import Timeline
from vision.player import Player
from vision.render import Look, Renderer

ROLLING_BANDS = 8  # bands of rows a rolling shutter is filmed in (each its own moment)


@dataclass(frozen=True)
class Webcam:
    """What a webcam does to brightness over time, on top of the scene's ``Look``:
    ``flicker`` the depth of mains-light flicker (lamps on 50 Hz mains pulse at 100 Hz;
    a short shutter catches them at another phase each frame), ``drift`` the reach of
    auto-exposure hunting (a slow swing of the gain over ``drift_period`` s)."""

    flicker: float = 0.0  # fraction of brightness, peak
    drift: float = 0.0  # fraction of brightness, peak
    drift_period: float = 3.0  # s
    phase: float = 0.0  # rad, where the lamps' cycle stands at t = 0

    @classmethod
    def random(cls, rng: np.random.Generator) -> Webcam:
        return cls(flicker=float(rng.uniform(0.03, 0.12)), drift=float(rng.uniform(0.02, 0.1)),
                   drift_period=float(rng.uniform(1.5, 5.0)),
                   phase=float(rng.uniform(0, 2 * np.pi)))

    def gain(self, t: float) -> float:
        """The image's brightness factor at time ``t`` (s)."""
        return (1.0 + self.flicker * np.sin(2 * np.pi * 100.0 * t + self.phase)
                + self.drift * np.sin(2 * np.pi * t / self.drift_period))


def film_shot(renderer: Renderer, camera: Camera, record: ShotRecord, fps: float = 60.0,
              look: Look | None = None, exposure: float = 0.25, moments: int = 3,
              lead: float = 0.1, tail: float = 0.4, webcam: Webcam | None = None,
              readout: float = 0.0, compress: bool = False,
              player: Player | None = None) -> list[tuple[float, np.ndarray]]:
    """Frames (time in s from the strike, image) from ``lead`` before the strike to
    ``tail`` after rest. Each frame averages ``moments`` instants spread over the
    exposure, a fraction of the frame interval (0.25: a 1/240 s shutter at 60 fps, as a
    referee's webcam should be set): a fast piece is a blur. ``webcam`` adds flicker
    and exposure drift. ``readout`` (s) > 0 films with a rolling shutter, as most
    webcams' sensors are read: the top row at the frame's time minus half of it, the
    bottom row plus half (in ROLLING_BANDS bands), so a fast piece is seen where it was
    when its rows were read. ``compress`` sends the frames through a video codec and
    back (``compressed``), as a webcam's stream arrives. ``player`` films the player's
    cue, bridge hand and arm over the board (``vision.player``): give a ``lead`` of
    0.4 s or more to see the aim and the backswing."""
    timeline = Timeline.of(record, board=renderer.board)
    dt = 1.0 / fps
    times = np.arange(-lead, record.duration + tail, dt)
    bands = ROLLING_BANDS if readout > 0 else 1
    shifts = [readout * ((b + 0.5) / bands - 0.5) for b in range(bands)]
    exposures = []
    for t in times:
        instants = [t + dt * exposure * (k / max(moments - 1, 1) - 0.5) for k in range(moments)]
        per_band = [[timeline.positions(max(0.0, s + shift)) for s in instants]
                    for shift in shifts]
        exposures.append(per_band if bands > 1 else per_band[0])
    board = renderer.board
    over = [player.shapes(record, t, board.striker_radius, board.striker_thickness)
            for t in times.tolist()] if player is not None else None
    images = renderer.film(camera, exposures, look, bands, over)
    if webcam is not None:  # (in place: a long film is not held twice)
        for t, img in zip(times.tolist(), images, strict=True):
            cv2.convertScaleAbs(img, dst=img, alpha=webcam.gain(t))
    if compress:
        images = compressed(images, fps)
    return list(zip(times.tolist(), images, strict=True))


def compressed(images: list[np.ndarray], fps: float) -> list[np.ndarray]:
    """The frames as they come out of a lossy, motion-compensated video codec (``images``
    is emptied as they are written, so a long film is not held twice): encoded as
    MPEG-4 Part 2 (``mp4v``, OpenCV's FFmpeg default rate: about 1.8 Mbit/s for 1280x720
    at 60 fps, 36 dB PSNR on a filmed shot) and decoded again. A webcam streams H.264,
    which OpenCV's wheels cannot encode; MPEG-4 Part 2 makes the same kinds of damage
    (8x8 blocks quantised, fast pieces smeared by motion compensation, detail lost
    between key frames), somewhat more of it at one rate."""
    h, w = images[0].shape[:2]
    count = len(images)
    with tempfile.TemporaryDirectory() as folder:
        path = str(Path(folder) / "film.mp4")
        writer = cv2.VideoWriter(path, cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
        if not writer.isOpened():
            raise RuntimeError("this OpenCV build has no MPEG-4 encoder")
        images.reverse()
        while images:
            writer.write(images.pop())
        writer.release()
        source = cv2.VideoCapture(path)
        out = []
        while len(out) < count:
            ok, image = source.read()
            if not ok:
                break
            out.append(image)
        source.release()
    if len(out) != count:
        raise RuntimeError(f"the codec gave back {len(out)} of {count} frames")
    return out

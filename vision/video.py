"""Filming simulated shots: the renderer's frames of a shot record at a camera's frame
rate, with motion blur, as ground-truth videos for the tracker's tests, benchmark and
the demo."""

from __future__ import annotations

import numpy as np

from calibration.camera import Camera
from rules.shot import ShotRecord
from rules.timeline import Timeline
from vision.render import Look, Renderer


def film_shot(renderer: Renderer, camera: Camera, record: ShotRecord, fps: float = 60.0,
              look: Look | None = None, exposure: float = 0.25, moments: int = 3,
              lead: float = 0.1, tail: float = 0.4) -> list[tuple[float, np.ndarray]]:
    """Frames (time in s from the strike, image) from ``lead`` before the strike to
    ``tail`` after rest. Each frame averages ``moments`` instants spread over the
    exposure, a fraction of the frame interval (0.25: a 1/240 s shutter at 60 fps, as a
    referee's webcam should be set): a fast piece is a blur."""
    timeline = Timeline.of(record, board=renderer.board)
    dt = 1.0 / fps
    times = np.arange(-lead, record.duration + tail, dt)
    exposures = []
    for t in times:
        instants = [t + dt * exposure * (k / max(moments - 1, 1) - 0.5) for k in range(moments)]
        exposures.append([timeline.positions(max(0.0, s)) for s in instants])
    images = renderer.film(camera, exposures, look)
    return list(zip(times.tolist(), images, strict=True))

"""Text on kangle's pictures — the replay viewer, the referee window, exported GIFs, PNGs
and videos — in a font that has the rule sheet's own terms (廢子, 小回, 大回, 棄子, 自由子,
參): Kangle CJK, a cut of Noto Sans CJK HK shipped in ``fonts/`` with its licence
(``fonts/subset.py`` says how it was made)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT = Path(__file__).parent / "fonts" / "KangleCJK-Regular.otf"


def pygame_font(size: int):
    """The font for pygame surfaces, ``size`` pixels."""
    import pygame

    pygame.font.init()
    return pygame.font.Font(str(FONT), size)


@lru_cache(maxsize=8)
def _pil_font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONT), size)


def wrap(text: str, width_px: int, measure) -> list[str]:
    """``text`` broken into lines no wider than ``width_px`` as ``measure(line)`` (pixels)
    says: at spaces, and inside a word only where one word alone is too wide (Chinese has
    no spaces to break at)."""
    lines, line = [], ""
    for word in text.split(" "):
        trial = f"{line} {word}" if line else word
        if measure(trial) <= width_px:
            line = trial
            continue
        if line:
            lines.append(line)
        line = ""
        for ch in word:  # a word wider than the line: break it where it overflows
            if measure(line + ch) > width_px and line:
                lines.append(line)
                line = ""
            line += ch
    if line:
        lines.append(line)
    return lines


def draw_lines(image: np.ndarray, lines: list[str], origin: tuple[int, int], size: int,
               colour: tuple[int, int, int], width_px: int) -> np.ndarray:
    """The BGR ``image`` with ``lines`` written from ``origin`` (pixels, top left), each
    wrapped to ``width_px``, on a shadow so they read on any background."""
    font = _pil_font(size)
    picture = Image.fromarray(np.ascontiguousarray(image[:, :, ::-1]))
    draw = ImageDraw.Draw(picture)
    x, y = origin
    for text in lines:
        for line in wrap(text, width_px, lambda s: draw.textlength(s, font=font)):
            draw.text((x + 1, y + 1), line, font=font, fill=(0, 0, 0))
            draw.text((x, y), line, font=font, fill=tuple(int(c) for c in colour[::-1]))
            y += int(size * 1.25)
    return np.asarray(picture)[:, :, ::-1].copy()

"""Reading named TOML profiles (board, rules, physics, games) by name or by path."""

from __future__ import annotations

import tomllib
from pathlib import Path

from rules.errors import KangleError
from rules.jsonfile import read_text


def read_profile(name_or_path: str | Path, kind: str, shipped_dir: Path) -> tuple[dict, str]:
    """Load a TOML profile.

    ``name_or_path`` is either a path to a ``.toml`` file or the name of a profile
    shipped in ``shipped_dir`` (``goma`` → ``shipped_dir/goma.toml``). Returns the
    parsed table and a label saying where it came from. ``kind`` ("board", "rules", …)
    only words the error messages.
    """
    text_name = str(name_or_path)
    path = Path(text_name)
    if not (text_name.endswith(".toml") or path.is_file()):
        path = shipped_dir / f"{text_name}.toml"
        if not path.exists():
            shipped = sorted(p.stem for p in shipped_dir.glob("*.toml"))
            raise KangleError(
                f"no {kind} profile named {text_name!r}: give a path to a .toml file "
                f"or one of the shipped profiles: {', '.join(shipped)}"
            )
    try:
        data = tomllib.loads(read_text(path, f"{kind} profile"))
    except tomllib.TOMLDecodeError as exc:
        raise KangleError(f"{kind} profile {path} is not valid TOML: {exc}") from None
    return data, str(path)

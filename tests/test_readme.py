"""The README's commands run as written: each ``kangle`` line of its ``sh`` blocks, in
order, in one fresh folder holding a copy of examples/, exits 0.

Lines that need a person or a device (a window, a camera, an interactive prompt, a
server, a PostgreSQL database) are left out, each for its stated
reason. The files that stand in for the reader's own (chessboard photos, frames of a
game, a table state) ship in examples/ (examples/make_stand_ins.py renders them); the
players' and teams' name lists the README asks for are written first, as the reader
would.
"""

from __future__ import annotations

import glob
import re
import shlex
import shutil
from pathlib import Path

import pytest

from kangle.cli import main

ROOT = Path(__file__).resolve().parents[1]

# a line holding one of these is not run here, for the reason given
NEEDS = {
    "--camera 0": "a webcam",
    "kangle replay break.json  ": "a window",
    "--show": "a window",
    "kangle game play": "a person at the prompt",
    "kangle serve": "a server left running",
    "postgresql": "a PostgreSQL server",
}


def readme_commands() -> list[tuple[str, list[str]]]:
    """Every ``kangle`` command of the README's ``sh`` blocks, in order, with the output
    the README shows under it (its ``# `` lines that follow the command)."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    commands: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            if line.startswith("kangle "):
                commands.append((line, []))
            elif line.startswith("# ") and commands:
                commands[-1][1].append(line[2:].strip())
    return commands


def _run(line: str, capsys) -> str:
    """Runs one README line (``&&``, ``>`` and ``*`` as a shell has them); its output."""
    code = line.split("  #")[0].strip()
    printed = ""
    for part in code.split(" && "):
        argv = shlex.split(part)
        out = None
        if ">" in argv:
            argv, out = argv[:argv.index(">")], argv[argv.index(">") + 1]
        argv = [m for a in argv[1:] for m in (sorted(glob.glob(a)) if "*" in a else [a])]
        status = main(argv)
        stdout, stderr = capsys.readouterr()
        assert status == 0, f"{part!r} exited {status}: {stderr or stdout}"
        if out:
            Path(out).write_text(stdout, encoding="utf-8")
        printed += stdout
    return printed


def test_every_readme_command_runs_as_written(tmp_path, monkeypatch, capsys):
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    (tmp_path / "players.txt").write_text(
        "\n".join(f"P{k:02d}" for k in range(1, 9)) + "\n", encoding="utf-8")
    (tmp_path / "teams.txt").write_text(
        "\n".join(f"T{k:02d}" for k in range(1, 17)) + "\n", encoding="utf-8")
    ran = left = 0
    for line, shown in readme_commands():
        if any(need.lower() in line.lower() for need in NEEDS):
            left += 1
            continue
        printed = _run(line, capsys)
        for expected in shown:  # what the README says it prints, it prints
            assert expected in printed, f"{line!r} no longer prints {expected!r}"
        ran += 1
    assert ran >= 40 and left == len(NEEDS)


@pytest.mark.parametrize("need", sorted(NEEDS))
def test_each_line_left_out_is_still_in_the_readme(need):
    """A reason for leaving a line out that no longer matches any line is stale."""
    assert any(need.lower() in line.lower() for line, _ in readme_commands()), need

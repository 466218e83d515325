"""benchmarks/tracking.py's kept detections: a shot filmed once and refereed again from
them gives the filmed run's figures, line for line."""

import os
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).parent.parent / "benchmarks" / "tracking.py"
SHOT = ["--start", "9551", "--shots", "1", "--fps", "30"]  # a held-out cushion shot


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(BENCH), *SHOT, *args], capture_output=True,
                          text=True, timeout=600, env={**os.environ, "SDL_VIDEODRIVER": "dummy"})


def test_a_shot_replayed_from_its_kept_detections_gives_the_filmed_runs_figures(tmp_path):
    filmed = run("--keep", str(tmp_path))
    assert filmed.returncode == 0, filmed.stderr
    assert (tmp_path / "shot-9551.json.gz").exists()
    replayed = run("--replay", str(tmp_path), "--gallery", str(tmp_path / "g"))
    assert replayed.returncode == 0, replayed.stderr
    assert not list(tmp_path.glob("g/*.gif"))  # (no frames: a replay's gallery is text)
    figures = [line for line in filmed.stdout.splitlines() if "per frame" not in line
               and "memory" not in line]
    again = [line for line in replayed.stdout.splitlines() if "per frame" not in line
             and "memory" not in line]
    assert figures == again and "calls equal to the truth" in "\n".join(figures)
    assert "tracking alone (a replay)" in replayed.stdout


def test_a_replay_without_kept_detections_damaged_or_keeping_them_again_is_refused(tmp_path):
    nothing = run("--replay", str(tmp_path))
    assert nothing.returncode != 0 and "no shot was refereed" in nothing.stderr
    both = run("--replay", str(tmp_path), "--keep", str(tmp_path / "k"))
    assert both.returncode == 2 and "--keep films" in both.stderr
    (tmp_path / "shot-9551.json.gz").write_bytes(b"not gzip")
    damaged = run("--replay", str(tmp_path))
    assert damaged.returncode != 0 and "not detections kept by --keep" in damaged.stderr
    assert "Traceback" not in damaged.stderr

"""Keystrokes to enter each shot of the demo game: shot notation against a JSON record.

    python benchmarks/keystrokes.py

A scripted count, not a stopwatch: each shot of examples/demo-game (as the script plays
it) is written as a notation line (rules.notation.write_shot, the line a referee would
type, ids where the record has them) and counted in characters, against the shortest
JSON record that says the same (the record's compact JSON without its trajectory),
the baseline measured in the same run. Goal (issue #23): a typical shot in under 25.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from rules.board import load_board  # noqa: E402
from rules.game import discard, lag, timeout  # noqa: E402
from rules.notation import parse_shot, write_shot  # noqa: E402
from rules.referee import judge  # noqa: E402
from rules.rule_profile import load_rules  # noqa: E402
from rules.shot import ShotRecord  # noqa: E402
from rules.state import initial_state  # noqa: E402

GAME = Path(__file__).parent.parent / "examples" / "demo-game"


def main() -> None:
    board, rules = load_board(), load_rules("standard")
    script = json.loads((GAME / "script.json").read_text(encoding="utf-8"))
    state = initial_state(board)
    rows = []
    for step in script["entries"]:
        if step["kind"] == "lag":
            state, _ = lag(state, step["data"])
        elif step["kind"] == "discard":
            state, _ = discard(state, state.turn, step["data"]["pieces"], rules)
        elif step["kind"] == "timeout":
            state, _ = timeout(state, state.turn, rules)
        else:
            record = ShotRecord.from_json(json.loads((GAME / step["file"]).read_text()))
            line = write_shot(record, state, board)
            data = record.to_json()
            data.pop("trajectory", None)
            data.pop("table", None)
            compact = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
            same = [c.rule for c in judge(state, parse_shot(line, state, board), board,
                                          rules)[1].calls]
            state, ruling = judge(state, record, board, rules)
            assert same == [c.rule for c in ruling.calls], step["file"]
            rows.append((step["file"], line, len(line), len(compact)))
    for name, line, typed, baseline in rows:
        print(f"  {name:<22} {typed:>3} keystrokes  {line:<28} JSON {baseline:>5}")
    typed = [r[2] for r in rows]
    baseline = [r[3] for r in rows]
    print(f"{len(rows)} shots: notation median {statistics.median(typed):g} keystrokes "
          f"(most {max(typed)}; goal under 25), JSON median {statistics.median(baseline):g} "
          f"({statistics.median(baseline) / statistics.median(typed):.0f}x); each line makes "
          "the same calls as its record")


if __name__ == "__main__":
    main()

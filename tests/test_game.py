"""The game as a log: lag (3.1), discards (8), time-outs (4.2), undo, and the SQLite log."""

import json
import os
import random
import sqlite3
import subprocess
import sys
import textwrap
import threading
from dataclasses import replace

import pytest

from kangle.gamecmd import new_entry
from rules.errors import KangleError
from rules.game import Entry, replay, timeout
from rules.gamelog import GameLog
from rules.rule_profile import RuleProfile
from rules.state import POCKETED
from tests.kit import shot, started

NEW = new_entry("Ann", "Bo", "goma", "standard")


def view_of(*entries):
    log = [Entry(1, "new", NEW)] + [Entry(i + 2, k, d) for i, (k, d) in enumerate(entries)]
    return replay(log)


def test_3_1_lag_nearer_the_centre_shoots_first():
    v = view_of(("lag", {"red_mm": 40, "black_mm": 12.5}))
    assert v.state.turn == "black" and v.state.first == "black" and v.state.phase == "play"
    assert v.history[-1][1].calls[0].rule == "3.1"


def test_3_1_a_tied_lag_must_be_taken_again():
    with pytest.raises(KangleError, match="lag again"):
        view_of(("lag", {"red_mm": 20, "black_mm": 20}))


def test_8_discard_removes_own_pieces_and_keeps_the_shot():
    v = view_of(("lag", {"first": "red"}), ("discard", {"player": "red", "pieces": ["R01", "R02"]}))
    s = v.state
    assert s.pieces["R01"].status == POCKETED and s.pieces["R02"].status == POCKETED
    assert s.turn == "red" and s.owed == {"red": 0, "black": 0}  # 8.3
    rules = [c.rule for c in v.history[-1][1].calls]
    assert rules == ["8.1", "8.3"]


def test_8_2_only_the_player_holding_the_shot_may_discard():
    with pytest.raises(KangleError, match="holding the shot"):
        view_of(("lag", {"first": "red"}), ("discard", {"player": "black", "pieces": ["B01"]}))


def test_8_discarding_an_opponent_piece_is_refused():
    with pytest.raises(KangleError, match="not one of red's pieces"):
        view_of(("lag", {"first": "red"}), ("discard", {"player": "red", "pieces": ["B01"]}))


def test_8_4_discarding_the_last_own_piece_loses():
    all_red = [f"R{i:02d}" for i in range(1, 17)]
    v = view_of(("lag", {"first": "red"}), ("discard", {"player": "red", "pieces": all_red}))
    assert v.state.result.winner == "black" and v.state.result.rule == "8.4"


def test_4_2_time_out_loses_the_shot_but_not_the_owed_ones_by_default():
    quiet = shot(contacts=[(0.1, "RS", "cushion:N")], body_touch=True).to_json()
    v = view_of(("lag", {"first": "red"}), ("shot", quiet), ("timeout", {"player": "black"}))
    # red's foul gave black one extra shot; black's time-out costs one shot, the owed one stays
    assert v.state.turn == "black" and v.state.owed["black"] == 0


def test_4_2_time_out_can_forfeit_the_whole_turn_by_setting():
    state = replace(started("red"), owed={"red": 2, "black": 0})
    new, _ = timeout(state, "red", RuleProfile(timeout_forfeits="turn"))
    assert new.turn == "black" and new.owed["red"] == 2


def test_undo_cancels_the_last_entry_in_force_and_is_itself_logged(tmp_path):
    log = GameLog.create(tmp_path / "g.db", NEW)
    log.append("lag", {"first": "red"})
    pocket = shot(contacts=[(0.1, "RS", "B05")], pockets=[(0.3, "B05", "NE")]).to_json()
    log.append("shot", pocket)
    log.append("undo", {"undoes": 3})
    v = replay(log.entries())
    assert v.state.pieces["B05"].status != POCKETED and v.undone == [3]
    assert len(log.entries()) == 4  # nothing was deleted


def test_the_log_is_append_only(tmp_path):
    log = GameLog.create(tmp_path / "g.db", NEW)
    log.close()
    db = sqlite3.connect(tmp_path / "g.db")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM entries")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("UPDATE entries SET kind = 'lag'")


def test_a_game_resumes_from_its_log_exactly(tmp_path):
    path = tmp_path / "g.db"
    log = GameLog.create(path, NEW)
    log.append("lag", {"first": "black"})
    log.append("shot", shot("black", contacts=[(0.1, "BS", "R03")],
                            pockets=[(0.2, "R03", "SW")]).to_json())
    before = replay(log.entries()).state
    log.close()
    assert replay(GameLog(path).entries()).state == before


def test_not_a_game_log_is_a_clear_error(tmp_path):
    junk = tmp_path / "junk.db"
    junk.write_bytes(b"this is not sqlite at all" * 40)
    with pytest.raises(KangleError, match="not a kangle game log"):
        GameLog(junk)
    with pytest.raises(KangleError, match="already exists"):
        GameLog.create(junk, NEW)
    with pytest.raises(KangleError, match="no game log"):
        GameLog(tmp_path / "missing.db")


def test_killing_a_writer_mid_write_loses_nothing_confirmed(tmp_path):
    """A child process appends time-outs as fast as it can and prints each confirmed seq;
    we kill it with SIGKILL mid-stream. Every confirmed entry must be there and the file
    must open and pass SQLite's integrity check."""
    path = tmp_path / "g.db"
    GameLog.create(path, NEW).close()
    child = textwrap.dedent(f"""
        import sys
        from rules.gamelog import GameLog
        log = GameLog({str(path)!r})
        log.append("lag", {{"first": "red"}})
        while True:
            e = log.write(lambda view: [("timeout", {{"player": view.state.turn}})]).entries[0]
            print(e.seq, flush=True)
    """)
    proc = subprocess.Popen([sys.executable, "-c", child], stdout=subprocess.PIPE, text=True,
                            cwd=os.getcwd())
    confirmed = []
    for line in proc.stdout:
        confirmed.append(int(line))
        if len(confirmed) == 150:
            proc.kill()
            break
    proc.wait()
    confirmed.extend(int(x) for x in proc.stdout.read().split())
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    stored = {row[0] for row in db.execute("SELECT seq FROM entries")}
    assert set(confirmed) <= stored
    assert len(GameLog(path).entries()) >= len(confirmed) + 1


# Two stations on one log: reading, judging and appending are one write transaction.

RED_SHOTS = [  # each legal for red from the set-up after the lag
    shot(contacts=[(0.1, "RS", "cushion:N")]).to_json(),  # touches nothing: black's shot
    shot(contacts=[(0.1, "RS", "B05")], pockets=[(0.3, "B05", "NE")]).to_json(),  # red again
    shot(contacts=[(0.1, "RS", "B05")]).to_json(),  # hits black, pockets nothing
]


def test_a_second_station_cannot_write_between_the_first_ones_read_and_its_write(tmp_path):
    path = tmp_path / "g.db"
    log = GameLog.create(path, NEW)
    log.append("lag", {"first": "red"})
    other = GameLog(path, wait_s=0)
    refused = []

    def propose(view):  # runs inside the first station's transaction
        with pytest.raises(KangleError, match="nothing was recorded") as info:
            other.append("shot", RED_SHOTS[0])
        refused.append(info.value.exit_code)
        return [("shot", RED_SHOTS[0])]

    log.write(propose)
    assert refused == [3]
    assert [e.kind for e in GameLog(path).entries()] == ["new", "lag", "shot"]


def test_a_station_that_lost_the_race_is_told_what_came_first(tmp_path):
    path = tmp_path / "g.db"
    log = GameLog.create(path, NEW)
    seen = log.append("lag", {"first": "red"}).seq
    GameLog(path).append("shot", RED_SHOTS[0], by="laptop")  # black to shoot now
    with pytest.raises(KangleError, match=r"black's shot, not red's.*another station recorded "
                                          r"#3 shot by laptop"):
        log.write(lambda view: [("shot", RED_SHOTS[0])], by="camera", seen=seen)
    assert len(GameLog(path).entries()) == 3


@pytest.mark.parametrize("seed", range(40))
def test_racing_writers_never_break_the_log_nor_judge_a_stale_table(tmp_path, seed):
    """Three stations, started together, each enter one of red's shots (chosen by the
    seed). Whatever the interleaving, the log replays; every entry a station was told is
    recorded is in it with the ruling that station was shown; every refused one is not."""
    rng = random.Random(seed)
    path = tmp_path / "g.db"
    GameLog.create(path, NEW).append("lag", {"first": "red"})
    choices = {f"s{i}": rng.choice(RED_SHOTS) for i in range(3)}
    start = threading.Barrier(3)
    told = {}

    def station(name):
        log = GameLog(path)
        data = choices[name]
        start.wait()
        try:
            written = log.write(lambda view: [("shot", data)], by=name)
            told[name] = (written.entries[0].seq, written.after.history[-1][1])
        except KangleError as exc:
            told[name] = str(exc)
        log.close()

    threads = [threading.Thread(target=station, args=(name,)) for name in choices]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    view = replay(GameLog(path).entries())
    rulings = {entry.seq: (entry.by, ruling) for entry, ruling in view.history}
    for name, outcome in told.items():
        if isinstance(outcome, str):
            assert "nothing was recorded" in outcome
            assert name not in {by for by, _ in rulings.values()}
        else:
            seq, ruling = outcome
            assert rulings[seq] == (name, ruling)
    assert sum(not isinstance(o, str) for o in told.values()) >= 1


def test_a_log_held_by_another_station_is_said_to_be_busy_not_broken(tmp_path):
    path = tmp_path / "g.db"
    GameLog.create(path, NEW).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another station, mid-write
    try:
        with pytest.raises(KangleError, match="busy.*try again") as info:
            GameLog(path, wait_s=0).entries()
        assert info.value.exit_code == 3
    finally:
        holder.execute("ROLLBACK")
    assert [e.kind for e in GameLog(path).entries()] == ["new"]


def test_a_log_holding_an_impossible_entry_opens_and_is_mended_by_voiding_it(tmp_path, capsys):
    # two red shots in a row, as two stations racing before writes were checked in one
    # transaction could leave them: the second cannot be applied
    from kangle.cli import main

    path = tmp_path / "g.db"
    log = GameLog.create(path, NEW)
    log.append("lag", {"first": "red"})
    log.append("shot", shot(contacts=[(0.1, "RS", "cushion:N")]).to_json())
    log.close()
    raw = sqlite3.connect(path)
    raw.execute("INSERT INTO entries (kind, data, entered_by, entered_at) VALUES (?, ?, ?, ?)",
                ("shot", json.dumps(shot(contacts=[(0.1, "RS", "B05")]).to_json()), "station 2",
                 "2026-11-23T10:00:00.000+00:00"))
    raw.commit()
    raw.close()
    assert main(["game", "show", str(path)]) == 0
    shown = capsys.readouterr().out
    assert "entry #4 cannot be applied: it is black's shot, not red's" in shown
    assert main(["game", "shot", str(path), "x| xR04"]) == 2  # nothing on top of it
    assert "the game stops there until it is voided" in capsys.readouterr().err
    assert main(["game", "void", str(path), "4", "--reason", "a second red shot"]) == 0
    assert "voided: entry #4" in capsys.readouterr().out
    view = replay(GameLog(path).entries())
    assert view.fault is None and view.state.turn == "black"
    assert main(["game", "shot", str(path), "xR05"]) == 0  # black's shot now goes in


def test_a_shot_typed_for_one_player_is_never_recorded_as_the_others(tmp_path):
    """A shot in notation names no shooter: it is the turn's holder's as the station
    found the game. If another station changes the turn before it is written, it is
    refused and the station told what came first — not judged as the other player's."""
    import argparse

    from kangle.gamecmd import _request

    path = tmp_path / "g.db"
    log = GameLog.create(path, NEW)
    log.append("lag", {"first": "red"})
    seen = replay(log.entries(), tolerant=True)  # red to shoot, as this station saw it
    GameLog(path).append("shot", RED_SHOTS[0], by="laptop")  # now black's turn
    args = argparse.Namespace(action="shot", shot="xB05", cue_tip_foul=False, own_cue=False,
                              pivot=False, body_touch=False, cue_swept=None)
    request = _request(args, seen)
    with pytest.raises(KangleError, match=r"entered as red's, but it is black's turn now.*"
                                          r"another station recorded #3 shot by laptop"):
        log.write(lambda view: [request(view)], by="camera", seen=seen.last)
    assert [e.by for e in GameLog(path).entries()] == ["referee", "referee", "laptop"]

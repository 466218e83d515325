"""Tracking and the camera referee on rendered videos of simulated shots.

    python benchmarks/tracking.py [--shots 200] [--fps 60] [--start 0] [--gallery DIR]
    python benchmarks/tracking.py --seed 8 --shots 100     # a tuning run
    python benchmarks/tracking.py --seed 8 --shots 300 --kind flyoff   # one kind of shot

Shots of varied kinds are drawn at random — breaks into the starting rows, cuts
into scattered pieces, shots off a cushion, shots near the shooter's own pieces, and
(with the fly-off model on) pieces sent over the rim — simulated, filmed with motion
blur and noise by the renderer, and followed by the tracker from the frames alone.
The simulator's own records are the truth; the tracker asks the simulator (with the
standard physics, not the shot's own) what a stroke would touch first where the frames
do not settle it, as `kangle referee` does. Speed: detection plus tracking per frame,
against detection alone in the same run.

Two sets of shots. The tuning runs (``--seed 3``, ``8``, ``9``: one random stream for
the whole run) are the shots the tracker was developed on. The held-out shots (the
default) are numbered: shot k draws from its own seed, HELD_OUT + k, and its venue
(camera and light, a new one every ten shots) from HELD_OUT + k // 10, so a long run can
be split over processes (``--start``) and no one looks at them while changing the
tracker. The report breaks the calls down by shot kind and names the rules of the wrong
ones, and counts the wrong calls that did not ask the referee to confirm — the silent
ones, and those wrong only in info lines (the game, the score and the turn right). ``--gallery
DIR`` writes, for each wrong call, a GIF of the shot beside what the truth and the camera
said, and the same text in a .txt file; a striker's first contact seen wrong under calls
that are right anyway goes there too (``…-first-contact``), and so does a hole or
off-table event seen wrong (``…-holes``). Final positions are measured
on the table as the referee sees it: each moved piece against the nearest piece the
camera has that the referee cannot tell from it (pieces are unmarked; two like pieces'
labels swapped under the player's hand leave the same table), with the swaps counted.

``--webcam``, ``--rolling`` and ``--compress`` film like a real webcam; ``--player``
films the player's cue, bridge hand and arm over the board during the shot.

``--keep DIR`` keeps every frame's detections (with and without the rim's weak marks,
whichever the tracker asks for) in ``DIR/shot-K.json.gz``; ``--replay DIR`` then referees
the same shots from them instead of filming — the same figures (calls, contacts,
events, positions) for any tracker in seconds a shot, so a change to the tracker is
checked on shots already filmed. A replay times the tracking only; it needs the same
``--start``/``--shots``/``--seed``/``--kind`` (and ``--fps``) as the run that kept them.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import resource
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
cv2.setNumThreads(1)  # the targets are for one core

from calibration.venue import calibrate_board, setup_positions  # noqa: E402
from kangle.oracle import PhysicsOracle  # noqa: E402
from physics.profile import PhysicsProfile  # noqa: E402
from physics.simulate import Stroke, simulate  # noqa: E402
from physics.text import draw_lines  # noqa: E402
from rules.board import load_board  # noqa: E402
from rules.errors import KangleError  # noqa: E402
from rules.pieces import colour_of  # noqa: E402
from rules.referee import judge  # noqa: E402
from rules.rule_profile import RuleProfile  # noqa: E402
from rules.ruling import CHECK  # noqa: E402
from tests.kit import started  # noqa: E402
from tests.test_simulator import scattered  # noqa: E402
from vision.detect import Detection, Detector  # noqa: E402
from vision.player import Player  # noqa: E402
from vision.render import Look, Renderer, random_camera  # noqa: E402
from vision.track import ShotTracker  # noqa: E402
from vision.video import Webcam, film_shot  # noqa: E402

BOARD = load_board()
HELD_OUT = 1_000_000  # held-out shot k: random.Random(HELD_OUT + k); no tuning seed is near
KINDS = ("break", "cut", "cushion", "own", "flyoff")


ROLLING_READOUT = 0.7  # of the frame interval: a webcam's sensor read top to bottom


def random_shot(rng: random.Random):
    kind = rng.choice(KINDS)
    physics = replace(PhysicsProfile(), trajectory_rate=240)
    circle = rng.choice(["SW", "SE"])
    if kind == "break":
        state = started("red")
        stroke = Stroke("red", circle, rng.uniform(70, 110), rng.uniform(3, 6))
    else:
        state = scattered(rng, rng.randint(4, 14))
        angle = rng.uniform(20, 160) if kind != "cushion" else rng.choice(
            [rng.uniform(150, 200), rng.uniform(-20, 30)])
        stroke = Stroke("red", circle, angle, rng.uniform(1.5, 5))
        if kind == "flyoff":
            physics = physics.with_fly_off(True, probability=0.6, min_speed=1.5,
                                           seed=rng.randint(0, 999))
    return kind, state, stroke, physics


def _resident_bytes() -> int:
    """The process's resident memory now (Linux /proc; elsewhere its peak so far).
    Not tracemalloc: tracing every allocation would slow the frames being timed."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


# calls about pieces that left the table (6.3/9.1: and came back as a 小回), where which
# of two like pieces it was changes nothing (see _alike)
_LEFT_THE_TABLE = ("5.1", "4.2", "6.5", "6.3/9.1")


def _alike(piece: str, state) -> str:
    """A piece as the referee must know it once it has left the table: by id where the
    rules tell it apart (a protected piece, a striker), else by colour alone. The
    pieces are unmarked; when two like pieces meet during a shot and one drops, which
    label the camera gives the one that dropped leaves the same table (each label
    follows its own track, so the piece left standing keeps the right place)."""
    if piece not in state.pieces or state.guard(piece):
        return piece
    return f"a {colour_of(piece)} piece"


def _calls(calls, state) -> Counter:
    """What the calls decide — each one's rule, kind and the pieces it names (those that
    left the table as _alike has them) — leaving out the order of the calls and of the
    pieces in each (the order things happened, which the camera may see differently
    within a frame: a striker seen stopping on the rim after the piece it sent off, not
    before) and whether the referee is asked to confirm (counted apart), and the
    referee's being asked to look at what no call rests on (CHECK: a question, not a
    call; it flags the shot)."""
    return Counter((c.rule, c.kind, tuple(sorted(
        _alike(p, state) if c.rule in _LEFT_THE_TABLE else p for p in c.pieces)))
        for c in calls if c.kind != CHECK)


def _gone(record, state) -> Counter:
    """The pieces a record has leaving the table, and how, as _alike has them."""
    return Counter([(_alike(p.piece, state), "pocket") for p in record.pockets] +
                   [(_alike(e.piece, state), e.where) for e in record.exits])


def _table_after(record, state) -> dict[str, tuple[float, float]]:
    """Where every piece stands once a record's shot is over (board mm)."""
    gone = {p.piece for p in record.pockets} | {e.piece for e in record.exits}
    table = {p: state.pos(p) for p in state.pieces if state.on_table(p) and p not in gone}
    table.update({p: pos for p, pos in record.final.items() if p not in gone})
    return table


def final_errors(truth, seen, state) -> tuple[list[float], int]:
    """How far each piece the shot moved and left on the table is from where the camera
    has a piece the referee cannot tell from it (mm), as _alike has them (two like
    pieces' labels swapped under a hand change nothing on the table); and how many
    moved pieces the camera has under another like piece's label."""
    seen_table = _table_after(seen, state)
    errors, swapped = [], 0
    for piece, (x, y) in truth.final.items():
        like = [pos for p, pos in seen_table.items() if _alike(p, state) == _alike(piece, state)]
        if like:
            errors.append(min(float(np.hypot(px - x, py - y)) for px, py in like))
            own = seen_table.get(piece)
            swapped += own is None or float(np.hypot(own[0] - x, own[1] - y)) > errors[-1] + 3
    return errors, swapped


def shots(args):
    """(k, venue number, shot kind, state, stroke, physics) of every shot of the run."""
    rng = random.Random(args.seed)
    for k in range(args.start, args.start + args.shots):
        if args.seed is None:
            rng = random.Random(HELD_OUT + k)
        yield (k, k // 10, *random_shot(rng))


def venue(args, number: int, nrng, render):
    """A venue's camera, light and detector (calibrated from its set-up frame)."""
    if args.seed is None:
        nrng = np.random.default_rng(HELD_OUT + number)
    camera, look = random_camera(nrng), Look.random(nrng, occluders=False)
    setup = render.render(camera, setup_positions(BOARD), look).image
    return camera, look, Detector(calibrate_board(setup, camera, BOARD))


def describe(record) -> list[str]:
    """What a shot record says happened, in a few lines (for the failure gallery)."""
    first = record.contacts_of(record.shot_piece)
    lines = [f"first contact: {first[0].other(record.shot_piece) if first else 'none'}"]
    lines += [f"pocketed {p.piece} in {p.hole} at {p.t:.2f} s" for p in record.pockets]
    lines += [f"{e.piece} {e.where} at {e.t:.2f} s" for e in record.exits]
    return lines


def keep(folder: Path, k: int, frames: list) -> None:
    """Write shot ``k``'s detections, frame by frame ``(t, without the rim's weak marks,
    with them)``, at full precision."""
    folder.mkdir(parents=True, exist_ok=True)
    rows = [[t, *([[d.colour, d.kind, d.x, d.y, d.where, d.confidence, d.weak] for d in dets]
                  for dets in both)] for t, *both in frames]
    with gzip.open(folder / f"shot-{k}.json.gz", "wt", encoding="utf-8") as f:
        json.dump(rows, f)


def kept(folder: Path, k: int) -> list | None:
    """Shot ``k``'s detections as ``keep`` wrote them, or None if none were kept (its
    venue was refused)."""
    path = folder / f"shot-{k}.json.gz"
    if not path.exists():
        return None
    try:
        with gzip.open(path, "rt", encoding="utf-8") as f:
            rows = json.load(f)
        return [(t, *([Detection(*d) for d in dets] for dets in both)) for t, *both in rows]
    except (OSError, EOFError, ValueError, TypeError) as exc:
        sys.exit(f"{path}: not detections kept by --keep ({exc}): keep the shot again")


def thumbnail(image: np.ndarray) -> np.ndarray:
    """A frame at half size, as the gallery shows it."""
    return cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)


def gallery(folder: Path, name: str, kind: str, thumbs, truth, seen, said,
            true_calls) -> None:
    """A GIF of the shot (``thumbs``: every other frame's time and ``thumbnail``) beside
    what the truth and the camera said, for one wrong call; the text alone where there
    are no frames (a replay of kept detections)."""
    folder.mkdir(parents=True, exist_ok=True)
    text = ([f"{name} ({kind})", "", "TRUTH"] + describe(truth) +
            [f"  {c.rule} {c.kind}: {c.text}" for c in true_calls] + ["", "CAMERA"] +
            (describe(seen) if seen else ["(no record)"]) +
            [f"  {c.rule} {c.kind}{' [CONFIRM]' if c.confirm else ''}: {c.text}" for c in said])
    stem = folder / f"{name.replace(' ', '-')}-{kind}"
    stem.with_suffix(".txt").write_text("\n".join(text) + "\n", encoding="utf-8")
    if not thumbs:
        return
    pictures = []
    blank = np.full((thumbs[0][1].shape[0], 480, 3), 40, np.uint8)
    for t, small in thumbs:
        panel = draw_lines(blank, [f"t = {t:+.2f} s", *text], (6, 4), 11, (255, 255, 255), 468)
        pictures.append(Image.fromarray(np.hstack([small, panel])[:, :, ::-1]))
    pictures[0].save(stem.with_suffix(".gif"), save_all=True, append_images=pictures[1:],
                     duration=67, loop=0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--shots", type=int, default=200)
    parser.add_argument("--fps", type=float, default=60.0)
    parser.add_argument("--seed", type=int, help="a tuning run from this seed (3, 8, 9) "
                                                 "instead of the held-out shots")
    parser.add_argument("--start", type=int, default=0, help="first held-out shot number")
    parser.add_argument("--gallery", type=Path, help="write a GIF of each wrong call here "
                        "(and of each first contact, hole or off-table event missed under "
                        "right calls); a replay writes what was said, without the GIF")
    parser.add_argument("--kind", choices=KINDS, help="only the shots of this kind (the "
                                                      "others are drawn and passed over)")
    parser.add_argument("--webcam", action="store_true",
                        help="film like a real webcam: mains-light flicker and auto-exposure "
                             "drift, each shot its own (vision.video.Webcam)")
    parser.add_argument("--rolling", action="store_true",
                        help="film with a rolling shutter: the rows read top to bottom over "
                             f"{ROLLING_READOUT:g} of the frame interval")
    parser.add_argument("--player", action="store_true",
                        help="film the player over the board: the cue aimed, drawn back and "
                             "struck along the stroke's line, the bridge hand and arm behind "
                             "the striker, taken away at a random moment (vision.player); "
                             "each film then starts 0.4 s before the strike")
    parser.add_argument("--compress", action="store_true",
                        help="send each film through a lossy video codec and back, as a "
                             "webcam's stream arrives (vision.video.compressed)")
    parser.add_argument("--keep", type=Path, metavar="DIR",
                        help="keep every frame's detections here (shot-K.json.gz)")
    parser.add_argument("--replay", type=Path, metavar="DIR",
                        help="referee the shots from the detections kept here (--keep) "
                             "instead of filming them")
    args = parser.parse_args()
    if args.replay and args.keep:
        parser.error("a replay has no frames to keep: --keep films")
    nrng = np.random.default_rng(args.seed)
    render = Renderer(BOARD)
    oracle = PhysicsOracle(BOARD, PhysicsProfile())  # as `kangle referee` has it
    counts = dict(first=0, cushion_first=0, holes=0, calls=0, confirm=0, shots=0, silent=0,
                  info_only=0, silent_decisive=0,
                  unrecorded=0, told=0, swapped=0, refused=0)
    by_kind = {kind: [0, 0] for kind in KINDS}  # shots, calls equal to the truth
    wrong_rules: Counter = Counter()
    final_err, frame_times, detect_times = [], [], []
    memory = []
    detector = camera = look = None
    where = None
    refused = []  # venues whose set-up frame kangle would not calibrate, and why
    for k, number, kind, state, stroke, physics in shots(args):
        if number != where and not args.replay:
            where = number
            try:
                camera, look, detector = venue(args, number, nrng, render)
            except KangleError as exc:  # (a camera that cuts the board: the referee is
                detector = None  # told to move it, and nothing is filmed there)
                refused.append(f"venue {number}: {exc}")
        if args.kind and kind != args.kind:
            continue
        frames = kept(args.replay, k) if args.replay else None
        if (detector is None and not args.replay) or (args.replay and frames is None):
            counts["refused"] += 1
            continue
        try:
            truth = simulate(state, stroke, BOARD, physics)
        except KangleError:
            continue
        tracker = ShotTracker(state, "red", BOARD, oracle)
        if frames is None:
            frames = film_shot(render, camera, truth, args.fps, replace(look, seed=k),
                               webcam=Webcam.random(np.random.default_rng(HELD_OUT + k))
                               if args.webcam else None,
                               readout=ROLLING_READOUT / args.fps if args.rolling else 0.0,
                               compress=args.compress, lead=0.4 if args.player else 0.1,
                               player=Player.random(np.random.default_rng([HELD_OUT + k, 1]))
                               if args.player else None)
        thumbs = []  # every other frame at half size, for the gallery
        detections = []  # (t, without the rim's weak marks, with them), for --keep
        for i, (t, *seen) in enumerate(frames):
            wants = tracker.wants_rim
            start = time.perf_counter()
            # as kangle referee: the rim's weak marks while the tracker asks for them
            found = seen[wants] if args.replay else detector.detect(seen[0], rim_too=wants)
            mid = time.perf_counter()
            tracker.update(t, found)
            frame_times.append(time.perf_counter() - start)
            detect_times.append(mid - start)
            if args.keep:  # (untimed: the other reading, the tracker did not ask for)
                other = detector.detect(seen[0], rim_too=not wants)
                detections.append((t, *((other, found) if wants else (found, other))))
            if args.gallery and not args.replay and i % 2 == 0:
                thumbs.append((t, thumbnail(seen[0])))
        if args.keep:
            keep(args.keep, k, detections)
        # a live camera goes on seeing the table at rest after the film ends: the
        # tracker gets those frames until it rules or says it could not follow the shot
        t_next = t_end = frames[-1][0]
        del frames  # (a long shot's film is gigabytes: not held into the next)
        while not (tracker.over or tracker.unfollowed) and t_next < t_end + 0.5:
            t_next += 1 / args.fps
            tracker.update(t_next, found)
        try:
            seen = tracker.record()
        except ValueError:
            seen = None
        # no record: `kangle referee` tells the referee when the frames show a shot it
        # could not follow (the striker never seen), and says nothing otherwise
        told = seen is None and bool(tracker.unfollowed)
        counts["unrecorded"] += seen is None
        counts["told"] += told
        counts["shots"] += 1
        by_kind[kind][0] += 1
        memory.append(_resident_bytes())
        rules = RuleProfile()
        true_calls = judge(state, truth, BOARD, rules)[1].calls
        if seen is not None:
            tf = truth.contacts_of("RS")
            sf = seen.contacts_of("RS")
            t_first = tf[0].other("RS") if tf else None
            s_first = sf[0].other("RS") if sf else None
            counts["first"] += t_first == s_first
            counts["cushion_first"] += (bool(t_first) and t_first.startswith("cushion")) == (
                bool(s_first) and s_first.startswith("cushion"))
            counts["holes"] += _gone(truth, state) == _gone(seen, state)
            errors, swapped = final_errors(truth, seen, state)
            final_err += errors
            counts["swapped"] += swapped
        try:
            said = judge(state, seen, BOARD, rules)[1].calls if seen is not None else ()
            same = seen is not None and _calls(true_calls, state) == _calls(said, state)
        except KangleError:
            same, said = False, ()
        counts["calls"] += same
        by_kind[kind][1] += same
        counts["confirm"] += same and any(c.confirm for c in said)
        if not same:
            flagged = any(c.confirm for c in said) or told
            counts["silent"] += not flagged
            truth_said, camera_said = _calls(true_calls, state), _calls(said, state)
            differ = set((truth_said - camera_said) + (camera_said - truth_said))
            wrong_rules.update({rule for rule, _, _ in differ} or {"(no record)"})
            # wrong only in info lines (who the 廢子 touched, say): the game, the score
            # and whose turn it is are as the truth has them
            info_only = seen is not None and bool(differ) and all(
                kind == "info" for _, kind, _ in differ)
            counts["info_only"] += info_only
            counts["silent_decisive"] += not flagged and not info_only
        first_wrong = seen is not None and t_first != s_first
        holes_wrong = seen is not None and _gone(truth, state) != _gone(seen, state)
        if args.gallery and (not same or first_wrong or holes_wrong):
            name = f"held-out shot {k}" if args.seed is None else f"seed {args.seed} shot {k}"
            why = kind if not same else f"{kind}-first-contact" if first_wrong else (
                f"{kind}-holes")
            gallery(args.gallery, name, why, thumbs, truth, seen, said, true_calls)
    n = counts["shots"]
    if n == 0:
        sys.exit(f"no shot was refereed ({counts['refused']} of a refused venue"
                 + (f", none kept in {args.replay}" if args.replay else "") + ")")
    e = np.array(final_err)
    which = (f"tuning run, seed {args.seed}" if args.seed is not None else
             f"held-out shots {args.start}-{args.start + args.shots - 1}")
    filmed = "motion blur, noise, random venues" + (
        ", mains flicker and exposure drift" if args.webcam else "") + (
        ", rolling shutter" if args.rolling else "") + (
        ", MPEG-4 compressed" if args.compress else "") + (
        ", the player's cue, hand and arm" if args.player else "")
    print(f"{n} shots at {args.fps:g} fps ({filmed}; {which})")
    print(f"  striker's first contact right      {counts['first'] / n:.3f}  (target >= 0.985)")
    print(f"  cushion-before-contact right       {counts['cushion_first'] / n:.3f}  "
          "(target >= 0.98)")
    print(f"  holes and off-table events right   {counts['holes'] / n:.3f}  (target >= 0.995)")
    print(f"  final positions: median {np.median(e):.2f} mm, 95th percentile "
          f"{np.percentile(e, 95):.2f} mm  (target within 3 mm; to the nearest like piece: "
          f"{counts['swapped']} of {len(e)} under a like piece's label)")
    asked = counts["confirm"] / max(counts["calls"], 1)
    print(f"  referee's calls equal to the truth {counts['calls'] / n:.3f}  (target >= 0.98); "
          f"of those, asking the referee to confirm {asked:.3f}")
    print(f"  wrong calls not flagged for confirmation {counts['silent'] / n:.3f}  "
          "(target <= 0.005)")
    wrong = n - counts["calls"]
    print(f"  of the {wrong} wrong calls, {counts['info_only']} differ only in info lines "
          "(the game, score and turn as the truth has them); wrong in what the game does "
          f"{(wrong - counts['info_only']) / n:.3f}, of those not flagged "
          f"{counts['silent_decisive'] / n:.3f}")
    print(f"  shots with no record {counts['unrecorded']}, of which the referee was told "
          f"\"not followed, enter it by hand\" {counts['told']} (counted flagged)")
    if refused:
        print(f"  shots not filmed, their venue not calibrated {counts['refused']} ("
              + "; ".join(refused) + ")")
    print("  by shot kind (calls equal / shots): " + ", ".join(
        f"{kind} {right}/{total}" for kind, (total, right) in by_kind.items() if total))
    if wrong_rules:
        print("  rules of the wrong calls: " + ", ".join(
            f"{rule} x{count}" for rule, count in sorted(wrong_rules.items())))
    per = statistics.median(frame_times)
    if args.replay:
        print(f"  per frame: tracking alone (a replay) {per * 1000:.2f} ms median, "
              f"{np.percentile(frame_times, 95) * 1000:.2f} ms 95th percentile")
    else:
        print(f"  per frame: detection + tracking {per * 1000:.1f} ms median "
              f"({1 / per:.0f} fps), {np.percentile(frame_times, 95) * 1000:.1f} ms 95th "
              f"percentile; detection alone {statistics.median(detect_times) * 1000:.1f} ms")
    print(f"  resident memory after each shot: first {memory[0] / 1e6:.1f} MB, last "
          f"{memory[-1] / 1e6:.1f} MB, highest {max(memory) / 1e6:.1f} MB")


if __name__ == "__main__":
    main()

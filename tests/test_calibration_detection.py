"""Calibration and per-frame detection against the synthetic renderer's ground truth."""

import json
import os
import re
from dataclasses import replace

import cv2
import numpy as np
import pytest

from calibration.board_pose import find_board
from calibration.camera import Camera
from calibration.colour import ColourModel
from calibration.intrinsics import IntrinsicsReport, calibrate_camera
from calibration.profile import Calibration
from calibration.venue import calibrate_board, setup_positions
from kangle.cli import main
from rules.board import load_board
from rules.errors import KangleError
from rules.pieces import colour_of, is_striker
from vision.detect import RING_HOLDS, Detector
from vision.render import (
    Lamp,
    Look,
    Renderer,
    carrom_setup,
    cast_shadows,
    lay_occluder,
    occluder_shapes,
    part_of,
    random_camera,
    render_chessboard,
    set_ids,
)

BOARD = load_board()
RENDER = Renderer(BOARD)


def scatter(rng, board, ids, touching=()):
    pos = {}
    for pid in ids:
        r = board.radius_of(pid)
        for _ in range(500):
            x, y = rng.uniform(-board.half + r, board.half - r, 2)
            if all(np.hypot(x - a, y - b) > r + board.radius_of(q) + 0.5
                   for q, (a, b) in pos.items()) and board.region(x, y) == "surface":
                pos[pid] = (float(x), float(y))
                break
    return pos


def match(truth, found, hidden=()):
    """Pair each true piece with the nearest unused detection within 10 mm."""
    used, pairs, missed = set(), [], []
    for pid, (x, y) in truth.items():
        if pid in hidden:
            continue
        best = min(((np.hypot(d.x - x, d.y - y), j) for j, d in enumerate(found)
                    if j not in used), default=(99, None))
        if best[0] < 10:
            used.add(best[1])
            pairs.append((pid, found[best[1]], best[0]))
        else:
            missed.append(pid)
    return pairs, missed, len(found) - len(used)


@pytest.fixture(scope="module")
def venue():
    rng = np.random.default_rng(11)
    camera, look = random_camera(rng), Look.random(rng, occluders=False)
    setup = RENDER.render(camera, setup_positions(BOARD), look)
    return camera, look, calibrate_board(setup.image, camera, BOARD)


def test_camera_intrinsics_are_recovered_from_chessboard_photos():
    rng = np.random.default_rng(0)
    lens = (-0.12, 0.03, 0, 0, 0)
    truth = Camera.looking_down(size=(1280, 720), fov_deg=68, dist=lens)
    photos = [(f"p{i}", render_chessboard(Camera.looking_down(
        size=(1280, 720), fov_deg=68, height_mm=rng.uniform(300, 450),
        tilt_deg=rng.uniform(-25, 25), yaw_deg=rng.uniform(-30, 30),
        shift_mm=(125 + rng.uniform(-120, 120), 87 + rng.uniform(-80, 80)), dist=lens),
        (9, 6), 25.0, seed=i)) for i in range(10)]
    report = calibrate_camera(photos, (9, 6), 25.0)
    assert report.rms_px < 0.5 and not report.warnings
    assert report.camera.matrix[0, 0] == pytest.approx(truth.matrix[0, 0], rel=0.01)
    assert report.camera.dist[0] == pytest.approx(-0.12, abs=0.02)
    with pytest.raises(KangleError, match="at least 5"):
        calibrate_camera(photos[:3], (9, 6), 25.0)


def test_board_pose_is_found_within_a_millimetre_on_varied_cameras():
    rng = np.random.default_rng(5)
    for _ in range(8):
        camera = random_camera(rng)
        frame = RENDER.render(camera, setup_positions(BOARD),
                              Look.random(rng, occluders=False))
        pose = find_board(frame.image, camera, BOARD)
        grid = np.array([(x, y, 0) for x in (-350, 0, 350) for y in (-350, 0, 350)], float)
        error = np.linalg.norm(camera.to_board(pose.camera.project(grid)) - grid[:, :2], axis=1)
        assert error.max() < 1.5 and pose.residual_mm < 1.5


def test_board_pose_is_found_with_an_arm_or_a_cue_across_the_cushion():
    # every occluder the renderer draws reaches in from beyond the rim, so it crosses the
    # playing surface's outline: the outline is no longer a quadrilateral
    rng = np.random.default_rng(11)
    camera = random_camera(rng)
    grid = np.array([(x, y, 0) for x in (-350, 350) for y in (-350, 350)], float)
    for seed in range(12):
        frame = RENDER.render(camera, scatter(np.random.default_rng(seed), BOARD, ["R01", "B02"]),
                              Look(seed=seed, occluders=1, noise=2))
        pose = find_board(frame.image, camera, BOARD)
        error = np.linalg.norm(camera.to_board(pose.camera.project(grid)) - grid[:, :2], axis=1)
        assert error.max() < 2.0, seed


def test_detection_recall_position_colour_and_kind(venue):
    camera, look, cal = venue
    detector = Detector(cal)
    rng = np.random.default_rng(3)
    errors, missed, false, wrong = [], 0, 0, 0
    ids = list(setup_positions(BOARD))
    for k in range(6):
        truth = scatter(rng, BOARD, list(rng.permutation(ids)[:rng.integers(10, 34)]))
        frame = RENDER.render(camera, truth, replace(look, noise=3.0, jpeg=85, seed=k))
        pairs, lost, extra = match(truth, detector.detect(frame.image))
        missed += len(lost)
        false += extra
        for pid, d, e in pairs:
            errors.append(e)
            wrong += d.colour != colour_of(pid) or (d.kind == "striker") != is_striker(pid)
    assert missed <= 1 and false == 0 and wrong == 0
    assert np.median(errors) < 1.0 and np.percentile(errors, 95) < 2.5


def test_touching_pieces_are_separated(venue):
    camera, look, cal = venue
    # three mutually touching pieces, a piece touching a striker, two touching pieces
    truth = {"R01": (-200.0, 60.0), "R02": (-168.0, 60.0), "B01": (-184.0, 87.7),
             "B02": (100.0, 100.0), "RS": (100.0, 136.0), "B03": (-150.0, -150.0),
             "B04": (-118.0, -150.0)}
    frame = RENDER.render(camera, truth, replace(look, seed=9))
    pairs, lost, extra = match(truth, Detector(cal).detect(frame.image))
    assert not lost and not extra
    assert max(e for _, _, e in pairs) < 2.5


def test_looking_again_at_the_blobs_cut_alone_sees_what_the_whole_frame_shows(venue):
    """Detector._cut_out recomputes the distance transform and its peaks only in the
    blobs a doubtful peak was cut from; the rest of the frame must come out exactly as
    if all of it had been looked at again."""
    camera, look, cal = venue
    rng = np.random.default_rng(5)
    truth = scatter(rng, BOARD, set_ids(BOARD)[:26])
    truth |= {"R01": (-200.0, 60.0), "R02": (-168.0, 60.0), "B01": (-184.0, 87.7)}
    frame = RENDER.render(camera, truth, replace(look, seed=3))
    detector = Detector(cal)
    f = detector.rect.features(frame.image)
    m = detector.colours
    mask, _ = f.pieces(m.ratio_threshold, m.redness_threshold, detector.rect.allowed)
    dist = cv2.distanceTransform(mask, cv2.DIST_L2, 5)
    peaks = detector._peaks(dist)
    spots = [(p.x, p.y) for p in peaks[::4]]  # a quarter of them, all over the board
    cut = mask.copy()
    dist_after, peaks_after = detector._cut_out(cut, dist, peaks, spots)
    whole = cv2.distanceTransform(cut, cv2.DIST_L2, 5)
    assert np.array_equal(dist_after, whole)
    assert peaks_after == detector._peaks(whole)
    assert len(peaks_after) > len(peaks) * 0.6


def test_a_peaks_width_inside_the_lines_looked_at_near_it_is_the_whole_views(venue):
    """Detector._inside_lines looks for the peak's part of the mask inside the board's
    lines in a box round the peak; every answer must be the one the whole view gives:
    for parts inside the box (a piece in a ring), parts that run out of it (a thin strip,
    smaller than a ring holds, longer than the box), and parts too large."""
    detector = Detector(venue[2])
    n = detector.rect.size
    rng = np.random.default_rng(11)
    mask = np.zeros((n, n), np.uint8)
    r = int(detector.r_striker)
    for _ in range(40):
        x, y = (int(v) for v in rng.integers(r, n - r, 2))
        kind = rng.integers(3)
        if kind == 0:  # a piece, maybe with a ring round it
            cv2.circle(mask, (x, y), int(rng.integers(r // 2, r + 4)), 1, -1)
        elif kind == 1:  # a long thin strip
            a = rng.uniform(0, np.pi)
            end = (int(x + 6 * r * np.cos(a)), int(y + 6 * r * np.sin(a)))
            cv2.line(mask, (x, y), end, 1, int(rng.integers(2, 6)))
        else:  # an arm
            cv2.ellipse(mask, (x, y), (5 * r, 2 * r), float(rng.uniform(0, 180)), 0, 360, 1, -1)
    inside = mask & detector.rect.not_lines
    labels = cv2.connectedComponents(inside, connectivity=4)[1]
    areas = np.bincount(labels.ravel())
    dist = cv2.distanceTransform(inside, cv2.DIST_L2, 5)
    holds = RING_HOLDS * np.pi * detector.r_striker ** 2
    kinds = set()
    for row, col in zip(*np.nonzero(mask[::3, ::3]), strict=True):
        row, col = 3 * int(row), 3 * int(col)
        part = labels[row, col]
        small = part > 0 and areas[part] <= holds
        long = small and max(cv2.boundingRect((labels == part).astype(np.uint8))[2:]) > 4 * r
        kinds.add((part > 0, small, long))
        want = float(dist[row, col]) if small else -1.0
        assert detector._inside_lines(mask, col, row, -1.0) == want, (row, col)
    assert kinds == {(False, False, False), (True, False, False), (True, True, False),
                     (True, True, True)}


def test_pieces_on_the_rim_are_reported_as_such(venue):
    # the rim's dark wood is nearer a black piece's darkness than the pale surface is: a
    # black piece there is found against the rim's own brightness, as a weak detection
    # (the tracker takes it only for a piece it saw leave the table)
    camera, look, cal = venue
    rim = BOARD.half + BOARD.rim_width / 2
    truth = {"R01": (0.0, -rim), "B02": (rim, 100.0), "B03": (-150.0, rim),
             "B01": (150.0, 0.0)}
    found = Detector(cal).detect(RENDER.render(camera, truth, replace(look, seed=4)).image)
    pairs, lost, extra = match(truth, found)
    assert not lost and not extra
    assert {pid: (d.where, d.colour) for pid, d, _ in pairs} == {
        "R01": ("rim", "red"), "B02": ("rim", "black"), "B03": ("rim", "black"),
        "B01": ("surface", "black")}
    assert not any(d.weak for pid, d, _ in pairs if d.where == "surface")


@pytest.mark.parametrize("scale", [0.87, 1.13])
def test_a_board_15_percent_off_the_profile_is_measured_and_detection_follows(scale):
    board = replace(BOARD, side=round(BOARD.side * scale, 1),
                    hole_diameter=BOARD.hole_diameter * (2 - scale),
                    hole_inset=BOARD.hole_inset * (2 - scale),
                    circle_inset=BOARD.circle_inset * scale,
                    penalty_diameter=BOARD.penalty_diameter * scale)
    render = Renderer(board)
    rng = np.random.default_rng(int(scale * 100))
    camera, look = random_camera(rng), Look.random(rng, occluders=False)
    setup = render.render(camera, setup_positions(board), look)
    cal = calibrate_board(setup.image, camera, BOARD, side_mm=board.side)
    got = cal.board
    assert got.side == pytest.approx(board.side)
    assert got.hole_diameter == pytest.approx(board.hole_diameter, abs=3)
    assert got.hole_inset == pytest.approx(board.hole_inset, abs=3)
    assert got.circle_inset == pytest.approx(board.circle_inset, abs=3)
    assert got.penalty_diameter == pytest.approx(board.penalty_diameter, abs=3)
    truth = scatter(rng, board, ["R01", "R02", "B01", "B02", "RS", "BS", "R09"])
    pairs, lost, extra = match(truth, Detector(cal).detect(
        render.render(camera, truth, replace(look, seed=2)).image))
    assert not lost and not extra and max(e for _, _, e in pairs) < 2.5


def test_calibration_profile_round_trips(venue, tmp_path):
    _, _, cal = venue
    cal.save(tmp_path / "v.json")
    again = Calibration.load(tmp_path / "v.json")
    assert again.board == replace(cal.board, source="calibration profile")
    assert np.allclose(again.camera.tvec, cal.camera.tvec)


@pytest.mark.parametrize("place, value, message", [
    (("camera", "dist", 3), -1e308, "camera.dist"),  # found by `make fuzz`: detect ran
    (("camera", "matrix", 0, 0), -800.0, "camera.matrix"),  # a focal length below zero
    (("colours", "classes", "red", "ratio", 0), 1e308, "colour model"),  # …and found 0
    (("colours", "ratio_threshold"), -3.0, "colour model"),
    (("camera", "matrix", 1, 0), -1e308, "camera.matrix"),  # 20 min of `make fuzz`
    (("pose", "tvec", 0), 1e308, "pose.tvec"),
    (("pose", "rvec", 1), -1e308, "pose.rvec"),  # 2 min of `make fuzz`, session 30
    (("pose", "residual_mm"), -1e308, "pose.residual_mm"),
])
def test_a_calibration_with_numbers_no_camera_or_light_has_is_refused(venue, tmp_path,
                                                                       place, value, message):
    _, _, cal = venue
    data = cal.to_json()
    inner = data
    for key in place[:-1]:
        inner = inner[key]
    inner[place[-1]] = value
    with pytest.raises(KangleError, match=message):
        Calibration.from_json(json.loads(json.dumps(data)))


@pytest.mark.parametrize("image, message", [
    (np.zeros((720, 1280, 3), np.uint8), "black"),
    (np.full((720, 1280, 3), 255, np.uint8), "saturated"),
    (np.random.default_rng(0).integers(0, 120, (720, 1280, 3)).astype(np.uint8), "no board"),
])
def test_frames_without_a_board_are_refused_clearly(image, message):
    with pytest.raises(KangleError, match=message):
        find_board(image, random_camera(np.random.default_rng(0)), BOARD)


def test_a_calibration_from_another_resolution_is_refused(venue):
    _, _, cal = venue
    with pytest.raises(KangleError, match="calibration was made for 1280x720"):
        Detector(cal).detect(np.zeros((480, 640, 3), np.uint8))


def test_manual_corners_give_the_same_pose(venue):
    camera, look, _ = venue
    frame = RENDER.render(camera, setup_positions(BOARD), look).image
    h = BOARD.half
    clicked = camera.project(np.array([(-h, -h, 0), (h, -h, 0), (h, h, 0), (-h, h, 0)], float))
    cal = calibrate_board(frame, camera, BOARD, measure=False, corners_px=np.round(clicked))
    grid = np.array([(x, y, 0) for x in (-300, 300) for y in (-300, 300)], float)
    err = np.linalg.norm(camera.to_board(cal.camera.project(grid)) - grid[:, :2], axis=1)
    assert err.max() < 2.0


def test_calibrate_and_detect_from_the_command_line(tmp_path, capsys):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    rng = np.random.default_rng(2)
    camera = Camera.looking_down(height_mm=1300, tilt_deg=5)
    look = Look(seed=1, noise=2)
    cv2.imwrite(str(tmp_path / "setup.png"),
                RENDER.render(camera, setup_positions(BOARD), look).image)
    truth = scatter(rng, BOARD, ["R01", "B01", "RS"])
    cv2.imwrite(str(tmp_path / "frame.png"), RENDER.render(camera, truth, look).image)
    assert main(["calibrate", "board", str(tmp_path / "setup.png"), "--no-measure",
                 "--out", str(tmp_path / "venue.json")]) == 0
    assert main(["detect", str(tmp_path / "frame.png"), "--calibration",
                 str(tmp_path / "venue.json"), "--annotate", str(tmp_path / "a.png")]) == 0
    out = capsys.readouterr().out
    assert "3 found: red 2, black 1" in out
    assert main(["detect", "nowhere.png", "--calibration", str(tmp_path / "venue.json")]) == 2


# Calibrating from any frame: red's side from the set-up rows, the user or the venue.

def red_side_of(camera):
    """Where red's cushion (y < 0) appears in the image of a true camera."""
    centre, red = camera.project(np.array([(0.0, 0.0, 0.0), (0.0, -BOARD.half, 0.0)]))
    d = red - centre
    return ("right" if d[0] > 0 else "left") if abs(d[0]) > abs(d[1]) else (
        "bottom" if d[1] > 0 else "top")


def same_pose(camera, cal, tolerance_mm=2.0):
    grid = np.array([(x, y, 0) for x in (-300, 300) for y in (-300, 300)], float)
    err = np.linalg.norm(camera.to_board(cal.camera.project(grid)) - grid[:, :2], axis=1)
    return err.max() < tolerance_mm


@pytest.mark.parametrize("yaw", [0.0, 90.0, 180.0, -90.0])
def test_a_mid_game_frame_calibrates_with_red_side_and_detection_follows(yaw):
    rng = np.random.default_rng(int(yaw) + 400)
    camera = Camera.looking_down(height_mm=1350, tilt_deg=5, yaw_deg=yaw)
    look = Look.random(rng, occluders=False)
    ids = list(setup_positions(BOARD))
    truth = scatter(rng, BOARD, [p for p in ids if p[1:] in {f"{i:02d}" for i in range(1, 9)}]
                    + ["RS", "BS"])
    frame = RENDER.render(camera, truth, look).image
    with pytest.raises(KangleError, match="cannot tell red's side.*--red-side"):
        calibrate_board(frame, camera, BOARD)
    cal = calibrate_board(frame, camera, BOARD, red_side=red_side_of(camera))
    assert same_pose(camera, cal)
    later = scatter(np.random.default_rng(1), BOARD, list(rng.permutation(ids)[:20]))
    pairs, lost, extra = match(later, Detector(cal).detect(
        RENDER.render(camera, later, replace(look, seed=3)).image))
    assert not lost and not extra
    assert all(d.colour == colour_of(p) for p, d, _ in pairs)


def test_the_venue_saved_earlier_gives_red_side_and_colours_for_a_mid_game_frame(venue):
    camera, look, cal = venue
    few = {"R01": (-100.0, 20.0), "B01": (150.0, -60.0)}  # few to learn colours from
    frame = RENDER.render(camera, few, replace(look, seed=5)).image
    again = calibrate_board(frame, camera, BOARD, earlier=cal)
    assert same_pose(camera, again) and again.colours == cal.colours  # 16 each, not 1
    alone = calibrate_board(frame, camera, BOARD, red_side=red_side_of(camera))
    assert alone.learnt_from == {"red": 1, "black": 1}
    no_black = RENDER.render(camera, {"R01": (-100.0, 20.0)}, replace(look, seed=5)).image
    with pytest.raises(KangleError, match="1 lone red, 0 lone black.*at least one lone black"):
        calibrate_board(no_black, camera, BOARD, red_side=red_side_of(camera))


@pytest.mark.parametrize("design", ["goma", "carrom"])
def test_a_late_game_frame_with_one_lone_piece_of_a_colour_calibrates_and_says_so(
        design, tmp_path, capsys):
    """Late in a game one lone piece of a colour may be all a frame shows: its colour is
    learnt from it (spread taken wide), the pieces of a fuller frame are then all found
    in their colours, and the command warns that the colour was learnt from few."""
    board = load_board(design)
    render = Renderer(board)
    rng = np.random.default_rng(23)
    camera, look = random_camera(rng), Look.random(rng, occluders=False)
    ids = set_ids(board)
    counts = {"black": 1, "white": 3, "red": 1} if design == "carrom" else {"red": 3,
                                                                             "black": 1}
    place = carrom_scatter if design == "carrom" else lambda rng, ids: scatter(rng, board, ids)
    late = place(rng, [p for colour, n in counts.items()
                       for p in [q for q in ids if part_of(q) == (colour, "piece")][:n]])
    path = tmp_path / "late.png"
    cv2.imwrite(str(path), render.render(camera, late, look).image)
    side = ["--red-side", red_side_of(camera)] if design == "goma" else []
    IntrinsicsReport(camera, 0.1, 1.0, [], []).save(tmp_path / "camera.json")
    assert main(["calibrate", "board", str(path), "--board", design, "--camera",
                 str(tmp_path / "camera.json"), "--out", str(tmp_path / "v.json"), *side]) == 0
    out = capsys.readouterr().out
    assert "black (brightness" in out and "from 1 piece)" in out
    warned = re.search(r"WARNING: (.*) learnt from fewer than 4 pieces", out)
    assert warned and "black" in warned.group(1).split(" and ")
    cal = Calibration.load(tmp_path / "v.json")
    fuller = place(rng, list(rng.permutation(ids)[:18]))
    pairs, lost, extra = match(fuller, Detector(cal).detect(
        render.render(camera, fuller, replace(look, seed=7)).image))
    assert not lost and not extra
    assert all(d.colour == part_of(p)[0] for p, d, _ in pairs)


def test_a_colour_not_in_view_is_taken_from_the_venues_calibration(tmp_path, capsys):
    """Mid-game the queen may be in a hole: a frame without her learns no red, and she
    was never looked for again. Given the venue's calibration from a frame that showed
    her (--venue), her colour is taken from it and she is found in later frames."""
    rng = np.random.default_rng(61)
    camera, look = random_camera(rng, size=(1280, 960)), Look.random(rng, occluders=False)
    ids = set_ids(CARROM)
    first = CARROM_RENDER.render(camera, carrom_scatter(rng, ids), look).image
    cal = calibrate_board(first, camera, CARROM)
    assert "red" in cal.colours.classes
    six = [p for c in ("white", "black")  # of each: enough to learn them from
           for p in [q for q in ids if part_of(q) == (c, "piece")][:6]]
    men = carrom_scatter(rng, six)
    path = tmp_path / "no-queen.png"
    cv2.imwrite(str(path), CARROM_RENDER.render(camera, men, replace(look, seed=4)).image)
    cal.save(tmp_path / "venue.json")
    IntrinsicsReport(camera, 0.1, 1.0, [], []).save(tmp_path / "camera.json")
    common = ["calibrate", "board", str(path), "--board", "carrom", "--camera",
              str(tmp_path / "camera.json")]
    assert main([*common, "--out", str(tmp_path / "alone.json")]) == 0
    assert "not seen, so not looked for: red" in capsys.readouterr().out
    assert main([*common, "--out", str(tmp_path / "v.json"), "--venue",
                 str(tmp_path / "venue.json")]) == 0
    assert "red (brightness" in capsys.readouterr().out
    again = Calibration.load(tmp_path / "v.json")
    assert "red" not in again.learnt_from and "red" in again.colours.classes
    later = carrom_scatter(rng, [p for p in ids if part_of(p)[1] != "striker"][:14] + [
        p for p in ids if part_of(p)[0] == "red"])
    found = Detector(again).detect(CARROM_RENDER.render(camera, later,
                                                        replace(look, seed=9)).image)
    assert match_carrom(later, found) == (0, 0, 0)


def test_a_red_side_the_set_up_rows_contradict_is_refused(venue):
    camera, look, _ = venue
    frame = RENDER.render(camera, setup_positions(BOARD), look).image
    side = red_side_of(camera)
    opposite = {"bottom": "top", "top": "bottom", "left": "right", "right": "left"}[side]
    with pytest.raises(KangleError, match=f"red's row {side}.*--red-side says {opposite}"):
        calibrate_board(frame, camera, BOARD, red_side=opposite)
    assert same_pose(camera, calibrate_board(frame, camera, BOARD, red_side=side))


def test_a_board_cut_by_the_photo_s_edge_is_refused():
    camera = Camera.looking_down(height_mm=1250, tilt_deg=3, shift_mm=(0.0, 260.0))
    frame = RENDER.render(camera, setup_positions(BOARD), Look(seed=2, noise=2)).image
    with pytest.raises(KangleError, match="no board in view|cut by the photo's edge"):
        calibrate_board(frame, camera, BOARD)


def test_corners_that_fit_no_square_board_are_refused(venue):
    camera, look, _ = venue
    frame = RENDER.render(camera, setup_positions(BOARD), look).image
    h = BOARD.half
    clicked = camera.project(np.array([(-h, -h, 0), (h, -h, 0), (h * 0.4, h, 0), (-h, h * 0.7, 0)],
                                      float))
    with pytest.raises(KangleError, match="residual .* mm.*--manual"):
        calibrate_board(frame, camera, BOARD, measure=False, corners_px=clicked)


def test_a_colour_model_saved_in_the_first_format_still_loads():
    first = {"ratio_threshold": 0.5, "redness_threshold": 0.1, "red_ratio": [0.55, 0.05],
             "black_ratio": [0.35, 0.04], "red_redness": [0.2, 0.03],
             "black_redness": [0.0, 0.02]}
    model = ColourModel.from_json(first)
    assert model.classify(0.36, 0.01)[0] == "black" and model.classify(0.55, 0.19)[0] == "red"
    assert ColourModel.from_json(model.to_json()) == model
    with pytest.raises(KangleError, match="damaged"):
        ColourModel.from_json(dict(first, red_ratio=[float("nan"), 0.05]))


# A standard carrom board: white, black and red pieces learnt from the frame itself.

CARROM = load_board("carrom")
CARROM_RENDER = Renderer(CARROM, seed=1)


def carrom_scatter(rng, ids):
    """Positions (mm) for rendered carrom discs, apart and clear of the pockets."""
    pos = {}
    holes = [CARROM.hole_centre(c) for c in ("SW", "SE", "NW", "NE")]
    for pid in ids:
        r = CARROM.striker_radius if part_of(pid)[1] == "striker" else CARROM.piece_radius
        for _ in range(500):
            x, y = rng.uniform(-CARROM.half + r, CARROM.half - r, 2)
            if all(np.hypot(x - a, y - b) > r + CARROM.striker_radius + 0.5
                   for a, b in pos.values()) and min(
                    np.hypot(x - hx, y - hy) for hx, hy in holes) > 40:
                pos[pid] = (float(x), float(y))
                break
    return pos


def test_a_carrom_board_calibrates_from_any_frame_and_finds_light_pieces():
    missed = false = wrong = total = 0
    for seed in range(3):
        rng = np.random.default_rng(200 + seed)
        camera = random_camera(rng, size=(1280, 960))
        look = Look.random(rng, occluders=False)
        truth = carrom_scatter(rng, list(rng.permutation(set_ids(CARROM))[:16]))
        frame = CARROM_RENDER.render(camera, truth, look).image
        cal = calibrate_board(frame, camera, CARROM)  # no set-up, no sides: no --red-side
        assert {"white", "black"} <= set(cal.colours.classes)
        found = Detector(cal).detect(frame)
        used = set()
        for pid, (x, y) in truth.items():
            total += 1
            best = min(((np.hypot(d.x - x, d.y - y), j) for j, d in enumerate(found)
                        if j not in used), default=(99, None))
            if best[0] >= 10:
                missed += 1
                continue
            used.add(best[1])
            d = found[best[1]]
            colour, size = part_of(pid)
            wrong += d.colour != colour or (d.kind == "striker") != (size == "striker")
        false += len(found) - len(used)
    assert missed <= 1 and false == 0 and wrong == 0, (missed, false, wrong, total)


def test_a_black_man_s_grey_shadow_and_blurred_edge_are_not_taken_for_more_of_him():
    """Under a strong soft shadow a black man's blob grew by his grey halo (about as
    bright as the board and less red: what a light set's colour model takes for a white
    man's pixels) to 1.6 times his face and he was dropped as no single piece (issue #19,
    the detection gallery). Beyond most of his radius a dark piece's pixels are dark or
    red; the rest is not counted as his. This frame lost one black man before."""
    rng = np.random.default_rng(301)
    camera = random_camera(rng)
    look = replace(Look.random(rng, occluders=False), shadow=0.45)
    truth = carrom_scatter(rng, set_ids(CARROM))
    frame = CARROM_RENDER.render(camera, truth, look).image
    cal = calibrate_board(frame, camera, CARROM)
    assert match_carrom(truth, Detector(cal).detect(frame)) == (0, 0, 0)


def test_carrom_printed_red_discs_are_no_pieces_but_a_man_on_one_is_found():
    rng = np.random.default_rng(9)
    camera = Camera.looking_down(size=(1280, 960), height_mm=1500, tilt_deg=4)
    look = Look(seed=3, noise=2)
    ids = set_ids(CARROM)
    truth = carrom_scatter(rng, [p for p in ids if not p.startswith("red")][:14])
    cal = calibrate_board(CARROM_RENDER.render(camera, truth, look).image, camera, CARROM)
    # now a white man on the SW base circle, a black one on the centre's red disc
    later = {"white-piece-1": (-219.0, -252.0), "black-piece-1": (0.0, 0.0),
             "white-piece-2": (100.0, 120.0)}
    found = Detector(cal).detect(CARROM_RENDER.render(camera, later, look).image)
    got = sorted((d.colour, round(d.x / 20), round(d.y / 20)) for d in found)
    assert got == sorted([("white", -11, -13), ("black", 0, 0), ("white", 5, 6)])


def test_two_touching_men_on_a_base_disc_are_not_joined_to_the_part_of_it_they_enclose():
    """Carrom seed 97, venue 3, frame 1 of the detection benchmark (the gallery): two black
    men touching, one standing mostly on the SW base disc. The disc's printed rim (red as
    the disc, but counted with the lines, outside the disc's inside) passed as a red
    piece's pixels; with the man's edge it enclosed the sliver of the disc left in view,
    the filling took that in, and its pixels fell to the men: both were dropped as no
    single piece. A rim's pixels like the print are no piece's."""
    camera = Camera(np.array([[969.787, 0, 640], [0, 969.787, 360], [0, 0, 1]]),
                    np.array([-0.0368086, 0.00543904, 0, 0, 0]), (1280, 720),
                    np.array([2.93909, -0.0326335, 0.00331277]),
                    np.array([-11.218, 6.44451, 1519.65]))
    look = Look(light_gradient=0.0719, light_warmth=0.5264, noise=3.053, blur=0.1113, jpeg=70,
                shadow=0.2584, occluders=0, seed=119728586,
                lamp=Lamp(x=231.0, y=-196.5, height=750.9, width=444.4, darkness=0.4728))
    truth = {"red-piece-1": (-202.6, -34.4), "white-piece-8": (-307.2, 235.2),
             "white-piece-7": (-165.7, 33.8), "white-piece-2": (-103.2, 205.3),
             "black-piece-4": (-108.5, 284.7), "black-piece-5": (-233.0, -250.5),
             "black-piece-2": (-297.4, -225.6), "black-piece-3": (-177.0, 4.6),
             "white-piece-3": (-313.0, 265.9), "white-piece-5": (271.0, 233.1),
             "white-piece-6": (-70.4, -37.8), "black-piece-6": (-83.4, 303.5),
             "white-piece-1": (-64.2, 86.7), "black-piece-7": (-193.4, -234.1),
             "white-piece-9": (-189.1, 243.2), "white-piece-4": (-276.3, -349.4),
             "black-piece-8": (53.8, 313.0)}
    frame = CARROM_RENDER.render(camera, truth, look).image
    found = Detector(calibrate_board(frame, camera, CARROM)).detect(frame)
    men = {pid: truth[pid] for pid in ("black-piece-5", "black-piece-7")}
    near = [d for d in found if min(np.hypot(d.x - x, d.y - y) for x, y in men.values()) < 60]
    assert match_carrom(men, near) == (0, 0, 0)


@pytest.mark.parametrize("damage, message", [
    (lambda d: d["pose"]["rvec"].__setitem__(0, float("nan")), r"pose.rvec: not a finite"),
    (lambda d: d["camera"]["matrix"][0].__setitem__(0, True), r"camera.matrix: not numbers"),
    (lambda d: d.pop("board"), r"board: missing"),
    (lambda d: d["camera"].__setitem__("size", [1280]), r"camera.size: shape"),
    (lambda d: d["camera"].__setitem__("size", [-5, 720]), r"not an image size"),
    (lambda d: d["pose"].__setitem__("tvec", "up"), r"pose.tvec: not numbers"),
])
def test_a_damaged_calibration_is_refused_naming_the_place(venue, damage, message):
    _, _, cal = venue
    data = cal.to_json()
    damage(data)
    with pytest.raises(KangleError, match=message):
        Calibration.from_json(data)


def test_a_carrom_board_is_found_with_an_arm_joining_it_to_a_light_floor():
    """An arm reaching in over the cushion joins the playing surface to the light cloth
    round the table into one bright region that runs off the picture: the parts
    narrower than an arm are cut away and the surface found all the same."""
    grid = np.array([(x, y, 0) for x in (-300, 300) for y in (-300, 300)], float)
    render = Renderer(CARROM)
    for venue in range(2):
        camera = random_camera(np.random.default_rng(venue))
        for seed in range(4):
            frame = render.render(camera, carrom_scatter(np.random.default_rng(seed),
                                                         list(set_ids(CARROM))[:10]),
                                  Look(seed=seed, occluders=1, noise=2))
            pose = find_board(frame.image, camera, CARROM)
            error = np.linalg.norm(camera.to_board(pose.camera.project(grid)) - grid[:, :2],
                                   axis=1)
            assert error.max() < 2.0, (venue, seed)


def test_a_carrom_phone_photo_12_megapixels_tilted_is_calibrated_and_read():
    """A phone held over the board: 3000 x 4000, portrait, 15 degrees off vertical, a
    little barrel distortion, blur and JPEG."""
    rng = np.random.default_rng(2)
    camera = Camera.looking_down(size=(3000, 4000), fov_deg=60, height_mm=1150, tilt_deg=15,
                                 yaw_deg=5, dist=(-0.05, 0.01, 0, 0, 0))
    truth = carrom_scatter(rng, set_ids(CARROM))
    photo = CARROM_RENDER.render(camera, truth, Look(seed=2, noise=3, jpeg=88, blur=1.2,
                                                     light_gradient=0.25)).image
    cal = calibrate_board(photo, camera, CARROM)
    found = Detector(cal).detect(photo)
    pairs = [min(np.hypot(d.x - x, d.y - y) for d in found) for x, y in truth.values()]
    assert len(found) == len(truth) == 20 and max(pairs) < 5


def match_carrom(truth, found, within=5.0):
    """(missed, false, wrong colour or kind) of carrom detections against the truth."""
    used, missed, wrong = set(), 0, 0
    for pid, (x, y) in truth.items():
        best = min(((np.hypot(d.x - x, d.y - y), j) for j, d in enumerate(found)
                    if j not in used), default=(99.0, None))
        if best[0] >= within:
            missed += 1
            continue
        used.add(best[1])
        colour, size = part_of(pid)
        d = found[best[1]]
        wrong += d.colour != colour or (d.kind == "striker") != (size == "striker")
    return missed, len(found) - len(used), wrong


def test_the_carrom_set_up_rosette_calibrates_and_every_piece_in_it_is_found():
    """At the start the queen and the eighteen men touch in a rosette: no piece stands
    alone, and the blob has no neck between its pieces. Colours are learnt from the
    rosette (its pixels parted by colour, each colour's pieces by their peaks), and
    each piece is found by its outline, whatever colour its neighbours. Three venues,
    two frames each: 120 discs, at most one missed (the benchmark's recall is 99 %)."""
    missed = []
    for seed in range(3):
        rng = np.random.default_rng(300 + seed)
        camera = random_camera(rng, size=(1280, 960))
        look = Look.random(rng, occluders=False)
        truth = carrom_setup(CARROM, turn_deg=float(rng.uniform(0, 60)))
        truth["white-striker-1"] = (float(rng.uniform(-200, 200)), -CARROM.half + 110.0)
        frame = CARROM_RENDER.render(camera, truth, look).image
        cal = calibrate_board(frame, camera, CARROM)  # nothing but the rosette, a striker
        assert set(cal.colours.classes) == {"white", "black", "red"}
        later = CARROM_RENDER.render(camera, truth, replace(look, seed=look.seed + 1)).image
        for image in (frame, later):
            lost, false, wrong = match_carrom(truth, Detector(cal).detect(image))
            assert false == 0 and wrong == 0
            missed.append(lost)
    assert sum(missed) <= 1, missed


def test_glare_on_a_pale_carrom_board_is_no_white_man():
    """A patch of glare is lighter and less red than the wood, as a white man is, and can
    be as round; but nothing darkens the board round it, as a man's side and shadow do."""
    rng = np.random.default_rng(51)
    camera = Camera.looking_down(size=(1600, 1200), height_mm=1400, tilt_deg=6)
    truth = carrom_scatter(rng, set_ids(CARROM))
    look = Look(seed=1, noise=2, jpeg=90)
    cal = calibrate_board(CARROM_RENDER.render(camera, truth, look).image, camera, CARROM)
    later = {"white-piece-1": (-150.0, -100.0), "black-piece-1": (120.0, 80.0)}
    photo = CARROM_RENDER.render(camera, later, replace(look, seed=2)).image.astype(np.float32)
    glare = np.zeros(photo.shape[:2], np.float32)
    spots = [(60.0, -150.0), (-120.0, 160.0), (200.0, 200.0), (-200.0, 60.0), (0.0, 250.0)]
    for k, centre in enumerate(camera.project(np.array([(x, y, 0.0) for x, y in spots]))):
        cv2.ellipse(glare, tuple(int(v) for v in centre), (14 + 4 * k, 12 + 2 * k), 30 * k, 0,
                    360, 1.0, -1)
    photo = np.clip(photo + 90 * cv2.GaussianBlur(glare, (0, 0), 5)[:, :, None], 0, 255)
    found = Detector(cal).detect(photo.astype(np.uint8))
    assert sorted((d.colour, round(d.x / 20), round(d.y / 20)) for d in found) == [
        ("black", 6, 4), ("white", -8, -5)]


@pytest.mark.parametrize("seed", [700, 703])
def test_white_men_under_the_camera_with_a_faint_shadow_are_found(seed):
    """A camera straight above the board sees no man's side, and a faint shadow (0.15)
    hardly darkens the board round a white man on pale wood: the glare test, asking for
    the board beside him darker than 0.9 of itself, dropped two in each of these frames
    (issue #19, the detection gallery). His edge still darkens the board beside him more
    than the board a few pixels farther out is darkened by its own grain."""
    rng = np.random.default_rng(seed)
    camera = Camera.looking_down(size=(1280, 960), height_mm=1300, tilt_deg=0)
    truth = carrom_scatter(rng, set_ids(CARROM))
    look = Look(seed=seed - 700, noise=2, jpeg=90, shadow=0.15)
    frame = CARROM_RENDER.render(camera, truth, look).image
    cal = calibrate_board(frame, camera, CARROM)
    assert match_carrom(truth, Detector(cal).detect(frame)) == (0, 0, 0)


def test_a_striker_at_the_centre_of_its_circle_is_found_whatever_the_camera():
    # Every shot starts with the striker in its circle, usually at the centre: the printed
    # circle then runs 6 mm outside the striker's edge, and where blur, JPEG and the
    # striker's shadow fill that gap, the circle joined the striker's blob and no striker
    # was found — for a whole venue's shots. Each venue below is one camera and light
    # (the third lost its black striker so).
    missed = []
    for seed in range(4):
        rng = np.random.default_rng(1000 + seed)
        camera, look = random_camera(rng), Look.random(rng, occluders=False)
        cal = calibrate_board(RENDER.render(camera, setup_positions(BOARD), look).image,
                              camera, BOARD)
        truth = {"RS": BOARD.circle_centre("SW"), "BS": BOARD.circle_centre("NE")}
        found = Detector(cal).detect(RENDER.render(camera, truth, look).image)
        for pid, (x, y) in truth.items():
            if not any(d.kind == "striker" and d.colour == ("red" if pid == "RS" else "black")
                       and np.hypot(d.x - x, d.y - y) < 4.0 for d in found):
                missed.append((seed, pid))
    assert missed == []


@pytest.mark.parametrize("seed", [0, 2, 3, 6])
def test_an_arm_over_a_carrom_board_leaves_no_piece_along_it_or_on_the_print_it_covers(seed):
    """Beside an arm the board's mean brightness is the arm's and the board's average,
    under which the bare board along the arm's edges read as white men and strikers;
    where the arm covers a printed red disc, the disc's shape cut from it read as the
    queen (issue #19, the detection gallery; frames 0 and 2 had one or both). The board
    round a point is its brighter part, and what covers a printed disc and runs on
    beyond it is no piece. Under a cold light the arm, painted untinted, is nearer red
    than any other colour, and the blob was cut into a row of red discs (frames 3 and
    6: 9-14 of them): a piece's pixels are mostly like its colour, an arm's are not."""
    rng = np.random.default_rng(seed)
    camera = random_camera(rng, size=(1280, 960))
    look = Look.random(rng, occluders=False)
    truth = carrom_scatter(rng, set_ids(CARROM))
    cal = calibrate_board(CARROM_RENDER.render(camera, truth, look).image, camera, CARROM)
    start, end = np.array([-600.0, 240.0]), np.array([-90.0, 240.0])  # over a base disc
    later = {pid: (x, y) for pid, (x, y) in truth.items()
             if abs(y - 240.0) > 120 or x > 60}  # not under the arm or the hand
    photo = CARROM_RENDER.render(camera, later, replace(look, seed=look.seed + 1)).image
    lay_occluder(photo, camera, start, end, hand=True)  # untinted by the frame's light
    assert match_carrom(later, Detector(cal).detect(photo)) == (0, 0, 0)


@pytest.mark.parametrize("seed", [1, 3, 6])
def test_the_shadow_an_arm_casts_leaves_no_piece_beside_it(seed):
    """A lamp to the side throws an arm's shadow onto the board beside it: arm and shadow
    together are one dark band, and inside the arm the window the board's brightness is
    taken over sees mostly arm, not darker than itself, so only the band's edges were
    left out and the bare board beyond the shadow read 1.1-1.2 times "the board": white
    men there (issue #19, the detection gallery with the renderer's lamp; these frames
    had a false white man each, the last also lost one). The band is darker than the lit
    board within an arm's reach, and left out whole."""
    rng = np.random.default_rng(seed)
    camera = random_camera(rng, size=(1280, 960))
    look = Look.random(rng, occluders=False)
    truth = carrom_scatter(rng, set_ids(CARROM))
    cal = calibrate_board(CARROM_RENDER.render(camera, truth, look).image, camera, CARROM)
    start, end = np.array([60.0, 600.0]), np.array([60.0, 60.0])  # from N to the middle
    lamp = Lamp(x=-340.0, y=300.0, height=700.0, width=250.0, darkness=0.45)
    later = {pid: (x, y) for pid, (x, y) in truth.items() if abs(x - 60.0) > 130 or y < -60}
    lit = CARROM_RENDER.render(camera, later, replace(look, seed=look.seed + 1)).image
    shaded = lit.astype(np.float32)
    cast_shadows(shaded, camera, occluder_shapes(start, end, hand=True), lamp)
    photo = np.clip(shaded, 0, 255).astype(np.uint8)
    lay_occluder(photo, camera, start, end, hand=True)
    assert match_carrom(later, Detector(cal).detect(photo)) == (0, 0, 0)


@pytest.mark.parametrize("angle", [0.0, 10.0, -10.0])
def test_a_red_sleeve_across_the_cushion_is_no_row_of_strikers(venue, angle):
    """A red sleeve (vision.player's) lying across the S cushion and the rim is wider
    than any piece, but the cushion's lines cut it into strips a striker wide, and each
    strip's middle was taken for a red striker inside a printed ring (held-out 7724: a
    dozen red strikers in every frame; the real one, flying off the E side, was
    followed onto them and its 5.4 foul never called). A ring holds a piece; a strip as
    long as an arm is none."""
    camera, look, cal = venue
    frame = RENDER.render(camera, {"RS": (150.0, -200.0)}, replace(look, seed=5)).image
    along = np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])
    across = np.array([-along[1], along[0]]) * 50.0  # a sleeve 100 mm wide
    middle = np.array([-60.0, -BOARD.half - 20.0])
    ends = [middle - 200.0 * along, middle + 200.0 * along]
    band = np.array([ends[0] + across, ends[1] + across, ends[1] - across, ends[0] - across])
    corners = camera.project(np.column_stack([band, np.full(4, 60.0)]))
    cv2.fillPoly(frame, [np.round(corners).astype(np.int32)], (50, 50, 170), cv2.LINE_AA)
    found = Detector(cal).detect(frame)
    assert [(d.colour, d.kind) for d in found] == [("red", "striker")]


@pytest.mark.parametrize("seed", [1, 5, 7])
def test_the_board_enclosed_by_a_printed_ring_is_no_white_man(seed):
    """A white man on pale wood is about the board's brightness and only a little cooler,
    so bare board is as like his colour as he is. Where print encloses a man's width of
    board (a ring; on a carrom board, the gap between two base circles where an arrow
    passes) the mask's filling made it a blob, ringed by something darker like a man's
    shadow: a white man (issue #19, the detection gallery of seed 89: two or three a
    frame at one venue). A man's face is seen for itself; the enclosed board was only
    filled in."""
    rng = np.random.default_rng(seed)
    camera = random_camera(rng, size=(1280, 960))
    look = Look.random(rng, occluders=False)
    truth = carrom_scatter(rng, set_ids(CARROM))
    cal = calibrate_board(CARROM_RENDER.render(camera, truth, look).image, camera, CARROM)
    men = {"white-piece-1": (0.0, 0.0), "black-piece-1": (100.0, 40.0)}
    frame = CARROM_RENDER.render(camera, men, replace(look, seed=look.seed + 1)).image
    turn = np.linspace(0, 2 * np.pi, 60)
    ring = np.stack([150 + CARROM.piece_radius * np.cos(turn),
                     -150 + CARROM.piece_radius * np.sin(turn), 0 * turn], axis=1)
    cv2.polylines(frame, [np.round(camera.project(ring)).astype(np.int32)], True,
                  (60, 50, 45), 2, cv2.LINE_AA)
    assert match_carrom(men, Detector(cal).detect(frame)) == (0, 0, 0)


@pytest.mark.parametrize("seed", [28, 39])
def test_white_men_beside_the_frame_are_not_taken_for_glare(seed):
    """A light blob is a piece where the board beside it is darker than the board a few
    pixels farther out (its edge), which keeps glare out; beside the frame the ring
    farther out lies on the frame's dark wood, always darker than any shadow, and a
    white man with a faint shadow there was dropped as glare (issue #19, the detection
    gallery; these frames lost two men and one). The rings are judged by the board's own
    pixels, not the printed lines' or the frame's."""
    rng = np.random.default_rng(seed)
    camera = random_camera(rng, size=(1280, 960))
    look = Look.random(rng, occluders=False)
    truth = carrom_scatter(rng, set_ids(CARROM))
    cal = calibrate_board(CARROM_RENDER.render(camera, truth, look).image, camera, CARROM)
    h = CARROM.half - CARROM.piece_radius - 9.0  # 9 mm off the cushion
    men = {f"white-piece-{k + 1}": p for k, p in enumerate(
        [(h, -120.0), (-h, 90.0), (40.0, h), (-150.0, -h), (h, 200.0), (-h, -210.0),
         (220.0, -h), (-60.0, h)])}
    frame = CARROM_RENDER.render(camera, men, replace(look, seed=look.seed + 1)).image
    assert match_carrom(men, Detector(cal).detect(frame)) == (0, 0, 0)

"""Reading Rummikub tiles from photos: the synthetic renderer's exact labels, real
photos labelled by people (tests/data/tiles, CC BY 4.0), the 6/9 and light-colour
cases, and the `kangle tiles` command's output and bad input."""

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from kangle.cli import main
from rules.errors import KangleError
from rules.games.rummitiles import JOKER, Tile
from tests.tile_kit import PLAIN_HAND, PLAIN_SET
from vision.tiles import cnn, find
from vision.tiles.editions import (
    HELD_OUT_JOKERS,
    HELD_OUT_TYPEFACES,
    HERSHEY,
    TRAIN_JOKERS,
    TRAIN_TYPEFACES,
    Edition,
    random_edition,
)
from vision.tiles.face import PATCH_H, PATCH_W, balanced, patch
from vision.tiles.labels import read_split
from vision.tiles.model import COLOURS, FACE_CLASSES, models
from vision.tiles.quads import overlap
from vision.tiles.read import (
    INK_OFFSET,
    TileReading,
    _anchored,
    _beside,
    _best,
    _distinct,
    _fitted,
    _Judge,
    _merge,
    _Outlines,
    _reading,
    _reading_order,
    _Verdict,
    read_tiles,
)
from vision.tiles.render import SCENES, camera, render_photo, render_world, tile_face
from vision.tiles.ways import way_priors

DATA = Path(__file__).parent / "data" / "tiles"


def matched(labels, readings):
    """(label tile, read tile) for each label, read tile None when not found."""
    out = []
    for lt in labels:
        best = max(readings, key=lambda r: overlap(r.corners, lt.box), default=None)
        ok = best is not None and overlap(best.corners, lt.box) >= 0.5
        out.append((lt.tile, best.tile if ok else None))
    return out


def _ink(p):
    b = balanced(p)
    return np.clip(1 - b.min(axis=2), 0, 1)


def test_rendered_labels_outline_the_tiles_exactly():
    """Cutting a photo along a tile's label, upright, gives that tile's face: its ink
    lines up with the face drawn on its own."""
    photo, image = render_photo(np.random.default_rng(5), count=8)
    assert len(photo.tiles) >= 4
    for lt in photo.tiles:
        seen = _ink(patch(image, lt.polygon))
        drawn = _ink(cv2.resize(tile_face(lt.tile, np.random.default_rng(0)).astype(np.uint8),
                                (PATCH_W, PATCH_H), interpolation=cv2.INTER_AREA))
        r = np.corrcoef(seen.ravel(), drawn.ravel())[0, 1]
        assert r > 0.7, (lt.tile, r)
        turned = np.corrcoef(seen.ravel(), drawn[::-1, ::-1].ravel())[0, 1]
        assert r > turned + 0.2  # and it is upright, not half turned


def test_synthetic_photos_are_read_right():
    right = total = 0
    for seed in range(6):
        photo, image = render_photo(np.random.default_rng(500 + seed))
        for truth, read in matched(photo.tiles, read_tiles(image)):
            total += 1
            right += truth == read
    assert total > 20
    assert right / total >= 0.95


def _single(tile: Tile, quarter_turns: int = 0, warm: float = 0.0):
    """A photo of one tile lying on the table, turned by quarter turns, under light
    tinted warm (> 0) or cold (< 0)."""
    _, image = render_photo(np.random.default_rng(7), tiles=[tile], rows=False,
                            angle=quarter_turns * np.pi / 2, warm=warm, span=200)
    return image


@pytest.mark.parametrize("number", [6, 9])
@pytest.mark.parametrize("turn", [0, 1, 2, 3])
def test_six_and_nine_are_told_apart_at_any_rotation(number, turn):
    readings = read_tiles(_single(Tile(number, "blue"), turn))
    assert [r.tile for r in readings] == [Tile(number, "blue")]


def _six_nine(rows: bool, seed: int, angle: float):
    photo, image = render_photo(np.random.default_rng(seed), tiles=PLAIN_HAND, rows=rows,
                                angle=angle, span=220, edition=PLAIN_SET)
    readings = read_tiles(image)
    pairs = []
    for lt in photo.tiles:
        best = max(readings, key=lambda r: overlap(r.corners, lt.box), default=None)
        if best is not None and overlap(best.corners, lt.box) >= 0.5 and lt.tile.number in (6, 9):
            pairs.append((lt.tile, best))
    return pairs


@pytest.mark.parametrize("angle", [0.0, np.pi])
def test_a_six_or_nine_of_a_plain_set_lies_the_way_its_row_does(angle):
    """With nothing printed to tell a 6 from a 9, tiles laid side by side in a row (the
    right way up or all upside down) say which way up the 6 or 9 among them lies."""
    pairs = [p for seed in (2, 3, 4) for p in _six_nine(True, seed, angle)]
    assert len(pairs) >= 6
    assert all(truth == read.tile for truth, read in pairs), pairs


def test_a_lone_six_or_nine_of_a_plain_set_is_flagged_not_guessed():
    """Scattered at random angles, such a 6 or 9 has no row to go by: it is read
    right or flagged as unsure, never read wrong surely."""
    pairs = [p for seed in range(4) for p in _six_nine(False, seed, 0.0)]
    assert len(pairs) >= 6
    assert all(truth == read.tile or not read.sure for truth, read in pairs), pairs
    assert any(not read.sure for _, read in pairs)


def test_a_tile_unsure_of_its_way_takes_the_way_of_sure_tiles_in_its_row():
    """way_priors: an unsure tile between two sure ones lying the other way round is
    weighed towards that way; a tile sure of its way, one with no sure tile in line
    beside it, and one beside a tile lying across it are left alone."""
    def tile(x, y, turn=0):  # corners as cut, 30 wide and 42 long, top first
        c = np.array([[-15, -21], [15, -21], [15, 21], [-15, 21]], float)
        a = turn * np.pi / 2
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        return c @ rot.T + (x, y)

    corners = [tile(0, 0), tile(32, 0), tile(64, 0), tile(32, 200), tile(300, 0, 1),
               tile(332, 0)]
    up = np.array([0.0, 0.5, 0.01, 0.5, 0.0, 0.5])  # the outer two read upside down
    weights = way_priors(corners, up, np.ones(6, bool))
    assert weights[1, 1] > 50 * weights[1, 0]  # towards the way its neighbours lie
    assert (weights[[0, 2, 3, 4, 5]] == 1).all()



@pytest.mark.parametrize("seed", [7_000_301, 7_000_307])
def test_a_tile_of_a_design_never_seen_is_flagged_not_left_out(seed):
    """A joker of the design training never sees (a star) in a row of numbered tiles:
    the face network takes its face for no tile, and it used to be left out of the
    hand without a word (30 points). A region as large as the photo's sure tiles,
    face by the pixel network, whole in the photo and apart from every reading is a
    tile: it is given the likeliest face, flagged for a person to check."""
    rng = np.random.default_rng(seed)
    edition = replace(random_edition(rng), joker="star")
    tiles = [Tile(5, "red"), Tile(12, "blue"), JOKER, Tile(7, "black"), Tile(3, "orange")]
    photo, image = render_photo(rng, tiles=tiles, rows=True, edition=edition, span=260.0,
                                angle=0.1)
    readings = read_tiles(image)
    assert len(photo.tiles) == 5 and len(readings) == 5
    for lt in photo.tiles:
        read = max(readings, key=lambda r: overlap(r.corners, lt.box))
        assert overlap(read.corners, lt.box) >= 0.5
        assert read.tile == lt.tile if lt.tile != JOKER else not read.sure

@pytest.mark.parametrize("colour", ["red", "orange", "blue", "black"])
@pytest.mark.parametrize("warm", [-0.25, 0.25])
def test_colour_survives_warm_and_cold_light(colour, warm):
    readings = read_tiles(_single(Tile(8, colour), 0, warm))
    assert [r.tile for r in readings] == [Tile(8, colour)]


def test_a_joker_is_read_as_a_joker():
    assert [r.tile for r in read_tiles(_single(JOKER, 1))] == [JOKER]


def test_real_photos_labelled_by_people():
    photos = read_split(DATA)
    assert len(photos) >= 3
    found = right = total = 0
    for photo in photos:
        image = cv2.imread(str(photo.image))
        for truth, read in matched(photo.tiles, read_tiles(image)):
            total += 1
            found += read is not None
            right += truth == read
    assert found / total >= 0.98  # 91 tiles; the models never saw these photos
    assert right / total >= 0.97


def test_a_tile_the_finder_split_in_two_is_read_whole():
    """In this crowded photo the joker's rings hold edge-like pixels, so the finder's
    watershed splits each of the two jokers into two regions; they are read whole as
    two neighbouring regions taken together."""
    photo = next(p for p in read_split(DATA) if p.image.name.startswith("rummy-8_"))
    pairs = matched(photo.tiles, read_tiles(cv2.imread(str(photo.image))))
    assert [read for truth, read in pairs if truth == JOKER] == [JOKER, JOKER]


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def hand_photo(tmp_path, tiles, name="hand.png", seed=11):
    """A photo of ``tiles`` lying on the table, all inside the picture."""
    photo, image = render_photo(np.random.default_rng(seed), tiles=tiles, rows=False,
                                span=220)
    assert len(photo.tiles) == len(tiles)
    path = tmp_path / name
    cv2.imwrite(str(path), image)
    return path


def test_kangle_tiles_prints_the_json_the_issue_names(tmp_path, capsys):
    path = hand_photo(tmp_path, [Tile(7, "red"), Tile(13, "blue"), JOKER])
    code, out, _ = run(capsys, "tiles", path, "--json", "--annotate", tmp_path / "out")
    assert code == 0
    photo = json.loads(out)["photos"][0]
    assert photo["path"] == str(path)
    got = sorted((t["number"] or 0, t["colour"] or "", t["joker"]) for t in photo["tiles"])
    assert got == [(0, "", True), (7, "red", False), (13, "blue", False)]
    assert photo["value"] == 7 + 13 + 30
    assert photo["uncertain"] == sum(t["confidence"] < 0.9 for t in photo["tiles"])
    assert all(len(t["corners"]) == 4 for t in photo["tiles"])
    assert (tmp_path / "out" / "hand-tiles.jpg").exists()


def test_no_initial_meld_applies_minus_100_or_minus_200(tmp_path, capsys):
    can = hand_photo(tmp_path, [Tile(10, "red"), Tile(11, "red"), Tile(12, "red")], "can.png")
    cannot = hand_photo(tmp_path, [Tile(1, "red"), Tile(5, "blue")], "cannot.png")
    code, out, _ = run(capsys, "tiles", can, cannot, "--json", "--no-initial-meld")
    assert code == 0
    values = [p["value"] for p in json.loads(out)["photos"]]
    assert values == [200, 100]
    code, out, _ = run(capsys, "tiles", cannot)
    assert code == 0 and "penalty 6" in out and "blue 5" in out


def test_bad_photos_are_reported_and_the_rest_still_read(tmp_path, capsys):
    good = hand_photo(tmp_path, [Tile(4, "black")])
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    blank = tmp_path / "table.png"
    cv2.imwrite(str(blank), np.full((300, 400, 3), (40, 70, 110), np.uint8))
    code, out, err = run(capsys, "tiles", text, good, empty, blank, tmp_path / "gone.jpg",
                         "--json")
    assert code == 2
    photos = json.loads(out)["photos"]
    assert [("error" in p) for p in photos] == [True, False, True, True, True]
    assert photos[1]["value"] == 4
    assert "not an image" in photos[0]["error"] and "no tiles" in photos[3]["error"]
    assert "does not exist" in photos[4]["error"]
    assert "4 of 5 photos could not be read" in err


def _naive_conv3(x, w, b):
    """Zero-padded 3 × 3 cross-correlation, one output value at a time."""
    n, h, wd, c = x.shape
    p = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    out = np.zeros((n, h, wd, len(w)))
    for i in range(h):
        for j in range(wd):
            window = p[:, i:i + 3, j:j + 3, :]  # (n, 3, 3, C)
            out[:, i, j, :] = np.einsum("nyxc,ocyx->no", window, w) + b
    return out


def test_the_face_network_computes_convolution_pooling_and_softmax():
    """The numpy network against a direct, loop-by-loop evaluation of its layers."""
    rng = np.random.default_rng(4)
    x = rng.random((3, 7, 5, 2)).astype(np.float32)
    w1, b1 = rng.normal(size=(4, 2, 3, 3)), rng.normal(size=4)
    wd, bd = rng.normal(size=(3, 4 * 3 * 2)), rng.normal(size=3)
    net = cnn.ConvNet([(w1, b1)], [(wd, bd)], (("a", "b"), ("c",)))
    conv = np.maximum(_naive_conv3(x, w1, b1), 0)
    pooled = np.array([[[conv[k, 2 * i:2 * i + 2, 2 * j:2 * j + 2, :].max(axis=(0, 1))
                         for j in range(2)] for i in range(3)] for k in range(3)])
    flat = pooled.transpose(0, 3, 1, 2).reshape(3, -1)  # channel-major, as PyTorch
    z = flat @ wd.T + bd
    first, second = net.probabilities(x)  # a softmax over each head's own outputs
    assert np.allclose(first, np.exp(z[:, :2]) / np.exp(z[:, :2]).sum(axis=1, keepdims=True),
                       atol=1e-5)
    assert np.allclose(second, 1.0)


def test_the_face_network_round_trips_through_its_file(tmp_path):
    rng = np.random.default_rng(5)
    net = cnn.ConvNet([(rng.normal(size=(2, 3, 3, 3)).astype(np.float32),
                        rng.normal(size=2).astype(np.float32))],
                      [(rng.normal(size=(2, 2 * 2 * 2)).astype(np.float32),
                        rng.normal(size=2).astype(np.float32))], (("x",), ("y",)))
    net.save(tmp_path / "n.npz")
    again = cnn.ConvNet.load(tmp_path / "n.npz")
    x = rng.random((4, 4, 5, 3)).astype(np.float32)
    assert again.heads == (("x",), ("y",))
    assert all(np.allclose(a, b) for a, b in zip(again.probabilities(x), net.probabilities(x),
                                                  strict=True))


def test_training_with_bad_input_says_why_before_it_starts(tmp_path, capsys):
    from vision.tiles import train

    assert train.main([str(tmp_path / "no-data"), "--out", str(tmp_path / "m")]) == 2
    err = capsys.readouterr().err
    assert "PyTorch" in err or "no train/images folder" in err
    assert not (tmp_path / "m").exists()  # nothing written


def _pixels(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask)
    return np.stack([xs, ys], 1).astype(np.float32)


def test_tiles_joined_through_a_neck_are_cut_apart_there():
    """Two tile faces (30 × 44 px) whose seam faded over a third of its length join
    through a 14-pixel neck; cut at the neck, each part is one face (the neck's
    pixels go half to each). A lone face with a bold number in it has no neck."""
    mask = np.zeros((60, 80), np.uint8)
    mask[8:52, 5:35] = 1
    mask[8:52, 39:69] = 1
    mask[23:37, 35:39] = 1  # the neck where the seam faded
    for level in find.NECK_LEVELS:
        parts = find._neck_cut(_pixels(mask), level)
        assert parts is not None and len(parts) == 2
        left, right = sorted(parts, key=lambda p: p[:, 0].mean())
        assert left[:, 0].max() <= 37 and right[:, 0].min() >= 36
        assert abs(len(left) - (30 * 44 + 28)) <= 14 and abs(len(right) - (30 * 44 + 28)) <= 14
    lone = np.zeros((60, 50), np.uint8)
    lone[8:52, 10:40] = 1
    cv2.putText(lone, "13", (12, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.6, 0, 2)
    assert all(find._neck_cut(_pixels(lone), level) is None for level in find.NECK_LEVELS)


def test_a_face_taken_for_table_inside_a_found_outline_is_still_a_region():
    """A tile whose outline was classed edge while its whole face was classed
    background (a pink face under warm light) is a region filling its outline; the
    table round it, which reaches the photo's border, is none."""
    probs = np.zeros((80, 100, 3), np.float32)
    probs[:, :, 0] = 1  # all table
    outline = np.zeros((80, 100), np.uint8)
    cv2.rectangle(outline, (30, 15), (61, 58), 1, 3)  # a 32 × 44 px tile's edge band
    probs[outline > 0] = (0, 0, 1)
    found, _ = find.regions(probs)
    assert len(found) == 1
    (cx, cy), (a, b), _ = found[0].rect
    assert abs(cx - 45.5) < 1 and abs(cy - 36.5) < 1
    assert sorted((a, b)) == pytest.approx([26, 38], abs=3)  # inside the edge band
    assert found[0].tile_like


def test_two_rows_whose_gap_looks_half_face_half_table_are_cut_apart():
    """A row of tiles 30 px high over one 20 px high, 2 px apart: the gap was classed
    a little more face (0.55) than table (0.45) and not edge at all, so the two rows
    are one region. Its first seam cut runs along the gap."""
    probs = np.zeros((80, 100, 3), np.float32)
    probs[:, :, 0] = 1  # table
    probs[10:40, 30:70] = (0, 1, 0)  # the upper row's faces
    probs[40:42, 30:70] = (0.45, 0.55, 0)  # the gap
    probs[42:62, 30:70] = (0, 1, 0)  # the lower row's
    found, _ = find.regions(probs)
    assert len(found) == 1
    heights = [sorted(sorted(p.rect[1])[0] for p in cut) for cut in found[0].cuts]
    assert any(h == pytest.approx([18, 28], abs=3) for h in heights)  # less the eroded rim


def test_a_reading_lying_on_a_surer_one_is_dropped_and_neighbours_kept():
    """A joker's face ring read as a tile of its own lies inside the joker's outline;
    tiles side by side share only the few pixels of their outlines' edge band."""
    def box(x, y, w=40, h=56):
        return np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float64)

    joker = TileReading(JOKER, 0.99, box(100, 100), False)
    ring = TileReading(JOKER, 0.72, box(108, 112, 30, 30), False)
    left = TileReading(Tile(7, "blue"), 0.97, box(56, 100), False)  # overlaps by 4 px
    right = TileReading(Tile(7, "black"), 0.95, box(144, 100), False)
    kept = _distinct([ring, left, joker, right])
    assert sorted(k.confidence for k in kept) == [0.95, 0.97, 0.99]


def blank_maps(h: int, w: int) -> find.Maps:
    """Pixel maps (working pixels, h × w) of all face: no edge, no table."""
    return find.Maps(edge=np.zeros((h, w), np.float32), face=np.ones((h, w), bool),
                     table=np.zeros((h, w), np.float32))


def verdict(p_tile: float) -> _Verdict:
    """The face network's verdict on a region that is a tile with probability p_tile."""
    face = np.zeros(len(FACE_CLASSES), np.float32)
    face[0], face[-1] = p_tile, 1 - p_tile
    return _Verdict(face, np.full(len(COLOURS), 1 / len(COLOURS)), False)


def test_a_tile_is_cut_off_the_glare_its_region_took_in():
    """A region holds a tile and, past a seam, a patch of glare: whole it is not
    surely a tile (0.475); cut along the seam it is a tile (0.933) and a scrap that
    reads nothing. The tile is read."""
    maps = blank_maps(100, 100)
    maps.edge[52, :] = 1.0  # the seam
    ys, xs = np.mgrid[10:70, 20:50]
    region = find.Region(np.stack([xs.ravel(), ys.ravel()], 1).astype(np.float32), maps)
    seam_cut = region.cuts[0]  # the others: at necks (none here) and into rows
    tile = next(p for p in seam_cut if len(p.points) == 30 * 42)
    verdicts = {id(n): verdict(0.01) for n in region.tree()}
    verdicts[id(region)], verdicts[id(tile)] = verdict(0.475), verdict(0.933)
    chosen = _best(region, verdicts)[1]
    assert tile in chosen and region not in chosen  # the scrap is chosen too, reads nothing


def face_region(maps: find.Maps, x0: int, y0: int, x1: int, y1: int) -> find.Region:
    """A region of the face pixels x0 <= x < x1, y0 <= y < y1 (working pixels)."""
    ys, xs = np.mgrid[y0:y1, x0:x1]
    return find.Region(np.stack([xs.ravel(), ys.ravel()], 1).astype(np.float32), maps)


class OnlyThere:
    """A face network that reads a red 7 surely on a place centred within 2 px of
    ``where`` and nothing anywhere else; it notes the centre of every place it is shown."""

    factor = 1.0

    def __init__(self, where):
        self.where, self.asked = where, []

    def judge(self, regions):
        seven = np.zeros(len(FACE_CLASSES), np.float32)
        seven[FACE_CLASSES.index("7^")], seven[-1] = 0.99, 0.01
        self.asked.extend(r.rect[0] for r in regions)
        return [_Verdict(seven if np.hypot(*np.subtract(r.rect[0], self.where)) < 2
                         else verdict(0.01).face, np.float32([1, 0, 0, 0]), False)
                for r in regions]


def test_a_tile_missed_beside_a_sure_one_is_found_where_its_outline_shows():
    """A tile read surely, and right of it, touching, the outline of a tile whose face
    the finder missed (no region). That place is read; the places left of, above and
    below the sure tile show no outline and are not even put to the face network."""
    maps = blank_maps(100, 160)
    sure = face_region(maps, 30, 30, 56, 68)  # a face 26 x 38 px, its outline 2.5 px out
    cv2.rectangle(maps.edge, (58, 28), (87, 69), 1.0, 3)  # the missed tile's outline
    judge = OnlyThere((72.5, 48.5))
    found = _beside([sure], _Outlines([sure.corners(1.0)]), judge, {id(sure): verdict(0.99)})
    assert [r.rect[0] for r in found] == [pytest.approx(judge.where, abs=1.5)]
    assert all(x > 60 for x, _ in judge.asked)  # nothing left of, above or below the sure tile


def test_a_tile_half_taken_for_the_table_is_found_in_its_regions_corner():
    """A tile read surely (face 26 x 38 px) and, apart from it, a tile whose outline
    shows but whose face the finder found only in its right half (a region 13 x 38
    px): read whole, the half is no tile. The tile is found by placing a tile of the
    sure one's size in the half's corners, at its true place, and the sure tile's own
    region is not looked into."""
    maps = blank_maps(100, 200)
    sure = face_region(maps, 20, 30, 46, 68)
    cv2.rectangle(maps.edge, (97, 28), (126, 69), 1.0, 3)  # the half-found tile's outline
    half = face_region(maps, 112, 30, 125, 68)
    judge = OnlyThere((111.5, 48.5))
    verdicts = {id(sure): verdict(0.99), id(half): verdict(0.02)}
    found = _anchored([sure, half], [sure], _Outlines([sure.corners(1.0)]), judge, verdicts)
    assert [r.rect[0] for r in found] == [pytest.approx(judge.where, abs=1.5)]
    assert [r.rect[1] for r in found] == [pytest.approx(sure.rect[1], abs=0.5)]
    assert judge.asked and all(x > 90 for x, _ in judge.asked)


def test_a_tile_whose_face_was_lost_but_for_its_number_is_found_round_it():
    """A tile read surely, and apart from it only a tile's number (a region 10 x 8 px,
    the face round it lost in glare, no outline showing): a tile of the sure one's size
    and direction is placed round the number, the number in its upper half, and read."""
    maps = blank_maps(100, 200)
    sure = face_region(maps, 20, 30, 46, 68)
    number = face_region(maps, 107, 39, 117, 47)  # centre (111.5, 42.5)
    judge = OnlyThere((111.5, 42.5 + INK_OFFSET * 38))
    verdicts = {id(sure): verdict(0.99), id(number): verdict(0.01)}
    found = _anchored([sure, number], [sure], _Outlines([sure.corners(1.0)]), judge, verdicts)
    assert [r.rect[0] for r in found] == [pytest.approx(judge.where, abs=1.0)]


def test_no_tile_is_placed_in_a_region_the_photos_border_cuts():
    """The same number, but at the photo's left border: it may be the part of a tile the
    photo shows, so no tile is placed there (it would be read whole and counted)."""
    maps = blank_maps(100, 200)
    sure = face_region(maps, 80, 30, 106, 68)
    at_border = face_region(maps, 0, 39, 30, 47)
    judge = OnlyThere((15.0, 42.5 + INK_OFFSET * 38))
    verdicts = {id(sure): verdict(0.99), id(at_border): verdict(0.01)}
    assert _anchored([sure, at_border], [sure], _Outlines([sure.corners(1.0)]), judge,
                     verdicts) == []
    assert judge.asked == []


def test_a_slanted_face_wholly_in_the_photo_is_counted_and_one_the_border_cuts_is_not():
    """A tile seen at a slant: its face a parallelogram 30 px wide and 42 px high,
    sheared 0.6 px sideways a row, lying 10 px below the photo's top border. The
    rectangle round it juts 6 px past the border (the old test on that rectangle called
    the tile cut, and the hand came out short); its face is wholly in view, so it is
    counted. A face that runs up to the border (the watershed's last row, 1) is cut."""
    maps = blank_maps(100, 200)
    ys, xs = np.mgrid[10:52, 0:30]
    slanted = find.Region(np.stack([(xs + 60 + 0.6 * (ys - 10)).ravel(), ys.ravel()], 1)
                          .astype(np.float32), maps)
    assert slanted.corners(1.0)[:, 1].min() < 0  # its rectangle leaves the photo
    assert not _reading(slanted, verdict(0.99), 1.0).cut
    assert _reading(face_region(maps, 120, 1, 150, 30), verdict(0.99), 1.0).cut


def test_a_block_of_tiles_the_photos_border_cuts_is_looked_into_away_from_the_border():
    """A block of touching tiles running off the photo's left border, three tiles long
    (a region 78 x 38 px that no cut parted): a tile is placed in its corners away from
    the border, where the outline of its last tile shows, and read; none at the border."""
    maps = blank_maps(100, 200)
    sure = face_region(maps, 120, 30, 146, 68)
    block = face_region(maps, 0, 30, 78, 68)
    cv2.rectangle(maps.edge, (49, 28), (80, 69), 1.0, 3)  # the block's last tile's outline
    judge = OnlyThere((64.5, 48.5))
    verdicts = {id(sure): verdict(0.99), id(block): verdict(0.01)}
    found = _anchored([sure, block], [sure], _Outlines([sure.corners(1.0)]), judge, verdicts)
    assert [r.rect[0] for r in found] == [pytest.approx(judge.where, abs=1.0)]
    assert judge.asked and all(x > 30 for x, _ in judge.asked)


def test_a_tile_placed_near_its_outline_is_moved_and_turned_onto_it():
    """A tile's outline in the edge map (a face 30 x 44 px at 20 degrees, centre
    (80, 60)); a place of that size 5 px right, 4 px down and 7 degrees off is moved
    onto it."""
    edge = np.zeros((120, 160), np.float32)
    truth = ((80.0, 60.0), (30.0, 44.0), 20.0)
    cv2.polylines(edge, [np.round(find.outline(truth)).astype(np.int32)], True, 1.0, 2)
    (cx, cy), wh, angle = _fitted(((85.0, 64.0), (30.0, 44.0), 27.0), edge)
    assert (cx, cy) == (pytest.approx(80, abs=1.0), pytest.approx(60, abs=1.0))
    assert angle == pytest.approx(20, abs=1.5) and wh == (30.0, 44.0)


def test_a_sliver_that_reads_nothing_does_not_take_its_tile_into_a_worse_merge():
    """A tile read at 0.89 beside a sliver of the tile the photo's edge cuts (too thin
    to be a tile, so it reads nothing): the two taken together are likelier not a tile
    (0.48), so the tile must stay as it was read — the sliver has nothing to lose."""
    maps = blank_maps(100, 100)
    ys, xs = np.mgrid[20:62, 40:70]
    tile = np.stack([xs.ravel(), ys.ravel()], 1).astype(np.float32)
    ys, xs = np.mgrid[20:62, 72:76]
    sliver = np.stack([xs.ravel(), ys.ravel()], 1).astype(np.float32)
    a, b = find.Region(tile, maps), find.Region(sliver, maps)
    both = find.Merge((0, 1), find.Region(np.concatenate([tile, sliver]), maps,
                                          find.MAX_DEPTH, rows=False))
    assert a.tile_like and not b.tile_like and both.region.tile_like

    verdicts = {id(a): verdict(0.89), id(b): verdict(0.01)}

    class Judge:
        def judge(self, regions):
            return [verdict(0.48) for _ in regions]

    choices = [(0.39, [a]), (-0.5, [b])]
    _merge(choices, [both], Judge(), verdicts, None)
    assert choices[0][1] == [a]


@pytest.mark.parametrize("scene", SCENES)
def test_the_pixel_network_classes_an_unseen_editions_pixels_as_the_renderer_drew_them(scene):
    """Table, face and edge as the renderer's exact labels say, on an edition of the
    typefaces and joker training never draws: white tiles on a white table (their side
    and shadow), seams between tiles touching in a rack, from above and the front."""
    photo, image, _ = render_world(np.random.default_rng(7_000_001), scene, held_out=True)
    net, _ = models()
    probs, factor = find.pixel_classes(image, net)
    truth = photo.pixel_classes(probs.shape, factor)
    said = probs.argmax(axis=2)
    table, face, edge = ((said[truth == c] == c).mean() for c in range(3))
    assert len(photo.tiles) >= 3
    assert face > 0.93 and edge > 0.9  # 0.95-0.98 and 0.96-0.99 when written
    assert table > 0.75  # 0.82 on the white table: shadows taken for edge; else 0.9-0.99


def test_the_pixel_network_classes_every_pixel_of_an_image_of_any_size():
    """The network halves the image four times; an image whose sides are no multiple of
    16, down to one pixel, is padded while it looks and every pixel gets probabilities."""
    net, _ = models()
    rng = np.random.default_rng(5)
    for h, w in ((1, 1), (3, 17), (37, 53), (64, 48)):
        probs = net.probabilities(rng.integers(0, 256, (h, w, 3), dtype=np.uint8))
        assert probs.shape == (h, w, 3)
        np.testing.assert_allclose(probs.sum(axis=2), 1.0, atol=1e-5)
        assert (probs >= 0).all()


def test_missing_models_are_an_error_that_says_how_to_train_them(tmp_path):
    with pytest.raises(KangleError, match="train_segment"):
        models(tmp_path)


def test_readings_come_row_by_row_and_a_slanting_row_stays_whole():
    """Four tiles in a row rising a third of a tile each (the old order, by bands a
    tile high, broke it in two), a pair further down, given in a jumble."""
    def at(x, y, n):
        box = np.array([[x, y], [x + 40, y], [x + 40, y + 56], [x, y + 56]], np.float64)
        return TileReading(Tile(n, "black"), 0.99, box, False)

    rising = [at(100 + 42 * k, 200 - 19 * k, 6 + k) for k in range(4)]
    below = [at(130, 300, 1), at(172, 302, 2)]
    jumble = [rising[2], below[1], rising[0], below[0], rising[3], rising[1]]
    assert [r.tile.number for r in _reading_order(jumble)] == [6, 7, 8, 9, 1, 2]


def test_the_rendered_scene_covers_the_whole_photo():
    """Nothing beyond the scene's border comes into a photo (it used to be mirrored
    in: tiles without labels): every corner of the photo sees a point of the scene."""
    for seed in range(200):
        hmat = camera(np.random.default_rng(seed), 1400, (1000, 750))
        photo_corners = np.float32([[[0, 0], [1000, 0], [1000, 750], [0, 750]]])
        seen = cv2.perspectiveTransform(photo_corners, np.linalg.inv(hmat))[0]
        assert (seen >= 0).all() and (seen <= 1400).all(), seed


def test_output_cut_short_by_its_reader_is_no_traceback():
    """`kangle tiles … | head -1`: the reader closes the pipe before kangle has written
    everything; kangle stops quietly with the shell's code for a broken pipe."""
    root = Path(__file__).parent.parent
    run = subprocess.Popen([sys.executable, "-m", "kangle", "tiles",
                            str(root / "examples/tiles/rows.jpg")],
                           cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    run.stdout.close()  # nobody reads: kangle's first write finds the pipe broken
    err = run.stderr.read().decode()
    assert run.wait() == 141 and "Traceback" not in err, err


# The world of tiles the renderer draws: editions, held-out typefaces, scenes.

def test_training_never_draws_a_held_out_typeface_or_joker_and_the_benchmark_only_those():
    rng = np.random.default_rng(0)
    for _ in range(300):
        seen = random_edition(rng)
        assert seen.typeface in TRAIN_TYPEFACES and seen.joker in TRAIN_JOKERS
        unseen = random_edition(rng, held_out=True)
        assert unseen.typeface in HELD_OUT_TYPEFACES and unseen.joker in HELD_OUT_JOKERS
    assert not set(TRAIN_TYPEFACES) & set(HELD_OUT_TYPEFACES)


@pytest.mark.parametrize("typeface", [t for t in TRAIN_TYPEFACES + HELD_OUT_TYPEFACES
                                      if t != HERSHEY])
def test_every_shipped_typeface_prints_numbers_as_tall_as_its_edition_says(typeface):
    for height in (0.3, 0.7):
        edition = replace(Edition.classic(), typeface=typeface, digit_height=height,
                          backdrop="none", logo=False)
        for number in (1, 8, 13):
            face = tile_face(Tile(number, "black"), np.random.default_rng(number), 0.0,
                             edition)
            rows = np.flatnonzero((face.max(axis=2) < 120).any(axis=1))
            tall = (rows.max() - rows.min() + 1) / face.shape[0]
            # two-digit numbers may be made smaller to fit the face's width
            assert (0.85 * height <= tall <= 1.1 * height) or (number > 9 and tall < height), \
                (typeface, number, height, tall)


@pytest.mark.parametrize("scene", SCENES)
def test_world_labels_lie_on_tile_faces_in_every_scene(scene):
    """Every label encloses a tile face: inside it the photo is mostly the face's light
    colour (the ink is a minority), which the table, the rack and its lip are not
    required to be; and the labels of a rack's row touch side by side."""
    # the first photo from seed 77 on with two tiles or more (one may hold one tile)
    photo, image, name = next(drawn for seed in range(77, 100) if len(
        (drawn := render_world(np.random.default_rng(seed), scene))[0].tiles) >= 2)
    assert name == scene
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)
    for lt in photo.tiles:
        inside = np.zeros(image.shape[:2], np.uint8)
        cv2.fillPoly(inside, [np.round(lt.polygon).astype(np.int32)], 1)
        inner = cv2.erode(inside, np.ones((5, 5), np.uint8)) > 0
        light = float(np.median(lab[inner][:, 0]))
        assert light > 150, (lt.tile, light)
    if scene.startswith("rack"):
        centres = np.array([lt.polygon.mean(axis=0) for lt in photo.tiles])
        widths = np.array([np.linalg.norm(lt.polygon[1] - lt.polygon[0]) for lt in photo.tiles])
        gaps = np.linalg.norm(np.diff(centres, axis=0), axis=1) / widths[1:]
        assert (gaps < 1.1).mean() > 0.5  # mostly touching neighbours in a row


@pytest.mark.parametrize("seed", [26, 30])
def test_tiles_standing_in_a_rack_seen_from_the_front_are_read_across(seed):
    """Seen from the front, a tile standing in a rack looks wider than tall: its length
    is the shorter side of its outline, and it is read that way when it is as large as
    the photo's other tiles (each of these photos read no tile before)."""
    photo, image, _ = render_world(np.random.default_rng(seed), "rack from the front")
    pairs = matched(photo.tiles, read_tiles(image))
    assert len(pairs) >= 10
    assert sum(truth == read for truth, read in pairs) / len(pairs) >= 0.95


def test_only_a_wide_region_the_size_of_the_photos_tiles_is_read_across():
    """A wide region is read across only when its area is near that of the tiles read
    confidently: a tile's ring or number (smaller) or two touching tiles (larger) read
    across would pass for one tile. A nearly square region is always read both ways."""
    def region(w, h):
        xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
        pts = np.column_stack([xs.ravel(), ys.ravel()]) + 20
        face = np.ones((h + 40, w + 40), bool)
        return find.Region(pts, find.Maps(np.zeros(face.shape), face, np.zeros(face.shape)))

    judge = _Judge(np.zeros((200, 200, 3), np.uint8), 1.0, None)
    wide, ring, pair, square = region(45, 30), region(30, 20), region(64, 44), region(30, 30)
    assert not judge.turnable(wide) and judge.turnable(square)  # nothing read yet
    judge.size_tiles([region(32, 44), region(31, 45), region(30, 30)])
    assert judge.turnable(wide) and judge.turnable(square)
    assert not judge.turnable(ring) and not judge.turnable(pair)
    judge.size_tiles([])  # no tile read confidently: any size may be one
    assert judge.turnable(ring) and judge.turnable(pair)


def test_the_cuts_of_one_photo_are_bounded_however_the_picture_misleads():
    """A long strip taken for tile face (half a photo decoded, the rest a grey field)
    could be cut every way at every depth: no row is cut into more tiles than a row
    holds or into parts too long to be tiles, and the photo's budget bounds the parts
    all its regions' cuts make together."""
    h, w = 23, 740
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    pts = np.column_stack([xs.ravel(), ys.ravel()]) + 5
    maps = blank_maps(h + 10, w + 10)
    rows = find.Region(pts, maps).cuts
    assert max(len(parts) for parts in rows) == find.MAX_ROW
    for parts in rows:
        sides = [sorted(p.rect[1]) for p in parts]
        assert all(long <= find.MOST_ELONGATED * short + 1 for short, long in sides)
    budget = find.Budget(100)
    strips = [find.Region((pts + (0, 40 * k)).astype(np.float32), maps._replace(
        edge=np.zeros((200, w + 10), np.float32), face=np.ones((200, w + 10), bool),
        table=np.zeros((200, w + 10), np.float32), budget=budget)) for k in range(3)]
    made = sum(len(parts) for s in strips for parts in s.cuts)
    assert made <= 100 and budget.left == 100 - made
    assert made >= 100 - find.MAX_ROW  # the budget is used up, not left idle


def test_photos_read_at_once_by_several_threads_read_as_one_at_a_time():
    """The web station reads photos on several threads; each gets its own copy of the
    pixel network, so readings made at once equal readings made alone."""
    from concurrent.futures import ThreadPoolExecutor

    images = [render_photo(np.random.default_rng(900 + k))[1] for k in range(4)]
    alone = [[(r.tile, r.confidence) for r in read_tiles(image)] for image in images]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(read_tiles, images * 2))
    assert [[(r.tile, r.confidence) for r in rs] for rs in together] == alone * 2


def test_a_tiles_halves_split_its_width_even_where_a_rack_foreshortens_it():
    """A tile in a rack seen from the front looks wider than tall; its halves ('not a
    tile' for the face network) must still part its number across the tile's width —
    the side its label's first edge runs along — and together cover the tile."""
    from vision.tiles.train import halves

    photo, _, _ = render_world(np.random.default_rng(7), "rack from the front",
                               size=(500, 380), count=6)
    rng = np.random.default_rng(0)
    wide = [t for t in photo.tiles if len(t.polygon) == 4
            and np.linalg.norm(t.polygon[1] - t.polygon[0])
            > np.linalg.norm(t.polygon[3] - t.polygon[0])]
    assert wide, "the scene should foreshorten some tile to look wider than tall"
    for t in wide:
        q = t.polygon.astype(np.float64)
        left, right = halves(t, True, rng)
        width = np.linalg.norm(q[1] - q[0])
        share = np.linalg.norm(left[1] - left[0]) / width
        assert 0.35 <= share <= 0.65
        assert np.allclose(left[0], q[0]) and np.allclose(right[2], q[2])
        assert np.allclose(left[1], right[0]) and np.allclose(left[2], right[3])
        areas = [cv2.contourArea(np.float32(p)) for p in (left, right, q)]
        assert areas[0] + areas[1] == pytest.approx(areas[2], rel=1e-4)


def test_training_photos_keep_their_seeds_and_joker_rich_ones_draw_from_more_jokers():
    """The shipped models' training photos are rendered again from the documented
    command: a random-edition photo is render_world at seed 20,000 + its number, as
    before the joker-rich kind was added (so the benchmark's photos and the models'
    data are unchanged); a joker-rich photo draws its tiles from a set with JOKER_SET
    jokers, so far more than the real set's 2 in 106 of its tiles are jokers."""
    from vision.tiles.train import JOKER_SET, load_photo, training_photos

    entries = training_photos(Path("unused"), [], 1, 2, 20)
    assert [k for k, _ in entries] == ["classic"] + ["world"] * 2 + ["jokers"] * 20
    world, image = load_photo(entries[2])
    again, image_again, _ = render_world(np.random.default_rng(20_001))
    assert np.array_equal(image, image_again)
    assert [t.tile for t in world.tiles] == [t.tile for t in again.tiles]
    tiles = [t.tile for e in entries[3:] for t in load_photo(e)[0].tiles]
    share = sum(t.joker for t in tiles) / len(tiles)
    expected = JOKER_SET / (104 + JOKER_SET)
    assert 0.5 * expected < share < 1.5 * expected, (share, len(tiles))

"""Shot notation (rules/notation.py, docs/notation.md): worked examples judged as the
spec's rules say, clear refusals, and every record written as a line and read back makes
the same calls (property test over random legal records)."""

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.errors import KangleError
from rules.notation import parse_shot, write_shot
from rules.referee import judge
from rules.shot import ShotRecord
from tests.kit import BOARD, RULES, gone, put, run, started
from tests.test_referee_properties import random_shot


def calls(line, state):
    return run(state, parse_shot(line, state, BOARD))[2]


@pytest.mark.parametrize("line, expected", [
    ("xB05 B05>NW", [("5.1", "bonus")]),  # an opponent's piece pocketed: shoot again
    ("xR04", [("7.1", "forfeit")]),  # own piece hit first: 廢子
    ("x| xR04", []),  # off a cushion first: no 廢子, play goes on
    ("xB05 S>SW", [("5.3", "foul"), ("5/6", "turn")]),  # the striker into a hole
    ("x- S^", [("5.4", "foul"), ("5/6", "turn")]),  # touched nothing, off the table
    ("xB05 B05^", [("6.3/9.1", "protect")]),  # opponent's piece off the table: 小回
    ("xB05 !body", [("6.6", "foul"), ("5/6", "turn")]),
    (".", [("4.4", "retake")]),  # never left its circle: shoot again
    ("NE xB05", [("2.1", "retake")]),  # black's circle
    ("xB05 !tip", [("4.3", "foul"), ("5/6", "turn")]),
    ("xR04 R04xB05", [("7.1", "forfeit"), ("7.2", "info")]),  # the 廢子 hit black's B05
    ("xB R^", [("6.5", "forfeit")]),  # red's own piece off the table
])
def test_worked_examples_make_the_rules_calls(line, expected):
    assert calls(line, started("red")) == expected


@pytest.mark.parametrize("line, expected", [  # docs/notation.md, with B05 a 小回
    ("xB05", [("5.5", "foul"), ("5.5", "restore"), ("5/6", "turn")]),
    ("x| xB05", []),  # by a rebound: allowed (9.2)
    ("xB06 B06@0,10", [("9.4", "protect")]),
])
def test_worked_examples_with_a_小回_at_the_centre(line, expected):
    assert calls(line, put(started("red"), "B05", (0.0, 0.0), "small")) == expected


def test_a_colour_alone_names_an_unprotected_piece_and_a_protected_one_needs_its_id():
    state = put(started("red"), "B05", (0.0, 0.0), "small")  # a 小回 at the centre
    record = parse_shot("xB B>NW B>NE", state, BOARD)
    named = [record.contacts[0].b] + [p.piece for p in record.pockets]
    assert "B05" not in named and len(set(named)) == 3  # each B another unprotected piece
    # hitting the 小回 directly is 5.5 only when the line names it
    assert ("5.5", "foul") in calls("xB05", state)
    only_small = gone(state, *[f"B{i:02d}" for i in range(1, 17) if i != 5])
    with pytest.raises(KangleError, match="name the piece by its id"):
        parse_shot("xB", only_small, BOARD)


@pytest.mark.parametrize("line, message", [
    ("", "empty shot"),
    ("xQ9", "unknown piece id"),
    (". xB05", "no other token"),
    ("xB05 !foo", "!tip, !cue"),
    ("xB05 B05>XX", "not a shot notation token"),
    ("@B05 xB04", "自由子 is one of red's own pieces"),
])
def test_a_line_that_says_nothing_sensible_is_refused_naming_the_token(line, message):
    with pytest.raises(KangleError, match=message):
        parse_shot(line, started("red"), BOARD)


def decided(ruling) -> Counter:
    return Counter((c.rule, c.kind, tuple(sorted(c.pieces))) for c in ruling.calls)


@given(st.data())
def test_any_record_written_in_notation_and_read_back_makes_the_same_calls(data):
    state = started(data.draw(st.sampled_from(["red", "black"])))
    for _ in range(data.draw(st.integers(1, 6))):
        if state.phase == "over":
            break
        record = ShotRecord.from_json(json.loads(json.dumps(random_shot(data, state).to_json())))
        line = write_shot(record, state, BOARD)
        again = parse_shot(line, state, BOARD)
        after, ruling = judge(state, record, BOARD, RULES)
        _, ruling_again = judge(state, again, BOARD, RULES)
        assert decided(ruling_again) == decided(ruling), line
        state = after

"""Property tests over random legal shot records (hypothesis; derandomized in
`make test` by tests/conftest.py, random in `make fuzz`).

- every one of the 34 ids is accounted for exactly once after any sequence of shots;
- replaying the log of a game gives the same state as judging it shot by shot;
- a malformed record never raises anything but KangleError.
"""

import contextlib
import copy
import json

from hypothesis import given
from hypothesis import strategies as st

from kangle.gamecmd import new_entry
from rules.errors import KangleError
from rules.game import Entry, replay
from rules.pieces import ALL_IDS
from rules.referee import judge
from rules.shot import ShotRecord
from rules.state import IN_HAND, ON_TABLE, POCKETED
from tests.kit import BOARD, RULES, shot, started

CUSHIONS = ["cushion:N", "cushion:E", "cushion:S", "cushion:W"]


def random_shot(data, state) -> ShotRecord:
    me = state.turn
    striker = "RS" if me == "red" else "BS"
    on = [p for p in ALL_IDS if p not in ("RS", "BS") and state.on_table(p)]
    bodies = st.sampled_from(on + CUSHIONS + [striker])
    n = data.draw(st.integers(0, 6))
    contacts, t = [], 0.0
    for _ in range(n):
        a = data.draw(st.sampled_from(on + [striker]))
        b = data.draw(bodies.filter(lambda x, a=a: x != a))
        t += data.draw(st.floats(0.0, 0.2))
        contacts.append((t, a, b))
    leaving = data.draw(st.lists(st.sampled_from(on + [striker]), unique=True, max_size=4))
    split = data.draw(st.integers(0, len(leaving)))
    pockets = [(t + 0.1, p, data.draw(st.sampled_from(["SW", "SE", "NW", "NE"])))
               for p in leaving[:split]]
    exits = [(t + 0.2, p, data.draw(st.sampled_from(["off", "rim"]))) for p in leaving[split:]]
    stay = [p for p in on if p not in leaving]
    moved = data.draw(st.lists(st.sampled_from(stay), unique=True, max_size=5)) if stay else []
    coord = st.floats(-BOARD.half + 16, BOARD.half - 16)
    final = {p: (data.draw(coord), data.draw(coord)) for p in moved}
    circle = data.draw(st.sampled_from(BOARD.circles_of(me)))
    flags = {k: data.draw(st.booleans().map(lambda b: b and data.draw(st.integers(0, 9)) == 0))
             for k in ("cue_tip_foul", "own_cue_hit", "pivot_foul", "body_touch")}
    return shot(me, circle=circle, contacts=contacts, pockets=pockets, exits=exits, final=final,
                left_circle=data.draw(st.booleans()), **flags)


def accounted_once(state):
    state.check()
    statuses = [state.pieces[p].status for p in ALL_IDS]
    assert len(statuses) == 34
    assert statuses.count(IN_HAND) == 2
    assert statuses.count(ON_TABLE) + statuses.count(POCKETED) == 32


@given(st.data())
def test_every_piece_is_accounted_for_and_the_log_replays_to_the_same_state(data):
    state = started(data.draw(st.sampled_from(["red", "black"])))
    entries = [Entry(1, "new", new_entry("A", "B", "goma", "standard")),
               Entry(2, "lag", {"first": state.first})]
    for i in range(data.draw(st.integers(1, 12))):
        if state.phase == "over":
            break
        # what is judged is what the log stores: the record's JSON form
        record = ShotRecord.from_json(json.loads(json.dumps(random_shot(data, state).to_json())))
        state, ruling = judge(state, record, BOARD, RULES)
        accounted_once(state)
        assert ruling.next_turn == state.turn
        entries.append(Entry(i + 3, "shot", record.to_json()))
    assert replay(entries).state == state


def mutate(data, value):
    """Replace one random leaf of a JSON value with junk."""
    if isinstance(value, dict) and value:
        key = data.draw(st.sampled_from(sorted(value)))
        value[key] = mutate(data, value[key]) if data.draw(st.booleans()) else data.draw(JUNK)
    elif isinstance(value, list) and value:
        i = data.draw(st.integers(0, len(value) - 1))
        value[i] = mutate(data, value[i]) if data.draw(st.booleans()) else data.draw(JUNK)
    else:
        return data.draw(JUNK)
    return value


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-5, 5), st.floats(allow_nan=True),
                 st.text(max_size=4), st.sampled_from(["R01", "BS", "cushion:N", "NE", "off"]),
                 st.lists(st.integers(), max_size=3), st.just({}))


@given(st.data())
def test_malformed_records_raise_only_kangle_error(data):
    state = started("red")
    record = random_shot(data, state).to_json()
    bad = mutate(data, copy.deepcopy(record))
    with contextlib.suppress(KangleError):  # anything else fails the test
        judge(state, ShotRecord.from_json(bad), BOARD, RULES)

"""The event store and the competition formats.

Store tests run against SQLite and, when KANGLE_TEST_DATABASE_URL names one, against a
real PostgreSQL server (.ci/run starts one on loopback)."""

import csv
import hashlib
import io
import os
import random
import sqlite3
import subprocess
import sys
import textwrap
import threading
import uuid

import pytest
import sqlalchemy as sa

from rules.errors import KangleError
from rules.events import knockout, report, rotating
from rules.events.common import roster
from rules.events.competition import Competition
from rules.events.store import Entry, EventStore

PG = os.environ.get("KANGLE_TEST_DATABASE_URL")


@pytest.fixture(params=["sqlite", "postgresql"])
def where(request, tmp_path):
    """Where an event lives: a SQLite file, or a fresh event name in PostgreSQL."""
    if request.param == "sqlite":
        return str(tmp_path / "cup.db")
    if not PG:
        pytest.skip("KANGLE_TEST_DATABASE_URL is not set: no PostgreSQL server to test on")
    return f"{PG}#test-{uuid.uuid4().hex[:10]}"


def new(where, game, players, **settings):
    return Competition.create(where, game, None, settings, [{"name": p} for p in players],
                              "test")


# -- the store --------------------------------------------------------------------------
def test_entries_are_append_only_in_the_database(where):
    comp = new(where, "kangle", ["Ann", "Bo"])
    with comp.store.engine.connect() as conn, pytest.raises(sa.exc.DBAPIError,
                                                            match="append-only"):
        conn.execute(sa.text("UPDATE kangle_entries SET kind = 'x'"))
    with comp.store.engine.connect() as conn, pytest.raises(sa.exc.DBAPIError,
                                                            match="append-only"):
        conn.execute(sa.text("DELETE FROM kangle_entries"))
    comp.close()


def test_photos_behind_entries_are_kept_once_and_never_changed(where):
    comp = new(where, "kangle", ["Ann", "Bo"])
    photo = bytes(range(256)) * 40
    digest = comp.store.keep_photo(comp.event, photo)
    assert digest == hashlib.sha256(photo).hexdigest()
    assert comp.store.keep_photo(comp.event, photo) == digest  # sent again: kept once
    assert comp.store.photo(comp.event, digest) == photo
    assert comp.store.photo(comp.event, "0" * 64) is None
    for statement in ("UPDATE kangle_photos SET data = data", "DELETE FROM kangle_photos"):
        with comp.store.engine.connect() as conn, pytest.raises(sa.exc.DBAPIError):
            conn.execute(sa.text(statement))
    assert comp.store.photo(comp.event, digest) == photo
    comp.close()


def test_an_entry_written_is_the_one_the_next_read_gives_as_a_fresh_read_parses_it(where):
    """What ``append`` returns is the log's entry as any read parses it (JSON's own types,
    not the caller's), and the next read of the same store gives that very object: the
    formats remember their answers by the entries' identities, so a station's next page
    finds what the write's draws worked out instead of working it out again."""
    comp = new(where, "kangle", ["Ann", "Bo"])
    store = comp.store
    written = store.append(comp.event, "match", {"holder": "Ann", "challenger": "Bo",
                                                 "winner": "Bo", "cards": (3, 1)}, "ref")
    assert written.data["cards"] == [3, 1]
    log = store.entries(comp.event)
    assert log[-1] is written
    other = EventStore(store.url)  # another station's read of the same log
    assert other.entries(comp.event) == log
    other.close()
    if store.engine.dialect.name == "postgresql":  # a read is one statement, on its own
        with store.reader.connect() as conn:
            assert conn.connection.dbapi_connection.autocommit
    comp.close()


def test_a_correction_supersedes_and_the_old_entry_stays_in_the_log(where):
    comp = new(where, "kangle", ["Ann", "Bo", "Cy"])
    first = comp.record("match", {"holder": "Ann", "challenger": "Bo", "winner": "Bo"}, "ref")[0]
    fixed = comp.record("match", {"holder": "Ann", "challenger": "Bo", "winner": "Ann"}, "ref",
                        supersedes=first.seq)[0]
    assert [r.name for r in comp.standings().rows][:1] == ["Ann"]
    assert len(comp.store.entries(comp.event)) == 5  # 3 registrations, original, correction
    # a second station correcting the original again would silently undo the first fix
    with pytest.raises(KangleError, match=f"already replaced by entry {fixed.seq}"):
        comp.record("void", {"reason": "wrong table"}, "ref", supersedes=first.seq)
    comp.record("void", {"reason": "wrong table"}, "ref", supersedes=fixed.seq)
    assert not [e for e in comp.entries() if e.kind == "match"]
    comp.close()


def test_two_processes_writing_to_one_event_at_once_lose_nothing(where):
    comp = new(where, "kangle", ["seed"])
    comp.close()
    child = textwrap.dedent("""
        import sys
        from rules.events.competition import Competition
        comp = Competition.open(sys.argv[1])
        for i in range(40):
            comp.record("register", {"name": f"{sys.argv[2]}{i}"}, sys.argv[2])
        print("done", flush=True)
    """)
    procs = [subprocess.Popen([sys.executable, "-c", child, where, tag], stdout=subprocess.PIPE,
                              text=True) for tag in ("a", "b")]
    outs = [p.communicate(timeout=300)[0] for p in procs]
    assert all("done" in o for o in outs) and all(p.returncode == 0 for p in procs)
    comp = Competition.open(where)
    names = [e.data["name"] for e in comp.entries() if e.kind == "register"]
    assert sorted(names) == sorted(["seed"] + [f"{t}{i}" for t in "ab" for i in range(40)])
    comp.close()


def test_threads_entering_at_once_each_get_the_answer_their_place_in_the_log_gives(where):
    """A station's threads writing at once take turns, each checked against the log as
    the entries before it left it: of two phones entering one table, one is recorded
    and the other told it is already in, whichever comes first."""
    comp = new(where, "rummikub", [f"P{i:02d}" for i in range(32)], first_seating="list")
    tables = [(t, seats) for _, t, seats in comp.open_tables()]
    answers: dict[tuple[int, int], str] = {}
    barrier = threading.Barrier(2 * len(tables))

    def enter(table: int, seats: list[str], phone: int) -> None:
        barrier.wait()
        try:
            comp.record_table(1, table, dict(zip(seats, (9, -3, -3, -3), strict=True)),
                              by=f"phone {phone}")
            answers[table, phone] = "recorded"
        except KangleError as exc:
            answers[table, phone] = str(exc)

    threads = [threading.Thread(target=enter, args=(t, seats, phone))
               for t, seats in tables for phone in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for t, _ in tables:
        said = [answers[t, phone] for phone in (1, 2)]
        refused = [a for a in said if a != "recorded"]
        assert len(refused) == 1 and "already entered" in refused[0], said
    results = [e for e in comp.entries() if e.kind == "result"]
    assert sorted(e.data["table"] for e in results) == [t for t, _ in tables]
    comp.close()


def test_a_process_killed_mid_write_loses_nothing_confirmed(tmp_path):
    where = str(tmp_path / "cup.db")
    new(where, "kangle", ["seed"]).close()
    child = textwrap.dedent("""
        import sys
        from rules.events.competition import Competition
        comp = Competition.open(sys.argv[1])
        i = 0
        while True:
            e = comp.record("register", {"name": f"p{i}"}, "t")[0]
            print(e.seq, flush=True)
            i += 1
    """)
    proc = subprocess.Popen([sys.executable, "-c", child, where], stdout=subprocess.PIPE,
                            text=True)
    confirmed = []
    for line in proc.stdout:
        confirmed.append(int(line))
        if len(confirmed) == 30:
            proc.kill()
            break
    proc.wait()
    comp = Competition.open(where)
    assert set(confirmed) <= {e.seq for e in comp.entries()}
    with comp.store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA integrity_check").scalar() == "ok"
    comp.close()


def test_a_broken_store_address_is_a_clear_error(tmp_path):
    with pytest.raises(KangleError, match="could not open .*nobody:\\*\\*\\*@"):
        EventStore("postgresql+psycopg://nobody:pw@127.0.0.1:1/none")
    with pytest.raises(KangleError, match="no event file"):
        Competition.open(str(tmp_path / "nothing.db"))
    assert not (tmp_path / "nothing.db").exists()  # looking does not create an event


# -- rotating tables (Rummikub) ------------------------------------------------------------
def random_scores(rng, seats):
    """A Rummikub table result: penalties for all but a winner, who takes their sum."""
    pens = {p: rng.choice([0, 5, 5, 10, 20, 30]) for p in seats}
    best = min(pens.values())
    losers = {p: -(v - best) for p, v in pens.items() if v != best}
    winners = [p for p in seats if p not in losers]
    share = -sum(losers.values()) / len(winners)
    return {**losers, **dict.fromkeys(winners, share)}


def test_a_64_player_rummikub_event_moves_the_top_two_and_ranks_by_wins_then_average(tmp_path):
    players = [f"P{i:02d}" for i in range(1, 65)]
    comp = new(str(tmp_path / "cup.db"), "rummikub", players, first_seating="list")
    rng = random.Random(64)
    seating = [players[4 * k:4 * k + 4] for k in range(16)]  # table k: 4k-3 … 4k
    played = {p: [] for p in players}
    for r in (1, 2, 3):
        # who sits at which table (seat order at a table is drawn there)
        assert [set(s.seats) for s in comp.sheets(r)] == [set(t) for t in seating]
        results = {}
        for t, seats in enumerate(seating, start=1):
            scores = random_scores(rng, seats)
            comp.record("result", {"round": r, "table": t, "scores": scores}, "referee")
            results[t] = scores
            for p, s in scores.items():
                played[p].append((s, s == max(scores.values())))
        if r == 3:
            break
        draws = {(e.data["table"]): e.data["cards"] for e in comp.entries()
                 if e.kind == "draw" and e.data["round"] == r}
        # the rule, worked out independently: top 2 by score (ties by the logged draw,
        # highest card moves) go to the next table; table 16's go to table 1
        nxt = []
        for t in range(16):
            scores = results[t + 1]
            cards = draws.get(t + 1, {})
            order = sorted(scores, key=lambda p: (-scores[p], -cards.get(p, 0)))
            nxt.append(order)
        seating = [nxt[t][2:] + nxt[t - 1][:2] for t in range(16)]
    wins = {p: sum(w for _, w in g) for p, g in played.items()}
    avg = {p: sum(s for s, _ in g) / len(g) for p, g in played.items()}
    expected = sorted(players, key=lambda p: (-wins[p], -avg[p], p))
    rows = comp.standings().rows
    assert [r.name for r in rows] == expected
    assert all(r.values["played"] == 3 for r in rows)
    comp.close()


def test_round_one_is_seated_by_a_seeded_draw_not_the_list_order(tmp_path):
    players = [f"P{i:02d}" for i in range(1, 65)]
    seatings = []
    for k, seed in enumerate((0, 0, 1)):
        comp = new(str(tmp_path / f"c{k}.db"), "rummikub", players, seed=seed)
        seatings.append([sorted(s.seats) for s in comp.sheets(1)])
        comp.close()
    drawn, again, other = seatings
    assert drawn == again != other  # the event's seed decides, reproducibly
    assert sorted(p for t in drawn for p in t) == players and {len(t) for t in drawn} == {4}
    # the listed order does not make the tables: the first four listed are not together
    assert sorted(players[:4]) not in drawn
    # the list's order favours nobody: P01-P16 spread over the tables, not on four of them
    assert len({i for i, t in enumerate(drawn) for p in t if p <= "P16"}) > 8


def test_round_one_seated_by_rating_puts_the_highest_rated_together_at_the_top_table(tmp_path):
    # ratings as a players file gives them (text); 1850 twice: the draw orders the two
    ratings = [1500 + 25 * i for i in range(16)]
    ratings[3] = ratings[4] = 1850
    players = [{"name": f"P{i:02d}", "rating": str(r)} for i, r in enumerate(ratings)]
    comp = Competition.create(str(tmp_path / "c.db"), "rummikub", None,
                              {"first_seating": "rating"}, players, "test")
    by_rating = sorted(players, key=lambda p: -float(p["rating"]))
    tables = [set(s.seats) for s in comp.sheets(1)]
    assert tables[0] == {p["name"] for p in by_rating[:4]}
    assert tables[3] == {p["name"] for p in by_rating[12:]}
    comp.close()
    for bad, said in (({"name": "X"}, "X has no rating"),
                      ({"name": "X", "rating": "strong"}, "rating 'strong' is not a number"),
                      ({"name": "X", "rating": "nan"}, "is not a number")):
        with pytest.raises(KangleError, match=said):
            Competition.create(str(tmp_path / "d.db"), "rummikub", None,
                               {"first_seating": "rating"}, players[:3] + [bad], "test")
        assert not (tmp_path / "d.db").exists()


def test_groups_seeded_by_rating_take_one_team_of_each_pot():
    people = roster([Entry(i, "register", {"name": f"T{i:02d}", "rating": 100 - i}, "t", "")
                     for i in range(16)])
    settings = {**knockout.DEFAULTS, "seeding": "rating"}
    groups = knockout.draw_groups(settings, people)
    pots = [{f"T{i:02d}" for i in range(k, k + 4)} for k in range(0, 16, 4)]
    for teams in groups.values():
        assert [sum(t in pot for t in teams) for pot in pots] == [1, 1, 1, 1]
    # which top seed goes to which group is drawn: another seed, another arrangement
    other = knockout.draw_groups({**settings, "seed": 1}, people)
    assert [g[0] for g in other.values()] != [g[0] for g in groups.values()] or \
        [g[1] for g in other.values()] != [g[1] for g in groups.values()]
    drawn = knockout.draw_groups(knockout.DEFAULTS, people)  # by the draw: pots not kept
    assert any([sum(t in pot for t in teams) for pot in pots] != [1, 1, 1, 1]
               for teams in drawn.values())


@pytest.mark.parametrize("data, message", [
    ({"round": 1, "table": 1, "scores": {"A": 10, "B": -5, "C": -5, "D": 1}}, "sum to 1"),
    ({"round": 1, "table": 1, "scores": {"A": 10, "B": -5, "C": -5, "E": 0}}, "seats A, B, C, D"),
    ({"round": 2, "table": 1, "scores": {"A": 0, "B": 0, "C": 0, "D": 0}}, "finish round 1"),
    ({"round": 1, "table": 3, "scores": {}}, "tables 1-2"),
])
def test_rotating_refuses_entry_mistakes(tmp_path, data, message):
    comp = new(str(tmp_path / "c.db"), "rummikub", list("ABCDEFGH"), first_seating="list")
    with pytest.raises(KangleError, match=message):
        comp.record("result", data, "ref")
    comp.close()


def test_rotating_refuses_a_table_entered_twice_and_handles_withdrawal_and_late_entry(tmp_path):
    comp = new(str(tmp_path / "c.db"), "rummikub", list("ABCDEFGH"), first_seating="list")
    r1 = {"round": 1, "table": 1, "scores": {"A": 15, "B": 5, "C": -10, "D": -10}}
    comp.record("result", r1, "ref")
    with pytest.raises(KangleError, match="already entered"):
        comp.record("result", r1, "ref")
    comp.record("withdraw", {"name": "H", "from_round": 2}, "ref")
    comp.record("register", {"name": "I", "from_round": 2}, "ref")
    comp.record("result", {"round": 1, "table": 2, "scores": {"E": 6, "F": 2, "G": -4,
                                                              "H": -4}}, "ref")
    seats = [set(s.seats) for s in comp.sheets(2)]
    # A, B move to table 2; E, F to table 1; H withdrew; I joins the smaller table
    assert seats == [{"C", "D", "E", "F"}, {"G", "A", "B", "I"}]
    comp.close()


def test_two_events_whose_logs_number_alike_keep_their_own_remembered_seatings(tmp_path):
    """The seating is remembered per log read (a station asks it several times for one
    entry): two events whose entries have the same numbers and players but different
    results are never confused, and what is remembered is what the log gives afresh."""
    one, two = (new(str(tmp_path / f"{n}.db"), "rummikub", list("ABCDEFGH"),
                    first_seating="list") for n in ("one", "two"))
    for comp, winners in ((one, "AB"), (two, "CD")):
        top = dict.fromkeys(winners, 10)
        comp.record("result", {"round": 1, "table": 1, "scores": {
            **dict.fromkeys("ABCD", -10), **top}}, "ref")
        comp.record("result", {"round": 1, "table": 2, "scores": dict(
            zip("EFGH", (8, 8, -8, -8), strict=True))}, "ref")
    assert [e.seq for e in one.entries()] == [e.seq for e in two.entries()]
    assert [set(s.seats) for s in one.sheets(2)] == [{"C", "D", "E", "F"}, {"G", "H", "A", "B"}]
    assert [set(s.seats) for s in two.sheets(2)] == [{"A", "B", "E", "F"}, {"G", "H", "C", "D"}]
    for comp in (one, two):
        assert rotating.progress(comp.settings, comp.entries()) == \
            rotating.progress.__wrapped__(comp.settings, comp.entries())
        comp.close()


# -- the other formats ----------------------------------------------------------------------
def test_king_of_the_hill_keeps_each_holders_run(tmp_path):
    comp = new(str(tmp_path / "k.db"), "kangle", ["Ann", "Bo", "Cy", "Di"])
    for holder, challenger, winner in [("Ann", "Bo", "Ann"), ("Ann", "Cy", "Ann"),
                                       ("Ann", "Di", "Di"), ("Di", "Bo", "Di")]:
        comp.record("match", {"holder": holder, "challenger": challenger, "winner": winner}, "r")
    with pytest.raises(KangleError, match="Di holds the stage"):
        comp.record("match", {"holder": "Ann", "challenger": "Cy", "winner": "Ann"}, "r")
    s = comp.standings()
    assert [(r.name, r.values["longest run"]) for r in s.rows[:2]] == [("Ann", 2), ("Di", 1)]
    assert "holds the stage now: Di" in s.notes
    comp.close()


def ttr(players, winner_routes):
    routes = {winner_routes: [["Seattle", "Portland"], ["Portland", "San Francisco", "green"]]}
    return {"game": "tickettoride", "players": [{"name": p, "routes": routes.get(p, [])}
                                                 for p in players]}


def test_league_placement_points_final_and_refusals(tmp_path):
    comp = new(str(tmp_path / "l.db"), "tickettoride", list("ABCDEFGH"), finalists=2,
               games_each=1)
    comp.record("game", {"stage": "league", "result": ttr("ABCD", "A")}, "r")
    comp.record("game", {"stage": "league", "result": ttr("EFGH", "F")}, "r")
    with pytest.raises(KangleError, match="already played 1"):
        comp.record("game", {"stage": "league", "result": ttr("ABCD", "B")}, "r")
    with pytest.raises(KangleError, match="did not qualify"):
        comp.record("game", {"stage": "final", "result": ttr("AB", "B")}, "r")
    comp.record("game", {"stage": "final", "result": ttr("AF", "F")}, "r")
    s = comp.standings()
    assert [r.name for r in s.rows] == ["F", "A"]
    league = s.sections[0]
    assert league.rows[0].values["points"] == 10 and league.rows[2].values["points"] == 5
    comp.close()


def test_league_rounds_seat_new_opponents_evenly_and_keep_the_past(tmp_path):
    """A league's round N is everyone's Nth game. Sixteen players over three rounds at
    four a table meet twelve different opponents each (the sheets printed the same four
    tables every round); nine sit three tables of three, never 4, 4, 1; a withdrawal
    from round 2 reseats round 2 on, never round 1, already played."""
    comp = new(str(tmp_path / "l.db"), "tickettoride", [f"P{i:02d}" for i in range(16)],
               games_each=3)
    rounds = [[s.seats for s in comp.sheets(r)] for r in (1, 2, 3)]
    for seated in rounds:
        assert sorted(p for t in seated for p in t) == [f"P{i:02d}" for i in range(16)]
    met = [frozenset((p, q)) for seated in rounds for t in seated for p in t for q in t
           if p < q]
    assert len(met) == 3 * 4 * 6 and len(set(met)) == len(met)
    with pytest.raises(KangleError, match="no round 5: the league games are rounds 1-3, "
                                          "the final round 4"):
        comp.sheets(5)
    comp.record("withdraw", {"name": "P05", "from_round": 2}, "r")
    assert [s.seats for s in comp.sheets(1)] == rounds[0]
    assert all("P05" not in s.seats for s in comp.sheets(2))
    comp.close()
    nine = new(str(tmp_path / "n.db"), "blokus", [f"P{i}" for i in range(9)])
    assert [len(s.seats) for s in nine.sheets(1)] == [3, 3, 3]
    nine.close()


def test_a_league_final_is_seated_once_every_tables_game_is_in(tmp_path):
    """The final's table is seated once every league table's game is in, though a player
    who joined in round 2 has played one game fewer; not before."""
    comp = new(str(tmp_path / "l.db"), "tickettoride", list("ABCDEFGH"), games_each=2,
               finalists=2)
    comp.record("register", {"name": "L", "from_round": 2}, "r")
    for r in (1, 2):
        for t, sheet in enumerate(comp.sheets(r), start=1):
            with pytest.raises(KangleError, match="seated once every league game is in"):
                comp.sheets(3)
            comp.record("game", {"stage": "league", "round": r, "table": t,
                                 "result": ttr("".join(sheet.seats), sheet.seats[0])}, "r")
    assert [len(s.seats) for s in comp.sheets(2)] == [3, 3, 3]
    assert [s.seats for s in comp.sheets(3)] == [tuple(r.name for r in comp.standings().rows[:2])]
    comp.close()


def sgs_result(a, b, winner):
    def camp(name, dead):
        return {"name": name, "generals": [
            {"name": f"{name}c", "role": "commander", "max_hp": 5, "hp": 0 if dead else 3},
            {"name": f"{name}1", "role": "vanguard", "max_hp": 4, "hp": 2},
            {"name": f"{name}2", "role": "vanguard", "max_hp": 4, "hp": 2}]}
    return {"game": "sanguosha", "ended_by": "commander_killed",
            "camps": [camp(a, winner != a), camp(b, winner != b)]}


def test_a_group_draw_that_would_decide_nothing_is_refused(tmp_path):
    # 8 teams in 4 groups of 2 with 2 advancing: every group game would be for nothing
    comp = new(str(tmp_path / "s8.db"), "sanguosha", [f"T{i}" for i in range(8)])
    with pytest.raises(KangleError, match="decide nothing; this format needs at least 12"):
        comp.draw(None)
    assert not [e for e in comp.entries() if e.kind == "groups"]
    comp.close()


def test_groups_round_robin_knockout_and_best_of_three_final(tmp_path):
    teams = [f"T{i:02d}" for i in range(1, 17)]
    comp = new(str(tmp_path / "s.db"), "sanguosha", teams)
    comp.draw(None)
    # before any game: no "tie" to decide, and the bracket says where its teams come from
    notes = comp.standings().notes
    assert not [n for n in notes if "tied" in n]
    assert "qf1: A1 v B2 (group places, once the groups are complete)" in notes
    groups = next(e.data["groups"] for e in comp.entries() if e.kind == "groups")
    assert sorted(t for g in groups.values() for t in g) == teams
    with pytest.raises(KangleError, match="groups are already drawn"):  # drawn once
        comp.draw(None)
    strength = {t: i for i, t in enumerate(teams)}  # higher number always wins
    for g, members in groups.items():
        for i, a in enumerate(members):
            for b in members[i + 1:]:
                w = max(a, b, key=strength.get)
                comp.record("match", {"stage": "group", "group": g, "teams": [a, b],
                                      "result": sgs_result(a, b, w)}, "r")
    with pytest.raises(KangleError, match="already entered"):
        a, b = groups["A"][:2]
        comp.record("match", {"stage": "group", "group": "A", "teams": [a, b], "winner": a}, "r")

    def play(stage, games=1):
        line = next(n for n in comp.standings().notes if n.startswith(stage + ":"))
        a, b = line.split(": ")[1].split(" — ")[0].split(" v ")
        w = max(a, b, key=strength.get)
        for _ in range(games):
            comp.record("match", {"stage": stage, "teams": [a, b], "winner": w}, "r")
        return w

    for q in ("qf1", "qf2", "qf3", "qf4", "sf1", "sf2"):
        play(q)
    with pytest.raises(KangleError, match="final is"):
        comp.record("match", {"stage": "final", "teams": ["T01", "T02"], "winner": "T01"}, "r")
    play("third", games=2)
    champion = play("final", games=2)
    rows = comp.standings().rows
    assert rows[0].name == champion == "T16"
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    comp.close()


def test_elimination_rounds_merge_survivors_and_rank_days(tmp_path):
    players = [{"name": f"{g}{d}", "day": f"Day {d}", "group": g} for d in range(1, 7)
               for g in "AB"]
    # one player per day and group: a list giving Day 2 two players in group A is refused
    twice = players + [{"name": "A2b", "day": "Day 2", "group": "A"}]
    with pytest.raises(KangleError, match="day Day 2, group A is already A2's"):
        Competition.create(str(tmp_path / "u.db"), "uno", None, {}, twice, "t")
    comp = Competition.create(str(tmp_path / "u.db"), "uno", None, {}, players, "t")
    big = ["wild"] * 4 + ["wild4"]  # 250: out at once
    for g in "AB":
        for d in (1, 2, 3):
            comp.record("hand", {"round": 1, "group": g, "out": f"{g}6",
                                 "held": {f"{g}{d}": big}}, "r")
    with pytest.raises(KangleError, match="is over"):
        comp.record("hand", {"round": 1, "group": "A", "out": "A6", "held": {"A4": ["1"]}}, "r")
    with pytest.raises(KangleError, match="not playing"):
        comp.record("hand", {"round": 2, "out": "A1", "held": {"B4": ["1"]}}, "r")
    comp.record("hand", {"round": 2, "out": "A6", "held": {"B4": big, "A4": ["9"]}}, "r")
    rows = comp.standings().rows
    # Days 5 and 6 lost nothing; Day 4 = -9 + -200 (capped); Days 1-3 = -400 each, ordered
    # by whose player was eliminated later
    assert [(r.name, r.rank) for r in rows][2:] == [("Day 4", 3), ("Day 3", 4), ("Day 2", 5),
                                                    ("Day 1", 6)]
    assert {r.name for r in rows[:2]} == {"Day 5", "Day 6"} and rows[1].rank == 1
    comp.close()


def zpy_round(seats, dealer):
    return {"game": "zhaopengyou", "seats": seats,
            "games": [{"dealer": dealer, "friend": None, "defender_points": 100}]}


def test_rank_point_rounds_with_drawn_seats_and_a_late_penalty(tmp_path):
    players = [f"p{i}" for i in range(10)]
    comp = new(str(tmp_path / "z.db"), "zhaopengyou", players)
    comp.draw(1)
    tables = next(e.data["tables"] for e in comp.entries() if e.kind == "seating")
    assert sorted(p for t in tables for p in t) == sorted(players)
    with pytest.raises(KangleError, match="round 1 is already seated"):  # not reseated
        comp.draw(1)
    for t, seats in enumerate(tables, start=1):
        comp.record("table_round", {"round": 1, "table": t, "result": zpy_round(seats, seats[0])},
                    "r")
    comp.record("penalty", {"name": tables[0][0], "round": 1, "points": -20, "reason": "late"},
                "r")
    s = comp.standings()
    by_name = {r.name: r.values for r in s.rows}
    assert by_name[tables[1][0]]["rank points"] == 5  # dealer 1 v 4 won: +2 levels, 1st
    assert by_name[tables[0][0]]["rank points"] == 5 - 20
    comp.close()


def test_reports_every_form(tmp_path):
    comp = new(str(tmp_path / "k.db"), "kangle", ["Ann", "Bo"])
    comp.record("match", {"holder": "Ann", "challenger": "Bo", "winner": "Bo"}, "r")
    s = comp.standings()
    assert "Bo" in report.text(s) and report.to_csv(s).startswith("section,rank,name")
    assert '"schema": "kangle.standings/1"' in report.to_json(s)
    page = report.to_html(s, "擂台 <final>")
    assert page.startswith("<!DOCTYPE html>") and "&lt;final&gt;" in page
    sheets = report.sheets_html(comp.sheets(2), "擂台")
    assert "Referee" in sheets and "Bo" in sheets
    assert [e.seq for e in comp.trace("Bo")] == [3]
    comp.close()


def test_a_store_held_by_another_station_is_said_to_be_busy_not_broken(tmp_path):
    path = tmp_path / "cup.db"
    new(str(path), "rummikub", ["Ann", "Bo", "Cy", "Di"]).close()
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another station, mid-write
    try:
        with pytest.raises(KangleError, match="busy.*try again") as info:
            EventStore(f"sqlite:///{path}", wait_s=0)
        assert info.value.exit_code == 3
    finally:
        holder.execute("ROLLBACK")
    store = EventStore(f"sqlite:///{path}", wait_s=0)
    event = store.event("cup")
    holder.execute("BEGIN EXCLUSIVE")
    try:
        for attempt in (lambda: store.entries(event),
                        lambda: store.append(event, "register", {"name": "Ed"}, "t")):
            with pytest.raises(KangleError, match="busy.*try again") as info:
                attempt()
            assert info.value.exit_code == 3
    finally:
        holder.execute("ROLLBACK")
    assert [e.data["name"] for e in store.entries(event)] == ["Ann", "Bo", "Cy", "Di"]
    store.close()


def test_an_entry_the_format_does_not_take_is_refused_not_stored_and_ignored(tmp_path):
    # a result in a 三国杀 knockout, a game in a king of the hill, a hand in a Rummikub day:
    # each was stored and then silently left out of the standings
    for game, kind in (("sanguosha", "result"), ("rummikub", "hand"), ("rummikub", "game")):
        comp = new(str(tmp_path / f"{game}-{kind}.db"), game, ["A", "B", "C", "D"])
        with pytest.raises(KangleError, match=f"takes .* not '{kind}'"):
            comp.record(kind, {"group": "A", "winner": "A"}, "t")
        assert [e.kind for e in comp.entries()] == ["register"] * 4
        comp.close()


@pytest.mark.parametrize("game, settings, said", [
    ("rummikub", {"table_size": 0}, ["table_size = 0 (it must be 2 to 8)"]),
    ("rummikub", {"rounds": 0, "top": -3}, ["rounds = 0", "top = -3"]),
    ("rummikub", {"rounds": -1}, ["rounds = -1"]),
    ("rummikub", {"movers": 4}, ["movers = 4 must be fewer than the 4 players"]),
    ("sanguosha", {"groups": 2}, ["groups = 2 (it must be 4)"]),
    ("sanguosha", {"best_of": 2}, ["best_of = 2 must be odd"]),
    ("zhaopengyou", {"table_size": 1}, ["table_size = 1"]),
    ("tickettoride", {"finalists": 0, "final_games": 0}, ["finalists = 0", "final_games = 0"]),
    ("uno", {"per_round": 0}, ["per_round = 0"]),
    # once taken silently for "list"
    ("rummikub", {"first_seating": "ratings"}, ["first_seating = 'ratings' (it must be one"]),
    ("sanguosha", {"seeding": "seeded"}, ["seeding = 'seeded'"]),
])
def test_settings_a_format_cannot_run_with_are_refused_before_anything_is_written(
        tmp_path, game, settings, said):
    path = tmp_path / "cup.db"
    with pytest.raises(KangleError) as refused:
        new(str(path), game, [f"P{k:02d}" for k in range(1, 17)], **settings)
    for words in said:  # every problem of the settings, at once
        assert words in str(refused.value)
    assert not path.exists()


def test_names_are_data_a_spreadsheet_never_runs_and_a_line_never_forges(tmp_path):
    hostile = ['=HYPERLINK("http://x")', "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1)", "Ann"]
    comp = new(str(tmp_path / "cup.db"), "kangle", hostile)
    rows = list(csv.reader(io.StringIO(report.to_csv(comp.standings()))))[1:]
    names = [row[2] for row in rows]
    assert sorted(names) == sorted(["'" + n if n[0] in "=+-@" else n for n in hostile])
    comp.close()
    for k, name in enumerate(("Ann\nB,1,forged", "A\x1b[31mnn", "Bo\u2028Cy")):
        with pytest.raises(KangleError, match="control characters"):
            new(str(tmp_path / f"bad{k}.db"), "kangle", [name, "Dee"])


def test_a_copied_event_file_opens_whatever_its_name_and_takes_no_second_event(tmp_path):
    comp = new(str(tmp_path / "cup.db"), "kangle", ["Ann", "Bo"])
    comp.record("match", {"holder": "Ann", "challenger": "Bo", "winner": "Bo"}, "test")
    comp.close()
    backup = tmp_path / "cup-backup.db"
    backup.write_bytes((tmp_path / "cup.db").read_bytes())
    copy = Competition.open(str(backup))
    assert copy.event.name == "cup" and [e.kind for e in copy.entries()][-1] == "match"
    copy.close()
    with pytest.raises(KangleError, match="already holds the event 'cup'"):
        new(str(backup), "kangle", ["Cy", "Dee"])
    copy = Competition.open(str(backup))  # and nothing was added to it
    assert [e.data.get("name") for e in copy.entries() if e.kind == "register"] == ["Ann", "Bo"]
    copy.close()


def test_the_knockout_is_drawn_as_a_tree_in_the_printable_standings(tmp_path):
    comp = new(str(tmp_path / "s.db"), "sanguosha", [f"T{i:02d}" for i in range(1, 17)])
    comp.draw(None)
    page = report.to_html(comp.standings(), "cup", comp.bracket())
    tree = page[page.index("<div class=tree>"):]
    columns = tree.split("<div class=round>")[1:]
    assert [c[c.index("<h3>") + 4:c.index("</h3>")] for c in columns] == [
        "Quarter-finals", "Semi-finals", "Final", "Third place"]
    assert [c.count("<div class=match>") for c in columns] == [4, 2, 1, 1]
    assert "A1 v B2 (group places" in columns[0] and "winner of qf1 v winner of qf2" in columns[1]
    comp.close()


def _valid_entries(tmp_path) -> list[tuple[Competition, str, dict]]:
    """An event of each format with one entry it would take next (kind, data)."""
    out = []
    comp = new(str(tmp_path / "r.db"), "rummikub", [f"P{i:02d}" for i in range(1, 9)],
               first_seating="list")
    out.append((comp, "result", {"round": 1, "table": 1,
                                 "scores": {"P01": 30, "P02": -10, "P03": -10, "P04": -10}}))
    out.append((new(str(tmp_path / "k.db"), "kangle", ["Ann", "Bo"]), "match",
                {"holder": "Ann", "challenger": "Bo", "winner": "Bo"}))
    out.append((new(str(tmp_path / "l.db"), "tickettoride", list("ABCDEFGH"), games_each=1,
                    finalists=2), "game", {"stage": "league", "result": ttr("ABCD", "A")}))
    comp = new(str(tmp_path / "s.db"), "sanguosha", [f"T{i:02d}" for i in range(1, 17)])
    comp.draw(None)
    a, b = next(e.data["groups"]["A"] for e in comp.entries() if e.kind == "groups")[:2]
    out.append((comp, "match", {"stage": "group", "group": "A", "teams": [a, b], "winner": a}))
    players = [{"name": f"{g}{d}", "day": f"Day {d}", "group": g} for d in range(1, 7)
               for g in "AB"]
    out.append((Competition.create(str(tmp_path / "u.db"), "uno", None, {}, players, "t"),
                "hand", {"round": 1, "group": "A", "out": "A6", "held": {"A1": ["wild"]}}))
    return out


def _places(data, path=()):
    """Every (path, value) inside an entry's data, containers included."""
    yield path, data
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(
        data, list) else ()
    for key, value in items:
        yield from _places(value, (*path, key))


# values of the wrong type for each type of field (for a text, not None — a match's winner
# may be null — nor a digit: an UNO card may be written 7 as well as "7")
_WRONG = {str: [[], {}, True, "Nobody"],
          int: ["x", None, True, float("nan"), float("inf"), [1], 10 ** 400],
          list: ["x", 5, {}, None], dict: [[], "x", 5, None]}


def _broken(data, rng: random.Random):
    """``data`` with one thing surely wrong: a field left out, or a value of the wrong
    type or out of every range (a name nobody registered, NaN, 10⁴⁰⁰)."""
    import copy
    changed = copy.deepcopy(data)
    path, value = rng.choice([p for p in _places(changed) if p[0]])
    parent = changed
    for key in path[:-1]:
        parent = parent[key]
    if isinstance(parent, dict) and len(path) == 1 and rng.random() < 0.3:
        del parent[path[-1]]
        return changed, f"{'.'.join(map(str, path))} left out"
    kind = next(t for t in (str, dict, list, int) if isinstance(value, t))
    if kind is str and isinstance(parent, dict) and path[-1] in ("scores", "held"):
        kind = dict
    parent[path[-1]] = wrong = rng.choice(_WRONG[kind])
    return changed, f"{'.'.join(map(str, path))} = {wrong!r:.20}"


def test_hundreds_of_broken_entries_are_each_refused_whole_with_nothing_stored(tmp_path):
    rng = random.Random(2026)
    refused = 0
    for comp, kind, data in _valid_entries(tmp_path):
        before = len(comp.store.entries(comp.event))
        for _ in range(110):
            broken, how = _broken(data, rng)
            with pytest.raises(KangleError):
                comp.record(kind, broken, "fuzz")
                pytest.fail(f"{comp.event.format}: {how} was stored")
            assert len(comp.store.entries(comp.event)) == before, how
            refused += 1
        comp.record(kind, data, "ref")  # the entry itself, unbroken, is taken
        comp.close()
    assert refused >= 500

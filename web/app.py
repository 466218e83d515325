"""The web station's routes over one event store (a SQLite file or a database URL).

Public, for anyone at the event: the standings (they follow new entries within two
seconds without reloading), each player's page with the entries behind every figure.
Private: each table's link (``/t/CODE``, printed on its score sheet as a QR code and as a
short code to type at ``/enter``) opens a form for that table's result in that round
only, checked exactly as `kangle event record` checks it. The organiser's pages
(``/o``, web.desk) open with the password set when the station starts. A form posted
from another site's page is refused before any route runs (SameOriginPosts). Every page
reads the store afresh, so several stations and the command line can enter results at
once.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from functools import partial

import anyio.to_thread
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from rules.errors import KangleError
from rules.events.common import Table
from rules.events.competition import Competition
from web.desk import MAX_FORM_TEXT, desk_routes
from web.entryforms import entry_data, fields_of, form_name, in_words, typed_values
from web.hands import SeatHand, evidence, read_photo, score_hands
from web.links import WrongCodes, find_table
from web.organiser import Organiser, SameOriginPosts
from web.pages import POLL_MS, client, page, too_many
from web.queue import ReadingQueue
from web.typed import typed_number

MAX_SCORE = 100_000  # no table's score in any supported game is this large
MAX_PHOTO = 20_000_000  # bytes: a phone photo is a few megabytes
QUEUE_REFRESH_S = 2  # how often a phone waiting for its photos asks again
MAX_ROUNDS = 100  # rounds looked for on the rounds page (no format has more)


def create_app(where: str, password: str, clock: Callable[[], float] = time.monotonic,
               readers: int | None = None) -> Starlette:
    """The station for the event at ``where`` (as `kangle event` takes it), its organiser's
    pages opened by ``password``; ``clock`` (seconds) times the wrong codes each client
    tries (WrongCodes), the organiser's sessions and the photos kept in the reading queue;
    ``readers``: threads reading tile photos (default: one per core). The app's
    ``state.queue`` is that queue."""
    # one store for the station's life (its pool of connections), opened now so that a
    # missing event is refused at start; every page still reads the entries afresh
    comp = Competition.open(where)
    key = comp.store.secret(comp.event)
    wrong = WrongCodes(clock=clock)
    queue = ReadingQueue(readers, clock)

    def standings(request: Request) -> Response:
        return page(request, "standings.html", title=comp.event.name,
                    standings=comp.standings(), poll_ms=POLL_MS,
                    has_bracket=bool(comp.bracket()))

    def standings_part(request: Request) -> Response:
        return page(request, "standings_part.html", standings=comp.standings())

    def standings_json(request: Request) -> Response:
        return JSONResponse(comp.standings().to_json())

    def bracket(request: Request) -> Response:
        rounds = comp.bracket()
        if not rounds:
            return page(request, "message.html", 404, title=comp.event.name,
                        message="This event has no knockout tree.", link="/")
        return page(request, "bracket.html", title=comp.event.name, rounds=rounds,
                    poll_ms=POLL_MS)

    def rounds(request: Request) -> Response:
        """Each round seated so far: its tables, who sits at each, and whether the
        table's result is in (for the formats entered table by table)."""
        open_now = {(r, t) for r, t, _ in comp.open_tables()}
        seated = []
        for round_no in range(1, MAX_ROUNDS + 1):
            try:
                printed = comp.sheets(round_no)
            except KangleError:
                break
            seated.append((round_no, [
                (sheet, None if not comp.takes_table_results else
                 (round_no, number) not in open_now)
                for number, sheet in enumerate(printed, start=1)]))
        return page(request, "rounds.html", title=comp.event.name, rounds=seated)

    def player(request: Request) -> Response:
        name = request.path_params["name"]
        try:
            entries = comp.trace(name)
        except KangleError as exc:
            return page(request, "message.html", 404, title=comp.event.name,
                        message=str(exc))
        shown = [{"seq": e.seq, "kind": e.kind, "by": e.by,
                  "words": in_words(comp.event.format, e.kind, e.data,
                                    comp.event.settings.get("game"))} for e in entries]
        return page(request, "player.html", title=comp.event.name, name=name,
                    entries=shown)

    def enter(request: Request) -> Response:
        code = request.query_params.get("code", "")
        if code:
            return RedirectResponse(f"/t/{''.join(c for c in code if c.isascii() and c.isalnum())}",
                                    status_code=303)
        return page(request, "enter.html", title="enter a result")

    async def table(request: Request) -> Response:
        form = await request.form(max_files=0, max_fields=50) if request.method == "POST" \
            else None
        return await run_in_threadpool(_table, request, form)

    def _table(request: Request, form) -> Response:
        """The table's form (GET), or its result entered (POST: ``form``)."""
        found = open_table(request, comp)
        if isinstance(found, Response):
            return found
        if comp.table_entry != "result":
            return _table_form(request, found, form)
        round_no, number, seats = found
        rummikub = comp.settings.get("game") == "rummikub"
        hands = {seat: SeatHand() for seat in seats}
        if form is None:
            return page(request, "table.html", title=comp.event.name, round_no=round_no,
                        table=number, seats=seats, values=dict.fromkeys(seats, ""),
                        error=None, hands=hands, rummikub=rummikub)
        values = {seat: str(form.get(f"score-{i}", "")).strip()[:20]
                  for i, seat in enumerate(seats)}
        scores, error = _scores(values)
        if error is None:
            try:
                stored = comp.record_table(round_no, number, scores,
                                           by=f"web: table {number}")
            except KangleError as exc:
                error = str(exc)
            else:
                if not any(e.kind == "result" for e in stored):
                    return page(request, "message.html", title=comp.event.name,
                                message=_waiting(comp, round_no, number))
        if error is not None:
            return page(request, "table.html", 422, title=comp.event.name,
                        round_no=round_no, table=number, seats=seats, values=values,
                        error=error, hands=hands, rummikub=rummikub)
        return recorded(request, f"Round {round_no}, table {number}")

    def _table_form(request: Request, found, form) -> Response:
        """A table's own entry where it is more than a score each (a 找朋友 round's
        games, a 三国杀 match): the format's entry form less what the link fixes (the
        round and table; a match's stage and teams), started from what the format says
        (a 找朋友 table's players as seated) (GET), or recorded (POST: ``form``)."""
        round_no, number, seats = found
        kind = comp.table_entry
        heading = comp.sheets(round_no)[number - 1].title
        fixed, start = comp.at_table(Table(round_no, number, seats, True))
        fields = tuple(f for f in fields_of(comp.event.format, kind, comp.settings.get("game"))
                       if f.key.split(".")[0] not in fixed)
        error = None
        if form is None:
            typed = typed_values(fields, start)
        else:
            typed = {form_name(f): str(form.get(form_name(f), ""))[:MAX_FORM_TEXT]
                     for f in fields}
            try:
                comp.record(kind, {**entry_data(fields, typed), **fixed},
                            by=f"web: table {number}")
            except KangleError as exc:
                error = str(exc)
            else:  # a table that plays on (an UNO group's hands) enters its next one here
                still = (round_no, number) in {(r, t) for r, t, _ in comp.open_tables()}
                return recorded(request, heading, again=request.url.path if still else None)
        return page(request, "table_form.html", 200 if error is None else 422,
                    title=comp.event.name, heading=heading, seats=seats,
                    rows=[(f, form_name(f), typed.get(form_name(f), "")) for f in fields],
                    error=error)

    def recorded(request: Request, where: str, lines: list[str] | None = None,
                 again: str | None = None) -> Response:
        """The page that tells a table its result is in (``again``: where it enters its
        next one, for a table that plays on)."""
        return page(request, "message.html", title=comp.event.name,
                    message=f"{where}: the result is recorded. The standings show it now.",
                    lines=lines, link="/", again=again)

    async def hands(request: Request) -> Response:
        form = await request.form(max_files=8, max_fields=50, max_part_size=MAX_PHOTO)
        photos = {}
        for key, value in form.multi_items():
            if key.startswith("photo-") and isinstance(value, UploadFile) and value.filename:
                photos[key] = (await value.read(MAX_PHOTO + 1), value.filename)
        return await run_in_threadpool(_hands, request, form, photos)

    def _hands(request: Request, form, photos: dict[str, tuple[bytes, str]]) -> Response:
        """The table's result from the tiles left: photos sent to the reading queue
        (``action=read``; the phone is sent on to its place in the queue), or the checked
        hands scored and recorded with the tiles and photos behind them (``score``)."""
        found = rummikub_table(request, comp)
        if isinstance(found, Response):
            return found
        round_no, number, seats = found
        held = {}
        for i, seat in enumerate(seats):
            sha = str(form.get(f"photo-sha-{i}", ""))[:64]
            kept = sha if comp.store.has_photo(comp.event, sha) else None
            held[seat] = SeatHand(str(form.get(f"tiles-{i}", ""))[:300].strip(),
                                  form.get(f"melded-{i}") is not None, photo=kept)
        if form.get("action") == "score":
            try:
                scores, lines = score_hands(held)
                stored = comp.record_table(round_no, number, scores,
                                           by=f"web: table {number}",
                                           tiles=evidence(held))
            except KangleError as exc:
                return table_page(request, comp, found, held, 422, hands_error=str(exc))
            if any(e.kind == "result" for e in stored):
                return recorded(request, f"Round {round_no}, table {number}", lines)
            return page(request, "message.html", title=comp.event.name,
                        message=_waiting(comp, round_no, number), lines=lines, link="/")
        keep = partial(comp.store.keep_photo, comp.event)  # called from a reading thread
        jobs = {seat: partial(read_photo, *photos[f"photo-{i}"], held[seat], keep)
                for i, seat in enumerate(seats) if f"photo-{i}" in photos}
        if not jobs:
            return table_page(request, comp, found, held, 422,
                              hands_error="choose a photo for at least one player")
        token = queue.send(request.path_params["code"], held, jobs)
        if token is None:
            return page(request, "message.html", 503, title=comp.event.name,
                        message="Many photos are waiting to be read: send yours again "
                                "in a minute (the tiles typed so far are not lost on "
                                "the phone: go back).")
        return RedirectResponse(f"/t/{request.path_params['code']}/hands/{token}#hands",
                                status_code=303)

    def reading(request: Request) -> Response:
        """A batch of photos sent from a table: its place in the queue while it waits
        (the page asks again by itself), then what was read, to check and correct."""
        found = rummikub_table(request, comp)
        if isinstance(found, Response):
            return found
        batch = queue.batch(request.path_params["token"], request.path_params["code"])
        if batch is None:
            return page(request, "message.html", 404, title=comp.event.name,
                        message="These photos are no longer waiting here (read more "
                                "than an hour ago, or the station restarted): send "
                                "them again.", link=f"/t/{request.path_params['code']}")
        if not all(f.done() for f in batch.readings.values()):
            return page(request, "queue.html", title=comp.event.name,
                        place=queue.place(batch), photos=len(batch.readings),
                        refresh_s=QUEUE_REFRESH_S)
        return table_page(request, comp, found, batch.state)

    def open_table(request: Request, comp: Competition):
        """The open table (round, table, seats) the request's code opens, or the page
        that says why not. A code that is no table's counts against the client (wrong
        codes are rate-limited); the code of a table whose result is in does not."""
        if wrong.refused(client(request)):
            return too_many(request, comp.event.name)
        code = request.path_params["code"]
        found = find_table(key, code, comp.open_tables())
        if found is not None:
            return found
        spent = find_table(key, code, [(t.round, t.number, t.seats) for t in comp.tables()
                                       if not t.open])
        if spent is not None:
            return page(request, "message.html", 409, title=comp.event.name,
                        message=f"Round {spent[0]}, table {spent[1]}: the result is already "
                                "in. To change it, ask the organiser (a correction).",
                        link="/")
        wrong.note(client(request))
        return page(request, "message.html", 404, title=comp.event.name,
                    message="No open table has this code: is it mistyped? It is on the "
                            "table's score sheet; ask the organiser.")

    def rummikub_table(request: Request, comp: Competition):
        """The open Rummikub table the request's code opens, or the page that says why
        not."""
        found = open_table(request, comp)
        if not isinstance(found, Response) and comp.settings.get("game") != "rummikub":
            return page(request, "message.html", 404, title=comp.event.name,
                        message="This event's tables enter scores, not tiles.")
        return found

    def table_page(request: Request, comp: Competition, found, held: dict[str, SeatHand],
                   status: int = 200, hands_error: str | None = None) -> Response:
        round_no, number, seats = found
        return page(request, "table.html", status, title=comp.event.name,
                    round_no=round_no, table=number, seats=seats,
                    values=dict.fromkeys(seats, ""), error=None, hands=held,
                    hands_error=hands_error, rummikub=True)

    app = Starlette(routes=[
        Route("/", standings),
        Route("/standings/part", standings_part),
        Route("/standings.json", standings_json),
        Route("/rounds", rounds),
        Route("/players/{name}", player),
        Route("/bracket", bracket),
        Route("/enter", enter),
        Route("/t/{code}", table, methods=["GET", "POST"]),
        Route("/t/{code}/hands", hands, methods=["POST"]),
        Route("/t/{code}/hands/{token}", reading),
        *desk_routes(comp, Organiser(password, clock), wrong),
    ], middleware=[Middleware(SameOriginPosts)], lifespan=_one_page_at_a_time)
    app.state.queue = queue
    return app


@contextlib.asynccontextmanager
async def _one_page_at_a_time(app: Starlette):
    """The station makes its pages in one worker thread, first come first served
    (Starlette runs every page function in AnyIO's worker threads; 40 at once by
    default). A page is Python work under one interpreter lock, and with a SQLite file
    its reads and writes take turns anyway (EventStore._using): forty threads at once
    share the one core among all the waiting phones, so every phone waits about as long
    as the whole crowd takes, where in turn the first is answered first. 64 phones
    posting a round at once on 2 cores (benchmarks/web_station.py): 95th percentile
    391 → 175 ms on SQLite, 479 → 290 ms on PostgreSQL on loopback (2, 4 threads: no
    better than one). Tile photos are read in the reading queue's own threads."""
    anyio.to_thread.current_default_thread_limiter().total_tokens = 1
    yield


def _waiting(comp: Competition, round_no: int, table: int) -> str:
    """What a table is told when its report awaits a second (double entry)."""
    reports = [e for e in comp.entries() if e.kind == "report" and
               (e.data["round"], e.data["table"]) == (round_no, table)]
    if len(reports) == 1:
        return (f"Round {round_no}, table {table}: entry received. Double entry: a second "
                "person at the table enters the result too, and it is recorded when both agree.")
    return (f"Round {round_no}, table {table}: the {len(reports)} entries do not agree yet — "
            "check the scores together and enter them again; the result is recorded when two "
            "entries agree.")


def _scores(values: dict[str, str]) -> tuple[dict[str, float], str | None]:
    """The typed scores as numbers, or what is wrong with them (said beside the form)."""
    scores: dict[str, float] = {}
    for seat, text in values.items():
        if not text:
            return {}, f"{seat}'s score is missing"
        try:
            value = typed_number(f"{seat}'s score", text)
        except KangleError as exc:
            return {}, str(exc)
        if abs(value) > MAX_SCORE:
            return {}, f"{seat}'s score {text} is not a score of this game"
        scores[seat] = value
    return scores, None

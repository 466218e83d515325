"""The organiser's desk (``/o``): behind the password set when the station starts.

Everything here goes through the event's append-only log exactly as `kangle event` does
(entries recorded, corrected or voided, draws made), written ``by "web: organiser"`` with
the time: nothing a page does changes or deletes an entry. Also the printable score
sheets that carry each table's private link, and the exports.
"""

from __future__ import annotations

from datetime import date

import segno
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Route

from rules.errors import KangleError
from rules.events import knockout, rankrounds
from rules.events.common import Standings, roster
from rules.events.competition import EXPORTS, Competition
from rules.events.store import in_force
from rules.jsonfile import parse_json
from web.entryforms import entry_data, fields_of, form_name, in_words, typed_values
from web.links import WrongCodes, spoken, table_code
from web.organiser import COOKIE, LIFETIME, Organiser
from web.pages import client, page, too_many

BY = "web: organiser"
MAX_FORM_TEXT = 100_000  # characters: an entry's JSON, far more than any real entry


def desk_routes(comp: Competition, organiser: Organiser, wrong: WrongCodes) -> list[Route]:
    """The desk's routes over the station's event ``comp``."""

    def session(request: Request) -> str | None:
        token = request.cookies.get(COOKIE)
        return token if organiser.signed_in(token) else None

    def login(request: Request, form) -> Response:
        title = comp.event.name
        if form is None:
            return page(request, "login.html", title=title, error=None)
        if wrong.refused(client(request)):
            return too_many(request, title)
        token = organiser.sign_in(str(form.get("password", "")))
        if token is None:
            wrong.note(client(request))
            return page(request, "login.html", 401, title=title,
                        error="That is not the organiser's password.")
        response = RedirectResponse("/o", status_code=303)
        response.set_cookie(COOKIE, token, max_age=int(LIFETIME), path="/o", httponly=True,
                            samesite="strict")
        return response

    def desk(request: Request, error: str | None = None, status: int = 200,
             typed: dict[str, str] | None = None) -> Response:
        token = session(request)
        if token is None:
            return RedirectResponse("/o/login", status_code=303)
        everything = comp.store.entries(comp.event)
        current = in_force(everything)  # (one read of the log for the whole page)
        live = {e.seq for e in current}
        replaced = {e.supersedes for e in everything if e.supersedes is not None}
        done = [int(n) for n in request.query_params.get("done", "").split(",")
                if n.isdigit()]
        typed = typed or {}
        fmt, game = comp.event.format, comp.event.settings.get("game")
        forms = [{"kind": k, "rows": _rows(comp, k, typed if typed.get("kind") == k and
                                           not typed.get("seq") else {})}
                 for k in comp.format.ENTRIES]
        corrections = {e.seq: _rows(comp, e.kind, typed if typed.get("seq") == str(e.seq)
                                    else typed_values(_fields(comp, e.kind), e.data))
                       for e in everything if e.kind != "void" and e.seq not in replaced}
        return page(request, "desk.html", status, title=comp.event.name,
                    event=comp.event, entries=everything, live=live, replaced=replaced,
                    kinds=comp.format.ENTRIES, forms=forms, corrections=corrections,
                    names=roster(current).order, notes=_notes(comp.standings()),
                    words={e.seq: in_words(fmt, e.kind, e.data, game) for e in everything},
                    draws=comp.format in (knockout, rankrounds),
                    draw_round=comp.format is rankrounds,
                    done=[e for e in everything if e.seq in done],
                    form_token=organiser.form_token(token), error=error,
                    typed=typed, exports=EXPORTS)

    def act(request: Request, form) -> Response:
        """One organiser action from the desk's forms: ``record`` an entry, ``correct``
        or ``void`` one, or make the format's next ``draw``."""
        token = session(request)
        if token is None or not organiser.form_ok(token, str(form.get("form_token", ""))):
            return page(request, "message.html", 403, title="organiser",
                        message="This form is not from a signed-in organiser's desk: sign "
                                "in again and send it from there.", link="/o/login")
        action = str(form.get("action", ""))
        typed = {k: str(form.get(k, ""))[:MAX_FORM_TEXT] for k in form
                 if k in ("kind", "data", "seq", "reason", "round") or k.startswith("f-")}
        try:
            stored = _act(comp, action, typed)
        except KangleError as exc:
            return desk(request, f"Nothing was recorded: {exc}", 422, typed)
        return RedirectResponse("/o?done=" + ",".join(str(e.seq) for e in stored),
                                status_code=303)

    def logout(request: Request) -> Response:
        organiser.sign_out(request.cookies.get(COOKIE))
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(COOKIE, path="/o")
        return response

    def sheets(request: Request) -> Response:
        if session(request) is None:
            return RedirectResponse("/o/login", status_code=303)
        text = request.query_params.get("round", "")
        if not text.isdigit():
            return page(request, "message.html", 422, title=comp.event.name,
                        message="Say which round's sheets to print (a number).",
                        link="/o")
        round_no = int(text)
        try:
            printed = comp.sheets(round_no)
        except KangleError as exc:
            return page(request, "message.html", 404, title=comp.event.name,
                        message=str(exc), link="/o")
        key = comp.store.secret(comp.event)
        base = str(request.base_url).rstrip("/")
        cards = []
        for number, sheet in enumerate(printed, start=1):
            card = {"sheet": sheet}
            if comp.takes_table_results:  # else results go in at the desk
                code = table_code(key, round_no, number)
                link = f"{base}/t/{code}"
                card.update(link=link, code=spoken(code),
                            qr=segno.make(link, error="m").svg_inline(scale=3))
            cards.append(card)
        today = date.today()
        return page(request, "sheets.html", title=comp.event.name, round_no=round_no,
                    cards=cards, enter=f"{base}/enter",
                    printed=f"{today.day} {today:%B %Y}")

    def export(request: Request) -> Response:
        if session(request) is None:
            return RedirectResponse("/o/login", status_code=303)
        name = request.path_params["name"]
        if name not in EXPORTS:
            return Response("no such export", 404)
        return Response(comp.export(name), media_type=MEDIA[name[name.rindex("."):]],
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})

    async def with_form(handler, request: Request) -> Response:
        form = await request.form(max_files=0, max_fields=20) \
            if request.method == "POST" else None
        return await run_in_threadpool(handler, request, form)

    async def login_route(request: Request) -> Response:
        return await with_form(login, request)

    async def act_route(request: Request) -> Response:
        return await with_form(act, request)

    def home(request: Request) -> Response:
        return desk(request)

    return [  # plain functions are served from Starlette's pool of threads
        Route("/o", home),
        Route("/o/login", login_route, methods=["GET", "POST"]),
        Route("/o/act", act_route, methods=["POST"]),
        Route("/o/logout", logout, methods=["POST"]),
        Route("/o/sheets", sheets),
        Route("/o/export/{name}", export),
    ]


def _fields(comp: Competition, kind: str) -> tuple:
    """The form of ``kind`` in ``comp``'s event."""
    return fields_of(comp.event.format, kind, comp.event.settings.get("game"))


def _rows(comp: Competition, kind: str, values: dict[str, str]) -> list[tuple]:
    """The rows of ``kind``'s form (field, input name, value shown) for the template."""
    return [(f, form_name(f), values.get(form_name(f), "")) for f in _fields(comp, kind)]


def _typed_entry(comp: Competition, kind: str, typed: dict[str, str]) -> dict:
    """An entry's data from the desk: the JSON typed, or else ``kind``'s form."""
    if typed.get("data", "").strip():
        return parse_json(typed["data"], "the entry")
    return entry_data(_fields(comp, kind), typed)


def _act(comp: Competition, action: str, typed: dict[str, str]) -> list:
    """Carry out one desk action on ``comp``; the entries stored (KangleError: none)."""
    if action == "record":
        return comp.record(typed.get("kind", ""), _typed_entry(comp, typed.get("kind", ""),
                                                              typed), BY)
    if action in ("correct", "void"):
        seq = typed.get("seq", "")
        if not seq.isdigit():
            raise KangleError("say which entry (its number)")
        if action == "void":
            return comp.correct(int(seq), None, BY, typed.get("reason", "").strip())
        kind = comp.entry(int(seq)).kind
        return comp.correct(int(seq), _typed_entry(comp, kind, typed), BY)
    if action == "draw":
        text = typed.get("round", "").strip()
        if text and not text.isdigit():
            raise KangleError(f"the round is a number, not {text!r}")
        return [comp.draw(int(text) if text else None)]
    raise KangleError(f"no desk action {action!r}")


def _notes(s: Standings) -> list[str]:
    """Every note of the standings and their sections (open ties, what is awaited)."""
    return [*s.notes, *(n for sub in s.sections for n in _notes(sub))]


MEDIA = {".txt": "text/plain; charset=utf-8", ".csv": "text/csv; charset=utf-8",
         ".json": "application/json", ".html": "text/html; charset=utf-8"}

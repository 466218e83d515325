"""Standings and score sheets as a terminal table, CSV, JSON and self-contained HTML."""

from __future__ import annotations

import csv
import html
import io
import json
from collections.abc import Iterable

from rules.events.common import ScoreSheet, Standings

_CSS = """body{font-family:system-ui,sans-serif;margin:2em;color:#222}
table{border-collapse:collapse;margin:1em 0}th,td{border:1px solid #999;padding:.3em .7em}
th{background:#eee}td.num{text-align:right}.notes{color:#555}
.sheet{page-break-after:always;margin-bottom:3em}.blank{height:2.2em;min-width:7em}
h1{font-size:1.4em}h2{font-size:1.15em}
.tree{display:flex;gap:2.2em;min-height:22em;page-break-inside:avoid}
.round{display:flex;flex-direction:column;justify-content:space-around;min-width:11em}
.round h3{font-size:.95em;margin:0 0 .3em}
.match{border:1px solid #999;border-radius:.3em;padding:.3em .5em;position:relative}
.tree .round:not(:last-child) .match::after{content:"";position:absolute;right:-1.15em;
top:50%;width:1.1em;border-top:1px solid #999}.won{font-weight:bold}"""


def _all(s: Standings) -> Iterable[Standings]:
    yield s
    for sub in s.sections:
        yield from _all(sub)


def text(s: Standings) -> str:
    out = []
    for part in _all(s):
        if not part.rows and not part.notes:
            continue
        out.append(part.title)
        widths = [max([len(c)] + [len(_fmt(r.values.get(c))) for r in part.rows])
                  for c in part.columns]
        name_w = max([4] + [len(r.name) for r in part.rows])
        out.append(f"{'#':>3}  {'name':<{name_w}}  " + "  ".join(
            f"{c:>{w}}" for c, w in zip(part.columns, widths, strict=True)))
        for r in part.rows:
            out.append(f"{r.rank:>3}  {r.name:<{name_w}}  " + "  ".join(
                f"{_fmt(r.values.get(c)):>{w}}" for c, w in zip(part.columns, widths,
                                                                strict=True)))
        out.extend(f"  note: {n}" for n in part.notes)
        out.append("")
    return "\n".join(out)


def to_csv(s: Standings) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf)
    for part in _all(s):
        if not part.rows:
            continue
        writer.writerow(["section", "rank", "name", *part.columns, "entries"])
        for r in part.rows:
            writer.writerow([_cell(part.title), r.rank, _cell(r.name), *(_fmt(r.values.get(c))
                                                           for c in part.columns),
                             " ".join(map(str, r.sources))])
    return buf.getvalue()


def _cell(text: str) -> str:
    """A name as a spreadsheet cell that stays text: one beginning with = + - @ (or a
    tab or carriage return) would be read as a formula, so it is prefixed with '."""
    return "'" + text if text[:1] in FORMULA_STARTS else text


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def to_json(s: Standings) -> str:
    return json.dumps({"schema": "kangle.standings/1", **s.to_json()}, indent=2,
                      ensure_ascii=False) + "\n"


def to_html(s: Standings, event: str, bracket: list[tuple[str, list[dict]]] = ()) -> str:
    """The standings as a printable page; ``bracket`` (Competition.bracket), the
    knockout drawn as a tree: a column a round, each match joined to the next."""
    body = [f"<h1>{html.escape(event)}</h1>"]
    if bracket:
        body.append("<h2>Knockout</h2>" + bracket_html(bracket))
    for part in _all(s):
        if not part.rows and not part.notes:
            continue
        body.append(f"<h2>{html.escape(part.title)}</h2>")
        if part.rows:
            head = "".join(f"<th>{html.escape(c)}</th>" for c in ("#", "name", *part.columns))
            rows = "".join(
                "<tr>" + f"<td class=num>{r.rank}</td><td>{html.escape(r.name)}</td>" + "".join(
                    f"<td class=num>{html.escape(_fmt(r.values.get(c)))}</td>"
                    for c in part.columns) + "</tr>" for r in part.rows)
            body.append(f"<table><tr>{head}</tr>{rows}</table>")
        if part.notes:
            body.append("<ul class=notes>" + "".join(f"<li>{html.escape(n)}</li>"
                                                      for n in part.notes) + "</ul>")
    return _page(event, "".join(body))


def bracket_html(rounds: list[tuple[str, list[dict]]]) -> str:
    """The knockout rounds side by side, the earliest first, each match centred against
    the matches that feed it; its teams (the winner in bold) or where they come from."""
    columns = []
    for title, matches in rounds:
        boxes = []
        for m in matches:
            if m["teams"]:
                who = "".join(f"<div class={'won' if t == m['winner'] else 'team'}>"
                              f"{html.escape(t)}{' ✓' if t == m['winner'] else ''}</div>"
                              for t in m["teams"])
            else:
                who = f"<div class=notes>{html.escape(m['pending'])}</div>"
            boxes.append(f"<div class=match><div class=notes>{html.escape(m['slot'])}</div>"
                         f"{who}</div>")
        columns.append(f"<div class=round><h3>{html.escape(title)}</h3>{''.join(boxes)}</div>")
    return f"<div class=tree>{''.join(columns)}</div>"


def sheets_html(sheets: list[ScoreSheet], event: str) -> str:
    pages = []
    for sh in sheets:
        head = "".join(f"<th>{html.escape(b)}</th>" for b in ("seat / player", *sh.blanks))
        rows = "".join("<tr><td>" + html.escape(p) + "</td>" + "<td class=blank></td>" *
                       len(sh.blanks) + "</tr>" for p in sh.seats)
        notes = "".join(f"<li>{html.escape(n)}</li>" for n in sh.instructions)
        pages.append(f"<div class=sheet><h1>{html.escape(event)}</h1><h2>"
                     f"{html.escape(sh.title)}</h2><table><tr>{head}</tr>{rows}</table>"
                     f"<ul>{notes}</ul></div>")
    return _page(f"{event} — score sheets", "".join(pages))


def _page(title: str, body: str) -> str:
    return (f"<!DOCTYPE html><html lang=en><head><meta charset=utf-8><title>"
            f"{html.escape(title)}</title><style>{_CSS}</style></head><body>{body}"
            "</body></html>\n")


def _fmt(v) -> str:
    if v is None:
        return ""
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)

"""`kangle serve`: the event's web station (web/), run under uvicorn."""

from __future__ import annotations

import argparse

from rules.errors import KangleError


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from rules.events.competition import Competition
    from web.app import create_app, organiser_code

    if not 0 < args.port < 65536:
        raise KangleError(f"--port must be 1-65535, not {args.port}")
    app = create_app(args.event)
    comp = Competition.open(args.event)
    code = organiser_code(comp.store.secret(comp.event))
    comp.close()
    shown = "localhost" if args.host in ("0.0.0.0", "::") else args.host
    print(f"kangle serve: {args.event} at http://{shown}:{args.port}/  (standings, public)\n"
          f"  score sheets with each table's private link (organiser only, keep it so):\n"
          f"  http://{shown}:{args.port}/o/{code}/sheets/1   (change the 1 for the round)\n"
          f"  phones at the tables open http://{shown}:{args.port}/enter and type the "
          "sheet's code, or scan its QR code", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def add_parser(sub, formatter) -> None:
    s = sub.add_parser(
        "serve", formatter_class=formatter, help="the event's web station (phones, standings)",
        description="Serve an event on the web: live standings and player pages for "
                    "everyone; each table enters its result from a phone through the private "
                    "link printed on its score sheet (QR code and short code). EVENT is as "
                    "for `kangle event`.",
        epilog="example:\n  kangle serve cup.db --host 0.0.0.0 --port 8000")
    s.add_argument("event", help="the event (a .db file or a database URL#name)")
    s.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (0.0.0.0: every network of this computer)")
    s.add_argument("--port", type=int, default=8000)
    s.set_defaults(run=cmd_serve)

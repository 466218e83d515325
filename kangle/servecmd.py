"""`kangle serve`: the event's web station (web/), run under uvicorn."""

from __future__ import annotations

import argparse
import getpass
import os
import secrets
import sys

from rules.errors import KangleError
from rules.jsonfile import read_text

PASSWORD_ENV = "KANGLE_ORGANISER_PASSWORD"


def _password(args: argparse.Namespace) -> tuple[str, bool]:
    """The organiser's password, and whether kangle made it up (then it is printed): from
    --password-file, else the environment, else typed at the terminal, else random."""
    if args.password_file:
        lines = read_text(args.password_file, "password").splitlines()
        return (lines[0] if lines else ""), False
    if os.environ.get(PASSWORD_ENV):
        return os.environ[PASSWORD_ENV], False
    if sys.stdin.isatty():
        typed = getpass.getpass("organiser's password for this station (8 characters or "
                                "more; empty: make one up): ")
        if typed:
            return typed, False
    return secrets.token_urlsafe(9), True


def cmd_serve(args: argparse.Namespace) -> int:
    import uvicorn

    from web.app import create_app

    if not 0 < args.port < 65536:
        raise KangleError(f"--port must be 1-65535, not {args.port}")
    password, made_up = _password(args)
    app = create_app(args.event, password)
    shown = "localhost" if args.host in ("0.0.0.0", "::") else args.host
    if args.host in ("0.0.0.0", "::"):
        print("WARNING: serving every network of this computer: anyone on the room's Wi-Fi "
              "can open the public pages; find this computer's address (e.g. `hostname -I`) "
              f"and open http://ADDRESS:{args.port}/ on the phones", file=sys.stderr)
    print(f"kangle serve: {args.event} at http://{shown}:{args.port}/  (standings, public)\n"
          f"  organiser's desk (score sheets with each table's link, corrections, exports):\n"
          f"  http://{shown}:{args.port}/o"
          + (f"   password: {password}  (made up now; give --password-file to choose)"
             if made_up else "   with the password you set") + "\n"
          f"  phones at the tables open http://{shown}:{args.port}/enter and type the "
          "sheet's code, or scan its QR code", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0


def add_parser(sub, formatter) -> None:
    s = sub.add_parser(
        "serve", formatter_class=formatter, help="the event's web station (phones, standings)",
        description="Serve an event on the web: live standings and player pages for "
                    "everyone; each table enters its result from a phone through the private "
                    "link printed on its score sheet (QR code and short code); the organiser's "
                    "desk (/o, behind a password) prints the sheets, corrects entries and "
                    "exports. EVENT is as for `kangle event`.",
        epilog="example:\n  kangle serve cup.db --host 0.0.0.0 --port 8000")
    s.add_argument("event", help="the event (a .db file or a database URL#name)")
    s.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (0.0.0.0: every network of this computer)")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--password-file", metavar="FILE",
                   help="the organiser's password (its first line); else the environment's "
                        f"{PASSWORD_ENV}, else typed at start, else one is made up and "
                        "printed")
    s.set_defaults(run=cmd_serve)

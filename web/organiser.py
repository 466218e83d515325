"""The organiser's sign-in: a password set when the station starts, sessions held in
this process's memory, and a token on every organiser form against cross-site requests.

The password itself is never kept: only its scrypt hash with a random salt, compared in
constant time. A session is a random 256-bit token in a cookie that scripts cannot read
(HttpOnly) and other sites do not send (SameSite=Strict); it lapses after LIFETIME
seconds. Each organiser form carries an HMAC of the session under a key of this process,
so a page elsewhere cannot post a form for a signed-in organiser even where a browser
would send the cookie.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse

from rules.errors import KangleError

COOKIE = "kangle_organiser"
LIFETIME = 12 * 3600.0  # seconds: one event day
MIN_PASSWORD = 8  # characters
MAX_PASSWORD = 1000  # characters typed are hashed no further than this


def _hash(password: str, salt: bytes) -> bytes:
    return hashlib.scrypt(password[:MAX_PASSWORD].encode(), salt=salt, n=2 ** 14, r=8, p=1)


class Organiser:
    """Who may use the organiser's pages. ``clock`` is in seconds (monotonic)."""

    def __init__(self, password: str, clock: Callable[[], float] = time.monotonic):
        if len(password) < MIN_PASSWORD:
            raise KangleError(f"the organiser's password needs at least {MIN_PASSWORD} "
                              "characters")
        self._salt = secrets.token_bytes(16)
        self._hash = _hash(password, self._salt)
        self._forms = secrets.token_bytes(32)
        self._sessions: dict[str, float] = {}  # token -> when it lapses (clock)
        self._lock = threading.Lock()  # pages are served from a pool of threads
        self.clock = clock

    def sign_in(self, typed: str) -> str | None:
        """A new session's token if ``typed`` is the password, else None."""
        if not hmac.compare_digest(_hash(typed, self._salt), self._hash):
            return None
        token = secrets.token_urlsafe(32)
        with self._lock:
            now = self.clock()
            self._sessions = {t: end for t, end in self._sessions.items() if end > now}
            self._sessions[token] = now + LIFETIME
        return token

    def signed_in(self, token: str | None) -> bool:
        if not token:
            return False
        with self._lock:
            end = self._sessions.get(token)
            return end is not None and end > self.clock()

    def sign_out(self, token: str | None) -> None:
        with self._lock:
            self._sessions.pop(token or "", None)

    def form_token(self, session: str) -> str:
        """The token the session's forms carry (hidden field ``form_token``)."""
        return hmac.new(self._forms, session.encode(), hashlib.sha256).hexdigest()

    def form_ok(self, session: str | None, token: str) -> bool:
        return bool(session) and hmac.compare_digest(self.form_token(session), token)


class SameOriginPosts:
    """ASGI middleware refusing (403) a form posted from another site's page. A browser
    names the posting page's origin (``Origin``, else ``Referer``) on every cross-site
    post; one naming another host than this station's is refused before any route runs.
    A client that names none (a script, a test) goes on to the form's own checks."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["method"] == "POST":
            headers = Headers(scope=scope)
            origin = headers.get("origin") or headers.get("referer")
            if origin and urlsplit(origin).netloc.lower() != headers.get("host", "").lower():
                await PlainTextResponse("Refused: this form was sent from another site's "
                                        "page. Open the station's own page and send it "
                                        "from there.", 403)(scope, receive, send)
                return
        await self.app(scope, receive, send)

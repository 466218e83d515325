"""What every page of the web station shares: the templates, and who is asking."""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.templating import Jinja2Templates

TEMPLATES = Jinja2Templates(directory=str(Path(__file__).parent / "templates"))
POLL_MS = 2000  # how often an open standings page asks for news


def page(request: Request, template: str, status: int = 200, **context) -> Response:
    """A page from ``template`` (Jinja2 escapes every value put in it)."""
    return TEMPLATES.TemplateResponse(request, template, context, status_code=status)


def client(request: Request) -> str:
    """The address a request came from (what wrong codes are counted against)."""
    return request.client.host if request.client else "unknown"


def too_many(request: Request, title: str) -> Response:
    return page(request, "message.html", 429, title=title,
                message="Too many wrong codes from this device: wait a minute, then type "
                        "the code (or password) again, carefully.")

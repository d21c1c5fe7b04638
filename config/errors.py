"""The app's own pages for 400, 403, 404, 405, 500 and 503, for every client: never a traceback, a
setting or the URL list (DEBUG is off wherever the app is served; `make dev` alone shows debug pages).

An unhandled error that says the database is away or too slow (a restart, a stop, a cancelled
statement: config/database.py) is a 503 with `Retry-After`, not a 500: the page says to try again
in a moment, and a tablet's score sheet keeps the save and sends it again (static/js/sheet.js).

Each page is the app's template in the visitor's language. Should rendering it fail too (the
database gone, say), a plain page in Polish and English says the same.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import translation

from config.database import database_unavailable

RETRY_AFTER = 5  # seconds a client waits before it asks again while the database is away

FALLBACK = """<!doctype html><html lang="pl"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>Błąd / Error {status}</title></head>
<body style="font-family: sans-serif; font-size: 20px; padding: 16px">
<h1>Coś poszło nie tak / Something went wrong</h1>
<p>Spróbuj ponownie za chwilę. / Please try again in a moment.</p>
<p><a href="/">Strona główna / Home page</a></p></body></html>"""


def error_page(request: HttpRequest, template: str, status: int, context: dict | None = None) -> HttpResponse:
    try:
        response = render(request, template, context, status=status)
    except Exception:  # the page must come out whatever failed before it
        response = HttpResponse(FALLBACK.format(status=status), status=status)
    response["Cache-Control"] = "no-store"
    return response


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_page(request, "400.html", 400)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_page(request, "403.html", 403)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    return error_page(request, "404.html", 404)


def server_error(request: HttpRequest) -> HttpResponse:
    """Django calls it while it handles the error: the error at hand decides between 500 and 503."""
    if database_unavailable(sys.exc_info()[1]):
        return unavailable(request)
    return error_page(request, "500.html", 500)


def unavailable(request: HttpRequest) -> HttpResponse:
    """503 while the database is away: a page that reads nothing from it, in the visitor's language."""
    context = {"retry_after": RETRY_AFTER, "path": request.path if request.method == "GET" else "/"}
    try:
        with translation.override(translation.get_language_from_request(request)):
            response = HttpResponse(render_to_string("503.html", context), status=503)
    except Exception:  # the page must come out whatever failed before it
        response = HttpResponse(FALLBACK.format(status=503), status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


def parent_path(path: str) -> str:
    """The page an action's address belongs to: the address one step up
    (`/staff/t/players/3/check-in/` belongs to `/staff/t/players/3/`)."""
    trimmed = path.rstrip("/")
    return trimmed[: trimmed.rfind("/") + 1] or "/"


class MethodNotAllowedPageMiddleware:
    """A 405 (an action's address opened by a reload, Back or restored tabs, or a method no page
    takes) is the app's page in the visitor's language, not the browser's bare error; the Allow
    header stays. It runs for answers from the method check and from `require_POST` alike."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if response.status_code != 405 or response.streaming or response.content:
            return response
        with translation.override(translation.get_language_from_request(request)):
            page = error_page(request, "405.html", 405, {"back_url": parent_path(request.path)})
        page["Allow"] = response["Allow"]
        return page

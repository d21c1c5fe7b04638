"""Where a form or link returns to (the one check of a `next` value), what an htmx request gets
back instead of a page, and what a download made by a task answers: used by every app."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme

FINISHED = "done"  # ProducedFile.Status.DONE (this plain module reads no model)


def return_path(request: HttpRequest, value: object, default: str) -> str:
    """`value` when it is a path on this site ("/…", not "//…"), else `default`.

    A bare word ("0") would be taken by `redirect` for a view name, and any other address
    (another host, a scheme such as javascript:) leaves the site; both fall back to `default`.
    """
    target = value if isinstance(value, str) else ""
    if not target.startswith("/") or target.startswith(("//", "/\\")):
        return default
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return default
    return target


def htmx_page(request: HttpRequest, default: str) -> str:
    """The path of the page an htmx request came from (its HX-Current-URL) when that is a page
    of this site, else `default`; a header that is no address ("http://[x") is no page."""
    try:
        current = request.htmx.current_url_abs_path if getattr(request, "htmx", None) else None
    except ValueError:
        current = None
    return return_path(request, current, default)


def htmx_or_page(
    request: HttpRequest, fragment: Callable[[], HttpResponse], page: Callable[[], HttpResponse]
) -> HttpResponse:
    """What a request gets back: an htmx request the fragment it swaps in (`fragment()`), any other
    request the whole page (`page()`, or a redirect); only the one answered is drawn."""
    return fragment() if getattr(request, "htmx", False) else page()


def produced_file_response(produced) -> HttpResponse:
    """A finished `ProducedFile` with its bytes: a PDF opens in the browser, anything else downloads."""
    pdf = produced.content_type == "application/pdf"
    response = HttpResponse(bytes(produced.content or b""), content_type=produced.content_type)
    response["Content-Disposition"] = f'{"inline" if pdf else "attachment"}; filename="{produced.file_name}"'
    response["Cache-Control"] = "private, no-cache" if pdf else "no-store"
    return response


def produced_file_answer(produced) -> HttpResponse:
    """What a download made by a task answers: the file when it is finished already, else a
    redirect to its progress page (`organiser:produced_file`)."""
    if produced.status == FINISHED:
        return produced_file_response(produced)
    return redirect("organiser:produced_file", produced.tournament.slug, produced.pk)

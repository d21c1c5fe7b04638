"""What every response is held to: the Content-Security-Policy, the methods the app answers,
and no stored copy of a staff page.

Scripts and styles come from the app's own static files only: no inline <script>, no event
handler attributes, no eval (htmx runs with `includeIndicatorStyles: false`, see base.html).
Inline `style=""` attributes stay allowed (`style-src-attr`), <style> elements do not.
Django 5.2 has no built-in CSP, hence this small middleware; the policy is `settings.CONTENT_SECURITY_POLICY`.
"""

from django.conf import settings
from django.core.exceptions import BadRequest
from django.http import HttpResponseNotAllowed, QueryDict


def policy_header(policy):
    return "; ".join(f"{directive} {' '.join(sources)}".strip() for directive, sources in policy.items())


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.header = policy_header(settings.CONTENT_SECURITY_POLICY)

    def __call__(self, request):
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", self.header)
        return response


class AllowedMethodsMiddleware:
    """405 for any method but GET, HEAD and POST: no page of the app takes PUT, PATCH, DELETE…"""

    ALLOWED = ("GET", "HEAD", "POST")

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in self.ALLOWED:
            return HttpResponseNotAllowed(self.ALLOWED)
        return self.get_response(request)


class NulByteMiddleware:
    """No NUL byte reaches a page: PostgreSQL refuses one in any text (a 500 there, silently
    stored by SQLite), and no page has a use for one. The one place for every parameter read by
    hand: a NUL in the path or in a query parameter's name or value is a 400; a posted form's
    fields are cleaned of NUL, so a form and a hand-read `request.POST` value alike see the text
    without it. Posts to a view that reads its own body (`csrf_exempt`: an upload's size is checked
    before its body is read) are left to their forms, which refuse NUL (Django's `CharField`)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if NUL in request.path or _has_nul(request.GET):
            raise BadRequest("A NUL byte in the path or a query parameter.")
        return self.get_response(request)

    def process_view(self, request, view, args, kwargs):
        """Before the CSRF check reads the posted fields (it reads them for the same views)."""
        if request.method == "POST" and not getattr(view, "csrf_exempt", False) and _has_nul(request.POST):
            request.POST = _without_nul(request.POST)


NUL = "\x00"


def _has_nul(query):
    return any(NUL in name or any(NUL in value for value in values) for name, values in query.lists())


def _without_nul(query):
    cleaned = QueryDict(mutable=True)
    for name, values in query.lists():
        cleaned.setlist(name.replace(NUL, ""), [value.replace(NUL, "") for value in values])
    cleaned._mutable = False
    return cleaned


STAFF_PREFIXES = ("/staff/", "/referee/", "/accounts/", "/admin/")


class StaffNoStoreMiddleware:
    """`Cache-Control: no-store` on every staff and referee response: a shared tablet or the
    organiser's browser keeps no copy of a staff page, a score sheet, a backup or a PDF.

    Staff pages are those under the staff prefixes and every page behind `staff_required`
    (which sets `request.role`: the results control, the staff PDFs).
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if getattr(request, "role", None) is not None or request.path.startswith(STAFF_PREFIXES):
            response["Cache-Control"] = "no-store"
        return response

"""What every response is held to: the Content-Security-Policy, the methods the app answers,
and no stored copy of a staff page.

Scripts and styles come from the app's own static files only: no inline <script>, no event
handler attributes, no eval (htmx runs with `includeIndicatorStyles: false`, see base.html).
Inline `style=""` attributes stay allowed (`style-src-attr`), <style> elements do not.
Django 5.2 has no built-in CSP, hence this small middleware; the policy is `settings.CONTENT_SECURITY_POLICY`.
"""

from django.conf import settings
from django.http import HttpResponseNotAllowed


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

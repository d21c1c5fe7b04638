"""The Content-Security-Policy header on every response.

Scripts and styles come from the app's own static files only: no inline <script>, no event
handler attributes, no eval (htmx runs with `includeIndicatorStyles: false`, see base.html).
Inline `style=""` attributes stay allowed (`style-src-attr`), <style> elements do not.
Django 5.2 has no built-in CSP, hence this small middleware; the policy is `settings.CONTENT_SECURITY_POLICY`.
"""

from django.conf import settings


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

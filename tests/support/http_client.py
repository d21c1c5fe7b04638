"""A small HTTP client for the real-server tests: one per simulated tablet, with its own cookies.

It signs in like a browser (the login form or a tablet's device link, with the CSRF cookie and
the page's token), posts forms with the `X-CSRFToken` header, never follows redirects (a test
sees the 302 itself) and returns 4xx and 5xx answers instead of raising. Only standard-library code, so any number of threads can
each drive a client of their own.
"""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


@dataclass
class Response:
    status: int
    headers: dict
    text: str

    @property
    def location(self):
        return self.headers.get("location", "")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Client:
    """A browser-like session against `base_url` (e.g. "http://127.0.0.1:8000")."""

    def __init__(self, base_url, *, timeout=60):
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.cookies = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.cookies), _NoRedirect)

    def cookie(self, name):
        return next((c.value for c in self.cookies if c.name == name), None)

    def request(self, method, path, data=None, headers=None):
        """Send one request; any HTTP status comes back as a Response (connection errors raise)."""
        body = urllib.parse.urlencode(data, doseq=True).encode() if data is not None else None
        request = urllib.request.Request(self.base_url + path, data=body, method=method, headers=dict(headers or {}))
        if body is not None:
            request.add_header("Content-Type", "application/x-www-form-urlencoded")
        try:
            with self.opener.open(request, timeout=self.timeout) as answer:
                return Response(answer.status, _lower(answer.headers), answer.read().decode("utf-8", "replace"))
        except urllib.error.HTTPError as answer:  # 3xx (not followed), 4xx and 5xx
            with answer:
                return Response(answer.code, _lower(answer.headers), answer.read().decode("utf-8", "replace"))

    def get(self, path, headers=None):
        return self.request("GET", path, headers=headers)

    def post(self, path, data, *, htmx=False, headers=None):
        """POST a form with the CSRF cookie's token; `htmx` sends it as htmx would (HX-Request)."""
        headers = dict(headers or {})
        token = self.cookie("csrftoken")
        if token:
            headers["X-CSRFToken"] = token
        if htmx:
            headers["HX-Request"] = "true"
        return self.request("POST", path, data, headers)

    def login(self, username, password):
        """Sign in through the login form; raises if the server does not accept it."""
        return self._submit_form("/accounts/login/", {"username": username, "password": password})

    def device_sign_in(self, token):
        """Sign in as a tablet does with its device link (confirm page, then POST)."""
        return self._submit_form(f"/accounts/device/sign-in/{token}/", {})

    def _submit_form(self, path, data):
        """GET a sign-in page, POST its form with the page's CSRF token, expect a session."""
        page = self.get(path)
        match = CSRF_FIELD.search(page.text)
        if page.status != 200 or match is None:
            raise AssertionError(f"no sign-in form at {path} (status {page.status})")
        answer = self.request("POST", path, dict(data, csrfmiddlewaretoken=match.group(1)))
        if answer.status != 302 or self.cookie("sessionid") is None:
            raise AssertionError(f"sign-in at {path} refused (status {answer.status})")
        return self


def _lower(headers):
    return {name.lower(): value for name, value in headers.items()}

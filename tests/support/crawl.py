"""A crawler over Django's test client: every staff page, file and form reachable from start URLs.

It follows every same-site link a page offers (`href`, `src`, htmx's `hx-get`, a GET form's
action) that stays in the staff areas, and reads every POST form (tests/support/html_forms.py:
action, `hx-post`, `formaction`, fields with their values as rendered, hidden tokens included).
Pages are bounded per URL pattern (`resolve(path).route`), so a tournament with hundreds of
players is crawled in seconds, and a new page linked from any crawled page is covered without
editing a list (tests/system/test_organisations_crawl.py asks every URL and form of one
organisation as the people of another).
"""

from __future__ import annotations

import gzip
import io
import zipfile
from collections import Counter, deque
from dataclasses import dataclass, field
from html.parser import HTMLParser
from urllib.parse import urljoin, urlsplit

from django.urls import Resolver404, resolve
from pypdf import PdfReader

from tests.support.html_forms import Form, page_forms

# The areas a staff member works in; a page elsewhere is a staff page when it is served as one
# (`staff_answer`): the public pages (/, /t/…, the public PDFs) show public data.
STAFF_AREAS = ("/staff/", "/referee/", "/print/", "/accounts/", "/help/")
# Never followed, with the reason: signing out, switching the language or opening a tablet's
# sign-in link changes the crawling session; the admin is Django's own (tests/tournament/test_admin.py);
# the public PDFs (`printing:public_…`) are the public pages on paper.
SKIPPED = {
    "accounts:logout": "signs the crawler out",
    "accounts:login": "the sign-in page",
    "accounts:device_sign_in": "a tablet's one-time sign-in link: a bearer token, not a staff page",
    "accounts:venue_check": "the server's answer to its own nonce",
    "public:language": "switches the session's language",
    "set_language": "switches the session's language",
}
PUBLIC_PREFIXES = ("/print/help/",)  # the staff help PDFs are for anyone
LINK_ATTRIBUTES = {"href", "src", "hx-get", "data-url", "data-href", "data-src"}
KINDS = {  # content type (start) → kind of file
    "text/html": "page",
    "application/pdf": "pdf",
    "text/csv": "csv",
    "application/json": "json",
    "application/zip": "zip",
    "application/gzip": "gzip",
    "application/x-gzip": "gzip",
    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
    "text/plain": "text",
}


@dataclass
class Fetched:
    status: int
    kind: str  # "page", "pdf", "csv", "xlsx", "json", "gzip", … (KINDS), else the content type


@dataclass
class Crawl:
    """What a crawl reached: each URL fetched (with its status and kind) and each POST form."""

    fetched: dict[str, Fetched] = field(default_factory=dict)
    forms: list[Form] = field(default_factory=list)

    def urls(self):
        """The URLs that answered 200 (pages and files)."""
        return [url for url, got in self.fetched.items() if got.status == 200]

    def counts(self):
        """How many URLs of each kind answered 200, and how many forms: {"page": 41, "pdf": 12, …, "form": 60}."""
        counts = Counter(got.kind for got in self.fetched.values() if got.status == 200)
        counts["form"] = len(self.forms)
        return dict(counts)

    def routes(self):
        """The URL patterns reached, by URL name (`organiser:players`), GETs and form actions alike."""
        return {view_name(url) for url in self.urls()} | {view_name(form.action) for form in self.forms}


class Links(HTMLParser):
    """The URLs a page links to or loads: link attributes and the actions of GET forms."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.found += [value for name, value in attrs if name in LINK_ATTRIBUTES and value]
        if tag == "form" and (a.get("method") or "get").lower() == "get" and not a.get("hx-post"):
            self.found.append(a.get("action") or "")


def links(base, html):
    parser = Links()
    parser.feed(html)
    parser.close()
    return [urljoin(base, found) for found in parser.found]


def body(response):
    """A response's bytes, a streamed file's too."""
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content)
    return response.content


def text(response):
    """What a reader of the response sees, as one lowercase string: a page's or a file's text, a
    PDF's extracted text, the text of every member of a .xlsx, .zip or .gz."""
    data = body(response)
    kind = KINDS.get(response.get("Content-Type", "").split(";")[0].strip())
    if kind == "pdf":
        return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages).lower()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    if data[:4] == b"PK\x03\x04":
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            return "\n".join(archive.read(name).decode("utf-8", "replace") for name in archive.namelist()).lower()
    return data.decode("utf-8", "replace").lower()


def view_name(url):
    try:
        return resolve(urlsplit(url).path).view_name
    except Resolver404:
        return None


def route_of(url):
    """The URL pattern of a same-site URL, or None when the crawl leaves it alone (see SKIPPED)."""
    parts = urlsplit(url)
    if parts.scheme not in ("", "http", "https") or parts.netloc not in ("", "testserver"):
        return None
    if parts.path.startswith(PUBLIC_PREFIXES):
        return None
    try:
        match = resolve(parts.path)
    except Resolver404:
        return None
    if match.view_name in SKIPPED or match.view_name.startswith(("admin:", "printing:public_")):
        return None
    return match.route


def staff_answer(url, response):
    """Whether a page is a staff page: in the staff areas, or served as one elsewhere (the
    results control under /t/: `Cache-Control: no-store`, config.security.StaffNoStoreMiddleware)."""
    return urlsplit(url).path.startswith(STAFF_AREAS) or response.get("Cache-Control") == "no-store"


def crawl(client, start, per_route=3, limit=400):
    """Every staff URL and POST form reachable from `start` by `client`, at most `per_route` URLs and
    `per_route` forms of each pattern (a query string makes another URL of the same pattern, other
    fields another form) and `limit` URLs in all."""
    result, queue, seen, per = Crawl(), deque(), set(), Counter()
    forms, per_form = {}, Counter()

    def enqueue(url):
        parts = urlsplit(url)
        url = parts.path + (f"?{parts.query}" if parts.query else "")
        route = route_of(url)
        if route is None or url in seen or per[route] >= per_route or len(seen) >= limit:
            return
        seen.add(url)
        per[route] += 1
        queue.append(url)

    for url in start:
        enqueue(url)
    while queue:
        url = queue.popleft()
        response = client.get(url)
        if not staff_answer(url, response):
            continue  # a public page: not followed
        content_type = response.get("Content-Type", "").split(";")[0].strip()
        result.fetched[url] = Fetched(response.status_code, KINDS.get(content_type, content_type))
        if response.status_code in (301, 302):
            enqueue(urljoin(url, response["Location"]))
            continue
        if response.status_code != 200 or content_type != "text/html":
            continue
        html = body(response).decode()
        for found in links(url, html):
            enqueue(found)
        for form in page_forms(url, html):
            posted = route_of(form.action)
            if posted is not None and form.key not in forms and per_form[posted] < per_route:
                per_form[posted] += 1
                forms[form.key] = form
    result.forms = list(forms.values())
    return result

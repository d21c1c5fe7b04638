"""Render a Django template to PDF bytes with WeasyPrint.

WeasyPrint loads stylesheets, fonts and images through `StaticFilesFetcher`, which serves
only the project's static files, read from disk, and `data:` URIs (the QR codes); every
other URL is refused. The document's base URL is a fixed placeholder, so the output does not
depend on the request's host.

WeasyPrint reports problems (bad CSS, a missing font or stylesheet) as log records, not
exceptions. `html_to_pdf` collects those of its own thread and logs them on this module's
logger; with the setting `PRINTING_FAIL_ON_WARNINGS = True` (the tests set it) it raises
`PdfWarnings` instead.

`render_layered_pdf` is for long runs of pages that are the same form filled in differently
(50 score sheets, 100 certificates). Laying out a score sheet costs WeasyPrint about a tenth
of a second, nearly all of it on the form: grid lines, labels, the rules in brief. So each
distinct form is rendered once, the fill-in (names, table number, QR code) is rendered as a
light document of its own, and `lay_over_forms` puts each form under its pages as a PDF form
XObject, stored once in the file and drawn by reference. The form's stylesheet gives the
boxes to fill fixed sizes and also styles the fill-in (`class="fill-in"` on its body), whose
plain blocks land in those boxes.

`render_pdf` and `render_layered_pdf` keep PDFs in the cache the app servers share
(`tournament.shared_cache`: Redis on a service) under a digest of the rendered HTML and of the
release's fingerprint (`tournament.release`: the contents of the templates, print stylesheets,
fonts, translations and code, never file times), so a changed seating, name or setting always
renders anew, a PDF one server rendered is served by every other server of the release, and a new
release renders anew. A PDF is slow to make, so while one request (on any server) renders it, the
others asking for the same PDF wait for it, up to RENDER_WAIT_SECONDS, then render it themselves.
"""

import hashlib
import io
import logging
import mimetypes
import threading
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urljoin, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from pypdf import PdfReader, PdfWriter
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject
from weasyprint import HTML
from weasyprint.urls import URLFetcher, URLFetcherResponse

from tournament import release, shared_cache

BASE_URL = "https://print.invalid/"
CACHE_SECONDS = 60 * 60 * 16  # one tournament day
RENDER_WAIT_SECONDS = 30  # longer than the largest batch takes (200 dense pages: 17 s)

log = logging.getLogger(__name__)
weasyprint_log = logging.getLogger("weasyprint")
weasyprint_log.setLevel(logging.WARNING)


class PdfWarnings(Exception):
    """WeasyPrint reported problems while rendering (raised only in strict mode)."""


def static_file_path(url):
    """The file on disk behind a static-file URL of the document, or None."""
    prefix = urljoin(BASE_URL, settings.STATIC_URL)
    if not url.startswith(prefix):
        return None
    name = unquote(urlsplit(url[len(prefix) :]).path)
    parts = PurePosixPath(name).parts
    if not parts or name.startswith("/") or ".." in parts:
        return None
    found = finders.find(name)
    return Path(found) if found else None


class StaticFilesFetcher(URLFetcher):
    """Serves the project's static files from disk and `data:` URIs; refuses everything else."""

    def fetch(self, url, headers=None):
        if url.startswith("data:"):
            return super().fetch(url, headers)
        path = static_file_path(url)
        if path is None:
            raise ValueError(f"a printed document may load only the project's static files, not {url}")
        mime_type = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": mime_type})


class _ThreadWarnings(logging.Handler):
    """Collects the WeasyPrint warnings and errors logged by the current thread."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.thread = threading.get_ident()
        self.messages = []

    def emit(self, record):
        if record.thread == self.thread:
            self.messages.append(record.getMessage())


def html_to_pdf(html):
    """PDF bytes of an HTML document whose static URLs point into the project's static files."""
    collector = _ThreadWarnings()
    weasyprint_log.addHandler(collector)
    try:
        pdf = HTML(string=html, base_url=BASE_URL, url_fetcher=StaticFilesFetcher()).write_pdf()
    finally:
        weasyprint_log.removeHandler(collector)
    if collector.messages:
        if getattr(settings, "PRINTING_FAIL_ON_WARNINGS", False):
            raise PdfWarnings("\n".join(collector.messages))
        for message in collector.messages:
            log.warning("PDF rendering: %s", message)
    return pdf


def pdf_key(*sources):
    """The cache key of the PDF made from `sources` (the rendered HTML) by this release."""
    digest = hashlib.sha256(release.fingerprint().encode())
    for source in sources:
        digest.update(b"\0" + source.encode())
    return "printing:pdf:" + digest.hexdigest()


def _cached(make, *sources):
    """The PDF made from `sources`, made by `make()` once across the servers sharing the cache."""
    return shared_cache.once(pdf_key(*sources), make, CACHE_SECONDS, wait_seconds=RENDER_WAIT_SECONDS)


def render_pdf(template, context):
    """Render `template` with `context` and return the PDF bytes (cached by content)."""
    html = render_to_string(template, context)
    return _cached(lambda: html_to_pdf(html), html)


def render_layered_pdf(forms_template, fill_in_template, context, page_forms):
    """A PDF whose page i is page i of `fill_in_template` drawn over page `page_forms[i]` of
    `forms_template` (both rendered with `context`; cached by content)."""
    forms_html = render_to_string(forms_template, context)
    fill_in_html = render_to_string(fill_in_template, context)
    return _cached(
        lambda: lay_over_forms(html_to_pdf(forms_html), html_to_pdf(fill_in_html), page_forms),
        forms_html,
        fill_in_html,
        repr(list(page_forms)),
    )


class LayerMismatch(Exception):
    """The forms or the fill-in have a different number of pages than the document should have."""


def lay_over_forms(forms_pdf, fill_in_pdf, page_forms):
    """The fill-in PDF with page `page_forms[i]` of `forms_pdf` drawn under its page i.

    Each form page becomes a form XObject (PDF 32000-1, 8.10): its content stream, given the
    page's resources and bounding box, copied into the output once however many pages use it.
    """
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(fill_in_pdf)))
    if len(writer.pages) != len(page_forms):
        raise LayerMismatch(f"the fill-in has {len(writer.pages)} pages where the document has {len(page_forms)}")
    form_pages = PdfReader(io.BytesIO(forms_pdf)).pages
    if len(form_pages) != max(page_forms, default=-1) + 1:
        raise LayerMismatch(
            f"{len(form_pages)} pages of forms for {max(page_forms) + 1} forms: a form overflows its page"
        )
    forms = []
    for form_page in form_pages:
        stream = form_page.raw_get("/Contents").get_object()
        stream.update(
            {
                NameObject("/Type"): NameObject("/XObject"),
                NameObject("/Subtype"): NameObject("/Form"),
                NameObject("/BBox"): form_page.mediabox,
                NameObject("/Resources"): form_page.raw_get("/Resources"),
            }
        )
        forms.append(stream.clone(writer).indirect_reference)
    for page, form in zip(writer.pages, page_forms):
        resources = page["/Resources"]
        xobjects = resources.setdefault(NameObject("/XObject"), DictionaryObject()).get_object()
        name = NameObject(f"/PrintedForm{form}")
        xobjects[name] = forms[form]
        contents = DecodedStreamObject()
        contents.set_data(f"q {name} Do Q\n".encode() + page.get_contents().get_data())
        page.replace_contents(contents)
        page.compress_content_streams()
    output = io.BytesIO()
    writer.write(output)
    return output.getvalue()

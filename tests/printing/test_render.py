"""The PDF rendering service: static files only, warnings fail, cache by content, Polish order."""

from unittest import mock

import pytest

from printing import render
from printing.render import BASE_URL, PdfWarnings, StaticFilesFetcher, html_to_pdf, static_file_path
from printing.testing import A4_PORTRAIT, flat, page_sizes, pdf_fonts, pdf_reader, pdf_text, strict_pdf_rendering  # noqa: F401

STYLED = '<html><head><link rel="stylesheet" href="/static/print/print.css"></head><body>{}</body></html>'


def test_static_urls_map_to_the_project_files_and_nothing_else():
    assert static_file_path(BASE_URL + "static/print/print.css").name == "print.css"
    assert static_file_path(BASE_URL + "static/fonts/DejaVuSans.ttf").stat().st_size > 100_000
    assert static_file_path(BASE_URL + "static/../config/settings.py") is None
    assert static_file_path(BASE_URL + "static/print/missing.css") is None
    assert static_file_path(BASE_URL + "config/settings.py") is None
    assert static_file_path("file:///etc/passwd") is None
    assert static_file_path("https://example.org/static/print/print.css") is None


def test_the_fetcher_refuses_other_urls():
    fetcher = StaticFilesFetcher()
    assert fetcher.fetch(BASE_URL + "static/print/print.css").content_type == "text/css"
    with pytest.raises(ValueError, match="static files"):
        fetcher.fetch("file:///etc/passwd")


def test_fonts_are_embedded_and_polish_text_extracts():
    pdf = html_to_pdf(STYLED.format("<p>Zażółć gęślą jaźń — ŁĄCZNIE Ś Ź Ż Ć Ń Ó Ę</p><p><b>Gąsior</b></p>"))
    assert "Zażółć gęślą jaźń — ŁĄCZNIE Ś Ź Ż Ć Ń Ó Ę" in pdf_text(pdf)
    assert page_sizes(pdf) == [A4_PORTRAIT]
    assert pdf_fonts(pdf) == {"Print-Sans", "Print-Sans-Bold"}  # the shipped fonts, not the system's


def test_a_missing_resource_fails_in_strict_mode():
    with pytest.raises(PdfWarnings, match="missing.css"):
        html_to_pdf('<html><head><link rel="stylesheet" href="/static/print/missing.css"></head><body>x</body></html>')
    with pytest.raises(PdfWarnings):
        html_to_pdf(STYLED.format('<img src="https://example.org/logo.png">'))


def test_bad_css_fails_in_strict_mode():
    with pytest.raises(PdfWarnings, match="colr"):
        html_to_pdf("<html><head><style>p { colr: red }</style></head><body><p>x</p></body></html>")


def test_warnings_are_only_logged_outside_strict_mode(settings, caplog):
    settings.PRINTING_FAIL_ON_WARNINGS = False
    pdf = html_to_pdf("<html><head><style>p { colr: red }</style></head><body><p>x</p></body></html>")
    assert pdf.startswith(b"%PDF-")
    assert any("colr" in record.getMessage() for record in caplog.records if record.name == "printing.render")


def test_render_pdf_caches_by_content(tmp_path, settings):
    template_dir = tmp_path / "templates"
    template_dir.mkdir()
    (template_dir / "note.html").write_text(STYLED.format("<p>{{ name }}</p>"))
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [template_dir]}]
    with mock.patch.object(render, "html_to_pdf", wraps=render.html_to_pdf) as rendered:
        first = render.render_pdf("note.html", {"name": "Łucja"})
        again = render.render_pdf("note.html", {"name": "Łucja"})
        other = render.render_pdf("note.html", {"name": "Żaneta"})
    assert rendered.call_count == 2  # the repeat came from the cache
    assert first == again
    assert "Łucja" in pdf_text(first) and "Żaneta" in pdf_text(other)


PAGES = '<section style="break-after: page">{}</section>'


def form_xobjects(pdf):
    """The form XObjects stored in a PDF, each counted once however many pages draw it."""
    forms = {}
    for page in pdf_reader(pdf).pages:
        for reference in page["/Resources"].get("/XObject", {}).values():
            if reference.get_object()["/Subtype"] == "/Form":
                forms[reference.idnum] = reference.get_object()
    return forms


def test_fill_in_pages_are_laid_over_their_forms():
    forms = html_to_pdf(STYLED.format(PAGES.format("Form one: name ____") + PAGES.format("Form two: club ____")))
    fill_in = html_to_pdf(STYLED.format("".join(PAGES.format(name) for name in ("Łucja", "Żaneta", "Józef"))))
    pdf = render.lay_over_forms(forms, fill_in, [0, 1, 0])
    texts = [flat(page.extract_text()) for page in pdf_reader(pdf).pages]
    assert texts == ["Form one: name ____ Łucja", "Form two: club ____ Żaneta", "Form one: name ____ Józef"]
    assert page_sizes(pdf) == [A4_PORTRAIT] * 3
    assert len(form_xobjects(pdf)) == 2  # stored once, drawn by reference
    assert pdf_fonts(pdf) == {"Print-Sans"}


def test_layers_with_the_wrong_number_of_pages_are_refused():
    form = html_to_pdf(STYLED.format("Form"))
    fill_in = html_to_pdf(STYLED.format(PAGES.format("Łucja") + PAGES.format("Żaneta")))
    with pytest.raises(render.LayerMismatch, match="2 pages where the document has 3"):
        render.lay_over_forms(form, fill_in, [0, 0, 0])
    two_page_form = html_to_pdf(STYLED.format(PAGES.format("Form, page 1") + PAGES.format("page 2")))
    with pytest.raises(render.LayerMismatch, match="2 pages of forms for 1 forms: a form overflows its page"):
        render.lay_over_forms(two_page_form, fill_in, [0, 0])


def test_render_layered_pdf_caches_by_content(tmp_path, settings):
    template_dir = tmp_path / "templates"
    template_dir.mkdir()
    (template_dir / "form.html").write_text(STYLED.format("<p>{{ title }}</p>"))
    (template_dir / "fill.html").write_text(STYLED.format("<p>{{ name }}</p>"))
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [template_dir]}]
    with mock.patch.object(render, "html_to_pdf", wraps=render.html_to_pdf) as rendered:
        first = render.render_layered_pdf("form.html", "fill.html", {"title": "Dyplom", "name": "Łucja"}, [0])
        again = render.render_layered_pdf("form.html", "fill.html", {"title": "Dyplom", "name": "Łucja"}, [0])
        other = render.render_layered_pdf("form.html", "fill.html", {"title": "Dyplom", "name": "Żaneta"}, [0])
    assert rendered.call_count == 4  # two layers each time; the repeat came from the cache
    assert first == again
    assert flat(pdf_text(first)) == "Dyplom Łucja" and flat(pdf_text(other)) == "Dyplom Żaneta"

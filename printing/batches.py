"""A round's batch PDFs: the seating lists, the score sheets and the table cards of all its tables.

Each is made by a task (`make_round_pdf`), not inside the request that asks for it: the view asks
`tournament.services.files.ask_for_file`, which answers with the file made already for the same
round, venue address, language and data, or queues it. The task renders with the same functions
as the inline documents (one table's sheet, the public seating), so the bytes are the same, and
reports the tables laid out so far: WeasyPrint logs each page it lays out, and a score sheet or a
table card is one page a table.
"""

from __future__ import annotations

import logging
import threading
from contextlib import contextmanager

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django_tasks import task

from printing import documents, selectors
from printing.render import render_layered_pdf, render_pdf
from tournament.models import ProducedFile
from tournament.selectors import round_numbered, tournament_with_pk
from tournament.services.files import FileRequest, produce_file

Kind = ProducedFile.Kind
FILE_PARTS = {  # kind: the file name's end after "<slug>-round-<number>-"
    Kind.SEATING_BY_TABLE: "seating",
    Kind.SEATING_ALPHABETICAL: "where-do-i-sit",
    Kind.SCORE_SHEETS: "score-sheets",
    Kind.TABLE_CARDS: "table-cards",
}
PAGE_A_TABLE = {Kind.SCORE_SHEETS, Kind.TABLE_CARDS}

# WeasyPrint logs "Step 5 - Creating layout - Page %d" on this logger for each page it lays out.
LAYOUT_PAGE = "Step 5 - Creating layout - Page %d"
weasyprint_progress = logging.getLogger("weasyprint.progress")
weasyprint_progress.setLevel(logging.INFO)
weasyprint_progress.propagate = False  # read by `pages_laid_out` only, never written to the logs


def seating_pdf(round_, tables, kind):
    """The seating by table or the alphabetical "where do I sit" list of a round's `tables`."""
    context = {"tournament": round_.tournament, "round": round_}
    if kind == Kind.SEATING_BY_TABLE:
        context.update(title=_("Seating by table: %(round)s") % {"round": round_}, tables=tables)
        return render_pdf("printing/seating_by_table.html", context)
    context.update(
        title=_("Where do I sit? %(round)s") % {"round": round_}, placements=documents.alphabetical_placements(tables)
    )
    return render_pdf("printing/seating_alphabetical.html", context)


def sheet_context(tournament, **extra):
    places = ", ".join(str(points) for points in tournament.big_point_places)
    tournament_fit = documents.fit(tournament.name, documents.SHEET_TOURNAMENT_STEPS)
    return {"tournament": tournament, "tournament_fit": tournament_fit, "big_point_places": places, **extra}


def score_sheets_pdf(round_, tables, venue_base):
    """Pre-filled sheets of `tables`, with QR codes to the venue address (None: paper only)."""
    absolute_url = (lambda path: venue_base + path) if venue_base else None
    pages = documents.score_sheet_pages(round_, tables, absolute_url)
    forms, page_forms = documents.distinct_forms([page.form for page in pages])
    title = _("Score sheets: %(round)s") % {"round": round_}
    context = sheet_context(
        round_.tournament, round=round_, title=title, pages=pages, forms=forms, paper_only=venue_base is None
    )
    return render_layered_pdf(
        "printing/score_sheet_forms.html", "printing/score_sheet_fill_in.html", context, page_forms
    )


def table_cards_pdf(round_, tables, venue_base):
    tournament = round_.tournament
    context = {"tournament": tournament, "title": _("Table cards"), "tables": tables}
    if venue_base is None:
        context["paper_only"] = True
    else:
        public_url = venue_base + reverse("public:tournament", args=[tournament.slug])
        context.update(public_url=public_url, public_qr_code=documents.table_qr_code(public_url))
    return render_pdf("printing/table_cards.html", context)


def file_request(round_, kind, source_path, version, venue_base=None):
    """What a download of a round's batch PDF asks for (the venue address matters to sheets and cards)."""
    return FileRequest(
        kind=kind,
        file_name=f"{round_.tournament.slug}-round-{round_.number}-{FILE_PARTS[kind]}.pdf",
        content_type="application/pdf",
        source_path=source_path,
        version=version,
        arguments={"round": round_.number, "venue": venue_base, "language": translation.get_language()},
    )


@task()
def make_round_pdf(file_id):
    produce_file(file_id, _make)


def _make(produced, progress):
    arguments = produced.arguments
    with translation.override(arguments["language"]):
        round_ = round_numbered(tournament_with_pk(produced.tournament_id), arguments["round"])
        if round_ is None:
            raise LookupError(f"round {arguments['round']} is gone")
        tables = selectors.round_tables(round_)
        progress(0, len(tables))
        if produced.kind in PAGE_A_TABLE:
            with pages_laid_out(lambda page: progress(page, len(tables))):
                render = score_sheets_pdf if produced.kind == Kind.SCORE_SHEETS else table_cards_pdf
                return render(round_, tables, arguments["venue"])
        return seating_pdf(round_, tables, produced.kind)


class _PagesLaidOut(logging.Handler):
    def __init__(self, report):
        super().__init__(logging.INFO)
        self.thread = threading.get_ident()
        self.report = report
        self.most = 0

    def emit(self, record):
        if record.thread == self.thread and record.msg == LAYOUT_PAGE and record.args:
            page = record.args[0] if isinstance(record.args, tuple) else 0
            if isinstance(page, int) and page > self.most:  # the forms come first, then the pages
                self.most = page
                self.report(page)


@contextmanager
def pages_laid_out(report):
    """Calls `report(n)` as WeasyPrint, in this thread, lays out a page numbered higher than any so far."""
    handler = _PagesLaidOut(report)
    weasyprint_progress.addHandler(handler)
    try:
        yield
    finally:
        weasyprint_progress.removeHandler(handler)

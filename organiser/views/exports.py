"""Results and exports: the organiser's page with the downloads, and the downloads themselves."""

import io

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from accounts.models import Role
from accounts.roles import staff_required
from organiser.exports.csvfile import csv_bytes
from organiser.exports.spreadsheet import write_workbook
from organiser.result_tables import rounds_table, standings_table, workbook_tables
from organiser.results_site import write_site
from scoring.completion import unverified_sheets

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _bytes(write, *args):
    """What `write(*args, out)` writes to a file, as bytes."""
    out = io.BytesIO()
    write(*args, out)
    return out.getvalue()


EXPORTS = {  # file name after the slug: (content type, how the bytes are made)
    "results.xlsx": (XLSX, lambda t: _bytes(write_workbook, workbook_tables(t))),
    "standings.csv": ("text/csv; charset=utf-8", lambda t: csv_bytes(standings_table(t))),
    "rounds.csv": ("text/csv; charset=utf-8", lambda t: csv_bytes(rounds_table(t))),
    "results-site.zip": ("application/zip", lambda t: _bytes(write_site, t)),
}


@staff_required(Role.ORGANISER)
@require_GET
def exports_page(request, tournament):
    return render(request, "organiser/exports.html", {
        "tournament": tournament, "unverified": unverified_sheets(tournament),
    })


@staff_required(Role.ORGANISER)
@require_GET
def export_file(request, tournament, name):
    if name not in EXPORTS:
        raise Http404("no such export")
    content_type, make = EXPORTS[name]
    response = HttpResponse(make(tournament), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-{name}"'
    response["Cache-Control"] = "no-store"
    return response

"""The organiser's entries page (SPEC §11): every entry with its state, contact and consent;
refusing one with a reason; closing the entries early; the CSV and XLSX export. Only the
organisation's organisers see it (the contact details are theirs alone)."""

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from accounts.models import Role
from accounts.roles import staff_required
from organiser import entry_selectors
from organiser.entry_forms import RefuseEntryForm
from organiser.exports.downloads import CSV, XLSX
from organiser.exports.entries import entries_table
from organiser.exports.writers.csvfile import csv_bytes
from organiser.exports.writers.spreadsheet import workbook_bytes
from organiser.models import Entry
from organiser.services import entries as entry_services
from organiser.views.common import posted_data, redirect_after_post, staff_url
from tournament.refusals import Refused
from tournament.services.mail import mail_configured

ENTRY_FILES = {
    "entries.csv": (CSV, lambda tournament: csv_bytes(entries_table(tournament))),
    "entries.xlsx": (XLSX, lambda tournament: workbook_bytes([entries_table(tournament)])),
}


def _rows(tournament):
    """Each entry with its place on the waiting list and its links (to pass on without mail)."""
    places = {entry.pk: place for place, entry in enumerate(entry_selectors.waiting_list(tournament), start=1)}
    rows = []
    for entry in entry_selectors.entries_of(tournament):
        entry.tournament = tournament
        links = entry_services.entry_links(entry)
        rows.append({"entry": entry, "place": places.get(entry.pk), "links": links})
    return rows


@staff_required(Role.ORGANISER)
def entries_page(request, tournament):
    """The entries; `?refuse=<id>` asks for the reason on the page; POST refuses."""
    refusing = request.GET.get("refuse") or request.POST.get("entry")
    chosen = entry_selectors.entry_of_tournament(tournament, int(refusing)) if str(refusing).isdigit() else None
    form = RefuseEntryForm(posted_data(request))
    if request.method == "POST":
        if chosen is None:
            raise Http404("no such entry")
        if form.is_valid():
            try:
                entry_services.refuse_entry(chosen, reason=form.cleaned_data["reason"], user=request.user)
            except Refused as refusal:
                form.add_error("reason", refusal.message)
            else:
                messages.success(request, _("The entry has been refused; its contact is told why by e-mail."))
                return redirect_after_post(request, staff_url("entries", tournament))
    context = {
        "tournament": tournament,
        "rows": _rows(tournament),
        "refusing": chosen if chosen is not None and chosen.state in Entry.HOLDING else None,
        "form": form,
        "mail_configured": mail_configured(),
        "mail": entry_selectors.waiting_mail(tournament),
        "open": entry_services.entries_open(tournament),
    }
    return render(request, "organiser/entries.html", context)


@require_POST
@staff_required(Role.ORGANISER)
def entries_close(request, tournament):
    entry_services.close_entries(tournament, user=request.user)
    messages.success(request, _("Entries are closed."))
    return redirect_after_post(request, staff_url("entries", tournament))


@staff_required(Role.ORGANISER)
@require_safe
def entries_file(request, tournament, name):
    if name not in ENTRY_FILES:
        raise Http404("no such file")
    content_type, make = ENTRY_FILES[name]
    response = HttpResponse(make(tournament), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-{name}"'
    response["Cache-Control"] = "no-store"
    return response

"""The public entry pages (SPEC §11): an organisation enters its player, the contact confirms
from the e-mail's link, and the entry's own link shows it and withdraws it.

Links from e-mails open with GET and change nothing (mail programs and scanners open links by
themselves); the buttons on the pages POST. The pages speak the browser's language.
"""

from django.conf import settings
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from accounts.client_address import client_address
from organiser import entry_selectors
from organiser.entry_forms import EntryForm
from organiser.models import Entry
from organiser.services import entries as entry_services
from tournament.refusals import Refused
from tournament.selectors import tournament_or_404


def _site(request):
    """The address the e-mails' links use: PUBLIC_URL, else the one this request reached."""
    return settings.PUBLIC_URL or request.build_absolute_uri("/")


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def entry_form(request, slug):
    """The entry form; a sent entry leads to the page saying to look for the e-mail."""
    tournament = tournament_or_404(slug)
    closed = entry_services.entries_refusal(tournament, timezone.now())
    form = EntryForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and closed is None and form.is_valid():
        if form.is_robot:  # the hidden field was filled in: say the same as for a person, store nothing
            return redirect(reverse("public:entry_sent", args=[slug]))
        try:
            entry_services.submit_entry(
                tournament,
                form.entry(),
                form_key=form.cleaned_data["form_key"],
                client=client_address(request),
                site=_site(request),
            )
        except Refused as refusal:
            form.add_error(refusal.field if refusal.field in form.fields else None, refusal.message)
        else:
            return redirect(reverse("public:entry_sent", args=[slug]))
    context = {"tournament": tournament, "form": form, "closed": closed}
    return render(request, "public/entry_form.html", context)


@require_safe
def entry_sent(request, slug):
    tournament = tournament_or_404(slug)
    return render(request, "public/entry_sent.html", {"tournament": tournament})


def _entry_or_404(tournament, token):
    entry = entry_selectors.entry_by_token(tournament, token)
    if entry is None:
        raise Http404("no such entry")
    return entry


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def entry_confirm(request, slug, token):
    """The e-mail's confirmation link: a button that confirms (GET only shows it)."""
    tournament = tournament_or_404(slug)
    entry = _entry_or_404(tournament, token)
    refusal = None
    if request.method == "POST":
        try:
            entry_services.confirm_entry(entry)
        except Refused as error:
            refusal = error
        else:
            return redirect(reverse("public:entry_detail", args=[slug, token]))
    context = {"tournament": tournament, "entry": entry, "refusal": refusal}
    return render(request, "public/entry_confirm.html", context)


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def entry_detail(request, slug, token):
    """The entry's own page: its state (the waiting list's place) and the withdrawal."""
    tournament = tournament_or_404(slug)
    entry = _entry_or_404(tournament, token)
    refusal = None
    asking = request.GET.get("withdraw") == "1" and entry.state in Entry.HOLDING
    if request.method == "POST":
        try:
            entry = entry_services.withdraw_entry(entry)
        except Refused as error:
            refusal = error
        else:
            return redirect(reverse("public:entry_detail", args=[slug, token]))
    place = entry_selectors.waiting_place(entry) if entry.state == Entry.State.WAITING else None
    context = {"tournament": tournament, "entry": entry, "place": place, "refusal": refusal, "asking": asking}
    return render(request, "public/entry_detail.html", context)

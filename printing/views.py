"""PDF downloads for staff and the public, and the organiser's print menu.

Staff PDFs need the head referee role (organisers outrank it); public PDFs obey
`scoring.selectors.visibility` (SPEC §8) and show only published seatings. A document that cannot be
right yet (no seating, results not final, hidden results) is a message page instead.
"""

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from accounts import venue_check
from accounts.devices import sign_in_url
from accounts.forms import DeviceSheetForm
from accounts.help import BY_SLUG
from accounts.models import Role
from accounts.roles import staff_required
from accounts.selectors import active_link_count, organised_season_or_404
from accounts.services import create_device_sheet
from accounts.venue import venue_address
from printing import batches, documents, selectors
from printing.render import html_to_pdf, render_layered_pdf, render_pdf
from scoring.selectors.seasons import season_table
from scoring.selectors.sheets import results_are_final
from scoring.selectors.standings import compute_standings
from scoring.selectors.visibility import public_scope, public_standings
from tournament.models import ProducedFile
from tournament.navigation import produced_file_answer
from tournament.selectors import data_version, round_or_404, season_or_404, tournament_or_404
from tournament.services.files import ask_for_file

STAFF = Role.HEAD_REFEREE
Kind = ProducedFile.Kind
# `address=loopback` in a request: print a loopback address anyway (offered by the device sheet's
# warning page; score sheets and table cards are otherwise printed on paper only).
PRINT_ANYWAY = ("address", "loopback")


def pdf_response(pdf, filename, *, cache_control="private, no-cache"):
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = cache_control
    return response


def public_pdf_response(pdf, filename):
    return pdf_response(pdf, filename, cache_control="no-cache")


def message_response(request, tournament, message, *, status=409):
    """A page explaining why the document is not available (instead of a wrong PDF)."""
    return render(request, "printing/message.html", {"tournament": tournament, "message": message}, status=status)


def before_printing(request, tournament, *, venue, hidden=(), earlier_field=None, earlier_count=0, status=409):
    """The page shown instead of a PDF: a warning about the venue address and/or the question
    about earlier device links; its button asks for the PDF again with the answers."""
    context = {
        "tournament": tournament,
        "venue": venue,
        "method": "post" if request.method == "POST" else "get",
        "hidden": list(hidden) + ([PRINT_ANYWAY] if venue.loopback else []),
        "earlier_field": earlier_field,
        "earlier_count": earlier_count,
    }
    return render(request, "printing/before_printing.html", context, status=status)


def links_venue(request, tournament):
    """The venue address for a PDF's QR codes and links, or None for paper only: when only this
    computer could open them (the server runs on 127.0.0.1, say the evening before, or at an
    event without tablets) and the organiser has not chosen to print that address anyway."""
    venue = venue_address(request, tournament)
    data = request.POST if request.method == "POST" else request.GET
    if venue.loopback and data.get(PRINT_ANYWAY[0]) != PRINT_ANYWAY[1]:
        return None
    return venue


def _no_seating(request, round_):
    return message_response(request, round_.tournament, _("%(round)s has no seating yet.") % {"round": round_})


def _round_batch(request, tournament, number, kind, venue=None):
    """A round's batch PDF: the file made already, or its progress page while a task makes it."""
    round_ = round_or_404(tournament, number)
    if not selectors.round_has_tables(round_):
        return _no_seating(request, round_)
    version = data_version(tournament)
    asked = batches.file_request(round_, kind, request.get_full_path(), version, venue.base if venue else None)
    return produced_file_answer(ask_for_file(tournament, asked, batches.make_round_pdf))


# ---------------------------------------------------------------- seating


@staff_required(STAFF)
def seating(request, tournament, number, kind):
    return _round_batch(request, tournament, number, kind)


def public_seating(request, slug, number, kind):
    """A seating the public may see: only once the round is published."""
    round_ = round_or_404(tournament_or_404(slug), number)
    tables = selectors.round_tables(round_) if round_.state in documents.PUBLIC_ROUND_STATES else []
    if not tables:
        return _no_seating(request, round_)
    name = f"{round_.tournament.slug}-round-{round_.number}-{batches.FILE_PARTS[kind]}.pdf"
    return public_pdf_response(batches.seating_pdf(round_, tables, kind), name)


# ---------------------------------------------------------------- score sheets and table cards


@staff_required(STAFF)
def score_sheets(request, tournament, number):
    """Pre-filled sheets for every table of a round."""
    return _round_batch(request, tournament, number, Kind.SCORE_SHEETS, links_venue(request, tournament))


@staff_required(STAFF)
def table_score_sheet(request, tournament, number, table_number):
    """The pre-filled sheet of one table (made at once)."""
    round_ = round_or_404(tournament, number)
    tables = selectors.round_tables(round_)
    if not tables:
        return _no_seating(request, round_)
    tables = [table for table in tables if table.number == table_number]
    if not tables:
        raise Http404
    venue = links_venue(request, tournament)
    pdf = batches.score_sheets_pdf(round_, tables, venue.base if venue else None)
    return pdf_response(pdf, f"{tournament.slug}-round-{number}-table-{table_number}-score-sheet.pdf")


@staff_required(STAFF)
def blank_score_sheet(request, tournament):
    context = batches.sheet_context(tournament, title=_("Score sheet"), forms=[documents.blank_score_sheet_form()])
    pdf = render_pdf("printing/score_sheet_forms.html", context)
    return pdf_response(pdf, f"{tournament.slug}-blank-score-sheet.pdf")


@staff_required(STAFF)
def table_cards(request, tournament, number):
    return _round_batch(request, tournament, number, Kind.TABLE_CARDS, links_venue(request, tournament))


# ---------------------------------------------------------------- standings


def _standings_pdf(tournament, rows, title, *, medals):
    """`medals`: the places are final, so the first three wear their medal (issue 48.1)."""
    context = {
        "tournament": tournament,
        "rows": rows,
        "title": title,
        "medals": medals,
        "subtitle": _("As of %(time)s. Verified score sheets only.")
        % {"time": date_format(timezone.localtime(), "DATETIME_FORMAT")},
    }
    return render_pdf("printing/standings.html", context)


def _standings_title(final):
    return _("Final standings") if final else _("Current standings")


@staff_required(STAFF)
def standings(request, tournament):
    final = results_are_final(tournament)
    pdf = _standings_pdf(tournament, compute_standings(tournament), _standings_title(final), medals=final)
    return pdf_response(pdf, f"{tournament.slug}-standings.pdf")


def public_standings_pdf(request, slug):
    """The standings the public may see (SPEC §8); refused while the results are hidden."""
    tournament = tournament_or_404(slug)
    rows = public_standings(tournament)
    if rows is None:
        return message_response(
            request, tournament, _("The results are hidden until the end of the tournament."), status=403
        )
    scope = public_scope(tournament)
    final = scope.up_to_round is None and results_are_final(tournament)
    if scope.up_to_round == 0:
        title = _("Standings before the first round")
    elif scope.up_to_round is not None:
        title = _("Standings after round %(number)s") % {"number": scope.up_to_round}
    else:
        title = _standings_title(final)
    return public_pdf_response(
        _standings_pdf(tournament, rows, title, medals=final), f"{tournament.slug}-standings.pdf"
    )


# ---------------------------------------------------------------- diplomas


def _diplomas_pdf(tournament, title, recipients):
    forms, page_forms = documents.distinct_forms([recipient.form for recipient in recipients])
    context = {
        "tournament": tournament,
        "title": title,
        "recipients": recipients,
        "forms": forms,
        "tournament_fit": documents.fit(tournament.name, documents.DIPLOMA_TOURNAMENT_STEPS),
    }
    return render_layered_pdf("printing/diploma_forms.html", "printing/diploma_fill_in.html", context, page_forms)


@staff_required(STAFF)
def medal_diplomas(request, tournament):
    reason = documents.results_not_final_reason(tournament)
    if reason is None:
        recipients, reason = documents.medallists(compute_standings(tournament))
    if reason:
        return message_response(request, tournament, reason)
    return pdf_response(_diplomas_pdf(tournament, _("Diplomas"), recipients), f"{tournament.slug}-diplomas.pdf")


@staff_required(STAFF)
def participation_certificates(request, tournament):
    reason = documents.results_not_final_reason(tournament)
    if reason:
        return message_response(request, tournament, reason)
    recipients = documents.participants(selectors.players_who_sat(tournament))
    pdf = _diplomas_pdf(tournament, _("Certificates of participation"), recipients)
    return pdf_response(pdf, f"{tournament.slug}-certificates.pdf")


# ---------------------------------------------------------------- referee devices


def device_sheet_pdf(tournament, links):
    """The referee device sheet: a QR code with its label for each (label, absolute URL) pair.

    The links sign devices in, so the PDF bypasses the PDF cache: no copy is kept anywhere.
    """
    codes = [{"label": label, "url": url, "qr_code": documents.qr_data_uri(url)} for label, url in links]
    context = {"tournament": tournament, "title": _("Referee devices"), "links": codes}
    return html_to_pdf(render_to_string("printing/device_sheet.html", context))


@staff_required(Role.ORGANISER)
def device_sheet(request, tournament):
    """POST: create numbered device links and print them (the only time their tokens exist).

    Asks first, on a page of its own, what happens to the earlier links that still work, and
    warns when the links would carry a loopback address. GET answers with a message pointing
    to the form on the device links page.
    """
    form = DeviceSheetForm(request.POST or None)
    if request.method != "POST":
        return message_response(
            request,
            tournament,
            _("Create the links on the tablets page: the sheet is printed as they are made."),
            status=200,
        )
    if not form.is_valid():
        return message_response(request, tournament, _("Check the number of tablets and how long the links are valid."))
    venue = venue_address(request, tournament)
    earlier = form.cleaned_data["earlier"]
    earlier_count = active_link_count(tournament)
    if (earlier_count and not earlier) or (venue.loopback and request.POST.get(PRINT_ANYWAY[0]) != PRINT_ANYWAY[1]):
        hidden = [(name, form.cleaned_data[name]) for name in ("label", "valid_hours", "count")]
        return before_printing(
            request,
            tournament,
            venue=venue,
            hidden=hidden,
            status=200,
            earlier_field=form["earlier"] if earlier_count else None,
            earlier_count=earlier_count,
        )
    made = create_device_sheet(
        tournament,
        label=form.cleaned_data["label"],
        count=form.cleaned_data["count"],
        valid_hours=form.cleaned_data["valid_hours"],
        earlier=earlier,
        created_by=request.user,
    )
    links = [(link.label, sign_in_url(request, tournament, token)) for link, token in made]
    # The sheet carries sign-in links: never keep a copy in any cache.
    return pdf_response(device_sheet_pdf(tournament, links), f"{tournament.slug}-devices.pdf", cache_control="no-store")


# ---------------------------------------------------------------- the print menu


@staff_required(Role.ORGANISER)
def index(request, tournament):
    """Every PDF of the tournament, one click each, per round."""
    venue = venue_address(request, tournament)
    context = {
        "tournament": tournament,
        "rounds": selectors.rounds_with_table_numbers(tournament),
        "public_states": documents.PUBLIC_ROUND_STATES,
        "results_visible": public_scope(tournament).visible,
        "diplomas_reason": documents.results_not_final_reason(tournament),
        "venue": venue,
        "venue_check": venue_check.check_venue(venue),
    }
    return render(request, "printing/index.html", context)


# ---------------------------------------------------------------- the staff help


@require_safe
def help_pdf(request, role):
    """A role's help page on A4, to keep at the referees' table: the same content as the page
    (public.views.help_page), in the language of the request. Nothing secret: anyone may print it."""
    page = BY_SLUG[role]
    pdf = render_pdf("printing/help.html", {"page": page, "title": page.title})
    return public_pdf_response(pdf, f"help-{page.slug}-{get_language()}.pdf")


# ---------------------------------------------------------------- a season's table


def _season_pdf(table):
    now = date_format(timezone.localtime(), "DATETIME_FORMAT")
    if table.public:
        subtitle = _("As of %(time)s. Public results only.") % {"time": now}
    else:
        subtitle = _("As of %(time)s. Staff copy: includes results not yet public.") % {"time": now}
    context = {"season": table.season, "table": table, "title": table.season.name, "subtitle": subtitle}
    return render_pdf("printing/season.html", context)


@login_required
def season_standings(request, season):
    """The season's table with every finished tournament (its organisation's organisers)."""
    season = organised_season_or_404(request.user, season)
    return pdf_response(_season_pdf(season_table(season, public=False)), f"{season.slug}-season.pdf")


@require_safe
def season_public(request, season):
    """The season's table the public may see: only the tournaments whose results are public."""
    season = season_or_404(season)
    return public_pdf_response(_season_pdf(season_table(season, public=True)), f"{season.slug}-season.pdf")

"""The referee pages of a round: its tables, each score sheet, saving games, submitting,
verifying, scores set by hand and the sheet's log.

htmx requests get fragments (always status 200, so htmx swaps them); plain form posts get the
whole page, or a redirect after a successful change.
"""

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import Role
from scoring.forms import OverrideForm, keypad_key_pressed
from scoring.selectors import sheets as selectors
from scoring.services import sheets as services
from scoring.services.entry import InvalidGame, check_game
from scoring.views.access import load_table, referee_view
from scoring.views.audit_log import describe_entry
from scoring.views.sheet_page import answer, game_number_or_404, posted_game, render_sheet, sheet_page
from tournament.models import Round
from tournament.navigation import htmx_or_page
from tournament.refusals import Refused
from tournament.selectors import current_round, playing_clock


@referee_view()
def referee_home(request, tournament, round_number=None):
    """The current round's tables as big buttons with the sheet state (or another round's)."""
    rounds = selectors.referee_rounds(tournament)
    if round_number is None:
        round_ = current_round(tournament)
    else:
        round_ = next((r for r in rounds if r.number == round_number), None)
        if round_ is None:
            raise Http404
    tables = selectors.round_tables(round_) if round_ is not None else []
    completed = [r for r in rounds if r.state == Round.State.COMPLETED]
    context = {
        "tournament": tournament,
        "round": round_,
        "rounds": rounds,
        "tables": tables,
        "last_completed": completed[-1] if completed else None,
        "finished": round_ is None and bool(completed) and selectors.results_are_final(tournament),
        "clock": playing_clock(tournament),
    }
    return render(request, "scoring/home.html", context)


@referee_view()
def sheet_view(request, tournament, round_number, table_number):
    page = sheet_page(request, tournament, round_number, table_number)
    return render_sheet(request, page)


@require_POST
@referee_view()
def game_preview(request, tournament, round_number, table_number, game_number):
    """Score what has been entered so far (nothing is saved): the game with scores or errors."""
    return preview(request, tournament, round_number, table_number, game_number)


def preview(request, tournament, round_number, table_number, game_number):
    page, number, form = posted_game(request, tournament, round_number, table_number, game_number)
    if not page.editable:
        return refuse(request, page, number, Refused("sheet_verified"))
    checked = check_game(form.entered_game(), page.settings, require_complete=False)
    entry = page.bind(number, form, "unsaved", checked)
    entry.force_open = True
    if entry.matches_stored():
        entry.status = "saved"
    return answer(request, page, entry)


@require_POST
@referee_view()
def game_save(request, tournament, round_number, table_number, game_number):
    """Save one game: the form parses it, the service checks it once with the rules engine and
    stores it (compare-and-swap on the sheet version); the page shows what the service returned.

    A keypad key pressed without JavaScript posts the form here too (the keys carry no address of
    their own, to keep the page light): it saves nothing and answers as the preview does."""
    if keypad_key_pressed(request.POST):
        return preview(request, tournament, round_number, table_number, game_number)
    page, number, form = posted_game(
        request, tournament, round_number, table_number, game_number, require_complete=True
    )
    entered = form.entered_game()
    if form.errors:
        return show_unsaved(request, page, number, form, check_game(entered, page.settings))
    try:
        saved = services.save_entered_game(
            page.sheet,
            number,
            entered,
            version=form.cleaned_data["version"],
            user=request.user,
            role=request.role,
            reason=form.cleaned_data["reason"],
            games=page.games,
        )
    except services.EditConflict as conflict:
        return show_conflict(request, page, number, form, conflict)
    except InvalidGame as invalid:
        return show_unsaved(request, page, number, form, invalid.checked)
    except Refused as refusal:
        return refuse(request, page, number, refusal)
    return saved_response(request, page.show_saved(saved), number)


def show_unsaved(request, page, number, form, checked):
    """Nothing was saved: the values sent, with their errors and what they score."""
    return answer(request, page, page.bind(number, form, "unsaved", checked))


def saved_response(request, page, number):
    """After a save: the saved game with the new totals (htmx), or back to the sheet."""
    return htmx_or_page(
        request, lambda: show_saved(request, page, number), lambda: back_to_sheet(request, page, number)
    )


def show_saved(request, page, number):
    entry = page.entry(number)
    entry.status = "just_saved"
    return answer(request, page, entry, saved=True)


def back_to_sheet(request, page, number):
    messages.success(request, _("Game %(number)s saved.") % {"number": number})
    following = page.current_number
    return redirect(f"{page.url('sheet')}#{f'game-{following}' if following else 'sheet-summary'}")


def show_conflict(request, page, number, form, conflict):
    """The later save is refused: show, next to the save button, what the other tablet saved
    beside this tablet's values, which stay in the form.

    The form moves on to the current version, so saving it again puts these values in place of
    the saved ones (the message says so).
    """
    page.show(conflict.sheet, conflict.games)
    entry = page.bind(number, form, "conflict", conflict.checked, version=page.sheet.version)
    changes = [describe_entry(change, page.players) for change in conflict.changes]
    entry.conflict = page.conflict(entry, changes, conflict.checked)
    return answer(request, page, entry, status=409, with_version=True)


def refuse(request, page, number, refusal):
    """A change this user may not make (e.g. a referee on a verified sheet): say so, change nothing."""
    entry = page.entry(number)

    def in_the_game():
        entry.refusal = refusal.message
        return answer(request, page, entry)

    def on_the_page():
        messages.error(request, refusal.message)
        return answer(request, page, entry, status=403)

    return htmx_or_page(request, in_the_game, on_the_page)


@require_POST
@referee_view()
def sheet_submit(request, tournament, round_number, table_number):
    page = sheet_page(request, tournament, round_number, table_number)
    return sheet_transition(request, page, services.submit_sheet, _("The sheet has been submitted."))


@require_POST
@referee_view(Role.HEAD_REFEREE)
def sheet_verify(request, tournament, round_number, table_number):
    page = sheet_page(request, tournament, round_number, table_number)
    return sheet_transition(request, page, services.verify_sheet, _("The sheet has been verified."), role=request.role)


def posted_version(request):
    try:
        return int(request.POST.get("version", ""))
    except ValueError:
        return -1


def sheet_transition(request, page, service, success, **options):
    try:
        service(page.sheet, version=posted_version(request), user=request.user, **options)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, success)
    return redirect(page.url("sheet"))


@require_POST
@referee_view(Role.HEAD_REFEREE)
def score_override(request, tournament, round_number, table_number, game_number):
    """The head referee sets a seat's score by hand, with a reason (SPEC: overrides are logged)."""
    page = sheet_page(request, tournament, round_number, table_number)
    number = game_number_or_404(page, game_number)
    entry = page.entry(number)
    if entry.stored is None:
        raise Http404
    form = OverrideForm(request.POST, letters=page.letters, prefix=f"o{number}")
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.override_score(
                page.sheet,
                entry.stored,
                data["seat"],
                data["score"],
                reason=data["reason"],
                version=data["version"],
                user=request.user,
                role=request.role,
            )
        except Refused as refusal:
            form.add_error(refusal.field if refusal.field in form.fields else None, refusal.message)
        else:
            messages.success(request, _("The score has been changed."))
            return redirect(f"{page.url('sheet')}#game-{number}")
    entry.override_form = form
    return render_sheet(request, page)


@referee_view()
def sheet_log(request, tournament, round_number, table_number):
    """Every change of one sheet: who, when, before, after, reason."""
    table, sheet = load_table(tournament, round_number, table_number)
    players = selectors.seated_players(table)
    context = {
        "tournament": tournament,
        "table": table,
        "sheet": sheet,
        "changes": [describe_entry(entry, players) for entry in selectors.sheet_log(sheet)],
    }
    return render(request, "scoring/log.html", context)

"""The players: the list with check-in, one player's page and actions, the file import."""

from collections import Counter

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from accounts.models import Role
from accounts.roles import outranks, staff_required
from organiser import importers, selectors, services
from organiser.forms import ImportForm, PlayerForm
from organiser.person_forms import ask_person
from organiser.views.common import confirmed, posted_data, question, redirect_after_post, staff_url
from tournament.models import Player
from tournament.navigation import return_path
from tournament.refusals import Refused
from tournament.selectors import last_started_number, player_or_404


def _players_context(tournament, form=None):
    players = selectors.players_by_surname(tournament)
    started = last_started_number(tournament)
    statuses = Counter(p.status for p in players)
    present = sum(1 for p in players if p.present and p.status == Player.Status.ACTIVE)
    return {
        "tournament": tournament,
        "players": players,
        "namesakes": selectors.namesakes(players),
        "respell": [found for found in selectors.recognised_players(tournament) if found.differs],
        "duplicates": selectors.likely_duplicates(tournament.host_id),
        "form": form or _add_form(None, started),
        "organisations": selectors.organisation_names(tournament),
        "started": started,
        "next_round": started + 1,
        **_counts(statuses, present),
    }


def _counts(statuses, present):
    """The numbers over the list (registered, checked in, withdrawn, disqualified)."""
    return {
        "registered_count": statuses.total(),
        "present_count": present,
        "active_count": statuses[Player.Status.ACTIVE],
        "withdrawn_count": statuses[Player.Status.WITHDRAWN],
        "disqualified_count": statuses[Player.Status.DISQUALIFIED],
    }


def _show_refusal(request, form, refusal):
    """A refusal next to its field; when unsure who the player is, the form asks (the people's
    years of birth and tournament counts for the organisation's organisers only)."""
    if "candidates" in refusal.params:
        ask_person(form, refusal.params["candidates"], details=outranks(request.organisation_role, Role.ORGANISER))
    form.add_refusal(refusal)


def _add_form(data, started):
    """The form to add a player; once round 1 has started it asks whether the player is here."""
    return PlayerForm(data, late_round=started + 1 if started else None)


@staff_required(Role.ORGANISER)
def player_list(request, tournament):
    """The players in surname order (Polish alphabetical), with a form to add one."""
    form = _add_form(posted_data(request), last_started_number(tournament))
    if request.method == "POST" and form.is_valid():
        try:
            player = services.add_player(
                tournament,
                surname=form.cleaned_data["surname"],
                given_names=form.cleaned_data["given_names"],
                organisation=form.cleaned_data["organisation"],
                present=form.present(),
                person=form.cleaned_data["person"],
                user=request.user,
            )
        except Refused as refusal:
            _show_refusal(request, form, refusal)
        else:
            added = {"name": player.name, "number": player.start_number, "round": player.joins_from_round}
            if player.joins_from_round:
                messages.success(
                    request, _("%(name)s has start number %(number)s and plays from round %(round)s.") % added
                )
            else:
                messages.success(request, _("%(name)s has start number %(number)s.") % added)
            _report_recognised(request, tournament, [player])
            return redirect_after_post(request, staff_url("players", tournament))
    context = _players_context(tournament, form)
    if request.htmx and request.method == "POST":
        return render(request, "organiser/players.html#add-player", context)
    return render(request, "organiser/players.html", context)


@staff_required(Role.ORGANISER)
def player_detail(request, tournament, pk):
    """Edit a player's surname, given names or organisation; check in, withdraw, reinstate or remove."""
    player = player_or_404(tournament, pk=pk)
    initial = {"surname": player.surname, "given_names": player.given_names, "organisation": player.organisation.name}
    form = PlayerForm(posted_data(request), initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.edit_player(
                player,
                surname=form.cleaned_data["surname"],
                given_names=form.cleaned_data["given_names"],
                organisation=form.cleaned_data["organisation"],
                person=form.cleaned_data["person"],
                user=request.user,
            )
        except Refused as refusal:
            _show_refusal(request, form, refusal)
        else:
            messages.success(request, _("The changes have been saved."))
            return redirect_after_post(request, staff_url("players", tournament))
    context = {
        "tournament": tournament,
        "player": player,
        "form": form,
        "started": last_started_number(tournament),
        "organisations": selectors.organisation_names(tournament),
        "confirm": question(request, ASKED_FIRST) if request.method == "GET" else None,
    }
    if request.htmx and request.method == "POST":
        return render(request, "organiser/player_detail.html#player-form", context)
    return render(request, "organiser/player_detail.html", context)


PLAYER_ACTIONS = {
    "check-in": lambda player, user: services.set_present(player, present=True, user=user),
    "check-out": lambda player, user: services.set_present(player, present=False, user=user),
    "withdraw": lambda player, user: services.withdraw_player(player, user=user),
    "reinstate": lambda player, user: services.reinstate_player(player, user=user),
    "remove": lambda player, user: services.remove_player(player, user=user),
}
# Withdrawing (undone by reinstating) and removing (for good) ask first on the player's page.
ASKED_FIRST = ("withdraw", "remove")
PLAYER_ACTION_DONE = {
    "check-in": gettext_lazy("%(name)s is checked in."),
    "check-out": gettext_lazy("%(name)s is no longer checked in."),
    "withdraw": gettext_lazy("%(name)s has withdrawn and will not be seated again."),
    "reinstate": gettext_lazy("%(name)s plays again from the next draw."),
    "remove": gettext_lazy("%(name)s has been removed."),
}


@require_POST
@staff_required(Role.ORGANISER)
def player_action(request, tournament, pk, action):
    """One click on a player: from the list (htmx swaps the row, and the counts over the list
    out of band) or from the player's page. Withdrawing or removing asks first, on the player's page."""
    if action not in PLAYER_ACTIONS:
        raise PermissionDenied
    player = player_or_404(tournament, pk=pk)
    if action in ASKED_FIRST and not confirmed(request, action):
        return redirect_after_post(
            request, f"{staff_url('player', tournament, player.pk)}?confirm={action}#player-question"
        )
    refusal = None
    try:
        PLAYER_ACTIONS[action](player, request.user)
    except Refused as error:
        refusal = error.message
    if request.htmx and request.POST.get("row") and action != "remove":
        player.refresh_from_db()
        started = last_started_number(tournament)
        context = {
            "tournament": tournament,
            "player": player,
            "refusal": refusal,
            "started": started,
            "next_round": started + 1,
            "oob": True,
            "duplicates": selectors.likely_duplicates(tournament.host_id),
            **_counts(*selectors.player_counts(tournament)),
        }
        return render(request, "organiser/players.html#row-answer", context)
    if refusal:
        messages.error(request, refusal)
    else:
        messages.success(request, PLAYER_ACTION_DONE[action] % {"name": player.name})
    return redirect_after_post(
        request, return_path(request, request.POST.get("next"), staff_url("players", tournament))
    )


@require_POST
@staff_required(Role.ORGANISER)
def check_in_everyone(request, tournament):
    try:
        count = services.check_in_everyone(tournament, user=request.user)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(
            request, ngettext("%(count)s player checked in.", "%(count)s players checked in.", count) % {"count": count}
        )
    return redirect_after_post(request, staff_url("players", tournament))


def _report_namesakes(request, rows, created):
    """The lines whose player another person of the organisation is named like: each got a new
    person; the organiser merges them on the people page when they are one."""
    unsure = selectors.namesakes(created)
    lines = [str(row.line) for row, player in zip(rows, created) if player.pk in unsure]
    if lines:
        messages.warning(
            request,
            ngettext(
                "Line %(lines)s: someone of this name is already known, so a new person was recorded. If it is the "
                "same person, choose “the same person as…” on the player's person page.",
                "Lines %(lines)s: someone of these names is already known, so new people were recorded. If they are "
                "the same people, choose “the same person as…” on each player's person page.",
                len(lines),
            )
            % {"lines": ", ".join(lines)},
        )


MAX_RECOGNISED_NAMED = 20  # an import's answer names this many recognised players, then counts the rest


def recognised_line(found):
    """ "Lucja Wojcik → Łucja Wójcik, UTW Kraków, 1 earlier tournament" (no arrow when the
    spelling is the person's)."""
    earlier = ngettext("%(count)s earlier tournament", "%(count)s earlier tournaments", found.earlier) % {
        "count": found.earlier
    }
    who = f"{found.player.name} → {found.person_name}" if found.differs else found.player.name
    return ", ".join(part for part in (who, found.club, earlier) if part)


def _report_recognised(request, tournament, players):
    """Name each player just registered who is a person known from other tournaments (issue 48.2);
    the players' page offers the person's spelling where it differs."""
    found = selectors.recognised_players(tournament, [player.pk for player in players])
    if not found:
        return
    lines = [recognised_line(one) for one in found[:MAX_RECOGNISED_NAMED]]
    more = len(found) - len(lines)
    if more:
        lines.append(ngettext("and %(count)s more", "and %(count)s more", more) % {"count": more})
    text = ngettext(
        "Recognised as a person known from earlier tournaments: %(lines)s.",
        "Recognised as people known from earlier tournaments: %(lines)s.",
        len(found),
    ) % {"lines": "; ".join(lines)}
    if any(one.differs for one in found):
        text += " " + _("The list below offers the spelling they had before.")
    messages.info(request, text)


@require_POST
@staff_required(Role.ORGANISER)
def player_spelling(request, tournament, pk):
    """One tap: the player takes the spelling of the person known from earlier tournaments."""
    player = player_or_404(tournament, pk=pk)
    before = player.name
    try:
        player = services.use_person_spelling(player, user=request.user)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        if player.name != before:
            messages.success(
                request, _("%(before)s is now spelled %(name)s.") % {"before": before, "name": player.name}
            )
    return redirect_after_post(request, f"{staff_url('players', tournament)}#recognised")


@staff_required(Role.ORGANISER)
def player_import(request, tournament):
    """Upload a CSV or XLSX player list: every problem is listed and nothing is imported."""
    form = ImportForm(posted_data(request), request.FILES if request.method == "POST" else None)
    problems = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            rows = importers.read_player_file(upload.name, upload.read(importers.MAX_BYTES + 1))
            created = services.import_players(tournament, rows=rows, user=request.user)
        except Refused as refusal:
            problems = refusal.problems or [refusal]
        else:
            messages.success(
                request,
                ngettext("%(count)s player imported.", "%(count)s players imported.", len(created))
                % {"count": len(created)},
            )
            _report_namesakes(request, rows, created)
            _report_recognised(request, tournament, created)
            return redirect_after_post(request, staff_url("players", tournament))
    context = {"tournament": tournament, "form": form, "problems": problems}
    if request.htmx and request.method == "POST":
        return render(request, "organiser/player_import.html#import-form", context)
    return render(request, "organiser/player_import.html", context)

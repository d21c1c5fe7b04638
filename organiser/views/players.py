"""The players: the list with check-in, one player's page and actions, the file import."""

from collections import Counter

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from accounts.models import Role
from accounts.roles import staff_required
from organiser import importers, services
from organiser.forms import ImportForm, PlayerForm
from organiser.views.common import posted_data, redirect_after_post, staff_url
from tournament.errors import ActionRefused
from tournament.models import Organisation, Player
from tournament.navigation import return_path
from tournament.queries import last_started_number
from tournament.text import sorted_polish


def _players_context(tournament, form=None):
    players = sorted_polish(
        Player.objects.filter(tournament=tournament).select_related("organisation"), key=lambda p: p.name
    )
    started = last_started_number(tournament)
    statuses = Counter(p.status for p in players)
    return {
        "tournament": tournament, "players": players, "form": form or PlayerForm(),
        "organisations": Organisation.objects.filter(tournament=tournament).values_list("name", flat=True),
        "started": started, "next_round": started + 1,
        "present_count": sum(1 for p in players if p.present and p.status == Player.Status.ACTIVE),
        "active_count": statuses[Player.Status.ACTIVE], "withdrawn_count": statuses[Player.Status.WITHDRAWN],
        "disqualified_count": statuses[Player.Status.DISQUALIFIED],
    }


@staff_required(Role.ORGANISER)
def player_list(request, tournament):
    """The players in Polish alphabetical order, with a form to add one."""
    form = PlayerForm(posted_data(request))
    if request.method == "POST" and form.is_valid():
        try:
            player = services.add_player(tournament, form.cleaned_data["name"], form.cleaned_data["organisation"], user=request.user)
        except ActionRefused as refusal:
            form.add_refusal(refusal)
        else:
            messages.success(request, _("%(name)s has start number %(number)s.") % {"name": player.name, "number": player.start_number})
            return redirect_after_post(request, staff_url("players", tournament))
    context = _players_context(tournament, form)
    if request.htmx and request.method == "POST":
        return render(request, "organiser/players.html#add-player", context)
    return render(request, "organiser/players.html", context)


@staff_required(Role.ORGANISER)
def player_detail(request, tournament, pk):
    """Edit a player's name or organisation; check in, withdraw, reinstate or remove."""
    player = get_object_or_404(Player.objects.select_related("organisation"), tournament=tournament, pk=pk)
    form = PlayerForm(posted_data(request), initial={"name": player.name, "organisation": player.organisation.name})
    if request.method == "POST" and form.is_valid():
        try:
            services.edit_player(player, form.cleaned_data["name"], form.cleaned_data["organisation"], user=request.user)
        except ActionRefused as refusal:
            form.add_refusal(refusal)
        else:
            messages.success(request, _("The changes have been saved."))
            return redirect_after_post(request, staff_url("players", tournament))
    context = {
        "tournament": tournament, "player": player, "form": form, "started": last_started_number(tournament),
        "organisations": Organisation.objects.filter(tournament=tournament).values_list("name", flat=True),
    }
    if request.htmx and request.method == "POST":
        return render(request, "organiser/player_detail.html#player-form", context)
    return render(request, "organiser/player_detail.html", context)


PLAYER_ACTIONS = {
    "check-in": lambda player, user: services.set_present(player, True, user=user),
    "check-out": lambda player, user: services.set_present(player, False, user=user),
    "withdraw": lambda player, user: services.withdraw_player(player, user=user),
    "reinstate": lambda player, user: services.reinstate_player(player, user=user),
    "remove": lambda player, user: services.remove_player(player, user=user),
}
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
    """One click on a player: from the list (htmx swaps the row) or from the player's page."""
    if action not in PLAYER_ACTIONS:
        raise PermissionDenied
    player = get_object_or_404(Player.objects.select_related("organisation", "tournament"), tournament=tournament, pk=pk)
    refusal = None
    try:
        PLAYER_ACTIONS[action](player, request.user)
    except ActionRefused as error:
        refusal = error.message
    if request.htmx and request.POST.get("row") and action != "remove":
        player.refresh_from_db()
        started = last_started_number(tournament)
        context = {"tournament": tournament, "player": player, "refusal": refusal, "started": started, "next_round": started + 1}
        return render(request, "organiser/players.html#player-row", context)
    if refusal:
        messages.error(request, refusal)
    else:
        messages.success(request, PLAYER_ACTION_DONE[action] % {"name": player.name})
    return redirect_after_post(request, return_path(request, request.POST.get("next"), staff_url("players", tournament)))


@require_POST
@staff_required(Role.ORGANISER)
def check_in_everyone(request, tournament):
    try:
        count = services.check_in_everyone(tournament, user=request.user)
    except ActionRefused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, ngettext("%(count)s player checked in.", "%(count)s players checked in.", count) % {"count": count})
    return redirect_after_post(request, staff_url("players", tournament))


@staff_required(Role.ORGANISER)
def player_import(request, tournament):
    """Upload a CSV or XLSX player list: every problem is listed and nothing is imported."""
    form = ImportForm(posted_data(request), request.FILES if request.method == "POST" else None)
    problems = []
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            rows = importers.read_player_file(upload.name, upload.read(importers.MAX_BYTES + 1))
            created = services.import_players(tournament, rows, user=request.user)
        except importers.FileRefused as refusal:
            problems = refusal.problems
        except ActionRefused as refusal:
            problems = refusal.problems
        else:
            messages.success(request, ngettext(
                "%(count)s player imported.", "%(count)s players imported.", len(created),
            ) % {"count": len(created)})
            return redirect_after_post(request, staff_url("players", tournament))
    context = {"tournament": tournament, "form": form, "problems": problems}
    if request.htmx and request.method == "POST":
        return render(request, "organiser/player_import.html#import-form", context)
    return render(request, "organiser/player_import.html", context)

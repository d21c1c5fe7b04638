"""Organiser screens under /staff/: tournaments, players, the draw, rounds and the dashboard.

Views parse the request, call `services` and render. Every form is a real POST form that
also works through htmx: errors come back as the form (status 200), success redirects.
"""

from collections import Counter
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.forms import DeviceSheetForm
from accounts.models import Role
from accounts.roles import global_role, has_role, staff_required
from scoring.models import Card, ScoreSheet
from tournament import importers, services
from tournament.forms import DrawForm, ImportForm, PlayerForm, SwapForm, TournamentForm
from tournament.models import Organisation, Player, Round, Seat, Table, Tournament
from tournament.errors import ActionRefused
from tournament.queries import last_started_number, latest_round
from tournament.text import sorted_polish


METHOD_LABELS = {
    services.RANDOM: gettext_lazy("random draw"),
    "mixed": gettext_lazy("mixed"),
    "swiss": gettext_lazy("Swiss"),
    "manual": gettext_lazy("manual"),
    services.FINAL_METHOD: gettext_lazy("top 4 of the standings"),
}


def _with_method_labels(rounds):
    for round_ in rounds:
        round_.method_label = METHOD_LABELS.get(round_.method, round_.method)
    return rounds


def _done(request, url):
    """Redirect after a successful POST; an htmx request gets a client-side redirect."""
    if request.htmx:
        return HttpResponseClientRedirect(url)
    return redirect(url)


def _posted(request):
    """The POST data of a POST request (even when empty), else None for an unbound form."""
    return request.POST if request.method == "POST" else None


def _next_or(request, default):
    """The page to return to: the form's `next` when it is on this site, else `default`."""
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return target
    return default


def _url(name, tournament, *args):
    return reverse(f"tournament:{name}", args=[tournament.slug, *args])


# ------------------------------------------------------------------ tournaments

@login_required
def staff_home(request):
    """The organisers' list of tournaments; other staff go to their own start page."""
    if global_role(request.user) != Role.ORGANISER:
        return redirect("accounts:home")
    return render(request, "tournament/home.html", {"tournaments": Tournament.objects.all()})


@login_required
def tournament_create(request):
    if global_role(request.user) != Role.ORGANISER:
        raise PermissionDenied
    form = TournamentForm(_posted(request))
    if request.method == "POST" and form.is_valid():
        tournament, _rescored = services.save_tournament(form, user=request.user)
        messages.success(request, _("The tournament has been created. Now add the players."))
        return _done(request, _url("players", tournament))
    return render(request, "tournament/tournament_form.html", {"form": form})


@staff_required(Role.ORGANISER)
def tournament_edit(request, tournament):
    form = TournamentForm(_posted(request), instance=tournament)
    if request.method == "POST" and form.is_valid():
        tournament, rescored = services.save_tournament(form, user=request.user)
        messages.success(request, _("The settings have been saved."))
        if rescored:
            messages.info(request, _("Scores were recomputed with the new settings: %(count)s results changed.") % {"count": rescored})
        return _done(request, _url("dashboard", tournament))
    return render(request, "tournament/tournament_form.html", {"form": form, "tournament": tournament})


# ------------------------------------------------------------------ dashboard

def _dashboard_context(tournament):
    rounds = _with_method_labels(list(Round.objects.filter(tournament=tournament).order_by("number")))
    current = rounds[-1] if rounds else None
    tables = []
    if current is not None:
        tables = list(
            Table.objects.filter(round=current).select_related("sheet")
            .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("letter")))
        )
    states = Counter(_sheet_state(table) for table in tables)
    waiting = len(tables) - states[ScoreSheet.State.VERIFIED]
    return {
        "tournament": tournament, "rounds": rounds, "current": current, "tables": tables,
        "sheet_counts": [(state, label, states[state]) for state, label in ScoreSheet.State.choices],
        "waiting": waiting, "step": services.next_step(tournament, current, waiting),
        "next_number": (current.number + 1) if current else 1,
    }


def _sheet_state(table):
    sheet = getattr(table, "sheet", None)
    return sheet.state if sheet else ScoreSheet.State.EMPTY


@staff_required(Role.REFEREE)
def dashboard(request, tournament):
    """The organiser's start page for one tournament; referees are sent to score entry."""
    if not has_role(request.user, tournament, Role.HEAD_REFEREE):
        return redirect(f"/referee/{tournament.slug}/")
    context = _dashboard_context(tournament)
    players = Player.objects.filter(tournament=tournament)
    context["player_counts"] = Counter(players.values_list("status", flat=True))
    context["present_count"] = players.filter(status=Player.Status.ACTIVE, present=True).count()
    context["cards"] = Card.objects.filter(tournament=tournament).select_related("player", "round").order_by("-created_at")
    context["device_sheet_form"] = DeviceSheetForm()
    return render(request, "tournament/dashboard.html", context)


def _htmx_login(view):
    """A polling fragment whose session expired sends the whole page to the login page."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.htmx and not request.user.is_authenticated:
            return HttpResponseClientRedirect(redirect_to_login(request.htmx.current_url_abs_path or "/staff/").url)
        return view(request, *args, **kwargs)

    return wrapper


@_htmx_login
@staff_required(Role.HEAD_REFEREE)
def dashboard_status(request, tournament):
    """The current round's tables and sheet states: the fragment the dashboard polls."""
    return render(request, "tournament/dashboard.html#round-status", _dashboard_context(tournament))


# ------------------------------------------------------------------ players

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
    form = PlayerForm(_posted(request))
    if request.method == "POST" and form.is_valid():
        try:
            player = services.add_player(tournament, form.cleaned_data["name"], form.cleaned_data["organisation"], user=request.user)
        except ActionRefused as refusal:
            form.add_refusal(refusal)
        else:
            messages.success(request, _("%(name)s has start number %(number)s.") % {"name": player.name, "number": player.start_number})
            return _done(request, _url("players", tournament))
    context = _players_context(tournament, form)
    if request.htmx and request.method == "POST":
        return render(request, "tournament/players.html#add-player", context)
    return render(request, "tournament/players.html", context)


@staff_required(Role.ORGANISER)
def player_detail(request, tournament, pk):
    """Edit a player's name or organisation; check in, withdraw, reinstate or remove."""
    player = get_object_or_404(Player.objects.select_related("organisation"), tournament=tournament, pk=pk)
    form = PlayerForm(_posted(request), initial={"name": player.name, "organisation": player.organisation.name})
    if request.method == "POST" and form.is_valid():
        try:
            services.edit_player(player, form.cleaned_data["name"], form.cleaned_data["organisation"], user=request.user)
        except ActionRefused as refusal:
            form.add_refusal(refusal)
        else:
            messages.success(request, _("The changes have been saved."))
            return _done(request, _url("players", tournament))
    context = {
        "tournament": tournament, "player": player, "form": form, "started": last_started_number(tournament),
        "organisations": Organisation.objects.filter(tournament=tournament).values_list("name", flat=True),
    }
    if request.htmx and request.method == "POST":
        return render(request, "tournament/player_detail.html#player-form", context)
    return render(request, "tournament/player_detail.html", context)


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
        return render(request, "tournament/players.html#player-row", context)
    if refusal:
        messages.error(request, refusal)
    else:
        messages.success(request, PLAYER_ACTION_DONE[action] % {"name": player.name})
    return _done(request, _next_or(request, _url("players", tournament)))


@require_POST
@staff_required(Role.ORGANISER)
def check_in_everyone(request, tournament):
    try:
        count = services.check_in_everyone(tournament, user=request.user)
    except ActionRefused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("%(count)s players checked in.") % {"count": count})
    return _done(request, _url("players", tournament))


@staff_required(Role.ORGANISER)
def player_import(request, tournament):
    """Upload a CSV or XLSX player list: every problem is listed and nothing is imported."""
    form = ImportForm(_posted(request), request.FILES)
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
            messages.success(request, _("%(count)s players imported.") % {"count": len(created)})
            return _done(request, _url("players", tournament))
    context = {"tournament": tournament, "form": form, "problems": problems}
    if request.htmx and request.method == "POST":
        return render(request, "tournament/player_import.html#import-form", context)
    return render(request, "tournament/player_import.html", context)


# ------------------------------------------------------------------ the draw and rounds

@staff_required(Role.ORGANISER)
def draw(request, tournament):
    """Draw the next qualifying round as a draft (or say why it cannot be drawn yet)."""
    latest = latest_round(tournament)
    number = latest.number + 1 if latest else 1
    form = DrawForm(_posted(request), first_round=number == 1, default=tournament.seating_method)
    refusal = None
    try:
        services.next_round_number(tournament)
    except ActionRefused as error:
        refusal = error.message
    if request.method == "POST" and form.is_valid() and refusal is None:
        try:
            round_ = services.draw_round(
                tournament, method=form.cleaned_data["method"], seed=form.cleaned_data["seed"], user=request.user
            )
        except ActionRefused as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("%(round)s has been drawn. Check the seating, then publish it.") % {"round": round_})
            return _done(request, _url("round", tournament, round_.number))
    eligible = services.eligible_players(tournament, number).count()
    try:
        services.check_field_size(eligible)
        size_problem = None
    except ActionRefused as error:
        size_problem = error.message
    context = {
        "tournament": tournament, "form": form, "number": number, "refusal": refusal, "eligible": eligible, "latest": latest,
        "size_problem": size_problem, "tables": None if size_problem else services.table_counts(eligible),
    }
    if request.htmx and request.method == "POST":
        return render(request, "tournament/draw.html#draw-form", context)
    return render(request, "tournament/draw.html", context)


def _round_context(request, tournament, round_, form=None):
    tables = list(
        Table.objects.filter(round=round_).select_related("sheet")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player__organisation").order_by("letter")))
    )
    seated = [(seat.player, table.number, seat.letter) for table in tables for seat in table.seats.all()]
    players = {p.pk: p for p in Player.objects.filter(tournament=tournament).select_related("organisation")}
    left_out, inactive = services.seating_warnings(round_, [player for player, _t, _l in seated])
    _with_method_labels([round_])
    may_swap = round_.state != Round.State.COMPLETED and has_role(
        request.user, tournament, Role.HEAD_REFEREE if round_.is_locked else Role.ORGANISER
    )
    return {
        "tournament": tournament, "round": round_, "tables": tables,
        "quality": None if round_.is_final else services.round_quality(round_, players),
        "left_out": left_out, "inactive": inactive, "may_swap": may_swap,
        "form": form or SwapForm(seated=seated), "show_organisation": tournament.players_per_organisation > 1,
        "is_latest": not Round.objects.filter(tournament=tournament, number__gt=round_.number).exists(),
    }


@staff_required(Role.HEAD_REFEREE)
def round_detail(request, tournament, number):
    """A round's seating and quality report; POST swaps two players."""
    round_ = get_object_or_404(Round.objects.select_related("tournament"), tournament=tournament, number=number)
    form = None
    if request.method == "POST":
        seated = Seat.objects.filter(round=round_).select_related("player", "table")
        form = SwapForm(request.POST, seated=[(s.player, s.table.number, s.letter) for s in seated])
        if form.is_valid():
            try:
                services.swap_players(
                    round_, form.players[form.cleaned_data["player_a"]], form.players[form.cleaned_data["player_b"]],
                    user=request.user, reason=form.cleaned_data["reason"],
                )
            except ActionRefused as refusal:
                form.add_refusal(refusal)
            else:
                messages.success(request, _("The two players have swapped seats."))
                return _done(request, _url("round", tournament, number))
    context = _round_context(request, tournament, round_, form)
    if request.htmx and request.method == "POST":
        return render(request, "tournament/round.html#swap-form", context)
    return render(request, "tournament/round.html", context)


ROUND_ACTIONS = {
    "publish": (services.publish_round, gettext_lazy("%(round)s is published: the seating is public.")),
    "start": (services.start_round, gettext_lazy("%(round)s has started: the seating is locked.")),
    "complete": (services.complete_round, gettext_lazy("%(round)s is completed.")),
    "discard": (services.discard_round, gettext_lazy("The draw of %(round)s has been discarded.")),
}


@require_POST
@staff_required(Role.ORGANISER)
def round_action(request, tournament, number, action):
    if action not in ROUND_ACTIONS:
        raise PermissionDenied
    round_ = get_object_or_404(Round.objects.select_related("tournament"), tournament=tournament, number=number)
    change, done = ROUND_ACTIONS[action]
    try:
        change(round_, user=request.user)
    except ActionRefused as refusal:
        messages.error(request, refusal.message)
        return _done(request, _url("round", tournament, number))
    messages.success(request, done % {"round": round_})
    if action == "discard":
        return _done(request, _url("draw", tournament))
    return _done(request, _next_or(request, _url("round", tournament, number)))


@require_POST
@staff_required(Role.ORGANISER)
def seat_final(request, tournament):
    try:
        round_ = services.seat_final(tournament, user=request.user)
    except ActionRefused as refusal:
        messages.error(request, refusal.message)
        return _done(request, _url("dashboard", tournament))
    messages.success(request, _("The final table has been seated. Check it, then publish it."))
    return _done(request, _url("round", tournament, round_.number))

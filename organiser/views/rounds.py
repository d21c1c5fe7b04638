"""The draw, a round's seating with its quality report and swaps, the round lifecycle, the final."""


from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.models import Role
from accounts.roles import has_role, staff_required
from organiser import reports, services
from organiser.forms import DrawForm, SwapForm
from organiser.views.common import posted_data, redirect_after_post, staff_url, with_method_labels
from tournament.errors import ActionRefused
from tournament.models import Player, Round, Seat, Table
from tournament.navigation import return_path
from tournament.queries import latest_round


@staff_required(Role.ORGANISER)
def draw(request, tournament):
    """Draw the next qualifying round as a draft (or say why it cannot be drawn yet)."""
    latest = latest_round(tournament)
    number = latest.number + 1 if latest else 1
    form = DrawForm(posted_data(request), first_round=number == 1, default=tournament.seating_method)
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
            return redirect_after_post(request, staff_url("round", tournament, round_.number))
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
        return render(request, "organiser/draw.html#draw-form", context)
    return render(request, "organiser/draw.html", context)


def _round_context(request, tournament, round_, form=None):
    tables = list(
        Table.objects.filter(round=round_).select_related("sheet")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("player__organisation").order_by("letter")))
    )
    seated = [(seat.player, table.number, seat.letter) for table in tables for seat in table.seats.all()]
    players = {p.pk: p for p in Player.objects.filter(tournament=tournament).select_related("organisation")}
    left_out, inactive = reports.seating_warnings(round_, [player for player, _t, _l in seated])
    with_method_labels([round_])
    may_swap = round_.state != Round.State.COMPLETED and has_role(
        request.user, tournament, Role.HEAD_REFEREE if round_.is_locked else Role.ORGANISER
    )
    return {
        "tournament": tournament, "round": round_, "tables": tables,
        "quality": None if round_.is_final else reports.round_quality(round_, players),
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
                return redirect_after_post(request, staff_url("round", tournament, number))
    context = _round_context(request, tournament, round_, form)
    if request.htmx and request.method == "POST":
        return render(request, "organiser/round.html#swap-form", context)
    return render(request, "organiser/round.html", context)


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
        return redirect_after_post(request, staff_url("round", tournament, number))
    messages.success(request, done % {"round": round_})
    if action == "discard":
        return redirect_after_post(request, staff_url("draw", tournament))
    return redirect_after_post(request, return_path(request, request.POST.get("next"), staff_url("round", tournament, number)))


@require_POST
@staff_required(Role.ORGANISER)
def seat_final(request, tournament):
    try:
        round_ = services.seat_final(tournament, user=request.user)
    except ActionRefused as refusal:
        messages.error(request, refusal.message)
        return redirect_after_post(request, staff_url("dashboard", tournament))
    messages.success(request, _("The final table has been seated. Check it, then publish it."))
    return redirect_after_post(request, staff_url("round", tournament, round_.number))

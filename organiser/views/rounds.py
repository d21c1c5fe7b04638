"""The draw, a round's seating with its quality report and swaps, the round lifecycle, the final."""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from accounts.models import Role
from accounts.roles import outranks, staff_required
from organiser import selectors, services
from organiser.forms import DrawForm, SwapForm
from organiser.views.common import confirmed, posted_data, question, redirect_after_post, staff_url, with_method_labels
from scoring.selectors.sheets import round_tables
from tournament.models import Round
from tournament.navigation import return_path
from tournament.refusals import Refused
from tournament.selectors import has_round_after, latest_round, round_or_404


@staff_required(Role.ORGANISER)
def draw(request, tournament):
    """Draw the next qualifying round as a draft (or say why it cannot be drawn yet)."""
    latest = latest_round(tournament)
    number = latest.number + 1 if latest else 1
    form = DrawForm(posted_data(request), first_round=number == 1, default=tournament.seating_method)
    refusal = None
    try:
        services.next_round_number(tournament)
    except Refused as error:
        refusal = error.message
    if request.method == "POST" and form.is_valid() and refusal is None:
        try:
            round_ = services.draw_round(
                tournament, method=form.cleaned_data["method"], seed=form.cleaned_data["seed"], user=request.user
            )
        except Refused as error:
            form.add_error(None, error.message)
        else:
            messages.success(
                request, _("%(round)s has been drawn. Check the seating, then publish it.") % {"round": round_}
            )
            return redirect_after_post(request, staff_url("round", tournament, round_.number))
    eligible = selectors.eligible_count(tournament, number)
    try:
        services.check_field_size(eligible)
        size_problem = None
    except Refused as error:
        size_problem = error.message
    context = {
        "tournament": tournament,
        "form": form,
        "number": number,
        "refusal": refusal,
        "eligible": eligible,
        "latest": latest,
        "size_problem": size_problem,
        "tables": None if size_problem else services.table_counts(eligible),
        "not_seated": selectors.not_seated(tournament, number),
    }
    if request.htmx and request.method == "POST":
        return render(request, "organiser/draw.html#draw-form", context)
    return render(request, "organiser/draw.html", context)


def _round_context(request, tournament, round_, form=None):
    tables = round_tables(round_)
    players = {p.pk: p for p in selectors.players_with_organisations(tournament)}
    seated = selectors.with_players(tables, players)
    left_out, inactive = selectors.seating_warnings(round_, [player for player, _t, _l in seated])
    with_method_labels([round_])
    may_swap = round_.state != Round.State.COMPLETED and outranks(
        request.role, Role.HEAD_REFEREE if round_.is_locked else Role.ORGANISER
    )
    is_latest = not has_round_after(round_)
    completed = is_latest and round_.state == Round.State.COMPLETED
    return {
        "tournament": tournament,
        "round": round_,
        "next_step": selectors.next_step(tournament, latest=round_, waiting_tables=0) if completed else None,
        "next_number": round_.number + 1,
        "tables": tables,
        "quality": None if round_.is_final else selectors.round_quality(round_, players),
        "left_out": left_out,
        "inactive": inactive,
        "may_swap": may_swap,
        "form": form or SwapForm(seated=seated),
        "show_organisation": tournament.players_per_organisation > 1,
        "is_latest": is_latest,
        "confirm": question(request, ASKED_FIRST) if request.method == "GET" else None,
    }


@staff_required(Role.HEAD_REFEREE)
def round_detail(request, tournament, number):
    """A round's seating and quality report; POST swaps two players."""
    round_ = round_or_404(tournament, number)
    form = None
    if request.method == "POST":
        form = SwapForm(request.POST, seated=selectors.seating_of(round_))
        if form.is_valid():
            try:
                services.swap_players(
                    round_,
                    player_a=form.players[form.cleaned_data["player_a"]],
                    player_b=form.players[form.cleaned_data["player_b"]],
                    user=request.user,
                    reason=form.cleaned_data["reason"],
                )
            except Refused as refusal:
                form.add_refusal(refusal)
            else:
                messages.success(request, _("The two players have swapped seats."))
                return redirect_after_post(request, staff_url("round", tournament, number))
    context = _round_context(request, tournament, round_, form)
    if request.htmx and request.method == "POST":
        return render(request, "organiser/round.html#swap-form", context)
    return render(request, "organiser/round.html", context)


# Completing or discarding a round asks first on the round's page (`?confirm=…`).
ASKED_FIRST = ("complete", "discard")
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
    round_ = round_or_404(tournament, number)
    if action in ASKED_FIRST and not confirmed(request, action):
        return redirect_after_post(request, f"{staff_url('round', tournament, number)}?confirm={action}")
    change, done = ROUND_ACTIONS[action]
    try:
        change(round_, user=request.user)
    except Refused as refusal:
        messages.error(request, refusal.message)
        return redirect_after_post(request, staff_url("round", tournament, number))
    messages.success(request, done % {"round": round_})
    if action == "discard":
        return redirect_after_post(request, staff_url("draw", tournament))
    return redirect_after_post(
        request, return_path(request, request.POST.get("next"), staff_url("round", tournament, number))
    )


@require_POST
@staff_required(Role.ORGANISER)
def seat_final(request, tournament):
    try:
        round_ = services.seat_final(tournament, user=request.user)
    except Refused as refusal:
        messages.error(request, refusal.message)
        return redirect_after_post(request, staff_url("dashboard", tournament))
    messages.success(request, _("The final table has been seated. Check it, then publish it."))
    return redirect_after_post(request, staff_url("round", tournament, round_.number))

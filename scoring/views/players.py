"""The players on the referee pages and their cards (SPEC §7)."""

from django.contrib import messages
from django.db.models import Count, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import services
from scoring.forms import CardForm
from tournament.refusals import Refused, violation_message
from scoring.models import Card
from scoring.views.access import is_head, referee_view
from tournament.models import Player, Round
from tournament.navigation import return_path
from tournament.queries import current_round


@referee_view()
def player_list(request, tournament):
    players = list(
        Player.objects.filter(tournament=tournament).select_related("organisation")
        .annotate(
            yellows=Count("cards", filter=Q(cards__colour=Card.Colour.YELLOW)),
            warnings=Count("cards", filter=Q(cards__colour=Card.Colour.WARNING)),
            reds=Count("cards", filter=Q(cards__colour=Card.Colour.RED)),
        )
        .order_by("start_number")
    )
    return render(request, "scoring/players.html", {"tournament": tournament, "players": players})


@referee_view()
def player_view(request, tournament, player_id):
    """A player's cards, and the form to give one."""
    player = get_object_or_404(Player.objects.select_related("organisation"), tournament=tournament, pk=player_id)
    return render_player(request, tournament, player, card_form(request, tournament))


def card_form(request, tournament):
    round_ = current_round(tournament)
    return CardForm(initial={"round": round_.number if round_ else None}, allow_red=is_head(request))


def render_player(request, tournament, player, form):
    context = {
        "tournament": tournament, "player": player, "form": form,
        "cards": Card.objects.filter(player=player).select_related("round", "given_by"),
    }
    return render(request, "scoring/player.html", context)


@require_POST
@referee_view()
def give_card(request, tournament, player_id):
    """A warning, yellow or red card from the sheet or the player page (SPEC §7)."""
    player = get_object_or_404(Player, tournament=tournament, pk=player_id)
    form = CardForm(request.POST, allow_red=is_head(request))
    if form.is_valid():
        data = form.cleaned_data
        round_ = Round.objects.filter(tournament=tournament, number=data["round"]).first() if data["round"] else None
        try:
            card = services.give_card(player, data["colour"], data["reason"], user=request.user, round=round_)
        except Refused as error:
            form.add_error("reason" if error.code == "reason_required" else "colour", violation_message(error))
        else:
            player.refresh_from_db()
            text = _("%(card)s for %(player)s recorded.") % {"card": card.get_colour_display(), "player": player.name}
            if player.is_disqualified:
                text = _("%(card)s for %(player)s recorded. %(player)s is disqualified.") % {
                    "card": card.get_colour_display(), "player": player.name,
                }
            messages.success(request, capfirst(text))
            default = reverse("scoring:player", kwargs={"slug": tournament.slug, "player_id": player.pk})
            return redirect(return_path(request, data.get("next"), default))
    return render_player(request, tournament, player, form)

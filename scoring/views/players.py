"""The players on the referee pages and their cards (SPEC §7)."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring import services
from scoring.forms import CardForm
from scoring.selectors import cards_of_player, players_with_card_counts
from scoring.views.access import is_head, referee_view
from tournament.navigation import return_path
from tournament.refusals import Refused
from tournament.selectors import current_round, player_or_404, round_numbered


@referee_view()
def player_list(request, tournament):
    players = players_with_card_counts(tournament)
    return render(request, "scoring/players.html", {"tournament": tournament, "players": players})


@referee_view()
def player_view(request, tournament, player_id):
    """A player's cards, and the form to give one."""
    player = player_or_404(tournament, pk=player_id)
    return render_player(request, tournament, player, card_form(request, tournament))


def card_form(request, tournament):
    round_ = current_round(tournament)
    return CardForm(initial={"round": round_.number if round_ else None}, allow_red=is_head(request))


def render_player(request, tournament, player, form):
    context = {
        "tournament": tournament, "player": player, "form": form,
        "cards": cards_of_player(player),
    }
    return render(request, "scoring/player.html", context)


@require_POST
@referee_view()
def give_card(request, tournament, player_id):
    """A warning, yellow or red card from the sheet or the player page (SPEC §7)."""
    player = player_or_404(tournament, pk=player_id)
    form = CardForm(request.POST, allow_red=is_head(request))
    if form.is_valid():
        data = form.cleaned_data
        round_ = round_numbered(tournament, data["round"]) if data["round"] else None
        try:
            card = services.give_card(player, data["colour"], data["reason"], user=request.user, round=round_)
        except Refused as error:
            form.add_error("reason" if error.code == "reason_required" else "colour", error.message)
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

"""The players on the referee pages and their cards (SPEC §7): giving one, and the head referee
withdrawing one given by mistake."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from accounts.models import Role
from scoring.forms import CardForm, WithdrawCardForm
from scoring.selectors.sheets import cards_of_player, players_with_card_counts
from scoring.services import cards as card_services
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
    """A player's cards (the withdrawn ones struck through), the form to give one and, for the
    head referee, a form to withdraw each card that counts."""
    player = player_or_404(tournament, pk=player_id)
    return render_player(request, tournament, player)


def player_url(tournament, player):
    return reverse("scoring:player", kwargs={"slug": tournament.slug, "player_id": player.pk})


def render_player(request, tournament, player, *, cards=None, form=None, withdrawal=None):
    """The player page; `form` a card form sent back with its errors, `withdrawal` a withdrawal form."""
    cards = cards_of_player(player) if cards is None else cards
    if form is None:
        round_ = current_round(tournament)
        form = CardForm(
            initial={"round": round_.number if round_ else None}, player=player, cards=cards, allow_red=is_head(request)
        )
    withdraw_forms = {}
    if is_head(request):
        for card in cards:
            if not card.is_withdrawn:
                withdraw_forms[card.pk] = WithdrawCardForm(initial={"card": card.pk}, auto_id=f"withdraw-{card.pk}-%s")
        if withdrawal is not None and withdrawal.cleaned_data.get("card") in withdraw_forms:
            withdraw_forms[withdrawal.cleaned_data["card"]] = withdrawal
    context = {
        "tournament": tournament,
        "player": player,
        "form": form,
        "cards": cards,
        "rows": [(card, withdraw_forms.get(card.pk)) for card in cards],
    }
    return render(request, "scoring/player.html", context)


@referee_view()
def give_card(request, tournament, player_id):
    """A warning, yellow or red card from the sheet or the player page (SPEC §7). A card that
    disqualifies is given only confirmed, and its message is a warning. The confirmation is
    shown at this address: opened again (a reload, Back, restored tabs) it is the player's page."""
    player = player_or_404(tournament, pk=player_id)
    if request.method != "POST":
        return redirect(player_url(tournament, player))
    cards = cards_of_player(player)
    form = CardForm(request.POST, player=player, cards=cards, allow_red=is_head(request))
    if form.is_valid():
        data = form.cleaned_data
        round_ = round_numbered(tournament, data["round"]) if data["round"] else None
        try:
            card = card_services.give_card(
                player, data["colour"], data["reason"], user=request.user, round=round_, confirmed=form.confirmed
            )
        except Refused as error:
            form.add_error(error.field if error.field in ("reason", "confirm") else "colour", error.message)
        else:
            player.refresh_from_db()
            names = {"card": card.get_colour_display(), "player": player.name}
            if player.is_disqualified:
                text = _("%(card)s for %(player)s recorded. %(player)s is disqualified.") % names
                messages.warning(request, capfirst(text))
            else:
                messages.success(request, capfirst(_("%(card)s for %(player)s recorded.") % names))
            return redirect(return_path(request, data.get("next"), player_url(tournament, player)))
    return render_player(request, tournament, player, cards=cards, form=form)


@referee_view(Role.HEAD_REFEREE)
def withdraw_card(request, tournament, player_id):
    """The head referee withdraws a card given by mistake, with a reason; a disqualification that
    only this card explained is lifted. Opened again at this address, it is the player's page."""
    player = player_or_404(tournament, pk=player_id)
    if request.method != "POST":
        return redirect(player_url(tournament, player))
    form = WithdrawCardForm(request.POST, auto_id=f"withdraw-{request.POST.get('card', '')}-%s")
    if form.is_valid():
        try:
            withdrawn = card_services.withdraw_card(
                player,
                form.cleaned_data["card"],
                reason=form.cleaned_data["reason"],
                user=request.user,
                role=request.role,
            )
        except Refused as error:
            form.add_error("reason" if error.field == "reason" else None, error.message)
        else:
            names = {"card": withdrawn.card.get_colour_display(), "player": player.name}
            text = _("%(card)s for %(player)s withdrawn.") % names
            if withdrawn.lifted:
                text = _("%(card)s for %(player)s withdrawn. %(player)s is no longer disqualified.") % names
            messages.success(request, capfirst(text))
            return redirect(player_url(tournament, player))
    for error in form.non_field_errors() + form.errors.get("card", []):
        messages.error(request, error)
    return render_player(request, tournament, player, withdrawal=form)

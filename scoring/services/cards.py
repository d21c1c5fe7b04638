"""Cards (SPEC §7): a warning, a yellow or a red card given, and a card given by mistake withdrawn.

The second yellow card or a red card disqualifies the player (`engine.discipline`). Such a card
is given only when the caller says it was confirmed: the card form names the disqualification
and asks first, and a card that arrives unconfirmed is refused with the same sentence, nothing
stored (a yellow card sent twice is refused the second time, since it would be the second). A
confirmed card for a player disqualified by then is refused too: the same confirmed card sent
twice is stored once.

The head referee withdraws a card with a reason. The card stays on the record, marked with who
withdrew it, when and why, and counts no more; a disqualification that only it explained is
lifted, so the player is ranked and seated again. Each function runs in one transaction and
writes the audit log.
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from django.db import transaction
from django.utils import timezone

from accounts.models import Role
from accounts.roles import has_role
from engine import discipline
from scoring.models import Card
from scoring.records import card_record
from scoring.selectors import sheets as selectors
from scoring.services.sheets import is_head_referee
from tournament.audit import log_change
from tournament.models import Player
from tournament.refusals import Refused


def disqualifies_now(player, colour, colours):
    """Whether a card of `colour` would disqualify `player` now, who holds the counting cards
    `colours` ({colour: count}): it makes the cards disqualify and the player is not disqualified yet."""
    if player.status == Player.Status.DISQUALIFIED:
        return False
    return discipline.disqualifies(Counter(colours) + Counter({colour: 1}))


def confirmation_needed(player, colour):
    """The refusal of a disqualifying card sent without its confirmation; its message names the
    disqualification ("This is X's second yellow card: X will be disqualified.")."""
    code = "card_red_disqualifies" if colour == Card.Colour.RED else "card_second_yellow"
    return Refused(code, field="confirm", player=player.name)


@transaction.atomic
def give_card(player, colour, reason, *, user, round=None, confirmed=False):
    """Record a warning, yellow or red card; the second yellow or a red disqualifies, and is
    given only when `confirmed` (else Refused, nothing stored). A yellow or red card confirmed for
    a player who is disqualified by now is refused (the confirmation is out of date).

    Referees give warnings and yellow cards, the head referee red cards. Returns the Card.
    """
    tournament = player.tournament
    if colour not in Card.Colour.values:
        raise Refused("card_colour")
    if not reason.strip():
        raise Refused("reason_required", field="reason")
    minimum = Role.HEAD_REFEREE if colour == Card.Colour.RED else Role.REFEREE
    if not has_role(user, tournament, minimum):
        raise Refused("head_referee_only")
    if round is not None and round.tournament_id != tournament.pk:
        raise Refused("card_round")
    player = Player.objects.select_for_update().get(pk=player.pk)
    disqualifying = disqualifies_now(player, colour, Counter(selectors.card_colours(player)))
    if disqualifying and not confirmed:
        raise confirmation_needed(player, colour)
    if confirmed and player.is_disqualified and colour != Card.Colour.WARNING:
        # The disqualification confirmed has happened since the form was shown (the same card
        # sent twice, or another referee's): giving one more card is not what was confirmed.
        raise Refused("card_disqualified_already", field="confirm", player=player.name)
    card = Card.objects.create(
        tournament=tournament,
        player=player,
        round=round,
        colour=colour,
        reason=reason.strip(),
        given_by=user,
        given_by_name=user.get_username() if user else "",
    )
    log_change(
        tournament,
        user,
        "card",
        reason=card.reason,
        after={
            "player": player.ext_id,
            "name": player.name,
            "colour": colour,
            "round": round.number if round else None,
        },
    )
    if disqualifying:
        log_change(
            tournament,
            user,
            "disqualify",
            reason=card.reason,
            before={"player": player.ext_id, "name": player.name, "status": player.status},
            after={"player": player.ext_id, "name": player.name, "status": Player.Status.DISQUALIFIED},
        )
        player.status = Player.Status.DISQUALIFIED
        player.save(update_fields=["status"])
    return card


class WithdrawnCard(NamedTuple):
    card: Card  # the card, withdrawn
    player: Player  # its player, with the status the withdrawal left
    lifted: bool  # the withdrawal lifted the player's disqualification


@transaction.atomic
def withdraw_card(player, card_id, *, reason, user, role=None):
    """The head referee withdraws card `card_id` of `player`, with a reason. Returns a WithdrawnCard.

    The card keeps its place on the record, marked withdrawn, and counts no more. When the
    player is disqualified, the counting cards with this one disqualify and without it do not,
    the disqualification came from this card: it is lifted, back to the status the player had
    before it (the audit log's `disqualify` entry says which; active when it does not). Raises
    Refused, changing nothing, for another role, no reason, no such card, or a card withdrawn already.
    """
    if not is_head_referee(user, player.tournament, role):
        raise Refused("head_referee_only")
    reason = reason.strip()
    if not reason:
        raise Refused("reason_required", field="reason")
    player = Player.objects.select_for_update().get(pk=player.pk)
    card = selectors.card_of_player(player, card_id)
    if card is None:
        raise Refused("card_unknown")
    colours = Counter(selectors.card_colours(player))
    before = card_record(card)
    changes = {
        "withdrawn_at": timezone.now(),
        "withdrawn_by": user,
        "withdrawn_by_name": user.get_username(),
        "withdrawal_reason": reason,
    }
    # Compare-and-swap: of two withdrawals of one card (a double tap, two tablets) one changes it.
    if not Card.objects.filter(pk=card.pk, withdrawn_at__isnull=True).update(**changes):
        raise Refused("card_withdrawn_already", card=card.get_colour_display(), player=player.name)
    for name, value in changes.items():
        setattr(card, name, value)
    tournament = player.tournament
    log_change(
        tournament,
        user,
        "withdraw_card",
        before={**before, "name": player.name},
        after={**card_record(card), "name": player.name},
        reason=reason,
    )
    lifted = _lift_disqualification(player, colours, card, user=user, reason=reason)
    return WithdrawnCard(card, player, lifted)


def _lift_disqualification(player, colours, card, *, user, reason):
    """Lift the disqualification that came from `card` (the counting cards `colours` with it
    disqualify, without it not): back to the status before it, audited. Whether it was lifted."""
    counted = Counter(colours)
    counted[card.colour] -= 1
    if not (
        player.status == Player.Status.DISQUALIFIED
        and discipline.disqualifies(colours)
        and not discipline.disqualifies(+counted)
    ):
        return False
    status = selectors.status_before_disqualification(player)
    if status not in (Player.Status.ACTIVE, Player.Status.WITHDRAWN):
        status = Player.Status.ACTIVE
    log_change(
        player.tournament,
        user,
        "lift_disqualification",
        reason=reason,
        before={"player": player.ext_id, "name": player.name, "status": player.status},
        after={"player": player.ext_id, "name": player.name, "status": status},
    )
    player.status = status
    player.save(update_fields=["status"])
    return True

"""Whether a tournament's results are final, and what still keeps them from being so."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import ScoreSheet
from tournament.models import Round


def results_are_final(tournament):
    """The final is completed (when the tournament has one), else the last planned qualifying round."""
    completed = Round.objects.filter(tournament=tournament, state=Round.State.COMPLETED)
    if tournament.final:
        return completed.filter(kind=Round.Kind.FINAL).exists()
    return completed.filter(kind=Round.Kind.QUALIFYING, number__gte=tournament.rounds_planned).exists()


def unverified_sheets(tournament):
    return ScoreSheet.objects.filter(table__round__tournament=tournament).exclude(state=ScoreSheet.State.VERIFIED).count()


def unfinished_results(tournament, rows):
    """What keeps the results from being final, as sentences for the head referee (none: final).

    `rows` are the standings (every verified sheet): a tie at a medal place must be decided.
    """
    reasons = []
    if not results_are_final(tournament):
        reasons.append(_("The final is not completed.") if tournament.final else _("The last qualifying round is not completed."))
    unverified = unverified_sheets(tournament)
    if unverified:
        reasons.append(ngettext(
            "%(count)d score sheet is not verified.", "%(count)d score sheets are not verified.", unverified,
        ) % {"count": unverified})
    if any(row.unresolved_tie for row in rows):
        reasons.append(_("A tie at a medal place is not decided."))
    return reasons

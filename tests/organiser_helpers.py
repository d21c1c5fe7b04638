"""Small tournament builders shared by the organiser tests."""

from scoring.models import ScoreSheet
from tests.factories import build
from tournament.models import Player


def checked_in(n_players, **settings):
    """A tournament `test` with n players, all checked in, no rounds."""
    tournament = build(n_players, settings=settings or None)
    Player.objects.filter(tournament=tournament).update(present=True)
    return tournament


def verify_sheets(round_):
    """The head referee has verified every sheet of the round (no games needed for the lifecycle)."""
    ScoreSheet.objects.filter(table__round=round_).update(state=ScoreSheet.State.VERIFIED)

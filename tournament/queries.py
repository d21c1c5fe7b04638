"""Where a tournament stands: its latest, current and last completed rounds (reads only)."""

from django.db.models import Max

from tournament.models import Round


def latest_round(tournament):
    return Round.objects.filter(tournament=tournament).order_by("-number").first()


def last_started_number(tournament):
    """The number of the latest round that has started (0 before round 1 starts)."""
    started = Round.objects.filter(tournament=tournament, state__in=[Round.State.STARTED, Round.State.COMPLETED])
    return started.aggregate(n=Max("number"))["n"] or 0


def last_completed_round(tournament):
    """The number of the latest completed round (0 before round 1 is completed)."""
    completed = Round.objects.filter(tournament=tournament, state=Round.State.COMPLETED)
    return completed.aggregate(n=Max("number"))["n"] or 0


def current_round(tournament):
    """The round referees work on: the latest started round, else the latest published one."""
    rounds = Round.objects.filter(tournament=tournament)
    return (
        rounds.filter(state=Round.State.STARTED).order_by("-number").first()
        or rounds.filter(state=Round.State.PUBLISHED).order_by("-number").first()
    )


def qualifying_over(tournament, latest):
    """Whether `latest` (the tournament's latest round) is its last planned qualifying round or
    later (the final comes after it)."""
    return latest.number >= tournament.rounds_planned

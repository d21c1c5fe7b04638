"""What the organiser's screens show about a round: the next step, the seating's quality
report and who is seated who should not be (reads only)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import seating
from organiser.services.draw import eligible_players, qualifying_seatings
from tournament.models import Round
from tournament.queries import qualifying_over
from tournament.text import sorted_polish


def next_step(tournament, latest, waiting_tables):
    """What the organiser does next, as a code the dashboard turns into words and a button.

    `latest`: the latest round or None; `waiting_tables`: its tables not verified yet.
    """
    if latest is None:
        return "draw_first"
    if latest.state == Round.State.DRAFT:
        return "publish"
    if latest.state == Round.State.PUBLISHED:
        return "start"
    if latest.state == Round.State.STARTED:
        return "play" if waiting_tables else "complete"
    if latest.is_final:
        return "finished"
    if not qualifying_over(tournament, latest):
        return "draw"
    return "final" if tournament.final else "finished"


@dataclass
class Quality:
    """The quality report of a round's seating, with players instead of ids."""

    repeat_pairs: list = field(default_factory=list)  # (player, player, meetings) meeting again in this round
    repeat_pairs_total: int = 0
    worst_pair: int = 0
    three_table_repeats: list = field(default_factory=list)  # players at a 3-table again too early
    unbalanced: list = field(default_factory=list)  # players whose seat letters are not balanced (engine.seating.letters)


def round_quality(round_, players_by_pk):
    """The engine's quality report for the qualifying rounds up to `round_`, this round's part named."""
    history = qualifying_seatings(round_.tournament, up_to=round_.number)
    rounds = [history[n] for n in sorted(history)]
    report = seating.quality_report(rounds)
    together = set()
    for seated in rounds[-1] if rounds else []:
        ids = list(seated.values())
        together.update(frozenset((a, b)) for i, a in enumerate(ids) for b in ids[i + 1 :])
    quality = Quality(repeat_pairs_total=report["repeat_pairs"], worst_pair=report["worst_pair"])
    for entry in report["pairs"]:
        a, b = entry["pair"]
        if frozenset((a, b)) in together:
            quality.repeat_pairs.append((players_by_pk[a], players_by_pk[b], entry["count"]))
    quality.three_table_repeats = [
        players_by_pk[entry["player"]] for entry in report["three_table_repeat_seats"] if entry["round"] == len(rounds)
    ]
    quality.unbalanced = sorted_polish(
        (players_by_pk[entry["player"]] for entry in report["players"] if not entry["balanced"]), key=lambda p: p.name
    )
    return quality


def seating_warnings(round_, seated_players):
    """For a round that has not started: (players who may play now but are not seated,
    seated players who may no longer play: withdrawn, disqualified or checked out)."""
    if round_.is_locked or round_.is_final:
        return [], []
    eligible = {p.pk: p for p in eligible_players(round_.tournament, round_.number)}
    seated = {p.pk for p in seated_players}
    left_out = [p for pk, p in eligible.items() if pk not in seated]
    cannot_play = [p for p in seated_players if p.pk not in eligible]
    return sorted_polish(left_out, key=lambda p: p.name), sorted_polish(cannot_play, key=lambda p: p.name)

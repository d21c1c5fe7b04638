"""Tournaments, host organisations, players' organisations, players, rounds, tables and seats.

Models hold data and constraints; state changes live in the services of the apps above
(`organiser.services` for these models, `scoring.services` for results). `SubmissionToken`
makes every staff form safe to send twice (`tournament.submissions`). One module a subject:
`hosts`, `tournaments`, `people` (people and seasons), `rounds`, `records` (form tokens, the audit log, server errors), `files` (files made by a task), `mail` (the outbox).
"""

from tournament.models.files import ProducedFile
from tournament.models.hosts import LAPTOP_HOST, HostOrganisation, sole_host_organisation
from tournament.models.mail import OutgoingMail
from tournament.models.people import DEFAULT_SEASON_POINTS, Person, Season
from tournament.models.records import AuditEntry, ServerError, SubmissionToken
from tournament.models.rounds import (
    DEFAULT_ROUND_MINUTES,
    FINAL_STATE_LABELS,
    ROUND_MINUTES_RANGE,
    SEAT_CHOICES,
    SEAT_LETTERS,
    Round,
    RoundTime,
    Seat,
    Table,
)
from tournament.models.tournaments import (
    SCORING_FIELDS,
    Organisation,
    Player,
    Tournament,
    default_big_point_places,
    default_public_language,
)

__all__ = [
    "SCORING_FIELDS",
    "HostOrganisation",
    "LAPTOP_HOST",
    "sole_host_organisation",
    "default_big_point_places",
    "default_public_language",
    "Tournament",
    "Organisation",
    "Player",
    "Person",
    "Season",
    "DEFAULT_SEASON_POINTS",
    "SEAT_LETTERS",
    "SEAT_CHOICES",
    "Round",
    "FINAL_STATE_LABELS",
    "DEFAULT_ROUND_MINUTES",
    "ROUND_MINUTES_RANGE",
    "RoundTime",
    "Table",
    "Seat",
    "SubmissionToken",
    "AuditEntry",
    "ServerError",
    "ProducedFile",
    "OutgoingMail",
]

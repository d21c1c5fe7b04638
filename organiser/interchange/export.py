"""Exporting a tournament as an interchange file: deterministic, so export → import → export
gives identical bytes."""

from __future__ import annotations

import datetime
import json

from django.db.models import Prefetch

from organiser.interchange.audit import export_audit
from organiser.interchange.entries import export_entries
from organiser.interchange.parse import FORMAT, SETTING_KEYS
from organiser.interchange.timetable import export_timetable
from scoring.models import Card, Game, ScoreSheet, TieDecision
from scoring.records import card_record, game_record
from tournament.models import Player, Round, Seat

SEAT_RESULTS = Prefetch("results", to_attr="seat_results")  # as `game_record` reads them


def export_tournament(tournament):
    """The whole tournament as a JSON-ready dict (deterministic key and list order)."""
    t = tournament
    settings = {key: getattr(t, key) for key in SETTING_KEYS}
    for key in ("entries_until", "capacity"):  # absent: entries closed, no capacity
        if settings[key] is None:
            del settings[key]
    if "entries_until" in settings:
        settings["entries_until"] = settings["entries_until"].astimezone(datetime.UTC).isoformat()
    players = list(
        Player.objects.filter(tournament=t).select_related("organisation", "person").order_by("start_number")
    )
    ext = {p.pk: p.ext_id for p in players}
    seats = {}
    for seat in Seat.objects.filter(round__tournament=t):
        seats.setdefault(seat.table_id, {})[seat.letter] = ext[seat.player_id]
    sheets = {s.table_id: s for s in ScoreSheet.objects.filter(table__round__tournament=t)}
    games = {}
    for game in (
        Game.objects.filter(sheet__table__round__tournament=t).prefetch_related(SEAT_RESULTS).order_by("number")
    ):
        games.setdefault(game.sheet_id, []).append(game)
    rounds = [
        _round_record(round_, seats, sheets, games)
        for round_ in Round.objects.filter(tournament=t).prefetch_related("tables").order_by("number")
    ]
    entries = export_entries(t, ext)
    return {
        "format": FORMAT,
        "tournament": {"name": t.name, "slug": t.slug, "date": t.date.isoformat(), "settings": settings},
        "players": [
            {
                "id": p.ext_id,
                "name": p.name,
                "surname": p.surname,
                "given_names": p.given_names,
                "organisation": p.organisation.name,
                "status": p.status,
                "present": p.present,
                "joins_from_round": p.joins_from_round,
                **({"person": str(p.person.uid)} if p.person is not None else {}),
            }
            for p in players
        ],
        "rounds": rounds,
        "timetable": export_timetable(t),
        "cards": [
            card_record(c)
            for c in Card.objects.filter(tournament=t).select_related("player", "round").order_by("created_at", "pk")
        ],
        "tie_decisions": [
            {"order": d.order, "reason": d.reason}
            for d in TieDecision.objects.filter(tournament=t).order_by("created_at", "pk")
        ],
        "audit": export_audit(t),
        **({"entries": entries} if entries else {}),  # absent: no entries, as files before entries had
    }


def _round_record(round_, seats, sheets, games):
    """A round with its tables' seats, sheet states and stored games."""
    tables = []
    for table in sorted(round_.tables.all(), key=lambda x: x.number):
        sheet = sheets.get(table.pk)
        tables.append(
            {
                "number": table.number,
                "seats": dict(sorted(seats.get(table.pk, {}).items())),
                "state": sheet.state if sheet else ScoreSheet.State.EMPTY,
                "games": [game_record(g, g.seat_results) for g in games.get(sheet.pk, [])] if sheet else [],
            }
        )
    return {
        "number": round_.number,
        "kind": round_.kind,
        "state": round_.state,
        "seed": round_.seed,
        "method": round_.method,
        "started_at": _utc(round_.started_at),
        "completed_at": _utc(round_.completed_at),
        "tables": tables,
    }


def _utc(moment):
    return moment.astimezone(datetime.UTC).isoformat() if moment else None


def dumps(data):
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"

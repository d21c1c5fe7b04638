"""Importing an interchange file: validated first (`parse`), then written in one transaction."""

from __future__ import annotations

from collections import Counter

from django.db import transaction

from engine.discipline import derived_status
from organiser.importers import PlayerRow
from organiser.interchange.audit import load_audit
from organiser.interchange.checks import decode, fail
from organiser.interchange.entries import load_entries
from organiser.interchange.parse import parse
from organiser.interchange.timetable import load_timetable
from organiser.matching import people_of_file
from scoring.models import Card, ScoreSheet, TieDecision
from scoring.services.sheets import store_game
from tournament import validation
from tournament.models import Organisation, Player, Round, Seat, Table, Tournament, sole_host_organisation
from tournament.selectors import slug_taken


@transaction.atomic
def import_tournament(data, *, host=None, slug=None):
    """Validate and write a decoded file as a tournament of the host organisation `host` (None: the
    server's only one), at the address `slug` (None: the file's); returns the new Tournament.
    Raises InterchangeError."""
    plan = parse(data)
    slug = slug or plan["tournament"]["slug"]
    if slug_taken(slug):
        fail("tournament.slug", f"a tournament {slug!r} already exists")
    host_id = host.pk if host is not None else sole_host_organisation()
    if host_id is None:
        fail("tournament", "this server has several host organisations: name the one to import into")
    tournament = Tournament.objects.create(**{**plan["tournament"], "slug": slug, "host_id": host_id})
    players = load_players(tournament, plan)
    rounds, sheets = {}, {}
    for r in plan["rounds"]:
        round_ = Round.objects.create(
            tournament=tournament,
            number=r["number"],
            kind=r["kind"],
            state=r["state"],
            seed=r["seed"],
            method=r["method"],
            started_at=r["started_at"],
            completed_at=r["completed_at"],
        )
        rounds[r["number"]] = round_
        for t in r["tables"]:
            table = Table.objects.create(round=round_, number=t["number"])
            Seat.objects.bulk_create(
                Seat(table=table, round=round_, player=players[pid], letter=letter)
                for letter, pid in t["seats"].items()
            )
            sheet = sheets[r["number"], t["number"]] = ScoreSheet.objects.create(table=table, state=t["state"])
            for g in t["games"]:
                store_game(sheet, g["number"], g["game"], keypad=g["keypad"] or None, overrides=g["overrides"])
    load_timetable(tournament, plan["timetable"])
    load_cards(tournament, plan["cards"], players, rounds)
    TieDecision.objects.bulk_create(
        TieDecision(tournament=tournament, order=d["order"], reason=d["reason"]) for d in plan["tie_decisions"]
    )
    load_audit(tournament, plan["audit"], sheets)
    load_entries(tournament, plan["entries"], players)
    return tournament


def load_players(tournament, plan):
    """Write the parsed players with their organisations and people (`players[].person`, else by
    name: `matching.people_of_file`); {player id in the file: Player}."""
    organisations = {}  # one per name in any case or spacing, spelt as first met (as the player forms do)
    for p in plan["players"].values():
        organisations.setdefault(
            validation.name_key(p["organisation"]), Organisation(tournament=tournament, name=p["organisation"])
        )
    Organisation.objects.bulk_create(organisations.values())
    colours = {pid: Counter() for pid in plan["players"]}
    for card in plan["cards"]:
        if card["withdrawn"] is None:  # a withdrawn card does not count
            colours[card["player"]][card["colour"]] += 1
    players = {}
    org_slots = Counter()
    lines = [
        (PlayerRow(p["given_names"], p["surname"], p["organisation"]), p["person"]) for p in plan["players"].values()
    ]
    people = people_of_file(tournament, lines)
    for number, ((player_id, p), person) in enumerate(zip(plan["players"].items(), people, strict=True), start=1):
        organisation = organisations[validation.name_key(p["organisation"])]
        org_slots[organisation.name] += 1
        players[player_id] = Player(
            tournament=tournament,
            organisation=organisation,
            name=p["name"],
            surname=p["surname"],
            given_names=p["given_names"],
            start_number=number,
            ext_id=player_id,
            org_slot=org_slots[organisation.name],
            status=derived_status(p["status"], colours[player_id]),
            present=p["present"],
            joins_from_round=p["joins_from_round"],
            person=person,
        )
    Player.objects.bulk_create(players.values())
    return players


def load_cards(tournament, cards, players, rounds):
    """Write the parsed cards with the times the file gives (a card without one gets the import's
    time); who gave and who withdrew a card are kept as text, linked to no account."""
    created = Card.objects.bulk_create(
        Card(
            tournament=tournament,
            player=players[c["player"]],
            round=rounds.get(c["round"]),
            colour=c["colour"],
            reason=c["reason"],
            given_by_name=c["given_by"],
            withdrawn_at=c["withdrawn"]["at"] if c["withdrawn"] else None,
            withdrawn_by_name=c["withdrawn"]["by"] if c["withdrawn"] else "",
            withdrawal_reason=c["withdrawn"]["reason"] if c["withdrawn"] else "",
        )
        for c in cards
    )
    dated = []
    for card, c in zip(created, cards):
        if c["given_at"] is not None:
            card.created_at = c["given_at"]  # `auto_now_add` stamped the import's time
            dated.append(card)
    Card.objects.bulk_update(dated, ["created_at"], batch_size=500)


def import_json_text(text, *, host=None):
    return import_tournament(decode(text), host=host)

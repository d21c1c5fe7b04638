"""Validating an interchange file (SPEC §9) into a plain plan of what to write.

The whole file is checked before anything is written: the rules of SPEC §3 through the rules
engine, names, settings and limits through the same checks as the forms (`tournament.validation`).
"""

from __future__ import annotations

import datetime
import uuid
from collections import Counter

from django.core.exceptions import ValidationError

from engine import rules
from organiser.interchange.audit import parse_audit
from organiser.interchange.checks import (
    TEXT_CONTROLS,
    check_depth,
    check_known_keys,
    checked_choice,
    checked_datetime,
    checked_int,
    checked_list,
    checked_name,
    checked_object,
    checked_player,
    checked_text,
    checked_time,
    fail,
    optional_text,
    refusal_text,
    shown,
)
from organiser.interchange.entries import parse_entries
from organiser.interchange.timetable import parse_timetable
from scoring.models import Card, ScoreSheet
from tournament import validation
from tournament.models import SCORING_FIELDS, Player, Round, Tournament
from tournament.names import full_name, split_name

FORMAT = "rummikub-tournament/1"
CHOICES = {
    "opening_penalty_mode": [c for c, _ in Tournament.PenaltyMode.choices],
    "pool_exhausted_scoring": [c for c, _ in Tournament.PoolScoring.choices],
    "big_point_unit": [c for c, _ in Tournament.BigPointUnit.choices],
    "seating_method": [c for c, _ in Tournament.SeatingMethod.choices],
    "visibility": [c for c, _ in Tournament.Visibility.choices],
    "final_release": [c for c, _ in Tournament.FinalRelease.choices],
    "public_language": [c for c, _ in Tournament._meta.get_field("public_language").choices or ()],
}
BOOL_SETTINGS = ("final", "auto_freeze")
SETTING_KEYS = (
    *SCORING_FIELDS,
    "players_per_organisation",
    "rounds_planned",
    "final",
    "final_games",
    "move_seconds",
    "initial_meld",
    "seating_method",
    "visibility",
    "auto_freeze",
    "frozen_round",
    "public_language",
    "final_release",
    "entries_until",
    "capacity",
)
ROUND_STATES = [c for c, _ in Round.State.choices]
PLAYED_STATES = [Round.State.STARTED, Round.State.COMPLETED]
SHEET_STATES = [c for c, _ in ScoreSheet.State.choices]
PLAYER_STATUSES = [c for c, _ in Player.Status.choices]
CARD_COLOURS = [c for c, _ in Card.Colour.choices]


def _parse_settings(data, path):
    """The settings of the file, checked by the same rules as the settings form."""
    settings = {}
    data = checked_object(data, path)
    check_known_keys(data, path, SETTING_KEYS)
    for key, (low, high) in validation.SETTING_RANGES.items():
        if key in data:
            settings[key] = checked_int(data[key], f"{path}.{key}", low, high)
    for key, choices in CHOICES.items():
        if key in data:
            settings[key] = checked_choice(data[key], f"{path}.{key}", choices)
    for key in BOOL_SETTINGS:
        if key in data:
            if not isinstance(data[key], bool):
                fail(f"{path}.{key}", f"must be true or false, got {shown(data[key])}")
            settings[key] = data[key]
    if "big_point_places" in data:
        places = checked_list(data["big_point_places"], f"{path}.big_point_places")
        high = validation.MAX_PLACE_POINTS
        places = [
            checked_int(p, f"{path}.big_point_places[{i}]", 0, high)
            for i, p in enumerate(places[: validation.MAX_PLACES + 1])
        ]
        try:
            settings["big_point_places"] = validation.check_places(places)
        except ValidationError as error:
            fail(f"{path}.big_point_places", refusal_text(error))
    if data.get("frozen_round") is not None:
        settings["frozen_round"] = checked_int(data["frozen_round"], f"{path}.frozen_round", 0, 100)
    if data.get("capacity") is not None:
        settings["capacity"] = checked_int(data["capacity"], f"{path}.capacity", 1, 1000)
    if data.get("entries_until") is not None:
        settings["entries_until"] = checked_datetime(data["entries_until"], f"{path}.entries_until")
    return settings


def _parse_rack(data, path):
    data = checked_object(data, path)
    check_known_keys(data, path, ("tiles", "jokers", "opening", "first_move_case", "override", "keypad"))
    rack = rules.Rack(
        tiles=data.get("tiles", 0),
        jokers=data.get("jokers", 0),
        opening=data.get("opening", rules.OPENED),
        first_move_case=data.get("first_move_case", False),
    )
    try:
        rules.validate_rack(rack, path)
    except rules.RuleViolation as error:
        fail(error.path, error.message)
    override = None
    if "override" in data:
        o = checked_object(data["override"], f"{path}.override")
        check_known_keys(o, f"{path}.override", ("score", "reason"))
        override = (
            checked_int(o.get("score"), f"{path}.override.score", -rules.MAX_OVERRIDE, rules.MAX_OVERRIDE),
            checked_text(o.get("reason"), f"{path}.override.reason", max_length=2000, allowed_controls=TEXT_CONTROLS),
        )
    keypad = None
    if "keypad" in data:
        keypad = checked_list(data["keypad"], f"{path}.keypad")
        try:
            tiles, jokers = rules.keypad_rack(keypad)
        except rules.RuleViolation as error:
            fail(f"{path}.keypad", error.message)
        if (tiles, jokers) != (rack.tiles, rack.jokers):
            fail(
                f"{path}.keypad",
                f"adds up to {tiles} and {jokers} jokers, but the rack says {rack.tiles} and {rack.jokers}",
            )
    return rack, override, keypad


def _parse_game(data, path, letters, settings, games):
    """One game of a table that plays `games` games (game numbers 1…games)."""
    data = checked_object(data, path)
    check_known_keys(data, path, ("number", "ending", "winner", "racks", "winner_override"))
    number = checked_int(data.get("number"), f"{path}.number", 1, games)
    ending = checked_choice(data.get("ending"), f"{path}.ending", list(rules.ENDINGS))
    winner = data.get("winner")
    if ending == rules.OUT:
        if winner is None:
            fail(f"{path}.winner", "a game that ended with a player going out needs a winner")
        if winner not in rules.SEAT_LETTERS:
            fail(f"{path}.winner", f"seat letters are A–D, got {shown(winner)}")
    elif winner is not None:
        fail(f"{path}.winner", "a pool-exhausted game has no winner")
    racks_data = checked_object(data.get("racks", {}), f"{path}.racks")
    racks, overrides, keypads = {}, {}, {}
    for letter, rack_data in racks_data.items():
        rack_path = f"{path}.racks.{letter}"
        if letter not in rules.SEAT_LETTERS:
            fail(rack_path, f"seat letters are A–D, got {shown(letter)}")
        racks[letter], override, keypad = _parse_rack(rack_data, rack_path)
        if override:
            overrides[letter] = override
        if keypad is not None:
            keypads[letter] = keypad
    if "winner_override" in data:
        if winner is None:
            fail(f"{path}.winner_override", "only a game with a winner can override the winner's score")
        o = checked_object(data["winner_override"], f"{path}.winner_override")
        check_known_keys(o, f"{path}.winner_override", ("score", "reason"))
        overrides[winner] = (
            checked_int(o.get("score"), f"{path}.winner_override.score", -rules.MAX_OVERRIDE, rules.MAX_OVERRIDE),
            checked_text(
                o.get("reason"), f"{path}.winner_override.reason", max_length=2000, allowed_controls=TEXT_CONTROLS
            ),
        )
    game = rules.Game(seats=letters, winner=winner, racks=racks)
    try:
        rules.score_game(game, settings)
        if keypads:
            rules.validate_keypad_racks(keypads)
    except rules.RuleViolation as error:
        fail(f"{path}.{error.path}" if error.path else path, error.message)
    return {"number": number, "game": game, "overrides": overrides, "keypad": keypads}


def _parse_table(data, path, players, seated, round_):
    data = checked_object(data, path)
    check_known_keys(data, path, ("number", "seats", "games", "state"))
    number = checked_int(data.get("number"), f"{path}.number", 1, 1000)
    seats = checked_object(data.get("seats"), f"{path}.seats")
    for letter, player_id in seats.items():
        seat_path = f"{path}.seats.{letter}"
        if letter not in rules.SEAT_LETTERS:
            fail(seat_path, f"seat letters are A–D, got {shown(letter)}")
        checked_player(player_id, seat_path, players)
        if player_id in seated:
            fail(seat_path, f"player {shown(player_id)} sits twice in this round")
        seated.add(player_id)
    if not 3 <= len(seats) <= 4:
        fail(f"{path}.seats", f"a table seats 3 or 4 players, got {len(seats)}")
    letters = tuple(sorted(seats))
    if letters != rules.SEAT_LETTERS[: len(letters)]:
        fail(
            f"{path}.seats", f"seats must be {', '.join(rules.SEAT_LETTERS[: len(letters)])}, got {', '.join(letters)}"
        )
    games, numbers = [], set()
    settings, count = round_.tournament.rules_settings(), round_.games_per_table(len(letters))
    for i, game_data in enumerate(checked_list(data.get("games", []), f"{path}.games")):
        game = _parse_game(game_data, f"{path}.games[{i}]", letters, settings, count)
        if game["number"] in numbers:
            fail(f"{path}.games[{i}].number", f"game {game['number']} appears twice")
        numbers.add(game["number"])
        games.append(game)
    default_state = ScoreSheet.State.VERIFIED if games else ScoreSheet.State.EMPTY
    state = checked_choice(data.get("state", default_state), f"{path}.state", SHEET_STATES)
    return {"number": number, "seats": dict(seats), "games": games, "state": state}


def parse(data):
    """Validate a decoded file and return a plain description of what to write."""
    data = checked_object(data, "")
    check_depth(data)
    if data.get("format") != FORMAT:  # first: a file of another kind is named as such
        fail("format", f"must be {FORMAT!r}, got {shown(data.get('format'))}")
    check_known_keys(
        data,
        "",
        ("format", "tournament", "players", "rounds", "timetable", "cards", "tie_decisions", "audit", "entries"),
    )
    t = checked_object(data.get("tournament"), "tournament")
    check_known_keys(t, "tournament", ("name", "slug", "date", "settings"))
    name = checked_name(t.get("name"), "tournament.name")
    slug = checked_text(t.get("slug"), "tournament.slug", max_length=validation.MAX_SLUG)
    try:
        validation.check_slug(slug)
    except ValidationError as error:
        fail("tournament.slug", refusal_text(error))
    try:
        date = datetime.date.fromisoformat(t.get("date"))
    except (TypeError, ValueError):
        fail("tournament.date", f"must be a date like 2026-02-10, got {shown(t.get('date'))}")
    settings = _parse_settings(t.get("settings", {}), "tournament.settings")
    defaults = Tournament(name=name, slug=slug, date=date, **settings)
    players = _parse_players(data.get("players"), defaults.players_per_organisation)
    rounds = _parse_rounds(data.get("rounds", []), players, defaults)
    _check_limits(settings, players, rounds)
    round_numbers = {r["number"] for r in rounds}

    cards = [
        _parse_card(c, f"cards[{i}]", players, round_numbers)
        for i, c in enumerate(checked_list(data.get("cards", []), "cards"))
    ]

    decisions = _parse_tie_decisions(data.get("tie_decisions", []), players)

    return {
        "tournament": {"name": name, "slug": slug, "date": date, **settings},
        "players": players,
        "rounds": rounds,
        "timetable": parse_timetable(data.get("timetable", [])),
        "cards": cards,
        "tie_decisions": decisions,
        "audit": parse_audit(data.get("audit", []), rounds),
        "entries": parse_entries(data.get("entries", []), players),
    }


def _parse_tie_decisions(decisions_data, players):
    """The tie decisions: each an order of two or more different players and its reason."""
    decisions = []
    for i, d in enumerate(checked_list(decisions_data, "tie_decisions")):
        path = f"tie_decisions[{i}]"
        d = checked_object(d, path)
        check_known_keys(d, path, ("order", "reason"))
        order = checked_list(d.get("order"), f"{path}.order")
        for k, player_id in enumerate(order):
            checked_player(player_id, f"{path}.order[{k}]", players)
        if len(order) < 2 or len(set(order)) != len(order):
            fail(f"{path}.order", "must list two or more different players")
        decisions.append(
            {
                "order": order,
                "reason": checked_text(
                    d.get("reason"), f"{path}.reason", max_length=2000, allowed_controls=TEXT_CONTROLS
                ),
            }
        )
    return decisions


def _parse_card(c, path, players, round_numbers):
    """One card: who got it, in which round, its colour and reason; optionally when it was given
    and by whom (a user name, as text), and `withdrawn` ({at, by, reason}) when it no longer counts."""
    c = checked_object(c, path)
    check_known_keys(c, path, ("player", "round", "colour", "reason", "given_at", "given_by", "withdrawn"))
    checked_player(c.get("player"), f"{path}.player", players)
    round_number = c.get("round")
    if round_number is not None and (not isinstance(round_number, int) or round_number not in round_numbers):
        fail(f"{path}.round", f"unknown round {shown(round_number)}")
    card = {
        "player": c["player"],
        "round": round_number,
        "colour": checked_choice(c.get("colour"), f"{path}.colour", CARD_COLOURS),
        "reason": checked_text(c.get("reason"), f"{path}.reason", max_length=2000, allowed_controls=TEXT_CONTROLS),
        "given_at": checked_time(c["given_at"], f"{path}.given_at") if c.get("given_at") is not None else None,
        "given_by": optional_text(c.get("given_by"), f"{path}.given_by", 150),
        "withdrawn": None,
    }
    if c.get("withdrawn") is not None:
        w = checked_object(c["withdrawn"], f"{path}.withdrawn")
        check_known_keys(w, f"{path}.withdrawn", ("at", "by", "reason"))
        card["withdrawn"] = {
            "at": checked_time(w.get("at"), f"{path}.withdrawn.at"),
            "by": optional_text(w.get("by"), f"{path}.withdrawn.by", 150),
            "reason": checked_text(
                w.get("reason"), f"{path}.withdrawn.reason", max_length=2000, allowed_controls=TEXT_CONTROLS
            ),
        }
        if card["given_at"] is not None and card["withdrawn"]["at"] < card["given_at"]:
            fail(f"{path}.withdrawn.at", "a card cannot be withdrawn before it was given")
    return card


def _parse_players(data, quota):
    """{player id: player} of the file's players. Names are checked as in the player forms;
    a name is the same name in any case or spacing (`validation.name_key`), like there."""
    players, names, per_org, people = {}, set(), Counter(), set()
    for i, p in enumerate(checked_list(data, "players")):
        path = f"players[{i}]"
        p = checked_object(p, path)
        check_known_keys(
            p,
            path,
            ("id", "name", "surname", "given_names", "organisation", "status", "present", "joins_from_round", "person"),
        )
        player_id = checked_text(p.get("id"), f"{path}.id", max_length=50)
        if player_id in players:
            fail(f"{path}.id", f"player id {shown(player_id)} appears twice")
        organisation = checked_name(p.get("organisation"), f"{path}.organisation")
        organisation_key = validation.name_key(organisation)
        per_org[organisation_key] += 1
        if per_org[organisation_key] > quota:
            fail(f"{path}.organisation", f"organisation {shown(organisation)} exceeds its quota of {quota}")
        player_name = checked_name(p.get("name"), f"{path}.name")
        key = (organisation_key, validation.name_key(player_name))
        if key in names:
            fail(f"{path}.name", f"{shown(player_name)} appears twice in {shown(organisation)}")
        names.add(key)
        given_names, surname = _name_parts(p, path, player_name)
        present = p.get("present", False)
        if not isinstance(present, bool):
            fail(f"{path}.present", f"must be true or false, got {shown(present)}")
        joins = p.get("joins_from_round")
        players[player_id] = {
            "name": player_name,
            "surname": surname,
            "given_names": given_names,
            "organisation": organisation,
            "status": checked_choice(p.get("status", "active"), f"{path}.status", PLAYER_STATUSES),
            "present": present,
            "joins_from_round": None if joins is None else checked_int(joins, f"{path}.joins_from_round", 1, 100),
            "person": _person_uid(p, path, people),
        }
    return players


def _person_uid(p, path, people):
    """The optional stable id of the player's person (`players[].person`), once per file; None when absent."""
    if p.get("person") is None:
        return None
    try:
        uid = uuid.UUID(p["person"]) if isinstance(p["person"], str) else None
    except ValueError:
        uid = None
    if uid is None:
        fail(f"{path}.person", "not a valid id")
    if uid in people:
        fail(f"{path}.person", f"person {uid} appears twice")
    people.add(uid)
    return uid


def _name_parts(p, path, name):
    """(given names, surname) of a player: the file's `given_names` and `surname`, which must
    put together give its `name`; without them, `name` split as a registration list writes it
    ("Anna Nowak": the last word is the surname)."""
    if "surname" not in p and "given_names" not in p:
        return split_name(name, comma=False)
    for key in ("surname", "given_names"):
        if key not in p:
            fail(f"{path}.{key}", "surname and given_names come together")
    surname = checked_name(p["surname"], f"{path}.surname")
    given_names = p["given_names"]
    if not isinstance(given_names, str):
        fail(f"{path}.given_names", f"must be a text, got {shown(given_names)}")
    given_names = checked_name(given_names, f"{path}.given_names") if given_names.strip() else ""
    if full_name(given_names, surname) != name:
        fail(
            f"{path}.surname",
            f"given_names and surname make {shown(full_name(given_names, surname))}, not the name {shown(name)}",
        )
    return given_names, surname


def _parse_rounds(data, players, tournament):
    rounds, round_numbers = [], set()
    for i, r in enumerate(checked_list(data, "rounds")):
        path = f"rounds[{i}]"
        r = checked_object(r, path)
        check_known_keys(r, path, ("number", "kind", "state", "seed", "method", "started_at", "completed_at", "tables"))
        number = checked_int(r.get("number"), f"{path}.number", 1, 100)
        if number in round_numbers:
            fail(f"{path}.number", f"round {number} appears twice")
        round_numbers.add(number)
        kind = checked_choice(r.get("kind", "qualifying"), f"{path}.kind", [c for c, _ in Round.Kind.choices])
        if kind == Round.Kind.FINAL and any(x["kind"] == Round.Kind.FINAL for x in rounds):
            fail(f"{path}.kind", "a tournament has only one final")
        round_ = Round(tournament=tournament, number=number, kind=kind)
        seated, tables, table_numbers = set(), [], set()
        for j, table_data in enumerate(checked_list(r.get("tables", []), f"{path}.tables")):
            table = _parse_table(table_data, f"{path}.tables[{j}]", players, seated, round_)
            if table["number"] in table_numbers:
                fail(f"{path}.tables[{j}].number", f"table {table['number']} appears twice")
            table_numbers.add(table["number"])
            tables.append(table)
        seed = r.get("seed", "")
        if isinstance(seed, int) and not isinstance(seed, bool):
            seed = str(seed)
        state = checked_choice(r.get("state", Round.State.COMPLETED), f"{path}.state", ROUND_STATES)
        rounds.append(
            {
                "number": number,
                "kind": kind,
                "state": state,
                "seed": checked_text(seed, f"{path}.seed", max_length=64) if seed != "" else "",
                "method": checked_choice(
                    r.get("method", ""), f"{path}.method", ["", "random", "mixed", "swiss", "manual", "final"]
                ),
                **_round_times(r, path, state),
                "tables": tables,
            }
        )
    return rounds


def _round_times(r, path, state):
    """When the round started and when it was completed (its clock counts from the start): each a
    time with its offset or null; a round has them only once it has reached that state."""
    times = {}
    for key, states in (("started_at", PLAYED_STATES), ("completed_at", [Round.State.COMPLETED])):
        value = r.get(key)
        times[key] = None if value is None else checked_time(value, f"{path}.{key}")
        if times[key] is not None and state not in states:
            fail(f"{path}.{key}", f"a round in state {state} has no {key}")
    if times["completed_at"] is not None:
        if times["started_at"] is None:
            fail(f"{path}.completed_at", "a round that has no started_at cannot have completed_at")
        if times["completed_at"] < times["started_at"]:
            fail(f"{path}.completed_at", "a round cannot be completed before it started")
    return times


def _check_limits(settings, players, rounds):
    """The settings form's checks against the data: quota, rounds planned, the final."""
    qualifying = [r["number"] for r in rounds if r["kind"] == Round.Kind.QUALIFYING]
    defaults = Tournament()
    problems = validation.limit_problems(
        {
            key: settings.get(key, getattr(defaults, key))
            for key in ("players_per_organisation", "rounds_planned", "final")
        },
        largest=max(Counter(validation.name_key(p["organisation"]) for p in players.values()).values(), default=0),
        rounds_drawn=max(qualifying, default=0),
        has_final=any(r["kind"] == Round.Kind.FINAL for r in rounds),
    )
    for key, message in problems.items():
        fail(f"tournament.settings.{key}", message)

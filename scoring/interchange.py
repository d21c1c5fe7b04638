"""The JSON interchange format `rummikub-tournament/1` (SPEC §9): export and import.

Import validates the whole file first and reports the first problem with its JSON path
(e.g. ``rounds[1].tables[0].games[2].racks.B.tiles: must be 0–728, got -3``); only a valid
file is written, in one transaction. Export → import → export gives identical bytes.
"""

from __future__ import annotations

import datetime
import json
import re
from collections import Counter

from django.db import transaction

from scoring import rules
from scoring.models import Card, Game, ScoreSheet, TieDecision
from tournament.models import Organisation, Player, Round, Seat, Table, Tournament

FORMAT = "rummikub-tournament/1"
SLUG_RE = re.compile(r"^[-a-zA-Z0-9_]+$")
CHOICES = {
    "opening_penalty_mode": [c for c, _ in Tournament.PenaltyMode.choices],
    "pool_exhausted_scoring": [c for c, _ in Tournament.PoolScoring.choices],
    "big_point_unit": [c for c, _ in Tournament.BigPointUnit.choices],
    "seating_method": [c for c, _ in Tournament.SeatingMethod.choices],
    "visibility": [c for c, _ in Tournament.Visibility.choices],
}
INT_SETTINGS = {
    "joker_penalty": (0, 10_000), "penalty_not_possible": (0, 10_000), "penalty_possible_not_done": (0, 10_000),
    "penalty_drawn_last_round": (0, 10_000), "penalty_first_move": (0, 10_000), "players_per_organisation": (1, 50),
    "rounds_planned": (1, 20), "move_seconds": (5, 600), "final_games": (1, 12), "initial_meld": (0, 1000),
}
BOOL_SETTINGS = ("final", "auto_freeze")
SETTING_KEYS = (
    "joker_penalty", "opening_penalty_mode", "penalty_not_possible", "penalty_possible_not_done",
    "penalty_drawn_last_round", "penalty_first_move", "pool_exhausted_scoring", "big_point_unit",
    "big_point_places", "players_per_organisation", "rounds_planned", "final", "final_games", "move_seconds",
    "initial_meld", "seating_method", "visibility", "auto_freeze", "frozen_round",
)
ROUND_STATES = [c for c, _ in Round.State.choices]
SHEET_STATES = [c for c, _ in ScoreSheet.State.choices]
PLAYER_STATUSES = [c for c, _ in Player.Status.choices]
CARD_COLOURS = [c for c, _ in Card.Colour.choices]


class InterchangeError(ValueError):
    """A file that cannot be imported; the message starts with the JSON path."""


def _fail(path, message):
    raise InterchangeError(f"{path}: {message}" if path else message)


def _obj(value, path):
    if not isinstance(value, dict):
        _fail(path, f"must be an object, got {type(value).__name__}")
    return value


def _list(value, path):
    if not isinstance(value, list):
        _fail(path, f"must be a list, got {type(value).__name__}")
    return value


def _text(value, path, *, max_length=200):
    if not isinstance(value, str) or not value.strip():
        _fail(path, "must be a non-empty text")
    if len(value) > max_length:
        _fail(path, f"must be at most {max_length} characters long")
    return value.strip()


def _int(value, path, low, high):
    if not isinstance(value, int) or isinstance(value, bool):
        _fail(path, f"must be a whole number, got {value!r}")
    if not low <= value <= high:
        _fail(path, f"must be {low}–{high}, got {value}")
    return value


def _choice(value, path, choices):
    if value not in choices:
        _fail(path, f"must be one of {', '.join(choices)}, got {value!r}")
    return value


def _player_ref(value, path, players):
    if not isinstance(value, str) or value not in players:
        _fail(path, f"unknown player {value!r}")
    return value


def _known_keys(obj, path, keys):
    for key in obj:
        if key not in keys:
            _fail(f"{path}.{key}" if path else key, "unknown field")


# ---------------------------------------------------------------- validation

def _parse_settings(data, path):
    settings = {}
    data = _obj(data, path)
    _known_keys(data, path, SETTING_KEYS)
    for key, (low, high) in INT_SETTINGS.items():
        if key in data:
            settings[key] = _int(data[key], f"{path}.{key}", low, high)
    for key, choices in CHOICES.items():
        if key in data:
            settings[key] = _choice(data[key], f"{path}.{key}", choices)
    for key in BOOL_SETTINGS:
        if key in data:
            if not isinstance(data[key], bool):
                _fail(f"{path}.{key}", f"must be true or false, got {data[key]!r}")
            settings[key] = data[key]
    if "big_point_places" in data:
        places = _list(data["big_point_places"], f"{path}.big_point_places")
        if not 1 <= len(places) <= 4:
            _fail(f"{path}.big_point_places", "must list 1 to 4 places")
        settings["big_point_places"] = [
            _int(p, f"{path}.big_point_places[{i}]", 0, 1000) for i, p in enumerate(places)
        ]
    if data.get("frozen_round") is not None:
        settings["frozen_round"] = _int(data["frozen_round"], f"{path}.frozen_round", 0, 100)
    return settings


def _parse_rack(data, path):
    data = _obj(data, path)
    _known_keys(data, path, ("tiles", "jokers", "opening", "first_move_case", "override", "keypad"))
    rack = rules.Rack(
        tiles=data.get("tiles", 0), jokers=data.get("jokers", 0), opening=data.get("opening", rules.OPENED),
        first_move_case=data.get("first_move_case", False),
    )
    try:
        rules.validate_rack(rack, path)
    except rules.RuleViolation as error:
        _fail(error.path, error.message)
    override = None
    if "override" in data:
        o = _obj(data["override"], f"{path}.override")
        _known_keys(o, f"{path}.override", ("score", "reason"))
        override = (
            _int(o.get("score"), f"{path}.override.score", -rules.MAX_OVERRIDE, rules.MAX_OVERRIDE),
            _text(o.get("reason"), f"{path}.override.reason", max_length=2000),
        )
    keypad = None
    if "keypad" in data:
        keypad = _list(data["keypad"], f"{path}.keypad")
        try:
            tiles, jokers = rules.keypad_rack(keypad)
        except rules.RuleViolation as error:
            _fail(f"{path}.keypad", error.message)
        if (tiles, jokers) != (rack.tiles, rack.jokers):
            _fail(f"{path}.keypad", f"adds up to {tiles} and {jokers} jokers, but the rack says {rack.tiles} and {rack.jokers}")
    return rack, override, keypad


def _parse_game(data, path, letters, settings):
    data = _obj(data, path)
    _known_keys(data, path, ("number", "ending", "winner", "racks", "winner_override"))
    number = _int(data.get("number"), f"{path}.number", 1, 50)
    ending = _choice(data.get("ending"), f"{path}.ending", list(rules.ENDINGS))
    winner = data.get("winner")
    if ending == rules.OUT:
        if winner is None:
            _fail(f"{path}.winner", "a game that ended with a player going out needs a winner")
        if winner not in rules.SEAT_LETTERS:
            _fail(f"{path}.winner", f"seat letters are A–D, got {winner!r}")
    elif winner is not None:
        _fail(f"{path}.winner", "a pool-exhausted game has no winner")
    racks_data = _obj(data.get("racks", {}), f"{path}.racks")
    racks, overrides, keypads = {}, {}, {}
    for letter, rack_data in racks_data.items():
        rack_path = f"{path}.racks.{letter}"
        if letter not in rules.SEAT_LETTERS:
            _fail(rack_path, f"seat letters are A–D, got {letter!r}")
        racks[letter], override, keypad = _parse_rack(rack_data, rack_path)
        if override:
            overrides[letter] = override
        if keypad is not None:
            keypads[letter] = keypad
    if "winner_override" in data:
        if winner is None:
            _fail(f"{path}.winner_override", "only a game with a winner can override the winner's score")
        o = _obj(data["winner_override"], f"{path}.winner_override")
        _known_keys(o, f"{path}.winner_override", ("score", "reason"))
        overrides[winner] = (
            _int(o.get("score"), f"{path}.winner_override.score", -rules.MAX_OVERRIDE, rules.MAX_OVERRIDE),
            _text(o.get("reason"), f"{path}.winner_override.reason", max_length=2000),
        )
    game = rules.Game(seats=letters, winner=winner, racks=racks)
    try:
        rules.score_game(game, settings)
        if keypads:
            rules.validate_keypad_racks(keypads)
    except rules.RuleViolation as error:
        _fail(f"{path}.{error.path}" if error.path else path, error.message)
    return {"number": number, "game": game, "overrides": overrides, "keypad": keypads}


def _parse_table(data, path, players, seated, settings):
    data = _obj(data, path)
    _known_keys(data, path, ("number", "seats", "games", "state"))
    number = _int(data.get("number"), f"{path}.number", 1, 1000)
    seats = _obj(data.get("seats"), f"{path}.seats")
    for letter, player_id in seats.items():
        seat_path = f"{path}.seats.{letter}"
        if letter not in rules.SEAT_LETTERS:
            _fail(seat_path, f"seat letters are A–D, got {letter!r}")
        _player_ref(player_id, seat_path, players)
        if player_id in seated:
            _fail(seat_path, f"player {player_id!r} sits twice in this round")
        seated.add(player_id)
    if not 3 <= len(seats) <= 4:
        _fail(f"{path}.seats", f"a table seats 3 or 4 players, got {len(seats)}")
    letters = tuple(sorted(seats))
    if letters != rules.SEAT_LETTERS[: len(letters)]:
        _fail(f"{path}.seats", f"seats must be {', '.join(rules.SEAT_LETTERS[:len(letters)])}, got {', '.join(letters)}")
    games, numbers = [], set()
    for i, game_data in enumerate(_list(data.get("games", []), f"{path}.games")):
        game = _parse_game(game_data, f"{path}.games[{i}]", letters, settings)
        if game["number"] in numbers:
            _fail(f"{path}.games[{i}].number", f"game {game['number']} appears twice")
        numbers.add(game["number"])
        games.append(game)
    default_state = ScoreSheet.State.VERIFIED if games else ScoreSheet.State.EMPTY
    state = _choice(data.get("state", default_state), f"{path}.state", SHEET_STATES)
    return {"number": number, "seats": dict(seats), "games": games, "state": state}


def parse(data):
    """Validate a decoded file and return a plain description of what to write."""
    data = _obj(data, "")
    _known_keys(data, "", ("format", "tournament", "players", "rounds", "cards", "tie_decisions"))
    if data.get("format") != FORMAT:
        _fail("format", f"must be {FORMAT!r}, got {data.get('format')!r}")
    t = _obj(data.get("tournament"), "tournament")
    _known_keys(t, "tournament", ("name", "slug", "date", "settings"))
    name = _text(t.get("name"), "tournament.name")
    slug = _text(t.get("slug"), "tournament.slug", max_length=80)
    if not SLUG_RE.match(slug):
        _fail("tournament.slug", "may use only letters, digits, - and _")
    try:
        date = datetime.date.fromisoformat(t.get("date"))
    except (TypeError, ValueError):
        _fail("tournament.date", f"must be a date like 2026-02-10, got {t.get('date')!r}")
    settings = _parse_settings(t.get("settings", {}), "tournament.settings")
    defaults = Tournament(name=name, slug=slug, date=date, **settings)
    rules_settings = defaults.rules_settings()

    players, per_org = {}, Counter()
    for i, p in enumerate(_list(data.get("players"), "players")):
        path = f"players[{i}]"
        p = _obj(p, path)
        _known_keys(p, path, ("id", "name", "organisation", "status", "present", "joins_from_round"))
        player_id = _text(p.get("id"), f"{path}.id", max_length=50)
        if player_id in players:
            _fail(f"{path}.id", f"player id {player_id!r} appears twice")
        organisation = _text(p.get("organisation"), f"{path}.organisation")
        per_org[organisation] += 1
        if per_org[organisation] > defaults.players_per_organisation:
            _fail(
                f"{path}.organisation",
                f"organisation {organisation!r} exceeds its quota of {defaults.players_per_organisation}",
            )
        player_name = _text(p.get("name"), f"{path}.name")
        if any(q["name"] == player_name and q["organisation"] == organisation for q in players.values()):
            _fail(f"{path}.name", f"{player_name!r} appears twice in {organisation!r}")
        present = p.get("present", False)
        if not isinstance(present, bool):
            _fail(f"{path}.present", f"must be true or false, got {present!r}")
        joins = p.get("joins_from_round")
        players[player_id] = {
            "name": player_name, "organisation": organisation,
            "status": _choice(p.get("status", "active"), f"{path}.status", PLAYER_STATUSES),
            "present": present,
            "joins_from_round": None if joins is None else _int(joins, f"{path}.joins_from_round", 1, 100),
        }

    rounds, round_numbers = [], set()
    for i, r in enumerate(_list(data.get("rounds", []), "rounds")):
        path = f"rounds[{i}]"
        r = _obj(r, path)
        _known_keys(r, path, ("number", "kind", "state", "seed", "method", "tables"))
        number = _int(r.get("number"), f"{path}.number", 1, 100)
        if number in round_numbers:
            _fail(f"{path}.number", f"round {number} appears twice")
        round_numbers.add(number)
        kind = _choice(r.get("kind", "qualifying"), f"{path}.kind", [c for c, _ in Round.Kind.choices])
        if kind == Round.Kind.FINAL and any(x["kind"] == Round.Kind.FINAL for x in rounds):
            _fail(f"{path}.kind", "a tournament has only one final")
        seated, tables, table_numbers = set(), [], set()
        for j, table_data in enumerate(_list(r.get("tables", []), f"{path}.tables")):
            table = _parse_table(table_data, f"{path}.tables[{j}]", players, seated, rules_settings)
            if table["number"] in table_numbers:
                _fail(f"{path}.tables[{j}].number", f"table {table['number']} appears twice")
            table_numbers.add(table["number"])
            tables.append(table)
        rounds.append({
            "number": number, "kind": kind,
            "state": _choice(r.get("state", Round.State.COMPLETED), f"{path}.state", ROUND_STATES),
            "seed": str(r.get("seed", ""))[:64], "method": _choice(r.get("method", ""), f"{path}.method", ["", "random", "mixed", "swiss", "manual", "final"]),
            "tables": tables,
        })

    cards = []
    for i, c in enumerate(_list(data.get("cards", []), "cards")):
        path = f"cards[{i}]"
        c = _obj(c, path)
        _known_keys(c, path, ("player", "round", "colour", "reason"))
        _player_ref(c.get("player"), f"{path}.player", players)
        round_number = c.get("round")
        if round_number is not None and (not isinstance(round_number, int) or round_number not in round_numbers):
            _fail(f"{path}.round", f"unknown round {round_number!r}")
        cards.append({
            "player": c["player"], "round": round_number,
            "colour": _choice(c.get("colour"), f"{path}.colour", CARD_COLOURS),
            "reason": _text(c.get("reason"), f"{path}.reason", max_length=2000),
        })

    decisions = []
    for i, d in enumerate(_list(data.get("tie_decisions", []), "tie_decisions")):
        path = f"tie_decisions[{i}]"
        d = _obj(d, path)
        _known_keys(d, path, ("order", "reason"))
        order = _list(d.get("order"), f"{path}.order")
        for k, player_id in enumerate(order):
            _player_ref(player_id, f"{path}.order[{k}]", players)
        if len(order) < 2 or len(set(order)) != len(order):
            _fail(f"{path}.order", "must list two or more different players")
        decisions.append({"order": order, "reason": _text(d.get("reason"), f"{path}.reason", max_length=2000)})

    return {
        "tournament": {"name": name, "slug": slug, "date": date, **settings},
        "players": players, "rounds": rounds, "cards": cards, "tie_decisions": decisions,
    }


def derived_status(stored, colours):
    """SPEC §9: two yellow cards or a red card disqualify, whatever the stored status says."""
    if colours["red"] or colours["yellow"] >= 2:
        return Player.Status.DISQUALIFIED
    return stored


# ---------------------------------------------------------------- import / export

@transaction.atomic
def import_tournament(data):
    """Validate and write a decoded file; returns the new Tournament. Raises InterchangeError."""
    plan = parse(data)
    if Tournament.objects.filter(slug=plan["tournament"]["slug"]).exists():
        _fail("tournament.slug", f"a tournament {plan['tournament']['slug']!r} already exists")
    tournament = Tournament.objects.create(**plan["tournament"])
    organisations = {}
    colours = {pid: Counter() for pid in plan["players"]}
    for card in plan["cards"]:
        colours[card["player"]][card["colour"]] += 1
    players = {}
    org_slots = Counter()
    for number, (player_id, p) in enumerate(plan["players"].items(), start=1):
        if p["organisation"] not in organisations:
            organisations[p["organisation"]] = Organisation.objects.create(tournament=tournament, name=p["organisation"])
        org_slots[p["organisation"]] += 1
        players[player_id] = Player(
            tournament=tournament, organisation=organisations[p["organisation"]], name=p["name"],
            start_number=number, ext_id=player_id, org_slot=org_slots[p["organisation"]],
            status=derived_status(p["status"], colours[player_id]), present=p["present"],
            joins_from_round=p["joins_from_round"],
        )
    Player.objects.bulk_create(players.values())
    from scoring.services import store_game

    rounds = {}
    for r in plan["rounds"]:
        round_ = Round.objects.create(
            tournament=tournament, number=r["number"], kind=r["kind"], state=r["state"], seed=r["seed"], method=r["method"]
        )
        rounds[r["number"]] = round_
        for t in r["tables"]:
            table = Table.objects.create(round=round_, number=t["number"])
            Seat.objects.bulk_create(
                Seat(table=table, round=round_, player=players[pid], letter=letter) for letter, pid in t["seats"].items()
            )
            sheet = ScoreSheet.objects.create(table=table, state=t["state"])
            for g in t["games"]:
                store_game(sheet, g["number"], g["game"], keypad=g["keypad"] or None, overrides=g["overrides"])
    Card.objects.bulk_create(
        Card(tournament=tournament, player=players[c["player"]], round=rounds.get(c["round"]), colour=c["colour"], reason=c["reason"])
        for c in plan["cards"]
    )
    TieDecision.objects.bulk_create(
        TieDecision(tournament=tournament, order=d["order"], reason=d["reason"]) for d in plan["tie_decisions"]
    )
    return tournament


def import_json_text(text):
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InterchangeError(f"not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})") from None
    return import_tournament(data)


def export_tournament(tournament):
    """The whole tournament as a JSON-ready dict (deterministic key and list order)."""
    t = tournament
    settings = {key: getattr(t, key) for key in SETTING_KEYS}
    players = list(Player.objects.filter(tournament=t).select_related("organisation").order_by("start_number"))
    ext = {p.pk: p.ext_id for p in players}
    seats = {}
    for seat in Seat.objects.filter(round__tournament=t):
        seats.setdefault(seat.table_id, {})[seat.letter] = ext[seat.player_id]
    sheets = {s.table_id: s for s in ScoreSheet.objects.filter(table__round__tournament=t)}
    games = {}
    for game in Game.objects.filter(sheet__table__round__tournament=t).prefetch_related("results").order_by("number"):
        games.setdefault(game.sheet_id, []).append(game)
    rounds = []
    for round_ in Round.objects.filter(tournament=t).prefetch_related("tables").order_by("number"):
        tables = []
        for table in sorted(round_.tables.all(), key=lambda x: x.number):
            sheet = sheets.get(table.pk)
            tables.append({
                "number": table.number,
                "seats": dict(sorted(seats.get(table.pk, {}).items())),
                "state": sheet.state if sheet else ScoreSheet.State.EMPTY,
                "games": [export_game(g) for g in games.get(sheet.pk, [])] if sheet else [],
            })
        rounds.append({
            "number": round_.number, "kind": round_.kind, "state": round_.state, "seed": round_.seed,
            "method": round_.method, "tables": tables,
        })
    return {
        "format": FORMAT,
        "tournament": {"name": t.name, "slug": t.slug, "date": t.date.isoformat(), "settings": settings},
        "players": [
            {"id": p.ext_id, "name": p.name, "organisation": p.organisation.name, "status": p.status,
             "present": p.present, "joins_from_round": p.joins_from_round}
            for p in players
        ],
        "rounds": rounds,
        "cards": [
            {"player": ext[c.player_id], "round": c.round.number if c.round else None, "colour": c.colour, "reason": c.reason}
            for c in Card.objects.filter(tournament=t).select_related("round").order_by("created_at", "pk")
        ],
        "tie_decisions": [
            {"order": d.order, "reason": d.reason} for d in TieDecision.objects.filter(tournament=t).order_by("created_at", "pk")
        ],
    }


def export_game(game):
    """One stored game in the interchange format (also the audit log's snapshot of a game)."""
    data = {"number": game.number, "ending": game.ending}
    if game.winner:
        data["winner"] = game.winner
    racks = {}
    for r in sorted(game.results.all(), key=lambda x: x.letter):
        if r.went_out:
            if r.override_score is not None:
                data["winner_override"] = {"score": r.override_score, "reason": r.override_reason}
            continue
        rack = {"tiles": r.tiles, "jokers": r.jokers, "opening": r.opening}
        if r.first_move_case:
            rack["first_move_case"] = True
        if r.keypad is not None:
            rack["keypad"] = r.keypad
        if r.override_score is not None:
            rack["override"] = {"score": r.override_score, "reason": r.override_reason}
        racks[r.letter] = rack
    data["racks"] = racks
    if "winner_override" in data:
        data["winner_override"] = data.pop("winner_override")
    return data


def dumps(data):
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"

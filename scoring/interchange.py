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

from django.core.exceptions import ValidationError
from django.db import transaction

from engine import rules
from engine.discipline import derived_status
from scoring.models import Card, Game, ScoreSheet, TieDecision
from scoring.records import game_record
from scoring.services import store_game
from tournament import validation
from tournament.models import Organisation, Player, Round, Seat, Table, Tournament

FORMAT = "rummikub-tournament/1"
CHOICES = {
    "opening_penalty_mode": [c for c, _ in Tournament.PenaltyMode.choices],
    "pool_exhausted_scoring": [c for c, _ in Tournament.PoolScoring.choices],
    "big_point_unit": [c for c, _ in Tournament.BigPointUnit.choices],
    "seating_method": [c for c, _ in Tournament.SeatingMethod.choices],
    "visibility": [c for c, _ in Tournament.Visibility.choices],
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
MAX_DEPTH = 16  # the format nests 10 levels deep at most
MAX_DIGITS = 18  # a longer whole number in a file is refused where it stands
MAX_MESSAGE = 300
TEXT_CONTROLS = "\n\r\t"  # allowed in reasons, never in names or ids
JSON_TOKEN_RE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


class InterchangeError(ValueError):
    """A file that cannot be imported; the message (one line) starts with the JSON path."""


class HugeNumber:
    """A whole number with too many digits to be meant, kept as its digit count (see `_int`)."""

    def __init__(self, digits):
        self.digits = digits

    def __repr__(self):
        return f"a number with {self.digits} digits"


def _one_line(text):
    """`text` with every unprintable character escaped (\\n, \\ud800…), cut to a sane length."""
    text = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in text)
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 1] + "…"


def _fail(path, message):
    raise InterchangeError(_one_line(f"{path}: {message}" if path else message))


def _shown(value):
    """A short description of a value for a message (never a huge or deeply nested repr)."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str) and len(value) > 40:
        return repr(value[:40]) + "…"
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 60:
        return f"a number with about {int(value.bit_length() * 0.30103) + 1} digits"
    return repr(value)


def _refusal(error):
    """The user's message of a shared check's ValidationError."""
    return " ".join(str(message) for message in error.messages)


def _obj(value, path):
    if not isinstance(value, dict):
        _fail(path, f"must be an object, got {type(value).__name__}")
    return value


def _list(value, path):
    if not isinstance(value, list):
        _fail(path, f"must be a list, got {type(value).__name__}")
    return value


def _text(value, path, *, max_length=200, allowed_controls=""):
    """A non-empty text, stripped; refuses invisible and control characters but `allowed_controls`."""
    if not isinstance(value, str) or not value.strip():
        _fail(path, "must be a non-empty text")
    if len(value) > max_length:
        _fail(path, f"must be at most {max_length} characters long")
    code = validation.forbidden_character(value.translate({ord(c): " " for c in allowed_controls}))
    if code:
        _fail(path, validation.FORBIDDEN_MESSAGE % {"code": code})
    return value.strip()


def _name(value, path):
    """A tournament, player or organisation name: the same check as the forms'."""
    if not isinstance(value, str):
        _fail(path, "must be a non-empty text")
    try:
        return validation.clean_name(value)
    except ValidationError as error:
        _fail(path, _refusal(error))


def _int(value, path, low, high):
    if isinstance(value, HugeNumber):
        _fail(path, f"must be {low}–{high}, got {value!r}")
    if not isinstance(value, int) or isinstance(value, bool):
        _fail(path, f"must be a whole number, got {_shown(value)}")
    if not low <= value <= high:
        _fail(path, f"must be {low}–{high}, got {_shown(value)}")
    return value


def _choice(value, path, choices):
    if not isinstance(value, str) or value not in choices:
        _fail(path, f"must be one of {', '.join(choices)}, got {_shown(value)}")
    return value


def _player_ref(value, path, players):
    if not isinstance(value, str) or value not in players:
        _fail(path, f"unknown player {_shown(value)}")
    return value


def _known_keys(obj, path, keys):
    for key in obj:
        if key not in keys:
            _fail(f"{path}.{key}" if path else key, "unknown field")


def _check_depth(data):
    """Refuse nesting deeper than the format has, naming the path of the first too-deep value."""
    stack = [(data, "", 1)]
    while stack:
        value, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            _fail(path, f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, dict):
            stack.extend((child, f"{path}.{key}" if path else key, depth + 1) for key, child in value.items())
        elif isinstance(value, list):
            stack.extend((child, f"{path}[{i}]", depth + 1) for i, child in enumerate(value))


# ---------------------------------------------------------------- validation

def _parse_settings(data, path):
    """The settings of the file, checked by the same rules as the settings form."""
    settings = {}
    data = _obj(data, path)
    _known_keys(data, path, SETTING_KEYS)
    for key, (low, high) in validation.SETTING_RANGES.items():
        if key in data:
            settings[key] = _int(data[key], f"{path}.{key}", low, high)
    for key, choices in CHOICES.items():
        if key in data:
            settings[key] = _choice(data[key], f"{path}.{key}", choices)
    for key in BOOL_SETTINGS:
        if key in data:
            if not isinstance(data[key], bool):
                _fail(f"{path}.{key}", f"must be true or false, got {_shown(data[key])}")
            settings[key] = data[key]
    if "big_point_places" in data:
        places = _list(data["big_point_places"], f"{path}.big_point_places")
        high = validation.MAX_PLACE_POINTS
        places = [_int(p, f"{path}.big_point_places[{i}]", 0, high) for i, p in enumerate(places[: validation.MAX_PLACES + 1])]
        try:
            settings["big_point_places"] = validation.check_places(places)
        except ValidationError as error:
            _fail(f"{path}.big_point_places", _refusal(error))
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
            _text(o.get("reason"), f"{path}.override.reason", max_length=2000, allowed_controls=TEXT_CONTROLS),
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


def _parse_game(data, path, letters, settings, games):
    """One game of a table that plays `games` games (game numbers 1…games)."""
    data = _obj(data, path)
    _known_keys(data, path, ("number", "ending", "winner", "racks", "winner_override"))
    number = _int(data.get("number"), f"{path}.number", 1, games)
    ending = _choice(data.get("ending"), f"{path}.ending", list(rules.ENDINGS))
    winner = data.get("winner")
    if ending == rules.OUT:
        if winner is None:
            _fail(f"{path}.winner", "a game that ended with a player going out needs a winner")
        if winner not in rules.SEAT_LETTERS:
            _fail(f"{path}.winner", f"seat letters are A–D, got {_shown(winner)}")
    elif winner is not None:
        _fail(f"{path}.winner", "a pool-exhausted game has no winner")
    racks_data = _obj(data.get("racks", {}), f"{path}.racks")
    racks, overrides, keypads = {}, {}, {}
    for letter, rack_data in racks_data.items():
        rack_path = f"{path}.racks.{letter}"
        if letter not in rules.SEAT_LETTERS:
            _fail(rack_path, f"seat letters are A–D, got {_shown(letter)}")
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
            _text(o.get("reason"), f"{path}.winner_override.reason", max_length=2000, allowed_controls=TEXT_CONTROLS),
        )
    game = rules.Game(seats=letters, winner=winner, racks=racks)
    try:
        rules.score_game(game, settings)
        if keypads:
            rules.validate_keypad_racks(keypads)
    except rules.RuleViolation as error:
        _fail(f"{path}.{error.path}" if error.path else path, error.message)
    return {"number": number, "game": game, "overrides": overrides, "keypad": keypads}


def _parse_table(data, path, players, seated, round_):
    data = _obj(data, path)
    _known_keys(data, path, ("number", "seats", "games", "state"))
    number = _int(data.get("number"), f"{path}.number", 1, 1000)
    seats = _obj(data.get("seats"), f"{path}.seats")
    for letter, player_id in seats.items():
        seat_path = f"{path}.seats.{letter}"
        if letter not in rules.SEAT_LETTERS:
            _fail(seat_path, f"seat letters are A–D, got {_shown(letter)}")
        _player_ref(player_id, seat_path, players)
        if player_id in seated:
            _fail(seat_path, f"player {_shown(player_id)} sits twice in this round")
        seated.add(player_id)
    if not 3 <= len(seats) <= 4:
        _fail(f"{path}.seats", f"a table seats 3 or 4 players, got {len(seats)}")
    letters = tuple(sorted(seats))
    if letters != rules.SEAT_LETTERS[: len(letters)]:
        _fail(f"{path}.seats", f"seats must be {', '.join(rules.SEAT_LETTERS[:len(letters)])}, got {', '.join(letters)}")
    games, numbers = [], set()
    settings, count = round_.tournament.rules_settings(), round_.games_per_table(len(letters))
    for i, game_data in enumerate(_list(data.get("games", []), f"{path}.games")):
        game = _parse_game(game_data, f"{path}.games[{i}]", letters, settings, count)
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
    _check_depth(data)
    _known_keys(data, "", ("format", "tournament", "players", "rounds", "cards", "tie_decisions"))
    if data.get("format") != FORMAT:
        _fail("format", f"must be {FORMAT!r}, got {_shown(data.get('format'))}")
    t = _obj(data.get("tournament"), "tournament")
    _known_keys(t, "tournament", ("name", "slug", "date", "settings"))
    name = _name(t.get("name"), "tournament.name")
    slug = _text(t.get("slug"), "tournament.slug", max_length=validation.MAX_SLUG)
    try:
        validation.check_slug(slug)
    except ValidationError as error:
        _fail("tournament.slug", _refusal(error))
    try:
        date = datetime.date.fromisoformat(t.get("date"))
    except (TypeError, ValueError):
        _fail("tournament.date", f"must be a date like 2026-02-10, got {_shown(t.get('date'))}")
    settings = _parse_settings(t.get("settings", {}), "tournament.settings")
    defaults = Tournament(name=name, slug=slug, date=date, **settings)
    players = _parse_players(data.get("players"), defaults.players_per_organisation)
    rounds = _parse_rounds(data.get("rounds", []), players, defaults)
    _check_limits(settings, players, rounds)
    round_numbers = {r["number"] for r in rounds}

    cards = []
    for i, c in enumerate(_list(data.get("cards", []), "cards")):
        path = f"cards[{i}]"
        c = _obj(c, path)
        _known_keys(c, path, ("player", "round", "colour", "reason"))
        _player_ref(c.get("player"), f"{path}.player", players)
        round_number = c.get("round")
        if round_number is not None and (not isinstance(round_number, int) or round_number not in round_numbers):
            _fail(f"{path}.round", f"unknown round {_shown(round_number)}")
        cards.append({
            "player": c["player"], "round": round_number,
            "colour": _choice(c.get("colour"), f"{path}.colour", CARD_COLOURS),
            "reason": _text(c.get("reason"), f"{path}.reason", max_length=2000, allowed_controls=TEXT_CONTROLS),
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
        decisions.append({
            "order": order,
            "reason": _text(d.get("reason"), f"{path}.reason", max_length=2000, allowed_controls=TEXT_CONTROLS),
        })

    return {
        "tournament": {"name": name, "slug": slug, "date": date, **settings},
        "players": players, "rounds": rounds, "cards": cards, "tie_decisions": decisions,
    }


def _parse_players(data, quota):
    """{player id: player} of the file's players. Names are checked as in the player forms;
    a name is the same name in any case or spacing (`validation.name_key`), like there."""
    players, names, per_org = {}, set(), Counter()
    for i, p in enumerate(_list(data, "players")):
        path = f"players[{i}]"
        p = _obj(p, path)
        _known_keys(p, path, ("id", "name", "organisation", "status", "present", "joins_from_round"))
        player_id = _text(p.get("id"), f"{path}.id", max_length=50)
        if player_id in players:
            _fail(f"{path}.id", f"player id {_shown(player_id)} appears twice")
        organisation = _name(p.get("organisation"), f"{path}.organisation")
        organisation_key = validation.name_key(organisation)
        per_org[organisation_key] += 1
        if per_org[organisation_key] > quota:
            _fail(f"{path}.organisation", f"organisation {_shown(organisation)} exceeds its quota of {quota}")
        player_name = _name(p.get("name"), f"{path}.name")
        key = (organisation_key, validation.name_key(player_name))
        if key in names:
            _fail(f"{path}.name", f"{_shown(player_name)} appears twice in {_shown(organisation)}")
        names.add(key)
        present = p.get("present", False)
        if not isinstance(present, bool):
            _fail(f"{path}.present", f"must be true or false, got {_shown(present)}")
        joins = p.get("joins_from_round")
        players[player_id] = {
            "name": player_name, "organisation": organisation,
            "status": _choice(p.get("status", "active"), f"{path}.status", PLAYER_STATUSES),
            "present": present,
            "joins_from_round": None if joins is None else _int(joins, f"{path}.joins_from_round", 1, 100),
        }
    return players


def _parse_rounds(data, players, tournament):
    rounds, round_numbers = [], set()
    for i, r in enumerate(_list(data, "rounds")):
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
        round_ = Round(tournament=tournament, number=number, kind=kind)
        seated, tables, table_numbers = set(), [], set()
        for j, table_data in enumerate(_list(r.get("tables", []), f"{path}.tables")):
            table = _parse_table(table_data, f"{path}.tables[{j}]", players, seated, round_)
            if table["number"] in table_numbers:
                _fail(f"{path}.tables[{j}].number", f"table {table['number']} appears twice")
            table_numbers.add(table["number"])
            tables.append(table)
        seed = r.get("seed", "")
        if isinstance(seed, int) and not isinstance(seed, bool):
            seed = str(seed)
        rounds.append({
            "number": number, "kind": kind,
            "state": _choice(r.get("state", Round.State.COMPLETED), f"{path}.state", ROUND_STATES),
            "seed": _text(seed, f"{path}.seed", max_length=64) if seed != "" else "",
            "method": _choice(r.get("method", ""), f"{path}.method", ["", "random", "mixed", "swiss", "manual", "final"]),
            "tables": tables,
        })
    return rounds


def _check_limits(settings, players, rounds):
    """The settings form's checks against the data: quota, rounds planned, the final."""
    qualifying = [r["number"] for r in rounds if r["kind"] == Round.Kind.QUALIFYING]
    defaults = Tournament()
    problems = validation.limit_problems(
        {key: settings.get(key, getattr(defaults, key)) for key in ("players_per_organisation", "rounds_planned", "final")},
        largest=max(Counter(validation.name_key(p["organisation"]) for p in players.values()).values(), default=0),
        rounds_drawn=max(qualifying, default=0),
        has_final=any(r["kind"] == Round.Kind.FINAL for r in rounds),
    )
    for key, message in problems.items():
        _fail(f"tournament.settings.{key}", message)


# ---------------------------------------------------------------- import / export

@transaction.atomic
def import_tournament(data):
    """Validate and write a decoded file; returns the new Tournament. Raises InterchangeError."""
    plan = parse(data)
    if Tournament.objects.filter(slug=plan["tournament"]["slug"]).exists():
        _fail("tournament.slug", f"a tournament {plan['tournament']['slug']!r} already exists")
    tournament = Tournament.objects.create(**plan["tournament"])
    organisations = {}  # one per name in any case or spacing, spelt as first met (as the player forms do)
    for p in plan["players"].values():
        organisations.setdefault(validation.name_key(p["organisation"]), Organisation(tournament=tournament, name=p["organisation"]))
    Organisation.objects.bulk_create(organisations.values())
    colours = {pid: Counter() for pid in plan["players"]}
    for card in plan["cards"]:
        colours[card["player"]][card["colour"]] += 1
    players = {}
    org_slots = Counter()
    for number, (player_id, p) in enumerate(plan["players"].items(), start=1):
        organisation = organisations[validation.name_key(p["organisation"])]
        org_slots[organisation.name] += 1
        players[player_id] = Player(
            tournament=tournament, organisation=organisation, name=p["name"],
            start_number=number, ext_id=player_id, org_slot=org_slots[organisation.name],
            status=derived_status(p["status"], colours[player_id]), present=p["present"],
            joins_from_round=p["joins_from_round"],
        )
    Player.objects.bulk_create(players.values())
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


def _whole_number(text):
    digits = len(text.lstrip("-"))
    return int(text) if digits <= MAX_DIGITS else HugeNumber(digits)


def _too_deep_line(text):
    """The line where `text` first nests deeper than MAX_DEPTH (brackets inside strings do not count)."""
    depth = 0
    for token in JSON_TOKEN_RE.finditer(text):
        bracket = token.group()
        if bracket in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return text.count("\n", 0, token.start()) + 1
        elif bracket in "]}":
            depth -= 1
    return 1


def decode(text):
    """The decoded file; raises InterchangeError ("invalid JSON at line N: …") for text that is not
    JSON or nests deeper than the format. A whole number with more than MAX_DIGITS digits becomes a
    HugeNumber, refused with its JSON path by `parse`."""
    try:
        return json.loads(text, parse_int=_whole_number)
    except json.JSONDecodeError as error:
        _fail("", f"invalid JSON at line {error.lineno}, column {error.colno}: {error.msg}")
    except RecursionError:
        _fail("", f"invalid JSON at line {_too_deep_line(text)}: nested more than {MAX_DEPTH} levels deep")


def import_json_text(text):
    return import_tournament(decode(text))


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
                "games": [game_record(g) for g in games.get(sheet.pk, [])] if sheet else [],
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


def dumps(data):
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"

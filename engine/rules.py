"""The Rummikub rules engine: the score of one game and the big points (SPEC §3 and §4).

Plain Python with no Django import: data in, data out. Every function here is pure.
Problems are reported as `RuleViolation` errors that carry a machine-readable `code`, the
`path` of the offending value (e.g. ``racks.B.tiles``) and the values for the message, so the
web layer can show them next to the field in the user's language and the import command can
prefix the JSON path.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence, Sized
from dataclasses import dataclass, field

SEAT_LETTERS = ("A", "B", "C", "D")
MAX_TILES = 728  # the sum of all 104 numbered tiles: 4 colours x 2 x (1 + ... + 13)
CONFIRM_TILES_ABOVE = 200  # the form asks "are you sure?" above this
MAX_JOKERS = 2  # per rack and per game at a table
MAX_OVERRIDE = 100_000  # a score set by hand lies within ±this
TILE_FACES = range(1, 14)
COPIES_PER_FACE = 8  # four colours, each twice
JOKER = "J"

OPENED = "opened"
NOT_POSSIBLE = "not_possible"
POSSIBLE_NOT_DONE = "possible_not_done"
DRAWN_LAST_ROUND = "drawn_last_round"
OPENINGS = (OPENED, NOT_POSSIBLE, POSSIBLE_NOT_DONE, DRAWN_LAST_ROUND)

OUT = "out"
POOL_EXHAUSTED = "pool_exhausted"
ENDINGS = (OUT, POOL_EXHAUSTED)

REPLACE = "replace"
ADD = "add"
SUM = "sum"
DIFFERENCE = "difference"
UNIT_GAME = "game"
UNIT_ROUND = "round"


class RuleViolation(ValueError):
    """A game that breaks a rule of SPEC §3."""

    def __init__(self, code: str, path: str, message: str, **params: object) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.code = code
        self.path = path
        self.message = message
        self.params = params


@dataclass(frozen=True)
class Settings:
    """The scoring settings of a tournament (SPEC §2), with the defaults."""

    joker_penalty: int = 50
    opening_penalty_mode: str = REPLACE
    penalty_not_possible: int = 100
    penalty_possible_not_done: int = 200
    penalty_drawn_last_round: int = 100
    penalty_first_move: int = 100
    pool_exhausted_scoring: str = SUM
    big_point_unit: str = UNIT_GAME
    big_point_places: tuple[int, ...] = (1, 0, 0, 0)

    def __post_init__(self) -> None:
        if self.opening_penalty_mode not in (REPLACE, ADD):
            raise ValueError(f"opening_penalty_mode must be replace or add, got {self.opening_penalty_mode!r}")
        if self.pool_exhausted_scoring not in (SUM, DIFFERENCE):
            raise ValueError(f"pool_exhausted_scoring must be sum or difference, got {self.pool_exhausted_scoring!r}")
        if self.big_point_unit not in (UNIT_GAME, UNIT_ROUND):
            raise ValueError(f"big_point_unit must be game or round, got {self.big_point_unit!r}")
        if not self.big_point_places:
            raise ValueError("big_point_places must list at least one place")
        object.__setattr__(self, "big_point_places", tuple(self.big_point_places))

    def place_points(self, index: int) -> int:
        """Big points for the place with 0-based `index`; places past the list score 0."""
        places = self.big_point_places
        return places[index] if index < len(places) else 0


@dataclass(frozen=True)
class Rack:
    """What one seat has left at the end of a game."""

    tiles: int = 0
    jokers: int = 0
    opening: str = OPENED
    first_move_case: bool = False


@dataclass(frozen=True)
class Game:
    """One finished game at a table: the seats, the ending and every loser's rack.

    `winner` is the seat that went out, or None when the pool was exhausted (then every
    seat has a rack).
    """

    seats: tuple[str, ...]
    winner: str | None
    racks: Mapping[str, Rack] = field(default_factory=dict)


@dataclass(frozen=True)
class GameResult:
    """A scored game: each seat's score, the winners, and each seat's minus points."""

    scores: dict[str, int]
    winners: frozenset[str]
    minus: dict[str, int]


def flat_penalty(rack: Rack, settings: Settings) -> int:
    """The opening penalty that applies to a rack (the larger if two apply), else 0."""
    candidates = [0]
    if rack.opening == NOT_POSSIBLE:
        candidates.append(settings.penalty_not_possible)
    elif rack.opening == POSSIBLE_NOT_DONE:
        candidates.append(settings.penalty_possible_not_done)
    elif rack.opening == DRAWN_LAST_ROUND:
        candidates.append(settings.penalty_drawn_last_round)
    if rack.first_move_case:
        candidates.append(settings.penalty_first_move)
    return max(candidates)


def has_flat_penalty(rack: Rack) -> bool:
    """Whether an opening or first-move penalty applies to the rack."""
    return rack.opening != OPENED or rack.first_move_case


def rack_minus(rack: Rack, settings: Settings) -> int:
    """Minus points of a rack (a non-negative number)."""
    count = rack.tiles + rack.jokers * settings.joker_penalty
    if not has_flat_penalty(rack):
        return count
    penalty = flat_penalty(rack, settings)
    if settings.opening_penalty_mode == REPLACE:
        return penalty
    return count + penalty


def validate_rack(rack: Rack, path: str) -> None:
    """Raise RuleViolation for the first bad field of a rack (SPEC §3), named under ``path``."""
    if not isinstance(rack.tiles, int) or isinstance(rack.tiles, bool):
        raise RuleViolation(
            "tiles_not_integer", f"{path}.tiles", f"must be a whole number, got {rack.tiles!r}", value=rack.tiles
        )
    if not 0 <= rack.tiles <= MAX_TILES:
        raise RuleViolation(
            "tiles_range", f"{path}.tiles", f"must be 0–{MAX_TILES}, got {rack.tiles}", value=rack.tiles, max=MAX_TILES
        )
    if not isinstance(rack.jokers, int) or isinstance(rack.jokers, bool):
        raise RuleViolation(
            "jokers_not_integer", f"{path}.jokers", f"must be a whole number, got {rack.jokers!r}", value=rack.jokers
        )
    if not 0 <= rack.jokers <= MAX_JOKERS:
        raise RuleViolation(
            "jokers_range",
            f"{path}.jokers",
            f"must be 0–{MAX_JOKERS}, got {rack.jokers}",
            value=rack.jokers,
            max=MAX_JOKERS,
        )
    if rack.opening not in OPENINGS:
        raise RuleViolation(
            "opening_unknown",
            f"{path}.opening",
            f"must be one of {', '.join(OPENINGS)}, got {rack.opening!r}",
            value=rack.opening,
        )
    if not isinstance(rack.first_move_case, bool):
        raise RuleViolation(
            "first_move_case_not_bool",
            f"{path}.first_move_case",
            f"must be true or false, got {rack.first_move_case!r}",
            value=rack.first_move_case,
        )


def validate_seats(seats: Sequence[str]) -> None:
    """Raise RuleViolation unless the seats are 3 or 4 different letters A–D."""
    for letter in seats:
        if letter not in SEAT_LETTERS:
            raise RuleViolation("seat_letter", "seats", f"seat letters are A–D, got {letter!r}", value=letter)
    if len(set(seats)) != len(seats):
        raise RuleViolation("seat_twice", "seats", "a seat letter appears twice")
    if not 3 <= len(seats) <= 4:
        raise RuleViolation("table_size", "seats", f"a table seats 3 or 4 players, got {len(seats)}", value=len(seats))


def validate_game(game: Game) -> None:
    """Raise RuleViolation for the first problem of SPEC §3's validation, if any."""
    validate_seats(game.seats)
    seats = set(game.seats)
    for letter in game.racks:
        if letter not in SEAT_LETTERS:
            raise RuleViolation("seat_letter", f"racks.{letter}", f"seat letters are A–D, got {letter!r}", value=letter)
        if letter not in seats:
            raise RuleViolation(
                "seat_not_at_table", f"racks.{letter}", f"seat {letter} is not at this table", seat=letter
            )
    if game.winner is None:
        missing = [s for s in game.seats if s not in game.racks]
        if missing:
            raise RuleViolation(
                "rack_missing",
                f"racks.{missing[0]}",
                f"pool exhausted: a rack is needed for seat {missing[0]}",
                seat=missing[0],
            )
    else:
        if game.winner not in seats:
            raise RuleViolation(
                "winner_not_at_table",
                "winner",
                f"the winner must be a seat at this table, got {game.winner!r}",
                value=game.winner,
            )
        if game.winner in game.racks:
            raise RuleViolation(
                "winner_has_rack",
                f"racks.{game.winner}",
                f"seat {game.winner} went out and cannot have a rack",
                seat=game.winner,
            )
        missing = [s for s in game.seats if s != game.winner and s not in game.racks]
        if missing:
            raise RuleViolation(
                "rack_missing", f"racks.{missing[0]}", f"a rack is needed for seat {missing[0]}", seat=missing[0]
            )
    for letter in game.seats:
        if letter in game.racks:
            validate_rack(game.racks[letter], f"racks.{letter}")
    jokers = sum(rack.jokers for rack in game.racks.values())
    if jokers > MAX_JOKERS:
        raise RuleViolation(
            "jokers_per_game",
            "racks",
            f"at most {MAX_JOKERS} jokers in one game at a table, got {jokers}",
            value=jokers,
            max=MAX_JOKERS,
        )


def _share_equally(total: int, winners: Sequence[str]) -> dict[str, int]:
    """Split `total` among winners (in seat order), rounded down; the remainder to the first."""
    share, remainder = divmod(total, len(winners))
    result = {seat: share for seat in winners}
    result[winners[0]] += remainder
    return result


def score_game(game: Game, settings: Settings = Settings()) -> GameResult:
    """Score one game (SPEC §3). Validates first; the result is always zero-sum."""
    validate_game(game)
    seats = [s for s in SEAT_LETTERS if s in game.seats]
    minus = {seat: rack_minus(rack, settings) for seat, rack in game.racks.items()}
    if game.winner is not None:
        scores = {seat: -minus[seat] for seat in seats if seat != game.winner}
        scores[game.winner] = sum(minus.values())
        minus[game.winner] = 0
        winners = frozenset({game.winner})
    else:
        lowest = min(minus.values())
        winner_seats = [s for s in seats if minus[s] == lowest]
        losers = [s for s in seats if minus[s] != lowest]
        if settings.pool_exhausted_scoring == SUM:
            scores = {seat: -minus[seat] for seat in losers}
        else:
            scores = {seat: -(minus[seat] - lowest) for seat in losers}
        gains = _share_equally(-sum(scores.values()), winner_seats)
        scores.update(gains)
        winners = frozenset(winner_seats)
    return GameResult(scores={s: scores[s] for s in seats}, winners=winners, minus=minus)


def _places(values: Mapping[str, int], ahead: Sized = ()) -> dict[str, int]:
    """0-based place of each seat by value (higher is better), after the seats `ahead`.

    Tied seats share the best place they tie on (competition ranking).
    """
    offset = len(ahead)
    scores = values.values()
    return {seat: offset + sum(other > value for other in scores) for seat, value in values.items()}


def game_big_points(result: GameResult, settings: Settings = Settings()) -> dict[str, int]:
    """Big points of one game (unit `game`): winners take place 1, the rest by game score."""
    winners, place_points = result.winners, settings.place_points
    others = sorted((score for seat, score in result.scores.items() if seat not in winners), reverse=True)
    offset = len(winners)
    # a loser's place: the winners and the losers with a higher score are ahead (ties share the best place)
    return {
        seat: place_points(0 if seat in winners else offset + others.index(score))
        for seat, score in result.scores.items()
    }


def round_big_points(totals: Mapping[str, int], settings: Settings = Settings()) -> dict[str, int]:
    """Big points of a round at one table (unit `round`), from the round's small points."""
    return {seat: settings.place_points(place) for seat, place in _places(totals).items()}


def table_round(games: Sequence[GameResult], settings: Settings = Settings()) -> dict[str, dict[str, int]]:
    """A table's round totals per seat: small points, big points and games won.

    `games` are the scored games of the round so far; games won count shared wins.
    """
    seats = sorted({seat for result in games for seat in result.scores})
    small, big, won = dict.fromkeys(seats, 0), dict.fromkeys(seats, 0), dict.fromkeys(seats, 0)
    per_game = settings.big_point_unit != UNIT_ROUND
    for result in games:
        for seat, score in result.scores.items():
            small[seat] += score
            if seat in result.winners:
                won[seat] += 1
        if per_game:
            for seat, points in game_big_points(result, settings).items():
                big[seat] += points
    if not per_game and games:
        big = round_big_points(small, settings)
    return {seat: {"small_points": small[seat], "big_points": big[seat], "games_won": won[seat]} for seat in seats}


def keypad_rack(faces: Iterable[int | str]) -> tuple[int, int]:
    """Tiles sum and joker count of a rack entered tile by tile (faces 1–13 or "J")."""
    tiles = jokers = 0
    for face in faces:
        if face == JOKER:
            jokers += 1
        elif isinstance(face, int) and not isinstance(face, bool) and face in TILE_FACES:
            tiles += face
        else:
            raise RuleViolation("keypad_face", "keypad", f"a tile is 1–13 or a joker, got {face!r}", value=face)
    return tiles, jokers


def validate_keypad_racks(racks: Mapping[str, Iterable[int | str]]) -> None:
    """The keypad racks of one game must fit the 106-tile set (SPEC §3)."""
    counts: Counter[int | str] = Counter()
    for letter, faces in racks.items():
        faces = list(faces)
        keypad_rack(faces)
        counts.update(faces)
        if counts[JOKER] > MAX_JOKERS:
            raise RuleViolation(
                "keypad_jokers", f"racks.{letter}.keypad", f"the set has only {MAX_JOKERS} jokers", max=MAX_JOKERS
            )
        for face in TILE_FACES:
            if counts[face] > COPIES_PER_FACE:
                raise RuleViolation(
                    "keypad_copies",
                    f"racks.{letter}.keypad",
                    f"the set has only {COPIES_PER_FACE} tiles numbered {face}",
                    face=face,
                    max=COPIES_PER_FACE,
                )

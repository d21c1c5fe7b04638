"""The season walk's people and its hand calculation.

The players of both tournaments (12 senior universities; 8 people in both, two of them typed
differently the second time), what the referee types on every game (`rack`: the tiles left on a
loser's rack, a plain function of the player and the game), and the figures worked out from those
alone, as a referee with a pencil would (SPEC §3–4, §10: standard variant, every rack opened and
without jokers, big points 1, 0, 0, 0 by game; the season's 25, 20, 16, … by place), without the
app's code: `Ledger` adds up one tournament, `season_rows` the season.
"""

from __future__ import annotations

from dataclasses import dataclass, field

FIRST = [
    ("Łucja Wójcik", "UTW Kraków"),
    ("Maria Teresa Chmiel", "UTW Rzeszów"),
    ("Genowefa Gąsior", "UTW Rabka-Zdrój"),
    ("Józef Jankowski", "UTW Nowy Targ"),
    ("Czesław Łęcki", "UTW Tarnów"),
    ("Halina Żółkiewska", "UTW Lublin"),
    ("Stanisław Ćwikła", "UTW Kielce"),
    ("Zofia Śliwińska", "UTW Łódź"),
    ("Bronisław Kaczmarek", "UTW Poznań"),
    ("Irena Dąbrowska", "UTW Gdańsk"),
    ("Tadeusz Nowicki", "UTW Wrocław"),
    ("Krystyna Pawlak", "UTW Opole"),
]
# The second tournament: the first eight again (two typed otherwise) and four new people.
SECOND = [
    ("Lucja Wojcik", "UTW Kraków"),  # recognised as Łucja Wójcik: the organiser takes her spelling
    ("Chmiel Teresa Maria", "UTW Rzeszów"),  # a likely duplicate of Maria Teresa Chmiel: flagged
    *FIRST[2:8],
    ("Wiesław Mazur", "UTW Bydgoszcz"),
    ("Danuta Kwiatkowska", "UTW Białystok"),
    ("Ryszard Wróbel", "UTW Olsztyn"),
    ("Jadwiga Sowa", "UTW Szczecin"),
]
TAKEN_SPELLING = {"Lucja Wojcik": "Łucja Wójcik"}
SAME_PERSON = {"Chmiel Teresa Maria": "Maria Teresa Chmiel"}
SEASON_POINTS = [25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
STRENGTH = {name: index for index, (name, _club) in enumerate(FIRST + SECOND[8:])}


def csv_text(players) -> str:
    """The players as the organiser's spreadsheet gives them (the import's CSV)."""
    return "name,organisation\n" + "".join(f"{name},{club}\n" for name, club in players)


def person(name: str) -> str:
    return SAME_PERSON.get(TAKEN_SPELLING.get(name, name), TAKEN_SPELLING.get(name, name))


def rack(name: str, tournament: int, round_number: int, game: int) -> int:
    """The tiles left on a loser's rack: the stronger (earlier listed) players keep fewer."""
    strength = STRENGTH[person(name)]
    return 2 + strength * 3 + (game * 7 + round_number * 5 + tournament * 11 + strength) % 13


@dataclass
class Score:
    big: int = 0
    small: int = 0
    won: int = 0


@dataclass
class Ledger:
    """One tournament's figures, game by game, as typed."""

    number: int
    qualifying: dict[str, Score] = field(default_factory=dict)
    final: dict[str, Score] = field(default_factory=dict)

    def game(self, round_number: int, seats: dict[str, str], game: int, winner: str, *, in_final=False) -> dict:
        """Add one game: `seats` {letter: name}; returns {letter: tiles} as the referee types them."""
        book = self.final if in_final else self.qualifying
        tiles = {
            letter: rack(name, self.number, round_number, game) for letter, name in seats.items() if letter != winner
        }
        for letter, name in seats.items():
            score = book.setdefault(name, Score())
            if letter == winner:
                score.big, score.won, score.small = score.big + 1, score.won + 1, score.small + sum(tiles.values())
            else:
                score.small -= tiles[letter]
        return tiles

    def correct(self, winner: str, loser: str, more: int) -> None:
        """A verified game corrected: `more` tiles found on the loser's rack."""
        self.qualifying[loser].small -= more
        self.qualifying[winner].small += more

    def standings(self) -> list[tuple[str, Score | None, Score]]:
        """(name, final score or None, qualifying score), in the final order (SPEC §4)."""
        key = {name: (s.big, s.small, s.won) for name, s in self.qualifying.items()}
        qualifying = sorted(self.qualifying, key=lambda name: key[name], reverse=True)
        finalists = sorted(self.final, key=lambda n: (self.final[n].big, self.final[n].small, -qualifying.index(n)))
        order = finalists[::-1] + [name for name in qualifying if name not in self.final]
        return [(name, self.final.get(name), self.qualifying[name]) for name in order]

    def places(self) -> dict[str, int]:
        """{person: place}; players after the final with equal big points, small points and games
        won share the better place (SPEC §4), as the app ranks them."""
        places: dict[str, int] = {}
        previous = None
        for index, (name, final, qualifying) in enumerate(self.standings(), start=1):
            tie = None if final else (qualifying.big, qualifying.small, qualifying.won)
            places[person(name)] = places[person(previous[0])] if tie and previous and previous[1] == tie else index
            previous = (name, tie)
        return places


def surname_first(name: str) -> str:
    """ "Maria Teresa Chmiel" → "Chmiel Maria Teresa", as the season lists people."""
    *given, surname = name.split()
    return " ".join([surname, *given])


def season_rows(ledgers) -> list[tuple[int, str, int, int]]:
    """(rank, person surname first, points, tournaments won) in the season's order: points, wins,
    best place; equal on all three, equal rank (their order among themselves is the app's)."""
    rows: dict[str, list[int]] = {}
    for ledger in ledgers:
        for who, place in ledger.places().items():
            points = SEASON_POINTS[place - 1] if place <= len(SEASON_POINTS) else 0
            row = rows.setdefault(who, [0, 0, 99])
            row[0], row[1], row[2] = row[0] + points, row[1] + (place == 1), min(row[2], place)
    key = {who: (-points, -wins, best) for who, (points, wins, best) in rows.items()}
    order = sorted(rows, key=lambda who: key[who])
    ranks = {who: 1 + sum(key[other] < key[who] for other in rows) for who in rows}
    return [(ranks[who], surname_first(who), rows[who][0], rows[who][1]) for who in order]

"""The season's walk (`make walk-season`, bench/season_walk.py) still runs.

`make test` checks its hand calculation on figures worked out here by pencil and that the script
starts (its help); the whole walk (a server, Chromium, two tournaments, about four minutes) is
marked `full`: `make test-full` and .ci/run walk it and find every check passed.
"""

import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.server import smoke_environment

BENCH = Path(__file__).resolve().parents[2] / "bench"
sys.path.insert(0, str(BENCH))

from season_walk_sums import Ledger, rack, season_rows  # noqa: E402

SEATS = {"A": "Łucja Wójcik", "B": "Maria Teresa Chmiel", "C": "Genowefa Gąsior", "D": "Józef Jankowski"}


def test_the_racks_are_the_walks_formula():
    # 2 + 3·strength + (7·game + 5·round + 11·tournament + strength) mod 13, strength = place in the list
    assert rack("Łucja Wójcik", 1, 1, 1) == 2 + 0 + 23 % 13 == 12
    assert rack("Lucja Wojcik", 1, 1, 1) == 12  # the same person, typed otherwise
    assert rack("Maria Teresa Chmiel", 1, 1, 1) == 2 + 3 + 24 % 13 == 16
    assert rack("Genowefa Gąsior", 1, 1, 1) == 2 + 6 + 25 % 13 == 20
    assert rack("Józef Jankowski", 1, 1, 1) == 2 + 9 + 26 % 13 == 11


def test_one_game_and_a_correction_add_up_as_by_hand():
    ledger = Ledger(1)
    assert ledger.game(1, SEATS, 1, "A") == {"B": 16, "C": 20, "D": 11}
    assert ledger.qualifying["Łucja Wójcik"].small == 16 + 20 + 11 == 47
    assert (ledger.qualifying["Józef Jankowski"].small, ledger.qualifying["Józef Jankowski"].big) == (-11, 0)
    ledger.correct("Łucja Wójcik", "Józef Jankowski", 10)
    assert (ledger.qualifying["Łucja Wójcik"].small, ledger.qualifying["Józef Jankowski"].small) == (57, -21)
    # Łucja 1 big point; then by small points: Chmiel −16, Gąsior −20, Jankowski −11 − 10 = −21.
    order = [name for name, _final, _qualifying in ledger.standings()]
    assert order == ["Łucja Wójcik", "Maria Teresa Chmiel", "Genowefa Gąsior", "Józef Jankowski"]


def test_the_final_orders_its_players_first_and_the_season_counts_places():
    first, second = Ledger(1), Ledger(2)
    first.game(1, SEATS, 1, "A")  # Łucja +47, Chmiel −16, Gąsior −20, Jankowski −11
    # The final (round 4): Chmiel goes out; racks 14 (Łucja), 9 (Gąsior), 13 (Jankowski). The final
    # orders its four by its own points: Łucja, first after the qualifying, is 4th.
    assert first.game(4, SEATS, 1, "B", in_final=True) == {"A": 14, "C": 9, "D": 13}
    assert first.places() == {"Maria Teresa Chmiel": 1, "Genowefa Gąsior": 2, "Józef Jankowski": 3, "Łucja Wójcik": 4}
    # The second tournament: Łucja typed otherwise; Gąsior wins; racks 10 (Łucja), 14 (Chmiel), 22 (Jankowski).
    assert second.game(1, {**SEATS, "A": "Lucja Wojcik"}, 1, "C") == {"A": 10, "B": 14, "D": 22}
    assert second.places() == {"Genowefa Gąsior": 1, "Łucja Wójcik": 2, "Maria Teresa Chmiel": 3, "Józef Jankowski": 4}
    # Points 25, 20, 16, 13 for places 1–4: Gąsior 20 + 25, Chmiel 25 + 16, Łucja 13 + 20, Jankowski 16 + 13.
    assert season_rows([first, second]) == [
        (1, "Gąsior Genowefa", 45, 1),
        (2, "Chmiel Maria Teresa", 41, 1),
        (3, "Wójcik Łucja", 33, 0),
        (4, "Jankowski Józef", 29, 0),
    ]


def test_people_equal_on_points_wins_and_best_place_share_the_season_place():
    first, second = Ledger(1), Ledger(2)
    first.game(1, SEATS, 1, "A")  # Łucja 1st; Jankowski −11 2nd, Chmiel −16 3rd, Gąsior −20 4th
    seats = {"A": "Józef Jankowski", "B": "Genowefa Gąsior", "C": "Maria Teresa Chmiel", "D": "Lucja Wojcik"}
    assert second.game(1, seats, 1, "A") == {"B": 18, "C": 14, "D": 10}  # Jankowski 1st, Łucja, Chmiel, Gąsior
    # Łucja 25 + 20 = 45 and Jankowski 20 + 25 = 45, one win and a best place of 1 each: both 1st.
    rows = season_rows([first, second])
    assert sorted(rows[:2]) == [(1, "Jankowski Józef", 45, 1), (1, "Wójcik Łucja", 45, 1)]
    assert rows[2:] == [(3, "Chmiel Maria Teresa", 32, 0), (4, "Gąsior Genowefa", 26, 0)]


def test_the_walks_script_starts():
    finished = subprocess.run(
        [sys.executable, str(BENCH / "season_walk.py"), "--help"], capture_output=True, text=True, timeout=60
    )
    assert finished.returncode == 0 and "--out" in finished.stdout and "--until" in finished.stdout


@pytest.mark.full
@pytest.mark.server
def test_the_whole_season_is_walked_with_every_check_passed(tmp_path):
    finished = subprocess.run(
        [sys.executable, str(BENCH / "season_walk.py"), "--out", str(tmp_path / "walk")],
        cwd=BENCH.parent,
        env=smoke_environment(),
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert finished.returncode == 0, finished.stdout[-3000:] + finished.stderr[-3000:]
    assert "walked in" in finished.stdout
    shots = list((tmp_path / "walk").glob("*.png"))
    assert len([shot for shot in shots if shot.name.endswith("-390.png")]) >= 150
    assert len(list((tmp_path / "walk").glob("*.pdf"))) >= 14

"""Many referee tablets on a real server (gunicorn on 127.0.0.1), on SQLite and PostgreSQL.

50 referees save 50 different sheets at once: no error, and every save the server
acknowledged is in the database afterwards with exactly the values sent. Two referees save the
same game of the same sheet from the same loaded version at the same moment: exactly one wins,
the other gets the conflict screen, and the stored game is the winner's.

The helpers (a started round of 50 tables, referee accounts, a game as a tablet posts it,
reading the database back) are shared with the crash-safety test: tests/support/venue.py.
"""

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.support.venue import (
    GAMES,
    TABLES,
    exported_game,
    exported_games,
    form_data,
    game_path,
    game_values,
    next_version,
    save_outcome,
    server_errors,
    sheet_version,
    sign_in,
    start_venue,
)

# One worker runs this module's tests (make test's --dist loadgroup): they share one module-scoped server.
pytestmark = [pytest.mark.server, pytest.mark.xdist_group("concurrency-venue")]


@pytest.fixture(scope="module")
def venue(tmp_path_factory):
    server, tokens = start_venue(tmp_path_factory.mktemp("venue"), device_links=TABLES)
    try:
        yield server, sign_in(server, tokens=tokens)
    finally:
        server.close()


def test_fifty_referees_saving_different_sheets_at_once_lose_nothing(venue):
    server, tablets = venue
    start = threading.Barrier(len(tablets))
    acknowledged, answers = {}, []

    def referee(table_number, client):
        """Open the sheet and save its four games one after another, as a tablet does."""
        version = sheet_version(client, table_number)
        start.wait(timeout=60)
        for number in range(1, GAMES + 1):
            values = game_values(table_number * 10 + number)
            response = client.post(game_path(table_number, number), form_data(version, values), htmx=True)
            outcome = save_outcome(response, number)
            answers.append((table_number, number, response.status, outcome))
            if outcome != "saved":
                return
            acknowledged[table_number, number] = values
            version = next_version(response, number)

    with ThreadPoolExecutor(max_workers=len(tablets)) as pool:
        for future in [pool.submit(referee, t, client) for t, client in enumerate(tablets, start=1)]:
            future.result()

    failed = [a for a in answers if a[3] != "saved"]
    assert not failed, failed[:5]
    assert len(acknowledged) == TABLES * GAMES
    stored = exported_games(server)
    for (table_number, number), values in acknowledged.items():
        assert stored[table_number][number] == exported_game(number, values), (table_number, number)
    assert not server_errors(server)


def test_two_referees_saving_the_same_game_at_once_one_wins_the_other_sees_the_conflict(venue):
    """25 pairs, each on its own sheet; half of them as htmx tablets, half as plain forms.

    Tablet k signed in with the device link labelled "Tablet k": the conflict screen names the
    tablet whose save won.
    """
    server, tablets = venue
    results = {}

    def contender(table_number, tablet, barrier, htmx):
        client = tablets[tablet - 1]
        version = sheet_version(client, table_number)
        values = game_values(1000 * tablet + table_number)
        barrier.wait(timeout=60)  # both tablets loaded the same version; now both save
        response = client.post(game_path(table_number, 1), form_data(version, values), htmx=htmx)
        results.setdefault(table_number, []).append((save_outcome(response, 1), tablet, values, response))

    pairs = range(1, TABLES // 2 + 1)
    with ThreadPoolExecutor(max_workers=len(tablets)) as pool:
        futures = []
        for table_number in pairs:
            barrier = threading.Barrier(2)
            for tablet in (2 * table_number - 1, 2 * table_number):
                futures.append(pool.submit(contender, table_number, tablet, barrier, table_number % 2 == 0))
        for future in futures:
            future.result()

    stored = exported_games(server)
    for table_number in pairs:
        (won, winner, values, _), (lost, _, _, answer) = sorted(results[table_number], key=lambda r: r[0] != "saved")
        assert (won, lost) == ("saved", "conflict"), (table_number, won, lost, answer.status)
        assert answer.status == (200 if table_number % 2 == 0 else 409)
        assert f"<strong>Tablet {winner}</strong>" in answer.text  # what was saved in the meantime, and by whom
        assert stored[table_number][1] == exported_game(1, values)
    assert not server_errors(server)

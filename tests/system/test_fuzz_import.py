"""Fuzzed import: random and hostile values anywhere in a valid file never crash the import
and never leave a partial write: it either imports the whole file or refuses it cleanly."""

import copy
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.tests.examples import examples
from organiser.interchange import InterchangeError, import_json_text, import_tournament
from tests.factories import out_game, table, tournament_data
from tournament.models import Organisation, Player, Tournament

pytestmark = pytest.mark.django_db

HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=300),
    st.sampled_from(
        [
            "",
            " ",
            "A",
            "E",
            "p1",
            "p99",
            "opened",
            "out",
            "pool_exhausted",
            "ąęłóśźż",
            "💥",
            "\x00",
            "'; DROP TABLE x;--",
        ]
    ),
    st.lists(st.integers(min_value=-5, max_value=20), max_size=5),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


def valid_file():
    games = [
        out_game(1, "A", B=(23, 0), C=(10, 1), D=(0, 0, "not_possible")),
        out_game(2, "B", A=(5, 0), C=(7, 0), D=(9, 0)),
    ]
    data = tournament_data(
        8,
        [
            {
                "number": 1,
                "state": "completed",
                "started_at": "2026-02-10T09:30:00+01:00",
                "completed_at": "2026-02-10T09:31:00+00:00",
                "tables": [table(1, ["p1", "p2", "p3", "p4"], games), table(2, ["p5", "p6", "p7", "p8"])],
            }
        ],
    )
    data["timetable"] = [
        {"round": 1, "planned_start": "09:30", "length_minutes": 60},
        {"round": 2, "planned_start": None},
    ]
    data["cards"] = [{"player": "p2", "round": 1, "colour": "yellow", "reason": "noise"}]
    data["tie_decisions"] = [{"order": ["p1", "p2"], "reason": "lot"}]
    return data


def paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for key, child in value.items():
            yield from paths(child, prefix + (key,))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from paths(child, prefix + (index,))


ALL_PATHS = [p for p in paths(valid_file()) if p]


def mutate(data, path, action, value):
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if action == "replace":
        parent[last] = value
    elif action == "delete":
        del parent[last]
    elif action == "duplicate" and isinstance(parent, list):
        parent.append(copy.deepcopy(parent[last]))
    elif isinstance(parent, dict):
        parent[str(value)[:20] or "x"] = value


def assert_all_or_nothing(data):
    try:
        tournament = import_tournament(data)
    except InterchangeError as error:
        assert str(error)
        assert not Tournament.objects.exists()
        assert not Player.objects.exists() and not Organisation.objects.exists()
    else:
        assert tournament.players.count() == len(data["players"])
        Tournament.objects.all().delete()


@settings(
    max_examples=examples(150),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    mutations=st.lists(
        st.tuples(
            st.sampled_from(ALL_PATHS), st.sampled_from(["replace", "replace", "delete", "duplicate", "add"]), HOSTILE
        ),
        min_size=1,
        max_size=3,
    )
)
def test_hostile_values_anywhere_import_all_or_nothing(mutations):
    data = valid_file()
    for path, action, value in mutations:
        try:
            mutate(data, path, action, value)
        except (KeyError, IndexError, TypeError):
            continue  # an earlier mutation removed or replaced this path
    assert_all_or_nothing(data)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.one_of(st.text(max_size=200), st.binary(max_size=200).map(lambda b: b.decode("latin-1"))))
def test_random_text_is_refused_cleanly(text):
    with pytest.raises(InterchangeError):
        import_json_text(text)
    assert not Tournament.objects.exists()


def test_duplicated_json_keys_take_the_last_value():
    text = json.dumps(valid_file())
    text = text.replace('"format": "rummikub-tournament/1"', '"format": "other", "format": "rummikub-tournament/1"', 1)
    assert import_json_text(text).slug == "test"

"""Tests of the seating_plan management command (no database needed)."""

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def run(*args):
    out = StringIO()
    call_command("seating_plan", *args, stdout=out)
    return out.getvalue()


def test_json_output_shape():
    data = json.loads(run("--players", "10", "--rounds", "2", "--seed", "7", "--json"))
    assert data["players"] == 10
    assert data["seed"] == 7
    assert len(data["rounds"]) == 2
    for seating in data["rounds"]:
        assert [t["table"] for t in seating] == [1, 2, 3]
        assert [len(t["seats"]) for t in seating] == [4, 3, 3]
        assert sorted(p for t in seating for p in t["seats"].values()) == list(range(1, 11))
        assert list(seating[0]["seats"]) == ["A", "B", "C", "D"]
    # a 4-table needs players from 4 round-1 tables, and there are only 3
    assert data["report"]["repeat_pairs"] == 1
    assert data["report"]["worst_pair"] == 2
    assert isinstance(data["seconds"], float)


def test_sixteen_players_no_repeats():
    data = json.loads(run("--players", "16", "--rounds", "4", "--seed", "1", "--json"))
    assert data["report"]["repeat_pairs"] == 0


def test_json_is_reproducible_with_a_seed():
    first = json.loads(run("--players", "9", "--rounds", "3", "--seed", "3", "--json"))
    second = json.loads(run("--players", "9", "--rounds", "3", "--seed", "3", "--json"))
    assert first["rounds"] == second["rounds"]


def test_default_seed_is_reported():
    data = json.loads(run("--players", "8", "--rounds", "1", "--json"))
    assert isinstance(data["seed"], int)


@pytest.mark.parametrize("method", ["swiss", "random"])
def test_methods(method):
    data = json.loads(run("--players", "12", "--rounds", "2", "--method", method, "--seed", "1", "--json"))
    assert data["method"] == method
    assert len(data["rounds"]) == 2


def test_plain_text_summary():
    text = run("--players", "7", "--rounds", "2", "--seed", "5")
    assert "seed 5" in text
    assert "Round 2" in text
    assert "Table   1" in text
    assert "Repeat pairs:" in text
    assert "Seat spread:" in text


@pytest.mark.parametrize(
    "args, message",
    [
        (("--players", "2", "--rounds", "3"), "At least 3 players"),
        (("--players", "5", "--rounds", "3"), "5 players"),
        (("--players", "8", "--rounds", "0"), "At least one round"),
    ],
)
def test_bad_arguments(args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)

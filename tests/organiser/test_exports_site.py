"""The static results site (`export_site`): every link resolves inside the zip, no script and no
address outside it, names stay text, and it shows exactly what the public pages show: the
hidden and frozen modes leak nothing (the pattern of tests/public/test_leak.py)."""

import io
import posixpath
import zipfile
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

from organiser.demo import random_tournament
from organiser.exports.downloads import EXPORT_FILES
from organiser.exports.site import site_files
from organiser.interchange import import_tournament
from scoring.services.visibility import set_visibility
from tests.factories import (
    LATE_SCORE,
    LIVE_ONLY_TOTALS,
    ROUND1_SCORE,
    UNVERIFIED_SCORE,
    build,
    build_hall,
    games,
    hostile_tournament,
    table,
)
from tests.support.files import number_pattern, read_workbook, zip_texts
from tournament.models import Tournament

pytestmark = pytest.mark.django_db


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.tags = [], []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.links += [
            value for name, value in attrs if name in ("href", "src", "action", "srcset") and value is not None
        ]


def export_zip(tournament, tmp_path):
    out = tmp_path / "site.zip"
    call_command("export_site", tournament.slug, "--out", str(out), stdout=io.StringIO())
    return out.read_bytes()


def broken_links(files):
    """Every href/src that is absolute, leaves the zip or names no file in it."""
    broken = []
    for page, text in files.items():
        if not page.endswith(".html"):
            continue
        parser = Links()
        parser.feed(text)
        assert "script" not in parser.tags, f"{page} holds a script"
        for link in parser.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("/"):
                broken.append(f"{page}: {link} is not relative")
                continue
            if not parts.path:
                continue  # a link to a place on the same page
            target = posixpath.normpath(posixpath.join(posixpath.dirname(page), unquote(parts.path)))
            if target not in files:
                broken.append(f"{page}: {link} -> {target} is not in the zip")
    return broken


def test_every_link_of_the_site_resolves_to_a_file_in_the_zip(tmp_path):
    tournament = hostile_tournament()
    data = export_zip(tournament, tmp_path)
    files = zip_texts(data)
    assert "index.html" in files and "style.css" in files
    assert {"standings.html", "players.html", "rounds/1.html", "rounds/2.html"} <= files.keys()
    assert {f"players/{n}.html" for n in range(1, 9)} <= files.keys()
    assert broken_links(files) == []
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        assert all(not name.startswith("/") and ".." not in name for name in archive.namelist())


def test_the_link_check_finds_a_broken_link():
    files = {
        "index.html": '<a href="standings.html">x</a><a href="rounds/9.html">y</a><img src="/logo.png">'
        '<a href="https://example.com/">z</a><a href="#top">t</a>',
        "standings.html": "",
    }
    assert broken_links(files) == [
        "index.html: rounds/9.html -> rounds/9.html is not in the zip",
        "index.html: /logo.png is not relative",
        "index.html: https://example.com/ is not relative",
    ]


def test_names_are_escaped_text_everywhere():
    files = site_files(hostile_tournament())
    texts = {path: data.decode() for path, data in files.items()}
    assert not any("<script>alert" in text or "<b>Seniora" in text for text in texts.values())
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in texts["standings.html"]
    assert "=1+1 Klub &lt;b&gt;Seniora&lt;/b&gt;" in texts["players/1.html"]
    assert "שלום עליכם 🎲" in texts["players/7.html"] and "Zoë &quot;Quote&quot; O&#x27;Neil" in texts["players/5.html"]
    assert "O&#x27;Neil Zoë &quot;Quote&quot;" in texts["players.html"]  # the list A–Ż: surname first


def test_the_site_shows_the_staff_nothing_more_the_unverified_sheet_stays_out():
    texts = "".join(data.decode() for data in site_files(hostile_tournament()).values())
    assert not number_pattern(UNVERIFIED_SCORE).search(texts)
    assert "+158" in texts  # round 1 is verified and public (live)


def test_a_tournament_without_rounds_gives_a_site_with_the_players_only(tmp_path):
    files = zip_texts(export_zip(build(5), tmp_path))
    assert sorted(files) == [
        "index.html",
        "players.html",
        *(f"players/{n}.html" for n in range(1, 6)),
        "standings.html",
        "style.css",
    ]
    assert broken_links(files) == []
    assert "3 Gracz" in files["players.html"]  # "Gracz 3": the surname (3) first in the list A–Ż


# ---------------------------------------------------------------- visibility (SPEC §8)


def found(files, value):
    pattern = number_pattern(value)
    return sorted(path for path, data in files.items() if pattern.search(data.decode()))


@pytest.fixture
def hall(db):
    return build_hall(players=8)


def test_live_mode_shows_the_verified_scores_so_the_leak_tests_can_see_them(hall):
    files = site_files(hall)
    assert found(files, ROUND1_SCORE) and found(files, LATE_SCORE) and found(files, LIVE_ONLY_TOTALS[0])
    assert found(files, UNVERIFIED_SCORE) == []
    assert "rounds/4.html" in files and "rounds/5.html" not in files  # published rounds only, no draft


def test_frozen_mode_shows_nothing_after_the_freeze(hall):
    set_visibility(hall, Tournament.Visibility.FROZEN)  # as of round 2, the last completed
    files = site_files(hall)
    assert found(files, ROUND1_SCORE), "the results up to the freeze stay public"
    for value in (LATE_SCORE, UNVERIFIED_SCORE, *LIVE_ONLY_TOTALS):
        assert found(files, value) == [], f"{value} leaked"
    assert "3788" in files["standings.html"].decode()  # p1's total as of round 2


def test_hidden_mode_shows_no_score_at_all(hall):
    set_visibility(hall, Tournament.Visibility.HIDDEN)
    files = site_files(hall)
    for value in (ROUND1_SCORE, LATE_SCORE, UNVERIFIED_SCORE, *LIVE_ONLY_TOTALS, "3788"):
        assert found(files, value) == [], f"{value} leaked"
    texts = {path: data.decode() for path, data in files.items()}
    assert "Small points" not in "".join(texts.values())
    assert "Łęcki Jan" in texts["rounds/1.html"], "the seating stays public"
    assert "The results are hidden" in texts["standings.html"]


def test_the_final_has_its_page_and_its_sheet(tmp_path):
    ids = ["p1", "p2", "p3", "p4"]
    rounds = [
        {"number": 1, "state": "completed", "tables": [table(1, ids, games())]},
        {"number": 2, "kind": "final", "state": "completed", "tables": [table(1, ids[::-1], games())]},
    ]
    tournament = build(4, rounds=rounds, settings={"final": True, "rounds_planned": 1})
    files = zip_texts(export_zip(tournament, tmp_path))
    assert 'href="rounds/2.html"' in files["index.html"] and "The final table" in files["index.html"]
    assert "<h1>Final</h1>" in files["rounds/2.html"] and "+158" in files["rounds/2.html"]
    assert broken_links(files) == []
    out = tmp_path / "results.xlsx"
    call_command("export_results", tournament.slug, "--format", "xlsx", "--out", str(out), stdout=io.StringIO())
    sheets = read_workbook(str(out))
    assert list(sheets) == ["Standings", "Round 1", "Final", "Cards"]
    assert sheets["Final"][1][1] == [1, "A", "Gracz 4", 183, -12, -5, -8, 158, 1]
    # The final ranks its table first: Gracz 4 (seat A of the final, +158 there) is first.
    assert sheets["Standings"][1][1][:2] == [1, "Gracz 4"]


def test_the_exports_take_as_many_queries_for_a_larger_field():
    counts = []
    for players, slug in ((8, "small"), (32, "large")):
        tournament = import_tournament(random_tournament(players, 3, slug=slug))
        with CaptureQueriesContext(connection) as queries:
            for _content_type, make in EXPORT_FILES.values():
                make(tournament)
        counts.append(len(queries))
    assert counts[0] == counts[1]

"""The static results site: the public pages as plain HTML files for a .zip (no server, no JavaScript).

It shows exactly what the public pages show at this moment: the same visibility
(`scoring.selectors.visibility.public_scope`, `public_standings`), the same rounds and round results
(`scoring.selectors.results`), so hidden results stay hidden and frozen standings stay frozen. Every
link is relative: the folder opens from `file://` and can be put on any web server as it is.

    index.html            the tournament's details and its rounds
    standings.html        the leaderboard
    players.html          every player by surname, A–Ż
    players/<start number>.html   a player's tables, opponents and games
    rounds/<number>.html  a round's tables with their results (the final too)
    seasons/<season>.html the public table of each season the tournament is in (only the
                          tournaments whose results are public count; the others are listed pending)
    style.css             the public pages' style sheets, with a few lines for print

The organiser's download is made by a task (`make_results_site`), which reports each page made.
"""

from pathlib import Path

from django.contrib.staticfiles import finders
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django_tasks import task

from organiser.exports.writers.archive import zip_bytes
from organiser.selectors import organisation_count, players_with_organisations
from scoring.selectors.results import player_histories, public_rounds, tables_by_round
from scoring.selectors.seasons import season_table, seasons_of
from scoring.selectors.standings import placing_reason
from scoring.selectors.visibility import counts_any_game, public_scope, public_standings, standings_progress
from tournament.models import ProducedFile
from tournament.names import sorted_by_surname
from tournament.selectors import data_version, tournament_with_pk
from tournament.services.files import FileRequest, produce_file

STYLE_SHEETS = ("css/app.css", "css/public.css", "css/site.css")


def style_sheet():
    return "\n".join(Path(finders.find(name)).read_text(encoding="utf-8") for name in STYLE_SHEETS).encode()


def round_and_season_pages(page, rounds_tables, seasons, scope):
    """{path: page} of each round's tables and each season's public table."""
    files = {}
    for round_, tables in rounds_tables:
        files[f"rounds/{round_.number}.html"] = page(
            "round.html", "../", round=round_, tables=tables, results_shown=scope.shows_round(round_.number)
        )
    for season in seasons:
        files[f"seasons/{season.slug}.html"] = page(
            "season.html", "../", season=season, table=season_table(season, public=True)
        )
    return files


def site_files(tournament, progress=None):
    """{relative path: bytes} of every file of the site; `progress(done, total)` is told of each page."""
    scope = public_scope(tournament)
    rows = public_standings(tournament)
    has_results = counts_any_game(rows)
    rounds = public_rounds(tournament)
    standing_after = standings_progress(tournament, rounds, scope.up_to_round)
    rounds_tables = tables_by_round(tournament, rounds, scope)
    players = players_with_organisations(tournament)
    seasons = seasons_of(tournament)
    base = {
        "tournament": tournament,
        "scope": scope,
        "frozen_round": scope.up_to_round,
        "rounds": rounds,
        "progress": standing_after,
        "medals": standing_after.finished,  # medal marks only once the places are final (issue 48.1)
        "exported_at": timezone.localtime(),
    }

    # with the style sheet, the index, the standings and the players
    total = 4 + len(rounds_tables) + len(seasons) + len(players)
    made = 1  # the style sheet

    def page(template, root="", **context):
        nonlocal made
        html = render_to_string(f"organiser/site/{template}", {**base, "site_root": root, **context}).encode()
        made += 1
        if progress is not None:
            progress(made, total)
        return html

    files = {
        "style.css": style_sheet(),
        "index.html": page(
            "index.html",
            final=next((r for r in rounds if r.is_final), None),
            player_count=len(players),
            organisation_count=organisation_count(tournament),
            seasons=seasons,
        ),
        "standings.html": page("standings.html", nav="standings", rows=rows, has_results=has_results),
        "players.html": page("players.html", nav="players", players=sorted_by_surname(players)),
    }
    files.update(round_and_season_pages(page, rounds_tables, seasons, scope))
    standing = {row.player.pk: row for row in rows or ()}
    histories = player_histories(rounds_tables)
    for player in players:
        own_row = standing.get(player.pk)
        files[f"players/{player.start_number}.html"] = page(
            "player.html",
            "../",
            player=player,
            history=histories.get(player.pk, []),
            standing=own_row if has_results else None,
            placing_reason=placing_reason(tournament, own_row),
            status=own_row.status if own_row else player.status,  # frozen: as of the frozen round
        )
    return files


def site_zip(tournament, progress=None):
    """The site as a .zip file."""
    return zip_bytes(site_files(tournament, progress))


def site_request(tournament, source_path):
    """What a download of the site asks for: the site as the public sees the data now, in this language."""
    return FileRequest(
        kind=ProducedFile.Kind.RESULTS_SITE,
        file_name=f"{tournament.slug}-results-site.zip",
        content_type="application/zip",
        source_path=source_path,
        version=data_version(tournament),
        arguments={"language": translation.get_language()},
    )


@task()
def make_results_site(file_id):
    """The task that makes the site's zip (`tournament.services.files.produce_file`)."""
    produce_file(file_id, _make)


def _make(produced, progress):
    with translation.override(produced.arguments["language"]):
        return site_zip(tournament_with_pk(produced.tournament_id), progress)

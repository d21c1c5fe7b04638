import json

from django.core.management.base import BaseCommand

from organiser.management.command_line import tournament_by_slug
from scoring.selectors.standings import FINAL_MARK, caption, compute_standings, standings_json, tie_note


class Command(BaseCommand):
    help = "Print the standings of a tournament (staff view: every verified sheet, whatever the visibility)."

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--json", action="store_true", help="print the SPEC §9 JSON rows")

    def handle(self, *args, slug, **options):
        tournament = tournament_by_slug(slug)
        rows = compute_standings(tournament)
        if options["json"]:
            self.stdout.write(json.dumps(standings_json(rows), ensure_ascii=False, indent=2))
            return
        self.stdout.write(caption(rows))
        for row in rows:  # the points that place the row: the final's for its players (marked)
            points = row.points
            notes = "  ".join(note for note in (str(FINAL_MARK) if row.in_final else "", tie_note(row)) if note)
            self.stdout.write(
                f"{row.rank_label:>6}  {row.player.name:<32} {points.big_points:>4} {points.small_points:>7} "
                f"{points.games_won:>3}  {row.player.organisation.name}{'  ' + notes if notes else ''}"
            )

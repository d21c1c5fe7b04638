import json

from django.core.management.base import BaseCommand, CommandError

from scoring.selectors.seasons import season_table
from tournament.selectors import season_with_slug


class Command(BaseCommand):
    help = (
        "Print a season's table: every finished tournament (staff view), or with --public only those whose "
        "results are public."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--json", action="store_true", help="print the rows as JSON (SPEC §10)")
        parser.add_argument("--public", action="store_true", help="count only the tournaments whose results are public")

    def handle(self, *args, slug, **options):
        season = season_with_slug(slug)
        if season is None:
            raise CommandError(f"no season {slug!r}")
        table = season_table(season, public=options["public"])
        if options["json"]:
            self.stdout.write(json.dumps([line.as_json() for line in table.lines], ensure_ascii=False, indent=2))
            return
        self.stdout.write(f"{season.name} ({'public results' if table.public else 'every finished tournament'})")
        for entry in table.pending:
            self.stdout.write(f"  pending: {entry.tournament.slug} ({entry.pending})")
        for line in table.lines:
            results = "  ".join(
                f"{r.tournament.slug}:{'DQ' if r.disqualified else r.place}={r.points}{'' if r.counted else '*'}"
                for r in line.results
            )
            self.stdout.write(
                f"{line.rank:>4}  {line.name:<32} {line.points:>5} {line.tournaments:>3} {line.wins:>3}  "
                f"{line.club}  [{results}]"
            )
        self.stdout.write("(* not counted)")

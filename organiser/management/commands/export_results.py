from django.core.management.base import BaseCommand

from organiser.exports.downloads import EXPORT_FILES
from organiser.management.command_line import tournament_by_slug, write_file


class Command(BaseCommand):
    help = (
        "Write a tournament's results (staff standings: every verified sheet) as a spreadsheet "
        "(standings, rounds, final, cards) or as CSV (the standings, or with --table rounds every seat of every round; "
        "separated by semicolons, or by commas with --separator comma)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["xlsx", "csv"], required=True)
        parser.add_argument(
            "--table", choices=["rounds", "standings"], default="standings", help="CSV only: which table"
        )
        parser.add_argument(
            "--separator",
            choices=["semicolon", "comma"],
            default="semicolon",
            help="CSV only: semicolons (the default; Excel in Polish opens them in columns) or commas (other tools)",
        )
        parser.add_argument("--out", required=True, help="the file to write")

    def handle(self, *args, slug, out, **options):
        tournament = tournament_by_slug(slug)
        comma = "-comma" if options["separator"] == "comma" else ""
        name = "results.xlsx" if options["format"] == "xlsx" else f"{options['table']}{comma}.csv"
        _content_type, make = EXPORT_FILES[name]
        write_file(out, make(tournament))
        self.stdout.write(out)

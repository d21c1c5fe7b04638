from django.core.management.base import BaseCommand, CommandError

from organiser.exports.csvfile import csv_bytes
from organiser.exports.spreadsheet import write_workbook
from organiser.result_tables import CSV_TABLES, workbook_tables
from tournament.models import Tournament


class Command(BaseCommand):
    help = (
        "Write a tournament's results (staff standings: every verified sheet) as a spreadsheet "
        "(standings, rounds, final, cards) or as CSV (the standings, or with --table rounds every seat of every round)."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--format", choices=["xlsx", "csv"], required=True)
        parser.add_argument("--table", choices=sorted(CSV_TABLES), default="standings", help="CSV only: which table")
        parser.add_argument("--out", required=True, help="the file to write")

    def handle(self, *args, slug, out, **options):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament {slug!r}")
        try:
            if options["format"] == "xlsx":
                write_workbook(workbook_tables(tournament), out)
            else:
                with open(out, "wb") as file:
                    file.write(csv_bytes(CSV_TABLES[options["table"]](tournament)))
        except OSError as error:
            raise CommandError(f"cannot write {out}: {error.strerror or error}") from error
        self.stdout.write(f"{out}")

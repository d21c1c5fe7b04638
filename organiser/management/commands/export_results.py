from django.core.management.base import BaseCommand

from organiser.exports.csvfile import csv_bytes
from organiser.exports.spreadsheet import workbook_bytes
from organiser.management.exporting import tournament_by_slug, write_file
from organiser.result_tables import CSV_TABLES, workbook_tables


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
        tournament = tournament_by_slug(slug)
        if options["format"] == "xlsx":
            data = workbook_bytes(workbook_tables(tournament))
        else:
            data = csv_bytes(CSV_TABLES[options["table"]](tournament))
        write_file(out, data)
        self.stdout.write(out)

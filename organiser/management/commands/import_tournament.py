from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, no_translations

from organiser.interchange import InterchangeError, import_json_text


class Command(BaseCommand):
    help = "Import a whole tournament from a rummikub-tournament/1 JSON file (all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the JSON file, or - for standard input")

    @no_translations  # the file's messages name JSON paths: English, like the format
    def handle(self, *args, file, **options):
        try:
            text = self.stdin.read() if file == "-" else Path(file).read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            raise CommandError(f"cannot read {file}: {error}") from None
        try:
            tournament = import_json_text(text)
        except InterchangeError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"Imported {tournament.slug}: {tournament.players.count()} players, {tournament.rounds.count()} rounds.")

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, no_translations

from organiser.backups.restore import json_text
from organiser.interchange import InterchangeError, import_json_text
from organiser.management.command_line import add_organisation_argument, host_organisation
from tournament.refusals import Refused


class Command(BaseCommand):
    help = "Import a whole tournament from a rummikub-tournament/1 JSON file, plain or .json.gz (all or nothing)."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the JSON file (or a compressed snapshot, .json.gz), or - for standard input")
        add_organisation_argument(parser)

    @no_translations  # the file's messages name JSON paths: English, like the format
    def handle(self, *args, file, organisation=None, **options):
        host = host_organisation(organisation)
        try:
            if file == "-":
                raw = self.stdin.buffer.read() if hasattr(self.stdin, "buffer") else self.stdin.read().encode("utf-8")
            else:
                raw = Path(file).read_bytes()
            text = json_text(raw, max_size=None)
        except OSError as error:
            raise CommandError(f"cannot read {file}: {error}") from None
        except Refused as refusal:
            raise CommandError(f"cannot read {file}: {refusal.message}") from None
        try:
            tournament = import_json_text(text, host=host)
        except InterchangeError as error:
            raise CommandError(str(error)) from None
        self.stdout.write(
            f"Imported {tournament.slug} into {tournament.host.slug}: "
            f"{tournament.players.count()} players, {tournament.rounds.count()} rounds."
        )

from django.core.management.base import BaseCommand

from organiser.interchange import dumps, export_tournament
from organiser.management.command_line import tournament_by_slug


class Command(BaseCommand):
    help = "Print a whole tournament as rummikub-tournament/1 JSON (a backup that import_tournament restores)."

    def add_arguments(self, parser):
        parser.add_argument("slug")

    def handle(self, *args, slug, **options):
        tournament = tournament_by_slug(slug)
        self.stdout.write(dumps(export_tournament(tournament)), ending="")

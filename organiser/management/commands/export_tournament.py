from django.core.management.base import BaseCommand, CommandError

from organiser.interchange import dumps, export_tournament
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Print a whole tournament as rummikub-tournament/1 JSON (a backup that import_tournament restores)."

    def add_arguments(self, parser):
        parser.add_argument("slug")

    def handle(self, *args, slug, **options):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament {slug!r}")
        self.stdout.write(dumps(export_tournament(tournament)), ending="")

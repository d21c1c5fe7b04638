from django.core.management.base import BaseCommand, CommandError

from organiser.results_site import write_site
from tournament.models import Tournament


class Command(BaseCommand):
    help = (
        "Write the results as a static site in a .zip: plain HTML and CSS showing exactly what the "
        "public pages show now (the results visibility applies), index.html at its root."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--out", required=True, help="the .zip file to write")

    def handle(self, *args, slug, out, **options):
        tournament = Tournament.objects.filter(slug=slug).first()
        if tournament is None:
            raise CommandError(f"no tournament {slug!r}")
        try:
            write_site(tournament, out)
        except OSError as error:
            raise CommandError(f"cannot write {out}: {error.strerror or error}") from error
        self.stdout.write(out)

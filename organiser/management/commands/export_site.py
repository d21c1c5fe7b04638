from django.core.management.base import BaseCommand

from organiser.exports.site import site_zip
from organiser.management.command_line import tournament_by_slug, write_file


class Command(BaseCommand):
    help = (
        "Write the results as a static site in a .zip: plain HTML and CSS showing exactly what the "
        "public pages show now (the results visibility applies), index.html at its root."
    )

    def add_arguments(self, parser):
        parser.add_argument("slug")
        parser.add_argument("--out", required=True, help="the .zip file to write")

    def handle(self, *args, slug, out, **options):
        tournament = tournament_by_slug(slug)
        write_file(out, site_zip(tournament))
        self.stdout.write(out)

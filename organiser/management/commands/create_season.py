from django.core.management.base import BaseCommand, CommandError

from organiser import services
from organiser.management.command_line import add_organisation_argument, host_organisation
from tournament.models import DEFAULT_SEASON_POINTS
from tournament.refusals import Refused


def whole_numbers(text):
    try:
        return tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        raise CommandError(f"--points takes whole numbers separated by commas, not {text!r}") from None


class Command(BaseCommand):
    help = "Make a season: a ranking of the organisation's people over some of its tournaments."

    def add_arguments(self, parser):
        add_organisation_argument(parser)
        parser.add_argument("--slug", required=True, help="the season's short address (its page: /s/SLUG/)")
        parser.add_argument("--name", required=True)
        parser.add_argument(
            "--tournaments", required=True, metavar="SLUG,SLUG,...", help="the organisation's tournaments in it"
        )
        parser.add_argument(
            "--points",
            metavar="25,20,...",
            default=",".join(map(str, DEFAULT_SEASON_POINTS)),
            help="points for places 1, 2, 3…; places further down score 0 (default: %(default)s)",
        )
        parser.add_argument(
            "--best", type=int, metavar="N", help="count each person's best N tournaments (default: all)"
        )

    def handle(self, *args, **options):
        host = host_organisation(options["organisation"])
        if host is None:
            raise CommandError("this server has no organisation and no tournament yet")
        slugs = tuple(slug.strip() for slug in options["tournaments"].split(",") if slug.strip())
        data = services.SeasonData(
            options["name"], options["slug"], slugs, whole_numbers(options["points"]), options["best"]
        )
        try:
            season = services.create_season(host, data, user=None)
        except Refused as refusal:
            raise CommandError(refusal.message) from None
        self.stdout.write(f"season {season.slug!r} made with {len(slugs)} tournaments: /s/{season.slug}/")

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError
from django.core.validators import validate_slug

from accounts.services import create_organisation, set_password_path
from tournament.refusals import Refused

LOCAL_ADDRESS = "http://localhost:8000"


class Command(BaseCommand):
    help = (
        "Add a host organisation with a new organiser account, and print the one-time link where "
        "that organiser sets a password."
    )

    def add_arguments(self, parser):
        parser.add_argument("--name", required=True, help='the organisation\'s name, e.g. "UTW Kraków"')
        parser.add_argument("--slug", required=True, help="its short address, e.g. utw-krakow")
        parser.add_argument("--organiser", required=True, help="the new organiser's user name (must be free)")
        parser.add_argument(
            "--address",
            default="",
            help=f"the server's address for the link (default: PUBLIC_URL, else {LOCAL_ADDRESS})",
        )

    def handle(self, *args, name, slug, organiser, address, **options):
        try:
            validate_slug(slug)
        except ValidationError:
            raise CommandError(f"--slug {slug!r}: use only letters, digits, hyphens and underscores") from None
        if not name.strip():
            raise CommandError("--name must not be empty")
        try:
            user = create_organisation(name=name.strip(), slug=slug, organiser=organiser)
        except Refused as refusal:
            raise CommandError(str(refusal.message)) from None
        base = (address or settings.PUBLIC_URL or LOCAL_ADDRESS).rstrip("/")
        self.stdout.write(f"Organisation {name.strip()!r} ({slug}) created, organiser {user.get_username()!r}.")
        self.stdout.write(f"Link to set the password (works once): {base}{set_password_path(user)}")

import os
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth.models import User
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import Role
from accounts.services import make_member
from organiser.demo import DEMO_SLUG, demo_data
from organiser.interchange import import_tournament
from organiser.management.command_line import add_organisation_argument, host_organisation
from tournament.selectors import any_tournament, slug_taken

DEMO_USERS = [("organizator", Role.ORGANISER), ("sedzia-glowny", Role.HEAD_REFEREE), ("sedzia", Role.REFEREE)]


def write_private(path: Path, text: str) -> None:
    """Write `text` readable by the server's user only (mode 0600, as the key and the setup code),
    making a file kept from an earlier run private too."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.fchmod(descriptor, 0o600)  # an existing file keeps its mode on open
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(text)


class Command(BaseCommand):
    help = "Create the demo tournament (42 players, two rounds played) and its staff logins, to try the app out."

    def add_arguments(self, parser):
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing but print the logins if a tournament exists"
        )
        add_organisation_argument(parser)

    def handle(self, *args, if_empty=False, organisation=None, **options):
        logins_file = settings.VAR_DIR / "demo-logins.txt"
        with transaction.atomic():
            if not (if_empty and any_tournament()):
                host = host_organisation(organisation)
                if slug_taken(DEMO_SLUG):
                    raise CommandError(f"the demo tournament {DEMO_SLUG!r} exists already")
                tournament = import_tournament(demo_data(), host=host)
                self.stdout.write(f"Demo tournament: {tournament.name} (/t/{tournament.slug}/)")
                lines = []
                for username, role in DEMO_USERS:
                    password = secrets.token_urlsafe(9)
                    user = User.objects.filter(username=username).first() or User(username=username)
                    user.set_password(password)
                    user.save()
                    make_member(user, role, tournament.host)
                    lines.append(f"{str(role.label):<14} {username:<14} {password}")
                write_private(logins_file, "\n".join(lines) + "\n")
        if logins_file.exists():
            os.chmod(logins_file, 0o600)  # written by an earlier version with the default mode
            self.stdout.write(f"Demo logins (sign in at /accounts/login/; kept in {logins_file}):")
            self.stdout.write(logins_file.read_text(encoding="utf-8"))

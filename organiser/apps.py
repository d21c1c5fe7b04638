from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OrganiserConfig(AppConfig):
    name = "organiser"
    verbose_name = _("Running the tournament")

    def ready(self):
        from django.db.models.signals import post_delete

        from organiser.backups.snapshots import on_sheet_verified, on_tournament_deleted
        from scoring.signals import sheet_verified
        from tournament.models import Tournament

        sheet_verified.connect(on_sheet_verified, dispatch_uid="organiser-snapshot-after-verify")
        post_delete.connect(on_tournament_deleted, sender=Tournament, dispatch_uid="organiser-snapshots-of-deleted")

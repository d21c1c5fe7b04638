from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OrganiserConfig(AppConfig):
    name = "organiser"
    verbose_name = _("Running the tournament")

    def ready(self):
        from organiser.backups.snapshots import on_sheet_verified
        from scoring.signals import sheet_verified

        sheet_verified.connect(on_sheet_verified, dispatch_uid="organiser-snapshot-after-verify")

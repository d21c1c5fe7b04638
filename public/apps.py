from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PublicConfig(AppConfig):
    name = "public"
    verbose_name = _("Public pages")

    def ready(self):
        from public.versions import connect_signals

        connect_signals(self)

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PublicConfig(AppConfig):
    name = "public"
    verbose_name = _("Public pages")

    def ready(self):
        from django.db.models.signals import post_delete, post_save

        from public.freshness import lists_changed
        from public.versions import connect_signals
        from tournament.models import HostOrganisation, Tournament

        connect_signals(self)
        for model in (HostOrganisation, Tournament):
            for event, signal in (("saved", post_save), ("deleted", post_delete)):
                signal.connect(lists_changed, sender=model, dispatch_uid=f"public.lists.{model.__name__}.{event}")

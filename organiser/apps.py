from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OrganiserConfig(AppConfig):
    name = "organiser"
    verbose_name = _("Running the tournament")

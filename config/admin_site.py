"""The admin is the operators' (superusers'): the people who run the service create host
organisations and read everything there. Organisers and referees work on the app's own pages and
never open it, whatever flags their accounts carry."""

from django.contrib.admin import AdminSite
from django.contrib.admin.apps import AdminConfig


class OperatorsAdminSite(AdminSite):
    def has_permission(self, request):
        return request.user.is_active and request.user.is_superuser


class OperatorsAdminConfig(AdminConfig):
    default_site = "config.admin_site.OperatorsAdminSite"

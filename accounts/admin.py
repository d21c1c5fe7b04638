from django.contrib import admin

from accounts.models import Membership, TournamentRole


@admin.register(TournamentRole)
class TournamentRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "tournament", "role"]
    list_filter = ["tournament", "role"]
    search_fields = ["user__username"]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    """A person's role in a host organisation's team (for all its tournaments)."""

    list_display = ["user", "host", "role"]
    list_filter = ["host", "role"]
    search_fields = ["user__username", "host__name"]

from django.contrib import admin

from accounts.models import TournamentRole


@admin.register(TournamentRole)
class TournamentRoleAdmin(admin.ModelAdmin):
    list_display = ["user", "tournament", "role"]
    list_filter = ["tournament", "role"]
    search_fields = ["user__username"]

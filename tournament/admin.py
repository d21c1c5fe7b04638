"""Admin for organisers' corrections: search, filters, inline seats."""

from django.contrib import admin

from tournament.models import Organisation, Player, Round, Seat, Table, Tournament


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "date", "slug", "visibility", "rounds_planned", "final"]
    list_filter = ["visibility", "date"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Organisation)
class OrganisationAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament"]
    list_filter = ["tournament"]
    search_fields = ["name"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["start_number", "name", "organisation", "status", "present", "tournament"]
    list_display_links = ["start_number", "name"]
    list_filter = ["tournament", "status", "present"]
    search_fields = ["name", "organisation__name", "ext_id"]
    list_select_related = ["organisation", "tournament"]
    autocomplete_fields = ["organisation"]


class TableInline(admin.TabularInline):
    model = Table
    extra = 0
    show_change_link = True


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "kind", "state", "method", "seed"]
    list_filter = ["tournament", "kind", "state"]
    inlines = [TableInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    autocomplete_fields = ["player"]


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["round", "number"]
    list_filter = ["round__tournament", "round__number"]
    list_select_related = ["round", "round__tournament"]
    inlines = [SeatInline]


@admin.register(Seat)
class SeatAdmin(admin.ModelAdmin):
    list_display = ["table", "letter", "player"]
    list_filter = ["round__tournament", "round__number"]
    search_fields = ["player__name"]
    list_select_related = ["table", "table__round", "player"]
    autocomplete_fields = ["player"]

"""Admin for the head referee's and organiser's corrections and the audit log (read-only)."""

from django.contrib import admin

from scoring.models import AuditEntry, Card, Game, ScoreSheet, SeatResult, TieDecision


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    show_change_link = True


@admin.register(ScoreSheet)
class ScoreSheetAdmin(admin.ModelAdmin):
    list_display = ["__str__", "state", "version", "updated_at", "verified_by"]
    list_filter = ["state", "table__round__tournament", "table__round__number"]
    search_fields = ["table__seats__player__name"]
    list_select_related = ["table", "table__round", "verified_by"]
    readonly_fields = ["version"]
    inlines = [GameInline]


class SeatResultInline(admin.TabularInline):
    model = SeatResult
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["sheet", "number", "ending", "winner"]
    list_filter = ["ending", "sheet__table__round__tournament"]
    list_select_related = ["sheet", "sheet__table", "sheet__table__round"]
    inlines = [SeatResultInline]


@admin.register(SeatResult)
class SeatResultAdmin(admin.ModelAdmin):
    list_display = ["game", "letter", "tiles", "jokers", "opening", "score", "override_score"]
    list_filter = ["opening", "went_out", "game__sheet__table__round__tournament"]
    list_select_related = ["game", "game__sheet", "game__sheet__table", "game__sheet__table__round"]


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ["player", "colour", "round", "reason", "given_by", "created_at"]
    list_filter = ["tournament", "colour"]
    search_fields = ["player__name", "reason"]
    list_select_related = ["player", "round", "given_by"]


@admin.register(TieDecision)
class TieDecisionAdmin(admin.ModelAdmin):
    list_display = ["tournament", "__str__", "reason", "created_at"]
    list_filter = ["tournament"]


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin):
    list_display = ["created_at", "tournament", "action", "user", "sheet", "reason"]
    list_filter = ["tournament", "action"]
    search_fields = ["reason", "action"]
    list_select_related = ["tournament", "user", "sheet"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

"""The admin of score sheets, games, results, cards, tie decisions and the audit log: read-only
(see `tournament.admin`). Results are corrected on the referee pages, which apply the rules
engine and write the audit log."""

from django.contrib import admin
from django.urls import reverse

from scoring.models import Card, Game, ScoreSheet, SeatResult, TieDecision
from tournament.admin import ReadOnlyAdmin, ReadOnlyInline, sheet_url


class GameInline(ReadOnlyInline):
    model = Game
    show_change_link = True


@admin.register(ScoreSheet)
class ScoreSheetAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "state", "version", "updated_at", "verified_by"]
    list_filter = ["state", "table__round__tournament", "table__round__number"]
    search_fields = ["table__seats__player__name"]
    list_select_related = ["table", "table__round", "verified_by"]
    inlines = [GameInline]

    def corrections_url(self, obj):
        return sheet_url(obj.table)


class SeatResultInline(ReadOnlyInline):
    model = SeatResult


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ["sheet", "number", "ending", "winner"]
    list_filter = ["ending", "sheet__table__round__tournament"]
    list_select_related = ["sheet", "sheet__table", "sheet__table__round"]
    inlines = [SeatResultInline]

    def corrections_url(self, obj):
        return sheet_url(obj.sheet.table)


@admin.register(SeatResult)
class SeatResultAdmin(ReadOnlyAdmin):
    list_display = ["game", "letter", "tiles", "jokers", "opening", "score", "override_score"]
    list_filter = ["opening", "went_out", "game__sheet__table__round__tournament"]
    list_select_related = ["game", "game__sheet", "game__sheet__table", "game__sheet__table__round"]

    def corrections_url(self, obj):
        return sheet_url(obj.game.sheet.table)


@admin.register(Card)
class CardAdmin(ReadOnlyAdmin):
    list_display = ["player", "colour", "round", "reason", "giver", "created_at", "withdrawn_at", "withdrawal_reason"]
    list_filter = ["tournament", "colour", ("withdrawn_at", admin.EmptyFieldListFilter)]
    search_fields = ["player__name", "reason"]
    list_select_related = ["player", "round", "given_by"]

    def corrections_url(self, obj):
        return reverse("scoring:player", kwargs={"slug": obj.tournament.slug, "player_id": obj.player_id})


@admin.register(TieDecision)
class TieDecisionAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "__str__", "reason", "created_at"]
    list_filter = ["tournament"]

    def corrections_url(self, obj):
        return reverse("scoring:ties", kwargs={"slug": obj.tournament.slug})

"""The admin: search, filters and reading for the people who run the service (superusers). Nothing
that the standings depend on is added, changed or deleted here: corrections go through the organiser's and referees' pages,
which apply the rules and write the audit log (each change page links to the right one).
A whole tournament may be deleted (e.g. before restoring it from a backup). Host organisations
are the operators' to add and rename; one that still has tournaments cannot be deleted."""

from django.contrib import admin
from django.urls import reverse

from tournament.models import AuditEntry, HostOrganisation, Organisation, Player, Round, Seat, Table, Tournament


class NoChanges:
    """No add, change or delete permission, whoever asks (superusers included)."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(NoChanges, admin.ModelAdmin):
    """List, search, filter and view; no add, change or delete."""

    change_form_template = "admin/read_only_change_form.html"

    def corrections_url(self, obj):
        """The page where `obj` is corrected through the rules and the audit log."""
        return None

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, admin.utils.unquote(object_id))
        extra_context = dict(extra_context or {}, corrections_url=obj and self.corrections_url(obj))
        return super().change_view(request, object_id, form_url, extra_context)


class ReadOnlyInline(NoChanges, admin.TabularInline):
    extra = 0


@admin.register(HostOrganisation)
class HostOrganisationAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "created_at"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ["name", "date", "slug", "host", "visibility", "rounds_planned", "final"]
    list_filter = ["host", "visibility", "date"]
    search_fields = ["name", "slug"]

    def has_delete_permission(self, request, obj=None):
        return request.user.is_superuser

    def get_deleted_objects(self, objs, request):
        """A superuser deletes the tournament with everything in it (read-only one by one)."""
        deleted, counts, _perms_needed, protected = super().get_deleted_objects(objs, request)
        return deleted, counts, set(), protected

    def corrections_url(self, obj):
        return reverse("organiser:settings", kwargs={"slug": obj.slug})


@admin.register(Organisation)
class OrganisationAdmin(ReadOnlyAdmin):
    list_display = ["name", "tournament"]
    list_filter = ["tournament"]
    search_fields = ["name"]

    def corrections_url(self, obj):
        return reverse("organiser:players", kwargs={"slug": obj.tournament.slug})


@admin.register(Player)
class PlayerAdmin(ReadOnlyAdmin):
    list_display = ["start_number", "name", "organisation", "status", "present", "tournament"]
    list_display_links = ["start_number", "name"]
    list_filter = ["tournament", "status", "present"]
    search_fields = ["name", "organisation__name", "ext_id"]
    list_select_related = ["organisation", "tournament"]

    def corrections_url(self, obj):
        return reverse("organiser:player", kwargs={"slug": obj.tournament.slug, "pk": obj.pk})


class TableInline(ReadOnlyInline):
    model = Table
    show_change_link = True


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "number", "kind", "state", "method", "seed"]
    list_filter = ["tournament", "kind", "state"]
    inlines = [TableInline]

    def corrections_url(self, obj):
        return reverse("organiser:round", kwargs={"slug": obj.tournament.slug, "number": obj.number})


class SeatInline(ReadOnlyInline):
    model = Seat


def sheet_url(table):
    return reverse(
        "scoring:sheet",
        kwargs={"slug": table.round.tournament.slug, "round_number": table.round.number, "table_number": table.number},
    )


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ["round", "number"]
    list_filter = ["round__tournament", "round__number"]
    list_select_related = ["round", "round__tournament"]
    inlines = [SeatInline]

    def corrections_url(self, obj):
        return sheet_url(obj)


@admin.register(Seat)
class SeatAdmin(ReadOnlyAdmin):
    list_display = ["table", "letter", "player"]
    list_filter = ["round__tournament", "round__number"]
    search_fields = ["player__name"]
    list_select_related = ["table", "table__round", "player"]

    def corrections_url(self, obj):
        return reverse("organiser:round", kwargs={"slug": obj.round.tournament.slug, "number": obj.round.number})


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "tournament", "action", "who", "from_file", "sheet", "reason"]
    list_filter = ["tournament", "action", "from_file"]
    search_fields = ["reason", "action", "user_name"]
    list_select_related = ["tournament", "user", "sheet"]

"""The host organisations: each runs tournaments on this server and owns them."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.text import match_key


def listing_key(name: str, slug: str) -> str:
    """What a list's search reads: the name and the short address, folded as `match_key` folds
    them (case, spacing and Polish diacritics ignored: "lodz" finds "Łódź")."""
    return match_key(f"{name} {slug}")


class HostOrganisation(models.Model):
    """An organisation that runs tournaments on this server (a federation, a senior university, a
    club): it owns its tournaments, and its people hold their roles through `accounts.Membership`.
    A laptop install has exactly one (`sole_host_organisation`). Not a player's organisation
    (`Organisation`, the senior university a player represents in one tournament)."""

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("short address"), max_length=80, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # The name and short address folded for the lists' search (`listing_key`), kept by `save`.
    search_key = models.CharField(max_length=300, default="", editable=False)

    class Meta:
        ordering = ["name"]
        # The lists of organisations read a page in this order (tournament/listing.py).
        indexes = [models.Index(fields=["name", "id"], name="host_list_order")]
        verbose_name = _("host organisation")
        verbose_name_plural = _("host organisations")

    def __str__(self):
        return self.name

    def save(self, *args, **kwargs):
        self.search_key = listing_key(self.name, self.slug)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None:
            kwargs["update_fields"] = set(update_fields) | {"search_key"}
        super().save(*args, **kwargs)


LAPTOP_HOST = {"slug": "organizator", "name": "Organizator"}


def sole_host_organisation():
    """The owner of a tournament saved without one: the server's only host organisation, made with
    a laptop's first tournament when there is none yet; None when there are several (the caller
    names one)."""
    pks = list(HostOrganisation.objects.values_list("pk", flat=True)[:2])
    if not pks:
        return HostOrganisation.objects.get_or_create(slug=LAPTOP_HOST["slug"], defaults=LAPTOP_HOST)[0].pk
    return pks[0] if len(pks) == 1 else None

"""Who a person's page offers in "the same person as…": a bounded list, however many people the
host organisation has gathered over the seasons (issue 50). Without a search: the people of the
same surname first (case and Polish letters aside), then the likely duplicates of this person (as
the people page flags them), then the others in surname order, up to the limit; with a search,
who it finds. The one already chosen (a duplicate flag's link, a form sent back) is always there.
The list is a convenience: the merge itself accepts any person of the organisation."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet
from django.db.models.functions import Length

from engine.duplicates import alike
from organiser.selectors import MAX_COMPARED, offered_people, people_matching
from tournament.models import Person
from tournament.names import sorted_by_surname
from tournament.text import match_key

MERGE_CHOICES = 30  # people offered at most; a search finds the others


@dataclass(frozen=True)
class MergeChoices:
    people: list[Person]  # offered, in the order shown: the chosen one first
    shown: int  # of them found by the search (or the order without one): the chosen one aside
    total: int  # the people besides this one the search finds (without a search: all of them)

    @property
    def more(self) -> bool:
        """Whether more people match than the list shows."""
        return self.total > self.shown


def _others(person: Person) -> QuerySet[Person]:
    return offered_people(person.host_id).exclude(pk=person.pk)


def _namesakes(person: Person, limit: int) -> list[Person]:
    """The others of the same surname, Polish letters and case aside ("Żak" and "zak")."""
    key = match_key(person.surname)
    # The folded full name ends with the folded surname, as long as the surname (folding keeps a
    # Polish letter one letter): "Nowak Żak" ends with "zak" too but is longer. Checked again below.
    found = (
        _others(person)
        .annotate(surname_length=Length("surname"))
        .filter(Q(name_key=key) | Q(name_key__endswith=f" {key}"), surname_length=len(key))
    )
    return [
        other for other in found.order_by("surname", "given_names", "pk")[:limit] if match_key(other.surname) == key
    ]


def alike_to(person: Person) -> list[int]:
    """The pks of the others the people page flags as maybe this person (`engine.duplicates`,
    among the same MAX_COMPARED oldest records `selectors.likely_duplicates` compares)."""
    rows = (
        Person.objects.filter(host=person.host_id, merged_into__isnull=True)
        .order_by("pk")
        .values_list("pk", "surname", "given_names")[:MAX_COMPARED]
    )
    name = f"{person.given_names} {person.surname}"
    return [pk for pk, surname, given_names in rows if pk != person.pk and alike(name, f"{given_names} {surname}")]


def _likely_first(person: Person, limit: int) -> list[Person]:
    offered = sorted_by_surname(_namesakes(person, limit))
    taken = {other.pk for other in offered}
    alike_pks = [pk for pk in alike_to(person) if pk not in taken][: limit - len(offered)]
    if alike_pks:
        offered += sorted_by_surname(_others(person).filter(pk__in=alike_pks))
        taken |= set(alike_pks)
    if len(offered) < limit:
        rest = _others(person).exclude(pk__in=taken).order_by("surname", "given_names", "pk")
        offered += sorted_by_surname(rest[: limit - len(offered)])
    return offered


def merge_choices(
    person: Person, *, search: str = "", chosen: int | None = None, limit: int = MERGE_CHOICES
) -> MergeChoices:
    """The people "the same person as…" offers for `person` (module docstring): at most `limit`
    plus `chosen` if it is another person of the organisation not merged into anyone; a fixed
    number of queries whatever the organisation's size."""
    counted = Person.objects.filter(host=person.host_id, merged_into__isnull=True).exclude(pk=person.pk)
    if search:
        found = people_matching(_others(person), search).order_by("surname", "given_names", "pk")
        offered = sorted_by_surname(found[:limit])
        total = people_matching(counted, search).count()
    else:
        offered = _likely_first(person, limit)
        total = counted.count()
    shown = len(offered)
    if chosen is not None and chosen not in {other.pk for other in offered}:
        offered = list(_others(person).filter(pk=chosen)) + offered
    return MergeChoices(offered, shown, total)

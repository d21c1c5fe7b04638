"""Template filters of the people and players' pages: `alike_of` gives the records a person may
be (`organiser.selectors.likely_duplicates`, a dict by person pk), [] for none."""

from django import template

register = template.Library()


@register.filter
def alike_of(duplicates, person_id):
    """`duplicates[person_id]`, or [] (no person, no flag)."""
    return (duplicates or {}).get(person_id, [])

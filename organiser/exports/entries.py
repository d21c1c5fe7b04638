"""The entries (SPEC §11) as a table for CSV and XLSX: for the organisation's organisers only,
contact details included (blank once deleted after the tournament)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _

from organiser import entry_selectors
from organiser.exports.writers.tables import Table
from organiser.models import Entry


def _local(moment):
    return timezone.localtime(moment).replace(tzinfo=None) if moment else None


def entries_table(tournament) -> Table:
    entries = entry_selectors.entries_of(tournament)
    places = {entry.pk: place for place, entry in enumerate(entry_selectors.waiting_list(tournament), start=1)}
    table = Table(
        title=_("Entries"),
        headers=[
            _("State"),
            _("Place on the waiting list"),
            _("Organisation"),
            _("Surname"),
            _("Given names"),
            _("Year of birth"),
            _("Contact person"),
            _("Contact e-mail"),
            _("Contact phone"),
            _("Consent"),
            _("Consent given"),
            _("Entered"),
            _("Confirmed"),
            _("Reason"),
        ],
        caption=_("In the order the entries were sent."),
    )
    for entry in entries:
        table.rows.append(
            [
                str(Entry.State(entry.state).label),
                places.get(entry.pk),
                entry.organisation,
                entry.surname,
                entry.given_names,
                entry.birth_year,
                entry.contact_name,
                entry.contact_email,
                entry.contact_phone,
                entry.consent_text,
                _local(entry.consent_at),
                _local(entry.created_at),
                _local(entry.confirmed_at),
                entry.reason,
            ]
        )
    return table

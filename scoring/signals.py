"""Signals scoring sends to the apps above it (which it must not import).

`sheet_verified` is sent after the transaction that verified a sheet, or corrected a verified
one, has committed: arguments `tournament_id` and `trigger` (e.g. ``verify-r3-t12``). The
organiser's automatic snapshots listen to it.
"""

from django.db import transaction
from django.dispatch import Signal

sheet_verified = Signal()


def send_after_commit(sheet, action):
    """Send `sheet_verified` for `sheet` once the current transaction commits."""
    table = sheet.table
    tournament_id = table.round.tournament_id
    trigger = f"{action}-r{table.round.number}-t{table.number}"
    transaction.on_commit(
        lambda: sheet_verified.send(sender=sheet.__class__, tournament_id=tournament_id, trigger=trigger)
    )

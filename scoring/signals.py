"""Signals scoring sends to the apps above it (which it must not import).

`sheet_verified` is sent inside the transaction that verifies a sheet, or corrects a verified
one: arguments `tournament_id` and `trigger` (e.g. ``verify-r3-t12``). The organiser's automatic
snapshots listen to it and queue their task in that transaction, so it commits or rolls back
with the verification.
"""

from django.dispatch import Signal

sheet_verified = Signal()


def send_sheet_verified(sheet, action):
    """Send `sheet_verified` for `sheet` (in the caller's transaction)."""
    table = sheet.table
    trigger = f"{action}-r{table.round.number}-t{table.number}"
    sheet_verified.send(sender=sheet.__class__, tournament_id=table.round.tournament_id, trigger=trigger)

"""The audit log in an interchange file: the optional top-level `audit` list.

Each entry is ``{"when": ISO time, "who": user name or null, "what": action, "sheet":
{"round": n, "table": m} or null, "before": …, "after": …, "reason": …}``, oldest first.
Staff accounts are not in the file: `who` is the user name as text, and a restored entry keeps
it as text (`AuditEntry.user_name`) without linking to any account.

Every entry written from a file is marked so (`AuditEntry.from_file`): its who and when are what
the file says, and nothing checked them. The mark is not written back to a file: in a file every
entry is what the file says, so an export gives `who` as the plain user name, the next import
marks the entry again, and a file cannot pass an entry off as made in this app.
"""

from __future__ import annotations

import datetime

from organiser.interchange.checks import (
    HugeNumber,
    check_known_keys,
    checked_int,
    checked_list,
    checked_object,
    checked_text,
    checked_time,
    fail,
    optional_text,
    shown,
)
from scoring.models import ScoreSheet
from tournament.models import AuditEntry

ENTRY_KEYS = ("when", "who", "what", "sheet", "before", "after", "reason")


def export_audit(tournament):
    """The tournament's audit log, oldest first (deterministic: by time, then by id)."""
    entries = (
        AuditEntry.objects.filter(tournament=tournament)
        .select_related("user", "sheet__table__round")
        .order_by("created_at", "pk")
    )
    return [
        {
            "when": e.created_at.astimezone(datetime.UTC).isoformat(),
            "who": e.who,
            "what": e.action,
            "sheet": {"round": e.sheet.table.round.number, "table": e.sheet.table.number} if e.sheet else None,
            "before": e.before,
            "after": e.after,
            "reason": e.reason,
        }
        for e in entries
    ]


MAX_VERSION = 10**9


def _snapshot(value, path):
    """A before or after: an object (any JSON inside, but no number of absurd length) or null."""
    if value is not None and not isinstance(value, dict):
        fail(path, f"must be an object or null, got {shown(value)}")
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, HugeNumber):
            fail(where, f"got {item!r}")
        if isinstance(item, dict):
            stack.extend((child, f"{where}.{key}") for key, child in item.items())
        elif isinstance(item, list):
            stack.extend((child, f"{where}[{k}]") for k, child in enumerate(item))
    return value


def parse_audit(data, rounds):
    """The file's audit entries, checked; `rounds` are the parsed rounds (for the sheet references)."""
    tables = {(r["number"], t["number"]) for r in rounds for t in r["tables"]}
    entries = []
    for i, e in enumerate(checked_list(data, "audit")):
        path = f"audit[{i}]"
        e = checked_object(e, path)
        check_known_keys(e, path, ENTRY_KEYS)
        when = checked_time(e.get("when"), f"{path}.when")
        sheet = e.get("sheet")
        if sheet is not None:
            sheet = checked_object(sheet, f"{path}.sheet")
            check_known_keys(sheet, f"{path}.sheet", ("round", "table"))
            key = (
                checked_int(sheet.get("round"), f"{path}.sheet.round", 1, 100),
                checked_int(sheet.get("table"), f"{path}.sheet.table", 1, 1000),
            )
            if key not in tables:
                fail(f"{path}.sheet", f"no table {key[1]} in round {key[0]}")
            sheet = key
        entries.append(
            {
                "when": when,
                "who": optional_text(e.get("who"), f"{path}.who", 150),
                "what": checked_text(e.get("what"), f"{path}.what", max_length=40),
                "sheet": sheet,
                "before": _snapshot(e.get("before"), f"{path}.before"),
                "after": _snapshot(e.get("after"), f"{path}.after"),
                "reason": optional_text(e.get("reason"), f"{path}.reason", 5000),
            }
        )
    return entries


def load_audit(tournament, entries, sheets):
    """Write the parsed entries, each marked as coming from the file; `sheets` maps (round number,
    table number) to the new ScoreSheet.

    A restored sheet takes the highest version its entries name, so an edit conflict after the
    restore shows only the changes made since, not the whole restored history.
    """
    created = AuditEntry.objects.bulk_create(
        AuditEntry(
            tournament=tournament,
            sheet=sheets[e["sheet"]] if e["sheet"] else None,
            user_name=e["who"],
            action=e["what"],
            before=e["before"],
            after=e["after"],
            reason=e["reason"],
            from_file=True,
        )
        for e in entries
    )
    for entry, e in zip(created, entries):
        entry.created_at = e["when"]  # `auto_now_add` stamped the import's time
    AuditEntry.objects.bulk_update(created, ["created_at"], batch_size=500)
    versions = {}
    for entry in created:
        version = entry.after.get("version") if entry.sheet_id and isinstance(entry.after, dict) else None
        if type(version) is int and versions.get(entry.sheet_id, 0) < version <= MAX_VERSION:
            versions[entry.sheet_id] = version
    for sheet_id, version in versions.items():
        ScoreSheet.objects.filter(pk=sheet_id).update(version=version)
